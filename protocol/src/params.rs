//! The engine parameters declared in answer to `hub` and changed with `set-param`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use polydam_engine::learn::source::{current_source, WeightsError, WeightsSource};
use polydam_engine::search::{max_hash_mib, HashError, MAX_LEVEL};
use polydam_engine::variants::{lookup, names, set_weights};

use crate::egtb::{default_egtb_dir, TablesDir};
use crate::lexer::excerpt;
use crate::numbering::Numbering;
use crate::reply::{ParamDecl, ParamKind};

/// The largest transposition table accepted, in MiB: what this machine can give now (seven
/// eighths of the available memory, see [`max_hash_mib`]), so that the advertised maximum can
/// actually be allocated.
pub fn hash_max_mib() -> i64 {
    i64::try_from(max_hash_mib()).unwrap_or(i64::MAX)
}
/// Most search threads accepted: twice the cores this machine has (at least 2, at most 256).
///
/// Every thread stops on the clock by itself, so a time limit holds with any count, but a
/// `stop` must wait until every thread is scheduled once, and with more threads than cores the
/// scheduler shares a core among them: measured on 2 cores at load 13, `stop` to `done` took
/// median 8 ms with 2 threads, 41 ms with 8, 132 ms with 16 and 713 ms (max 1.5 s) with 64.
/// Lazy SMP gains nothing from threads beyond the cores anyway.
pub fn max_threads() -> i64 {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (2 * cores as i64).clamp(2, 256)
}
/// Largest move overhead accepted, in milliseconds.
pub const MAX_OVERHEAD_MS: i64 = 10_000;
/// Largest `book-margin`, in hundredths of a man (a win).
pub const MAX_BOOK_MARGIN: i64 = 10_000;
/// Most pieces of endgame tables `bb-size` accepts (what `polydam egtb build` builds).
pub const MAX_BB_SIZE: i64 = 7;
/// Most lines `multipv` accepts.
pub const MAX_MULTIPV: i64 = 64;

/// The current value of every parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    /// `variant`: the canonical registry name of the game.
    pub variant: &'static str,
    /// `numbering`: how the client numbers squares (see [`crate::numbering`]).
    pub numbering: Numbering,
    /// `threads`: search threads.
    pub threads: usize,
    /// `hash`: transposition table size in MiB.
    pub hash_mib: usize,
    /// `ponder`: whether the GUI may ponder (advisory; `go ponder` always works).
    pub ponder: bool,
    /// `move-overhead`: milliseconds kept back from every time limit for process and pipe
    /// latency on the client's side.
    pub move_overhead_ms: u64,
    /// `egtb-dir`: the directory of the endgame tables (one subdirectory per variant, as
    /// `polydam egtb build` writes them); empty for none; `None` while never set, which means
    /// `default_egtb_dir`.
    pub egtb_dir: Option<String>,
    /// The default directory of the endgame tables ([`default_egtb_dir`], read when the
    /// parameters are created); `None` when the environment gives none.
    pub default_egtb_dir: Option<PathBuf>,
    /// `bb-size`: the most pieces of the tables loaded (Scan's name); 0 turns them off.
    pub bb_size: u32,
    /// `weights`: the learned weights in use: `shipped`, `none` or weights files (see
    /// [`WeightsSource::parse`]). The choice is the process's, shared by every session.
    pub weights: String,
    /// `book`: whether moves come from the opening book while the position is in it.
    pub book: bool,
    /// `book-file`: the opening book's file; empty (the default) for the variant's file in
    /// the data directory, else the built-in book (see [`crate::book::load`]).
    pub book_file: String,
    /// `book-margin`: book moves within this many hundredths of a man of the best are played,
    /// chosen at random.
    pub book_margin: i32,
    /// `book-seed`: the seed of that choice; 0 for a seed from the clock.
    pub book_seed: u64,
    /// `multipv`: how many of the best root moves each iteration reports with its line.
    pub multipv: usize,
    /// `level`: the playing strength, 1 (beginner) to [`MAX_LEVEL`], 0 for full strength
    /// (see [`polydam_engine::search::level_plan`]).
    pub level: u8,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            variant: "international",
            numbering: Numbering::default(),
            threads: 1,
            hash_mib: 64,
            ponder: false,
            move_overhead_ms: 10,
            egtb_dir: None,
            default_egtb_dir: default_egtb_dir(),
            bb_size: 6,
            weights: current_source().describe(),
            book: true,
            book_file: String::new(),
            book_margin: crate::book::DEFAULT_MARGIN,
            book_seed: 0,
            multipv: 1,
            level: 0,
        }
    }
}

/// Which parameter a successful `set-param` changed (the session acts on it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Changed {
    /// `variant`.
    Variant,
    /// `numbering`.
    Numbering,
    /// `threads`.
    Threads,
    /// `hash`.
    Hash,
    /// `ponder`.
    Ponder,
    /// `move-overhead`.
    MoveOverhead,
    /// `egtb-dir` or `bb-size`.
    Tables,
    /// `weights`.
    Weights,
    /// `book`, `book-file`, `book-margin` or `book-seed`.
    Book,
    /// `multipv` or `level`: read at the next `go`.
    Search,
}

fn parse_int(name: &str, value: &str, min: i64, max: i64) -> Result<i64, String> {
    match value.trim().parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "{name} must be an integer from {min} to {max}, got '{}'",
            excerpt(value)
        )),
    }
}

fn parse_bool(name: &str, value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err(format!(
            "{name} must be true or false, got '{}'",
            excerpt(value)
        )),
    }
}

impl Params {
    /// The opening book settings of `book`, `book-file`, `book-margin` and `book-seed`.
    pub fn book_settings(&self) -> crate::book::BookSettings {
        crate::book::BookSettings {
            enabled: self.book,
            file: (!self.book_file.is_empty()).then(|| PathBuf::from(&self.book_file)),
            margin: self.book_margin,
            seed: self.book_seed,
        }
    }

    /// The `move-overhead` as a duration.
    pub fn move_overhead(&self) -> Duration {
        Duration::from_millis(self.move_overhead_ms)
    }

    /// Where the endgame tables are looked for: `egtb-dir`, or the default directory while it
    /// was never set; nowhere with `bb-size` 0.
    pub fn tables_dir(&self) -> TablesDir {
        if self.bb_size == 0 {
            return TablesDir::Off;
        }
        TablesDir::choose(
            self.egtb_dir.as_deref().map(Path::new),
            self.default_egtb_dir.clone(),
        )
    }

    /// `egtb-dir` as declared: its value, else the default directory (empty when there is
    /// none).
    fn egtb_dir_shown(&self) -> String {
        match (&self.egtb_dir, &self.default_egtb_dir) {
            (Some(dir), _) => dir.clone(),
            (None, Some(default)) => default.display().to_string(),
            (None, None) => String::new(),
        }
    }

    /// The `param` lines, in the order they are sent. `variant` comes first, with `name=`
    /// before `values=` (pydraughts reads the variants only in that order).
    pub fn declarations(&self) -> Vec<ParamDecl> {
        vec![
            ParamDecl {
                name: "variant".into(),
                default: self.variant.into(),
                kind: ParamKind::Enum {
                    values: names().into_iter().map(String::from).collect(),
                },
            },
            ParamDecl {
                name: "numbering".into(),
                default: self.numbering.name().into(),
                kind: ParamKind::Enum {
                    values: Numbering::ALL.iter().map(|n| n.name().into()).collect(),
                },
            },
            ParamDecl {
                name: "threads".into(),
                default: self.threads.to_string(),
                kind: ParamKind::Int {
                    min: 1,
                    max: max_threads(),
                },
            },
            ParamDecl {
                name: "hash".into(),
                default: self.hash_mib.to_string(),
                kind: ParamKind::Int {
                    min: 1,
                    max: hash_max_mib(),
                },
            },
            ParamDecl {
                name: "ponder".into(),
                default: self.ponder.to_string(),
                kind: ParamKind::Bool,
            },
            ParamDecl {
                name: "move-overhead".into(),
                default: self.move_overhead_ms.to_string(),
                kind: ParamKind::Int {
                    min: 0,
                    max: MAX_OVERHEAD_MS,
                },
            },
            ParamDecl {
                name: "egtb-dir".into(),
                default: self.egtb_dir_shown(),
                kind: ParamKind::String,
            },
            ParamDecl {
                name: "bb-size".into(),
                default: self.bb_size.to_string(),
                kind: ParamKind::Int {
                    min: 0,
                    max: MAX_BB_SIZE,
                },
            },
            ParamDecl {
                name: "weights".into(),
                default: self.weights.clone(),
                kind: ParamKind::String,
            },
            ParamDecl {
                name: "book".into(),
                default: self.book.to_string(),
                kind: ParamKind::Bool,
            },
            ParamDecl {
                name: "book-file".into(),
                default: self.book_file.clone(),
                kind: ParamKind::String,
            },
            ParamDecl {
                name: "book-margin".into(),
                default: self.book_margin.to_string(),
                kind: ParamKind::Int {
                    min: 0,
                    max: MAX_BOOK_MARGIN,
                },
            },
            ParamDecl {
                name: "book-seed".into(),
                default: self.book_seed.to_string(),
                kind: ParamKind::Int {
                    min: 0,
                    max: i64::MAX,
                },
            },
            ParamDecl {
                name: "multipv".into(),
                default: self.multipv.to_string(),
                kind: ParamKind::Int {
                    min: 1,
                    max: MAX_MULTIPV,
                },
            },
            ParamDecl {
                name: "level".into(),
                default: self.level.to_string(),
                kind: ParamKind::Int {
                    min: 0,
                    max: i64::from(MAX_LEVEL),
                },
            },
        ]
    }

    /// Applies `set-param name=.. value=..`; on error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<Changed, String> {
        match name {
            "variant" => {
                let entry = lookup(value).map_err(|e| e.to_string())?;
                self.variant = entry.name;
                Ok(Changed::Variant)
            }
            "numbering" => {
                self.numbering = Numbering::from_name(value).ok_or_else(|| {
                    format!(
                        "numbering must be pydraughts or card, got '{}'",
                        excerpt(value)
                    )
                })?;
                Ok(Changed::Numbering)
            }
            "threads" => {
                self.threads = parse_int(name, value, 1, max_threads())? as usize;
                Ok(Changed::Threads)
            }
            "hash" => {
                let max = hash_max_mib();
                let mib = parse_int(name, value, 1, i64::MAX).map_err(|_| {
                    format!(
                        "hash must be an integer from 1 to {max} (MiB), got '{}'",
                        excerpt(value)
                    )
                })?;
                if mib > max {
                    let refused = HashError {
                        requested_mib: mib as u64,
                        available_mib: max as u64,
                    };
                    return Err(format!(
                        "{refused}; the table stays at {} MiB",
                        self.hash_mib
                    ));
                }
                self.hash_mib = usize::try_from(mib).unwrap_or(usize::MAX);
                Ok(Changed::Hash)
            }
            "ponder" => {
                self.ponder = parse_bool(name, value)?;
                Ok(Changed::Ponder)
            }
            "move-overhead" => {
                self.move_overhead_ms = parse_int(name, value, 0, MAX_OVERHEAD_MS)? as u64;
                Ok(Changed::MoveOverhead)
            }
            "egtb-dir" => {
                self.egtb_dir = Some(value.trim().to_string());
                Ok(Changed::Tables)
            }
            "bb-size" => {
                self.bb_size = parse_int(name, value, 0, MAX_BB_SIZE)? as u32;
                Ok(Changed::Tables)
            }
            "weights" => {
                let kept =
                    |e: WeightsError| format!("{e}; the weights stay '{}'", excerpt(&self.weights));
                let source = WeightsSource::parse(value).map_err(kept)?;
                let shown = source.describe();
                set_weights(source).map_err(kept)?;
                self.weights = shown;
                Ok(Changed::Weights)
            }
            "book" => {
                self.book = parse_bool(name, value)?;
                Ok(Changed::Book)
            }
            "book-file" => {
                self.book_file = value.trim().to_string();
                Ok(Changed::Book)
            }
            "book-margin" => {
                self.book_margin = parse_int(name, value, 0, MAX_BOOK_MARGIN)? as i32;
                Ok(Changed::Book)
            }
            "book-seed" => {
                self.book_seed = parse_int(name, value, 0, i64::MAX)? as u64;
                Ok(Changed::Book)
            }
            "multipv" => {
                self.multipv = parse_int(name, value, 1, MAX_MULTIPV)? as usize;
                Ok(Changed::Search)
            }
            "level" => {
                self.level = parse_int(name, value, 0, i64::from(MAX_LEVEL))? as u8;
                Ok(Changed::Search)
            }
            other => Err(format!(
                "unknown parameter '{}' (known: variant, numbering, threads, hash, ponder, \
                 move-overhead, egtb-dir, bb-size, weights, book, book-file, book-margin, \
                 book-seed, multipv, level)",
                excerpt(other)
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_and_refuse() {
        let mut p = Params::default();
        assert_eq!(p.set("variant", "normal"), Ok(Changed::Variant));
        assert_eq!(p.variant, "international");
        assert_eq!(p.set("variant", "Russian"), Ok(Changed::Variant));
        assert_eq!(p.variant, "russian");
        assert_eq!(p.set("variant", "bt"), Ok(Changed::Variant));
        assert_eq!(p.variant, "breakthrough");
        assert_eq!(p.set("variant", "losing"), Ok(Changed::Variant));
        assert_eq!(p.variant, "antidraughts");
        let before = p.clone();
        assert!(p
            .set("variant", "chess")
            .unwrap_err()
            .contains("unknown variant 'chess'"));
        assert!(p.set("hash", "0").unwrap_err().contains("from 1 to"));
        assert!(p.set("hash", "-5").is_err());
        let huge = (hash_max_mib() as u64 + 1).to_string();
        let refused = p.set("hash", &huge).unwrap_err();
        assert!(
            refused.contains(&format!("hash table of {huge} MiB")),
            "{refused}"
        );
        assert!(refused.contains("the table stays at 64 MiB"), "{refused}");
        assert!(p
            .set("hash", "18446744073709551615")
            .unwrap_err()
            .contains("from 1 to"));
        assert!(p.set("threads", "many").is_err());
        assert!(p.set("ponder", "maybe").is_err());
        assert!(p.set("numbering", "scan").is_err());
        assert!(p
            .set("colour", "red")
            .unwrap_err()
            .contains("unknown parameter"));
        assert_eq!(p, before);
        assert_eq!(p.set("ponder", "TRUE"), Ok(Changed::Ponder));
        assert!(p.ponder);
        assert_eq!(p.set("hash", " 128 "), Ok(Changed::Hash));
        assert_eq!(p.hash_mib, 128);
    }

    #[test]
    fn threads_are_capped_at_twice_the_cores() {
        // 256 threads on 2 cores once broke the move time and took a second to stop.
        let max = max_threads();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as i64;
        assert_eq!(max, (2 * cores).clamp(2, 256));
        let mut p = Params::default();
        assert_eq!(p.set("threads", &max.to_string()), Ok(Changed::Threads));
        let refused = p
            .set("threads", &(max + 1).to_string())
            .expect_err("above the cap");
        assert!(refused.contains(&format!("from 1 to {max}")), "{refused}");
        assert_eq!(p.threads, max as usize, "the old count is kept");
        let advertised = Params::default()
            .declarations()
            .into_iter()
            .map(|d| d.to_string())
            .find(|l| l.contains("name=threads"))
            .expect("threads is declared");
        assert!(advertised.contains(&format!("max={max}")), "{advertised}");
    }

    #[test]
    fn declarations_are_pydraughts_safe() {
        for d in Params::default().declarations() {
            let line = d.to_string();
            assert!(line.starts_with("param name="), "{line}");
            assert!(!line.contains('\n'));
        }
    }
}
