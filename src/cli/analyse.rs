//! `polydam analyse`: search one position and print each completed iteration.

use std::io::Write;
use std::time::Duration;

use polydam_engine::game::{Game, MoveStyle};
use polydam_engine::search::{pv_text, Limits, SearchControl, SearchInfo, Searcher};
use polydam_engine::variants::{dispatch, GameVisitor};

use super::setup::PositionArgs;
use super::CliError;

/// Options of `polydam analyse`.
#[derive(Clone, Debug, clap::Args)]
pub struct AnalyseOptions {
    /// The variant and the position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Last iteration to search (14 when no limit is given).
    #[arg(long, short = 'd', allow_negative_numbers = true)]
    pub depth: Option<i32>,
    /// Time to search, in seconds.
    #[arg(long, allow_negative_numbers = true)]
    pub movetime: Option<f64>,
    /// Nodes to search.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search threads.
    #[arg(long, short = 't', default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB.
    #[arg(long = "hash", value_name = "HASH", default_value_t = 64)]
    pub hash_mib: usize,
    /// Directory of endgame tables to probe (see `polydam egtb build`).
    #[arg(long)]
    pub egtb_dir: Option<std::path::PathBuf>,
    /// Most pieces of the endgame tables loaded (Scan's bb-size).
    #[arg(long, default_value_t = 6)]
    pub bb_size: u32,
}

/// Depth searched when no limit is given.
const DEFAULT_DEPTH: i32 = 14;

struct AnalyseJob<'a, W: Write> {
    opts: &'a AnalyseOptions,
    out: &'a mut W,
}

impl<W: Write> GameVisitor for AnalyseJob<'_, W> {
    type Output = Result<(), CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let o = self.opts;
        let record = o.position.record::<G>()?;
        let root = *record.current();
        let mut limits = Limits {
            analyze: true,
            ..Limits::default()
        };
        limits.depth = o.depth.map(polydam_engine::search::Depth);
        limits.nodes = o.nodes;
        if let Some(s) = o.movetime {
            limits.move_time = Some(Duration::from_secs_f64(s.min(1e6)));
        }
        if limits.depth.is_none() && limits.nodes.is_none() && limits.move_time.is_none() {
            limits.depth = Some(polydam_engine::search::Depth(DEFAULT_DEPTH));
        }
        let mut searcher = Searcher::<G>::try_new(o.hash_mib, o.threads)?;
        if let Some(dir) = &o.egtb_dir {
            match polydam_engine::variants::open_tables::<G>(dir, o.bb_size) {
                Ok(Some(t)) => {
                    for p in t.problems() {
                        eprintln!("polydam: warning: endgame tables: {p}");
                    }
                    searcher.set_tables(Some(t));
                }
                Ok(None) => eprintln!(
                    "polydam: warning: no endgame tables for {}; searching without",
                    G::NAME
                ),
                Err(e) => eprintln!("polydam: warning: endgame tables: {e}; searching without"),
            }
        }
        let control = SearchControl::new();
        let mut write_error = None;
        let out = &mut *self.out;
        let result = searcher.search(&record, &limits, &control, &mut |info: &SearchInfo<G>| {
            let tables = match (info.root_table, info.table_hits) {
                (Some(t), hits) => format!(
                    " tables {}{} tbhits {hits}",
                    t.value,
                    t.dtc
                        .filter(|_| t.value != polydam_engine::egtb::Wdl::Draw)
                        .map_or(String::new(), |d| format!(" dtc {d}"))
                ),
                (None, 0) => String::new(),
                (None, hits) => format!(" tbhits {hits}"),
            };
            let line = format!(
                "depth {} mean-depth {:.1} seldepth {} score {} nodes {} time {:.3} nps {:.0}{tables} pv {}",
                info.depth,
                info.mean_depth,
                info.seldepth,
                info.score,
                info.nodes,
                info.time.as_secs_f64(),
                info.nps,
                pv_text::<G>(&root, &info.pv, MoveStyle::Hub)
            );
            if let Err(e) = writeln!(out, "{line}").and_then(|_| out.flush()) {
                write_error.get_or_insert(e);
                control.stop();
            }
        });
        if let Some(e) = write_error {
            return Err(CliError(format!("cannot write output: {e}")));
        }
        let io = |e: std::io::Error| CliError(format!("cannot write output: {e}"));
        match result.best_move {
            Some(mv) => {
                let ponder = result
                    .ponder_move
                    .map(|p| {
                        let after = G::play(&root, &mv);
                        format!(" ponder {}", G::move_text(&after, &p, MoveStyle::Hub))
                    })
                    .unwrap_or_default();
                writeln!(
                    self.out,
                    "bestmove {}{ponder} (score {}, depth {}, nodes {}, time {:.3})",
                    G::move_text(&root, &mv, MoveStyle::Hub),
                    result.score,
                    result.depth,
                    result.nodes,
                    result.time.as_secs_f64()
                )
                .map_err(io)?;
            }
            None => writeln!(
                self.out,
                "bestmove none (game over, score {})",
                result.score
            )
            .map_err(io)?,
        }
        Ok(())
    }
}

/// Runs `polydam analyse`, writing its lines to `out`.
pub fn run_analyse(opts: &AnalyseOptions, mut out: &mut dyn Write) -> Result<(), CliError> {
    // Not generic in the writer, so that every variant's code is compiled once, here,
    // and not again in each caller.
    run_analyse_to(opts, &mut out)
}

fn run_analyse_to<W: Write>(opts: &AnalyseOptions, out: &mut W) -> Result<(), CliError> {
    if opts.threads == 0 {
        return Err(CliError("--threads must be at least 1".into()));
    }
    super::check_depth(opts.depth)?;
    super::check_movetime(opts.movetime)?;
    dispatch(&opts.position.variant, AnalyseJob { opts, out })?
}
