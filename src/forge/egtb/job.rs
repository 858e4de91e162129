//! What a build is asked to do and what it reports as it goes.

use std::path::PathBuf;
use std::time::Duration;

use polydam_engine::egtb::index::Material;

use super::ledger::SliceCheck;

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
    Checked(&'a SliceCheck),
    /// Something went wrong that costs time but not correctness (a cache file that cannot
    /// serve or be written).
    Warning(String),
    /// A checkpoint of the pair being solved was written ([`super::checkpoint`]).
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
    /// Positions whose distance exceeded [`DTC_CAP`](polydam_engine::egtb::codec::DTC_CAP) (stored as the cap).
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

/// When a pair being solved is saved to resume from ([`super::checkpoint`]).
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
