//! `polydam bench`: the search signature. Fixed positions in several variants, searched to a
//! fixed depth with one thread and a fresh table; prints one line per position, then
//! `nodes N` and `nps X`. A change that alters N changes what the engine plays and must say so
//! in its commit message.

use std::io::Write;
use std::time::{Duration, Instant};

use polydam_engine::game::{Game, MoveStyle};
use polydam_engine::record::GameRecord;
use polydam_engine::search::{Limits, Score, SearchControl, Searcher};
use polydam_engine::variants::{dispatch, GameVisitor};

use super::CliError;

/// One bench position: variant, position (PDN FEN or `start`), depth.
pub struct BenchPosition {
    /// Variant name.
    pub variant: &'static str,
    /// PDN FEN, or `start`.
    pub fen: &'static str,
    /// Depth searched.
    pub depth: i32,
}

/// The bench positions. Changing them changes the signature.
pub const POSITIONS: &[BenchPosition] = &[
    BenchPosition {
        variant: "international",
        fen: "start",
        depth: 11,
    },
    BenchPosition {
        variant: "international",
        fen: "W:W26-28,32-36,38,39,42,45,46,48-50:B2,3,5-7,9,14,16-21,23-25",
        depth: 11,
    },
    BenchPosition {
        variant: "international",
        fen: "W:W26,28,30,32,33,35,38,40,43,45-50:B1,2,4-6,9,12,14-17,19,21,22,24",
        depth: 11,
    },
    BenchPosition {
        variant: "international",
        fen: "W:W13,23,33,34,36,37,43,49:B12,14,15,22,26,27",
        depth: 13,
    },
    BenchPosition {
        variant: "international",
        fen: "W:WK47,31,33,38,39:B8,13,K45,19,16",
        depth: 11,
    },
    BenchPosition {
        variant: "russian",
        fen: "start",
        depth: 13,
    },
    BenchPosition {
        variant: "russian",
        fen: "W:W12,13,23,24,26,28,30,32:B3,4,6,9-11,15",
        depth: 13,
    },
    BenchPosition {
        variant: "english",
        fen: "start",
        depth: 13,
    },
    BenchPosition {
        variant: "english",
        fen: "B:W11,21-24,26,28,30,32:B2,4,5,7-10,14",
        depth: 13,
    },
    BenchPosition {
        variant: "italian",
        fen: "start",
        depth: 13,
    },
    BenchPosition {
        variant: "brazilian",
        fen: "start",
        depth: 13,
    },
    BenchPosition {
        variant: "antidraughts",
        fen: "start",
        depth: 10,
    },
    BenchPosition {
        variant: "breakthrough",
        fen: "start",
        depth: 10,
    },
    BenchPosition {
        variant: "turkish",
        fen: "start",
        depth: 10,
    },
    BenchPosition {
        variant: "seesaw-draughts",
        fen: "start",
        depth: 15,
    },
    BenchPosition {
        variant: "seesaw",
        fen: "start",
        depth: 12,
    },
];

/// What one bench position cost.
struct Measured {
    nodes: u64,
    time: Duration,
    line: String,
}

struct BenchJob<'a> {
    position: &'a BenchPosition,
    hash_mib: usize,
}

impl GameVisitor for BenchJob<'_> {
    type Output = Result<Measured, CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let p = self.position;
        let start = if p.fen == "start" {
            G::start()
        } else {
            G::parse_position(p.fen)
                .map_err(|e| CliError(format!("bench position {}: {e}", p.fen)))?
        };
        let record = GameRecord::<G>::new(start);
        let mut searcher = Searcher::<G>::try_new(self.hash_mib, 1)?;
        let control = SearchControl::new();
        let started = Instant::now();
        // `analyze`: a forced move is searched like any other position.
        let limits = Limits {
            analyze: true,
            ..Limits::depth(p.depth)
        };
        let result = searcher.search(&record, &limits, &control, &mut |_| {});
        let time = started.elapsed();
        let best = result
            .best_move
            .map(|m| G::move_text(&start, &m, MoveStyle::Hub));
        Ok(measured(p, result.nodes, time, best, result.score))
    }
}

/// The cost of position `p`, searched in `time` over `nodes` to the move `best` (Hub style)
/// and its `score`, with its line.
fn measured(
    p: &BenchPosition,
    nodes: u64,
    time: Duration,
    best: Option<String>,
    score: Score,
) -> Measured {
    let best = best.unwrap_or_else(|| "none".into());
    let line = format!(
        "{:<14} depth {:>2} nodes {:>10} time {:>7.3} best {:<8} score {:<7} {}",
        p.variant,
        p.depth,
        nodes,
        time.as_secs_f64(),
        best,
        score.to_string(),
        p.fen
    );
    Measured { nodes, time, line }
}

/// Options of `polydam bench`.
#[derive(Clone, Debug, clap::Args)]
pub struct BenchOptions {
    /// Transposition table size in MiB.
    #[arg(long = "hash", value_name = "HASH", default_value_t = 16)]
    pub hash_mib: usize,
}

/// Runs `polydam bench`, writing its lines to `out`.
pub fn run_bench(opts: &BenchOptions, mut out: &mut dyn Write) -> Result<(), CliError> {
    // Not generic in the writer, so that every variant's code is compiled once, here,
    // and not again in each caller.
    run_bench_to(opts, &mut out)
}

fn run_bench_to<W: Write>(opts: &BenchOptions, out: &mut W) -> Result<(), CliError> {
    let hash_mib = opts.hash_mib;
    let io = |e: std::io::Error| CliError(format!("cannot write output: {e}"));
    let mut nodes = 0u64;
    let mut time = Duration::ZERO;
    for p in POSITIONS {
        let m = dispatch(
            p.variant,
            BenchJob {
                position: p,
                hash_mib,
            },
        )??;
        writeln!(out, "{}", m.line).map_err(io)?;
        out.flush().map_err(io)?;
        nodes += m.nodes;
        time += m.time;
    }
    let secs = time.as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    writeln!(out, "time {secs:.3}").map_err(io)?;
    writeln!(out, "nodes {nodes}").map_err(io)?;
    writeln!(out, "nps {nps:.0}").map_err(io)?;
    Ok(())
}
