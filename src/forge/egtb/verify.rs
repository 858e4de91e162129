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
//!
//! A verification resumes: every slice found consistent is recorded in the variant's
//! [`LEDGER`] with its files' checksums, and a later run takes it from there when its files
//! still read back whole with the same checksums (`again` checks everything anew). A slice
//! larger than a segment ([`SEGMENT`] positions) is checked a segment at a time, and each
//! consistent segment is recorded in [`PARTS`]: a run stopped in the middle of a large slice
//! resumes it after its last recorded segment, on the same conditions.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use polydam_engine::egtb::codec::{self, Header, Kind, TableBytes, BLOCK, DTC_CAP};
use polydam_engine::egtb::index::{Material, MenCache, Placement, SliceIndex};
use polydam_engine::egtb::{dtc_missing, slice_path, variant_dir, EgtbError, TableGame, Wdl};
use polydam_engine::game::{Duplicates, Game};

use super::build::{load_full, needed, no_longer_needed, pairs};
use super::held::{Full, Lookup};
use super::job::{BuildEvent, Step};
use super::ledger::{append, read_records, SliceCheck, LEDGER, LEDGER_HEAD, PARTS, PARTS_HEAD};
use crate::forge::par::for_each_index;

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
    /// Slices taken from the ledger of an earlier run (their figures are counted above).
    pub resumed: usize,
    /// Ledger lines that could not be read (their slices are checked again).
    pub ledger_problems: Vec<String>,
}

/// A quiet move's child, its value for the mover, and its index (`None` when terminal).
type Kid = (Placement, Wdl, Option<u64>);

/// Positions checked between two records of a large slice's progress in [`PARTS`].
pub const SEGMENT: u64 = 1 << 26;

const _: () = assert!(SEGMENT.is_multiple_of(BLOCK as u64));

/// The checksums of slice `m`'s files, each read back whole and checked (`None` for a missing
/// `.dtc`).
fn file_checksums<G: TableGame>(vdir: &Path, m: Material) -> Result<(u64, Option<u64>), EgtbError> {
    let size = SliceIndex::new(G::board(), m).size;
    let read = |kind| TableBytes::read(&slice_path(vdir, m, kind), kind, G::NAME, m, size);
    let wdl = read(Kind::Wdl)?.checksum();
    let dtc = match read(Kind::Dtc) {
        Ok(t) => Some(t.checksum()),
        Err(EgtbError::Missing { .. }) => None,
        Err(e) => return Err(e),
    };
    Ok((wdl, dtc))
}

/// Verifies every slice of up to `pieces` pieces of `G` in `dir` (only those that `only`'s
/// slices lead to, when `only` is not empty). Slices that the [`LEDGER`] records as verified,
/// with files unchanged since, are taken from it unless `again` (which starts a new ledger),
/// and a large slice resumes after the last segment that [`PARTS`] records.
pub fn verify<G: TableGame>(
    dir: &std::path::Path,
    pieces: u32,
    only: &[Material],
    again: bool,
    on_event: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<VerifyReport, EgtbError> {
    verify_in_segments::<G>(dir, pieces, only, again, SEGMENT, on_event)
}

/// [`verify()`], recording a slice's progress every `segment` positions (rounded up to whole
/// blocks) instead of every [`SEGMENT`].
pub fn verify_in_segments<G: TableGame>(
    dir: &std::path::Path,
    pieces: u32,
    only: &[Material],
    again: bool,
    segment: u64,
    on_event: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<VerifyReport, EgtbError> {
    let vdir = variant_dir(dir, G::NAME);
    let order = needed::<G>(pieces, only);
    let records = Records {
        ledger: vdir.join(LEDGER),
        parts: vdir.join(PARTS),
        segment: segment.max(1).div_ceil(BLOCK as u64) * BLOCK as u64,
    };
    let mut report = VerifyReport::default();
    let (earlier, partial) = records.open(again, &mut report)?;
    let mut lookup = Lookup::<G>::default();
    // Slices taken from the ledger, not read back yet (only needed if a later slice is checked).
    let mut unread: Vec<Material> = Vec::new();
    for comp in pairs(&order) {
        let m = comp[0];
        let fresh = take_recorded::<G>(&vdir, &comp, &earlier, &mut report, on_event)?;
        if fresh.is_empty() {
            unread.extend_from_slice(&comp);
            continue;
        }
        for u in std::mem::take(&mut unread) {
            if !no_longer_needed(u, m, pieces) {
                let full = load_full::<G>(&vdir, u, &lookup, on_event, true)?;
                lookup.insert(Arc::new(full));
            }
        }
        for &c in &comp {
            // A slice checked now is read from its file alone, never from a cache.
            let full = load_full::<G>(&vdir, c, &lookup, on_event, !fresh.contains(&c))?;
            lookup.insert(Arc::new(full));
        }
        let dists = PairDists::read::<G>(&vdir, &comp)?;
        for (k, &c) in comp.iter().enumerate() {
            if fresh.contains(&c) && dists.dists[k].is_none() {
                report.without_dtc.push(c);
            }
        }
        for (k, &c) in comp.iter().enumerate() {
            if !fresh.contains(&c) {
                continue;
            }
            let full = lookup
                .get(c)
                .cloned()
                .ok_or_else(|| EgtbError::Invalid(format!("slice {c} not loaded")))?;
            let checksums = (
                super::cache::stored_checksum(&slice_path(&vdir, c, Kind::Wdl))?,
                dists.sums[k],
            );
            // An earlier run's consistent segments of these very files are not checked again.
            let before = partial.iter().find(|p| {
                p.material == c && p.positions == full.index.size && p.checksums == checksums
            });
            let checker = Checker {
                full: &full,
                lookup: &lookup,
                dists: &dists,
                has_dtc: dists.dists[k].is_some(),
                examples: Mutex::new(Vec::new()),
            };
            let check = checker.run(&records, before, checksums, on_event)?;
            report.add(&check, checker.examples.into_inner().unwrap_or_default());
            if check.inconsistencies == 0 {
                append(&records.ledger, LEDGER_HEAD, &check.ledger_line())?;
            }
            on_event(BuildEvent::Checked(&check));
        }
        for &old in &order {
            if no_longer_needed(old, m, pieces) {
                lookup.remove(old);
            }
        }
    }
    Ok(report)
}

impl VerifyReport {
    /// Counts a slice checked by this run, and keeps its first disagreements (ten in all).
    fn add(&mut self, check: &SliceCheck, examples: Vec<String>) {
        self.slices += 1;
        self.positions += check.positions;
        self.checked += check.checked;
        self.dtc_checked += check.dtc_checked;
        self.inconsistencies += check.inconsistencies;
        let room = 10 - self.examples.len().min(10);
        self.examples.extend(examples.into_iter().take(room));
    }
}

/// The record files of a verification and how often a large slice's progress is recorded.
struct Records {
    /// The slices verified ([`LEDGER`]).
    ledger: PathBuf,
    /// The slices in progress ([`PARTS`]).
    parts: PathBuf,
    /// Positions between two records of a slice's progress, a whole number of blocks.
    segment: u64,
}

impl Records {
    /// The slices verified and the slices in progress recorded by earlier runs (none, and the
    /// files removed, when checking everything `again`); lines that cannot be read go to the
    /// report.
    fn open(
        &self,
        again: bool,
        report: &mut VerifyReport,
    ) -> Result<(Vec<SliceCheck>, Vec<SliceCheck>), EgtbError> {
        if again {
            for path in [&self.ledger, &self.parts] {
                if path.exists() {
                    std::fs::remove_file(path).map_err(|e| EgtbError::io(path, e))?;
                }
            }
            return Ok((Vec::new(), Vec::new()));
        }
        let (found, problems) = read_records(&self.ledger, SliceCheck::parse, |c| c.material)?;
        let (partial, more) = read_records(&self.parts, SliceCheck::parse_part, |p| p.material)?;
        report.ledger_problems = problems;
        report.ledger_problems.extend(more);
        Ok((found, partial))
    }
}

/// Counts the slices of `comp` that the ledger's `earlier` records as verified, with files
/// that still read back whole with the recorded checksums; returns the others, to check.
fn take_recorded<G: TableGame>(
    vdir: &Path,
    comp: &[Material],
    earlier: &[SliceCheck],
    report: &mut VerifyReport,
    on_event: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<Vec<Material>, EgtbError> {
    let mut fresh: Vec<Material> = Vec::new();
    for &c in comp {
        match earlier.iter().find(|e| e.material == c) {
            Some(e) if e.checksums == file_checksums::<G>(vdir, c)? => {
                report.slices += 1;
                report.resumed += 1;
                report.positions += e.positions;
                report.checked += e.checked;
                report.dtc_checked += e.dtc_checked;
                if e.checksums.1.is_none() {
                    report.without_dtc.push(c);
                }
                on_event(BuildEvent::Checked(e));
            }
            _ => fresh.push(c),
        }
    }
    Ok(fresh)
}

/// Whether slice `m`'s `.wdl` file was built with distances (its header records the largest,
/// 0 without them or when the slice has no win): its `.dtc` file must then be there.
fn built_with_distances<G: TableGame>(vdir: &Path, m: Material) -> Result<bool, EgtbError> {
    use std::io::Read;
    let path = slice_path(vdir, m, Kind::Wdl);
    let mut head = [0u8; codec::HEADER_BYTES];
    codec::open_table(&path)?
        .read_exact(&mut head)
        .map_err(|e| EgtbError::io(&path, e))?;
    Ok(Header::parse(&head, &path, Kind::Wdl, G::NAME, m)?.max_dtc > 0)
}

/// The distances of a pair being checked, decoded whole (only this slice and its twin at a
/// time), and their files' checksums; `None` for a slice without a `.dtc` file.
struct PairDists<'a> {
    comp: &'a [Material],
    dists: Vec<Option<Vec<u8>>>,
    sums: Vec<Option<u64>>,
}

impl<'a> PairDists<'a> {
    /// Reads the `.dtc` files of `comp`'s slices.
    fn read<G: TableGame>(vdir: &Path, comp: &'a [Material]) -> Result<PairDists<'a>, EgtbError> {
        let mut out = PairDists {
            comp,
            dists: Vec::new(),
            sums: Vec::new(),
        };
        for &c in comp {
            let index = SliceIndex::new(G::board(), c);
            let path = slice_path(vdir, c, Kind::Dtc);
            match TableBytes::read(&path, Kind::Dtc, G::NAME, c, index.size) {
                Ok(t) => {
                    let mut all = vec![0u8; index.size as usize];
                    for (b, out) in all.chunks_mut(BLOCK).enumerate() {
                        codec::decode_dtc_block(t.block(b), out);
                    }
                    out.dists.push(Some(all));
                    out.sums.push(Some(t.checksum()));
                }
                // Checking the values alone would find every distance the other slices'
                // checks expect of this one wrong: the file's absence is the one thing to say.
                Err(EgtbError::Missing { path }) if built_with_distances::<G>(vdir, c)? => {
                    return Err(dtc_missing(&path));
                }
                Err(EgtbError::Missing { .. }) => {
                    out.dists.push(None);
                    out.sums.push(None);
                }
                Err(e) => return Err(e),
            }
        }
        Ok(out)
    }

    /// The stored distance of index `i` of `mat`, if `mat` is of the pair and has distances.
    fn of(&self, mat: Material, i: u64) -> Option<u8> {
        let k = self.comp.iter().position(|&c| c == mat)?;
        self.dists[k].as_ref().map(|d| d[i as usize])
    }
}

/// A thread's scratch while checking: moves, the men's squares, the quiet children.
type Scratch<G> = (Vec<<G as Game>::Move>, MenCache, Vec<Kid>);

/// The check of one slice against its children.
struct Checker<'a, G: TableGame> {
    /// The slice's stored values.
    full: &'a Full,
    /// Every slice its moves lead to (itself and its twin included).
    lookup: &'a Lookup<G>,
    /// The pair's distances.
    dists: &'a PairDists<'a>,
    /// Whether the slice has distances to check.
    has_dtc: bool,
    /// The first disagreements found.
    examples: Mutex<Vec<String>>,
}

impl<G: TableGame> Checker<'_, G> {
    /// Checks the slice segment by segment from where an earlier run (`before`) stopped,
    /// recording each consistent segment but the last in [`PARTS`]; returns the whole check.
    fn run(
        &self,
        records: &Records,
        before: Option<&SliceCheck>,
        checksums: (u64, Option<u64>),
        on_event: &(dyn Fn(BuildEvent<'_>) + Sync),
    ) -> Result<SliceCheck, EgtbError> {
        let started = Instant::now();
        let size = self.full.index.size;
        let from = before.map_or(0, |p| p.resumed_from);
        let seconds_before = before.map_or(0.0, |p| p.seconds);
        let checked = AtomicU64::new(before.map_or(0, |p| p.checked));
        let dtc_checked = AtomicU64::new(before.map_or(0, |p| p.dtc_checked));
        let bad = AtomicU64::new(0);
        let done = AtomicU64::new(from);
        let so_far = |resumed_from| SliceCheck {
            material: self.full.index.material,
            positions: size,
            checked: checked.load(Ordering::Relaxed),
            dtc_checked: dtc_checked.load(Ordering::Relaxed),
            inconsistencies: bad.load(Ordering::Relaxed),
            seconds: seconds_before + started.elapsed().as_secs_f64(),
            earlier: false,
            resumed_from,
            checksums,
        };
        let mut lo = from;
        while lo < size {
            let hi = (lo + records.segment).min(size);
            let first = (lo / BLOCK as u64) as usize;
            let chunks = ((hi - lo) as usize).div_ceil(BLOCK);
            for_each_index(chunks, Default::default, |scratch, j| {
                let ch = first + j;
                let [n_checked, n_dtc, n_bad] = self.block(scratch, ch);
                checked.fetch_add(n_checked, Ordering::Relaxed);
                dtc_checked.fetch_add(n_dtc, Ordering::Relaxed);
                bad.fetch_add(n_bad, Ordering::Relaxed);
                let block = (BLOCK as u64).min(size - (ch * BLOCK) as u64);
                let d = done.fetch_add(block, Ordering::Relaxed) + block;
                if ch % 64 == 63 {
                    on_event(BuildEvent::Progress {
                        step: Step::Init,
                        done: d,
                        total: size,
                    });
                }
            });
            // A stopped run resumes after the last segment recorded (only while consistent).
            if hi < size && bad.load(Ordering::Relaxed) == 0 {
                append(&records.parts, PARTS_HEAD, &so_far(from).part_line(hi))?;
                on_event(BuildEvent::Progress {
                    step: Step::Init,
                    done: hi,
                    total: size,
                });
            }
            lo = hi;
        }
        Ok(so_far(from))
    }

    /// Checks block `ch`: every position without a capture against its children. Returns the
    /// positions re-derived, those whose distance was checked too, and the disagreements.
    fn block(&self, (moves, cache, kids): &mut Scratch<G>, ch: usize) -> [u64; 3] {
        let board = G::board();
        let index = self.full.index;
        let c = index.material;
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
            let stored = self.full.get(i);
            let stored_d = self.dists.of(c, i);
            let Some((want, want_d)) = self.children_say(&p, &pos, moves, kids) else {
                n_bad += 1;
                continue;
            };
            let mut ok = want == stored;
            if ok && self.has_dtc && want != Wdl::Draw {
                n_dtc += 1;
                let w = want_d.map(|x| x.min(DTC_CAP as u32) as u8);
                ok = w == stored_d;
            }
            if !ok {
                n_bad += 1;
                if let Ok(mut ex) = self.examples.lock() {
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
        [n_checked, n_dtc, n_bad]
    }

    /// The value and distance that the children of `p` (position `pos`, without a capture,
    /// its moves generated) say it has; `None` when a child's slice is not held.
    fn children_say(
        &self,
        p: &Placement,
        pos: &G::Position,
        moves: &[G::Move],
        kids: &mut Vec<Kid>,
    ) -> Option<(Wdl, Option<u32>)> {
        if moves.is_empty() {
            return Some((Wdl::of(G::no_move_outcome(pos)), Some(0u32)));
        }
        let board = G::board();
        // Values first, each child ranked once; distances after, only of the children the
        // position's value depends on.
        kids.clear();
        let mut best = Wdl::Loss;
        let mut win_exit = false;
        for mv in moves.iter() {
            let child = G::child_of(p, mv);
            let (cv, j) = match G::terminal(&child) {
                Some(o) => (Wdl::of(o), None),
                None => {
                    let f = self.lookup.get(child.material())?;
                    let j = f.index.rank(board, &child);
                    (f.get(j), Some(j))
                }
            };
            let v = cv.flip();
            best = best.max(v);
            if G::stays(mv) {
                kids.push((child, v, j));
            } else if v == Wdl::Win {
                win_exit = true;
            }
        }
        // A child's distance: 1 when it has a capture (it converts at once).
        let dist = |child: &Placement, j: Option<u64>| -> u32 {
            let Some(j) = j else { return 0 };
            if G::has_capture(&G::position_of(child)) {
                1
            } else {
                self.dists.of(child.material(), j).map_or(0, u32::from)
            }
        };
        let d = match best {
            _ if !self.has_dtc => None,
            Wdl::Win if win_exit => Some(1),
            Wdl::Win => kids
                .iter()
                .filter(|k| k.1 == Wdl::Win)
                .map(|k| dist(&k.0, k.2))
                .min()
                .map(|x| x + 1),
            Wdl::Loss => Some(kids.iter().map(|k| dist(&k.0, k.2)).max().unwrap_or(0) + 1),
            Wdl::Draw => None,
        };
        Some((best, d))
    }
}
