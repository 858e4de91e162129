//! The diagonal family's side of the endgame tables (see [`crate::egtb`]): dense square
//! numbers, placements to positions and back, and quiet moves played backward.
//!
//! Dense squares are the internal square indices (0 = the top-left playing square, row by row),
//! so the board's bit layout is met only where a placement becomes a position and back. Turning
//! the board by 180 degrees maps square `s` to `squares - 1 - s`.

use std::sync::OnceLock;

use polydam_tables::diagonal::{Geometry, EIGHT, TEN};

use super::position::{Move, Position};
use super::rules::{Goal, Rules};
use super::Diagonal;
use crate::egtb::index::ManSquares;
use crate::egtb::{Board, Material, Placement, TableGame};
use crate::game::{Outcome, Side};

/// A board's dense squares against its bit layout, and each square's neighbours.
struct Dense {
    squares: u32,
    /// `bit[s]`: the layout bit of dense square `s`.
    bit: [u8; 64],
    /// `dense[b]`: the dense square of layout bit `b` (`NONE` for a ghost bit).
    dense: [u8; 64],
    /// `next[d][s]`: the neighbour of `s` in direction `d` (0 up-left, 1 up-right, 2
    /// down-left, 3 down-right, "up" towards row 0), or `NONE`.
    next: [[u8; 64]; 4],
}

const NONE: u8 = u8::MAX;

const fn dense_of(g: Geometry) -> Dense {
    let mut d = Dense {
        squares: g.squares() as u32,
        bit: [0; 64],
        dense: [NONE; 64],
        next: [[NONE; 64]; 4],
    };
    let mut s = 0;
    while s < g.squares() {
        let b = g.bit_index(s);
        d.bit[s] = b as u8;
        d.dense[b as usize] = s as u8;
        let (row, file) = g.row_file(s);
        let mut dir = 0;
        while dir < 4 {
            let up = dir < 2;
            let left = dir % 2 == 0;
            let r = if up { row.wrapping_sub(1) } else { row + 1 };
            let f = if left { file.wrapping_sub(1) } else { file + 1 };
            if let Some(t) = g.square_at(r, f) {
                d.next[dir][s] = t as u8;
            }
            dir += 1;
        }
        s += 1;
    }
    d
}

static TEN_DENSE: Dense = dense_of(TEN);
static EIGHT_DENSE: Dense = dense_of(EIGHT);

#[inline(always)]
fn dense<R: Rules>() -> &'static Dense {
    if R::SHEET.board.half == TEN.half {
        &TEN_DENSE
    } else {
        &EIGHT_DENSE
    }
}

/// The layout bits of a dense square set.
#[inline(always)]
fn to_bits(d: &Dense, mut set: u64) -> u64 {
    let mut bits = 0u64;
    while set != 0 {
        bits |= 1u64 << d.bit[set.trailing_zeros() as usize];
        set &= set - 1;
    }
    bits
}

/// The dense square set of layout bits.
#[inline(always)]
fn to_dense(d: &Dense, mut bits: u64) -> u64 {
    let mut set = 0u64;
    while bits != 0 {
        set |= 1u64 << d.dense[bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    set
}

/// The table board of geometry `g`: men of the side to move (moving up) never stand on row
/// 0, the other side's never on the last row.
fn board_of(g: Geometry) -> &'static Board {
    static BOARDS: [OnceLock<Board>; 2] = [OnceLock::new(), OnceLock::new()];
    let cell = &BOARDS[usize::from(g.half == TEN.half)];
    cell.get_or_init(|| {
        let n = g.squares() as u32;
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let row = (1u64 << g.half) - 1;
        Board {
            squares: n,
            men: [
                ManSquares::new(all & !row),
                ManSquares::new(all & !(row << (n - g.half))),
            ],
            // A left-right mirror takes dark squares to light ones on these boards.
            mirror: None,
        }
    })
}

// Tables cover the one-word boards (8x8, 10x10); Canadian's 12x12 needs a wider index.
impl<R: Rules<Bits = u64>> TableGame for Diagonal<R> {
    fn board() -> &'static Board {
        board_of(R::SHEET.board)
    }

    fn slice_exists(m: Material) -> bool {
        // Breakthrough: a king ends the game, so only men are ever on the board.
        R::SHEET.goal != Goal::FirstKingWins || m.kings == [0, 0]
    }

    #[inline]
    fn terminal(p: &Placement) -> Option<Outcome> {
        if p.side(0) == 0 {
            // No piece, no move: the card's "no piece or no legal move" outcome.
            return Some(match R::SHEET.goal {
                Goal::NoMoveWins => Outcome::Win,
                Goal::Normal | Goal::FirstKingWins => Outcome::Loss,
            });
        }
        if R::SHEET.goal == Goal::FirstKingWins && p.kings[1] != 0 {
            return Some(Outcome::Loss);
        }
        None
    }

    #[inline]
    fn piece_count(pos: &Position) -> u32 {
        pos.occupied().count_ones()
    }

    #[inline]
    fn position_of(p: &Placement) -> Position {
        let d = dense::<R>();
        Position::bare(
            [to_bits(d, p.side(0)), to_bits(d, p.side(1))],
            to_bits(d, p.kings[0] | p.kings[1]),
            Side::White,
        )
    }

    fn placement_of(pos: &Position) -> Placement {
        let d = dense::<R>();
        let kings = pos.kings();
        let [w, b] = [Side::White, Side::Black].map(|s| pos.pieces(s));
        let p = Placement {
            men: [to_dense(d, w & !kings), to_dense(d, b & !kings)],
            kings: [to_dense(d, w & kings), to_dense(d, b & kings)],
        };
        match pos.side_to_move() {
            Side::White => p,
            Side::Black => p.flip(d.squares),
        }
    }

    #[inline]
    fn child_of(p: &Placement, mv: &Move) -> Placement {
        let d = dense::<R>();
        let from = 1u64 << d.dense[mv.from as usize];
        let to = 1u64 << d.dense[mv.to as usize];
        let mut q = *p;
        let king = q.kings[0] & from != 0 || mv.crowns;
        q.men[0] &= !from;
        q.kings[0] &= !from;
        if king {
            q.kings[0] |= to;
        } else {
            q.men[0] |= to;
        }
        if mv.captured != 0 {
            let gone = to_dense(d, mv.captured);
            q.men[1] &= !gone;
            q.kings[1] &= !gone;
        }
        q.flip(d.squares)
    }

    #[inline]
    fn stays(mv: &Move) -> bool {
        mv.captured == 0 && !mv.crowns
    }

    fn unmoves(p: &Placement, out: &mut Vec<Placement>) {
        out.clear();
        let d = dense::<R>();
        // The side that just moved is the side to move after turning the board.
        let f = p.flip(d.squares);
        let all = if d.squares == 64 {
            u64::MAX
        } else {
            (1u64 << d.squares) - 1
        };
        let empty = !f.occupied() & all;
        // Men step forward (up): each came from one of the two squares below it.
        let mut men = f.men[0];
        while men != 0 {
            let s = men.trailing_zeros() as usize;
            men &= men - 1;
            for dir in [2, 3] {
                let t = d.next[dir][s];
                if t != NONE && empty & (1u64 << t) != 0 {
                    let mut q = f;
                    q.men[0] ^= (1u64 << s) | (1u64 << t);
                    out.push(q);
                }
            }
        }
        // Kings slide back along any line over empty squares (one step for short kings).
        let constitutional = R::SHEET.constitutional && f.kings[1] != 0;
        let mut kings = f.kings[0];
        while kings != 0 {
            let s = kings.trailing_zeros() as usize;
            kings &= kings - 1;
            // Constitutional: the forward slide from `t` to `s` may not pass a threatened square
            // unless `s` is threatened; threats are seen with the moving king lifted, so every
            // slide of this king shares them.
            let threats = if constitutional {
                threatened(d, f.kings[1], empty | (1u64 << s))
            } else {
                0
            };
            let ends_threatened = threats & (1u64 << s) != 0;
            for dir in 0..4 {
                let mut passed_threat = false;
                let mut t = d.next[dir][s];
                while t != NONE && empty & (1u64 << t) != 0 {
                    if ends_threatened || !passed_threat {
                        let mut q = f;
                        q.kings[0] ^= (1u64 << s) | (1u64 << t);
                        out.push(q);
                    }
                    if !R::SHEET.flying_kings {
                        break;
                    }
                    passed_threat |= threats & (1u64 << t) != 0;
                    t = d.next[dir][t as usize];
                }
            }
        }
    }
}

/// Constitutional's threatened squares in dense numbering (as the move generator's): a square
/// an enemy king sees along a diagonal over `empty` squares, with the square beyond it empty.
fn threatened(d: &Dense, enemy_kings: u64, empty: u64) -> u64 {
    let mut threats = 0u64;
    let mut ks = enemy_kings;
    while ks != 0 {
        let k = ks.trailing_zeros() as usize;
        ks &= ks - 1;
        for dir in 0..4 {
            let mut x = d.next[dir][k];
            while x != NONE && empty & (1u64 << x) != 0 {
                let beyond = d.next[dir][x as usize];
                if beyond == NONE || empty & (1u64 << beyond) == 0 {
                    break;
                }
                threats |= 1u64 << x;
                x = beyond;
            }
        }
    }
    threats
}
