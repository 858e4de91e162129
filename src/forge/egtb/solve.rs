//! The retrograde solver: one slice and its colour-reversed twin at a time.
//!
//! A slice is solved together with its colour-reversed twin (the same material with the other
//! side to move), since each one's quiet moves lead into the other. Per position the solver
//! keeps one byte:
//!
//! - the count of quiet moves that stay in the slice whose value is not known yet (or "cannot
//!   lose", when a move out of the slice already draws);
//! - once decided, win or loss with its distance to conversion (plies until the winner's best
//!   line leaves the slice, the loser delaying).
//!
//! The first pass decides every position with a capture (captures are compulsory: its value
//! is the best of its captures', all in smaller slices), without moves, or with a crowning that
//! wins (crownings lead to the slice with one man fewer, solved before). Then waves: the
//! positions decided at distance `d` (a bit set) are played backward; a predecessor of a loss
//! wins at `d + 1`, a predecessor of a win counts one undecided move less and loses at `d + 1`
//! when none is left. What is undecided when no wave decides anything more is a draw.
//!
//! Both passes run in parallel over chunks of positions (rayon, the `parallel` feature), with
//! the bytes and bit sets updated atomically.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use polydam_engine::egtb::codec::{self, Header, Kind, BLOCK, DONT_CARE, DTC_CAP};
use polydam_engine::egtb::index::{Material, MenCache, Placement, SliceIndex};
use polydam_engine::egtb::{slice_path, EgtbError, TableGame, Wdl};
use polydam_engine::game::Duplicates;
use polydam_engine::hint::prefetch;

use super::cache;
use super::checkpoint::{self, SliceState};
use super::held::{missing, pack, FirstError, Full, Lookup};
use super::job::{BuildEvent, BuildOptions, Checkpoints, SliceReport, Step};
use crate::forge::par::{for_each_chunk_mut, for_each_index, map_indices};

/// Position state: an index that is no position.
const S_INVALID: u8 = 0;
/// Decided draw (a capture or a crowning that draws at best, and nothing better).
const S_DRAW: u8 = 1;
/// Undecided, but a move out of the slice draws: never a loss.
const S_NOLOSS: u8 = 2;
/// Undecided with `c` (1..=`MAX_COUNT`) moves inside the slice not yet known to lose: `S_COUNT
/// + c`.
const S_COUNT: u8 = 2;
/// The most quiet moves a position may have (6 flying kings on 10x10 have at most 6 x 17).
const MAX_COUNT: u8 = 90;
/// Won at distance `d` (0..=`DTC_CAP`): `S_WIN + d`.
const S_WIN: u8 = S_COUNT + MAX_COUNT + 1;
/// Lost at distance `d`: `S_LOSS + d`.
const S_LOSS: u8 = S_WIN + DTC_CAP + 1;

const _: () = assert!(S_LOSS as u32 + DTC_CAP as u32 <= 255);

/// Positions per chunk of work (a whole number of bit set words and of file blocks).
const CHUNK: usize = BLOCK;

#[inline]
fn is_undecided(s: u8) -> bool {
    (S_NOLOSS..S_WIN).contains(&s)
}

/// The working bytes of a slice of `size` positions: a state byte each and three bit sets.
pub(super) fn work_bytes(size: u64) -> u64 {
    size + 3 * 8 * size.div_ceil(64)
}

/// Per-slice working state.
struct Work {
    index: SliceIndex,
    state: Vec<AtomicU8>,
    waves: [Vec<AtomicU64>; 2],
    dont_care: Vec<AtomicU64>,
}

impl Work {
    fn new(index: SliceIndex) -> Work {
        let n = index.size as usize;
        let words = n.div_ceil(64);
        let bits = || (0..words).map(|_| AtomicU64::new(0)).collect::<Vec<_>>();
        Work {
            index,
            state: (0..n).map(|_| AtomicU8::new(S_INVALID)).collect(),
            waves: [bits(), bits()],
            dont_care: bits(),
        }
    }

    fn bytes(&self) -> u64 {
        work_bytes(self.index.size)
    }
}

/// Why the first pass cannot decide a position.
enum Undecidable {
    /// A child's slice is not held.
    Missing(Material),
    /// More quiet moves than a state byte can count.
    TooManyMoves(u32),
}

impl From<Material> for Undecidable {
    fn from(m: Material) -> Self {
        Undecidable::Missing(m)
    }
}

/// The first-pass state of index `i`, and whether the position is don't-care.
#[inline]
fn first_state<G: TableGame>(
    work_index: &SliceIndex,
    twin_index: &SliceIndex,
    lookup: &Lookup<G>,
    i: u64,
    (moves, cache, seen): &mut (Vec<G::Move>, MenCache, Vec<u64>),
) -> Result<(u8, bool), Undecidable> {
    let board = G::board();
    let Some(p) = work_index.unrank_cached(board, i, cache) else {
        return Ok((S_INVALID, true));
    };
    let decided = |o| match Wdl::of(o) {
        Wdl::Win => S_WIN,
        Wdl::Loss => S_LOSS,
        Wdl::Draw => S_DRAW,
    };
    if let Some(o) = G::terminal(&p) {
        return Ok((decided(o), true));
    }
    let pos = G::position_of(&p);
    if let Some(o) = G::decided(&pos) {
        return Ok((decided(o), true));
    }
    G::generate(&pos, Duplicates::Drop, moves);
    let moves: &[G::Move] = moves;
    if moves.is_empty() {
        return Ok((decided(G::no_move_outcome(&pos)), false));
    }
    if G::is_capture(&moves[0]) {
        let s = match lookup.best_of(&p, moves)? {
            Wdl::Win => S_WIN + 1,
            Wdl::Draw => S_DRAW,
            Wdl::Loss => S_LOSS + 1,
        };
        return Ok((s, true));
    }
    let mut count = 0u32;
    let mut draw = false;
    // Two moves reach the same index only when their children are mirror images, and then
    // the position is its own mirror image but for the two moved pieces' squares.
    let twins_possible = board.mirror.is_some_and(|f| {
        let occ = p.occupied();
        (occ ^ f.apply(occ)).count_ones() <= 4
    });
    seen.clear();
    for mv in moves.iter() {
        if G::stays(mv) {
            if twins_possible {
                seen.push(twin_index.rank(board, &G::child_of(&p, mv)));
            } else {
                count += 1;
            }
            continue;
        }
        let child = G::child_of(&p, mv);
        match lookup.value(&child).ok_or_else(|| child.material())? {
            Wdl::Loss => return Ok((S_WIN + 1, false)),
            Wdl::Draw => draw = true,
            Wdl::Win => {}
        }
    }
    if twins_possible {
        // The waves count each child index once, so the moves are counted the same way.
        seen.sort_unstable();
        seen.dedup();
        count = seen.len() as u32;
    }
    if count > MAX_COUNT as u32 {
        return Err(Undecidable::TooManyMoves(count));
    }
    let s = match (count, draw) {
        (0, true) => S_DRAW,
        (0, false) => S_LOSS + 1,
        (_, true) => S_NOLOSS,
        (c, false) => S_COUNT + c as u8,
    };
    Ok((s, false))
}

/// Decided positions per batch of a wave (their updates, about ten each, are held at once).
const BATCH_SOURCES: u64 = 1 << 18;

/// The index ranges a batch's updates are applied in, one range per task: a power of two
/// positions each (a multiple of 64, so that no two ranges share a wave bit set word).
struct Ranges {
    shift: u32,
    count: usize,
}

impl Ranges {
    /// About 16 ranges over `size` positions.
    fn new(size: u64) -> Ranges {
        let span = size.div_ceil(16).next_power_of_two().max(64);
        let shift = span.trailing_zeros();
        Ranges {
            shift,
            count: size.div_ceil(span).max(1) as usize,
        }
    }

    #[inline(always)]
    fn of(&self, j: u64) -> usize {
        (j >> self.shift) as usize
    }
}

/// The updates that chunk `c` of `w`'s wave `cur` makes to its twin: for each position decided
/// in that wave, its predecessors' indices in `twin` (`j << 1`, plus 1 when the position is
/// lost), one list per range of [`Ranges`]. Clears the chunk's wave bits.
fn gather<G: TableGame>(
    w: &Work,
    twin: &SliceIndex,
    c: usize,
    cur: usize,
    ranges: &Ranges,
    (preds, cache, js): &mut (Vec<Placement>, MenCache, Vec<u64>),
) -> Vec<Vec<u64>> {
    let board = G::board();
    let mut out = vec![Vec::new(); ranges.count];
    let words = w.waves[cur].len();
    let lo = c * (CHUNK / 64);
    let hi = (lo + CHUNK / 64).min(words);
    for word in lo..hi {
        let mut bits = w.waves[cur][word].swap(0, Ordering::Relaxed);
        while bits != 0 {
            let i = word as u64 * 64 + bits.trailing_zeros() as u64;
            bits &= bits - 1;
            let lost = w.state[i as usize].load(Ordering::Relaxed) >= S_LOSS;
            let Some(p) = w.index.unrank_cached(board, i, cache) else {
                continue;
            };
            G::unmoves(&p, preds);
            js.clear();
            js.extend(preds.iter().map(|q| twin.rank(board, q)));
            // With a mirror, a position and its image share index `i`; their predecessors'
            // indices are the same set (each image's predecessors are the images of the
            // other's), and each counts once, as the first pass counted each child index once.
            if let Some(f) = board.mirror {
                let occ = p.occupied();
                if (occ ^ f.apply(occ)).count_ones() <= 4 {
                    js.sort_unstable();
                    js.dedup();
                }
            }
            for &j in js.iter() {
                out[ranges.of(j)].push(j << 1 | lost as u64);
            }
        }
    }
    out
}

/// Applies `updates` (from [`gather`], all in one range, which only this call touches) to
/// `t`: a predecessor of a lost position wins at `next_dtc`; one of a won position counts one
/// undecided move less, and loses at `next_dtc` when none is left. Positions decided are marked
/// in the next wave's bit set.
fn apply(t: &Work, updates: &[u64], cur: usize, next_dtc: u8) {
    // How many updates ahead the state bytes are fetched: enough misses in flight to hide
    // the memory's latency.
    const AHEAD: usize = 16;
    for (n, &u) in updates.iter().enumerate() {
        if let Some(&a) = updates.get(n + AHEAD) {
            prefetch(&t.state[(a >> 1) as usize]);
        }
        let j = (u >> 1) as usize;
        let cell = &t.state[j];
        let x = cell.load(Ordering::Relaxed);
        let new = if u & 1 != 0 {
            if !is_undecided(x) {
                continue;
            }
            S_WIN + next_dtc
        } else if x == S_COUNT + 1 {
            S_LOSS + next_dtc
        } else if x > S_COUNT + 1 && x < S_WIN {
            cell.store(x - 1, Ordering::Relaxed);
            continue;
        } else {
            continue;
        };
        cell.store(new, Ordering::Relaxed);
        let word = &t.waves[1 - cur][j / 64];
        word.store(
            word.load(Ordering::Relaxed) | 1 << (j % 64),
            Ordering::Relaxed,
        );
    }
}

/// The first pass over `works`: every position's first state, and the first two waves.
fn first_pass<G: TableGame>(
    vdir: &Path,
    works: &[Work],
    positions: u64,
    lookup: &Lookup<G>,
    opts: &BuildOptions<'_>,
) -> Result<(), EgtbError> {
    let errors = FirstError::new();
    let done = AtomicU64::new(0);
    for (k, w) in works.iter().enumerate() {
        let twin_index = &works[if works.len() == 2 { 1 - k } else { k }].index;
        let chunks = (w.index.size as usize).div_ceil(CHUNK);
        for_each_index(chunks, Default::default, |scratch, c| {
            if errors.failed() {
                return;
            }
            let lo = c * CHUNK;
            let hi = ((c + 1) * CHUNK).min(w.index.size as usize);
            for word in (lo / 64)..hi.div_ceil(64) {
                let mut bits = [0u64; 3];
                for b in 0..64 {
                    let i = word * 64 + b;
                    if i >= hi {
                        break;
                    }
                    let (s, dc) =
                        match first_state::<G>(&w.index, twin_index, lookup, i as u64, scratch) {
                            Ok(x) => x,
                            Err(Undecidable::Missing(m)) => {
                                errors.set(missing(vdir, m));
                                return;
                            }
                            Err(Undecidable::TooManyMoves(n)) => {
                                errors.set(EgtbError::Invalid(format!(
                                    "a position of {} has {n} quiet moves, more than the solver \
                                 counts ({MAX_COUNT})",
                                    w.index.material
                                )));
                                return;
                            }
                        };
                    w.state[i].store(s, Ordering::Relaxed);
                    if dc {
                        bits[2] |= 1 << b;
                    }
                    if s == S_WIN || s == S_LOSS {
                        bits[0] |= 1 << b;
                    } else if s == S_WIN + 1 || s == S_LOSS + 1 {
                        bits[1] |= 1 << b;
                    }
                }
                w.waves[0][word].store(bits[0], Ordering::Relaxed);
                w.waves[1][word].store(bits[1], Ordering::Relaxed);
                w.dont_care[word].store(bits[2], Ordering::Relaxed);
            }
            let d = done.fetch_add((hi - lo) as u64, Ordering::Relaxed) + (hi - lo) as u64;
            (opts.on_event)(BuildEvent::Progress {
                step: Step::Init,
                done: d,
                total: positions,
            });
        });
    }
    errors.take()
}

/// The digest of the tables in `lookup` ([`checkpoint::digest`]); a `.wdl` file that cannot be
/// read gives its material alone.
fn tables_digest<G: TableGame>(vdir: &Path, lookup: &Lookup<G>) -> u64 {
    let tables: Vec<(Material, u64)> = lookup
        .materials()
        .map(|m| {
            let sum = cache::stored_checksum(&slice_path(vdir, m, Kind::Wdl)).unwrap_or(0);
            (m, sum)
        })
        .collect();
    checkpoint::digest(&tables)
}

/// Solves one slice and its twin (`comp`), writes their files, returns their full values and
/// reports.
pub(super) fn solve<G: TableGame>(
    vdir: &Path,
    comp: &[Material],
    lookup: &Lookup<G>,
    opts: &BuildOptions<'_>,
) -> Result<Vec<(Full, SliceReport)>, EgtbError> {
    let started = Instant::now();
    let board = G::board();
    let works: Vec<Work> = comp
        .iter()
        .map(|&m| Work::new(SliceIndex::new(board, m)))
        .collect();
    let positions: u64 = works.iter().map(|w| w.index.size).sum();
    (opts.on_event)(BuildEvent::Begin {
        materials: comp,
        positions,
    });
    // A large pair resumes from its checkpoint, if a run stopped in it left one.
    let ck = opts.checkpoints.filter(|c| positions >= c.from_positions);
    let mut pair = Pair {
        vdir,
        comp,
        opts,
        works,
        ck,
        ck_path: checkpoint::path(vdir, comp[0]),
        digest: match ck {
            Some(_) => tables_digest(vdir, lookup),
            None => 0,
        },
        resumed: None,
        started,
    };
    pair.resumed = pair.resume();
    if pair.resumed.is_none() {
        first_pass::<G>(vdir, &pair.works, positions, lookup, opts)?;
    }
    let waves = pair.run_waves::<G>();
    pair.write_all(lookup, waves)
}

/// A slice and its twin being solved.
struct Pair<'a> {
    /// The variant directory.
    vdir: &'a Path,
    /// The slice, then its twin if it has one.
    comp: &'a [Material],
    /// The build's options.
    opts: &'a BuildOptions<'a>,
    /// Their working states, in `comp`'s order.
    works: Vec<Work>,
    /// When the pair is saved to resume from (`None`: never, it is too small).
    ck: Option<Checkpoints>,
    /// Its checkpoint file.
    ck_path: PathBuf,
    /// The digest of the tables it is solved against ([`checkpoint::digest`]).
    digest: u64,
    /// Where this run took it up, when it resumed from a checkpoint.
    resumed: Option<checkpoint::Resume>,
    /// When this run started on it.
    started: Instant,
}

impl Pair<'_> {
    /// The working states as a checkpoint sees them.
    fn states(&self) -> Vec<SliceState<'_>> {
        self.works
            .iter()
            .map(|w| SliceState {
                material: w.index.material,
                state: &w.state,
                waves: [&w.waves[0], &w.waves[1]],
                dont_care: &w.dont_care,
            })
            .collect()
    }

    /// The pair's solving time over every run: what the checkpoint carried, and this run's.
    fn solving(&self) -> f64 {
        self.resumed.map_or(0.0, |r| r.seconds) + self.started.elapsed().as_secs_f64()
    }

    /// The working state restored from the pair's checkpoint, if it has a valid one; a
    /// damaged checkpoint is reported and removed.
    fn resume(&self) -> Option<checkpoint::Resume> {
        self.ck?;
        match checkpoint::read(&self.ck_path, self.digest, &self.states()) {
            Ok(Some(at)) => {
                (self.opts.on_event)(BuildEvent::Resumed {
                    materials: self.comp,
                    wave: at.wave,
                    seconds: at.seconds,
                });
                Some(at)
            }
            Ok(None) => None,
            Err(e) => {
                (self.opts.on_event)(BuildEvent::Warning(format!(
                    "{e}: solving the pair from the start"
                )));
                let _ = std::fs::remove_file(&self.ck_path);
                None
            }
        }
    }

    /// Runs the waves until none decides anything more; returns their number.
    ///
    /// Each batch of decided positions first gathers its predecessors' indices (in parallel
    /// over chunks), then applies them by index range (in parallel over ranges): no two
    /// threads touch one state byte, so the updates are plain loads and stores that the
    /// processor overlaps, where locked read-modify-writes would wait for each cache miss.
    fn run_waves<G: TableGame>(&self) -> u32 {
        let mut d = self.resumed.map_or(0, |r| r.wave);
        let mut last_checkpoint = if self.resumed.is_some() {
            Instant::now()
        } else {
            self.started
        };
        loop {
            let cur = (d % 2) as usize;
            let per_chunk = self.wave_counts(cur);
            // The first pass fills both waves (distances 0 and 1), so an empty wave ends the
            // loop only when the next one is empty too (later waves start with the next one
            // empty).
            let empty = per_chunk.iter().flatten().all(|&n| n == 0);
            if empty
                && self.works.iter().all(|w| {
                    w.waves[1 - cur]
                        .iter()
                        .all(|x| x.load(Ordering::Relaxed) == 0)
                })
            {
                break;
            }
            // Only between waves is the state whole; not again at the wave it resumed at.
            if let Some(c) = self.ck {
                let again = self.resumed.map(|r| r.wave) != Some(d);
                if last_checkpoint.elapsed() >= c.every && again {
                    self.checkpoint(d);
                    last_checkpoint = Instant::now();
                }
            }
            self.wave::<G>(&per_chunk, cur, (d + 1).min(DTC_CAP as u32) as u8);
            d += 1;
            (self.opts.on_event)(BuildEvent::Progress {
                step: Step::Waves,
                done: d as u64,
                total: 0,
            });
        }
        d
    }

    /// Decided positions per chunk of wave `cur`, per slice, for cutting it into batches.
    fn wave_counts(&self, cur: usize) -> Vec<Vec<u32>> {
        self.works
            .iter()
            .map(|w| {
                let words = &w.waves[cur];
                map_indices(
                    words.len().div_ceil(CHUNK / 64),
                    || (),
                    |_, c| {
                        let lo = c * (CHUNK / 64);
                        let hi = (lo + CHUNK / 64).min(words.len());
                        words[lo..hi]
                            .iter()
                            .map(|x| x.load(Ordering::Relaxed).count_ones())
                            .sum::<u32>()
                    },
                )
            })
            .collect()
    }

    /// Saves the pair's state at wave `d` to resume from; a failure is only a warning.
    fn checkpoint(&self, d: u32) {
        let t = Instant::now();
        let at = checkpoint::Resume {
            wave: d,
            seconds: self.solving(),
        };
        match checkpoint::write(&self.ck_path, self.digest, at, &self.states()) {
            Ok(bytes) => (self.opts.on_event)(BuildEvent::Checkpoint {
                materials: self.comp,
                wave: d,
                bytes,
                seconds: t.elapsed().as_secs_f64(),
            }),
            Err(e) => (self.opts.on_event)(BuildEvent::Warning(format!("{e}: no checkpoint"))),
        }
    }

    /// Plays wave `cur` backward (its decided positions counted per chunk in `per_chunk`),
    /// deciding the next wave's positions at distance `next_dtc`.
    fn wave<G: TableGame>(&self, per_chunk: &[Vec<u32>], cur: usize, next_dtc: u8) {
        let works = &self.works;
        let twin_of = |k: usize| if works.len() == 2 { 1 - k } else { k };
        for (k, w) in works.iter().enumerate() {
            let t = &works[twin_of(k)];
            let ranges = Ranges::new(t.index.size);
            let counts = &per_chunk[k];
            let mut first = 0;
            while first < counts.len() {
                let mut last = first;
                let mut sources = 0u64;
                while last < counts.len() && sources < BATCH_SOURCES {
                    sources += counts[last] as u64;
                    last += 1;
                }
                let gathered = map_indices(last - first, Default::default, |scratch, c| {
                    gather::<G>(w, &t.index, first + c, cur, &ranges, scratch)
                });
                for_each_index(
                    ranges.count,
                    || (),
                    |_, r| {
                        for chunk in &gathered {
                            apply(t, &chunk[r], cur, next_dtc);
                        }
                    },
                );
                first = last;
            }
        }
    }

    /// Writes the files of both slices, after `waves` waves, and removes the pair's
    /// checkpoint; returns their full values and reports.
    fn write_all<G: TableGame>(
        mut self,
        lookup: &Lookup<G>,
        waves: u32,
    ) -> Result<Vec<(Full, SliceReport)>, EgtbError> {
        let working_bytes: u64 = self.works.iter().map(Work::bytes).sum();
        let mut out = Vec::new();
        for w in std::mem::take(&mut self.works) {
            let (full, mut report) = self.write_slice::<G>(w)?;
            report.waves = waves;
            report.working_bytes = working_bytes;
            report.lookup_bytes = (lookup.bytes() + full.bytes()) as u64;
            (self.opts.on_event)(BuildEvent::Done(&report));
            out.push((full, report));
        }
        // The pair's files are written: its checkpoint is of no more use.
        if self.ck.is_some() {
            if let Err(e) = std::fs::remove_file(&self.ck_path) {
                if e.kind() != std::io::ErrorKind::NotFound {
                    (self.opts.on_event)(BuildEvent::Warning(
                        EgtbError::io(&self.ck_path, e).to_string(),
                    ));
                }
            }
        }
        Ok(out)
    }

    /// Codes one solved slice's values and distances and writes its files (the `.wdl` file
    /// last: its presence marks the slice as built); returns its full values and its report
    /// (waves and bytes held left at 0).
    fn write_slice<G: TableGame>(&self, w: Work) -> Result<(Full, SliceReport), EgtbError> {
        let (vdir, opts) = (self.vdir, self.opts);
        let m = w.index.material;
        let blocks = (w.index.size as usize).div_ceil(BLOCK);
        let mut full = Full::zeroed(w.index);
        let mut wdl_blocks: Vec<Vec<u8>> = vec![Vec::new(); blocks];
        let mut dtc_blocks: Vec<Vec<u8>> = vec![Vec::new(); blocks];
        let stats: Mutex<BlockStats> = Mutex::new(BlockStats::default());
        let written = AtomicU64::new(0);
        {
            let mut jobs: Vec<(&mut [u64], &mut Vec<u8>, &mut Vec<u8>)> = full
                .words
                .chunks_mut(BLOCK / 32)
                .zip(wdl_blocks.iter_mut())
                .zip(dtc_blocks.iter_mut())
                .map(|((a, b), c)| (a, b, c))
                .collect();
            for_each_chunk_mut(&mut jobs, 1, |b, job| {
                let (words, wdl, dtc) = &mut job[0];
                let block = code_block(&w, b, words, wdl, opts.dtc.then_some(&mut **dtc));
                if let Ok(mut st) = stats.lock() {
                    st.add(&block);
                }
                let n = written.fetch_add(1, Ordering::Relaxed) + 1;
                if n.is_multiple_of(256) {
                    (opts.on_event)(BuildEvent::Progress {
                        step: Step::Write,
                        done: n,
                        total: blocks as u64,
                    });
                }
            });
        }
        let stats = stats.into_inner().unwrap_or_default();
        let (positions, (counts, max_dtc)) = (w.index.size, (stats.counts, stats.max_dtc));
        drop(w);
        let header = Header {
            kind: Kind::Wdl,
            variant: G::NAME.to_string(),
            material: m,
            positions,
            counts,
            max_dtc: if opts.dtc { max_dtc as u32 } else { 0 },
        };
        let dtc_bytes = if opts.dtc {
            let h = Header {
                kind: Kind::Dtc,
                ..header.clone()
            };
            codec::write_file(&slice_path(vdir, m, Kind::Dtc), &h, &dtc_blocks)?
        } else {
            0
        };
        drop(dtc_blocks);
        let wdl_bytes = codec::write_file(&slice_path(vdir, m, Kind::Wdl), &header, &wdl_blocks)?;
        let report = SliceReport {
            material: m,
            positions,
            counts,
            max_dtc,
            capped: stats.capped,
            waves: 0,
            seconds: self.solving(),
            working_bytes: 0,
            lookup_bytes: 0,
            wdl_bytes,
            dtc_bytes,
        };
        Ok((full, report))
    }
}

/// The figures of coded blocks.
#[derive(Clone, Copy, Debug, Default)]
struct BlockStats {
    /// Won, drawn and lost positions without a capture; don't-care positions.
    counts: [u64; 4],
    /// The longest distance to conversion.
    max_dtc: u8,
    /// Distances stored as the cap.
    capped: u64,
}

impl BlockStats {
    /// Adds another block's figures.
    fn add(&mut self, other: &BlockStats) {
        for (total, c) in self.counts.iter_mut().zip(other.counts) {
            *total += c;
        }
        self.max_dtc = self.max_dtc.max(other.max_dtc);
        self.capped += other.capped;
    }
}

/// Codes block `b` of a solved slice: its two-bit values into `words`, its values (don't-care
/// positions as such) into `wdl`, its distances into `dtc` when it is given.
fn code_block(
    w: &Work,
    b: usize,
    words: &mut [u64],
    wdl: &mut Vec<u8>,
    dtc: Option<&mut Vec<u8>>,
) -> BlockStats {
    let lo = b * BLOCK;
    let hi = (lo + BLOCK).min(w.index.size as usize);
    let mut values = vec![0u8; hi - lo];
    let mut codes = vec![0u8; hi - lo];
    let mut dists = vec![255u8; hi - lo];
    let mut st = BlockStats::default();
    for i in lo..hi {
        let s = w.state[i].load(Ordering::Relaxed);
        let (v, dist) = if s >= S_LOSS {
            (Wdl::Loss, Some(s - S_LOSS))
        } else if s >= S_WIN {
            (Wdl::Win, Some(s - S_WIN))
        } else {
            (Wdl::Draw, None)
        };
        values[i - lo] = v as u8;
        let dc = w.dont_care[i / 64].load(Ordering::Relaxed) >> (i % 64) & 1 != 0;
        if dc {
            codes[i - lo] = DONT_CARE;
            st.counts[3] += 1;
        } else {
            codes[i - lo] = v as u8;
            st.counts[match v {
                Wdl::Win => 0,
                Wdl::Draw => 1,
                Wdl::Loss => 2,
            }] += 1;
            if let Some(x) = dist {
                dists[i - lo] = x;
                st.max_dtc = st.max_dtc.max(x);
                st.capped += u64::from(x == DTC_CAP);
            }
        }
    }
    pack(words, &values);
    codec::encode_wdl_block(&codes, wdl);
    if let Some(dtc) = dtc {
        codec::encode_dtc_block(&dists, dtc);
    }
    st
}
