//! Combinatorics of the index: binomial coefficients, colex ranking and unranking of sets of
//! squares, stepping to the next set, and the fast division unranking divides with.

use super::ManSquares;

/// Binomial coefficients `C(n, k)` for `n < 65`, `k < 9`.
static BINOMIAL: [[u64; 9]; 65] = binomials();

/// The table of [`BINOMIAL`], by Pascal's triangle at compile time.
const fn binomials() -> [[u64; 9]; 65] {
    let mut t = [[0u64; 9]; 65];
    let mut n = 0;
    while n < 65 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 9 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
}

/// `C(n, k)`, zero when `k > n`.
#[inline(always)]
pub fn binomial(n: u32, k: u32) -> u64 {
    BINOMIAL[n as usize][k as usize]
}

/// The dense squares of the compressed positions `set` of `squares`.
#[inline(always)]
pub(super) fn spread(mut set: u64, squares: &ManSquares) -> u64 {
    let mut out = 0u64;
    while set != 0 {
        let c = set.trailing_zeros();
        set &= set - 1;
        out |= 1u64 << squares.square[c as usize];
    }
    out
}

/// The colex rank of the set bits of `set` (at most 8 of them) after mapping each through
/// `f`, which must be increasing.
#[inline(always)]
pub(super) fn colex_rank(mut set: u64, f: impl Fn(u32) -> u32) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        let s = set.trailing_zeros();
        set &= set - 1;
        r += binomial(f(s), i);
        i += 1;
    }
    r
}

/// The `k` positions (ascending, as a bit set) of colex rank `r` among positions `0..n`.
#[inline(always)]
pub(super) fn colex_unrank(mut r: u64, k: u32, n: u32) -> u64 {
    let mut set = 0u64;
    let mut hi = n; // every position is below `hi`
    let mut i = k;
    // The last two elements in closed form: C(c, 1) = c, and C(c, 2) = c (c - 1) / 2 is
    // inverted by a square root (kings come one or two a side in most slices).
    let finish = |mut r: u64, i: u32, set: &mut u64| {
        if i == 2 {
            let mut c = ((1.0 + (1.0 + 8.0 * r as f64).sqrt()) / 2.0) as u64;
            while c * (c - 1) / 2 > r {
                c -= 1;
            }
            while (c + 1) * c / 2 <= r {
                c += 1;
            }
            r -= c * (c - 1) / 2;
            *set |= 1u64 << c;
        }
        *set |= 1u64 << r;
    };
    while i > 2 {
        // The largest c < hi with C(c, i) <= r, by binary search on [i - 1, hi).
        let (mut lo, mut top) = (i - 1, hi - 1);
        while lo < top {
            let mid = (lo + top).div_ceil(2);
            if binomial(mid, i) <= r {
                lo = mid;
            } else {
                top = mid - 1;
            }
        }
        r -= binomial(lo, i);
        set |= 1u64 << lo;
        hi = lo;
        i -= 1;
    }
    if i > 0 {
        finish(r, i, &mut set);
    }
    set
}

/// The `c`-th square (0-based) not in `occupied`.
#[inline(always)]
pub(super) fn nth_free(c: u32, occupied: u64) -> u32 {
    let mut s = c;
    let mut occ = occupied;
    while occ != 0 {
        let b = occ.trailing_zeros();
        if b > s {
            break;
        }
        s += 1;
        occ &= occ - 1;
    }
    s
}

/// The next set of as many positions in colex order (the next larger number with as many bits
/// set); `x` must not be 0.
#[inline(always)]
pub(super) fn next_combination(x: u64) -> u64 {
    let c = x & x.wrapping_neg();
    let r = x + c;
    (((r ^ x) >> 2) >> c.trailing_zeros()) | r
}

/// Division by a number fixed per slice, as a multiplication by its reciprocal (a 64-bit
/// division costs tens of cycles, and unranking divides three times).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Divisor {
    d: u64,
    /// `floor(2^64 / d) + 1`; exact for every `n` with `n * d < 2^64`. 0 when `d` is 1 or
    /// the slice is too large for that bound (then the division is done).
    m: u64,
}

impl Divisor {
    pub(super) fn new(d: u64, largest: u64) -> Divisor {
        let m = if d > 1 && largest.checked_mul(d).is_some() {
            (u64::MAX / d) + 1
        } else {
            0
        };
        Divisor { d: d.max(1), m }
    }

    #[inline(always)]
    pub(super) fn div_rem(self, n: u64) -> (u64, u64) {
        if self.m == 0 {
            return (n / self.d, n % self.d);
        }
        let q = ((n as u128 * self.m as u128) >> 64) as u64;
        (q, n - q * self.d)
    }
}
