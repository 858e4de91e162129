//! `polydam analyse`: search one position and print each completed iteration.

use std::io::Write;
use std::time::Duration;

use polydam_engine::egtb::probe::RootTable;
use polydam_engine::game::{Game, MoveStyle};
use polydam_engine::search::{
    pv_text, Depth, Limits, Ply, Score, SearchControl, SearchInfo, SearchResult, Searcher,
};
use polydam_engine::variants::{dispatch, GameVisitor};

use super::setup::PositionArgs;
use super::tables::TablesArgs;
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
    /// The endgame tables.
    #[command(flatten)]
    pub tables: TablesArgs,
    /// Write the moves in the variant's PDN notation (`32x21`, algebraic squares where the
    /// variant has them) instead of the Hub protocol's (`32x27x21`, captured squares listed).
    #[arg(long)]
    pub pdn: bool,
    /// Report the best N root moves with their lines at every depth, each line with
    /// `multipv K` and its own score (each line costs about one more search of its own).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub multipv: usize,
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
        let style = if o.pdn {
            MoveStyle::Pdn
        } else {
            MoveStyle::Hub
        };
        let record = o.position.record::<G>()?;
        let root = *record.current();
        let limits = analysis_limits(o);
        let mut searcher = Searcher::<G>::try_new(o.hash_mib, o.threads)?;
        searcher.set_tables(o.tables.open::<G>());
        // After every check that may fail: an error leaves stdout empty.
        let side = G::side_to_move(&root).name();
        writeln!(
            self.out,
            "# score: men (+1.00 = a man ahead), from the point of view of the side to move \
             ({side}); win N / loss N: a forced win / loss in N plies (half-moves)"
        )
        .map_err(|e| CliError(format!("cannot write output: {e}")))?;
        let control = SearchControl::new();
        let mut lines = Lines {
            out: &mut *self.out,
            control: &control,
            error: None,
        };
        let mut last_pv: Vec<G::Move> = Vec::new();
        let result = searcher.search(&record, &limits, &control, &mut |info| {
            if info.lines.len() > 1 {
                for (k, line) in info.lines.iter().enumerate() {
                    let mut figures = Iteration::of(info);
                    figures.score = line.score;
                    figures.multipv = Some(k + 1);
                    lines.iteration(&figures, &pv_text::<G>(&root, &line.pv, style));
                }
            } else {
                let pv = pv_text::<G>(&root, &info.pv, style);
                lines.iteration(&Iteration::of(info), &pv);
            }
            last_pv.clone_from(&info.pv);
        });
        if let Some(e) = lines.error {
            return Err(CliError(format!("cannot write output: {e}")));
        }
        // The best move may come from the iteration the limit interrupted (its first move
        // searched better than the last complete line's): then that line is printed too,
        // marked `partial`, so that the best move and its ponder move are the last line's.
        let line = match result.pv.first() {
            Some(first) if Some(first) == result.best_move.as_ref() => result.pv.clone(),
            _ => result.best_move.iter().copied().collect(),
        };
        let agrees = last_pv.len() >= line.len().min(2)
            && last_pv[..line.len().min(2)] == line[..line.len().min(2)];
        if !line.is_empty() && !agrees {
            lines.partial(
                &Iteration::of_result(&result),
                &pv_text::<G>(&root, &line, style),
            );
            if let Some(e) = lines.error {
                return Err(CliError(format!("cannot write output: {e}")));
            }
        }
        let best = result.best_move.map(|mv| {
            let after = G::play(&root, &mv);
            let ponder = line
                .get(1)
                .or(result.ponder_move.as_ref().filter(|_| line.len() < 2))
                .map(|p| G::move_text(&after, p, style));
            (G::move_text(&root, &mv, style), ponder)
        });
        let summary = Iteration::of_result(&result);
        best_line(self.out, best, &summary)
    }
}

/// The limits of the search: the options', or [`DEFAULT_DEPTH`] when none is given.
fn analysis_limits(o: &AnalyseOptions) -> Limits {
    let mut limits = Limits {
        analyze: true,
        multipv: o.multipv,
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
    limits
}

/// What the printed lines take from an iteration or from the result, the moves aside.
struct Iteration {
    depth: Depth,
    mean_depth: f64,
    seldepth: Ply,
    score: Score,
    nodes: u64,
    time: Duration,
    nps: f64,
    table_hits: u64,
    root_table: Option<RootTable>,
    /// Which line of a multi-PV search, from 1.
    multipv: Option<usize>,
}

impl Iteration {
    /// An iteration's figures.
    fn of<G: Game>(info: &SearchInfo<G>) -> Iteration {
        Iteration {
            depth: info.depth,
            mean_depth: info.mean_depth,
            seldepth: info.seldepth,
            score: info.score,
            nodes: info.nodes,
            time: info.time,
            nps: info.nps,
            table_hits: info.table_hits,
            root_table: info.root_table,
            multipv: None,
        }
    }

    /// The result's figures (those the `bestmove` line prints).
    fn of_result<G: Game>(result: &SearchResult<G>) -> Iteration {
        Iteration {
            depth: result.depth,
            mean_depth: 0.0,
            seldepth: Ply(0),
            score: result.score,
            nodes: result.nodes,
            time: result.time,
            nps: 0.0,
            table_hits: result.table_hits,
            root_table: result.root_table,
            multipv: None,
        }
    }
}

/// Where the iterations' lines go; the first write error stops the search.
struct Lines<'a> {
    out: &'a mut dyn Write,
    control: &'a SearchControl,
    error: Option<std::io::Error>,
}

impl Lines<'_> {
    /// Writes the line of an iteration whose principal variation is `pv`.
    fn iteration(&mut self, info: &Iteration, pv: &str) {
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
        let multipv = info
            .multipv
            .map_or(String::new(), |k| format!(" multipv {k}"));
        let line = format!(
            "depth {}{multipv} mean-depth {:.1} seldepth {} score {} nodes {} time {:.3} nps {:.0}{tables} pv {pv}",
            info.depth,
            info.mean_depth,
            info.seldepth,
            info.score,
            info.nodes,
            info.time.as_secs_f64(),
            info.nps,
        );
        let out = &mut *self.out;
        if let Err(e) = writeln!(out, "{line}").and_then(|_| out.flush()) {
            self.error.get_or_insert(e);
            self.control.stop();
        }
    }
}

impl Lines<'_> {
    /// Writes the line of the iteration the limit interrupted, whose move is the best move.
    fn partial(&mut self, info: &Iteration, pv: &str) {
        let line = format!(
            "partial depth {} score {} nodes {} time {:.3} pv {pv}",
            info.depth.0 + 1,
            info.score,
            info.nodes,
            info.time.as_secs_f64(),
        );
        let out = &mut *self.out;
        if let Err(e) = writeln!(out, "{line}").and_then(|_| out.flush()) {
            self.error.get_or_insert(e);
        }
    }
}

/// The `bestmove` line: the move and the ponder move (Hub style, or PDN with `--pdn`), or none at the game's end.
fn best_line(
    out: &mut dyn Write,
    best: Option<(String, Option<String>)>,
    result: &Iteration,
) -> Result<(), CliError> {
    let io = |e: std::io::Error| CliError(format!("cannot write output: {e}"));
    match best {
        Some((mv, ponder)) => {
            let ponder = ponder.map(|p| format!(" ponder {p}")).unwrap_or_default();
            writeln!(
                out,
                "bestmove {mv}{ponder} (score {}, depth {}, nodes {}, time {:.3})",
                result.score,
                result.depth,
                result.nodes,
                result.time.as_secs_f64()
            )
            .map_err(io)
        }
        None => writeln!(out, "bestmove none (game over, score {})", result.score).map_err(io),
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
    if !(1..=64).contains(&opts.multipv) {
        return Err(CliError(format!(
            "--multipv must be from 1 to 64, not {}",
            opts.multipv
        )));
    }
    super::check_depth(opts.depth)?;
    super::check_movetime(opts.movetime)?;
    dispatch(&opts.position.variant, AnalyseJob { opts, out })?
}
