//! Data parallelism over rayon when the `parallel` feature is on, and the same calls run
//! serially when it is off, so that callers are written once (the parallel perft).
//!
//! The helpers are not generic: a generic caller hands them a `dyn` closure, so that rayon's
//! machinery is compiled once and not once per game.

#[cfg(feature = "parallel")]
use rayon::prelude::*;

/// `f(k)` for every `k` in `0..n`, over rayon's threads (with the `parallel` feature), in
/// order of `k`.
pub(crate) fn map_indices(n: usize, f: &(dyn Fn(usize) -> u64 + Sync)) -> Vec<u64> {
    #[cfg(feature = "parallel")]
    {
        (0..n).into_par_iter().map(f).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        (0..n).map(f).collect()
    }
}
