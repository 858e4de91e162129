//! Data parallelism over rayon when the `parallel` feature is on, and the same calls run
//! serially when it is off, so that callers are written once (the parallel perft and the
//! trainer's gradients).

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
