//! The workshop: what makes the engine's data rather than plays with it. Self-play games and
//! their training data ([`selfplay`], [`data`]), fitting the learned evaluation's weights
//! ([`train`]) and books of openings ([`book`]). The engine crate keeps only what playing
//! needs (rules, search, table probing, evaluation inference); these build on it, here in
//! the program, so that the engine ships none of them.

pub mod book;
pub mod data;
pub mod selfplay;
pub mod train;
