//! Positions and moves of the orthogonal family, with copy-make and incremental Zobrist keys.

use polydam_tables::orthogonal::{PIECES, SIDE_TO_MOVE};

use crate::game::Side;

/// An orthogonal-family position. Bit `8 * rank + file` is a square (a1 = 0, h8 = 63).
///
/// Built for a variant by [`Position::from_setup`] (or by parsing, which goes through it) and
/// by [`play`]; read through its accessors.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Position {
    /// Pieces of each side, indexed by [`Side::index`].
    pub(crate) pieces: [u64; 2],
    /// Kings of both sides.
    pub(crate) kings: u64,
    /// The side to move.
    pub(crate) side: Side,
    /// Zobrist key, kept up to date by [`play`].
    pub(crate) hash: u64,
}

/// A move: from, to (bit indices), whether the piece is crowned, and the captured pieces.
///
/// Capture paths are not stored: two paths with the same from, to and captured set are the same
/// move (card: "Sequences with the same piece, the same landing square and the same set of
/// captured pieces are one move"); notation finds a path again when it needs one. Line leaps and
/// Dameo line moves are quiet moves of a man from its square to the landing square.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct Move {
    /// Bit index of the start square.
    pub from: u8,
    /// Bit index of the final square (equal to `from` for a king that comes back to its start).
    pub to: u8,
    /// The moving man becomes a king.
    pub crowns: bool,
    /// The captured pieces (empty for a quiet move).
    pub captured: u64,
}

impl Move {
    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }
}

/// Zobrist key index of a piece kind.
#[inline(always)]
pub(crate) const fn kind(side: usize, king: bool) -> usize {
    side + if king { 2 } else { 0 }
}

impl Position {
    /// An empty board with `side` to move.
    pub(crate) fn empty(side: Side) -> Position {
        let mut p = Position {
            pieces: [0, 0],
            kings: 0,
            side,
            hash: 0,
        };
        p.hash = p.compute_hash();
        p
    }

    /// The Zobrist key computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Side::Black {
            SIDE_TO_MOVE
        } else {
            0
        };
        for side in 0..2 {
            let mut bits = self.pieces[side];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let king = self.kings & (1u64 << b) != 0;
                h ^= PIECES[kind(side, king)][b];
            }
        }
        h
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }

    /// The pieces (men and kings) of `side`, bit `8 * rank + file` per square.
    #[inline]
    pub fn pieces(&self, side: Side) -> u64 {
        self.pieces[side.index()]
    }

    /// The kings of both sides.
    #[inline]
    pub fn kings(&self) -> u64 {
        self.kings
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The Zobrist key, kept up to date by [`play`] (equal to [`Position::compute_hash`]).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The same position with the board turned by 180 degrees, the colours swapped and the
    /// other side to move: what the side to move sees as the opponent sees it. Every rule of the
    /// family is invariant under this map (Harzdame's zones included), so legal moves,
    /// perft counts and evaluations must be too.
    pub fn flipped(&self) -> Position {
        let mut p = Position {
            pieces: [self.pieces[1].reverse_bits(), self.pieces[0].reverse_bits()],
            kings: self.kings.reverse_bits(),
            side: self.side.opponent(),
            hash: 0,
        };
        p.hash = p.compute_hash();
        p
    }
}

/// The position after `mv` (copy-make), with the key updated incrementally.
#[inline(always)]
pub fn play(pos: &Position, mv: &Move) -> Position {
    let us = pos.side.index();
    let them = 1 - us;
    let from = 1u64 << mv.from;
    let to = 1u64 << mv.to;
    let was_king = pos.kings & from != 0;
    let is_king = was_king || mv.crowns;
    let mut p = *pos;
    let mut h = pos.hash
        ^ PIECES[kind(us, was_king)][mv.from as usize]
        ^ PIECES[kind(us, is_king)][mv.to as usize]
        ^ SIDE_TO_MOVE;
    // Captured pieces first: with immediate removal a king may end on a captured square only
    // after that piece left, and clearing before placing keeps `to` occupied.
    if mv.captured != 0 {
        let mut men = mv.captured & !pos.kings;
        while men != 0 {
            h ^= PIECES[kind(them, false)][men.trailing_zeros() as usize];
            men &= men - 1;
        }
        let mut kings = mv.captured & pos.kings;
        while kings != 0 {
            h ^= PIECES[kind(them, true)][kings.trailing_zeros() as usize];
            kings &= kings - 1;
        }
        p.pieces[them] &= !mv.captured;
        p.kings &= !mv.captured;
    }
    p.pieces[us] = (p.pieces[us] & !from) | to;
    p.kings &= !from;
    if is_king {
        p.kings |= to;
    }
    p.side = pos.side.opponent();
    p.hash = h;
    p
}
