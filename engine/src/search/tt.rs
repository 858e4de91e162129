//! The transposition table: one table shared by every search thread, without locks.
//!
//! An entry is two `AtomicU64`s: the packed data, and the position key XORed with that data.
//! A reader loads both and accepts the entry only if `stored_key ^ data == key`; a torn entry
//! (half written by another thread) fails that test and is simply a miss. This is the "XOR
//! trick" of Hyatt and Mann's lockless hashing.
//!
//! Entries are grouped in buckets of four (64 bytes, one cache line) so that a probe costs one
//! memory access. Within a bucket, a new result replaces the same position if present, otherwise
//! the least valuable entry: the one with the smallest depth, counting entries left by older
//! searches as much shallower (they are probably no longer reachable).
//!
//! Moves are stored as their index in the position's legal move list, which the generator
//! produces in a fixed order. That keeps the table generic over every family's move type, and a
//! move read from the table is always legal in the position it is applied to (it is looked up in
//! that position's own list).

use std::sync::atomic::{AtomicU64, Ordering};

use super::memory::{max_hash_mib, HashError};
use crate::score::{Depth, Score};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (every move failed low).
    Upper,
    /// The true value is at least the score (a move failed high).
    Lower,
    /// The score is exact.
    Exact,
}

/// A probe's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Score, relative to the stored node (see `Score::to_tt`).
    pub score: Score,
    /// Static evaluation of the position, if it was computed.
    pub eval: Option<Score>,
    /// Depth the score was searched to.
    pub depth: Depth,
    /// The bound type.
    pub bound: Bound,
    /// Index of the best move in the legal move list, if any.
    pub move_index: Option<u8>,
}

/// The stored depth is `depth + DEPTH_OFFSET` in one byte, so quiescence entries (depth 0 and
/// a little below) fit.
const DEPTH_OFFSET: i32 = 8;
const NO_MOVE: u64 = 0xFF;
const NO_EVAL: i16 = i16::MIN;
const AGE_BITS: u32 = 6;
const AGE_MASK: u8 = (1 << AGE_BITS) - 1;

#[derive(Default)]
#[repr(C)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

/// Four entries: one cache line.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    entries: [Entry; 4],
}

/// data layout: score 0..16, eval 16..32, depth 32..40, move 40..48, bound 48..50, age 50..56.
#[inline]
fn pack(
    score: Score,
    eval: Option<Score>,
    depth: Depth,
    bound: Bound,
    mv: Option<u8>,
    age: u8,
) -> u64 {
    let score = score.centi() as i16 as u16 as u64;
    let eval = eval.map_or(NO_EVAL, |e| e.centi() as i16) as u16 as u64;
    let depth = (depth.plies() + DEPTH_OFFSET).clamp(0, 255) as u64;
    let mv = mv.map_or(NO_MOVE, u64::from);
    let bound = match bound {
        Bound::Upper => 1u64,
        Bound::Lower => 2,
        Bound::Exact => 3,
    };
    score | eval << 16 | depth << 32 | mv << 40 | bound << 48 | ((age & AGE_MASK) as u64) << 50
}

#[inline]
fn depth_of(data: u64) -> i32 {
    ((data >> 32) & 0xFF) as i32 - DEPTH_OFFSET
}

#[inline]
fn age_of(data: u64) -> u8 {
    ((data >> 50) as u8) & AGE_MASK
}

#[inline]
fn unpack(data: u64) -> Option<TtHit> {
    let bound = match (data >> 48) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let eval = (data >> 16) as u16 as i16;
    let mv = (data >> 40) & 0xFF;
    Some(TtHit {
        score: Score::from_centi(data as u16 as i16 as i32),
        eval: (eval != NO_EVAL).then(|| Score::from_centi(eval as i32)),
        depth: Depth(depth_of(data)),
        bound,
        move_index: (mv != NO_MOVE).then_some(mv as u8),
    })
}

/// The buckets, in memory aligned to 2 MiB and (on Linux) marked for transparent huge pages:
/// with 4 KiB pages nearly every probe of a large table also misses the TLB, and the page walk
/// measured as costly as the cache miss itself.
struct BucketArray {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
    layout: std::alloc::Layout,
}

// SAFETY: the buckets are only ever accessed through atomics.
unsafe impl Send for BucketArray {}
// SAFETY: as above; shared references only hand out `&Bucket`, whose fields are atomics.
unsafe impl Sync for BucketArray {}

const HUGE_PAGE: usize = 2 << 20;

impl BucketArray {
    /// `len` zeroed buckets (at least one), or `None` when the size overflows or the allocator
    /// refuses: a table request must never abort the process.
    fn try_new(len: usize) -> Option<BucketArray> {
        let len = len.max(1);
        let bytes = len.checked_mul(std::mem::size_of::<Bucket>())?;
        let align = if bytes >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<Bucket>()
        };
        let size = bytes.checked_next_multiple_of(align)?;
        let layout = std::alloc::Layout::from_size_align(size, align).ok()?;
        // SAFETY: `layout` has a non-zero size (at least one bucket).
        let raw = unsafe { std::alloc::alloc(layout) };
        let ptr = std::ptr::NonNull::new(raw as *mut Bucket)?;
        // Advise before the first touch: zeroing is what faults the pages in, and only pages
        // faulted after the advice become huge pages.
        advise_huge_pages(raw, layout.size());
        // SAFETY: `raw` is valid for `layout.size()` bytes; all-zero bytes are a valid `Bucket`
        // (atomics holding 0), so the memory is initialised afterwards.
        unsafe { std::ptr::write_bytes(raw, 0, layout.size()) };
        Some(BucketArray {
            ptr,
            len: layout.size() / std::mem::size_of::<Bucket>(),
            layout,
        })
    }

    #[inline(always)]
    fn as_slice(&self) -> &[Bucket] {
        // SAFETY: `ptr` points to `len` initialised buckets owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for BucketArray {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with exactly this layout.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, self.layout) }
    }
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    if len >= HUGE_PAGE {
        // SAFETY: the range is our own fresh allocation; madvise only changes how the kernel
        // backs it, and a failure (no THP support) is harmless, so its result is ignored.
        unsafe {
            madvise(ptr as *mut std::ffi::c_void, len, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}

/// A lock-free transposition table shared by all search threads.
pub struct TranspositionTable {
    buckets: BucketArray,
    /// Incremented by each new search; entries from earlier searches are replaced first.
    age: AtomicU64,
}

impl TranspositionTable {
    /// A table of about `mib` mebibytes (at least one bucket), cleared.
    ///
    /// # Panics
    ///
    /// If the table cannot be allocated; sizes that come from a user go through
    /// [`TranspositionTable::try_new`] instead.
    pub fn new(mib: usize) -> TranspositionTable {
        match TranspositionTable::try_new(mib) {
            Ok(tt) => tt,
            Err(e) => panic!("{e}"),
        }
    }

    /// A table of about `mib` mebibytes (at least one bucket), cleared; refused when the
    /// machine cannot give that much now (see [`super::max_hash_mib`]) or the allocator fails.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, HashError> {
        TranspositionTable::try_new_within(mib, max_hash_mib())
    }

    /// As [`TranspositionTable::try_new`], with `limit_mib` as the most this machine can give.
    pub fn try_new_within(mib: usize, limit_mib: u64) -> Result<TranspositionTable, HashError> {
        let mib = mib.max(1);
        let refused = HashError {
            requested_mib: mib as u64,
            available_mib: limit_mib,
        };
        if mib as u64 > limit_mib {
            return Err(refused);
        }
        let bytes = mib.checked_mul(1 << 20).ok_or_else(|| refused.clone())?;
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let buckets = BucketArray::try_new(n).ok_or(refused)?;
        Ok(TranspositionTable {
            buckets,
            age: AtomicU64::new(0),
        })
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len * std::mem::size_of::<Bucket>()
    }

    /// Empties every entry (a new game).
    pub fn clear(&self) {
        for b in self.buckets.as_slice() {
            for e in &b.entries {
                e.key_xor_data.store(0, Ordering::Relaxed);
                e.data.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn current_age(&self) -> u8 {
        (self.age.load(Ordering::Relaxed) as u8) & AGE_MASK
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table size, not only powers of two.
        let buckets = self.buckets.as_slice();
        let i = ((key as u128 * buckets.len() as u128) >> 64) as usize;
        &buckets[i]
    }

    /// Asks the processor to start loading the bucket of `key`.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::hint::prefetch(self.bucket(key));
    }

    /// The entry of `key`, if present.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in &self.bucket(key).entries {
            let data = e.data.load(Ordering::Relaxed);
            if e.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a search result. `mv` is the best move's index in the legal move list.
    pub fn store(
        &self,
        key: u64,
        score: Score,
        eval: Option<Score>,
        depth: Depth,
        bound: Bound,
        mv: Option<u8>,
    ) {
        let age = self.current_age();
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_value = i32::MAX;
        for e in &bucket.entries {
            let data = e.data.load(Ordering::Relaxed);
            let stored = e.key_xor_data.load(Ordering::Relaxed) ^ data;
            if stored == key {
                // Same position: keep a deeper result from this search unless the new one is
                // exact, and keep the old move when the new result has none (a fail low).
                if bound != Bound::Exact
                    && age_of(data) == age
                    && depth_of(data) > depth.plies() + 2
                {
                    return;
                }
                let mv = mv.or_else(|| unpack(data).and_then(|h| h.move_index));
                let new = pack(score, eval, depth, bound, mv, age);
                e.data.store(new, Ordering::Relaxed);
                e.key_xor_data.store(key ^ new, Ordering::Relaxed);
                return;
            }
            // An empty slot is worth nothing; otherwise depth, minus a lot per search of age.
            let value = if data == 0 {
                i32::MIN
            } else {
                let staleness = (age.wrapping_sub(age_of(data)) & AGE_MASK) as i32;
                depth_of(data) - 8 * staleness
            };
            if value < victim_value {
                victim_value = value;
                victim = e;
            }
        }
        let new = pack(score, eval, depth, bound, mv, age);
        victim.data.store(new, Ordering::Relaxed);
        victim.key_xor_data.store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of sampled entries written by the current search (the Hub/UCI "hashfull").
    pub fn hashfull(&self) -> u32 {
        let age = self.current_age();
        let buckets = self.buckets.as_slice();
        let sample = buckets.len().min(250);
        let mut used = 0;
        for b in &buckets[..sample] {
            for e in &b.entries {
                let data = e.data.load(Ordering::Relaxed);
                if data != 0 && age_of(data) == age {
                    used += 1;
                }
            }
        }
        if sample == 0 {
            0
        } else {
            (used * 1000 / (sample * 4)) as u32
        }
    }
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("bytes", &self.bytes())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_an_entry() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert!(tt.probe(key).is_none());
        tt.store(
            key,
            Score::from_centi(-37),
            Some(Score::from_centi(12)),
            Depth(7),
            Bound::Lower,
            Some(3),
        );
        let hit = tt.probe(key).expect("stored entry");
        assert_eq!(hit.score, Score::from_centi(-37));
        assert_eq!(hit.eval, Some(Score::from_centi(12)));
        assert_eq!(hit.depth, Depth(7));
        assert_eq!(hit.bound, Bound::Lower);
        assert_eq!(hit.move_index, Some(3));
        assert!(tt.probe(key ^ 1).is_none());
        tt.clear();
        assert!(tt.probe(key).is_none());
    }

    #[test]
    fn keeps_the_old_move_on_a_fail_low() {
        let tt = TranspositionTable::new(1);
        let key = 77;
        tt.store(key, Score::DRAW, None, Depth(3), Bound::Exact, Some(5));
        tt.store(key, Score::DRAW, None, Depth(4), Bound::Upper, None);
        let hit = tt.probe(key).expect("stored entry");
        assert_eq!(hit.move_index, Some(5));
        assert_eq!(hit.depth, Depth(4));
        assert_eq!(hit.eval, None);
    }

    #[test]
    fn impossible_sizes_are_refused_not_fatal() {
        // These used to abort ("memory allocation of ... failed") or panic ("index out of
        // bounds: the len is 0") in the allocation's size arithmetic.
        for mib in [usize::MAX, 1 << 44, 100_000, 33] {
            let e = TranspositionTable::try_new_within(mib, 32).expect_err("too large");
            assert_eq!(e.requested_mib, mib as u64);
            assert_eq!(e.available_mib, 32);
        }
        let e = TranspositionTable::try_new_within(usize::MAX, u64::MAX).expect_err("overflow");
        assert!(e.to_string().contains(&usize::MAX.to_string()), "{e}");
        let tt = TranspositionTable::try_new_within(2, 2).expect("fits");
        assert_eq!(tt.bytes(), 2 << 20);
        assert!(BucketArray::try_new(usize::MAX / 64 + 1).is_none());
    }

    #[test]
    fn negative_depths_and_decisive_scores_fit() {
        let tt = TranspositionTable::new(1);
        tt.store(9, Score::WIN - 3, None, Depth(-1), Bound::Exact, None);
        let hit = tt.probe(9).expect("stored entry");
        assert_eq!(hit.depth, Depth(-1));
        assert_eq!(hit.score, Score::WIN - 3);
        assert_eq!(hit.move_index, None);
    }
}
