//! Data parallelism over rayon when the `parallel` feature is on, and the same calls run
//! serially when it is off, so that callers are written once.

#[cfg(feature = "parallel")]
pub(crate) use rayon::prelude::*;

/// The slice methods of rayon's prelude that the engine uses, run on the calling thread.
#[cfg(not(feature = "parallel"))]
pub(crate) trait SerialSlice<T> {
    /// The elements, one after another.
    fn par_iter(&self) -> std::slice::Iter<'_, T>;
    /// Chunks of `size` elements, one after another.
    fn par_chunks(&self, size: usize) -> std::slice::Chunks<'_, T>;
}

#[cfg(not(feature = "parallel"))]
impl<T> SerialSlice<T> for [T] {
    fn par_iter(&self) -> std::slice::Iter<'_, T> {
        self.iter()
    }

    fn par_chunks(&self, size: usize) -> std::slice::Chunks<'_, T> {
        self.chunks(size)
    }
}

/// Calls `f(scratch, k)` for every `k` in `0..n`, over rayon's threads when the `parallel`
/// feature is on (each thread with its own scratch from `init`), else one after another.
#[cfg(feature = "parallel")]
pub(crate) fn for_each_index<S, I, F>(n: usize, init: I, f: F)
where
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize) + Sync + Send,
{
    (0..n).into_par_iter().for_each_init(init, f);
}

/// Calls `f(scratch, k)` for every `k` in `0..n`, one after another.
#[cfg(not(feature = "parallel"))]
pub(crate) fn for_each_index<S, I, F>(n: usize, init: I, f: F)
where
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize) + Sync + Send,
{
    let mut scratch = init();
    for k in 0..n {
        f(&mut scratch, k);
    }
}

/// `f(scratch, k)` for every `k` in `0..n`, collected in order of `k`: over rayon's threads when
/// the `parallel` feature is on (each thread with its own scratch from `init`), else one after
/// another.
#[cfg(feature = "parallel")]
pub(crate) fn map_indices<S, R, I, F>(n: usize, init: I, f: F) -> Vec<R>
where
    R: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize) -> R + Sync + Send,
{
    (0..n).into_par_iter().map_init(init, f).collect()
}

/// `f(scratch, k)` for every `k` in `0..n`, one after another, collected.
#[cfg(not(feature = "parallel"))]
pub(crate) fn map_indices<S, R, I, F>(n: usize, init: I, f: F) -> Vec<R>
where
    R: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize) -> R + Sync + Send,
{
    let mut scratch = init();
    (0..n).map(|k| f(&mut scratch, k)).collect()
}

/// Calls `f(k, chunk)` for the `k`-th chunk of `size` elements of `data`, over rayon's threads
/// when the `parallel` feature is on, else one after another.
#[cfg(feature = "parallel")]
pub(crate) fn for_each_chunk_mut<T: Send, F>(data: &mut [T], size: usize, f: F)
where
    F: Fn(usize, &mut [T]) + Sync + Send,
{
    data.par_chunks_mut(size)
        .enumerate()
        .for_each(|(k, c)| f(k, c));
}

/// Calls `f(k, chunk)` for the `k`-th chunk of `size` elements of `data`, one after another.
#[cfg(not(feature = "parallel"))]
pub(crate) fn for_each_chunk_mut<T: Send, F>(data: &mut [T], size: usize, f: F)
where
    F: Fn(usize, &mut [T]) + Sync + Send,
{
    for (k, c) in data.chunks_mut(size).enumerate() {
        f(k, c);
    }
}
