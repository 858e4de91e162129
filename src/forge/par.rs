//! Data parallelism over rayon's threads for the workshop's long passes (the table builder and
//! verifier): per-index work with a scratch per thread, and per-chunk work on a slice.

use rayon::prelude::*;

/// Calls `f(scratch, k)` for every `k` in `0..n` over rayon's threads, each thread with its own
/// scratch from `init`.
pub fn for_each_index<S, I, F>(n: usize, init: I, f: F)
where
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize) + Sync + Send,
{
    (0..n).into_par_iter().for_each_init(init, f);
}

/// `f(scratch, k)` for every `k` in `0..n` over rayon's threads (each with its own scratch from
/// `init`), collected in order of `k`.
pub fn map_indices<S, R, I, F>(n: usize, init: I, f: F) -> Vec<R>
where
    R: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize) -> R + Sync + Send,
{
    (0..n).into_par_iter().map_init(init, f).collect()
}

/// Calls `f(k, chunk)` for the `k`-th chunk of `size` elements of `data` over rayon's threads.
pub fn for_each_chunk_mut<T: Send, F>(data: &mut [T], size: usize, f: F)
where
    F: Fn(usize, &mut [T]) + Sync + Send,
{
    data.par_chunks_mut(size)
        .enumerate()
        .for_each(|(k, c)| f(k, c));
}
