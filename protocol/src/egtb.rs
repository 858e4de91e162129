//! Where the endgame tables are looked for, and what the user is told about them.
//!
//! Polydam keeps its data in one directory ([`data_dir`]): `$POLYDAM_DATA_DIR` when set, else
//! `$XDG_DATA_HOME/polydam`, else `$HOME/.local/share/polydam`. The tables go in its `egtb`
//! subdirectory ([`default_egtb_dir`]), one subdirectory per variant, which is where
//! `polydam egtb build` writes by default and where every command that plays (the Hub and DXP
//! engines, `analyse`, `play`, `serve`) looks when the user names no directory.
//!
//! Tables the user did not ask for are no error: when the default directory has none for a
//! variant that can have them, one line on stderr says how to build them, once per process
//! ([`open`]); Hub clients read stdout only, so the session's replies stay as they were.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use polydam_engine::egtb::{EgtbError, TableProbe};
use polydam_engine::game::Game;
use polydam_engine::variants::open_tables;

/// The environment variable that names Polydam's data directory.
pub const DATA_DIR_ENV: &str = "POLYDAM_DATA_DIR";

/// The data directory given the values of `POLYDAM_DATA_DIR`, `XDG_DATA_HOME` and `HOME`:
/// the first, else `XDG_DATA_HOME/polydam`, else `HOME/.local/share/polydam`; `None` when none
/// is usable. Empty values count as unset, and so does a relative `XDG_DATA_HOME` (the XDG
/// specification says to ignore it).
///
/// ```
/// use std::ffi::OsStr;
/// use std::path::PathBuf;
/// use polydam_protocol::egtb::data_dir_from;
///
/// let home = Some(OsStr::new("/home/ann"));
/// assert_eq!(
///     data_dir_from(None, None, home),
///     Some(PathBuf::from("/home/ann/.local/share/polydam"))
/// );
/// assert_eq!(data_dir_from(Some(OsStr::new("/data")), None, home), Some(PathBuf::from("/data")));
/// assert_eq!(data_dir_from(None, None, None), None);
/// ```
pub fn data_dir_from(
    polydam: Option<&OsStr>,
    xdg_data_home: Option<&OsStr>,
    home: Option<&OsStr>,
) -> Option<PathBuf> {
    let given = |v: Option<&OsStr>| v.filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = given(polydam) {
        return Some(dir);
    }
    if let Some(xdg) = given(xdg_data_home).filter(|p| p.is_absolute()) {
        return Some(xdg.join("polydam"));
    }
    given(home).map(|h| h.join(".local").join("share").join("polydam"))
}

/// Polydam's data directory, from this process's environment (see [`data_dir_from`]).
pub fn data_dir() -> Option<PathBuf> {
    let var = std::env::var_os;
    data_dir_from(
        var(DATA_DIR_ENV).as_deref(),
        var("XDG_DATA_HOME").as_deref(),
        var("HOME").as_deref(),
    )
}

/// The default directory of the endgame tables: `egtb` in the [`data_dir`] (the tables of a
/// variant are in its subdirectory of that name).
pub fn default_egtb_dir() -> Option<PathBuf> {
    data_dir().map(|d| d.join("egtb"))
}

/// Why there is no default directory, for messages.
pub const NO_DATA_DIR: &str =
    "no data directory: neither POLYDAM_DATA_DIR, XDG_DATA_HOME nor HOME is set";

/// Where a session or a command looks for endgame tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablesDir {
    /// Nowhere: the user turned the tables off.
    Off,
    /// The default directory, the user having named none (or named that one).
    Default(PathBuf),
    /// Nowhere, the user having named no directory and none being found ([`NO_DATA_DIR`]).
    NoDefault,
    /// A directory the user named.
    Chosen(PathBuf),
}

impl TablesDir {
    /// The directory for the one the user `given` (`None`: none named; empty: tables off),
    /// with `default` the default directory, if there is one.
    pub fn choose(given: Option<&Path>, default: Option<PathBuf>) -> TablesDir {
        match given {
            None => default.map_or(TablesDir::NoDefault, TablesDir::Default),
            Some(dir) if dir.as_os_str().is_empty() => TablesDir::Off,
            Some(dir) if Some(dir) == default.as_deref() => TablesDir::Default(dir.to_path_buf()),
            Some(dir) => TablesDir::Chosen(dir.to_path_buf()),
        }
    }

    /// The directory to load from, if any.
    pub fn dir(&self) -> Option<&Path> {
        match self {
            TablesDir::Default(d) | TablesDir::Chosen(d) => Some(d),
            TablesDir::Off | TablesDir::NoDefault => None,
        }
    }
}

/// Whether this process has told the user where to get tables.
static HINTED: AtomicBool = AtomicBool::new(false);

/// Prints `note` on stderr, `polydam: ` first, unless a note of this kind was printed before
/// in this process.
fn note_once(note: &str) {
    if !HINTED.swap(true, Ordering::SeqCst) {
        eprintln!("polydam: {note}");
    }
}

/// About how long `polydam egtb build -v V -p 5` takes on two cores, for a game whose start
/// position has `start_pieces` pieces (the 10x10 games and Turkish have about ten times the
/// positions of the 8x8 ones).
fn build_estimate(start_pieces: Option<u32>) -> &'static str {
    match start_pieces {
        Some(n) if n < 30 => "about a minute",
        _ => "about 5 minutes",
    }
}

/// The hint for a variant whose tables are not in `dir`, the default directory.
pub fn missing_tables_hint(variant: &str, dir: &Path, start_pieces: Option<u32>) -> String {
    format!(
        "no endgame tables for {variant} in {}; build the 2-5 piece set ({} on 2 cores) \
         with: polydam egtb build -v {variant} -p 5",
        dir.display(),
        build_estimate(start_pieces)
    )
}

/// Opens the endgame tables of `G` from `dir`, up to `max_pieces` pieces (0: none).
///
/// Returns the tables (`None`: the engine plays without) and the problems to report where the
/// caller reports errors (a Hub `error` line, a warning on stderr): those of a directory the
/// user chose (it, a slice missing or damaged, a variant without tables). The default
/// directory reports on stderr itself, and only what the user can act on: no tables there for
/// a variant that has them (the hint to build them, once per process, as is the lack of a
/// data directory), a damaged slice; a variant without tables is no news.
pub fn open<G: Game>(
    dir: &TablesDir,
    max_pieces: u32,
) -> (Option<Arc<dyn TableProbe<G>>>, Vec<String>) {
    if max_pieces == 0 {
        return (None, Vec::new());
    }
    match dir {
        TablesDir::Off => (None, Vec::new()),
        TablesDir::NoDefault => {
            if polydam_engine::variants::table_names().contains(&G::NAME) {
                note_once(&format!(
                    "{NO_DATA_DIR}, so no endgame tables are looked for (set {DATA_DIR_ENV}, \
                     or the Hub parameter egtb-dir)"
                ));
            }
            (None, Vec::new())
        }
        TablesDir::Chosen(d) => match open_tables::<G>(d, max_pieces) {
            Ok(Some(t)) => {
                let notes = t
                    .problems()
                    .iter()
                    .map(|p| format!("endgame tables: {p}"))
                    .collect();
                (Some(t), notes)
            }
            Ok(None) => (
                None,
                vec![format!(
                    "endgame tables: none for variant {} (the engine plays without)",
                    G::NAME
                )],
            ),
            Err(e) => (
                None,
                vec![format!("endgame tables: {e} (the engine plays without)")],
            ),
        },
        TablesDir::Default(d) => (open_default::<G>(d, max_pieces), Vec::new()),
    }
}

/// [`open`] from the default directory `dir`.
fn open_default<G: Game>(dir: &Path, max_pieces: u32) -> Option<Arc<dyn TableProbe<G>>> {
    let hint = || {
        note_once(&missing_tables_hint(
            G::NAME,
            dir,
            G::board_pieces(&G::start()),
        ))
    };
    match open_tables::<G>(dir, max_pieces) {
        Ok(Some(t)) if t.loaded() == 0 => {
            hint();
            None
        }
        Ok(Some(t)) => {
            for p in t.damaged() {
                eprintln!("polydam: warning: endgame tables: {p}");
            }
            Some(t)
        }
        Ok(None) => None,
        Err(EgtbError::Missing { .. }) => {
            hint();
            None
        }
        Err(e) => {
            eprintln!("polydam: warning: endgame tables: {e} (playing without)");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(s: &str) -> Option<&OsStr> {
        Some(OsStr::new(s))
    }

    #[test]
    fn data_dir_resolution_order() {
        let p = |s: &str| Some(PathBuf::from(s));
        // POLYDAM_DATA_DIR first, as given.
        assert_eq!(data_dir_from(os("/d"), os("/x"), os("/h")), p("/d"));
        assert_eq!(data_dir_from(os("rel"), os("/x"), os("/h")), p("rel"));
        // Then XDG_DATA_HOME/polydam, then HOME/.local/share/polydam.
        assert_eq!(data_dir_from(None, os("/x"), os("/h")), p("/x/polydam"));
        assert_eq!(data_dir_from(os(""), os("/x"), os("/h")), p("/x/polydam"));
        assert_eq!(
            data_dir_from(None, None, os("/h")),
            p("/h/.local/share/polydam")
        );
        // Empty values are unset; a relative XDG_DATA_HOME is ignored.
        assert_eq!(
            data_dir_from(os(""), os(""), os("/h")),
            p("/h/.local/share/polydam")
        );
        assert_eq!(
            data_dir_from(None, os("x"), os("/h")),
            p("/h/.local/share/polydam")
        );
        // No home at all: no default.
        assert_eq!(data_dir_from(None, None, None), None);
        assert_eq!(data_dir_from(os(""), os("rel"), os("")), None);
    }

    #[test]
    fn tables_dir_choice() {
        let default = Some(PathBuf::from("/d/egtb"));
        let choose = |g: Option<&str>, d: Option<PathBuf>| TablesDir::choose(g.map(Path::new), d);
        assert_eq!(
            choose(None, default.clone()),
            TablesDir::Default("/d/egtb".into())
        );
        assert_eq!(choose(None, None), TablesDir::NoDefault);
        assert_eq!(choose(Some(""), default.clone()), TablesDir::Off);
        assert_eq!(choose(Some(""), None), TablesDir::Off);
        assert_eq!(
            choose(Some("/d/egtb"), default.clone()),
            TablesDir::Default("/d/egtb".into())
        );
        assert_eq!(choose(Some("t"), default), TablesDir::Chosen("t".into()));
    }

    #[test]
    fn the_hint_says_how_to_build() {
        let hint = missing_tables_hint("international", Path::new("/d/egtb"), Some(40));
        assert!(
            hint.starts_with("no endgame tables for international in /d/egtb; build"),
            "{hint}"
        );
        assert!(
            hint.ends_with("with: polydam egtb build -v international -p 5"),
            "{hint}"
        );
    }
}
