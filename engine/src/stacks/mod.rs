//! Seesaw Draughts (`seesaw-draughts`): Brazilian draughts in which every piece is a stack of
//! one colour and its size sets both its stepping direction and its capture range. Rule card:
//! `../shared/rules/seesaw.md`.
//!
//! ```
//! use polydam_engine::stacks::SeesawDraughts;
//! use polydam_engine::game::{Duplicates, Game};
//! let start = SeesawDraughts::start();
//! let mut moves = Vec::new();
//! SeesawDraughts::generate(&start, Duplicates::Drop, &mut moves);
//! assert_eq!(moves.len(), 7); // card: "White has 7 quiet moves and no capture"
//! ```

pub mod eval;
pub mod features;
pub mod learned;
pub mod movegen;
pub mod notation;
pub mod setup;
pub mod view;

use crate::game::{DrawRules, Duplicates, Game, MoveError, MoveStyle, Outcome, Side};
pub use movegen::{Move, Position};
pub use setup::{Setup, SetupError};

/// The stack-draughts family; its one variant is `seesaw-draughts`.
#[derive(Clone, Copy, Debug, Default)]
pub struct SeesawDraughts;

impl Game for SeesawDraughts {
    type Position = Position;
    type Move = Move;

    const NAME: &'static str = "seesaw-draughts";

    fn start() -> Position {
        notation::start()
    }

    type SetupError = SetupError;

    fn parse_position(text: &str) -> Result<Position, SetupError> {
        notation::parse_any(text)
    }

    fn fen(pos: &Position) -> String {
        notation::fen(pos)
    }

    /// The Hub `pos=` value is the sized FEN: a one-character-per-square string cannot carry
    /// stack sizes (the parser still accepts one, with every size 1).
    fn hub_position(pos: &Position) -> String {
        notation::fen(pos)
    }

    fn side_to_move(pos: &Position) -> Side {
        pos.side
    }

    fn hash(pos: &Position) -> u64 {
        pos.hash
    }

    fn hash_from_scratch(pos: &Position) -> u64 {
        pos.compute_hash()
    }

    fn generate(pos: &Position, dups: Duplicates, out: &mut Vec<Move>) {
        movegen::generate(pos, dups, out);
    }

    fn play(pos: &Position, mv: &Move) -> Position {
        movegen::play(pos, mv)
    }

    fn decided(_pos: &Position) -> Option<Outcome> {
        None
    }

    /// Card: "a player who has no legal move (including having no stacks) loses".
    fn no_move_outcome(_pos: &Position) -> Outcome {
        Outcome::Loss
    }

    fn is_capture(mv: &Move) -> bool {
        mv.captured != 0
    }

    /// Card: "a position can never repeat (every quiet move takes a stack strictly up or down;
    /// captures and promotions cannot be undone)".
    fn is_irreversible(_pos: &Position, _mv: &Move) -> bool {
        true
    }

    /// Card: "there is no draw rule".
    fn draw_rules() -> DrawRules {
        DrawRules {
            repetitions: 0,
            quiet_plies: 0,
            endgame_counters: false,
        }
    }

    fn move_text(pos: &Position, mv: &Move, style: MoveStyle) -> String {
        notation::move_text(pos, mv, style)
    }

    fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(pos, text)
    }

    fn evaluate(pos: &Position) -> i32 {
        eval::evaluate(pos)
    }

    fn generate_captures(pos: &Position, out: &mut Vec<Move>) {
        movegen::generate_captures(pos, Duplicates::Drop, out);
    }

    fn has_capture(pos: &Position) -> bool {
        movegen::can_capture(pos, pos.side)
    }

    fn has_move(pos: &Position) -> bool {
        movegen::count_quiet(pos) > 0 || movegen::can_capture(pos, pos.side)
    }

    fn capture_threat(pos: &Position) -> bool {
        movegen::can_capture(pos, pos.side.opponent())
    }

    const MOVE_INDEX_BOUND: usize = 64 * 64;

    fn move_index(_pos: &Position, mv: &Move) -> usize {
        (mv.from as usize) << 6 | mv.to as usize
    }

    fn board_view(pos: &Position, last: Option<&Move>) -> crate::game::view::BoardView {
        view::board_view(pos, last)
    }

    #[inline]
    fn count_moves(pos: &Position, dups: Duplicates, scratch: &mut Vec<Move>) -> u64 {
        movegen::count_moves(pos, dups, scratch)
    }
}
