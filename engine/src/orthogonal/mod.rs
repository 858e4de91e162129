//! The orthogonal family: Turkish draughts and the Gothic games on all 64 squares of an 8x8
//! board. Rule card: `../shared/rules/orthogonal.md`.
//!
//! ```
//! use polydam_engine::orthogonal::{rules::Turkish, Orthogonal};
//! use polydam_engine::game::{Duplicates, Game};
//! use polydam_engine::perft::count_paths;
//! type T = Orthogonal<Turkish>;
//! let start = T::start();
//! assert_eq!(count_paths::<T>(&start, 3, Duplicates::Keep), 708);
//! assert_eq!(T::fen(&start), "W:Wa2-h3:Ba6-h7");
//! ```

pub mod eval;
pub mod features;
pub mod learned;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod retro;
pub mod rules;
pub mod setup;
pub mod view;

use std::marker::PhantomData;

use crate::game::{DrawRules, Duplicates, Game, MoveError, MoveStyle, Outcome, Side};
pub use position::{Move, Position};
use rules::Rules;
pub use setup::{Setup, SetupError};

/// The orthogonal family instantiated for the variant `R`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Orthogonal<R: Rules>(PhantomData<R>);

impl<R: Rules> Game for Orthogonal<R> {
    type Position = Position;
    type Move = Move;

    const NAME: &'static str = R::NAME;

    fn start() -> Position {
        notation::start::<R>()
    }

    type SetupError = SetupError;

    fn parse_position(text: &str) -> Result<Position, SetupError> {
        notation::parse_any::<R>(text)
    }

    fn fen(pos: &Position) -> String {
        notation::fen(pos)
    }

    fn hub_position(pos: &Position) -> String {
        notation::pos_string(pos)
    }

    fn board_pieces(pos: &Position) -> Option<u32> {
        Some(pos.occupied().count_ones())
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
        movegen::generate::<R>(pos, dups, out);
    }

    // Inlined into perft's and the search's move loops (perft called it, 9% of perft's
    // instructions, once perft became generic over the families).
    #[inline(always)]
    fn play(pos: &Position, mv: &Move) -> Position {
        position::play(pos, mv)
    }

    fn decided(pos: &Position) -> Option<Outcome> {
        // Card "Game end": "a position where each side has exactly one piece (of any kind) is
        // an immediate draw" in Turkish and the variants "as Turkish".
        movegen::one_piece_draw::<R>(pos).then_some(Outcome::Draw)
    }

    fn no_move_outcome(_pos: &Position) -> Outcome {
        // Card "Game end": "a player who has no pieces or no legal move loses".
        Outcome::Loss
    }

    fn is_capture(mv: &Move) -> bool {
        mv.captured != 0
    }

    fn is_irreversible(pos: &Position, mv: &Move) -> bool {
        if mv.captured != 0 || mv.crowns {
            return true;
        }
        if pos.kings & (1u64 << mv.from) != 0 {
            return false;
        }
        // A man's sideways step can be undone where men step both ways sideways (Turkish E and
        // W); every other man move (forward, Harzdame's one-way sideways step, leaps) cannot.
        let sideways = mv.from >> 3 == mv.to >> 3;
        let both_ways =
            R::SHEET.man_step & (rules::LEFT | rules::RIGHT) == rules::LEFT | rules::RIGHT;
        !(sideways && both_ways)
    }

    fn draw_rules() -> DrawRules {
        R::INFO.draws
    }

    fn move_text(pos: &Position, mv: &Move, style: MoveStyle) -> String {
        notation::move_text::<R>(pos, mv, style)
    }

    fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
        notation::parse_move::<R>(pos, text)
    }

    fn evaluate(pos: &Position) -> i32 {
        eval::evaluate::<R>(pos)
    }

    fn generate_captures(pos: &Position, out: &mut Vec<Move>) {
        movegen::generate_captures::<R>(pos, Duplicates::Drop, out);
    }

    fn has_capture(pos: &Position) -> bool {
        movegen::can_capture::<R>(pos, pos.side)
    }

    fn has_move(pos: &Position) -> bool {
        movegen::has_move::<R>(pos)
    }

    fn capture_threat(pos: &Position) -> bool {
        movegen::can_capture::<R>(pos, pos.side.opponent())
    }

    const MOVE_INDEX_BOUND: usize = 64 * 64;

    fn move_index(_pos: &Position, mv: &Move) -> usize {
        mv.from as usize * 64 + mv.to as usize
    }

    fn board_view(pos: &Position, last: Option<&Move>) -> crate::game::view::BoardView {
        view::board_view(pos, last)
    }

    #[inline]
    fn count_moves(pos: &Position, dups: Duplicates, scratch: &mut Vec<Move>) -> u64 {
        movegen::count_moves::<R>(pos, dups, scratch)
    }
}
