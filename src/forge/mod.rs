//! The forge is the workshop: what builds the engine's tables and weights (the endgame-table
//! builder and verifier, the trainer, the opening book, self-play), none of it needed to play.
//! The engine crate reads what the forge makes; the forge uses the engine's rules and formats.

pub mod egtb;
pub mod par;
