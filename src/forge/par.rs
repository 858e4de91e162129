//! Data parallelism over rayon's threads for the workshop's long passes (the table builder and
//! verifier): per-index work with a scratch per thread, and per-chunk work on a slice.
//!
//! rayon is driven by non-generic code: the generic entry points box the caller's work (one
//! indirect call per index or chunk, each of which is a whole block of positions), so that
//! rayon's machinery is compiled once and not once per game and call site.

use std::sync::Mutex;

use rayon::prelude::*;

/// The work of one of rayon's jobs: called with each index the job takes.
type IndexWork<'a> = Box<dyn FnMut(usize) + 'a>;

/// Calls a worker from `make` (one per rayon job, as `for_each_init` does) on every `k` in
/// `0..n`.
fn par_indices<'a>(n: usize, make: &(dyn Fn() -> IndexWork<'a> + Sync)) {
    (0..n)
        .into_par_iter()
        .for_each_init(make, |work, k| work(k));
}

/// Calls `f(scratch, k)` for every `k` in `0..n` over rayon's threads, each thread with its own
/// scratch from `init`.
pub fn for_each_index<S, I, F>(n: usize, init: I, f: F)
where
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize) + Sync + Send,
{
    let f = &f;
    par_indices(n, &|| {
        let mut scratch = init();
        Box::new(move |k| f(&mut scratch, k))
    });
}

/// `f(scratch, k)` for every `k` in `0..n` over rayon's threads (each with its own scratch from
/// `init`), collected in order of `k`.
pub fn map_indices<S, R, I, F>(n: usize, init: I, f: F) -> Vec<R>
where
    R: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize) -> R + Sync + Send,
{
    let slots: Vec<Mutex<Option<R>>> = (0..n).map(|_| Mutex::new(None)).collect();
    for_each_index(n, init, |scratch, k| {
        let r = f(scratch, k);
        if let Ok(mut slot) = slots[k].lock() {
            *slot = Some(r);
        }
    });
    slots
        .into_iter()
        .filter_map(|slot| slot.into_inner().ok().flatten())
        .collect()
}

/// Calls `f(k, chunk)` for the `k`-th chunk of `size` elements of `data` over rayon's threads.
pub fn for_each_chunk_mut<T: Send, F>(data: &mut [T], size: usize, f: F)
where
    F: Fn(usize, &mut [T]) + Sync + Send,
{
    chunks_mut(data, size, &f);
}

/// [`for_each_chunk_mut`] with the work as a `dyn` closure (compiled once per element type).
fn chunks_mut<T: Send>(data: &mut [T], size: usize, f: &(dyn Fn(usize, &mut [T]) + Sync)) {
    data.par_chunks_mut(size)
        .enumerate()
        .for_each(|(k, c)| f(k, c));
}
