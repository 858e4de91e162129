//! Building the tables: every slice of up to N pieces, fewest pieces first, each solved with
//! its colour-reversed twin ([`super::solve`]) once the slices its moves lead to are held for
//! looking up ([`Lookup`]). Slices built by an earlier run are kept and read back
//! ([`load_full`]), so that a stopped build resumes; what it costs in memory is estimated
//! before it starts ([`plan`]).

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use polydam_engine::egtb::codec::{self, Header, Kind, TableBytes, BLOCK};
use polydam_engine::egtb::index::{Material, MenCache, SliceIndex};
use polydam_engine::egtb::{slice_path, slices, variant_dir, EgtbError, TableGame, Wdl};
use polydam_engine::game::Duplicates;

use super::cache::{self, CACHE_FROM};
use super::checkpoint;
use super::held::{missing, pack, FirstError, Full, Lookup};
use super::job::{BuildEvent, BuildOptions, SliceReport, Step};
use super::solve::{solve, work_bytes};
use crate::forge::par::for_each_chunk_mut;

/// Whether the slice's files are present with a valid header for this index (the checksum
/// is checked when the file is read back).
fn is_built<G: TableGame>(vdir: &Path, m: Material, dtc: bool) -> bool {
    let ok = |kind: Kind| -> bool {
        let path = slice_path(vdir, m, kind);
        let Ok(mut f) = polydam_engine::files::open_regular(&path) else {
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

/// One slice pair of a build as a scheduler sees it ([`pair_plans`]): what it reads, what
/// it holds in memory when built alone ([`build_pair`]), and whether it is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairPlan {
    /// The slice, then its twin if it has one, as the build orders them.
    pub slices: Vec<Material>,
    /// Their positions.
    pub positions: u64,
    /// The slices it looks up while it is solved (every slice its moves can lead to, but
    /// those of the pair): all are built before it.
    pub reads: Vec<Material>,
    /// Bytes held while it is built alone: its working bytes and two-bit values, and the
    /// two-bit values of the slices it reads.
    pub memory_bytes: u64,
    /// Whether its files are present with valid headers (checked whole when built again).
    pub built: bool,
}

/// The pair of slice `m` (its colour twin with it) in the order a build solves them.
fn pair_of(m: Material) -> Vec<Material> {
    let twin = m.mirror();
    if twin == m {
        vec![m]
    } else {
        let mut comp = vec![m, twin];
        comp.sort_by_key(|c| (c.pieces(), c.total_men(), *c));
        comp
    }
}

/// The slices the pair `comp` looks up when built alone: those its moves can lead to (of at
/// most its pieces), but itself and the same-count slices no crowning reaches, in build order.
pub fn pair_reads<G: TableGame>(comp: &[Material]) -> Vec<Material> {
    let m = comp[0];
    let pieces = m.pieces();
    needed::<G>(pieces, comp)
        .into_iter()
        .filter(|r| !comp.contains(r) && !no_longer_needed(*r, m, pieces))
        .collect()
}

/// Every slice pair of a build of up to `pieces` pieces of `G` in build order, with what each
/// reads and holds when built alone, and whether `dir` holds it already (with distance files
/// too when `dtc`).
pub fn pair_plans<G: TableGame>(dir: &Path, pieces: u32, dtc: bool) -> Vec<PairPlan> {
    let vdir = variant_dir(dir, G::NAME);
    let size = |m: Material| SliceIndex::new(G::board(), m).size;
    pairs(&needed::<G>(pieces, &[]))
        .into_iter()
        .map(|comp| {
            let reads = pair_reads::<G>(&comp);
            let own: u64 = comp
                .iter()
                .map(|&c| work_bytes(size(c)) + full_bytes(size(c)))
                .sum();
            PairPlan {
                positions: comp.iter().map(|&c| size(c)).sum(),
                memory_bytes: own + reads.iter().map(|&r| full_bytes(size(r))).sum::<u64>(),
                built: comp.iter().all(|&c| is_built::<G>(&vdir, c, dtc)),
                reads,
                slices: comp,
            }
        })
        .collect()
}

/// Whether the files of slice `m` read back whole (checksums included).
fn reads_back<G: TableGame>(vdir: &Path, m: Material, dtc: bool) -> bool {
    let size = SliceIndex::new(G::board(), m).size;
    let read = |kind| TableBytes::read(&slice_path(vdir, m, kind), kind, G::NAME, m, size);
    read(Kind::Wdl).is_ok() && (!dtc || read(Kind::Dtc).is_ok())
}

/// Builds the pair of slice `m` alone (`polydam egtb build --pair`), reading the slices it
/// leads to ([`pair_reads`]), which must all be built: one that is not is an error, never
/// built here, so that builds of different pairs running at once never write the same file.
/// A pair whose files read back whole is kept. Returns the reports of the slices solved.
pub fn build_pair<G: TableGame>(
    opts: &BuildOptions<'_>,
    m: Material,
) -> Result<Vec<SliceReport>, EgtbError> {
    if !slices::<G>(m.pieces()).contains(&m) {
        return Err(EgtbError::Invalid(format!(
            "{m} is not a slice of {} (men and kings of the side to move, then of the other)",
            G::NAME
        )));
    }
    let vdir = variant_dir(&opts.dir, G::NAME);
    std::fs::create_dir_all(&vdir).map_err(|e| EgtbError::io(&vdir, e))?;
    let comp = pair_of(m);
    if comp.iter().all(|&c| reads_back::<G>(&vdir, c, opts.dtc)) {
        let _ = std::fs::remove_file(checkpoint::path(&vdir, comp[0]));
        for &c in &comp {
            (opts.on_event)(BuildEvent::Kept(c));
        }
        return Ok(Vec::new());
    }
    let reads = pair_reads::<G>(&comp);
    if let Some(r) = reads.iter().find(|&&r| !is_built::<G>(&vdir, r, opts.dtc)) {
        return Err(EgtbError::Invalid(format!(
            "slice {r} is not built in {}: the pair of {m} reads it (build it first)",
            vdir.display()
        )));
    }
    let mut lookup = Lookup::<G>::default();
    for &r in &reads {
        let full = load_full::<G>(&vdir, r, &lookup, opts.on_event, true)?;
        lookup.insert(Arc::new(full));
    }
    let mut reports = Vec::new();
    for (full, report) in solve::<G>(&vdir, &comp, &lookup, opts)? {
        save_cache(&vdir, &full, opts.on_event);
        reports.push(report);
    }
    Ok(reports)
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
