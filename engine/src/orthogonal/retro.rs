//! Turkish draughts' side of the endgame tables (see [`crate::egtb`]): placements to
//! positions and back, and quiet moves played backward.
//!
//! Dense squares are the family's bits (a1 = 0, h8 = 63), so turning the board by 180 degrees
//! is reversing the bits, as [`Position::flipped`] does. Men never move backward in Turkish, so
//! a man stands on ranks 2 to 7 only: the index leaves ranks 1 and 8 out.

use std::sync::OnceLock;

use polydam_tables::orthogonal::{FILE_A, FILE_H, RANK_1, RANK_8};

use super::position::{Move, Position};
use super::rules::Turkish;
use super::Orthogonal;
use crate::egtb::index::{ManSquares, Mirror};
use crate::egtb::{Board, Material, Placement, TableGame};
use crate::game::{Outcome, Side};

/// Squares a Turkish man may stand on (either side's view: ranks 2 to 7).
const MAN_SQUARES: u64 = !(RANK_1 | RANK_8);

impl TableGame for Orthogonal<Turkish> {
    fn board() -> &'static Board {
        static BOARD: OnceLock<Board> = OnceLock::new();
        BOARD.get_or_init(|| Board {
            squares: 64,
            men: [ManSquares::new(MAN_SQUARES), ManSquares::new(MAN_SQUARES)],
            // Card: men step forward and sideways, kings along ranks and files, with nothing
            // that tells the a-file from the h-file, so a position and its mirror image are
            // worth the same and share an index.
            mirror: Some(Mirror::Files8),
        })
    }

    fn slice_exists(m: Material) -> bool {
        // Card "Game end": one piece each is an immediate draw, never a table.
        !(m.side_pieces(0) == 1 && m.side_pieces(1) == 1)
    }

    #[inline]
    fn terminal(p: &Placement) -> Option<Outcome> {
        if p.side(0) == 0 {
            // Card "Game end": a player who has no pieces loses.
            return Some(Outcome::Loss);
        }
        if p.side(0).count_ones() == 1 && p.side(1).count_ones() == 1 {
            return Some(Outcome::Draw);
        }
        None
    }

    #[inline]
    fn piece_count(pos: &Position) -> u32 {
        pos.occupied().count_ones()
    }

    #[inline]
    fn position_of(p: &Placement) -> Position {
        Position {
            pieces: [p.side(0), p.side(1)],
            kings: p.kings[0] | p.kings[1],
            side: Side::White,
            hash: 0,
        }
    }

    fn placement_of(pos: &Position) -> Placement {
        let kings = pos.kings();
        let [w, b] = [Side::White, Side::Black].map(|s| pos.pieces(s));
        let p = Placement {
            men: [w & !kings, b & !kings],
            kings: [w & kings, b & kings],
        };
        match pos.side_to_move() {
            Side::White => p,
            Side::Black => p.flip(64),
        }
    }

    #[inline]
    fn child_of(p: &Placement, mv: &Move) -> Placement {
        let from = 1u64 << mv.from;
        let to = 1u64 << mv.to;
        let mut q = *p;
        let king = q.kings[0] & from != 0 || mv.crowns;
        q.men[1] &= !mv.captured;
        q.kings[1] &= !mv.captured;
        q.men[0] &= !from;
        q.kings[0] &= !from;
        if king {
            q.kings[0] |= to;
        } else {
            q.men[0] |= to;
        }
        q.flip(64)
    }

    #[inline]
    fn stays(mv: &Move) -> bool {
        mv.captured == 0 && !mv.crowns
    }

    fn unmoves(p: &Placement, out: &mut Vec<Placement>) {
        out.clear();
        // The side that just moved is the side to move after turning the board; it moves up.
        let f = p.flip(64);
        let empty = !f.occupied();
        // Men step forward or sideways: each came from below it, or from beside it.
        let mut men = f.men[0];
        while men != 0 {
            let s = men & men.wrapping_neg();
            men &= men - 1;
            let below = (s >> 8) & MAN_SQUARES;
            let left = (s >> 1) & !FILE_H;
            let right = (s << 1) & !FILE_A;
            for t in [below, left, right] {
                if t & empty != 0 {
                    let mut q = f;
                    q.men[0] ^= s | t;
                    out.push(q);
                }
            }
        }
        // Kings fly back along ranks and files over empty squares.
        let mut kings = f.kings[0];
        while kings != 0 {
            let s = kings & kings.wrapping_neg();
            kings &= kings - 1;
            let steps: [fn(u64) -> u64; 4] = [
                |b| b << 8,
                |b| b >> 8,
                |b| (b << 1) & !FILE_A,
                |b| (b >> 1) & !FILE_H,
            ];
            for step in steps {
                let mut t = step(s);
                while t & empty != 0 {
                    let mut q = f;
                    q.kings[0] ^= s | t;
                    out.push(q);
                    t = step(t);
                }
            }
        }
    }
}
