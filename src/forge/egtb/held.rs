//! What the solver and the verifier hold: solved slices' values, two bits a position, for
//! looking children up, and the first error of a parallel pass.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use polydam_engine::egtb::codec::Kind;
use polydam_engine::egtb::index::{Material, Placement, SliceIndex};
use polydam_engine::egtb::{slice_path, EgtbError, TableGame, Wdl};

/// Win/draw/loss of every position of a slice, two bits each, for looking children up while
/// building and verifying (positions with a capture included).
#[derive(Debug)]
pub struct Full {
    /// The slice's index.
    pub index: SliceIndex,
    pub(super) words: Vec<u64>,
}

impl Full {
    pub(super) fn zeroed(index: SliceIndex) -> Full {
        Full {
            index,
            words: vec![0x5555_5555_5555_5555; index.size.div_ceil(32) as usize],
        }
    }

    /// The value of index `i`.
    #[inline]
    pub fn get(&self, i: u64) -> Wdl {
        Wdl::from_code((self.words[(i / 32) as usize] >> (2 * (i % 32))) as u8)
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }
}

/// Writes `values` (codes 0..=2, one per position) into a block's words.
pub(super) fn pack(words: &mut [u64], values: &[u8]) {
    for (w, vals) in words.iter_mut().zip(values.chunks(32)) {
        let mut x = 0u64;
        for (k, &v) in vals.iter().enumerate() {
            x |= ((v & 3) as u64) << (2 * k);
        }
        *w = x;
    }
}

/// The solved slices that children are looked up in.
pub struct Lookup<G: TableGame> {
    slices: Vec<Option<Arc<Full>>>,
    _game: std::marker::PhantomData<G>,
}

impl<G: TableGame> Default for Lookup<G> {
    fn default() -> Self {
        Lookup {
            slices: vec![None; Material::IDS],
            _game: std::marker::PhantomData,
        }
    }
}

impl<G: TableGame> Lookup<G> {
    /// Whether `m` is held.
    pub fn has(&self, m: Material) -> bool {
        self.slices[m.id()].is_some()
    }

    /// Adds a solved slice.
    pub fn insert(&mut self, full: Arc<Full>) {
        let id = full.index.material.id();
        self.slices[id] = Some(full);
    }

    /// Forgets a slice.
    pub fn remove(&mut self, m: Material) {
        self.slices[m.id()] = None;
    }

    /// The materials held.
    pub fn materials(&self) -> impl Iterator<Item = Material> + '_ {
        self.slices.iter().flatten().map(|f| f.index.material)
    }

    /// The held slice of `m`.
    pub fn get(&self, m: Material) -> Option<&Arc<Full>> {
        self.slices[m.id()].as_ref()
    }

    /// Bytes held by every slice.
    pub fn bytes(&self) -> usize {
        self.slices.iter().flatten().map(|f| f.bytes()).sum()
    }

    /// The value of `p` for its side to move: a terminal result, or its slice's entry
    /// (`None` when that slice is not held).
    #[inline]
    pub fn value(&self, p: &Placement) -> Option<Wdl> {
        if let Some(o) = G::terminal(p) {
            return Some(Wdl::of(o));
        }
        let full = self.slices[p.material().id()].as_ref()?;
        Some(full.get(full.index.rank(G::board(), p)))
    }

    /// The best value of the children of `p` by `moves` (all of them leaving the slice, or
    /// looked up anyway), from `p`'s side to move's view; `Err` names a slice not held.
    pub fn best_of(&self, p: &Placement, moves: &[G::Move]) -> Result<Wdl, Material> {
        let mut best = Wdl::Loss;
        for mv in moves {
            let child = G::child_of(p, mv);
            let v = self.value(&child).ok_or_else(|| child.material())?.flip();
            if v > best {
                best = v;
                if best == Wdl::Win {
                    break;
                }
            }
        }
        Ok(best)
    }
}

/// Records the first error of a parallel pass.
pub(super) struct FirstError(Mutex<Option<EgtbError>>, AtomicBool);

impl FirstError {
    pub(super) fn new() -> Self {
        FirstError(Mutex::new(None), AtomicBool::new(false))
    }
    pub(super) fn set(&self, e: EgtbError) {
        self.1.store(true, Ordering::Relaxed);
        if let Ok(mut slot) = self.0.lock() {
            slot.get_or_insert(e);
        }
    }
    pub(super) fn failed(&self) -> bool {
        self.1.load(Ordering::Relaxed)
    }
    pub(super) fn take(self) -> Result<(), EgtbError> {
        match self.0.into_inner() {
            Ok(Some(e)) => Err(e),
            _ => Ok(()),
        }
    }
}

pub(super) fn missing(vdir: &Path, m: Material) -> EgtbError {
    EgtbError::Missing {
        path: slice_path(vdir, m, Kind::Wdl),
    }
}
