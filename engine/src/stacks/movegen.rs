//! Positions, copy-make and move generation of Seesaw Draughts (`../shared/rules/seesaw.md`,
//! section `seesaw-draughts`).
//!
//! The board is the 8x8 diagonal layout of [`polydam_tables::diagonal::EIGHT`] (ghost bits
//! after every two rows, so a diagonal step is a constant shift). Directions: 0 = up-left,
//! 1 = up-right, 2 = down-left, 3 = down-right; "up" is towards square 1, White's forward.

use polydam_tables::diagonal::EIGHT;
use polydam_tables::zobrist::keys;

use crate::game::{Duplicates, Side};

/// Largest stack size a position can hold. Card: "an implementation may store sizes up to 255
/// and must refuse, with a clear error, a position whose stack is larger than it can store".
pub const MAX_SIZE: u8 = 255;

/// Number of bit positions of the 8x8 layout (32 squares and 4 ghost bits).
pub const BITS: usize = 36;

/// Mask of the 32 playing squares.
pub const MASK: u64 = EIGHT.mask();

/// Squares of internal row 0 (1-4, Black's back rank, White's far rank).
pub const TOP_ROW: u64 = EIGHT.row_mask(0);
/// Squares of internal row 7 (29-32, White's back rank).
pub const BOTTOM_ROW: u64 = EIGHT.row_mask(7);

/// Zobrist keys by `[size][colour][bit]`. Sizes are the card's unbounded stack sizes capped at
/// [`MAX_SIZE`]; laid out size-major so that the small sizes met in play share a few cache lines.
pub static STACK_KEYS: [[[u64; BITS]; 2]; 256] = {
    const N: usize = 256 * 2 * BITS;
    let flat: [u64; N] = keys::<N>(0x5EE5_A3D8_A175_0001);
    let mut out = [[[0u64; BITS]; 2]; 256];
    let mut s = 0;
    while s < 256 {
        let mut c = 0;
        while c < 2 {
            let mut b = 0;
            while b < BITS {
                out[s][c][b] = flat[(s * 2 + c) * BITS + b];
                b += 1;
            }
            c += 1;
        }
        s += 1;
    }
    out
};

/// Key XORed in when Black is to move.
pub const BLACK_TO_MOVE: u64 = keys::<1>(0x5EE5_A3D8_51DE_0001)[0];

/// One diagonal step of every bit of `b` in direction `d` (bits leaving the board vanish or
/// land on ghost bits; mask with [`MASK`]).
#[inline(always)]
pub fn step(b: u64, d: usize) -> u64 {
    match d {
        0 => b >> 5,
        1 => b >> 4,
        2 => b << 4,
        _ => b << 5,
    }
}

/// Whether direction `d` is forward for `side` (White moves up, towards square 1).
#[inline(always)]
pub fn is_forward(side: Side, d: usize) -> bool {
    match side {
        Side::White => d < 2,
        Side::Black => d >= 2,
    }
}

/// `side`'s own back rank.
#[inline(always)]
pub fn own_back_rank(side: Side) -> u64 {
    match side {
        Side::White => BOTTOM_ROW,
        Side::Black => TOP_ROW,
    }
}

/// The opponent's back rank, seen from `side`.
#[inline(always)]
pub fn far_rank(side: Side) -> u64 {
    own_back_rank(side.opponent())
}

/// A Seesaw Draughts position: stacks of each colour, their sizes, the side to move.
///
/// Built by [`Position::from_setup`] (or by parsing, which goes through it) and by [`play`];
/// read through its accessors.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Position {
    /// Stacks of each side, indexed by [`Side::index`].
    pub(crate) stacks: [u64; 2],
    /// Stacks (of either colour) whose size is odd: they step forward (card: "an odd stack steps
    /// one square diagonally forward, an even stack one square diagonally backward").
    pub(crate) odd: u64,
    /// Stack size by bit index; 0 on empty squares.
    pub(crate) sizes: [u8; BITS],
    /// The side to move.
    pub(crate) side: Side,
    /// Zobrist key, kept up to date by [`play`].
    pub(crate) hash: u64,
}

/// A move: from, to (bit indices), whether the stack gains a piece, and the captured stacks.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct Move {
    /// Bit index of the start square.
    pub from: u8,
    /// Bit index of the final square (may equal `from` after a capture loop).
    pub to: u8,
    /// The stack gets one more piece at the end of the turn.
    pub promotes: bool,
    /// The captured stacks (empty for a quiet move).
    pub captured: u64,
}

/// Iterates over the single-bit masks of `b`.
#[inline(always)]
pub fn bits(mut b: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let low = b & b.wrapping_neg();
            b &= b - 1;
            Some(low)
        }
    })
}

/// The Zobrist key of a stack.
#[inline(always)]
pub fn stack_key(colour: usize, bit: usize, size: u8) -> u64 {
    STACK_KEYS[size as usize][colour][bit]
}

impl Position {
    /// An empty board with `side` to move.
    pub(crate) fn empty(side: Side) -> Position {
        let mut p = Position {
            stacks: [0, 0],
            odd: 0,
            sizes: [0; BITS],
            side,
            hash: 0,
        };
        p.hash = p.compute_hash();
        p
    }

    /// Puts a stack of `size` (1..=255) for `owner` on bit `bit` (setup only).
    pub(crate) fn put(&mut self, owner: Side, bit: u32, size: u8) {
        let m = 1u64 << bit;
        self.stacks[owner.index()] |= m;
        self.sizes[bit as usize] = size;
        if size % 2 == 1 {
            self.odd |= m;
        } else {
            self.odd &= !m;
        }
    }

    /// The Zobrist key computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Side::Black {
            BLACK_TO_MOVE
        } else {
            0
        };
        for c in 0..2 {
            for b in bits(self.stacks[c]) {
                let i = b.trailing_zeros() as usize;
                h ^= stack_key(c, i, self.sizes[i]);
            }
        }
        h
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.stacks[0] | self.stacks[1]
    }

    /// The size of the stack on bit `bit` (0 if empty).
    #[inline(always)]
    pub fn size_at(&self, bit: u32) -> u8 {
        self.sizes[bit as usize]
    }

    /// The stacks of `side`, one bit per square in the layout of
    /// [`polydam_tables::diagonal::EIGHT`].
    #[inline]
    pub fn stacks(&self, side: Side) -> u64 {
        self.stacks[side.index()]
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

/// The position after `mv` (copy-make, incremental key).
#[inline]
pub fn play(pos: &Position, mv: &Move) -> Position {
    let us = pos.side.index();
    let them = 1 - us;
    let from = 1u64 << mv.from;
    let to = 1u64 << mv.to;
    let size = pos.sizes[mv.from as usize];
    let new_size = size + mv.promotes as u8;
    let mut p = *pos;
    let mut h = pos.hash
        ^ stack_key(us, mv.from as usize, size)
        ^ stack_key(us, mv.to as usize, new_size)
        ^ BLACK_TO_MOVE;
    // Card: "when the sequence ends every captured stack is removed whole, whatever its size".
    for c in bits(mv.captured) {
        let i = c.trailing_zeros() as usize;
        h ^= stack_key(them, i, pos.sizes[i]);
        p.sizes[i] = 0;
    }
    p.stacks[them] &= !mv.captured;
    p.odd &= !(mv.captured | from);
    p.sizes[mv.from as usize] = 0;
    p.stacks[us] = (p.stacks[us] & !from) | to;
    p.sizes[mv.to as usize] = new_size;
    if new_size % 2 == 1 {
        p.odd |= to;
    }
    p.side = pos.side.opponent();
    p.hash = h;
    p
}

/// Whether a stack of `size` of `side` that ends its turn on `to` gains a piece. Card:
/// "an odd stack that ends on the opponent's back rank, or an even stack that ends on its own
/// back rank, gets one more piece". A stack at [`MAX_SIZE`] cannot grow further (our limit).
#[inline(always)]
pub fn promotes(side: Side, size: u8, to: u64) -> bool {
    let rank = if size % 2 == 1 {
        far_rank(side)
    } else {
        own_back_rank(side)
    };
    to & rank != 0 && size < MAX_SIZE
}

/// Capture range of a stack: its size, which reaches every target on 8x8 from 6 on (a line
/// has at most 7 further squares and one of them must be the landing square).
#[inline(always)]
pub fn range_of(size: u8) -> u32 {
    (size as u32).min(7)
}

/// The square a capture from `cur` in direction `d` would take, with range `range`: the first
/// non-empty square along the line, if it is within `range` and in `targets`, and the square
/// right behind it is in `empty`. Returns `(victim, landing)` or zeros.
#[inline(always)]
pub fn capture_in(cur: u64, d: usize, range: u32, empty: u64, targets: u64) -> (u64, u64) {
    let mut x = step(cur, d) & MASK;
    let mut dist = 1;
    while x & empty != 0 && dist < range {
        x = step(x, d) & MASK;
        dist += 1;
    }
    if x & targets == 0 {
        return (0, 0);
    }
    let land = step(x, d) & empty;
    if land == 0 {
        return (0, 0);
    }
    (x, land)
}

struct CaptureGen<'a> {
    side: Side,
    /// Empty squares with the moving stack lifted (card: "empty squares, including the starting
    /// square, may be crossed again").
    empty: u64,
    /// Enemy stacks. Captured ones stay on the board until the end (card: "captured stacks stay
    /// on the board until the sequence ends: they block lines and cannot be jumped twice"), so
    /// they stay out of `empty` and are masked out of the targets.
    enemy: u64,
    from: u64,
    size: u8,
    range: u32,
    start: usize,
    dups: Duplicates,
    out: &'a mut Vec<Move>,
}

impl CaptureGen<'_> {
    /// Extends the sequence from `cur`; returns whether any capture was possible. Card:
    /// "a sequence must be continued while the same stack can capture again"; "no majority
    /// rule: any capture and any continuation may be chosen".
    fn jumps(&mut self, cur: u64, captured: u64, count: u32) -> bool {
        let mut found = false;
        for d in 0..4 {
            let (victim, land) = capture_in(cur, d, self.range, self.empty, self.enemy & !captured);
            if victim == 0 {
                continue;
            }
            found = true;
            if !self.jumps(land, captured | victim, count + 1) {
                self.emit(land, captured | victim, count + 1);
            }
        }
        found
    }

    fn emit(&mut self, to: u64, captured: u64, count: u32) {
        let mv = Move {
            from: self.from.trailing_zeros() as u8,
            to: to.trailing_zeros() as u8,
            // Card: "promotion is checked once, at the end of the turn" — so only here.
            promotes: promotes(self.side, self.size, to),
            captured,
        };
        // Two orders of the same jumps ending on the same square need three captures at least.
        if self.dups == Duplicates::Drop && count >= 3 && self.out[self.start..].contains(&mv) {
            return;
        }
        self.out.push(mv);
    }
}

/// Fills `out` with the legal captures; leaves it empty if there is none.
pub fn generate_captures(pos: &Position, dups: Duplicates, out: &mut Vec<Move>) {
    out.clear();
    let us = pos.side.index();
    let own = pos.stacks[us];
    let enemy = pos.stacks[1 - us];
    let empty = !(own | enemy) & MASK;
    for s in bits(own) {
        let bit = s.trailing_zeros();
        let size = pos.size_at(bit);
        let start = out.len();
        let mut gen = CaptureGen {
            side: pos.side,
            empty: empty | s,
            enemy,
            from: s,
            size,
            range: range_of(size),
            start,
            dups,
            out,
        };
        gen.jumps(s, 0, 0);
    }
}

/// Whether `side` could capture in `pos` (ignoring whose turn it is).
pub fn can_capture(pos: &Position, side: Side) -> bool {
    let us = side.index();
    let own = pos.stacks[us];
    let enemy = pos.stacks[1 - us];
    let empty = !(own | enemy) & MASK;
    // Every stack has range 1 at least: adjacent captures for all stacks at once, like men.
    for d in 0..4 {
        if step(step(own, d) & MASK & enemy, d) & empty != 0 {
            return true;
        }
    }
    for s in bits(own) {
        let range = range_of(pos.size_at(s.trailing_zeros()));
        if range < 2 {
            continue;
        }
        for d in 0..4 {
            if capture_in(s, d, range, empty | s, enemy).0 != 0 {
                return true;
            }
        }
    }
    false
}

/// Fills `out` with the quiet moves (call only when there is no capture). Card: "a
/// non-capturing move is always exactly one square, whatever the size", forward for odd stacks
/// and backward for even ones.
pub fn generate_quiet(pos: &Position, out: &mut Vec<Move>) {
    out.clear();
    let own = pos.stacks[pos.side.index()];
    let empty = !pos.occupied() & MASK;
    for d in 0..4 {
        let odd_mover = is_forward(pos.side, d);
        let movers = if odd_mover {
            own & pos.odd
        } else {
            own & !pos.odd
        };
        for t in bits(step(movers, d) & empty) {
            let from = step(t, 3 - d);
            let size = pos.size_at(from.trailing_zeros());
            out.push(Move {
                from: from.trailing_zeros() as u8,
                to: t.trailing_zeros() as u8,
                promotes: promotes(pos.side, size, t),
                captured: 0,
            });
        }
    }
}

/// Number of quiet moves, without listing them.
pub fn count_quiet(pos: &Position) -> u64 {
    let own = pos.stacks[pos.side.index()];
    let empty = !pos.occupied() & MASK;
    let mut n = 0;
    for d in 0..4 {
        let movers = if is_forward(pos.side, d) {
            own & pos.odd
        } else {
            own & !pos.odd
        };
        n += (step(movers, d) & empty).count_ones() as u64;
    }
    n
}

/// Fills `out` with every legal move (captures are compulsory).
pub fn generate(pos: &Position, dups: Duplicates, out: &mut Vec<Move>) {
    generate_captures(pos, dups, out);
    if out.is_empty() {
        generate_quiet(pos, out);
    }
}

/// The number of legal moves (bulk counting at perft's last ply): captures are listed in
/// `scratch`, quiet moves counted with [`count_quiet`].
pub fn count_moves(pos: &Position, dups: Duplicates, scratch: &mut Vec<Move>) -> u64 {
    generate_captures(pos, dups, scratch);
    if scratch.is_empty() {
        count_quiet(pos)
    } else {
        scratch.len() as u64
    }
}
