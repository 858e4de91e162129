//! The diagonal family: International draughts, the 8x8 national games and the 10x10 variants
//! built on them. Rule cards: `../shared/rules/diagonal-10x10.md` and
//! `../shared/rules/diagonal-8x8.md`.

pub mod bits;
pub mod eval;
pub mod features;
pub mod learned;
pub mod movegen;
pub mod notation;
pub mod patterns;
pub mod position;
pub mod retro;
pub mod rules;
pub mod setup;
pub mod view;

use std::marker::PhantomData;

use crate::game::{DrawRules, Duplicates, Game, MoveError, MoveStyle, Outcome, Side};
pub use bits::Bits;
pub use position::{KingMoves, Move, Position};
use rules::{Endgames, Goal, Rules};
pub use setup::{Setup, SetupError};

/// The diagonal family instantiated for the variant `R`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Diagonal<R: Rules>(PhantomData<R>);

impl<R: Rules> Game for Diagonal<R> {
    type Position = Position<R::Bits>;
    type Move = Move<R::Bits>;

    const NAME: &'static str = R::NAME;

    fn start() -> Position<R::Bits> {
        notation::start::<R>()
    }

    type SetupError = SetupError;

    fn parse_position(text: &str) -> Result<Position<R::Bits>, SetupError> {
        notation::parse_any::<R>(text)
    }

    fn fen(pos: &Position<R::Bits>) -> String {
        notation::fen::<R>(pos)
    }

    fn hub_position(pos: &Position<R::Bits>) -> String {
        notation::hub::<R>(pos)
    }

    fn side_to_move(pos: &Position<R::Bits>) -> Side {
        pos.side
    }

    fn hash(pos: &Position<R::Bits>) -> u64 {
        pos.hash
    }

    fn hash_from_scratch(pos: &Position<R::Bits>) -> u64 {
        pos.compute_hash()
    }

    fn generate(pos: &Position<R::Bits>, dups: Duplicates, out: &mut Vec<Move<R::Bits>>) {
        movegen::generate::<R>(pos, dups, out);
    }

    #[inline(always)]
    fn play(pos: &Position<R::Bits>, mv: &Move<R::Bits>) -> Position<R::Bits> {
        position::play::<R>(pos, mv)
    }

    fn decided(pos: &Position<R::Bits>) -> Option<Outcome> {
        // Breakthrough: "the first player to crown a king wins".
        movegen::breakthrough_done::<R>(pos).then_some(Outcome::Loss)
    }

    fn board_pieces(pos: &Position<R::Bits>) -> Option<u32> {
        Some(pos.occupied().count_ones())
    }

    fn no_move_outcome(_pos: &Position<R::Bits>) -> Outcome {
        match R::SHEET.goal {
            // Antidraughts: "a player who has no pieces or no legal move wins".
            Goal::NoMoveWins => Outcome::Win,
            Goal::Normal | Goal::FirstKingWins => Outcome::Loss,
        }
    }

    fn is_capture(mv: &Move<R::Bits>) -> bool {
        !mv.captured.is_empty()
    }

    fn is_irreversible(pos: &Position<R::Bits>, mv: &Move<R::Bits>) -> bool {
        !mv.captured.is_empty() || (pos.kings & R::Bits::bit(mv.from as u32)).is_empty()
    }

    fn draw_rules() -> DrawRules {
        R::INFO.draws
    }

    fn endgame_ply_limit(pos: &Position<R::Bits>) -> Option<u16> {
        // Every covered endgame has kings on both sides and at most four pieces in all; the
        // search asks at every node, and most have no king at all.
        if !R::INFO.draws.endgame_counters
            || pos.kings.is_empty()
            || pos.occupied().count_ones() > 4
        {
            return None;
        }
        if R::INFO.endgames == Endgames::Frisian {
            return frisian_endgame_limit(pos);
        }
        // FMJD: against a lone king, 3 kings / 2 kings + 1 man / 1 king + 2 men get 16 moves
        // each; 2 kings / 1 king + 1 man / 1 king get 5 moves each.
        for lone in [Side::White, Side::Black] {
            let l = pos.pieces[lone.index()];
            let o = pos.pieces[lone.opponent().index()];
            if l.count_ones() == 1 && !(l & pos.kings).is_empty() && !(o & pos.kings).is_empty() {
                match o.count_ones() {
                    3 => return Some(32),
                    1 | 2 => return Some(10),
                    _ => {}
                }
            }
        }
        None
    }

    fn move_text(pos: &Position<R::Bits>, mv: &Move<R::Bits>, style: MoveStyle) -> String {
        notation::move_text::<R>(pos, mv, style)
    }

    fn move_path(pos: &Position<R::Bits>, mv: &Move<R::Bits>) -> Vec<String> {
        notation::move_path::<R>(pos, mv)
    }

    fn parse_move(pos: &Position<R::Bits>, text: &str) -> Result<Move<R::Bits>, MoveError> {
        notation::parse_move::<R>(pos, text)
    }

    fn evaluate(pos: &Position<R::Bits>) -> i32 {
        eval::evaluate::<R>(pos)
    }

    fn generate_captures(pos: &Position<R::Bits>, out: &mut Vec<Move<R::Bits>>) {
        movegen::generate_captures::<R>(pos, Duplicates::Drop, out);
    }

    fn has_capture(pos: &Position<R::Bits>) -> bool {
        eval::can_capture::<R>(pos, pos.side)
    }

    fn has_move(pos: &Position<R::Bits>) -> bool {
        eval::can_move::<R>(pos)
    }

    fn quiet_move_count(pos: &Position<R::Bits>) -> Option<usize> {
        if eval::can_capture::<R>(pos, pos.side) {
            return None;
        }
        movegen::bitboard_quiet_count::<R>(pos).map(|n| n as usize)
    }

    fn capture_threat(pos: &Position<R::Bits>) -> bool {
        eval::can_capture::<R>(pos, pos.side.opponent())
    }

    const MOVE_INDEX_BOUND: usize = (R::Bits::WIDTH * R::Bits::WIDTH) as usize;

    fn move_index(_pos: &Position<R::Bits>, mv: &Move<R::Bits>) -> usize {
        mv.from as usize * R::Bits::WIDTH as usize + mv.to as usize
    }

    fn board_view(
        pos: &Position<R::Bits>,
        last: Option<&Move<R::Bits>>,
    ) -> crate::game::view::BoardView {
        view::board_view::<R>(pos, last)
    }

    #[inline]
    fn count_moves(
        pos: &Position<R::Bits>,
        dups: Duplicates,
        scratch: &mut Vec<Move<R::Bits>>,
    ) -> u64 {
        movegen::count_moves::<R>(pos, dups, scratch)
    }
}

/// Frisian's endgame counts (card `frisian.md`, "End of the game and draws"), kings only: two
/// kings against one are drawn 14 plies after the position where the material arose, one
/// against one 4 plies after it. The game record counts the plies played once the ending is
/// on the board (the move that enters it is not one of them), whether it arose in the game or
/// the game was set up in it.
fn frisian_endgame_limit<B: Bits>(pos: &Position<B>) -> Option<u16> {
    if !(pos.occupied() & !pos.kings).is_empty() {
        return None;
    }
    match (pos.pieces[0].count_ones(), pos.pieces[1].count_ones()) {
        (2, 1) | (1, 2) => Some(14),
        (1, 1) => Some(4),
        _ => None,
    }
}
