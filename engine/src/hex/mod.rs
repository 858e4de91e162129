//! Hex Seesaw (`seesaw`, side 4, and `seesaw-5`, side 5): tiles, deploys and multi-step stacks
//! on a hexhex board. Rule card: `../shared/rules/seesaw.md`.
//!
//! ```
//! use polydam_engine::hex::{Hex, Side4};
//! use polydam_engine::game::{Duplicates, Game};
//! let start = Hex::<Side4>::start();
//! let mut moves = Vec::new();
//! Hex::<Side4>::generate(&start, Duplicates::Drop, &mut moves);
//! assert_eq!(moves.len(), 6); // card: three steps and three deploys
//! ```

pub mod eval;
pub mod features;
pub mod learned;
pub mod movegen;
pub mod notation;
pub mod setup;
pub mod view;

use std::marker::PhantomData;

use polydam_tables::hex::{HexGeometry, SIDE4, SIDE5};

use crate::game::{DrawRules, Duplicates, Game, MoveError, MoveStyle, Outcome, Side};
use crate::learn::source::WeightsCell;
use learned::Learned;
pub use movegen::{Kind, Move, Position};
pub use setup::{Setup, SetupError};

/// The board of one hex Seesaw variant.
pub trait HexBoard: Copy + Send + Sync + 'static {
    /// Registry name, written only here (the registry row reads it).
    const NAME: &'static str;
    /// The board geometry.
    const GEOMETRY: &'static HexGeometry;
    /// Where the board's learned evaluation is kept once loaded (see [`learned`]).
    fn learned_cell() -> &'static WeightsCell<Learned>;
}

/// `seesaw`: side 4, 37 cells.
#[derive(Clone, Copy, Debug, Default)]
pub struct Side4;
impl HexBoard for Side4 {
    const NAME: &'static str = "seesaw";
    const GEOMETRY: &'static HexGeometry = &SIDE4;
    fn learned_cell() -> &'static WeightsCell<Learned> {
        static CELL: WeightsCell<Learned> = WeightsCell::new();
        &CELL
    }
}

/// `seesaw-5`: side 5, 61 cells.
#[derive(Clone, Copy, Debug, Default)]
pub struct Side5;
impl HexBoard for Side5 {
    const NAME: &'static str = "seesaw-5";
    const GEOMETRY: &'static HexGeometry = &SIDE5;
    fn learned_cell() -> &'static WeightsCell<Learned> {
        static CELL: WeightsCell<Learned> = WeightsCell::new();
        &CELL
    }
}

/// The hex Seesaw family on board `B`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hex<B: HexBoard>(PhantomData<B>);

impl<B: HexBoard> Game for Hex<B> {
    type Position = Position;
    type Move = Move;

    const NAME: &'static str = B::NAME;

    fn start() -> Position {
        notation::start(B::GEOMETRY)
    }

    type SetupError = SetupError;

    fn parse_position(text: &str) -> Result<Position, SetupError> {
        notation::parse_any(B::GEOMETRY, text)
    }

    fn fen(pos: &Position) -> String {
        notation::fen(B::GEOMETRY, pos)
    }

    /// The Hub `pos=` value is the FEN (docs/seesaw.md).
    fn hub_position(pos: &Position) -> String {
        notation::fen(B::GEOMETRY, pos)
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

    #[inline]
    fn generate(pos: &Position, dups: Duplicates, out: &mut Vec<Move>) {
        movegen::generate(B::GEOMETRY, pos, dups, out);
    }

    // Inlined into perft's and the search's move loops: called, the copy of the position
    // cost perft 3% more instructions.
    #[inline(always)]
    fn play(pos: &Position, mv: &Move) -> Position {
        movegen::play(pos, mv)
    }

    /// Card: "if, at the end of your turn, your opponent has no stacks on the board, you win";
    /// "if both players pass in succession the game is drawn" — the position remembers a pass,
    /// so a second forced pass is seen here without generating moves in the common case.
    fn decided(pos: &Position) -> Option<Outcome> {
        if pos.stacks[pos.side.index()] == 0 {
            return Some(Outcome::Loss);
        }
        if pos.passed && !movegen::has_real_move(B::GEOMETRY, pos) {
            return Some(Outcome::Draw);
        }
        None
    }

    fn no_move_outcome(pos: &Position) -> Outcome {
        if pos.stacks[pos.side.index()] == 0 {
            Outcome::Loss
        } else {
            Outcome::Draw
        }
    }

    fn is_capture(mv: &Move) -> bool {
        mv.kind == Kind::Capture
    }

    /// Card: "positions can never repeat".
    fn is_irreversible(_pos: &Position, _mv: &Move) -> bool {
        true
    }

    fn draw_rules() -> DrawRules {
        DrawRules {
            repetitions: 0,
            quiet_plies: 0,
            endgame_counters: false,
        }
    }

    fn move_text(pos: &Position, mv: &Move, _style: MoveStyle) -> String {
        notation::move_text(B::GEOMETRY, pos, mv)
    }

    fn move_path(pos: &Position, mv: &Move) -> Vec<String> {
        match mv.kind {
            movegen::Kind::Pass => Vec::new(),
            _ => notation::move_text(B::GEOMETRY, pos, mv)
                .split(['-', 'x', '@'])
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
        }
    }

    fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(B::GEOMETRY, pos, text)
    }

    fn evaluate(pos: &Position) -> i32 {
        eval::evaluate::<B>(pos)
    }

    fn generate_captures(pos: &Position, out: &mut Vec<Move>) {
        movegen::generate_captures(B::GEOMETRY, pos, Duplicates::Drop, out);
    }

    fn has_capture(pos: &Position) -> bool {
        movegen::can_capture(B::GEOMETRY, pos, pos.side)
    }

    fn has_move(pos: &Position) -> bool {
        // A side with stacks always has a move: a pass when nothing else (the double pass is
        // caught by `decided`).
        pos.stacks[pos.side.index()] != 0
            && (!pos.passed || movegen::has_real_move(B::GEOMETRY, pos))
    }

    fn capture_threat(pos: &Position) -> bool {
        movegen::can_capture(B::GEOMETRY, pos, pos.side.opponent())
    }

    const MOVE_INDEX_BOUND: usize = 64 * 64 * 2;

    fn move_index(_pos: &Position, mv: &Move) -> usize {
        let deploy = (mv.kind == Kind::Deploy) as usize;
        deploy << 12 | (mv.from as usize) << 6 | mv.to as usize
    }

    fn board_view(pos: &Position, last: Option<&Move>) -> crate::game::view::BoardView {
        view::board_view(B::GEOMETRY, pos, last)
    }
}
