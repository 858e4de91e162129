//! Geometry of the diagonal (dark-square) boards: 8x8, 10x10 and 12x12.
//!
//! Internal square indices count from 0 at the top-left playing square (as seen by the side that
//! starts at the bottom) to `SQUARES - 1` at the bottom-right one, row by row. Every variant's
//! printed numbering is a permutation of these indices (see the engine's notation module).
//!
//! The ghost-bit layout spans 35 bits on 8x8 and 54 on 10x10, which fit a `u64`; the 77 of
//! 12x12 need a `u128`. The `u64` masks ([`Geometry::mask`], ...) are for the
//! two smaller boards; the `wide_` ones serve every board.

/// A diagonal board geometry: its size and the bit layout of its playing squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Squares per row (`H = N / 2`): 4 on 8x8, 5 on 10x10.
    pub half: u32,
    /// Number of rows (`N`).
    pub rows: u32,
}

/// The 8x8 board (32 playing squares).
pub const EIGHT: Geometry = Geometry { half: 4, rows: 8 };
/// The 10x10 board (50 playing squares).
pub const TEN: Geometry = Geometry { half: 5, rows: 10 };
/// The 12x12 board (72 playing squares on 77 bits: a `u128`).
pub const TWELVE: Geometry = Geometry { half: 6, rows: 12 };

impl Geometry {
    /// Number of playing squares.
    pub const fn squares(&self) -> usize {
        (self.half * self.rows) as usize
    }

    /// Bit index of the internal square index `square` (0-based, row by row from the top).
    pub const fn bit_index(&self, square: usize) -> u32 {
        let square = square as u32;
        let row = square / self.half;
        let col = square % self.half;
        (row / 2) * (2 * self.half + 1) + (row % 2) * self.half + col
    }

    /// Single-bit mask of the internal square index `square` (8x8 and 10x10 only: see
    /// [`Geometry::wide_bit_of_square`] for every board).
    pub const fn bit_of_square(&self, square: usize) -> u64 {
        1u64 << self.bit_index(square)
    }

    /// Single-bit mask of the internal square index `square`, on any board.
    pub const fn wide_bit_of_square(&self, square: usize) -> u128 {
        1u128 << self.bit_index(square)
    }

    /// Number of bits the layout spans (the highest square's bit plus one).
    pub const fn bits(&self) -> u32 {
        self.bit_index(self.squares() - 1) + 1
    }

    /// Internal square index of bit `bit`, or `None` for a ghost or out-of-board bit.
    pub const fn square_of_bit(&self, bit: u32) -> Option<usize> {
        let period = 2 * self.half + 1;
        let pair = bit / period;
        let offset = bit % period;
        if offset == 2 * self.half {
            return None;
        }
        let row = pair * 2 + offset / self.half;
        if row >= self.rows {
            return None;
        }
        Some((row * self.half + offset % self.half) as usize)
    }

    /// Mask of all playing squares (8x8 and 10x10 only: see [`Geometry::wide_mask`]).
    pub const fn mask(&self) -> u64 {
        self.wide_mask() as u64
    }

    /// Mask of all playing squares, on any board.
    pub const fn wide_mask(&self) -> u128 {
        let mut m = 0u128;
        let mut s = 0;
        while s < self.squares() {
            m |= self.wide_bit_of_square(s);
            s += 1;
        }
        m
    }

    /// Mask of the squares of row `row` (0 = top row; 8x8 and 10x10 only: see
    /// [`Geometry::wide_row_mask`]).
    pub const fn row_mask(&self, row: u32) -> u64 {
        self.wide_row_mask(row) as u64
    }

    /// Mask of the squares of row `row` (0 = top row), on any board.
    pub const fn wide_row_mask(&self, row: u32) -> u128 {
        let mut m = 0u128;
        let mut c = 0;
        while c < self.half {
            m |= self.wide_bit_of_square((row * self.half + c) as usize);
            c += 1;
        }
        m
    }

    /// Mask of the squares in column `col` of their row (0 = leftmost playing square of each
    /// row, `half - 1` the rightmost), on any board: the edges of a step along a row.
    pub const fn wide_column_mask(&self, col: u32) -> u128 {
        let mut m = 0u128;
        let mut r = 0;
        while r < self.rows {
            m |= self.wide_bit_of_square((r * self.half + col) as usize);
            r += 1;
        }
        m
    }

    /// Shift that moves a bit one step down-left (towards higher square numbers).
    pub const fn step_down_left(&self) -> u32 {
        self.half
    }

    /// Shift that moves a bit one step down-right.
    pub const fn step_down_right(&self) -> u32 {
        self.half + 1
    }

    /// Row (0 = top) and file (0 = left) of the internal square index `square`.
    ///
    /// The top-left corner (file 0, row 0) is a light square on both boards, so row 0's playing
    /// squares are on the odd files.
    pub const fn row_file(&self, square: usize) -> (u32, u32) {
        let s = square as u32;
        let row = s / self.half;
        let col = s % self.half;
        let file = 2 * col + (1 - row % 2);
        (row, file)
    }

    /// Internal square index at `row`/`file`, or `None` on a light square or off the board.
    pub const fn square_at(&self, row: u32, file: u32) -> Option<usize> {
        if row >= self.rows || file >= 2 * self.half {
            return None;
        }
        let dark = !(row + file).is_multiple_of(2);
        if !dark {
            return None;
        }
        Some((row * self.half + file / 2) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_round_trip_on_every_board() {
        for g in [EIGHT, TEN, TWELVE] {
            for s in 0..g.squares() {
                assert_eq!(g.square_of_bit(g.bit_index(s)), Some(s));
                let (r, f) = g.row_file(s);
                assert_eq!(g.square_at(r, f), Some(s));
            }
            assert_eq!(g.wide_mask().count_ones() as usize, g.squares());
        }
        assert_eq!(EIGHT.bits(), 35);
        assert_eq!(TEN.bits(), 54);
        assert_eq!(TWELVE.bits(), 77);
        assert_eq!(TEN.mask() as u128, TEN.wide_mask());
    }

    #[test]
    fn steps_match_the_board_neighbours() {
        for g in [EIGHT, TEN, TWELVE] {
            for s in 0..g.squares() {
                let (r, f) = g.row_file(s);
                let b = g.wide_bit_of_square(s);
                let dl = (b << g.step_down_left()) & g.wide_mask();
                let want = if f > 0 {
                    g.square_at(r + 1, f - 1)
                } else {
                    None
                };
                assert_eq!(
                    dl,
                    want.map_or(0, |t| g.wide_bit_of_square(t)),
                    "square {s}"
                );
                let dr = (b << g.step_down_right()) & g.wide_mask();
                let want = g.square_at(r + 1, f + 1);
                assert_eq!(
                    dr,
                    want.map_or(0, |t| g.wide_bit_of_square(t)),
                    "square {s}"
                );
            }
        }
    }
}
