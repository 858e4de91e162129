//! Board windows for the learned evaluation: the overlapping 4x4 windows of a diagonal board
//! and the base-3 state of the men in each, kept up to date by [`super::position::play`].
//!
//! Window `w` of an `N`x`N` board has its top-left corner at row `2·(w / n)`, file
//! `2·(w % n)`, with `n = N / 2 − 1` windows a row (16 windows on 10x10, 9 on 8x8);
//! neighbouring windows overlap by two rows or two files, so a square lies in one to four of
//! them. A window's 8 dark squares, read row by row and left to right, are the base-3 digits
//! `d₀ … d₇` of its state `Σ dₖ·3ᵏ` (0 to 6560): 0 empty or a king, 1 a White man, 2 a Black
//! man. Kings are left out: the evaluation counts them apart.
//!
//! The states in a [`Position`] are White's view. The view of the side to move, which the
//! learned weights use, is the same for White; for Black the board is turned half a turn, so
//! Black's window `w` is White's window `n² − 1 − w` with its squares in reverse order and the
//! colours swapped: [`Windows::black_view`].

use polydam_tables::diagonal::{Geometry, EIGHT, TEN};

use super::position::Position;
use crate::game::Side;

/// The states of one window: 8 squares, each empty, a White man or a Black man.
pub const WINDOW_STATES: usize = 6561;
/// Squares in a window.
pub const WINDOW_SQUARES: usize = 8;
/// Windows on the largest board (10x10).
pub const MAX_WINDOWS: usize = 16;

/// The window states of a position, White's view (see the module documentation).
pub type WindowStates = [u16; MAX_WINDOWS];

/// The windows of one board.
#[derive(Clone, Copy, Debug)]
pub struct Windows {
    /// The number of windows.
    pub count: usize,
    /// `[side][bit]`: what a man of `side` (by index) on `bit` adds to every window's state,
    /// so that an update is one add per window, without branches.
    delta: [[WindowStates; 64]; 2],
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

impl Windows {
    const fn new(g: Geometry) -> Windows {
        let per_row = (g.rows / 2 - 1) as usize;
        let mut w = Windows {
            count: per_row * per_row,
            delta: [[[0; MAX_WINDOWS]; 64]; 2],
        };
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
                            w.delta[0][bit][index] = power;
                            w.delta[1][bit][index] = 2 * power;
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
        w
    }

    /// The windows of board `g`.
    pub fn of(g: Geometry) -> &'static Windows {
        static TEN_WINDOWS: Windows = Windows::new(TEN);
        static EIGHT_WINDOWS: Windows = Windows::new(EIGHT);
        if g == TEN {
            &TEN_WINDOWS
        } else {
            &EIGHT_WINDOWS
        }
    }

    /// Puts a man of `side` (by index) on `bit` into `states`.
    #[inline(always)]
    pub fn add(&self, states: &mut WindowStates, side: usize, bit: u32) {
        let d = &self.delta[side][bit as usize];
        for (s, d) in states.iter_mut().zip(d) {
            *s = s.wrapping_add(*d);
        }
    }

    /// Takes a man of `side` (by index) on `bit` out of `states`.
    #[inline(always)]
    pub fn remove(&self, states: &mut WindowStates, side: usize, bit: u32) {
        let d = &self.delta[side][bit as usize];
        for (s, d) in states.iter_mut().zip(d) {
            *s = s.wrapping_sub(*d);
        }
    }

    /// The states of `pos`'s windows computed from scratch (White's view).
    pub fn from_scratch(&self, pos: &Position) -> WindowStates {
        let mut states = [0u16; MAX_WINDOWS];
        for side in [Side::White, Side::Black] {
            let mut men = pos.pieces[side.index()] & !pos.kings;
            while men != 0 {
                self.add(&mut states, side.index(), men.trailing_zeros());
                men &= men - 1;
            }
        }
        states
    }

    /// Black's window `w` in Black's view (the board turned half a turn, colours swapped),
    /// from White's view `states`.
    #[inline(always)]
    pub fn black_view(&self, states: &WindowStates, w: usize) -> usize {
        FLIP[states[self.count - 1 - w] as usize] as usize
    }

    /// Window `w`'s state seen by `side` (see [`Windows::black_view`]).
    #[inline(always)]
    pub fn view(&self, states: &WindowStates, side: Side, w: usize) -> usize {
        match side {
            Side::White => states[w] as usize,
            Side::Black => self.black_view(states, w),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flipping_twice_is_the_identity() {
        for s in 0..WINDOW_STATES {
            assert_eq!(FLIP[FLIP[s] as usize] as usize, s);
        }
        // One White man on the first square becomes one Black man on the last.
        assert_eq!(FLIP[1], 2 * 3u16.pow(7));
    }

    #[test]
    fn every_window_holds_eight_squares_once_each_power() {
        for g in [TEN, EIGHT] {
            let w = Windows::of(g);
            let mut sums = [0usize; MAX_WINDOWS];
            let mut held = [0usize; MAX_WINDOWS];
            for s in 0..g.squares() {
                let bit = g.bit_index(s) as usize;
                let powers = &w.delta[0][bit];
                let windows = powers.iter().filter(|&&p| p != 0).count();
                assert!(
                    (1..=4).contains(&windows),
                    "square {s} in {windows} windows"
                );
                for (i, &p) in powers.iter().enumerate() {
                    sums[i] += p as usize;
                    held[i] += usize::from(p != 0);
                    // A Black man counts twice a White one.
                    assert_eq!(w.delta[1][bit][i], 2 * p);
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
    }
}
