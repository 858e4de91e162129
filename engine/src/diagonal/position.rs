//! Positions and moves of the diagonal family, with copy-make and incremental Zobrist keys.

use polydam_tables::zobrist::{DIAGONAL_PIECES_WIDE, KING_MOVES, SIDE_TO_MOVE};

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
    /// Frisian's king-move counters (zero in every other variant).
    pub(crate) king_moves: KingMoves,
}

/// Frisian draughts' king-move counters (card `frisian.md`, "Three-move limit"): for each side,
/// the king that has made the side's last successive quiet moves, and how many (1 to 3; 0 for
/// none). They are part of the position: its key, equality and FEN.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct KingMoves {
    /// Quiet moves in a row, by [`Side::index`].
    count: [u8; 2],
    /// The bit index of the king that made them.
    bit: [u8; 2],
}

impl KingMoves {
    /// `side`'s counter: (quiet moves in a row, the king's bit index), or `None`.
    #[inline(always)]
    pub fn count(&self, side: Side) -> Option<(u8, u32)> {
        let s = side.index();
        (self.count[s] > 0).then_some((self.count[s], self.bit[s] as u32))
    }

    /// Sets `side`'s counter (`count` 0 clears it).
    #[inline(always)]
    pub(crate) fn set(&mut self, side: Side, count: u8, bit: u32) {
        let s = side.index();
        self.count[s] = count;
        self.bit[s] = if count == 0 { 0 } else { bit as u8 };
    }

    /// The counters' share of the Zobrist key.
    #[inline(always)]
    pub(crate) fn key(&self) -> u64 {
        let mut h = 0;
        for s in 0..2 {
            let c = self.count[s] as usize;
            if c > 0 {
                h ^= KING_MOVES[s][c.min(3) - 1][self.bit[s] as usize & 63];
            }
        }
        h
    }
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
            king_moves: KingMoves::default(),
        };
        p.hash = p.compute_hash();
        p
    }

    /// A position from its bitboards with `side` to move, without the evaluation's
    /// incremental terms: for move generation only (the endgame tables' solver), never to be
    /// evaluated or searched.
    pub(crate) fn bare(pieces: [B; 2], kings: B, side: Side) -> Position<B> {
        Position {
            pieces,
            kings,
            side,
            hash: 0,
            men_terms: [0, 0],
            windows: B::Windows::default(),
            king_moves: KingMoves::default(),
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
            while !bits.is_empty() {
                let b = bits.trailing_zeros();
                bits = bits.clear_lowest();
                let king = !(self.kings & B::bit(b)).is_empty();
                h ^= DIAGONAL_PIECES_WIDE[kind(side, king)][b as usize];
            }
        }
        h ^ self.king_moves.key()
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

    /// Frisian's king-move counters (all empty in every other variant).
    #[inline]
    pub fn king_moves(&self) -> KingMoves {
        self.king_moves
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
    if R::SHEET.king_move_limit {
        h ^= update_king_moves::<R>(&mut p, pos, mv, was_king);
    }
    p.side = pos.side.opponent();
    p.hash = h;
    p
}

/// Frisian's counters after `mv` (card, "Exact bookkeeping"): a quiet king move a->b by a side
/// that has men counts on if the side's last counted move ended on a, and restarts at 1
/// otherwise; any other move clears the mover's counter; the opponent's is cleared when it has
/// no men left or its counted king was taken. Returns the change of the key.
#[inline(always)]
fn update_king_moves<R: Rules>(
    p: &mut Position<R::Bits>,
    pos: &Position<R::Bits>,
    mv: &Move<R::Bits>,
    was_king: bool,
) -> u64 {
    let us = pos.side;
    let them = us.opponent();
    let mut km = pos.king_moves;
    let old = km.key();
    let men = |side: Side| !(p.pieces[side.index()] & !p.kings).is_empty();
    if was_king && mv.captured.is_empty() && men(us) {
        let count = match km.count(us) {
            Some((c, bit)) if bit == mv.from as u32 => c + 1,
            _ => 1,
        };
        km.set(us, count, mv.to as u32);
    } else {
        km.set(us, 0, 0);
    }
    if let Some((_, bit)) = km.count(them) {
        if !men(them) || !(mv.captured & R::Bits::bit(bit)).is_empty() {
            km.set(them, 0, 0);
        }
    }
    p.king_moves = km;
    old ^ km.key()
}
