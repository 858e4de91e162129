//! Positions and moves of the diagonal family, with copy-make and incremental Zobrist keys.

use polydam_tables::zobrist::{DIAGONAL_PIECES, SIDE_TO_MOVE};

use super::eval;
use super::patterns::{self, WindowStates, Windows};
use super::rules::Rules;
use crate::game::Side;

/// A diagonal-family position. Bitboards use the layout of [`polydam_tables::diagonal`].
///
/// Built for a variant by [`Position::from_setup`] (or by parsing, which goes through it) and
/// by [`play`]; read through its accessors. Its key and evaluation terms are the variant's:
/// play it under that variant only.
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
    /// Each side's men summed through the variant's per-square evaluation table (packed
    /// terms, see `eval::Tables`), kept up to date by [`play`] so that an evaluation need not
    /// visit the men. Variant-specific: [`Position::from_setup`] computes them for its variant.
    pub(crate) men_terms: [i64; 2],
    /// The base-3 states of the board's 4x4 windows of men, White's view (see
    /// [`super::patterns`]), kept up to date by [`play`] for the learned evaluation.
    pub(crate) windows: WindowStates,
}

/// A move: from, to (bit indices), whether the piece is crowned, and the captured pieces.
///
/// Capture paths are not stored: two paths with the same from, to and captured set are the same
/// move (the rule cards' "duplicate captures"); notation recovers a path when it needs one.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct Move {
    /// Bit index of the start square.
    pub from: u8,
    /// Bit index of the final square (equal to `from` for a king that returns to its start).
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
            men_terms: [0, 0],
            windows: [0; patterns::MAX_WINDOWS],
        };
        p.hash = p.compute_hash();
        p
    }

    /// A position from its bitboards with `side` to move, without the evaluation's
    /// incremental terms: for move generation only (the endgame tables' solver), never to be
    /// evaluated or searched.
    pub(crate) fn bare(pieces: [u64; 2], kings: u64, side: Side) -> Position {
        Position {
            pieces,
            kings,
            side,
            hash: 0,
            men_terms: [0, 0],
            windows: [0; patterns::MAX_WINDOWS],
        }
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
                h ^= DIAGONAL_PIECES[kind(side, king)][b];
            }
        }
        h
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }

    /// The pieces (men and kings) of `side`, one bit per square in the layout of
    /// [`polydam_tables::diagonal`].
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
}

/// The position after `mv` (copy-make).
#[inline(always)]
pub fn play<R: Rules>(pos: &Position, mv: &Move) -> Position {
    let us = pos.side.index();
    let them = 1 - us;
    let from = 1u64 << mv.from;
    let to = 1u64 << mv.to;
    let was_king = pos.kings & from != 0;
    let is_king = was_king || mv.crowns;
    let mut p = *pos;
    let terms = eval::tables::<R>();
    let windows = Windows::of(R::SHEET.board);
    if !was_king {
        p.men_terms[us] -= eval::man_square_terms(terms, us, mv.from as u32);
        windows.remove(&mut p.windows, us, mv.from as u32);
        if !is_king {
            p.men_terms[us] += eval::man_square_terms(terms, us, mv.to as u32);
            windows.add(&mut p.windows, us, mv.to as u32);
        }
    }
    let mut h = pos.hash
        ^ DIAGONAL_PIECES[kind(us, was_king)][mv.from as usize]
        ^ DIAGONAL_PIECES[kind(us, is_king)][mv.to as usize]
        ^ SIDE_TO_MOVE;
    p.pieces[us] = (p.pieces[us] & !from) | to;
    p.kings &= !from;
    if is_king {
        p.kings |= to;
    }
    if mv.captured != 0 {
        let mut men = mv.captured & !pos.kings;
        while men != 0 {
            let b = men.trailing_zeros();
            h ^= DIAGONAL_PIECES[kind(them, false)][b as usize];
            p.men_terms[them] -= eval::man_square_terms(terms, them, b);
            windows.remove(&mut p.windows, them, b);
            men &= men - 1;
        }
        let mut kings = mv.captured & pos.kings;
        while kings != 0 {
            h ^= DIAGONAL_PIECES[kind(them, true)][kings.trailing_zeros() as usize];
            kings &= kings - 1;
        }
        p.pieces[them] &= !mv.captured;
        p.kings &= !mv.captured;
    }
    p.side = pos.side.opponent();
    p.hash = h;
    p
}
