//! Hints to the processor that change no result, only timing.

/// Asks the processor to start loading the cache line of `x` (only a hint: nothing is read and
/// nothing can fault).
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching reads nothing and faults on nothing; `x` is a live reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch(
            (x as *const T).cast::<i8>(),
            std::arch::x86_64::_MM_HINT_T0,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
