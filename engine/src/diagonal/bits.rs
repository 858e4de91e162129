//! The bitboard word of the diagonal family: `u64` on 8x8 and 10x10, `u128` on 12x12 (the
//! ghost-bit layout of [`polydam_tables::diagonal`] spans 35, 54 and 77 bits).
//!
//! Each rule sheet names its word ([`super::rules::Rules::Bits`]); the generator, the positions
//! and the evaluation are generic over it, so the 8x8 and 10x10 games keep their `u64` code
//! exactly, and 12x12 gets the same code on `u128`. The per-board tables (flying-king rays,
//! pattern windows) are reached through the word, which knows the boards it serves.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

use polydam_tables::diagonal::{Geometry, EIGHT, TEN, TWELVE};

use super::patterns::{build_deltas, WindowDeltas};

/// A bitboard word: one bit per square of the ghost-bit layout.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// Bits in the word.
    const WIDTH: u32;
    /// The empty set.
    const ZERO: Self;
    /// The states of the pattern windows of a position on the boards this word serves (see
    /// [`super::patterns`]): one `u16` per window.
    type Windows: Copy
        + Eq
        + Hash
        + Debug
        + Default
        + Send
        + Sync
        + AsRef<[u16]>
        + AsMut<[u16]>
        + 'static;

    /// The single bit `index`.
    fn bit(index: u32) -> Self;
    /// The low bits of a `u128` mask (the tables crate builds every board's masks as `u128`).
    fn from_wide(wide: u128) -> Self;
    /// The word as a `u128`.
    fn to_wide(self) -> u128;
    /// Index of the lowest set bit (`WIDTH` if none).
    fn trailing_zeros(self) -> u32;
    /// Number of leading zero bits.
    fn leading_zeros(self) -> u32;
    /// Number of set bits.
    fn count_ones(self) -> u32;
    /// Two's complement negation.
    fn wrapping_neg(self) -> Self;
    /// Subtraction modulo 2^WIDTH.
    fn wrapping_sub(self, other: Self) -> Self;

    /// Whether no bit is set.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    /// The lowest set bit alone.
    #[inline(always)]
    fn lowest(self) -> Self {
        self & self.wrapping_neg()
    }
    /// The set without its lowest bit.
    #[inline(always)]
    fn clear_lowest(self) -> Self {
        self & self.wrapping_sub(Self::bit(0))
    }
    /// The highest set bit alone (the set must not be empty).
    #[inline(always)]
    fn highest(self) -> Self {
        Self::bit(Self::WIDTH - 1 - self.leading_zeros())
    }

    /// The squares beyond bit `from` in direction `d` (0-7, see [`super::movegen`]) up to the
    /// edge of board `g`.
    fn ray(g: Geometry, d: usize, from: u32) -> Self;
    /// What a man of `side` (by index) on `bit` adds to each window state of board `g`.
    fn window_delta(g: Geometry, side: usize, bit: u32) -> &'static Self::Windows;
}

/// `[d][bit]`: the squares beyond `bit` in direction `d`, up to the edge of board `g` (none for
/// bits that are not squares), as `u128` masks; [`narrow_rays`] keeps the low 64 bits.
const fn build_rays<const N: usize>(g: Geometry) -> [[u128; N]; 8] {
    let mask = g.wide_mask();
    let mut rays = [[0u128; N]; 8];
    let mut bit = 0;
    while bit < N {
        if bit < 128 && mask & (1u128 << bit) != 0 {
            let mut d = 0;
            while d < 8 {
                let mut cur = 1u128 << bit;
                loop {
                    cur = wide_step(g, cur, d) & mask;
                    if cur == 0 {
                        break;
                    }
                    rays[d][bit] |= cur;
                }
                d += 1;
            }
        }
        bit += 1;
    }
    rays
}

const fn narrow_rays(wide: [[u128; 64]; 8]) -> [[u64; 64]; 8] {
    let mut out = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut b = 0;
        while b < 64 {
            out[d][b] = wide[d][b] as u64;
            b += 1;
        }
        d += 1;
    }
    out
}

/// One step of every bit of `b` in direction `d` on board `g`, on `u128` masks (for tables
/// built at compile time; the generator's [`super::movegen::step`] is the same on the word).
pub(crate) const fn wide_step(g: Geometry, b: u128, d: usize) -> u128 {
    let h = g.half;
    match d {
        0 => b >> (h + 1),
        1 => b >> h,
        2 => b << h,
        3 => b << (h + 1),
        4 => b >> (2 * h + 1),
        5 => (b & !g.wide_column_mask(0)) >> 1,
        6 => (b & !g.wide_column_mask(h - 1)) << 1,
        _ => b << (2 * h + 1),
    }
}

static EIGHT_RAYS: [[u64; 64]; 8] = narrow_rays(build_rays::<64>(EIGHT));
static TEN_RAYS: [[u64; 64]; 8] = narrow_rays(build_rays::<64>(TEN));
static TWELVE_RAYS: [[u128; 128]; 8] = build_rays::<128>(TWELVE);

static EIGHT_DELTAS: WindowDeltas<16, 64> = build_deltas(EIGHT);
static TEN_DELTAS: WindowDeltas<16, 64> = build_deltas(TEN);
static TWELVE_DELTAS: WindowDeltas<25, 128> = build_deltas(TWELVE);

impl Bits for u64 {
    const WIDTH: u32 = 64;
    const ZERO: u64 = 0;
    type Windows = [u16; 16];

    #[inline(always)]
    fn bit(index: u32) -> u64 {
        1u64 << index
    }
    #[inline(always)]
    fn from_wide(wide: u128) -> u64 {
        wide as u64
    }
    #[inline(always)]
    fn to_wide(self) -> u128 {
        self as u128
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        u64::trailing_zeros(self)
    }
    #[inline(always)]
    fn leading_zeros(self) -> u32 {
        u64::leading_zeros(self)
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        u64::count_ones(self)
    }
    #[inline(always)]
    fn wrapping_neg(self) -> u64 {
        u64::wrapping_neg(self)
    }
    #[inline(always)]
    fn wrapping_sub(self, other: u64) -> u64 {
        u64::wrapping_sub(self, other)
    }
    #[inline(always)]
    fn ray(g: Geometry, d: usize, from: u32) -> u64 {
        let rays = if g.half == TEN.half {
            &TEN_RAYS
        } else {
            &EIGHT_RAYS
        };
        rays[d][from as usize & 63]
    }
    #[inline(always)]
    fn window_delta(g: Geometry, side: usize, bit: u32) -> &'static [u16; 16] {
        let deltas = if g.half == TEN.half {
            &TEN_DELTAS
        } else {
            &EIGHT_DELTAS
        };
        &deltas.0[side][bit as usize & 63]
    }
}

impl Bits for u128 {
    const WIDTH: u32 = 128;
    const ZERO: u128 = 0;
    type Windows = [u16; 25];

    #[inline(always)]
    fn bit(index: u32) -> u128 {
        1u128 << index
    }
    #[inline(always)]
    fn from_wide(wide: u128) -> u128 {
        wide
    }
    #[inline(always)]
    fn to_wide(self) -> u128 {
        self
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        u128::trailing_zeros(self)
    }
    #[inline(always)]
    fn leading_zeros(self) -> u32 {
        u128::leading_zeros(self)
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        u128::count_ones(self)
    }
    #[inline(always)]
    fn wrapping_neg(self) -> u128 {
        u128::wrapping_neg(self)
    }
    #[inline(always)]
    fn wrapping_sub(self, other: u128) -> u128 {
        u128::wrapping_sub(self, other)
    }
    #[inline(always)]
    fn ray(_g: Geometry, d: usize, from: u32) -> u128 {
        TWELVE_RAYS[d][from as usize & 127]
    }
    #[inline(always)]
    fn window_delta(_g: Geometry, side: usize, bit: u32) -> &'static [u16; 25] {
        &TWELVE_DELTAS.0[side][bit as usize & 127]
    }
}

/// The set bits of `b`, lowest first, each as a one-bit word.
#[inline(always)]
pub fn singles<B: Bits>(mut b: B) -> impl Iterator<Item = B> {
    std::iter::from_fn(move || {
        if b.is_empty() {
            None
        } else {
            let low = b.lowest();
            b = b.clear_lowest();
            Some(low)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rays_of_the_narrow_boards_fit_their_word() {
        for g in [EIGHT, TEN] {
            let wide = build_rays::<128>(g);
            for (d, rays) in wide.iter().enumerate() {
                for (bit, &ray) in rays.iter().enumerate() {
                    assert!(ray >> 64 == 0);
                    if bit < 64 {
                        assert_eq!(u64::ray(g, d, bit as u32) as u128, ray, "{g:?} {d} {bit}");
                    }
                }
            }
        }
    }

    #[test]
    fn rays_cross_the_word_boundary_on_twelve() {
        // The long diagonal a1-l12: from a1 (square 67, internal 66) up-right to l12
        // (square 6, internal 5), eleven squares on bits below and above 64.
        let a1 = TWELVE.bit_index(66);
        let ray = u128::ray(TWELVE, 1, a1);
        assert_eq!(ray.count_ones(), 11);
        assert!(ray >> 64 != 0 && ray & u64::MAX as u128 != 0);
        assert_ne!(ray & TWELVE.wide_bit_of_square(5), 0);
    }

    #[test]
    fn word_operations_agree() {
        let x: u128 = (1 << 70) | (1 << 3);
        assert_eq!(x.lowest(), 1 << 3);
        assert_eq!(x.highest(), 1 << 70);
        assert_eq!(x.clear_lowest(), 1 << 70);
        assert_eq!(singles(x).count(), 2);
        let y: u64 = 0b1010_0000;
        assert_eq!(y.highest(), 0b1000_0000);
        assert_eq!(singles(y).collect::<Vec<_>>(), vec![0b10_0000, 0b1000_0000]);
    }
}
