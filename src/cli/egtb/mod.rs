//! `polydam egtb`: build, probe and verify endgame tables (see docs/egtb.md).

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use polydam_engine::egtb::{slices, Material, TableGame, TableProbe, TableSet, TableVisitor, Wdl};
use polydam_engine::game::{Duplicates, MoveStyle};
use polydam_engine::text::excerpt;
use polydam_engine::variants::dispatch_tables;
use polydam_protocol::egtb::{default_egtb_dir, DATA_DIR_ENV, NO_DATA_DIR};

use super::setup::PositionArgs;
use super::tables::dir_help;
use super::CliError;
use crate::forge::egtb::build::{build, build_pair, pair_plans, plan, PairPlan};
use crate::forge::egtb::job::{BuildEvent, BuildOptions, Checkpoints};
use crate::forge::egtb::trial::{
    bench_probes, play_out, suite_positions, Played, Random, SuiteWants,
};
use crate::forge::egtb::verify::verify;
use show::{build_event, check_line, memory_mib, mib, print_plan, stream_lines, Bars};

mod show;

/// The most pieces a build accepts (the solver counts quiet moves in a byte).
pub const MAX_PIECES: u32 = 7;

/// `polydam egtb` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum EgtbCommand {
    /// Build the tables of every material split of up to N pieces (slices already built are
    /// kept).
    Build(BuildArgs),
    /// Print the tables' value of a position and the moves that keep it.
    Probe(ProbeArgs),
    /// Re-derive every stored value from its successors' values and count disagreements.
    Verify(VerifyArgs),
    /// Play table wins and table draws with the engine on both sides (tables loaded), and
    /// count the wins converted and the draws held under the variant's draw rules.
    Suite(SuiteArgs),
    /// Time probes of random covered positions (what the search pays per table node).
    Bench(BenchArgs),
}

/// Options of `polydam egtb suite`.
#[derive(Debug, Clone, clap::Args)]
pub struct SuiteArgs {
    /// Variants (repeat the option for several).
    #[arg(long, short = 'v', required = true)]
    pub variant: Vec<String>,
    /// Directory of the tables (one subdirectory per variant).
    #[arg(long, value_name = "DIR", help = dir_help("Directory of the tables (one subdirectory per variant)"))]
    pub dir: Option<PathBuf>,
    /// Most pieces of the tables loaded (the positions have at most this many).
    #[arg(long, short = 'p', default_value_t = 5)]
    pub pieces: u32,
    /// Fewest pieces of a position.
    #[arg(long, default_value_t = 3)]
    pub min_pieces: u32,
    /// Most pieces of the tables the engine plays with (default: `--pieces`). Fewer than the
    /// positions have makes the search find its way into the tables: with all of them loaded
    /// the root's table filter plays the game by itself.
    #[arg(long)]
    pub play_pieces: Option<u32>,
    /// Table wins to play per variant.
    #[arg(long, default_value_t = 10)]
    pub won: usize,
    /// Table draws to play per variant (the side with more material to move or not).
    #[arg(long, default_value_t = 10)]
    pub drawn: usize,
    /// Fewest plies to conversion of a won position (the easy ones convert by themselves).
    #[arg(long, default_value_t = 7)]
    pub min_dtc: u8,
    /// Seconds per move.
    #[arg(long, default_value_t = 0.1)]
    pub movetime: f64,
    /// Plies after which an unfinished game counts as not converted (or as held).
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Seed of the random choice of positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Options of `polydam egtb bench`.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchArgs {
    /// Variant name.
    #[arg(long, short = 'v')]
    pub variant: String,
    /// Directory of the tables (one subdirectory per variant).
    #[arg(long, value_name = "DIR", help = dir_help("Directory of the tables (one subdirectory per variant)"))]
    pub dir: Option<PathBuf>,
    /// Most pieces of the tables loaded.
    #[arg(long, short = 'p', default_value_t = 5)]
    pub pieces: u32,
    /// Positions probed.
    #[arg(long, default_value_t = 200_000)]
    pub positions: usize,
    /// Seed of the random positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Options of `polydam egtb build`.
#[derive(Debug, Clone, clap::Args)]
pub struct BuildArgs {
    /// Variant name.
    #[arg(long, short = 'v')]
    pub variant: String,
    /// Most pieces on the board (2 to 7).
    #[arg(long, short = 'p')]
    pub pieces: u32,
    /// Directory of the tables (one subdirectory per variant), created if needed.
    #[arg(long, value_name = "DIR", help = dir_help("Directory of the tables (one subdirectory per variant), created if needed"))]
    pub dir: Option<PathBuf>,
    /// Worker threads (default: every core).
    #[arg(long, short = 't')]
    pub threads: Option<usize>,
    /// Write no distance-to-conversion files (most of the disk: see docs/egtb.md; the engine
    /// then plays won endings by search alone).
    #[arg(long)]
    pub no_dtc: bool,
    /// No progress bars (one line per slice only).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Build only these slices (comma-separated, `m0k4-m0k1` = four kings to move against one
    /// king) and those they lead to.
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Minutes between checkpoints of a large slice pair being solved, which a stopped build
    /// resumes from (pairs of 2^28 positions or more; 0: none).
    #[arg(long, default_value_t = 20)]
    pub checkpoint_minutes: u64,
    /// Print the build's plan as JSON and build nothing: every slice pair in build order,
    /// its positions, the slices it reads, the bytes it holds when built alone (`--pair`),
    /// whether it is built (what the cluster driver schedules from; see docs/cluster.md).
    #[arg(long, conflicts_with_all = ["pair", "only"])]
    pub plan_json: bool,
    /// Build this slice and its colour twin alone (e.g. m0k2-m0k1), reading the slices it
    /// leads to, which must be built already (an error names the first one that is not); a
    /// pair whose files read back whole is kept.
    #[arg(long, value_name = "SLICE", conflicts_with = "only")]
    pub pair: Option<String>,
}

/// Options of `polydam egtb probe`.
#[derive(Debug, Clone, clap::Args)]
pub struct ProbeArgs {
    /// The variant and the position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Directory of the tables (one subdirectory per variant).
    #[arg(long, value_name = "DIR", help = dir_help("Directory of the tables (one subdirectory per variant)"))]
    pub dir: Option<PathBuf>,
    /// Most pieces of the tables to load (default: the position's pieces, so that only the
    /// slices it can lead to are loaded and reported missing).
    #[arg(long, short = 'p')]
    pub pieces: Option<u32>,
}

/// Options of `polydam egtb verify`.
#[derive(Debug, Clone, clap::Args)]
pub struct VerifyArgs {
    /// Variant name.
    #[arg(long, short = 'v')]
    pub variant: String,
    /// Most pieces to verify.
    #[arg(long, short = 'p')]
    pub pieces: u32,
    /// Directory of the tables (one subdirectory per variant).
    #[arg(long, value_name = "DIR", help = dir_help("Directory of the tables (one subdirectory per variant)"))]
    pub dir: Option<PathBuf>,
    /// Worker threads (default: every core).
    #[arg(long, short = 't')]
    pub threads: Option<usize>,
    /// No progress bars.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Verify only these slices and those they lead to (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Check every slice again, forgetting the record of earlier runs (verified.tsv in the
    /// variant's directory; without this, slices recorded there with unchanged files are
    /// taken from it).
    #[arg(long)]
    pub again: bool,
}

/// The directory of the tables: `given` (`--dir`), else the default one.
fn tables_dir(given: &Option<PathBuf>) -> Result<PathBuf, CliError> {
    match given {
        Some(dir) => Ok(dir.clone()),
        None => default_egtb_dir()
            .ok_or_else(|| CliError(format!("{NO_DATA_DIR}: set {DATA_DIR_ENV} or give --dir"))),
    }
}

fn check_pieces(pieces: u32) -> Result<(), CliError> {
    if !(2..=MAX_PIECES).contains(&pieces) {
        return Err(CliError(format!(
            "--pieces must be from 2 to {MAX_PIECES}, got {pieces}"
        )));
    }
    Ok(())
}

/// Reads the slice names of option `flag` (`--only`, `--pair`).
fn materials(names: &[String], flag: &str) -> Result<Vec<Material>, CliError> {
    names
        .iter()
        .map(|n| {
            Material::parse(n.trim()).ok_or_else(|| {
                CliError(format!(
                    "{flag}: '{}' is not a slice name (like m0k4-m0k1: men and kings of the \
                     side to move, then of the other side)",
                    excerpt(n)
                ))
            })
        })
        .collect()
}

fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    if threads == Some(0) {
        return Err(CliError("--threads must be at least 1".into()));
    }
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        b = b.num_threads(t);
    }
    b.build()
        .map_err(|e| CliError(format!("cannot start worker threads: {e}")))
}

struct BuildJob<'a, W: Write> {
    args: &'a BuildArgs,
    /// The tables' directory (`--dir` or the default).
    dir: PathBuf,
    out: &'a mut W,
}

impl<W: Write> TableVisitor for BuildJob<'_, W> {
    type Output = Result<(), CliError>;

    fn visit<G: TableGame>(self) -> Self::Output {
        let a = self.args;
        let dir = &self.dir;
        let started = Instant::now();
        let bars = Bars::new(a.quiet);
        let pool = pool(a.threads)?;
        let only = materials(&a.only, "--only")?;
        if a.plan_json {
            let text = plan_json::<G>(dir, a.pieces, !a.no_dtc);
            return writeln!(self.out, "{text}")
                .map_err(|e| CliError(format!("cannot write output: {e}")));
        }
        let pair = match &a.pair {
            Some(name) => Some(materials(std::slice::from_ref(name), "--pair")?[0]),
            None => None,
        };
        if pair.is_none() {
            print_plan::<G>(self.out, a.pieces, &only)?;
        }
        let reports = stream_lines(self.out, |tx| {
            let current = Mutex::new(String::new());
            let on_event = |e: BuildEvent<'_>| build_event(&e, tx, &current, &bars);
            let opts = BuildOptions {
                dir: dir.clone(),
                pieces: a.pieces,
                dtc: !a.no_dtc,
                only: only.clone(),
                on_event: &on_event,
                checkpoints: (a.checkpoint_minutes > 0).then(|| Checkpoints {
                    every: Duration::from_secs(a.checkpoint_minutes.saturating_mul(60)),
                    ..Checkpoints::default()
                }),
            };
            pool.install(|| match pair {
                Some(m) => build_pair::<G>(&opts, m),
                None => build::<G>(&opts),
            })
        });
        bars.clear();
        let reports = reports?.map_err(|e| CliError(e.to_string()))?;
        let (rss, peak) = memory_mib();
        let wdl: u64 = reports.iter().map(|r| r.wdl_bytes).sum();
        let dtc: u64 = reports.iter().map(|r| r.dtc_bytes).sum();
        let positions: u64 = reports.iter().map(|r| r.positions).sum();
        writeln!(
            self.out,
            "{}: {} slices built ({} positions) in {:.1} s, .wdl {:.2} MiB, .dtc {:.2} MiB, \
             rss {rss:.0} MiB, peak {peak:.0} MiB",
            G::NAME,
            reports.len(),
            positions,
            started.elapsed().as_secs_f64(),
            mib(wdl),
            mib(dtc)
        )
        .map_err(|e| CliError(format!("cannot write output: {e}")))?;
        Ok(())
    }
}

/// The plan of a build of up to `pieces` pieces of `G` in `dir` as one JSON object (see
/// docs/cluster.md): the totals of [`plan`], then every pair of [`pair_plans`].
fn plan_json<G: TableGame>(dir: &std::path::Path, pieces: u32, dtc: bool) -> String {
    let names = |ms: &[Material]| -> Vec<String> { ms.iter().map(|m| m.name()).collect() };
    let whole = plan::<G>(pieces, &[]);
    let pairs: Vec<serde_json::Value> = pair_plans::<G>(dir, pieces, dtc)
        .iter()
        .map(|p: &PairPlan| {
            serde_json::json!({
                "slices": names(&p.slices),
                "pieces": p.slices[0].pieces(),
                "positions": p.positions,
                "reads": names(&p.reads),
                "memory_bytes": p.memory_bytes,
                "built": p.built,
            })
        })
        .collect();
    serde_json::json!({
        "variant": G::NAME,
        "pieces": pieces,
        "dtc": dtc,
        "slices": whole.slices,
        "positions": whole.positions,
        "peak_bytes": whole.peak_bytes,
        "pairs": pairs,
    })
    .to_string()
}

struct ProbeJob<'a, W: Write> {
    args: &'a ProbeArgs,
    /// The tables' directory (`--dir` or the default).
    dir: PathBuf,
    out: &'a mut W,
}

impl<W: Write> TableVisitor for ProbeJob<'_, W> {
    type Output = Result<(), CliError>;

    fn visit<G: TableGame>(self) -> Self::Output {
        let a = self.args;
        let dir = &self.dir;
        let io = |e: std::io::Error| CliError(format!("cannot write output: {e}"));
        let record = a.position.record::<G>()?;
        let pos = *record.current();
        let pieces = G::piece_count(&pos);
        let load = a.pieces.unwrap_or(pieces.min(MAX_PIECES));
        if pieces > load {
            return Err(CliError(format!(
                "the position has {pieces} pieces; the tables loaded go to {load}"
            )));
        }
        let tables = TableSet::<G>::open(dir, load).map_err(|e| CliError(e.to_string()))?;
        for p in tables.problems() {
            eprintln!("polydam: warning: {p}");
        }
        let Some(value) = tables.value(&pos) else {
            return Err(CliError(format!(
                "the tables in {} do not cover this position (a slice is missing)",
                dir.display()
            )));
        };
        let dtc = tables.dtc(&pos);
        let side = G::side_to_move(&pos).name();
        writeln!(
            self.out,
            "{}: {value} for {side}{}",
            G::fen(&pos),
            match dtc {
                Some(d) if value != Wdl::Draw => format!(", {d} plies to conversion"),
                _ => String::new(),
            }
        )
        .map_err(io)?;
        let mut moves = Vec::new();
        G::generate(&pos, Duplicates::Drop, &mut moves);
        let all = moves.clone();
        let root = tables.root(&pos, &record.draw_counters(), &mut moves);
        let mut lines = Vec::new();
        for mv in &all {
            let child = G::play(&pos, mv);
            let v = tables.value(&child).map(Wdl::flip);
            let d = tables.dtc(&child);
            let kept = root.is_some() && moves.contains(mv);
            lines.push(format!(
                "  {:<14} {}{}{}",
                G::move_text(&pos, mv, MoveStyle::Hub),
                v.map_or("?".to_string(), |v| v.to_string()),
                match (v, d) {
                    (Some(v), Some(d)) if v != Wdl::Draw => format!(" (child {d})"),
                    _ => String::new(),
                },
                if kept { "  *" } else { "" }
            ));
        }
        if all.is_empty() {
            writeln!(self.out, "no legal move").map_err(io)?;
        } else {
            writeln!(self.out, "moves (* = the tables' choice):").map_err(io)?;
            for l in lines {
                writeln!(self.out, "{l}").map_err(io)?;
            }
        }
        Ok(())
    }
}

struct VerifyJob<'a, W: Write> {
    args: &'a VerifyArgs,
    /// The tables' directory (`--dir` or the default).
    dir: PathBuf,
    out: &'a mut W,
}

impl<W: Write> TableVisitor for VerifyJob<'_, W> {
    type Output = Result<(), CliError>;

    fn visit<G: TableGame>(self) -> Self::Output {
        let a = self.args;
        let dir = &self.dir;
        let started = Instant::now();
        let io = |e: std::io::Error| CliError(format!("cannot write output: {e}"));
        let bars = Bars::new(a.quiet);
        let only = materials(&a.only, "--only")?;
        let pool = pool(a.threads)?;
        let report = stream_lines(self.out, |tx| {
            let on_event = |e: BuildEvent<'_>| {
                match &e {
                    BuildEvent::Checked(c) => {
                        bars.clear();
                        let _ = tx.send(check_line(c));
                    }
                    BuildEvent::Warning(w) => {
                        bars.clear();
                        eprintln!("polydam: warning: {w}");
                    }
                    _ => {}
                }
                bars.event("verify", &e);
            };
            pool.install(|| verify::<G>(dir, a.pieces, &only, a.again, &on_event))
        });
        bars.clear();
        let report = report?.map_err(|e| CliError(e.to_string()))?;
        for p in &report.ledger_problems {
            eprintln!("polydam: warning: {p}");
        }
        writeln!(
            self.out,
            "{}: {} slices, {} positions, {} re-derived from their moves ({} with distances), \
             {} inconsistencies, {:.1} s{}",
            G::NAME,
            report.slices,
            report.positions,
            report.checked,
            report.dtc_checked,
            report.inconsistencies,
            started.elapsed().as_secs_f64(),
            if report.resumed > 0 {
                format!(
                    " ({} slices verified by an earlier run, files unchanged; --again to \
                     check them too)",
                    report.resumed
                )
            } else {
                String::new()
            }
        )
        .map_err(io)?;
        if !report.without_dtc.is_empty() {
            writeln!(
                self.out,
                "checked without distances (no .dtc file): {}",
                report
                    .without_dtc
                    .iter()
                    .map(|m| m.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
            .map_err(io)?;
        }
        for e in &report.examples {
            writeln!(self.out, "  {e}").map_err(io)?;
        }
        if report.inconsistencies > 0 {
            return Err(CliError(format!(
                "{} inconsistencies",
                report.inconsistencies
            )));
        }
        Ok(())
    }
}

struct SuiteJob<'a, W: Write> {
    args: &'a SuiteArgs,
    /// The tables' directory (`--dir` or the default).
    dir: PathBuf,
    out: &'a mut W,
    /// Won positions converted and played, draws held and played.
    totals: &'a mut [usize; 4],
}

impl<W: Write> TableVisitor for SuiteJob<'_, W> {
    type Output = Result<(), CliError>;

    fn visit<G: TableGame>(self) -> Self::Output {
        let a = self.args;
        let dir = &self.dir;
        let io = |e: std::io::Error| CliError(format!("cannot write output: {e}"));
        let set = TableSet::<G>::open(dir, a.pieces).map_err(|e| CliError(e.to_string()))?;
        for p in set.problems() {
            eprintln!("polydam: warning: {p}");
        }
        let tables: Arc<dyn TableProbe<G>> = Arc::new(set);
        // The tables the engine plays with: the same, or fewer pieces of them.
        let playing: Arc<dyn TableProbe<G>> = match a.play_pieces {
            Some(n) if n < a.pieces => {
                Arc::new(TableSet::<G>::open(dir, n).map_err(|e| CliError(e.to_string()))?)
            }
            _ => Arc::clone(&tables),
        };
        let slices: Vec<Material> = slices::<G>(a.pieces)
            .into_iter()
            .filter(|m| m.pieces() >= a.min_pieces)
            .collect();
        if slices.is_empty() {
            return Err(CliError("no slice has that many pieces".into()));
        }
        let mut rng = Random(a.seed ^ (G::NAME.len() as u64) << 32);
        let wants = SuiteWants {
            won: a.won,
            drawn: a.drawn,
            min_dtc: a.min_dtc,
        };
        let (won, drawn) = suite_positions::<G>(&*tables, &slices, wants, &mut rng);
        let movetime = Duration::from_secs_f64(a.movetime);
        let play = |pos: G::Position| play_out::<G>(pos, &playing, movetime, a.max_plies);
        let (mut converted, mut held) = (0, 0);
        for (k, pos) in won.iter().enumerate() {
            let mover = G::side_to_move(pos);
            let d = tables.dtc(pos).unwrap_or(0);
            let Played { winner, plies, how } = play(*pos);
            let ok = winner == Some(mover);
            converted += usize::from(ok);
            writeln!(
                self.out,
                "{} won {}/{}: {} (dtc {d}, {}): {} after {plies} plies ({how})",
                G::NAME,
                k + 1,
                won.len(),
                G::fen(pos),
                G::placement_of(pos).material(),
                if ok { "converted" } else { "NOT converted" }
            )
            .map_err(io)?;
        }
        for (k, pos) in drawn.iter().enumerate() {
            let Played { winner, plies, how } = play(*pos);
            let ok = winner.is_none();
            held += usize::from(ok);
            writeln!(
                self.out,
                "{} drawn {}/{}: {} ({}): {} after {plies} plies ({how})",
                G::NAME,
                k + 1,
                drawn.len(),
                G::fen(pos),
                G::placement_of(pos).material(),
                if ok { "held" } else { "LOST" }
            )
            .map_err(io)?;
        }
        writeln!(
            self.out,
            "{}: {converted}/{} table wins converted, {held}/{} table draws held \
             (the engine playing with tables of up to {} pieces, {} s per move)",
            G::NAME,
            won.len(),
            drawn.len(),
            playing.max_pieces(),
            a.movetime
        )
        .map_err(io)?;
        self.totals[0] += converted;
        self.totals[1] += won.len();
        self.totals[2] += held;
        self.totals[3] += drawn.len();
        Ok(())
    }
}

struct BenchJob<'a, W: Write> {
    args: &'a BenchArgs,
    /// The tables' directory (`--dir` or the default).
    dir: PathBuf,
    out: &'a mut W,
}

impl<W: Write> TableVisitor for BenchJob<'_, W> {
    type Output = Result<(), CliError>;

    fn visit<G: TableGame>(self) -> Self::Output {
        let a = self.args;
        let dir = &self.dir;
        let loading = Instant::now();
        let set = TableSet::<G>::open(dir, a.pieces).map_err(|e| CliError(e.to_string()))?;
        let load_s = loading.elapsed().as_secs_f64();
        for p in set.problems() {
            eprintln!("polydam: warning: {p}");
        }
        let b = bench_probes(&set, a.pieces, a.positions, a.seed);
        writeln!(
            self.out,
            "{}: {} slices loaded in {load_s:.2} s ({:.1} MiB); {} random positions without a \
             capture, {} covered: {:.0} ns per search probe (best of 3); distance to \
             conversion read for {} of {}: {:.2} us each",
            G::NAME,
            set.loaded(),
            mib(set.bytes()),
            b.positions,
            b.covered,
            b.search_ns,
            b.with_dtc,
            b.dtc_probed,
            b.dtc_us
        )
        .map_err(|e| CliError(format!("cannot write output: {e}")))?;
        Ok(())
    }
}

/// Runs a `polydam egtb` subcommand.
pub fn run_egtb(cmd: &EgtbCommand, mut out: &mut dyn Write) -> Result<(), CliError> {
    let out = &mut out;
    let e = |e: polydam_engine::egtb::EgtbError| CliError(e.to_string());
    match cmd {
        EgtbCommand::Build(a) => {
            check_pieces(a.pieces)?;
            dispatch_tables(
                &a.variant,
                BuildJob {
                    args: a,
                    dir: tables_dir(&a.dir)?,
                    out,
                },
            )
            .map_err(e)?
        }
        EgtbCommand::Probe(a) => dispatch_tables(
            &a.position.variant,
            ProbeJob {
                args: a,
                dir: tables_dir(&a.dir)?,
                out,
            },
        )
        .map_err(e)?,
        EgtbCommand::Verify(a) => {
            check_pieces(a.pieces)?;
            dispatch_tables(
                &a.variant,
                VerifyJob {
                    args: a,
                    dir: tables_dir(&a.dir)?,
                    out,
                },
            )
            .map_err(e)?
        }
        EgtbCommand::Suite(a) => {
            check_pieces(a.pieces)?;
            if !(a.movetime.is_finite() && a.movetime > 0.0) {
                return Err(CliError(
                    "--movetime must be a positive number of seconds".into(),
                ));
            }
            let mut totals = [0usize; 4];
            for v in &a.variant {
                dispatch_tables(
                    v,
                    SuiteJob {
                        args: a,
                        dir: tables_dir(&a.dir)?,
                        out,
                        totals: &mut totals,
                    },
                )
                .map_err(e)??;
            }
            writeln!(
                out,
                "all: {}/{} table wins converted, {}/{} table draws held",
                totals[0], totals[1], totals[2], totals[3]
            )
            .map_err(|e| CliError(format!("cannot write output: {e}")))
        }
        EgtbCommand::Bench(a) => {
            check_pieces(a.pieces)?;
            dispatch_tables(
                &a.variant,
                BenchJob {
                    args: a,
                    dir: tables_dir(&a.dir)?,
                    out,
                },
            )
            .map_err(e)?
        }
    }
}
