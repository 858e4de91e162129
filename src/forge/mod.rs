//! The workshop: what makes the engine's data rather than plays with it. The endgame-table
//! builder and verifier ([`egtb`]), self-play games and their training data ([`selfplay`],
//! [`data`]), fitting the learned evaluation's weights ([`train`]), balanced few-piece
//! start positions for matches ([`positions`]), decks of balanced openings ([`deck`]) and the
//! opening book ([`opening`]). The engine crate keeps only what playing needs
//! (rules, search, table probing, evaluation inference) and reads what the forge makes; the
//! forge builds on the engine's rules and formats, here in the program, so that the engine
//! ships none of it.

pub mod data;
pub mod deck;
pub mod egtb;
pub mod opening;
pub mod par;
pub mod positions;
pub mod selfplay;
pub mod train;
