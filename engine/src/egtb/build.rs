//! The retrograde solver: every slice of up to N pieces, fewest pieces first.
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
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::cache::{self, CACHE_FROM};
use super::checkpoint::{self, SliceState};
use super::codec::{self, Header, Kind, TableBytes, BLOCK, DONT_CARE, DTC_CAP};
use super::index::{Material, MenCache, Placement, SliceIndex};
use super::{slices, variant_dir, EgtbError, TableGame, Wdl};
use crate::game::Duplicates;
use crate::hint::prefetch;
use crate::par::{for_each_chunk_mut, for_each_index, map_indices};

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

/// Win/draw/loss of every position of a slice, two bits each, for looking children up while
/// building and verifying (positions with a capture included).
#[derive(Debug)]
pub struct Full {
    /// The slice's index.
    pub index: SliceIndex,
    words: Vec<u64>,
}

impl Full {
    fn zeroed(index: SliceIndex) -> Full {
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
fn pack(words: &mut [u64], values: &[u8]) {
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

/// What a build reports as it goes.
#[derive(Debug)]
pub enum BuildEvent<'a> {
    /// A slice (and its twin) is about to be solved.
    Begin {
        /// The slice, then its twin if it has one.
        materials: &'a [Material],
        /// Positions in all of them.
        positions: u64,
    },
    /// Progress of the current step: `done` of `total` units.
    Progress {
        /// The step.
        step: Step,
        /// Units done.
        done: u64,
        /// Units in all.
        total: u64,
    },
    /// A slice was solved and written.
    Done(&'a SliceReport),
    /// A slice's files were there already and are kept.
    Kept(Material),
    /// A slice was verified, or taken from the record of an earlier verification.
    Checked(&'a super::verify::SliceCheck),
    /// Something went wrong that costs time but not correctness (a cache file that cannot
    /// serve or be written).
    Warning(String),
    /// A checkpoint of the pair being solved was written ([`checkpoint`]).
    Checkpoint {
        /// The slice, then its twin if it has one.
        materials: &'a [Material],
        /// The wave it resumes at.
        wave: u32,
        /// The file's bytes.
        bytes: u64,
        /// Seconds the writing took.
        seconds: f64,
    },
    /// The pair being solved resumes from its checkpoint.
    Resumed {
        /// The slice, then its twin if it has one.
        materials: &'a [Material],
        /// The wave it resumes at.
        wave: u32,
        /// Seconds spent solving the pair up to the checkpoint, over every run.
        seconds: f64,
    },
}

/// A step of solving or loading a slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The first pass (positions).
    Init,
    /// The waves (wave number as `done`, no known total).
    Waves,
    /// Coding and writing the files (blocks).
    Write,
    /// Reading a kept slice back for looking up (positions).
    Load,
}

/// The figures of one solved slice.
#[derive(Clone, Debug)]
pub struct SliceReport {
    /// The slice.
    pub material: Material,
    /// Its positions (indices).
    pub positions: u64,
    /// Won, drawn and lost positions without a capture; don't-care positions.
    pub counts: [u64; 4],
    /// The longest distance to conversion.
    pub max_dtc: u8,
    /// Positions whose distance exceeded [`DTC_CAP`] (stored as the cap).
    pub capped: u64,
    /// Waves run for this slice and its twin.
    pub waves: u32,
    /// Seconds spent on this slice and its twin (both report the same); for a pair resumed
    /// from a checkpoint, the seconds up to the checkpoint and this run's.
    pub seconds: f64,
    /// Bytes of working memory for the slice and its twin.
    pub working_bytes: u64,
    /// Bytes of solved slices held for looking up, this one included.
    pub lookup_bytes: u64,
    /// Size of the `.wdl` file.
    pub wdl_bytes: u64,
    /// Size of the `.dtc` file (0 without one).
    pub dtc_bytes: u64,
}

/// What to build.
pub struct BuildOptions<'a> {
    /// The directory holding one subdirectory per variant.
    pub dir: PathBuf,
    /// The most pieces.
    pub pieces: u32,
    /// Whether to write distance-to-conversion files too.
    pub dtc: bool,
    /// Build only these slices and those they lead to (empty: every slice).
    pub only: Vec<Material>,
    /// Called with progress; must be cheap.
    pub on_event: &'a (dyn Fn(BuildEvent<'_>) + Sync),
    /// When large pairs are saved to resume from (`None`: never).
    pub checkpoints: Option<Checkpoints>,
}

/// When a pair being solved is saved to resume from ([`checkpoint`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoints {
    /// Pairs of fewer positions are never saved.
    pub from_positions: u64,
    /// The least time from the start of a pair to its first checkpoint, and between two.
    pub every: Duration,
}

impl Default for Checkpoints {
    /// Pairs of 2^28 positions or more (a few minutes' work and up), every 20 minutes: the
    /// largest six-piece pairs take 16 GB and a minute or two to write.
    fn default() -> Self {
        Checkpoints {
            from_positions: 1 << 28,
            every: Duration::from_secs(20 * 60),
        }
    }
}

/// The path of a slice's file of kind `kind` in the variant directory `vdir`.
pub fn slice_path(vdir: &Path, m: Material, kind: Kind) -> PathBuf {
    vdir.join(format!("{}.{}", m.name(), kind.extension()))
}

/// Whether the slice's files are present with a valid header for this index (the checksum
/// is checked when the file is read back).
fn is_built<G: TableGame>(vdir: &Path, m: Material, dtc: bool) -> bool {
    let ok = |kind: Kind| -> bool {
        let path = slice_path(vdir, m, kind);
        let Ok(mut f) = std::fs::File::open(&path) else {
            return false;
        };
        let mut head = vec![0u8; codec::HEADER_BYTES];
        if std::io::Read::read_exact(&mut f, &mut head).is_err() {
            return false;
        }
        // A file of another index layout (Turkish before its mirror) is built again.
        Header::parse(&head, &path, kind, G::NAME, m)
            .is_ok_and(|h| h.positions == SliceIndex::new(G::board(), m).size)
    };
    ok(Kind::Wdl) && (!dtc || ok(Kind::Dtc))
}

/// `order`'s slices, each with its colour-reversed twin (solved and checked together), in
/// order.
pub fn pairs(order: &[Material]) -> Vec<Vec<Material>> {
    let mut done: Vec<Material> = Vec::new();
    let mut out = Vec::new();
    for &m in order {
        if done.contains(&m) {
            continue;
        }
        let twin = m.mirror();
        let comp: Vec<Material> = if twin == m { vec![m] } else { vec![m, twin] };
        done.extend_from_slice(&comp);
        out.push(comp);
    }
    out
}

/// Whether slice `old` is looked up no more once the pair of `m` is reached, in a run over the
/// slices of up to `pieces` pieces: a slice of the top piece count is needed only by the next
/// men count's crownings.
pub fn no_longer_needed(old: Material, m: Material, pieces: u32) -> bool {
    let (n, men) = (m.pieces(), m.total_men());
    n == pieces && old.pieces() == n && old.total_men() + 1 < men
}

/// Builds every slice of up to `opts.pieces` pieces of `G` that is not built yet, in order;
/// returns the reports of the slices solved.
pub fn build<G: TableGame>(opts: &BuildOptions<'_>) -> Result<Vec<SliceReport>, EgtbError> {
    let vdir = variant_dir(&opts.dir, G::NAME);
    std::fs::create_dir_all(&vdir).map_err(|e| EgtbError::io(&vdir, e))?;
    let order = needed::<G>(opts.pieces, &opts.only);
    let mut lookup = Lookup::<G>::default();
    // Slices kept from an earlier run, not read back yet.
    let mut unread: Vec<Material> = Vec::new();
    let mut reports = Vec::new();
    for comp in pairs(&order) {
        let m = comp[0];
        if comp.iter().all(|&c| is_built::<G>(&vdir, c, opts.dtc)) {
            // A checkpoint left by a run stopped after writing the pair's files.
            let _ = std::fs::remove_file(checkpoint::path(&vdir, m));
            for &c in &comp {
                (opts.on_event)(BuildEvent::Kept(c));
                unread.push(c);
            }
            continue;
        }
        // Everything before that is still needed to look children up: read back what an
        // earlier run left.
        for u in std::mem::take(&mut unread) {
            if !no_longer_needed(u, m, opts.pieces) {
                let full = load_full::<G>(&vdir, u, &lookup, opts.on_event, true)?;
                lookup.insert(Arc::new(full));
            }
        }
        for &old in &order {
            if no_longer_needed(old, m, opts.pieces) {
                lookup.remove(old);
            }
        }
        let solved = solve::<G>(&vdir, &comp, &lookup, opts)?;
        for (full, report) in solved {
            save_cache(&vdir, &full, opts.on_event);
            lookup.insert(Arc::new(full));
            reports.push(report);
        }
    }
    Ok(reports)
}

/// Whether a position of material `m` can arise from one of `target` (or of its twin): no
/// side ever gains a man or a piece. A superset of what play reaches, tight enough to build a
/// few slices alone.
pub fn descends(m: Material, target: Material) -> bool {
    let fits = |a: (u8, u8), b: (u8, u8)| a.0 <= b.0 && a.0 + a.1 <= b.0 + b.1;
    let side = |x: Material, k: usize| (x.men[k], x.kings[k]);
    (fits(side(m, 0), side(target, 0)) && fits(side(m, 1), side(target, 1)))
        || (fits(side(m, 0), side(target, 1)) && fits(side(m, 1), side(target, 0)))
}

/// The slices of up to `pieces` pieces in build order, restricted to those that `only`'s
/// slices lead to when `only` is not empty.
pub fn needed<G: TableGame>(pieces: u32, only: &[Material]) -> Vec<Material> {
    slices::<G>(pieces)
        .into_iter()
        .filter(|&m| only.is_empty() || only.iter().any(|&t| descends(m, t)))
        .collect()
}

/// What a build will hold in memory, estimated before it starts ([`plan`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildPlan {
    /// Slices of the build (those built before included).
    pub slices: usize,
    /// Their positions.
    pub positions: u64,
    /// The slice and its twin whose solving holds the most memory.
    pub largest: Vec<Material>,
    /// Their positions.
    pub largest_positions: u64,
    /// Bytes held while they are solved: their working bytes and two-bit values, and the
    /// two-bit values of every slice looked up then.
    pub peak_bytes: u64,
}

/// The working bytes of a slice of `size` positions: a state byte each and three bit sets.
fn work_bytes(size: u64) -> u64 {
    size + 3 * 8 * size.div_ceil(64)
}

/// The bytes of a slice's two-bit values ([`Full`]).
fn full_bytes(size: u64) -> u64 {
    8 * size.div_ceil(32)
}

/// The memory a build of up to `pieces` pieces of `G` (restricted to `only`'s slices and
/// those they lead to) holds at its peak, following [`build`]'s order and what it keeps.
pub fn plan<G: TableGame>(pieces: u32, only: &[Material]) -> BuildPlan {
    let board = G::board();
    let order = needed::<G>(pieces, only);
    let size = |m: Material| SliceIndex::new(board, m).size;
    let mut held: Vec<(Material, u64)> = Vec::new();
    let mut out = BuildPlan::default();
    for comp in pairs(&order) {
        let m = comp[0];
        held.retain(|&(old, _)| !no_longer_needed(old, m, pieces));
        let positions: u64 = comp.iter().map(|&c| size(c)).sum();
        let own: u64 = comp
            .iter()
            .map(|&c| work_bytes(size(c)) + full_bytes(size(c)))
            .sum();
        let bytes = own + held.iter().map(|&(_, b)| b).sum::<u64>();
        out.slices += comp.len();
        out.positions += positions;
        if bytes > out.peak_bytes {
            out.peak_bytes = bytes;
            out.largest = comp.clone();
            out.largest_positions = positions;
        }
        held.extend(comp.iter().map(|&c| (c, full_bytes(size(c)))));
    }
    out
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

/// Records the first error of a parallel pass.
struct FirstError(Mutex<Option<EgtbError>>, AtomicBool);

impl FirstError {
    fn new() -> Self {
        FirstError(Mutex::new(None), AtomicBool::new(false))
    }
    fn set(&self, e: EgtbError) {
        self.1.store(true, Ordering::Relaxed);
        if let Ok(mut slot) = self.0.lock() {
            slot.get_or_insert(e);
        }
    }
    fn failed(&self) -> bool {
        self.1.load(Ordering::Relaxed)
    }
    fn take(self) -> Result<(), EgtbError> {
        match self.0.into_inner() {
            Ok(Some(e)) => Err(e),
            _ => Ok(()),
        }
    }
}

fn missing(vdir: &Path, m: Material) -> EgtbError {
    EgtbError::Missing {
        path: slice_path(vdir, m, Kind::Wdl),
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
fn solve<G: TableGame>(
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
    let working_bytes: u64 = works.iter().map(Work::bytes).sum();

    // A large pair resumes from its checkpoint, if a run stopped in it left one.
    let ck = opts.checkpoints.filter(|c| positions >= c.from_positions);
    let ck_path = checkpoint::path(vdir, comp[0]);
    let states = || {
        works
            .iter()
            .map(|w| SliceState {
                material: w.index.material,
                state: &w.state,
                waves: [&w.waves[0], &w.waves[1]],
                dont_care: &w.dont_care,
            })
            .collect::<Vec<_>>()
    };
    let digest = match ck {
        Some(_) => tables_digest(vdir, lookup),
        None => 0,
    };
    let mut resumed = None;
    if ck.is_some() {
        match checkpoint::read(&ck_path, digest, &states()) {
            Ok(Some(at)) => {
                resumed = Some(at);
                (opts.on_event)(BuildEvent::Resumed {
                    materials: comp,
                    wave: at.wave,
                    seconds: at.seconds,
                });
            }
            Ok(None) => {}
            Err(e) => {
                (opts.on_event)(BuildEvent::Warning(format!(
                    "{e}: solving the pair from the start"
                )));
                let _ = std::fs::remove_file(&ck_path);
            }
        }
    }
    if resumed.is_none() {
        first_pass::<G>(vdir, &works, positions, lookup, opts)?;
    }

    // Waves. Each batch of decided positions first gathers its predecessors' indices (in
    // parallel over chunks), then applies them by index range (in parallel over ranges): no
    // two threads touch one state byte, so the updates are plain loads and stores that the
    // processor overlaps, where locked read-modify-writes would wait for each cache miss.
    let twin_of = |k: usize| if works.len() == 2 { 1 - k } else { k };
    let mut d = resumed.map_or(0, |r| r.wave);
    // The pair's solving time over every run: what the checkpoint carried, and this run's.
    let before = resumed.map_or(0.0, |r| r.seconds);
    let solving = || before + started.elapsed().as_secs_f64();
    let mut last_checkpoint = if resumed.is_some() {
        Instant::now()
    } else {
        started
    };
    loop {
        let cur = (d % 2) as usize;
        // Decided positions per chunk of the current wave, for cutting it into batches.
        let per_chunk: Vec<Vec<u32>> = works
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
            .collect();
        // The first pass fills both waves (distances 0 and 1), so an empty wave ends the loop
        // only when the next one is empty too (later waves start with the next one empty).
        let empty = per_chunk.iter().flatten().all(|&n| n == 0);
        if empty
            && works.iter().all(|w| {
                w.waves[1 - cur]
                    .iter()
                    .all(|x| x.load(Ordering::Relaxed) == 0)
            })
        {
            break;
        }
        // Only between waves is the state whole; not again at the wave it resumed at.
        if let Some(c) = ck {
            if last_checkpoint.elapsed() >= c.every && resumed.map(|r| r.wave) != Some(d) {
                let t = Instant::now();
                let at = checkpoint::Resume {
                    wave: d,
                    seconds: solving(),
                };
                match checkpoint::write(&ck_path, digest, at, &states()) {
                    Ok(bytes) => (opts.on_event)(BuildEvent::Checkpoint {
                        materials: comp,
                        wave: d,
                        bytes,
                        seconds: t.elapsed().as_secs_f64(),
                    }),
                    Err(e) => (opts.on_event)(BuildEvent::Warning(format!("{e}: no checkpoint"))),
                }
                last_checkpoint = Instant::now();
            }
        }
        let next_dtc = (d + 1).min(DTC_CAP as u32) as u8;
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
        d += 1;
        (opts.on_event)(BuildEvent::Progress {
            step: Step::Waves,
            done: d as u64,
            total: 0,
        });
    }
    let waves = d;

    // Files and full values.
    let mut out = Vec::new();
    for w in works {
        let m = w.index.material;
        let blocks = (w.index.size as usize).div_ceil(BLOCK);
        let mut full = Full::zeroed(w.index);
        let mut wdl_blocks: Vec<Vec<u8>> = vec![Vec::new(); blocks];
        let mut dtc_blocks: Vec<Vec<u8>> = vec![Vec::new(); blocks];
        let stats: Mutex<([u64; 4], u8, u64)> = Mutex::new(([0; 4], 0, 0));
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
                let lo = b * BLOCK;
                let hi = (lo + BLOCK).min(w.index.size as usize);
                let mut values = vec![0u8; hi - lo];
                let mut codes = vec![0u8; hi - lo];
                let mut dists = vec![255u8; hi - lo];
                let mut counts = [0u64; 4];
                let (mut max_dtc, mut capped) = (0u8, 0u64);
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
                        counts[3] += 1;
                    } else {
                        codes[i - lo] = v as u8;
                        counts[match v {
                            Wdl::Win => 0,
                            Wdl::Draw => 1,
                            Wdl::Loss => 2,
                        }] += 1;
                        if let Some(x) = dist {
                            dists[i - lo] = x;
                            max_dtc = max_dtc.max(x);
                            capped += u64::from(x == DTC_CAP);
                        }
                    }
                }
                pack(words, &values);
                codec::encode_wdl_block(&codes, wdl);
                if opts.dtc {
                    codec::encode_dtc_block(&dists, dtc);
                }
                if let Ok(mut st) = stats.lock() {
                    for (total, c) in st.0.iter_mut().zip(counts) {
                        *total += c;
                    }
                    st.1 = st.1.max(max_dtc);
                    st.2 += capped;
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
        let (counts, max_dtc, capped) = stats.into_inner().unwrap_or(([0; 4], 0, 0));
        drop(w.state);
        let header = Header {
            kind: Kind::Wdl,
            variant: G::NAME.to_string(),
            material: m,
            positions: w.index.size,
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
        // The .wdl file last: its presence marks the slice as built.
        let wdl_bytes = codec::write_file(&slice_path(vdir, m, Kind::Wdl), &header, &wdl_blocks)?;
        let report = SliceReport {
            material: m,
            positions: w.index.size,
            counts,
            max_dtc,
            capped,
            waves,
            seconds: solving(),
            working_bytes,
            lookup_bytes: (lookup.bytes() + full.bytes()) as u64,
            wdl_bytes,
            dtc_bytes,
        };
        (opts.on_event)(BuildEvent::Done(&report));
        out.push((full, report));
    }
    // The pair's files are written: its checkpoint is of no more use.
    if ck.is_some() {
        if let Err(e) = std::fs::remove_file(&ck_path) {
            if e.kind() != std::io::ErrorKind::NotFound {
                (opts.on_event)(BuildEvent::Warning(EgtbError::io(&ck_path, e).to_string()));
            }
        }
    }
    Ok(out)
}

/// Writes the cache of a large slice's full values (see [`cache`]); a failure is reported as a
/// warning, since the cache only saves time.
fn save_cache(vdir: &Path, full: &Full, on_event: &(dyn Fn(BuildEvent<'_>) + Sync)) {
    if full.index.size < CACHE_FROM {
        return;
    }
    let m = full.index.material;
    let written = cache::stored_checksum(&slice_path(vdir, m, Kind::Wdl)).and_then(|sum| {
        cache::write(
            &cache::cache_path(vdir, m),
            full.index.size,
            sum,
            &full.words,
        )
    });
    if let Err(e) = written {
        on_event(BuildEvent::Warning(format!("{e} (cache not written)")));
    }
}

/// Reads a solved slice back from its `.wdl` file into full values: the stored values, and the
/// don't-care positions (captures) decided again from their children in `lookup`, which must
/// hold every smaller slice. With `use_cache`, a cache of the values made from the same `.wdl`
/// file is read instead when there is one; a large slice's values decided here are cached.
pub fn load_full<G: TableGame>(
    vdir: &Path,
    m: Material,
    lookup: &Lookup<G>,
    on_event: &(dyn Fn(BuildEvent<'_>) + Sync),
    use_cache: bool,
) -> Result<Full, EgtbError> {
    let board = G::board();
    let index = SliceIndex::new(board, m);
    let path = slice_path(vdir, m, Kind::Wdl);
    let table = TableBytes::read(&path, Kind::Wdl, G::NAME, m, index.size)?;
    if use_cache {
        match cache::read(&cache::cache_path(vdir, m), index.size, table.checksum()) {
            Ok(Some(words)) => return Ok(Full { index, words }),
            Ok(None) => {}
            Err(e) => on_event(BuildEvent::Warning(format!(
                "{e}: deciding its captures again"
            ))),
        }
    }
    let mut full = Full::zeroed(index);
    let errors = FirstError::new();
    let done = AtomicU64::new(0);
    for_each_chunk_mut(&mut full.words, BLOCK / 32, |b, words| {
        let lo = b * BLOCK;
        let hi = (lo + BLOCK).min(index.size as usize);
        let mut values = vec![1u8; hi - lo];
        if let Err(why) = codec::decode_wdl_block(table.block(b), &mut values) {
            errors.set(EgtbError::damaged(&path, format!("block {b}: {why}")));
            return;
        }
        let mut moves = Vec::new();
        let mut cache = MenCache::default();
        for i in lo..hi {
            let Some(p) = index.unrank_cached(board, i as u64, &mut cache) else {
                continue;
            };
            if let Some(o) = G::terminal(&p) {
                values[i - lo] = Wdl::of(o) as u8;
                continue;
            }
            let pos = G::position_of(&p);
            if let Some(o) = G::decided(&pos) {
                values[i - lo] = Wdl::of(o) as u8;
                continue;
            }
            if G::has_capture(&pos) {
                G::generate(&pos, Duplicates::Drop, &mut moves);
                match lookup.best_of(&p, &moves) {
                    Ok(v) => values[i - lo] = v as u8,
                    Err(need) => {
                        errors.set(missing(vdir, need));
                        return;
                    }
                }
            }
        }
        pack(words, &values);
        let d = done.fetch_add((hi - lo) as u64, Ordering::Relaxed) + (hi - lo) as u64;
        if (b + 1) % 64 == 0 {
            on_event(BuildEvent::Progress {
                step: Step::Load,
                done: d,
                total: index.size,
            });
        }
    });
    errors.take()?;
    save_cache(vdir, &full, on_event);
    Ok(full)
}
