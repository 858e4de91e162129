//! The verifier: every stored value re-derived from its successors' values.
//!
//! Slices are read back in build order (each one's captures decided again from the smaller
//! slices, as a build resumes). Then for every position without a capture, its moves are
//! generated *forward* (the engine's move generator, not the solver's backward one) and its
//! value must be the best of its children's: a win needs a lost child, a loss needs every
//! child won, a draw neither. With distances stored, a win at distance `d` must have a lost
//! child at `d - 1` inside the slice (or a winning move out of it when `d = 1`) and none
//! nearer, and a loss at `d` must have its farthest child at `d - 1`: together with the
//! values, this proves the stored values are the game's (a labelling that satisfies both is
//! unique).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::build::{
    load_full, needed, no_longer_needed, pairs, slice_path, BuildEvent, Lookup, Step,
};
use super::codec::{self, Kind, TableBytes, BLOCK, DTC_CAP};
use super::index::{Material, MenCache, SliceIndex};
use super::{variant_dir, EgtbError, TableGame, Wdl};
use crate::game::Duplicates;
use crate::par::for_each_index;

/// What a verification found.
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    /// Slices checked.
    pub slices: usize,
    /// Positions (indices) in them.
    pub positions: u64,
    /// Positions whose value was re-derived from their moves.
    pub checked: u64,
    /// Positions whose distance was checked too.
    pub dtc_checked: u64,
    /// Positions whose stored value or distance disagrees with their children's.
    pub inconsistencies: u64,
    /// The first few disagreements, described.
    pub examples: Vec<String>,
    /// Slices checked without distances (no `.dtc` file).
    pub without_dtc: Vec<Material>,
}

/// Verifies every slice of up to `pieces` pieces of `G` in `dir` (only those that `only`'s
/// slices lead to, when `only` is not empty).
pub fn verify<G: TableGame>(
    dir: &std::path::Path,
    pieces: u32,
    only: &[Material],
    on_event: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<VerifyReport, EgtbError> {
    let vdir = variant_dir(dir, G::NAME);
    let board = G::board();
    let order = needed::<G>(pieces, only);
    let mut lookup = Lookup::<G>::default();
    let mut report = VerifyReport::default();
    for comp in pairs(&order) {
        let m = comp[0];
        for &c in &comp {
            let full = load_full::<G>(&vdir, c, &lookup, on_event)?;
            lookup.insert(Arc::new(full));
        }
        // Distances, decoded whole (only this slice and its twin at a time).
        let mut dists: Vec<Option<Vec<u8>>> = Vec::new();
        for &c in &comp {
            let index = SliceIndex::new(board, c);
            let path = slice_path(&vdir, c, Kind::Dtc);
            match TableBytes::read(&path, Kind::Dtc, G::NAME, c, index.size) {
                Ok(t) => {
                    let mut all = vec![0u8; index.size as usize];
                    for (b, out) in all.chunks_mut(BLOCK).enumerate() {
                        codec::decode_dtc_block(t.block(b), out);
                    }
                    dists.push(Some(all));
                }
                Err(EgtbError::Missing { .. }) => {
                    report.without_dtc.push(c);
                    dists.push(None);
                }
                Err(e) => return Err(e),
            }
        }
        let dist_of = |mat: Material, i: u64| -> Option<u8> {
            let k = comp.iter().position(|&c| c == mat)?;
            dists[k].as_ref().map(|d| d[i as usize])
        };
        for (k, &c) in comp.iter().enumerate() {
            let full = lookup
                .get(c)
                .cloned()
                .ok_or_else(|| EgtbError::Invalid(format!("slice {c} not loaded")))?;
            let index = full.index;
            let has_dtc = dists[k].is_some();
            let checked = AtomicU64::new(0);
            let dtc_checked = AtomicU64::new(0);
            let bad = AtomicU64::new(0);
            let examples: Mutex<Vec<String>> = Mutex::new(Vec::new());
            let chunks = (index.size as usize).div_ceil(BLOCK);
            let done = AtomicU64::new(0);
            for_each_index(chunks, Default::default, |scratch, ch| {
                let (moves, cache): &mut (Vec<G::Move>, MenCache) = scratch;
                let lo = (ch * BLOCK) as u64;
                let hi = (lo + BLOCK as u64).min(index.size);
                let (mut n_checked, mut n_dtc, mut n_bad) = (0u64, 0u64, 0u64);
                for i in lo..hi {
                    let Some(p) = index.unrank_cached(board, i, cache) else {
                        continue;
                    };
                    if G::terminal(&p).is_some() {
                        continue;
                    }
                    let pos = G::position_of(&p);
                    if G::decided(&pos).is_some() {
                        continue;
                    }
                    G::generate(&pos, Duplicates::Drop, moves);
                    if !moves.is_empty() && G::is_capture(&moves[0]) {
                        continue;
                    }
                    n_checked += 1;
                    let stored = full.get(i);
                    let stored_d = dist_of(c, i);
                    // Expected value and distance from the children.
                    let (want, want_d) = if moves.is_empty() {
                        (Wdl::of(G::no_move_outcome(&pos)), Some(0u32))
                    } else {
                        let mut best = Wdl::Loss;
                        let mut win_exit = false;
                        let mut nearest_loss: Option<u32> = None;
                        let mut farthest = 0u32;
                        let mut missing = false;
                        for mv in moves.iter() {
                            let child = G::child_of(&p, mv);
                            let Some(cv) = lookup.value(&child) else {
                                missing = true;
                                break;
                            };
                            let v = cv.flip();
                            best = best.max(v);
                            if G::stays(mv) {
                                let cm = child.material();
                                let cf = lookup.get(cm);
                                let cd = cf.and_then(|f| {
                                    let j = f.index.rank(board, &child);
                                    let cpos = G::position_of(&child);
                                    if G::has_capture(&cpos) {
                                        Some(1)
                                    } else {
                                        dist_of(cm, j)
                                    }
                                });
                                let cd = cd.unwrap_or(0) as u32;
                                if v == Wdl::Win {
                                    nearest_loss = Some(nearest_loss.map_or(cd, |x| x.min(cd)));
                                }
                                farthest = farthest.max(cd);
                            } else if v == Wdl::Win {
                                win_exit = true;
                            }
                        }
                        if missing {
                            n_bad += 1;
                            continue;
                        }
                        let d = match best {
                            Wdl::Win if win_exit => Some(1),
                            Wdl::Win => nearest_loss.map(|x| x + 1),
                            Wdl::Loss => Some(farthest + 1),
                            Wdl::Draw => None,
                        };
                        (best, d)
                    };
                    let mut ok = want == stored;
                    if ok && has_dtc && want != Wdl::Draw {
                        n_dtc += 1;
                        let w = want_d.map(|x| x.min(DTC_CAP as u32) as u8);
                        ok = w == stored_d;
                    }
                    if !ok {
                        n_bad += 1;
                        if let Ok(mut ex) = examples.lock() {
                            if ex.len() < 10 {
                                ex.push(format!(
                                    "{c} index {i} ({}): stored {stored} {stored_d:?}, \
                                     children say {want} {want_d:?}",
                                    G::fen(&pos)
                                ));
                            }
                        }
                    }
                }
                checked.fetch_add(n_checked, Ordering::Relaxed);
                dtc_checked.fetch_add(n_dtc, Ordering::Relaxed);
                bad.fetch_add(n_bad, Ordering::Relaxed);
                let d = done.fetch_add(hi - lo, Ordering::Relaxed) + (hi - lo);
                if ch % 64 == 63 {
                    on_event(BuildEvent::Progress {
                        step: Step::Init,
                        done: d,
                        total: index.size,
                    });
                }
            });
            report.slices += 1;
            report.positions += index.size;
            report.checked += checked.into_inner();
            report.dtc_checked += dtc_checked.into_inner();
            report.inconsistencies += bad.into_inner();
            if let Ok(ex) = examples.into_inner() {
                report
                    .examples
                    .extend(ex.into_iter().take(10 - report.examples.len().min(10)));
            }
        }
        for &old in &order {
            if no_longer_needed(old, m, pieces) {
                lookup.remove(old);
            }
        }
    }
    Ok(report)
}
