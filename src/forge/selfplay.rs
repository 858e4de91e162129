//! Self-play games: the engine against itself from varied openings, each searched position
//! kept as training data (see `docs/training.md` and [`super::data`]). `polydam selfplay` is
//! its front-end.
//!
//! Each game starts from a varied opening (a book line, then random legal plies), and every
//! later move is the engine's best move at a fixed depth or node count, searched with one
//! thread and a fresh table. A game's randomness comes only from a seed derived from the
//! run's seed and the game's index, so a run depends on its options alone, never on the
//! thread scheduling.
//!
//! Kept are the quiet positions the engine searched: neither the side to move nor the other
//! side has a capture (`Game::has_capture` and `Game::capture_threat`). A game ends by the
//! record's rules (no move, a decided position, repetition, the quiet-move and endgame
//! counters), or is adjudicated a draw after the spec's `max_plies`.

use std::fmt;

use polydam_engine::game::{Duplicates, Game, Outcome, Side};
use polydam_engine::record::GameRecord;
use polydam_engine::search::{Limits, SearchControl, Searcher};
use polydam_tables::zobrist::splitmix64;

use super::data::DataLine;
use crate::openings::{Opening, Random};

/// Why a game could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfplayError(pub String);

impl fmt::Display for SelfplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SelfplayError {}

/// The seed of game `index` of a run seeded with `seed`.
pub fn game_seed(seed: u64, index: usize) -> u64 {
    let (_, run) = splitmix64(seed);
    splitmix64(run ^ (index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)).1
}

/// What one game produced.
pub struct GameOutput {
    /// The kept positions, results filled in.
    pub lines: Vec<DataLine>,
    /// Plies played, the opening included.
    pub plies: usize,
    /// The result from White's point of view.
    pub white: Outcome,
}

/// How the games of a run are played.
#[derive(Clone, Copy, Debug)]
pub struct GameSpec<'a> {
    /// The run's seed: game i's randomness comes from (seed, i) alone.
    pub seed: u64,
    /// Random legal plies after the opening.
    pub random_plies: usize,
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
    /// Transposition table per game, in MiB.
    pub hash_mib: usize,
    /// The search of every move.
    pub limits: &'a Limits,
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
) -> Result<GameRecord<G>, SelfplayError> {
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
    Err(SelfplayError(format!(
        "found no opening of {plies} random plies that leaves the game open"
    )))
}

/// Plays game `index` of a run: the opening (book line `index`, cycling, then random plies),
/// then the engine's best move at the spec's limits until the game ends.
pub fn play_game<G: Game>(
    o: &GameSpec,
    openings: &[Opening<G>],
    index: usize,
) -> Result<GameOutput, SelfplayError> {
    let limits = o.limits;
    let mut rng = Random(game_seed(o.seed, index));
    let opening = (!openings.is_empty()).then(|| &openings[index % openings.len()]);
    let mut record = opening_record(opening, o.random_plies, &mut rng)?;
    let mut searcher = Searcher::<G>::new(o.hash_mib, 1);
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
    Ok(game_output(
        pending,
        (last_side, outcome),
        record.moves().len(),
    ))
}

/// The data lines of a game of `plies` plies that ended with `outcome` for `last_side` (the
/// side to move in its last position), from the positions kept while it was played.
fn game_output(
    pending: Vec<Pending>,
    (last_side, outcome): (Side, Outcome),
    plies: usize,
) -> GameOutput {
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
    GameOutput {
        lines,
        plies,
        white: for_side(Side::White),
    }
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
