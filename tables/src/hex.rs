//! Geometry of the hexhex boards of hex Seesaw (side 4: 37 cells, side 5: 61 cells), built
//! at compile time.
//!
//! Cells are flat-topped and stand in vertical columns. A cell is addressed by doubled
//! coordinates `(x, y)`: `x` is the column, from `-(side - 1)` (column `a`, the left) to
//! `side - 1`; `y` grows upwards by 2 from one cell to the next in a column, and by 1 to a
//! neighbouring column. Cells are indexed column by column from the left, bottom to top, so
//! the bottom corner (South's start) of the side-4 board is `d1`, index 15.
//!
//! ```
//! use polydam_tables::hex::{SIDE4, N, NE, NW};
//! assert_eq!(SIDE4.cells, 37);
//! let d1 = SIDE4.cell_at(0, -6).unwrap();
//! assert_eq!(SIDE4.name_parts(d1), (3, 1));
//! // The bottom corner has three neighbours: N, NE and NW.
//! assert_eq!(SIDE4.neighbours[d1 as usize][N], SIDE4.cell_at(0, -4).unwrap());
//! assert_eq!(SIDE4.all[d1 as usize].count_ones(), 3);
//! assert_eq!(SIDE4.all[d1 as usize], SIDE4.dirs_mask(d1 as usize, &[N, NE, NW]));
//! ```

/// Direction north (up the column).
pub const N: usize = 0;
/// Direction north-east.
pub const NE: usize = 1;
/// Direction south-east.
pub const SE: usize = 2;
/// Direction south (down the column).
pub const S: usize = 3;
/// Direction south-west.
pub const SW: usize = 4;
/// Direction north-west.
pub const NW: usize = 5;

/// `(dx, dy)` of each direction in doubled coordinates.
pub const OFFSETS: [(i32, i32); 6] = [(0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1)];

/// "No cell" in a neighbour table.
pub const NONE: u8 = 255;

/// A hexhex board and its tables.
#[derive(Clone, Copy, Debug)]
pub struct HexGeometry {
    /// Cells per edge (4 or 5).
    pub side: i32,
    /// Number of cells.
    pub cells: usize,
    /// Mask of all cells.
    pub mask: u64,
    /// Column `x` of each cell.
    pub x: [i8; 64],
    /// Doubled row `y` of each cell.
    pub y: [i8; 64],
    /// Neighbour of each cell in each direction, or [`NONE`].
    pub neighbours: [[u8; 6]; 64],
    /// Mask of all neighbours of each cell.
    pub all: [u64; 64],
    /// Mask of the N, NE and NW neighbours of each cell (South's forward).
    pub up: [u64; 64],
    /// Mask of the S, SE and SW neighbours of each cell (North's forward).
    pub down: [u64; 64],
}

const fn abs(v: i32) -> i32 {
    if v < 0 {
        -v
    } else {
        v
    }
}

impl HexGeometry {
    /// The board of side `side` (at most 5, so that it fits a `u64`).
    pub const fn new(side: i32) -> HexGeometry {
        let mut g = HexGeometry {
            side,
            cells: 0,
            mask: 0,
            x: [0; 64],
            y: [0; 64],
            neighbours: [[NONE; 6]; 64],
            all: [0; 64],
            up: [0; 64],
            down: [0; 64],
        };
        let mut x = -(side - 1);
        let mut i = 0;
        while x < side {
            let top = 2 * (side - 1) - abs(x);
            let mut y = -top;
            while y <= top {
                g.x[i] = x as i8;
                g.y[i] = y as i8;
                i += 1;
                y += 2;
            }
            x += 1;
        }
        g.cells = i;
        g.mask = if i == 64 { u64::MAX } else { (1u64 << i) - 1 };
        let mut c = 0;
        while c < g.cells {
            let mut d = 0;
            while d < 6 {
                let nx = g.x[c] as i32 + OFFSETS[d].0;
                let ny = g.y[c] as i32 + OFFSETS[d].1;
                if let Some(n) = g.cell_at(nx, ny) {
                    g.neighbours[c][d] = n;
                    g.all[c] |= 1u64 << n;
                    if d == N || d == NE || d == NW {
                        g.up[c] |= 1u64 << n;
                    } else {
                        g.down[c] |= 1u64 << n;
                    }
                }
                d += 1;
            }
            c += 1;
        }
        g
    }

    /// The cell at doubled coordinates `(x, y)`, if it is on the board.
    pub const fn cell_at(&self, x: i32, y: i32) -> Option<u8> {
        let side = self.side;
        if abs(x) > side - 1 {
            return None;
        }
        let top = 2 * (side - 1) - abs(x);
        if abs(y) > top || (y + top) % 2 != 0 {
            return None;
        }
        // Cells in the columns left of x.
        let mut before = 0;
        let mut cx = -(side - 1);
        while cx < x {
            before += 2 * side - 1 - abs(cx);
            cx += 1;
        }
        Some((before + (y + top) / 2) as u8)
    }

    /// Column index (0 = `a`) and number counted from the bottom of the column (1-based).
    pub const fn name_parts(&self, cell: u8) -> (u8, u8) {
        let x = self.x[cell as usize] as i32;
        let y = self.y[cell as usize] as i32;
        let top = 2 * (self.side - 1) - abs(x);
        ((x + self.side - 1) as u8, ((y + top) / 2 + 1) as u8)
    }

    /// The cell with column index `column` (0 = `a`) and number `number` (from 1), if any.
    pub const fn cell_named(&self, column: u8, number: u8) -> Option<u8> {
        let x = column as i32 - (self.side - 1);
        if abs(x) > self.side - 1 || number == 0 {
            return None;
        }
        let top = 2 * (self.side - 1) - abs(x);
        let y = -top + 2 * (number as i32 - 1);
        self.cell_at(x, y)
    }

    /// Mask of the neighbours of `cell` in the directions `dirs`.
    pub const fn dirs_mask(&self, cell: usize, dirs: &[usize]) -> u64 {
        let mut m = 0;
        let mut i = 0;
        while i < dirs.len() {
            let n = self.neighbours[cell][dirs[i]];
            if n != NONE {
                m |= 1u64 << n;
            }
            i += 1;
        }
        m
    }

    /// The bottom corner cell (South's start).
    pub const fn bottom(&self) -> u8 {
        match self.cell_at(0, -2 * (self.side - 1)) {
            Some(c) => c,
            None => NONE,
        }
    }

    /// The top corner cell (North's start).
    pub const fn top(&self) -> u8 {
        match self.cell_at(0, 2 * (self.side - 1)) {
            Some(c) => c,
            None => NONE,
        }
    }
}

/// The side-4 board (37 cells), `seesaw`.
pub const SIDE4: HexGeometry = HexGeometry::new(4);
/// The side-5 board (61 cells), `seesaw-5`.
pub const SIDE5: HexGeometry = HexGeometry::new(5);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_counts_and_corners() {
        assert_eq!(SIDE4.cells, 37);
        assert_eq!(SIDE5.cells, 61);
        assert_eq!(SIDE4.name_parts(SIDE4.bottom()), (3, 1));
        assert_eq!(SIDE4.name_parts(SIDE4.top()), (3, 7));
        assert_eq!(SIDE5.name_parts(SIDE5.bottom()), (4, 1));
        assert_eq!(SIDE5.name_parts(SIDE5.top()), (4, 9));
    }

    #[test]
    fn neighbours_are_symmetric_and_names_round_trip() {
        for g in [SIDE4, SIDE5] {
            let mut edges = 0;
            for c in 0..g.cells {
                let (col, num) = g.name_parts(c as u8);
                assert_eq!(g.cell_named(col, num), Some(c as u8));
                for d in 0..6 {
                    let n = g.neighbours[c][d];
                    if n != NONE {
                        edges += 1;
                        assert_eq!(g.neighbours[n as usize][(d + 3) % 6], c as u8);
                    }
                }
            }
            // A hexhex board of side n has 3 * (3n^2 - 5n + 2) edges (counted twice here).
            let n = g.side as usize;
            assert_eq!(edges, 2 * 3 * (3 * n * n - 5 * n + 2));
        }
    }
}
