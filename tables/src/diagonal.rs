//! Geometry of the diagonal (dark-square) boards, 8x8 and 10x10.
//!
//! Internal square indices count from 0 at the top-left playing square (as seen by the side that
//! starts at the bottom) to `SQUARES - 1` at the bottom-right one, row by row. Every variant's
//! printed numbering is a permutation of these indices (see the engine's notation module).

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

    /// Single-bit mask of the internal square index `square`.
    pub const fn bit_of_square(&self, square: usize) -> u64 {
        1u64 << self.bit_index(square)
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

    /// Mask of all playing squares.
    pub const fn mask(&self) -> u64 {
        let mut m = 0u64;
        let mut s = 0;
        while s < self.squares() {
            m |= self.bit_of_square(s);
            s += 1;
        }
        m
    }

    /// Mask of the squares of row `row` (0 = top row).
    pub const fn row_mask(&self, row: u32) -> u64 {
        let mut m = 0u64;
        let mut c = 0;
        while c < self.half {
            m |= self.bit_of_square((row * self.half + c) as usize);
            c += 1;
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
    fn bits_round_trip_on_both_boards() {
        for g in [EIGHT, TEN] {
            for s in 0..g.squares() {
                assert_eq!(g.square_of_bit(g.bit_index(s)), Some(s));
                let (r, f) = g.row_file(s);
                assert_eq!(g.square_at(r, f), Some(s));
            }
            assert_eq!(g.mask().count_ones() as usize, g.squares());
        }
    }

    #[test]
    fn steps_match_the_board_neighbours() {
        for g in [EIGHT, TEN] {
            for s in 0..g.squares() {
                let (r, f) = g.row_file(s);
                let b = g.bit_of_square(s);
                let dl = (b << g.step_down_left()) & g.mask();
                let want = if f > 0 {
                    g.square_at(r + 1, f - 1)
                } else {
                    None
                };
                assert_eq!(dl, want.map_or(0, |t| g.bit_of_square(t)), "square {s}");
                let dr = (b << g.step_down_right()) & g.mask();
                let want = g.square_at(r + 1, f + 1);
                assert_eq!(dr, want.map_or(0, |t| g.bit_of_square(t)), "square {s}");
            }
        }
    }
}
