//! Board geometries and Zobrist keys for Polydam, all built at compile time.
//!
//! This is the lowest crate of the workspace and has no dependencies. Everything here is
//! computed by `const fn`, so the tables live in the binary's read-only data and cost nothing
//! at start-up.
//!
//! # Diagonal boards
//!
//! The playing squares of an N x N draughts board (N = 8 or 10; 12 in a `u128`) are stored in
//! a `u64` with one *ghost* bit after every two rows, the layout used by most fast draughts
//! engines. With `H = N / 2` squares per row, a pair of rows takes `2H + 1` bits and the four diagonal steps
//! become constant shifts: `H` and `H + 1` towards the bottom (higher square numbers), the same
//! amounts to the right towards the top. A step that leaves the board lands on a ghost bit or
//! outside the board mask, so `shift & MASK` is a complete edge test.
//!
//! ```
//! use polydam_tables::diagonal::{Geometry, TEN};
//! // Square 1 (b10) and its lower-left neighbour square 6 (a9).
//! let one = TEN.bit_of_square(0);
//! let six = TEN.bit_of_square(5);
//! assert_eq!(one << TEN.step_down_left(), six);
//! ```

#![forbid(unsafe_code)]

pub mod diagonal;
pub mod hex;
pub mod orthogonal;
pub mod zobrist;
