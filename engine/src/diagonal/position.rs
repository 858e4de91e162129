//! Positions and moves of the diagonal family, with copy-make and incremental Zobrist keys.

use polydam_tables::zobrist::{DIAGONAL_PIECES_WIDE, SIDE_TO_MOVE};

use super::bits::Bits;
use super::eval;
use super::patterns::Windows;
use super::rules::Rules;
use crate::game::Side;

/// A diagonal-family position. Bitboards use the layout of [`polydam_tables::diagonal`] in the
/// word `B` of the variant's board (`u64` on 8x8 and 10x10, `u128` on 12x12).
///
/// Built for a variant by [`Position::from_setup`] (or by parsing, which goes through it) and
/// by [`play`]; read through its accessors. Its key and evaluation terms are the variant's:
/// play it under that variant only.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Position<B: Bits = u64> {
    /// Pieces of each side, indexed by [`Side::index`].
    pub(crate) pieces: [B; 2],
    /// Kings of both sides.
    pub(crate) kings: B,
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
    pub(crate) windows: B::Windows,
}

/// A move: from, to (bit indices), whether the piece is crowned, and the captured pieces.
///
/// Capture paths are not stored: two paths with the same from, to and captured set are the same
/// move (the rule cards' "duplicate captures"); notation recovers a path when it needs one.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct Move<B: Bits = u64> {
    /// Bit index of the start square.
    pub from: u8,
    /// Bit index of the final square (equal to `from` for a king that returns to its start).
    pub to: u8,
    /// The moving man becomes a king.
    pub crowns: bool,
    /// The captured pieces (empty for a quiet move).
    pub captured: B,
}

impl<B: Bits> Move<B> {
    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }
}

/// Zobrist key index of a piece kind.
#[inline(always)]
pub(crate) const fn kind(side: usize, king: bool) -> usize {
    side + if king { 2 } else { 0 }
}

impl<B: Bits> Position<B> {
    /// An empty board with `side` to move.
    pub(crate) fn empty(side: Side) -> Position<B> {
        let mut p = Position {
            pieces: [B::ZERO; 2],
            kings: B::ZERO,
            side,
            hash: 0,
            men_terms: [0, 0],
            windows: B::Windows::default(),
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
            while !bits.is_empty() {
                let b = bits.trailing_zeros();
                bits = bits.clear_lowest();
                let king = !(self.kings & B::bit(b)).is_empty();
                h ^= DIAGONAL_PIECES_WIDE[kind(side, king)][b as usize];
            }
        }
        h
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.pieces[0] | self.pieces[1]
    }

    /// The pieces (men and kings) of `side`, one bit per square in the layout of
    /// [`polydam_tables::diagonal`].
    #[inline]
    pub fn pieces(&self, side: Side) -> B {
        self.pieces[side.index()]
    }

    /// The kings of both sides.
    #[inline]
    pub fn kings(&self) -> B {
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
pub fn play<R: Rules>(pos: &Position<R::Bits>, mv: &Move<R::Bits>) -> Position<R::Bits> {
    let us = pos.side.index();
    let them = 1 - us;
    let from = R::Bits::bit(mv.from as u32);
    let to = R::Bits::bit(mv.to as u32);
    let was_king = !(pos.kings & from).is_empty();
    let is_king = was_king || mv.crowns;
    let mut p = *pos;
    let terms = eval::tables::<R>();
    let windows = Windows::<R::Bits>::of(R::SHEET.board);
    if !was_king {
        p.men_terms[us] -= eval::man_square_terms(terms, us, mv.from as u32);
        windows.remove(&mut p.windows, us, mv.from as u32);
        if !is_king {
            p.men_terms[us] += eval::man_square_terms(terms, us, mv.to as u32);
            windows.add(&mut p.windows, us, mv.to as u32);
        }
    }
    let mut h = pos.hash
        ^ DIAGONAL_PIECES_WIDE[kind(us, was_king)][mv.from as usize]
        ^ DIAGONAL_PIECES_WIDE[kind(us, is_king)][mv.to as usize]
        ^ SIDE_TO_MOVE;
    p.pieces[us] = (p.pieces[us] & !from) | to;
    p.kings &= !from;
    if is_king {
        p.kings |= to;
    }
    if !mv.captured.is_empty() {
        let mut men = mv.captured & !pos.kings;
        while !men.is_empty() {
            let b = men.trailing_zeros();
            h ^= DIAGONAL_PIECES_WIDE[kind(them, false)][b as usize];
            p.men_terms[them] -= eval::man_square_terms(terms, them, b);
            windows.remove(&mut p.windows, them, b);
            men = men.clear_lowest();
        }
        let mut kings = mv.captured & pos.kings;
        while !kings.is_empty() {
            h ^= DIAGONAL_PIECES_WIDE[kind(them, true)][kings.trailing_zeros() as usize];
            kings = kings.clear_lowest();
        }
        p.pieces[them] &= !mv.captured;
        p.kings &= !mv.captured;
    }
    p.side = pos.side.opponent();
    p.hash = h;
    p
}
