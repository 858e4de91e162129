//! Loaded tables and what the search asks of them.
//!
//! The `.wdl` files are read whole into memory (a probe decodes at most one block's tokens);
//! the larger `.dtc` files stay on disk and are read a block at a time, which only the root and
//! the rare node near a move-count limit need.
//!
//! **Scores.** A table win scores [`TABLE_WIN`] minus 50 per piece the loser has left, plus 10
//! per king and 5 per man of the winner, from the probed node's own view; the search takes off
//! one point per ply from the root to the node, as it does for forced wins. The scores stay in
//! the band [`Score::TABLE_WIN_MIN`]`..=`[`Score::TABLE_WIN_MAX`], above every evaluation and
//! below every win the search finds on the board: simpler wins score higher (the search takes
//! material off and crowns its men on its way, a capture being worth 50 plies), and among
//! equally simple ones the nearer. A loss scores the negative, a draw 0. The transposition
//! table stores them relative to the node, as forced results (`Score::to_tt`).
//!
//! **Draw rules.** The tables know nothing of move counts. A table win or loss at a node whose
//! move-count allowance is shorter than the longest distance to conversion in its slice is
//! checked against the position's own distance: when the winner cannot force a conversion
//! (a capture, a crowning, the end) before the endgame counter (FMJD's 16 and 5 moves) runs out,
//! or, with only kings on the board, before the quiet-move rule does, the node scores a draw.
//! At the root, the winner plays the move that converts soonest and the loser the one that
//! delays it longest (see [`TableProbe::root`]).

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::codec::{self, Header, Kind, TableBytes, BLOCK};
use super::index::{Material, Placement, SliceIndex};
use super::sidefile::{self, SumReader};
use super::{slice_path, slices, variant_dir, EgtbError, TableGame, Wdl};
use crate::game::{Duplicates, Game};
use crate::record::DrawCounters;
use crate::score::{Score, MAX_PLY};

/// The score of a table win before its material terms: with at most 7 pieces the material
/// terms stay within -300..=+60, and twice the deepest ply (a score read back from the
/// transposition table at another ply) within -254, so every table score keeps inside its band.
pub const TABLE_WIN: i32 = 9_600;

// The band holds every table score of up to 7 pieces, read back at any ply.
const _: () = assert!(
    TABLE_WIN - 300 - 2 * (MAX_PLY as i32 - 1) >= Score::TABLE_WIN_MIN.centi()
        && TABLE_WIN + 60 <= Score::TABLE_WIN_MAX.centi()
);

/// What the root's tables say, once the root moves are filtered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootTable {
    /// The root's value for the side to move, under the move-count rules (a table win that
    /// the rules leave no time for is a draw).
    pub value: Wdl,
    /// Plies to conversion with best play, when known.
    pub dtc: Option<u8>,
    /// Moves kept, of the legal ones.
    pub kept: usize,
    /// Legal moves.
    pub legal: usize,
}

/// The tables as the search sees them (object safe, so that the search needs no more than
/// [`Game`] of its game type).
pub trait TableProbe<G: Game>: Send + Sync {
    /// The most pieces a probed position may have.
    fn max_pieces(&self) -> u32;

    /// The score of a search node from the tables, from its side to move's view: `None` when
    /// the position is not covered (too many pieces, a capture pending, a slice missing).
    /// `counters` are the node's draw counters (the move-count rules).
    fn search_score(&self, pos: &G::Position, counters: &DrawCounters) -> Option<Score>;

    /// At the root: keeps in `moves` (the legal moves) those that the tables prefer (the
    /// winner converts soonest, the loser delays longest, a drawn side keeps the draw) and says
    /// what the tables say of the root; `None` (and `moves` untouched) when the root or one of
    /// its children is not covered. `counters` are the root's draw counters: a win that the
    /// move-count rules leave no time for counts as a draw, for the winner and the loser.
    fn root(
        &self,
        pos: &G::Position,
        counters: &DrawCounters,
        moves: &mut Vec<G::Move>,
    ) -> Option<RootTable>;

    /// The value of any position the tables cover, captures pending resolved through them.
    fn value(&self, pos: &G::Position) -> Option<Wdl>;

    /// The distance to conversion of a won or lost position without a capture, if stored.
    fn dtc(&self, pos: &G::Position) -> Option<u8>;

    /// Slices that are missing or damaged, one message each (the missing ones in a single
    /// message, last).
    fn problems(&self) -> &[String];

    /// The [`problems`](TableProbe::problems) of slices that are there but cannot be used
    /// (damaged, unreadable), without the message on missing slices.
    fn damaged(&self) -> &[String];

    /// Slices loaded (0: none of the set is there).
    fn loaded(&self) -> usize;

    /// One line: slices loaded, memory, pieces.
    fn summary(&self) -> String;
}

/// The error for the `.dtc` file at `path` of a slice whose `.wdl` file was built with
/// distances (its header records the largest) but which is gone: `PATH: distance file
/// missing (...)`. The tables then give that slice's values without distances.
pub fn dtc_missing(path: &Path) -> EgtbError {
    EgtbError::Io {
        path: path.to_path_buf(),
        error: "distance file missing (its .wdl file was built with distances: build the \
                slice again to restore them)"
            .to_string(),
    }
}

/// A `.dtc` file, read a block at a time.
#[derive(Debug)]
struct DtcFile {
    file: std::sync::Mutex<File>,
    offsets: Vec<u64>,
    data_at: u64,
}

impl DtcFile {
    fn open(path: &Path, variant: &str, m: Material, positions: u64) -> Result<Self, EgtbError> {
        let file = codec::open_table(path)?;
        let len = file.metadata().map_err(|e| EgtbError::io(path, e))?.len();
        // The file is read through once for its checksum, then kept open for block reads.
        let mut r = SumReader::new(file, path);
        let mut head = vec![0u8; len.min(codec::HEADER_BYTES as u64) as usize];
        r.take(&mut head)?;
        let header = Header::parse(&head, path, Kind::Dtc, variant, m)?;
        header.check_positions(path, positions)?;
        let (data_at, data_len) = header.data_span(path, len)?;
        let blocks = header.blocks() as usize;
        let mut raw = vec![0u8; 8 * (blocks + 1)];
        r.take(&mut raw)?;
        let offsets: Vec<u64> = (0..=blocks).map(|b| sidefile::word(&raw, 8 * b)).collect();
        codec::check_offsets(path, blocks, data_len, |b| offsets[b])?;
        r.pass(data_len)?;
        Ok(DtcFile {
            file: std::sync::Mutex::new(r.into_file()?),
            offsets,
            data_at,
        })
    }

    fn get(&self, i: u64) -> Option<u8> {
        use std::io::{Seek, SeekFrom};
        let b = (i / BLOCK as u64) as usize;
        let (lo, hi) = (*self.offsets.get(b)?, *self.offsets.get(b + 1)?);
        let mut buf = vec![0u8; (hi - lo) as usize];
        let mut f = self.file.lock().ok()?;
        f.seek(SeekFrom::Start(self.data_at + lo)).ok()?;
        f.read_exact(&mut buf).ok()?;
        codec::dtc_at(&buf, (i % BLOCK as u64) as usize)
    }
}

/// One loaded slice.
#[derive(Debug)]
struct Slice {
    index: SliceIndex,
    wdl: TableBytes,
    dtc: Option<DtcFile>,
}

/// The tables of one variant, loaded from a directory up to a number of pieces.
#[derive(Debug)]
pub struct TableSet<G: TableGame> {
    dir: PathBuf,
    max_pieces: u32,
    slices: Vec<Option<Slice>>,
    problems: Vec<String>,
    /// Whether the last of `problems` is the message on missing slices.
    missing_noted: bool,
    loaded: usize,
    bytes: u64,
    _game: std::marker::PhantomData<G>,
}

impl<G: TableGame> TableSet<G> {
    /// Loads every slice of up to `max_pieces` pieces from `dir`'s subdirectory for `G`
    /// (checking each file); a slice that is missing or damaged is left out and listed in
    /// [`TableSet::problems`]. Fails only when the variant's directory cannot be read.
    pub fn open(dir: &Path, max_pieces: u32) -> Result<TableSet<G>, EgtbError> {
        let vdir = variant_dir(dir, G::NAME);
        std::fs::read_dir(&vdir).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                EgtbError::Missing { path: vdir.clone() }
            } else {
                EgtbError::io(&vdir, e)
            }
        })?;
        let board = G::board();
        let mut set = TableSet {
            dir: dir.to_path_buf(),
            max_pieces,
            slices: (0..Material::IDS).map(|_| None).collect(),
            problems: Vec::new(),
            missing_noted: false,
            loaded: 0,
            bytes: 0,
            _game: std::marker::PhantomData,
        };
        let mut missing = Vec::new();
        // Slices there but not loaded (a slice loaded without its distances is counted loaded).
        let mut unusable = 0;
        for m in slices::<G>(max_pieces) {
            let index = SliceIndex::new(board, m);
            let path = slice_path(&vdir, m, Kind::Wdl);
            match TableBytes::read(&path, Kind::Wdl, G::NAME, m, index.size) {
                Ok(wdl) => {
                    let dtc_path = slice_path(&vdir, m, Kind::Dtc);
                    let dtc = match DtcFile::open(&dtc_path, G::NAME, m, index.size) {
                        Ok(d) => Some(d),
                        // A `.wdl` built with distances records the largest one: its `.dtc`
                        // was written beside it, and its absence is news (a slice without
                        // wins or losses records 0 and needs none).
                        Err(EgtbError::Missing { path }) if wdl.header.max_dtc > 0 => {
                            set.problems.push(dtc_missing(&path).to_string());
                            None
                        }
                        Err(EgtbError::Missing { .. }) => None,
                        Err(e) => {
                            set.problems.push(e.to_string());
                            None
                        }
                    };
                    set.bytes += wdl.len() as u64;
                    set.loaded += 1;
                    set.slices[m.id()] = Some(Slice { index, wdl, dtc });
                }
                Err(EgtbError::Missing { .. }) => missing.push(m.name()),
                Err(e) => {
                    unusable += 1;
                    set.problems.push(e.to_string());
                }
            }
        }
        if !missing.is_empty() {
            let shown: Vec<&str> = missing.iter().take(8).map(String::as_str).collect();
            set.problems.push(format!(
                "{}: {} of {} slices up to {max_pieces} pieces missing ({}{})",
                vdir.display(),
                missing.len(),
                missing.len() + set.loaded + unusable,
                shown.join(", "),
                if missing.len() > shown.len() {
                    ", ..."
                } else {
                    ""
                }
            ));
            set.missing_noted = true;
        }
        Ok(set)
    }

    /// The directory the tables came from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Slices loaded.
    pub fn loaded(&self) -> usize {
        self.loaded
    }

    /// Bytes of `.wdl` data held in memory.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The value of a placement whose side to move has no capture, if its slice is loaded.
    #[inline]
    pub fn wdl_of(&self, p: &Placement) -> Option<Wdl> {
        let slice = self.slices[p.material().id()].as_ref()?;
        let i = slice.index.rank(G::board(), p);
        let b = (i / BLOCK as u64) as usize;
        let code = codec::wdl_at(slice.wdl.block(b), (i % BLOCK as u64) as usize)?;
        Some(Wdl::from_code(code))
    }

    /// The stored distance to conversion of a placement without a capture, if any.
    pub fn dtc_of(&self, p: &Placement) -> Option<u8> {
        let slice = self.slices[p.material().id()].as_ref()?;
        let i = slice.index.rank(G::board(), p);
        slice.dtc.as_ref()?.get(i)
    }

    /// The largest distance stored in a placement's slice (0 without distances).
    fn max_dtc(&self, p: &Placement) -> Option<u32> {
        let slice = self.slices[p.material().id()].as_ref()?;
        Some(if slice.dtc.is_some() {
            slice.wdl.header.max_dtc
        } else {
            0
        })
    }

    /// The value of `pos`, captures pending searched through (`depth` limits the recursion).
    fn resolve(&self, pos: &G::Position, depth: u32) -> Option<Wdl> {
        let p = G::placement_of(pos);
        if let Some(o) = G::terminal(&p) {
            return Some(Wdl::of(o));
        }
        if let Some(o) = G::decided(pos) {
            return Some(Wdl::of(o));
        }
        if G::piece_count(pos) > self.max_pieces || depth == 0 {
            return None;
        }
        if !G::has_capture(pos) {
            if !G::has_move(pos) {
                return Some(Wdl::of(G::no_move_outcome(pos)));
            }
            return self.wdl_of(&p);
        }
        let mut moves = Vec::new();
        G::generate(pos, Duplicates::Drop, &mut moves);
        let mut best = Wdl::Loss;
        for mv in &moves {
            let v = self.resolve(&G::play(pos, mv), depth - 1)?.flip();
            best = best.max(v);
            if best == Wdl::Win {
                break;
            }
        }
        Some(best)
    }

    /// The plies the move-count rules leave for converting `p` (whose draw counters are
    /// `counters`): the endgame counter's, and the quiet-move rule's when only kings are on the
    /// board (a man move restarts that count); `None` when no rule limits it.
    fn allowance(p: &Placement, counters: &DrawCounters) -> Option<u32> {
        let mut allow = counters
            .endgame_limit()
            .map(|limit| limit.saturating_sub(counters.endgame_plies()) as u32);
        let quiet = G::draw_rules().quiet_plies;
        if quiet > 0 && p.men == [0, 0] {
            let q = quiet.saturating_sub(counters.quiet_plies()) as u32;
            allow = Some(allow.map_or(q, |a| a.min(q)));
        }
        allow
    }

    /// The search score of a table value of `p` (from its side to move's view).
    fn score(p: &Placement, v: Wdl) -> Score {
        let win = |w: usize| {
            let l = 1 - w;
            TABLE_WIN - 50 * p.side(l).count_ones() as i32
                + 10 * p.kings[w].count_ones() as i32
                + 5 * p.men[w].count_ones() as i32
        };
        match v {
            Wdl::Win => Score::from_centi(win(0)),
            Wdl::Loss => Score::from_centi(-win(1)),
            Wdl::Draw => Score::DRAW,
        }
    }
}

/// A root move as the tables see it.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    /// The mover's value after the move.
    value: Wdl,
    /// Whether the move stays in the root's slice (no capture, no crowning).
    stays: bool,
    /// The child's distance to conversion, when the move stays and it is stored.
    dtc: Option<u8>,
    /// Whether the move-count rules leave the child time for that distance.
    in_time: bool,
}

impl<G: TableGame> TableSet<G> {
    /// The root's value under the move-count rules, its distance, and which moves to keep: the
    /// winner leaves the slice at once if it can, else takes the shortest win the rules leave
    /// time for (none left: the root is a draw, and every move that keeps it is kept); the
    /// loser prefers a line the rules will call a draw, else delays longest; a drawn side keeps
    /// the draw.
    fn root_choice(best: Wdl, info: &[RootMove]) -> (Wdl, Option<u8>, Vec<bool>) {
        match best {
            Wdl::Win => {
                let wins = |x: &&RootMove| x.value == Wdl::Win;
                if info.iter().filter(wins).any(|x| !x.stays) {
                    let keep = info.iter().map(|x| x.value == Wdl::Win && !x.stays);
                    return (Wdl::Win, Some(1), keep.collect());
                }
                if !info.iter().filter(wins).any(|x| x.in_time) {
                    // Every win takes longer than the rules allow: the rules will call a draw.
                    let keep = info.iter().map(|x| x.value != Wdl::Loss);
                    return (Wdl::Draw, None, keep.collect());
                }
                let fits = |x: &&RootMove| x.value == Wdl::Win && x.in_time;
                let shortest = info.iter().filter(fits).filter_map(|x| x.dtc).min();
                let keep = info
                    .iter()
                    .map(|x| fits(&x) && (shortest.is_none() || x.dtc == shortest));
                (
                    Wdl::Win,
                    shortest.map(|d| d.saturating_add(1)),
                    keep.collect(),
                )
            }
            Wdl::Draw => (
                Wdl::Draw,
                None,
                info.iter().map(|x| x.value == Wdl::Draw).collect(),
            ),
            Wdl::Loss => {
                if info.iter().any(|x| !x.in_time) {
                    // A win the rules cut short: the loser draws.
                    return (Wdl::Draw, None, info.iter().map(|x| !x.in_time).collect());
                }
                match info.iter().filter(|x| x.stays).filter_map(|x| x.dtc).max() {
                    Some(l) => {
                        let keep = info.iter().map(|x| x.stays && x.dtc == Some(l));
                        (Wdl::Loss, Some(l.saturating_add(1)), keep.collect())
                    }
                    None => (Wdl::Loss, None, vec![true; info.len()]),
                }
            }
        }
    }
}

impl<G: TableGame> TableProbe<G> for TableSet<G> {
    fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    #[inline]
    fn search_score(&self, pos: &G::Position, counters: &DrawCounters) -> Option<Score> {
        if G::piece_count(pos) > self.max_pieces || G::has_capture(pos) {
            return None;
        }
        let p = G::placement_of(pos);
        let v = self.wdl_of(&p)?;
        if v != Wdl::Draw {
            if let Some(allow) = Self::allowance(&p, counters) {
                // Only when some position of the slice could take longer than allowed.
                if self.max_dtc(&p).is_some_and(|m| m > allow) {
                    if let Some(d) = self.dtc_of(&p) {
                        if d as u32 > allow {
                            return Some(Score::DRAW);
                        }
                    }
                }
            }
        }
        Some(Self::score(&p, v))
    }

    fn root(
        &self,
        pos: &G::Position,
        counters: &DrawCounters,
        moves: &mut Vec<G::Move>,
    ) -> Option<RootTable> {
        if G::piece_count(pos) > self.max_pieces || moves.is_empty() {
            return None;
        }
        // Each move: the mover's value, whether it stays in the slice, the child's distance
        // when it does (a capture pending in the child is its conversion: distance 1), and
        // whether the move-count rules leave the child time for that distance.
        let mut info = Vec::with_capacity(moves.len());
        for mv in moves.iter() {
            let child = G::play(pos, mv);
            let v = self.resolve(&child, 16)?.flip();
            let stays = G::stays(mv);
            let mut in_time = true;
            let d = if stays && v != Wdl::Draw {
                if G::has_capture(&child) {
                    Some(1)
                } else {
                    let cp = G::placement_of(&child);
                    let d = self.dtc_of(&cp);
                    let child_counters = counters.after::<G>(pos, mv, &child);
                    if let (Some(d), Some(allow)) = (d, Self::allowance(&cp, &child_counters)) {
                        in_time = u32::from(d) <= allow;
                    }
                    d
                }
            } else {
                None
            };
            info.push(RootMove {
                value: v,
                stays,
                dtc: d,
                in_time,
            });
        }
        let best = info.iter().map(|x| x.value).max()?;
        let legal = moves.len();
        let (value, dtc, keep) = Self::root_choice(best, &info);
        let mut k = keep.iter();
        moves.retain(|_| k.next().copied().unwrap_or(true));
        Some(RootTable {
            value,
            dtc,
            kept: moves.len(),
            legal,
        })
    }

    fn value(&self, pos: &G::Position) -> Option<Wdl> {
        self.resolve(pos, 32)
    }

    fn dtc(&self, pos: &G::Position) -> Option<u8> {
        if G::has_capture(pos) {
            return None;
        }
        self.dtc_of(&G::placement_of(pos))
    }

    fn problems(&self) -> &[String] {
        &self.problems
    }

    fn damaged(&self) -> &[String] {
        let kept = self.problems.len() - usize::from(self.missing_noted);
        &self.problems[..kept]
    }

    fn loaded(&self) -> usize {
        self.loaded
    }

    fn summary(&self) -> String {
        format!(
            "{} slices of {} up to {} pieces, {:.1} MiB, from {}",
            self.loaded,
            G::NAME,
            self.max_pieces,
            self.bytes as f64 / (1u64 << 20) as f64,
            self.dir.display()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_files_open_for_block_reads_and_damage_is_named() {
        let dir = std::env::temp_dir().join(format!("polydam-probe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("m0k2-m0k1.dtc");
        let m = Material::new(0, 2, 0, 1);
        let values: Vec<u8> = (0..2 * BLOCK + 77).map(|i| (i / 7 % 41) as u8).collect();
        let n = values.len() as u64;
        codec::write_coded(&path, Kind::Dtc, "english", m, &values);
        let d = DtcFile::open(&path, "english", m, n).expect("opens");
        for i in [0, 6, 7, BLOCK - 1, BLOCK, BLOCK + 500, 2 * BLOCK + 76] {
            assert_eq!(d.get(i as u64), Some(values[i]), "position {i}");
        }
        let good = std::fs::read(&path).expect("reads");
        let refused = |bytes: &[u8], why: &str| {
            std::fs::write(&path, bytes).expect("written");
            let e = DtcFile::open(&path, "english", m, n).expect_err("damaged");
            assert!(matches!(e, EgtbError::Damaged { .. }), "{e}");
            assert!(e.to_string().contains("m0k2-m0k1.dtc"), "{e}");
            assert!(e.to_string().contains(why), "{e}");
        };
        // A flipped bit in the data, a cut or a lengthened end (the end is block 3's offset),
        // an offset past the data, a file cut in its offsets or its header.
        let mut flipped = good.clone();
        flipped[good.len() - 30] ^= 4;
        refused(&flipped, "checksum mismatch");
        refused(&good[..good.len() - 9], "bad offset of block 3");
        refused(
            &[&good[..], &[0; 5]].concat(),
            "data length disagrees with the offsets",
        );
        let mut bad_offset = good.clone();
        bad_offset[codec::HEADER_BYTES + 8..codec::HEADER_BYTES + 16]
            .copy_from_slice(&u64::MAX.to_le_bytes());
        refused(&bad_offset, "bad offset of block 1");
        refused(
            &good[..codec::HEADER_BYTES + 8],
            "truncated before its data",
        );
        refused(&good[..20], "shorter than a header");
        std::fs::write(&path, &good).expect("written");
        let other = DtcFile::open(&path, "english", m, n + 1).expect_err("another layout");
        assert!(other.to_string().contains("positions"), "{other}");
        let missing = DtcFile::open(&dir.join("m0k1-m0k2.dtc"), "english", m, n).err();
        assert!(
            matches!(missing, Some(EgtbError::Missing { .. })),
            "{missing:?}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
