//! `polydam bench`: the search signature. Fixed positions in several variants, searched to a
//! fixed depth with one thread and a fresh table; prints one line per position, then
//! `nodes N` and `nps X`. A change that alters N changes what the engine plays and must say so
//! in its commit message.

use std::io::Write;
use std::time::{Duration, Instant};

use polydam_engine::game::{Game, MoveStyle};
use polydam_engine::history::GameRecord;
use polydam_engine::search::{Limits, SearchControl, Searcher};
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
        depth: 12,
    },
    BenchPosition {
        variant: "international",
        fen: "W:W25,27,28,30,32,33,34,35,37,38,39,40,42,43,44,46,48,49:B3,6,7,8,9,11,12,13,14,16,17,18,19,20,22,23,24,26",
        depth: 12,
    },
    BenchPosition {
        variant: "international",
        fen: "B:W21,25,27,28,30,32,33,34,35,36,37,38,40,41,43,44,45,47:B1,2,3,5,6,8,9,10,12,13,14,15,16,17,18,19,20,23",
        depth: 12,
    },
    BenchPosition {
        variant: "international",
        fen: "W:W23,26,27,29,32,33,35,37,38,39,42,43:B6,8,9,12,13,14,15,16,17,18,19,24",
        depth: 13,
    },
    BenchPosition {
        variant: "international",
        fen: "W:WK3,28,33,38,41:B9,16,K24,26,36",
        depth: 12,
    },
    BenchPosition {
        variant: "russian",
        fen: "start",
        depth: 14,
    },
    BenchPosition {
        variant: "russian",
        fen: "W:W13,18,21,22,25,27,29,31,32:B1,2,3,6,7,10,11,12,19",
        depth: 14,
    },
    BenchPosition {
        variant: "english",
        fen: "start",
        depth: 14,
    },
    BenchPosition {
        variant: "english",
        fen: "B:W14,17,18,21,22,23,25,26,27,30,31:B1,2,3,5,6,7,9,10,11,12,16",
        depth: 14,
    },
    BenchPosition {
        variant: "italian",
        fen: "start",
        depth: 14,
    },
    BenchPosition {
        variant: "brazilian",
        fen: "start",
        depth: 14,
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
        let mut searcher = Searcher::<G>::new(self.hash_mib, 1);
        let control = SearchControl::new();
        let started = Instant::now();
        let result = searcher.search(&record, &Limits::depth(p.depth), &control, &mut |_| {});
        let time = started.elapsed();
        let best = result
            .best_move
            .map(|m| G::move_text(&start, &m, MoveStyle::Hub))
            .unwrap_or_else(|| "none".into());
        let line = format!(
            "{:<14} depth {:>2} nodes {:>10} time {:>7.3} best {:<8} score {:<7} {}",
            p.variant,
            p.depth,
            result.nodes,
            time.as_secs_f64(),
            best,
            result.score.to_string(),
            p.fen
        );
        Ok(Measured {
            nodes: result.nodes,
            time,
            line,
        })
    }
}

/// Runs `polydam bench`, writing its lines to `out`.
pub fn run_bench<W: Write>(hash_mib: usize, out: &mut W) -> Result<(), CliError> {
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
