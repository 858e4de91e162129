//! The endgame-table workshop: the retrograde solver that builds the tables the engine probes
//! (`polydam_engine::egtb`), the verifier that re-derives every stored value, and the files
//! kept beside the tables to save time.
//!
//! - [`build`]: the build order and what it costs, and reading a solved slice back.
//! - [`job`]: what a build is asked to do and what it reports as it goes.
//! - [`held`]: solved slices' values held for looking children up.
//! - [`solve`]: the retrograde solver itself (one slice and its colour-reversed twin at a time,
//!   the counts of undecided moves in one byte per position, waves of newly decided positions
//!   in bit sets, parallel over chunks).
//! - [`verify`]: the retrograde invariant re-derived for every stored position.
//! - [`ledger`]: the verifier's records of the slices verified and in progress.
//! - [`checkpoint`]: a large pair's solver state, saved to resume from.
//! - [`cache`]: a large slice's resolved values, saved to skip deciding its captures again.
//! - [`trial`]: built tables tried out: the engine playing table wins and draws, timed probes.

pub mod build;
pub mod cache;
pub mod checkpoint;
pub mod held;
pub mod job;
pub mod ledger;
pub mod solve;
pub mod trial;
pub mod verify;
