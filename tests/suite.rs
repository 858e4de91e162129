//! Polydam's integration tests, in one test binary.
//!
//! Every test module dispatches over the registered variants, so each separate test binary
//! would compile the whole engine's generic code again for every variant: on CI's two cores
//! that dominated the test run. One crate compiles it once.

mod bad_input;
mod canadian_rules;
mod dbc_constitutional_rules;
mod diagonal_rules;
mod egtb;
mod endgames;
mod frisian_rules;
mod invariants;
mod learn_features;
mod orthogonal_perft;
mod orthogonal_rules;
mod perft;
mod search;
mod seesaw_playouts;
mod seesaw_rules;
mod setups;
mod support;
mod thai_rules;
