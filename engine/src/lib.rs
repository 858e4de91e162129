//! Polydam's engine library: variants and their rule sheets, positions, notation, move
//! generation, perft, evaluation and search.
//!
//! The library never prints, reads stdin or exits: results go out as values or callbacks.
//!
//! ```
//! use polydam_engine::diagonal::{rules::International, Diagonal};
//! use polydam_engine::game::{Duplicates, Game};
//! use polydam_engine::perft::count_paths;
//! type Intl = Diagonal<International>;
//! let start = Intl::start();
//! assert_eq!(count_paths::<Intl>(&start, 3, Duplicates::Drop), 658);
//! ```

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod book;
pub mod diagonal;
pub mod egtb;
pub mod files;
pub mod game;
pub mod hex;
pub mod hint;
pub mod learn;
pub mod orthogonal;
mod par;
pub mod perft;
pub mod record;
pub mod score;
pub mod search;
pub mod stacks;
pub mod text;
pub mod variants;

pub use game::{view, Duplicates, Game, MoveStyle, Outcome, Side};
