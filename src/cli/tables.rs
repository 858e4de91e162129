//! The endgame-table options of the commands that play (`analyse`, `play`, `dxp`, `serve`):
//! the default directory unless `--egtb-dir` names another (empty: none), and `--bb-size`.

use std::path::PathBuf;
use std::sync::Arc;

use polydam_engine::egtb::TableProbe;
use polydam_engine::game::Game;
use polydam_protocol::egtb::{default_egtb_dir, TablesDir, NO_DATA_DIR};

/// `--egtb-dir` and `--bb-size`.
#[derive(Clone, Debug, PartialEq, Eq, clap::Args)]
pub struct TablesArgs {
    /// Directory of the endgame tables, one subdirectory per variant (see `polydam egtb
    /// build`); empty for none.
    #[arg(long, value_name = "DIR", help = dir_help("Directory of the endgame tables, one \
        subdirectory per variant (see `polydam egtb build`); empty for none"))]
    pub egtb_dir: Option<PathBuf>,
    /// Most pieces of the endgame tables loaded (Scan's bb-size; 0: none).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BB_SIZE)]
    pub bb_size: u32,
}

/// `--bb-size` when not given (the Hub parameter's default).
pub const DEFAULT_BB_SIZE: u32 = 6;

/// The help of a directory option whose default is the default tables directory: `text`,
/// then that directory as this environment resolves it.
pub fn dir_help(text: &str) -> String {
    match default_egtb_dir() {
        Some(dir) => format!("{text} [default: {}]", dir.display()),
        None => format!("{text} [default: none, {NO_DATA_DIR}]"),
    }
}

impl Default for TablesArgs {
    /// What the command line gives when neither option is given.
    fn default() -> Self {
        TablesArgs {
            egtb_dir: None,
            bb_size: DEFAULT_BB_SIZE,
        }
    }
}

impl TablesArgs {
    /// No tables (for tests, which must not depend on the tables of the machine).
    pub fn off() -> TablesArgs {
        TablesArgs {
            egtb_dir: Some(PathBuf::new()),
            bb_size: DEFAULT_BB_SIZE,
        }
    }

    /// Where the tables are looked for.
    pub fn dir(&self) -> TablesDir {
        if self.bb_size == 0 {
            return TablesDir::Off;
        }
        TablesDir::choose(self.egtb_dir.as_deref(), default_egtb_dir())
    }

    /// The tables of `G` (`None`: play without), each problem of a directory named with
    /// `--egtb-dir` warned of on stderr (the default directory's notes go there too, see
    /// [`polydam_protocol::egtb::open`]).
    pub fn open<G: Game>(&self) -> Option<Arc<dyn TableProbe<G>>> {
        let (tables, problems) = polydam_protocol::egtb::open::<G>(&self.dir(), self.bb_size);
        for p in problems {
            eprintln!("polydam: warning: {p}");
        }
        tables
    }
}
