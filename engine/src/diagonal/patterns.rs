//! Board windows for the learned evaluation: the overlapping 4x4 windows of a diagonal board
//! and the base-3 state of the men in each, kept up to date by [`super::position::play`].
//!
//! Window `w` of an `N`x`N` board has its top-left corner at row `2·(w / n)`, file
//! `2·(w % n)`, with `n = N / 2 − 1` windows a row (25 windows on 12x12, 16 on 10x10, 9 on
//! 8x8); neighbouring windows overlap by two rows or two files, so a square lies in one to
//! four of them. A window's 8 dark squares, read row by row and left to right, are the base-3
//! digits `d₀ … d₇` of its state `Σ dₖ·3ᵏ` (0 to 6560): 0 empty or a king, 1 a White man, 2
//! a Black man. Kings are left out: the evaluation counts them apart.
//!
//! The states in a [`Position`] are White's view. The view of the side to move, which the
//! learned weights use, is the same for White; for Black the board is turned half a turn, so
//! Black's window `w` is White's window `n² − 1 − w` with its squares in reverse order and the
//! colours swapped: [`Windows::black_view`].

use std::marker::PhantomData;

use polydam_tables::diagonal::Geometry;

use super::bits::Bits;
use super::position::Position;
use crate::game::Side;

/// The states of one window: 8 squares, each empty, a White man or a Black man.
pub const WINDOW_STATES: usize = 6561;
/// Squares in a window.
pub const WINDOW_SQUARES: usize = 8;
/// Windows on the largest board whose word is a `u64` (10x10); 12x12 has 25.
pub const MAX_WINDOWS: usize = 16;

/// The window states of a position on a `u64` board, White's view (see the module
/// documentation); [`Bits::Windows`] is the type on every board.
pub type WindowStates = [u16; MAX_WINDOWS];

/// `[side][bit]`: what a man of `side` (by index) on `bit` adds to every window's state of one
/// board (`N` windows, `BITS` bits), so that an update is one add per window, without branches.
pub struct WindowDeltas<const N: usize, const BITS: usize>(pub [[[u16; N]; BITS]; 2]);

/// The window deltas of board `g` (built at compile time; [`Bits::window_delta`] reads them).
pub(crate) const fn build_deltas<const N: usize, const BITS: usize>(
    g: Geometry,
) -> WindowDeltas<N, BITS> {
    let per_row = (g.rows / 2 - 1) as usize;
    let mut delta = [[[0u16; N]; BITS]; 2];
    let mut wr = 0;
    while wr < per_row {
        let mut wc = 0;
        while wc < per_row {
            let index = wr * per_row + wc;
            let mut power = 1u16;
            let mut r = 0;
            while r < 4 {
                let mut f = 0;
                while f < 4 {
                    let row = (2 * wr + r) as u32;
                    if let Some(s) = g.square_at(row, (2 * wc + f) as u32) {
                        let bit = g.bit_index(s) as usize;
                        delta[0][bit][index] = power;
                        delta[1][bit][index] = 2 * power;
                        power *= 3;
                    }
                    f += 1;
                }
                r += 1;
            }
            wc += 1;
        }
        wr += 1;
    }
    WindowDeltas(delta)
}

/// The windows of one board, on its word `B`.
#[derive(Clone, Copy, Debug)]
pub struct Windows<B: Bits> {
    /// The number of windows.
    pub count: usize,
    board: Geometry,
    _bits: PhantomData<B>,
}

/// `FLIP[s]`: state `s` read backwards with the colours swapped.
static FLIP: [u16; WINDOW_STATES] = build_flip();

const fn build_flip() -> [u16; WINDOW_STATES] {
    let mut t = [0u16; WINDOW_STATES];
    let mut s = 0;
    while s < WINDOW_STATES {
        let mut rest = s;
        let mut flipped = 0;
        let mut k = 0;
        while k < WINDOW_SQUARES {
            let digit = [0, 2, 1][rest % 3];
            flipped = flipped * 3 + digit;
            rest /= 3;
            k += 1;
        }
        t[s] = flipped as u16;
        s += 1;
    }
    t
}

/// The number of windows of board `g`: `(N / 2 - 1)²`.
pub const fn window_count(g: Geometry) -> usize {
    let per_row = (g.rows / 2 - 1) as usize;
    per_row * per_row
}

impl<B: Bits> Windows<B> {
    /// The windows of board `g` (whose word must be `B`).
    #[inline(always)]
    pub fn of(g: Geometry) -> Windows<B> {
        Windows {
            count: window_count(g),
            board: g,
            _bits: PhantomData,
        }
    }

    /// Puts a man of `side` (by index) on `bit` into `states`.
    #[inline(always)]
    pub fn add(&self, states: &mut B::Windows, side: usize, bit: u32) {
        let d = B::window_delta(self.board, side, bit);
        for (s, d) in states.as_mut().iter_mut().zip(d.as_ref()) {
            *s = s.wrapping_add(*d);
        }
    }

    /// Takes a man of `side` (by index) on `bit` out of `states`.
    #[inline(always)]
    pub fn remove(&self, states: &mut B::Windows, side: usize, bit: u32) {
        let d = B::window_delta(self.board, side, bit);
        for (s, d) in states.as_mut().iter_mut().zip(d.as_ref()) {
            *s = s.wrapping_sub(*d);
        }
    }

    /// The states of `pos`'s windows computed from scratch (White's view).
    pub fn from_scratch(&self, pos: &Position<B>) -> B::Windows {
        let mut states = B::Windows::default();
        for side in [Side::White, Side::Black] {
            let mut men = pos.pieces[side.index()] & !pos.kings;
            while !men.is_empty() {
                self.add(&mut states, side.index(), men.trailing_zeros());
                men = men.clear_lowest();
            }
        }
        states
    }

    /// Black's window `w` in Black's view (the board turned half a turn, colours swapped),
    /// from White's view `states`.
    #[inline(always)]
    pub fn black_view(&self, states: &B::Windows, w: usize) -> usize {
        FLIP[states.as_ref()[self.count - 1 - w] as usize] as usize
    }

    /// Window `w`'s state seen by `side` (see [`Windows::black_view`]).
    #[inline(always)]
    pub fn view(&self, states: &B::Windows, side: Side, w: usize) -> usize {
        match side {
            Side::White => states.as_ref()[w] as usize,
            Side::Black => self.black_view(states, w),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polydam_tables::diagonal::{EIGHT, TEN, TWELVE};

    #[test]
    fn flipping_twice_is_the_identity() {
        for s in 0..WINDOW_STATES {
            assert_eq!(FLIP[FLIP[s] as usize] as usize, s);
        }
        // One White man on the first square becomes one Black man on the last.
        assert_eq!(FLIP[1], 2 * 3u16.pow(7));
    }

    fn check_windows<B: Bits>(g: Geometry) {
        let w = Windows::<B>::of(g);
        let mut sums = [0usize; 25];
        let mut held = [0usize; 25];
        for s in 0..g.squares() {
            let bit = g.bit_index(s);
            let powers = B::window_delta(g, 0, bit).as_ref();
            let windows = powers.iter().filter(|&&p| p != 0).count();
            assert!(
                (1..=4).contains(&windows),
                "square {s} in {windows} windows"
            );
            for (i, &p) in powers.iter().enumerate() {
                sums[i] += p as usize;
                held[i] += usize::from(p != 0);
                // A Black man counts twice a White one.
                assert_eq!(B::window_delta(g, 1, bit).as_ref()[i], 2 * p);
            }
        }
        assert!(
            sums[..w.count]
                .iter()
                .all(|&s| s == (WINDOW_STATES - 1) / 2),
            "{sums:?}"
        );
        assert!(
            held[..w.count].iter().all(|&h| h == WINDOW_SQUARES),
            "{held:?}"
        );
        assert!(sums[w.count..].iter().all(|&s| s == 0), "{sums:?}");
    }

    #[test]
    fn every_window_holds_eight_squares_once_each_power() {
        check_windows::<u64>(TEN);
        check_windows::<u64>(EIGHT);
        check_windows::<u128>(TWELVE);
        assert_eq!(Windows::<u128>::of(TWELVE).count, 25);
    }
}
