//! Where the learned weights come from: the files shipped inside the engine ([`SHIPPED`]),
//! none (every variant keeps its hand evaluation), or weights files the program names (its
//! `--weights` option, the Hub `weights` parameter).
//!
//! The choice is process-wide. [`crate::variants::set_weights`] checks a new
//! [`WeightsSource`], builds the tables it names and installs it; each variant's
//! [`WeightsCell`] then reloads on its next use. The library reads no environment variable
//! and prints nothing: a file that does not load is an error returned to the caller, and the
//! weights in use stay.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::weights::WeightsFile;
use crate::text::excerpt;

/// The weights files shipped with the engine (embedded at build time), by the variant name
/// each file names. A variant that shares another's weights names it in its rule sheet; the
/// registry test checks that every variant with a learned evaluation finds its file here.
pub const SHIPPED: &[(&str, &str)] = &[
    (
        "international",
        include_str!("../../weights/international.txt"),
    ),
    ("killer", include_str!("../../weights/killer.txt")),
    ("russian", include_str!("../../weights/russian.txt")),
    ("brazilian", include_str!("../../weights/brazilian.txt")),
    ("pool", include_str!("../../weights/pool.txt")),
    ("english", include_str!("../../weights/english.txt")),
    ("italian", include_str!("../../weights/italian.txt")),
    ("spanish", include_str!("../../weights/spanish.txt")),
    ("czech", include_str!("../../weights/czech.txt")),
    (
        "antidraughts",
        include_str!("../../weights/antidraughts.txt"),
    ),
    (
        "breakthrough",
        include_str!("../../weights/breakthrough.txt"),
    ),
    ("dbc", include_str!("../../weights/dbc.txt")),
    ("dbc-killer", include_str!("../../weights/dbc-killer.txt")),
    (
        "dbc-killer-light",
        include_str!("../../weights/dbc-killer-light.txt"),
    ),
    ("dbc-halt", include_str!("../../weights/dbc-halt.txt")),
    ("dbc-halt-2", include_str!("../../weights/dbc-halt-2.txt")),
    (
        "constitutional",
        include_str!("../../weights/constitutional.txt"),
    ),
    ("canadian", include_str!("../../weights/canadian.txt")),
    ("frisian", include_str!("../../weights/frisian.txt")),
    ("frysk", include_str!("../../weights/frysk.txt")),
    ("thai", include_str!("../../weights/thai.txt")),
    ("turkish", include_str!("../../weights/turkish.txt")),
    (
        "seesaw-draughts",
        include_str!("../../weights/seesaw-draughts.txt"),
    ),
    ("seesaw", include_str!("../../weights/seesaw.txt")),
];

/// The shipped weights file of the variant called `name`, if any.
pub fn shipped(name: &str) -> Option<&'static str> {
    SHIPPED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// One weights file named by the user, read and parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedFile {
    /// The path it was read from, as given.
    pub path: String,
    /// Its contents.
    pub file: WeightsFile,
    /// A hash of its text: the same text is built only once per variant.
    key: u64,
}

/// Where the learned weights come from.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum WeightsSource {
    /// The files shipped with the engine (the default).
    #[default]
    Shipped,
    /// No learned weights: every variant keeps its hand evaluation.
    None,
    /// These files, each for the variant it names; a variant no file names keeps its shipped
    /// weights.
    Files(Vec<NamedFile>),
}

/// Why a weights source cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// The source names no file (an empty list).
    Empty,
    /// A file cannot be read.
    Read {
        /// The path, as given.
        path: String,
        /// The system's reason.
        reason: String,
    },
    /// A file is not a weights file, or does not fit the variant it names.
    Invalid {
        /// The path, as given.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// Two files name the same variant.
    Twice {
        /// The variant.
        variant: String,
    },
    /// A file names a variant without a learned evaluation.
    NoLearnedEvaluation {
        /// The path, as given.
        path: String,
        /// The variant it names.
        variant: String,
    },
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Empty => {
                write!(
                    f,
                    "no weights given (use 'shipped', 'none' or FILE[,FILE...])"
                )
            }
            WeightsError::Read { path, reason } => {
                write!(f, "weights file '{}': {reason}", excerpt(path))
            }
            WeightsError::Invalid { path, reason } => {
                write!(f, "weights file '{}': {reason}", excerpt(path))
            }
            WeightsError::Twice { variant } => {
                write!(
                    f,
                    "two weights files name the variant '{}'",
                    excerpt(variant)
                )
            }
            WeightsError::NoLearnedEvaluation { path, variant } => write!(
                f,
                "weights file '{}' names '{}', which has no learned evaluation",
                excerpt(path),
                excerpt(variant)
            ),
        }
    }
}

impl std::error::Error for WeightsError {}

impl WeightsSource {
    /// Reads a source as the command line and the Hub parameter give it: `shipped`, `none`,
    /// or a comma-separated list of weights files (each naming its variant in its header).
    pub fn parse(spec: &str) -> Result<WeightsSource, WeightsError> {
        match spec.trim() {
            "shipped" => return Ok(WeightsSource::Shipped),
            "none" => return Ok(WeightsSource::None),
            _ => {}
        }
        let mut files: Vec<NamedFile> = Vec::new();
        for path in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let text = crate::files::read_text(Path::new(path), crate::files::TEXT_LIMIT).map_err(
                |e| WeightsError::Read {
                    path: path.to_string(),
                    reason: e.to_string(),
                },
            )?;
            let file = WeightsFile::parse(&text).map_err(|reason| WeightsError::Invalid {
                path: path.to_string(),
                reason,
            })?;
            if files.iter().any(|f| f.file.variant == file.variant) {
                return Err(WeightsError::Twice {
                    variant: file.variant,
                });
            }
            files.push(NamedFile {
                path: path.to_string(),
                file,
                key: text_key(&text),
            });
        }
        if files.is_empty() {
            return Err(WeightsError::Empty);
        }
        Ok(WeightsSource::Files(files))
    }

    /// The file for the variant whose weights are called `name`, if this source names one.
    pub fn file_for(&self, name: &str) -> Option<&NamedFile> {
        match self {
            WeightsSource::Files(files) => files.iter().find(|f| f.file.variant == name),
            _ => None,
        }
    }

    /// The text that `polydam` and the Hub `weights` parameter show for this source.
    pub fn describe(&self) -> String {
        match self {
            WeightsSource::Shipped => "shipped".to_string(),
            WeightsSource::None => "none".to_string(),
            WeightsSource::Files(files) => files
                .iter()
                .map(|f| f.path.as_str())
                .collect::<Vec<_>>()
                .join(","),
        }
    }
}

fn text_key(text: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    // Shipped tables use key 0: keep file keys apart from it.
    h.finish() | 1
}

/// The source in use and its generation (bumped by every [`install`]).
struct Current {
    generation: u64,
    source: Arc<WeightsSource>,
}

static CURRENT: Mutex<Option<Current>> = Mutex::new(None);
/// The generation of the source in use: a cell loaded for another one reloads.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// The source in use and its generation.
fn current() -> (u64, Arc<WeightsSource>) {
    let guard = CURRENT.lock().unwrap_or_else(PoisonError::into_inner);
    match &*guard {
        Some(c) => (c.generation, c.source.clone()),
        None => (0, Arc::new(WeightsSource::Shipped)),
    }
}

/// The source in use.
pub fn current_source() -> Arc<WeightsSource> {
    current().1
}

/// Makes `source` the one in use; every variant reloads its weights on next use. Callers
/// check it first ([`crate::variants::set_weights`] builds every table it names), so that
/// the reload cannot fail. Installing the source already in use changes nothing.
pub(crate) fn install(source: WeightsSource) {
    let mut guard = CURRENT.lock().unwrap_or_else(PoisonError::into_inner);
    let previous = guard.as_ref().map(|c| c.generation).unwrap_or(0);
    let same = match &*guard {
        Some(c) => *c.source == source,
        None => source == WeightsSource::Shipped,
    };
    if same {
        return;
    }
    let generation = previous + 1;
    *guard = Some(Current {
        generation,
        source: Arc::new(source),
    });
    GENERATION.store(generation, Ordering::Release);
}

/// Builds a variant's table from a weights file; the `&str` names the file's source.
pub type Build<L> = fn(&WeightsFile, &str) -> Result<L, String>;

/// Where one variant keeps its learned weights: loaded from the source in use on first use
/// and again after the source changes.
///
/// Every table ever built stays in memory until the process ends, because searches read it
/// through plain `&'static` references; a text is built once per variant, so the memory is
/// bounded by the distinct files a user names.
pub struct WeightsCell<L: 'static> {
    /// The generation `active` was loaded for; `u64::MAX` before the first load.
    generation: AtomicU64,
    /// The table in use; null for the hand evaluation.
    active: AtomicPtr<L>,
    /// The tables built so far, by text key (0: the shipped file).
    built: Mutex<Vec<(u64, &'static L)>>,
}

impl<L: 'static> Default for WeightsCell<L> {
    fn default() -> Self {
        Self::new()
    }
}

impl<L: 'static> WeightsCell<L> {
    /// An empty cell: it loads on first use.
    pub const fn new() -> Self {
        WeightsCell {
            generation: AtomicU64::new(u64::MAX),
            active: AtomicPtr::new(std::ptr::null_mut()),
            built: Mutex::new(Vec::new()),
        }
    }

    /// The weights of the variant whose weights are called `name`, or `None` (it keeps its
    /// hand evaluation).
    #[inline(always)]
    pub fn get(&'static self, name: &str, build: Build<L>) -> Option<&'static L> {
        // Two loads on the hot path; the slow path runs once per source change.
        if self.generation.load(Ordering::Acquire) == GENERATION.load(Ordering::Acquire) {
            let p = self.active.load(Ordering::Acquire);
            // SAFETY: `active` is null or points to a table leaked by `table`, never freed.
            return unsafe { p.as_ref() };
        }
        self.reload(name, build)
    }

    #[cold]
    #[inline(never)]
    fn reload(&'static self, name: &str, build: Build<L>) -> Option<&'static L> {
        let mut built = self.built.lock().unwrap_or_else(PoisonError::into_inner);
        let (generation, source) = current();
        // A file that no longer builds (the checks ran before install) keeps the hand
        // evaluation rather than failing a search.
        let table = self.table(&mut built, &source, name, build).ok().flatten();
        let p = table.map_or(std::ptr::null_mut(), |t| t as *const L as *mut L);
        self.active.store(p, Ordering::Release);
        self.generation.store(generation, Ordering::Release);
        table
    }

    /// Builds (or finds) the table `source` gives this variant, without making it active:
    /// what [`crate::variants::set_weights`] runs before installing a source.
    pub fn prepare(
        &'static self,
        source: &WeightsSource,
        name: &str,
        build: Build<L>,
    ) -> Result<(), WeightsError> {
        let mut built = self.built.lock().unwrap_or_else(PoisonError::into_inner);
        self.table(&mut built, source, name, build).map(|_| ())
    }

    fn table(
        &self,
        built: &mut Vec<(u64, &'static L)>,
        source: &WeightsSource,
        name: &str,
        build: Build<L>,
    ) -> Result<Option<&'static L>, WeightsError> {
        if *source == WeightsSource::None {
            return Ok(None);
        }
        let named = source.file_for(name);
        let key = named.map_or(0, |f| f.key);
        if let Some((_, t)) = built.iter().find(|(k, _)| *k == key) {
            return Ok(Some(t));
        }
        let invalid = |path: &str, reason: String| WeightsError::Invalid {
            path: path.to_string(),
            reason,
        };
        let learned = match named {
            Some(f) => build(&f.file, &f.path).map_err(|r| invalid(&f.path, r))?,
            None => {
                let Some(text) = shipped(name) else {
                    return Ok(None);
                };
                let file = WeightsFile::parse(text).map_err(|r| invalid("shipped", r))?;
                build(&file, "shipped").map_err(|r| invalid("shipped", r))?
            }
        };
        let table: &'static L = Box::leak(Box::new(learned));
        built.push((key, table));
        Ok(Some(table))
    }
}

/// The shipped files whose feature set starts with `family` (`diagonal`, `orthogonal`,
/// `stacks`, `hex`): the tests of a family's loader read them.
#[cfg(test)]
pub(crate) fn shipped_of_family(family: &str) -> Vec<(&'static str, &'static str)> {
    SHIPPED
        .iter()
        .filter(|(_, text)| {
            text.lines()
                .find_map(|l| l.strip_prefix("feature-set "))
                .is_some_and(|set| set.starts_with(family))
        })
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_read_from_their_text() {
        assert_eq!(WeightsSource::parse("shipped"), Ok(WeightsSource::Shipped));
        assert_eq!(WeightsSource::parse(" none "), Ok(WeightsSource::None));
        assert_eq!(WeightsSource::parse(" , "), Err(WeightsError::Empty));
        let missing = WeightsSource::parse("/nonexistent/w.txt").unwrap_err();
        assert!(matches!(missing, WeightsError::Read { .. }), "{missing:?}");
        assert!(missing.to_string().contains("/nonexistent/w.txt"));
    }

    #[test]
    fn every_shipped_file_parses_and_names_itself() {
        for (name, text) in SHIPPED {
            let file = WeightsFile::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(file.variant, *name);
        }
    }
}
