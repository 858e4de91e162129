//! `polydam perft` and `polydam moves`.

use std::io::Write;
use std::time::Instant;

use polydam_engine::game::{Duplicates, Game, MoveStyle};
use polydam_engine::perft;
use polydam_engine::variants::{dispatch, GameVisitor};

use super::setup::PositionArgs;
use super::CliError;

/// Options of `polydam perft`.
#[derive(Clone, Debug, clap::Args)]
pub struct PerftOptions {
    /// The variant and the position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Last depth to count.
    #[arg(long, short = 'd')]
    pub depth: u32,
    /// Duplicate capture paths: drop (as the engine plays) or keep.
    #[arg(long, value_enum, default_value = "drop")]
    pub duplicates: DuplicatesArg,
    /// Print the count of each root move at the last depth.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads (the work is split by the positions two plies deep).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// The `--duplicates` values: how perft counts capture paths that differ only in their route.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DuplicatesArg {
    /// Capture paths with the same start, end and captured set count once.
    Drop,
    /// Every capture path counts.
    Keep,
}

impl From<DuplicatesArg> for Duplicates {
    fn from(arg: DuplicatesArg) -> Self {
        match arg {
            DuplicatesArg::Drop => Duplicates::Drop,
            DuplicatesArg::Keep => Duplicates::Keep,
        }
    }
}

/// Options of `polydam moves`.
#[derive(Clone, Debug, clap::Args)]
pub struct MovesOptions {
    /// The variant and the position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Print PDN form (landing squares; algebraic in Russian and Czech) instead of Hub form.
    #[arg(long)]
    pub pdn: bool,
}

struct PerftJob<'a, W: Write> {
    opts: &'a PerftOptions,
    out: &'a mut W,
}

impl<W: Write> GameVisitor for PerftJob<'_, W> {
    type Output = Result<(), CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let o = self.opts;
        let record = o.position.record::<G>()?;
        let pos = *record.current();
        let duplicates = Duplicates::from(o.duplicates);
        let parallel = o.threads > 1;
        let counter = Counter {
            divide: &|| {
                perft::divide::<G>(&pos, o.depth, duplicates, parallel)
                    .iter()
                    .map(|(m, n)| (G::move_text(&pos, m, MoveStyle::Hub), *n))
                    .collect()
            },
            perft: &|depth| perft::perft::<G>(&pos, depth, duplicates, parallel),
        };
        print_counts(o, self.out, &counter)
    }
}

/// The counts of one position, whatever its game.
struct Counter<'a> {
    /// The root moves' counts at the options' depth, Hub style, in generation order.
    divide: &'a (dyn Fn() -> Vec<(String, u64)> + Sync),
    /// perft at a depth.
    perft: &'a (dyn Fn(u32) -> u64 + Sync),
}

/// Counts on a pool of the options' threads and prints: with --divide the root moves' counts
/// first, then the line of every depth (the last one reusing the divided total and its time).
/// Not generic in the game, so that it is compiled once.
fn print_counts(
    o: &PerftOptions,
    out: &mut dyn Write,
    counter: &Counter<'_>,
) -> Result<(), CliError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(o.threads)
        .build()
        .map_err(|e| CliError(format!("cannot start {} threads: {e}", o.threads)))?;
    let io = |e: std::io::Error| CliError(format!("cannot write output: {e}"));
    let mut divided: Option<(u64, f64)> = None;
    if o.divide && o.depth > 0 {
        let started = Instant::now();
        let mut lines = pool.install(counter.divide);
        let secs = started.elapsed().as_secs_f64();
        sort_rows(&mut lines);
        for (m, n) in &lines {
            writeln!(out, "{m} {n}").map_err(io)?;
        }
        divided = Some((lines.iter().map(|(_, n)| n).sum(), secs));
    }
    if o.depth == 0 {
        // Depth 0 counts the root alone: one node (it used to print nothing at all).
        writeln!(out, "depth 0 nodes 1 time 0.000 nps 0").map_err(io)?;
    }
    for depth in 1..=o.depth {
        let (nodes, secs) = match divided {
            Some(done) if depth == o.depth => done,
            _ => {
                let started = Instant::now();
                let nodes = pool.install(|| (counter.perft)(depth));
                (nodes, started.elapsed().as_secs_f64())
            }
        };
        let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
        writeln!(
            out,
            "depth {depth} nodes {nodes} time {secs:.3} nps {nps:.0}"
        )
        .map_err(io)?;
        out.flush().map_err(io)?;
    }
    Ok(())
}

/// Runs `polydam perft`, writing its lines to `out`.
pub fn run_perft(opts: &PerftOptions, mut out: &mut dyn Write) -> Result<(), CliError> {
    // Not generic in the writer, so that every variant's code is compiled once, here,
    // and not again in each caller.
    run_perft_to(opts, &mut out)
}

fn run_perft_to<W: Write>(opts: &PerftOptions, out: &mut W) -> Result<(), CliError> {
    if opts.threads == 0 {
        return Err(CliError("--threads must be at least 1".into()));
    }
    dispatch(&opts.position.variant, PerftJob { opts, out })?
}

struct MovesJob<'a, W: Write> {
    position: &'a PositionArgs,
    style: MoveStyle,
    out: &'a mut W,
}

impl<W: Write> GameVisitor for MovesJob<'_, W> {
    type Output = Result<(), CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let record = self.position.record::<G>()?;
        let pos = *record.current();
        let mut moves = Vec::new();
        if G::decided(&pos).is_none() {
            G::generate(&pos, Duplicates::Drop, &mut moves);
        }
        let mut texts = Vec::with_capacity(moves.len());
        for m in &moves {
            texts.push(G::move_text(&pos, m, self.style));
        }
        sort_texts(&mut texts);
        for t in texts {
            writeln!(self.out, "{t}").map_err(|e| CliError(format!("cannot write output: {e}")))?;
        }
        Ok(())
    }
}

/// Sorts `(move, count)` rows by [`natural_key`] of the move (stable).
fn sort_rows(rows: &mut [(String, u64)]) {
    rows.sort_by_key(|a| natural_key(&a.0));
}

/// Sorts move texts by [`natural_key`] (stable).
fn sort_texts(texts: &mut [String]) {
    texts.sort_by_key(|a| natural_key(a));
}

/// Sort key that orders `9-14` before `10-15` (numbers compared as numbers).
fn natural_key(text: &str) -> Vec<(u64, String)> {
    text.split(['-', 'x', ':'])
        .map(|t| (t.parse::<u64>().unwrap_or(u64::MAX), t.to_string()))
        .collect()
}

/// Runs `polydam moves`: the legal moves, one per line, sorted.
pub fn run_moves(opts: &MovesOptions, mut out: &mut dyn Write) -> Result<(), CliError> {
    // Not generic in the writer, so that every variant's code is compiled once, here,
    // and not again in each caller.
    run_moves_to(opts, &mut out)
}

fn run_moves_to<W: Write>(opts: &MovesOptions, out: &mut W) -> Result<(), CliError> {
    let style = if opts.pdn {
        MoveStyle::Pdn
    } else {
        MoveStyle::Hub
    };
    dispatch(
        &opts.position.variant,
        MovesJob {
            position: &opts.position,
            style,
            out,
        },
    )?
}
