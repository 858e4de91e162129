//! `polydam selfplay`: games of the engine against itself, written as training data (see
//! `docs/training.md` and [`polydam_engine::learn::data`]).
//!
//! Each game starts from a varied opening (a book line, then random legal plies), and every
//! later move is the engine's best move at a fixed depth or node count, searched with one
//! thread and a fresh table. A game's randomness comes only from a seed derived from
//! (`--seed`, game index), so the output depends on the options alone, never on the thread
//! scheduling: games run in parallel (one per thread) and are written in game order.
//!
//! Kept are the quiet positions the engine searched: neither the side to move nor the other
//! side has a capture (`Game::has_capture` and `Game::capture_threat`). A game ends by the
//! record's rules (no move, a decided position, repetition, the quiet-move and endgame
//! counters), or is adjudicated a draw after `--max-plies` plies.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use polydam_engine::game::{Duplicates, Game, Outcome, Side};
use polydam_engine::learn::data::DataLine;
use polydam_engine::record::GameRecord;
use polydam_engine::search::{Limits, SearchControl, Searcher};
use polydam_engine::variants::{dispatch, GameVisitor};
use polydam_tables::zobrist::splitmix64;
use rayon::prelude::*;

use super::CliError;
use crate::openings::{parse_book, Opening, Random};

/// The stack of each game thread (the search recurses; as the Hub driver's search thread).
const GAME_STACK: usize = 16 << 20;

/// Games played in parallel before their positions are written (bounds the memory held).
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
    /// The data file to write (replaced if it exists).
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

/// The seed of game `index` of a run seeded with `seed`.
fn game_seed(seed: u64, index: usize) -> u64 {
    let (_, run) = splitmix64(seed);
    splitmix64(run ^ (index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)).1
}

/// What one game produced.
struct GameOutput {
    /// The kept positions, results filled in.
    lines: Vec<DataLine>,
    /// Plies played, the opening included.
    plies: usize,
    /// The result from White's point of view.
    white: Outcome,
}

/// What a game keeps of a searched position until the result is known.
struct Pending {
    position: String,
    side: Side,
    score: i32,
    ply: u32,
}

/// Plays `plies` random legal plies from `opening`; retries with the next random numbers when
/// the game ends on the way.
fn opening_record<G: Game>(
    opening: Option<&Opening<G>>,
    plies: usize,
    rng: &mut Random,
) -> Result<GameRecord<G>, CliError> {
    let mut moves = Vec::new();
    for _ in 0..1000 {
        let mut record = match opening {
            Some(o) => {
                let mut r = GameRecord::<G>::new(o.start);
                for mv in &o.moves {
                    r.push(*mv);
                }
                r
            }
            None => GameRecord::<G>::new(G::start()),
        };
        let mut played = 0;
        while played < plies && record.outcome().is_none() {
            G::generate(record.current(), Duplicates::Drop, &mut moves);
            record.push(moves[rng.below(moves.len())]);
            played += 1;
        }
        if record.outcome().is_none() {
            return Ok(record);
        }
    }
    Err(CliError(format!(
        "found no opening of {plies} random plies that leaves the game open"
    )))
}

/// Plays game `index`.
fn play_game<G: Game>(
    o: &SelfplayOptions,
    limits: &Limits,
    openings: &[Opening<G>],
    index: usize,
) -> Result<GameOutput, CliError> {
    let mut rng = Random(game_seed(o.seed, index));
    let opening = (!openings.is_empty()).then(|| &openings[index % openings.len()]);
    let mut record = opening_record(opening, o.random_plies, &mut rng)?;
    let mut searcher = Searcher::<G>::new(o.hash, 1);
    let control = SearchControl::new();
    let mut pending = Vec::new();
    // The result from the point of view of the side to move in the last position.
    let (last_side, outcome) = loop {
        let pos = *record.current();
        if let Some((outcome, _)) = record.outcome() {
            break (G::side_to_move(&pos), outcome);
        }
        if record.moves().len() >= o.max_plies {
            break (G::side_to_move(&pos), Outcome::Draw);
        }
        control.reset(false);
        let result = searcher.search(&record, limits, &control, &mut |_| {});
        let Some(best) = result.best_move else {
            // Not reached: a position with no move is an outcome above.
            break (G::side_to_move(&pos), G::no_move_outcome(&pos));
        };
        if !G::has_capture(&pos) && !G::capture_threat(&pos) {
            pending.push(Pending {
                position: G::fen(&pos),
                side: G::side_to_move(&pos),
                score: result.score.centi(),
                ply: record.moves().len() as u32,
            });
        }
        record.push(best);
    };
    let flip = |o: Outcome| match o {
        Outcome::Win => Outcome::Loss,
        Outcome::Loss => Outcome::Win,
        Outcome::Draw => Outcome::Draw,
    };
    let for_side = |side: Side| {
        if side == last_side {
            outcome
        } else {
            flip(outcome)
        }
    };
    let lines = pending
        .into_iter()
        .map(|p| DataLine {
            position: p.position,
            result: for_side(p.side),
            score: p.score,
            ply: p.ply,
        })
        .collect();
    Ok(GameOutput {
        lines,
        plies: record.moves().len(),
        white: for_side(Side::White),
    })
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
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    CliError(format!("cannot read the book {}: {e}", path.display()))
                })?;
                parse_book::<G>(&text)?
            }
            None => Vec::new(),
        };
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
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(o.threads)
            .stack_size(GAME_STACK)
            .thread_name(|i| format!("selfplay-{i}"))
            .build()
            .map_err(|e| CliError(format!("cannot start the game threads: {e}")))?;

        let io = |e: std::io::Error| CliError(format!("cannot write {}: {e}", o.output.display()));
        let file = std::fs::File::create(&o.output).map_err(io)?;
        let mut file = std::io::BufWriter::new(file);
        writeln!(
            file,
            "# polydam selfplay variant={} seed={} games={} depth={} nodes={} random-plies={} \
             book={} max-plies={}",
            G::NAME,
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

        let started = Instant::now();
        let mut totals = Totals::default();
        let mut first = 0;
        while first < o.games {
            let last = (first + BLOCK).min(o.games);
            let games: Vec<Result<GameOutput, CliError>> = pool.install(|| {
                (first..last)
                    .into_par_iter()
                    .map(|i| {
                        let game = play_game::<G>(o, &limits, &openings, i);
                        bar.inc(1);
                        game
                    })
                    .collect()
            });
            for game in games {
                let game = game?;
                for line in &game.lines {
                    writeln!(file, "{line}").map_err(io)?;
                }
                totals.games += 1;
                totals.positions += game.lines.len();
                totals.plies += game.plies;
                totals.wdl[match game.white {
                    Outcome::Win => 0,
                    Outcome::Draw => 1,
                    Outcome::Loss => 2,
                }] += 1;
            }
            bar.set_message(format!("{} positions", totals.positions));
            first = last;
        }
        file.flush().map_err(io)?;
        bar.finish_and_clear();

        let secs = started.elapsed().as_secs_f64();
        let rate = |n: usize| if secs > 0.0 { n as f64 / secs } else { 0.0 };
        let out_err = |e: std::io::Error| CliError(format!("cannot write output: {e}"));
        let out = self.out;
        writeln!(
            out,
            "games {} white-wins {} draws {} black-wins {} plies {}",
            totals.games, totals.wdl[0], totals.wdl[1], totals.wdl[2], totals.plies
        )
        .map_err(out_err)?;
        writeln!(
            out,
            "positions {} time {secs:.3} positions/s {:.0} games/s {:.2}",
            totals.positions,
            rate(totals.positions),
            rate(totals.games)
        )
        .map_err(out_err)?;
        writeln!(out, "output {}", o.output.display()).map_err(out_err)?;
        Ok(())
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
    dispatch(
        &opts.variant,
        SelfplayJob {
            opts,
            out: &mut *out,
        },
    )?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_seeds_differ_by_game_and_run() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
    }
}
