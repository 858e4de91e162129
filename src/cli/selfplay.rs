//! `polydam selfplay`: the front-end of [`crate::forge::selfplay`]. Games run in parallel
//! (one per thread) and are written in game order to the data file, then a summary is
//! printed.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use polydam_engine::game::{Game, Outcome};
use polydam_engine::search::Limits;
use polydam_engine::variants::{dispatch, GameVisitor};
use rayon::prelude::*;

use super::CliError;
use crate::files::{refuse_input_as_output, OutputFile};
use crate::forge::selfplay::{play_game, GameOutput, GameSpec, SelfplayError};
use crate::openings::{read_book, Opening};

/// The stack of each game thread (the search recurses; as the Hub driver's search thread).
const GAME_STACK: usize = 16 << 20;

/// Games handed to the pool at a time (bounds the finished games held until an earlier one
/// is written).
const BLOCK: usize = 256;

/// Options of `polydam selfplay`.
#[derive(clap::Args, Clone, Debug)]
pub struct SelfplayOptions {
    /// Variant name (see `polydam variants`).
    #[arg(long, short = 'v', default_value = "international")]
    pub variant: String,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Seed of the run: game i uses a seed derived from (seed, i). Give each shard its own.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The data file to write, replaced when the run ends. Until then the games are written to
    /// a temporary file beside it (`.NAME.tmp-PID`), each whole as it finishes: a run
    /// interrupted leaves the old file as it was, and the games finished so far in that
    /// temporary file. Never the `--book` file.
    #[arg(long, short = 'o')]
    pub output: PathBuf,
    /// Search depth per move (6 when neither --depth nor --nodes is given).
    #[arg(long, short = 'd')]
    pub depth: Option<i32>,
    /// Nodes searched per move (exact: one search thread per game).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Random legal plies played at the start of each game (after the book line, if any).
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Book of openings (as `polydam match --book`): game i starts from line i (cycling).
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// A game still going after this many plies is adjudicated a draw.
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    /// Games played at once (one search thread each).
    #[arg(long, short = 't', default_value_t = 1)]
    pub threads: usize,
    /// Transposition table per game, in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// What a run produced, for the summary.
#[derive(Debug, Default)]
struct Totals {
    games: usize,
    positions: usize,
    plies: usize,
    /// White wins, draws, White losses.
    wdl: [usize; 3],
}

struct SelfplayJob<'a, W: Write> {
    opts: &'a SelfplayOptions,
    out: &'a mut W,
}

impl<W: Write> GameVisitor for SelfplayJob<'_, W> {
    type Output = Result<(), CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let o = self.opts;
        let openings: Vec<Opening<G>> = match &o.book {
            Some(path) => read_book::<G>(path)?,
            None => Vec::new(),
        };
        run_games(o, G::NAME, self.out, &|spec, i| {
            play_game::<G>(spec, &openings, i)
        })
    }
}

/// Plays game `i` of a run with the run's settings.
type PlayOne<'a> = dyn Fn(&GameSpec<'_>, usize) -> Result<GameOutput, SelfplayError> + Sync + 'a;

/// Plays the games of variant `variant` with `play` and writes them; not generic in the game,
/// so that the pool, its threads and the writing are compiled once.
fn run_games(
    o: &SelfplayOptions,
    variant: &str,
    out: &mut dyn Write,
    play: &PlayOne<'_>,
) -> Result<(), CliError> {
    let depth = match (o.depth, o.nodes) {
        (None, None) => Some(6),
        (d, _) => d,
    };
    let limits = Limits {
        depth: depth.and_then(|d| Limits::depth(d).depth),
        nodes: o.nodes,
        analyze: true,
        ..Limits::default()
    };
    let spec = GameSpec {
        seed: o.seed,
        random_plies: o.random_plies,
        max_plies: o.max_plies,
        hash_mib: o.hash,
        limits: &limits,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(o.threads)
        .stack_size(GAME_STACK)
        .thread_name(|i| format!("selfplay-{i}"))
        .build()
        .map_err(|e| CliError(format!("cannot start the game threads: {e}")))?;

    let io = |e: std::io::Error| CliError(format!("cannot write {}: {e}", o.output.display()));
    let mut file = OutputFile::create(&o.output)?;
    writeln!(
        file,
        "# polydam selfplay variant={} seed={} games={} depth={} nodes={} random-plies={} \
         book={} max-plies={}",
        variant,
        o.seed,
        o.games,
        limits.depth.map_or("-".into(), |d| d.0.to_string()),
        o.nodes.map_or("-".into(), |n| n.to_string()),
        o.random_plies,
        o.book
            .as_ref()
            .map_or("-".into(), |p| p.display().to_string()),
        o.max_plies
    )
    .map_err(io)?;

    let bar = super::games_bar(o.games, o.quiet);

    file.flush_now()?;

    let started = Instant::now();
    let writer = Mutex::new(InOrder {
        file,
        next: 0,
        finished: BTreeMap::new(),
        totals: Totals::default(),
        error: None,
    });
    let mut first = 0;
    while first < o.games {
        let last = (first + BLOCK).min(o.games);
        pool.install(|| {
            (first..last).into_par_iter().for_each(|i| {
                let game = play(&spec, i);
                bar.inc(1);
                if let Ok(mut w) = writer.lock() {
                    w.finished.insert(i, game);
                    w.write_ready();
                }
            })
        });
        let w = writer
            .lock()
            .map_err(|_| CliError("a game thread failed".into()))?;
        if let Some(e) = &w.error {
            return Err(e.clone());
        }
        bar.set_message(format!("{} positions", w.totals.positions));
        first = last;
    }
    let w = writer
        .into_inner()
        .map_err(|_| CliError("a game thread failed".into()))?;
    if w.next < o.games {
        return Err(CliError(format!(
            "{} of {} games were not written",
            o.games - w.next,
            o.games
        )));
    }
    w.file.commit()?;
    let totals = w.totals;
    bar.finish_and_clear();

    totals
        .summary(out, started.elapsed().as_secs_f64(), o)
        .map_err(|e| CliError(format!("cannot write output: {e}")))
}

/// The data file of a run being written: each game whole, in game order, as soon as it and
/// every game before it have finished (held until then), and flushed at once, so that a
/// killed run loses no game written.
struct InOrder {
    file: OutputFile,
    /// The next game to write.
    next: usize,
    /// Games finished before some game ahead of them.
    finished: BTreeMap<usize, Result<GameOutput, SelfplayError>>,
    totals: Totals,
    /// The first failure (of a game, or of the writing): nothing more is written.
    error: Option<CliError>,
}

impl InOrder {
    /// Writes the games that are next in order.
    fn write_ready(&mut self) {
        while self.error.is_none() {
            let Some(game) = self.finished.remove(&self.next) else {
                return;
            };
            self.next += 1;
            let written = game.map_err(|e| CliError(e.0)).and_then(|game| {
                for line in &game.lines {
                    writeln!(self.file, "{line}").map_err(|e| self.file.error(e))?;
                }
                self.file.flush_now()?;
                self.totals.add(&game);
                Ok(())
            });
            if let Err(e) = written {
                self.error = Some(e);
            }
        }
    }
}

impl Totals {
    /// Counts one finished game.
    fn add(&mut self, game: &GameOutput) {
        self.games += 1;
        self.positions += game.lines.len();
        self.plies += game.plies;
        self.wdl[match game.white {
            Outcome::Win => 0,
            Outcome::Draw => 1,
            Outcome::Loss => 2,
        }] += 1;
    }

    /// The run's summary lines, after `secs` seconds.
    fn summary(&self, out: &mut dyn Write, secs: f64, o: &SelfplayOptions) -> std::io::Result<()> {
        let rate = |n: usize| if secs > 0.0 { n as f64 / secs } else { 0.0 };
        writeln!(
            out,
            "games {} white-wins {} draws {} black-wins {} plies {}",
            self.games, self.wdl[0], self.wdl[1], self.wdl[2], self.plies
        )?;
        writeln!(
            out,
            "positions {} time {secs:.3} positions/s {:.0} games/s {:.2}",
            self.positions,
            rate(self.positions),
            rate(self.games)
        )?;
        writeln!(out, "output {}", o.output.display())
    }
}

/// Runs `polydam selfplay`: writes the data file, then a summary on `out`.
pub fn run_selfplay(opts: &SelfplayOptions, mut out: &mut dyn Write) -> Result<(), CliError> {
    // Not generic in the writer, so that every variant's code is compiled once, here,
    // and not again in each caller.
    run_selfplay_to(opts, &mut out)
}

fn run_selfplay_to<W: Write>(opts: &SelfplayOptions, out: &mut W) -> Result<(), CliError> {
    if opts.games == 0 {
        return Err(CliError("--games must be at least 1".into()));
    }
    if opts.threads == 0 {
        return Err(CliError("--threads must be at least 1".into()));
    }
    if opts.depth.is_some_and(|d| d < 1) {
        return Err(CliError("--depth must be at least 1".into()));
    }
    if opts.nodes == Some(0) {
        return Err(CliError("--nodes must be at least 1".into()));
    }
    refuse_input_as_output("-o", &opts.output, opts.book.as_deref())?;
    dispatch(
        &opts.variant,
        SelfplayJob {
            opts,
            out: &mut *out,
        },
    )?
}
