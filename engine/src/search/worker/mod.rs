//! One search thread: iterative deepening, the alpha-beta search, quiescence and move ordering.
//!
//! Every thread of a Lazy SMP search runs this same code on the same root and shares only the
//! transposition table: the threads drift apart through timing and through helpers skipping
//! some iterations, and what one learns, the others find in the table.
//!
//! - [`iterate`]: iterative deepening with aspiration windows, and the root's move loop;
//! - [`node`]: the alpha-beta search of the other nodes, and quiescence;
//! - [`ordering`]: the move-ordering statistics and the order moves are searched in;
//! - [`pruning`]: the pruning and reduction decisions of a node.

mod iterate;
mod node;
mod ordering;
mod pruning;

use std::sync::atomic::Ordering;

use super::tt::TranspositionTable;
use super::{Clockwork, Shared};
use crate::egtb::probe::TableProbe;
use crate::game::{Game, Outcome};
use crate::record::{DrawCounters, GameRecord};
use crate::score::{Ply, Score, MAX_PLY};
pub(crate) use ordering::Heuristics;
use pruning::reduction;

/// How often (in nodes) a thread publishes its node count and checks the clock and the stop
/// flags. 1024 nodes take well under a millisecond, so a stop is honoured within a few.
const POLL_INTERVAL: u64 = 1024;

/// The score of a finished game `ply` plies from the root, from the side to move's view.
#[inline]
pub(crate) fn outcome_score(outcome: Outcome, ply: Ply) -> Score {
    match outcome {
        Outcome::Win => Score::win_in(ply),
        Outcome::Loss => Score::loss_in(ply),
        Outcome::Draw => Score::DRAW,
    }
}

/// Per-ply scratch space.
struct Frame<G: Game> {
    moves: Vec<G::Move>,
    order: Vec<i32>,
    /// Scores and indices of the moves left once selection gives way to sorting (move lists
    /// are far shorter than the 65536 entries the packing allows).
    rest: Vec<i64>,
    pv: Vec<G::Move>,
    /// The draw counters of the position at this ply (the repetition window, the quiet-move
    /// rule and the endgame counter), kept by the game record's own rules.
    draw: DrawCounters,
}

impl<G: Game> Frame<G> {
    fn new() -> Self {
        Frame {
            moves: Vec::with_capacity(64),
            order: Vec::with_capacity(64),
            rest: Vec::with_capacity(64),
            pv: Vec::with_capacity(MAX_PLY),
            draw: DrawCounters::default(),
        }
    }
}

/// A root move with its scores, for ordering the next iteration.
struct RootMove<G: Game> {
    mv: G::Move,
    /// Index in the root's legal move list (what the table stores).
    index: u8,
    score: Score,
    previous: Score,
}

// Written by hand: a derive would demand `G: Copy` of the family marker type.
impl<G: Game> Clone for RootMove<G> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<G: Game> Copy for RootMove<G> {}

/// One search thread.
pub(crate) struct Worker<'a, G: Game> {
    id: usize,
    tt: &'a TranspositionTable,
    tables: Option<&'a dyn TableProbe<G>>,
    table_hits: u64,
    shared: &'a Shared,
    clock: &'a Clockwork<'a>,
    heur: &'a mut Heuristics<G>,
    root_pos: G::Position,
    root_moves: Vec<RootMove<G>>,
    /// The root move being searched for its own line in a multi-PV search: the root's loop
    /// starts there, the better moves already having their lines (always 0 with one line).
    pv_index: usize,
    frames: Vec<Frame<G>>,
    /// Keys of the game's positions since the last irreversible move, then of the search path:
    /// `keys[base + ply]` is the key at `ply`.
    keys: Vec<u64>,
    base: usize,
    nodes: u64,
    next_poll: u64,
    node_limit: u64,
    stopped: bool,
    seldepth: u32,
    leaf_plies: u64,
    leaves: u64,
    lmr: [[u8; 64]; 64],
}

impl<G: Game> Drop for Worker<'_, G> {
    fn drop(&mut self) {
        self.heur.frames = std::mem::take(&mut self.frames);
    }
}

impl<'a, G: Game> Worker<'a, G> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: usize,
        tt: &'a TranspositionTable,
        tables: Option<&'a dyn TableProbe<G>>,
        shared: &'a Shared,
        clock: &'a Clockwork<'a>,
        heur: &'a mut Heuristics<G>,
        record: &GameRecord<G>,
        history: &[u64],
        moves: Vec<G::Move>,
    ) -> Self {
        heur.clear();
        let root_pos = *record.current();
        let root_moves = moves
            .iter()
            .enumerate()
            .map(|(i, m)| RootMove {
                mv: *m,
                index: i.min(255) as u8,
                score: -Score::INFINITE,
                previous: -Score::INFINITE,
            })
            .collect();
        let mut frames = std::mem::take(&mut heur.frames);
        if frames.len() < MAX_PLY + 2 {
            frames = (0..MAX_PLY + 2).map(|_| Frame::new()).collect();
        }
        frames[0].draw = record.draw_counters();
        let mut keys = history.to_vec();
        if keys.last() != Some(&G::hash(&root_pos)) {
            keys.push(G::hash(&root_pos));
        }
        let base = keys.len() - 1;
        keys.resize(base + MAX_PLY + 2, 0);
        // With one thread the node limit is exact (deterministic); with several it is checked
        // on the shared total.
        let node_limit = match clock.limits.nodes {
            Some(n) if shared.nodes.len() == 1 => n,
            _ => u64::MAX,
        };
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                *r = reduction(d as i32, n) as u8;
            }
        }
        Worker {
            id,
            tt,
            tables,
            table_hits: 0,
            shared,
            clock,
            heur,
            root_pos,
            root_moves,
            pv_index: 0,
            frames,
            keys,
            base,
            nodes: 0,
            next_poll: POLL_INTERVAL.min(node_limit),
            node_limit,
            stopped: false,
            seldepth: 0,
            leaf_plies: 0,
            leaves: 0,
            lmr,
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Publishes the node count and checks every reason to stop.
    #[cold]
    fn poll(&mut self) {
        // The exact node limit (one thread) is checked here too, so that counting a node
        // costs one comparison.
        self.next_poll = (self.nodes + POLL_INTERVAL).min(self.node_limit);
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        self.shared.nodes[self.id]
            .0
            .store(self.nodes, Ordering::Relaxed);
        self.publish_table_hits();
        if self.shared.halt.load(Ordering::Relaxed) || self.clock.control.is_stopped() {
            self.stopped = true;
            return;
        }
        // Every thread reads the clock, not only the main one: with more threads than cores
        // the main thread may wait for the scheduler for many milliseconds, and helpers
        // waiting for its word would overrun the time limit (256 threads on 2 cores
        // answered a 0.1 s move after 0.8-2 s). Reading the clock every 1024 nodes is free.
        let over_nodes = self.is_main()
            && match self.clock.limits.nodes {
                Some(n) => self.shared.total_nodes() >= n,
                None => false,
            };
        if over_nodes || self.clock.hard_limit_reached() {
            self.stopped = true;
            self.shared.halt.store(true, Ordering::SeqCst);
        }
    }

    /// Adds this thread's table hits since the last call to the shared count.
    fn publish_table_hits(&mut self) {
        if self.table_hits > 0 {
            self.shared
                .table_hits
                .fetch_add(self.table_hits, Ordering::Relaxed);
            self.table_hits = 0;
        }
    }

    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
    }

    /// `frames[ply].pv = mv + frames[ply + 1].pv`.
    #[inline]
    fn update_pv(&mut self, ply: Ply, mv: G::Move) {
        let (head, tail) = self.frames.split_at_mut(ply.index() + 1);
        let pv = &mut head[ply.index()].pv;
        pv.clear();
        pv.push(mv);
        pv.extend_from_slice(&tail[0].pv);
    }

    /// Sets up the child frame's draw counters and key for `child` reached by `mv` from `pos`
    /// at `ply`.
    #[inline]
    fn enter_child(&mut self, pos: &G::Position, mv: &G::Move, child: &G::Position, ply: Ply) {
        let p = ply.index();
        // The game record's rules, so that the search and a referee agree on every draw.
        self.frames[p + 1].draw = self.frames[p].draw.after::<G>(pos, mv, child);
        self.keys[self.base + p + 1] = G::hash(child);
    }

    /// Whether the position at `ply` is drawn by repetition (with the path or the game), by
    /// the quiet-move rule or by the endgame counter. The caller has checked that the side to
    /// move has a move (a repeated position always has one).
    #[inline]
    fn is_rule_draw(&self, ply: Ply) -> bool {
        let here = self.base + ply.index();
        // A repetition inside the search path (the root included) is a draw at once: the side
        // that repeated could have deviated, so score it as the draw it can force. Earlier
        // game positions need the variant's full count, as in the record.
        self.frames[ply.index()]
            .draw
            .verdict::<G>(&self.keys[..=here], self.base)
            .is_some()
    }

    /// The position after `mv`, its table bucket already on its way: for a child that
    /// probes the table (not a quiescence node), the miss costs as much as the rest of the
    /// node unless it is started early.
    #[inline(always)]
    fn play_prefetching(&self, pos: &G::Position, mv: &G::Move) -> G::Position {
        let child = G::play(pos, mv);
        self.tt.prefetch(G::hash(&child));
        child
    }
}

#[cfg(test)]
mod tests {
    //! The search's draw verdict against the game record's, in variants whose draw rules
    //! differ: a search rooted anywhere in a game must call a child drawn exactly when the
    //! record (and so the match referee) would.

    use std::sync::atomic::AtomicBool;
    use std::time::Instant;

    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::diagonal::rules::{English, International, Italian, Russian};
    use crate::diagonal::Diagonal;
    use crate::orthogonal::rules::Turkish;
    use crate::orthogonal::Orthogonal;
    use crate::record::EndReason;
    use crate::search::{legal_moves, Limits, PaddedCounter, SearchControl};

    /// The draws seen, by rule: repetition, quiet moves, endgame counter.
    type Seen = [usize; 3];

    fn rule_index(reason: EndReason) -> Option<usize> {
        match reason {
            EndReason::Repetition => Some(0),
            EndReason::QuietMoves => Some(1),
            EndReason::EndgameCounter => Some(2),
            EndReason::NoMoves | EndReason::Decided => None,
        }
    }

    /// Plays `games` random games from `starts` (FENs, or "start"), each until the record ends
    /// it (or for at most 400 plies). At every ply, a worker is rooted at the current position
    /// with the game behind it (as `Searcher::search` roots it), enters every legal move, and
    /// must agree with the record after that move: same counters, and a rule draw exactly when
    /// the record calls one. The moves are chosen to reach the draw rules: one game in three
    /// seeks repetitions, the others prefer reversible moves that neither repeat nor hand the
    /// opponent a capture (running the move counters up).
    fn agree<G: Game>(starts: &[&str], games: usize, seed: u64) -> Seen {
        let tt = TranspositionTable::new(1);
        let shared = Shared {
            halt: AtomicBool::new(false),
            nodes: vec![PaddedCounter::default()],
            table_hits: std::sync::atomic::AtomicU64::new(0),
            root_table: None,
        };
        let control = SearchControl::new();
        let clock = Clockwork {
            control: &control,
            limits: Limits::depth(1),
            started: Instant::now(),
            budget: None,
            previous_score: None,
        };
        let mut heur = Heuristics::<G>::new();
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut seen = [0; 3];
        for game in 0..games {
            let fen = starts[game % starts.len()];
            let start = if fen == "start" {
                G::start()
            } else {
                G::parse_position(fen).expect("test position parses")
            };
            let seek_repetitions = game % 3 == 0;
            let mut record = GameRecord::<G>::new(start);
            while record.outcome().is_none() && record.moves().len() < 400 {
                let pos = *record.current();
                let moves = legal_moves::<G>(&pos);
                let history = record.reversible_hashes();
                let mut worker = Worker::new(
                    0,
                    &tt,
                    None,
                    &shared,
                    &clock,
                    &mut heur,
                    &record,
                    &history,
                    moves.clone(),
                );
                let mut repeating = Vec::new();
                let mut returning = Vec::new();
                let mut quiet = Vec::new();
                let mut reversible = Vec::new();
                for mv in &moves {
                    let child = G::play(&pos, mv);
                    worker.enter_child(&pos, mv, &child, Ply::ROOT);
                    // The tests `search` makes before `is_rule_draw`, in its order.
                    let search_draw = G::decided(&child).is_none()
                        && worker.is_rule_draw(Ply(1))
                        && G::has_move(&child);
                    record.push(*mv);
                    let record_draw = match record.outcome() {
                        Some((Outcome::Draw, reason)) => rule_index(reason),
                        _ => None,
                    };
                    let counters = record.draw_counters();
                    let repeats = record.repetitions() > 1;
                    record.pop();
                    let context = || {
                        format!(
                            "{}: {} after {:?}, game {game}",
                            G::NAME,
                            G::fen(&pos),
                            record.moves()
                        )
                    };
                    assert_eq!(worker.frames[1].draw, counters, "{}", context());
                    assert_eq!(search_draw, record_draw.is_some(), "{}", context());
                    if let Some(i) = record_draw {
                        seen[i] += 1;
                    }
                    if repeats {
                        repeating.push(*mv);
                    } else if !G::is_irreversible(&pos, mv) {
                        reversible.push(*mv);
                        // A move the opponent can answer by going back to a position of the
                        // game: how repetitions start.
                        if seek_repetitions
                            && legal_moves::<G>(&child).iter().any(|r| {
                                !G::is_irreversible(&child, r)
                                    && history.contains(&G::hash(&G::play(&child, r)))
                            })
                        {
                            returning.push(*mv);
                        }
                        if !G::has_capture(&child) {
                            quiet.push(*mv);
                        }
                    }
                }
                drop(worker);
                let pool = if seek_repetitions && !repeating.is_empty() && rng.gen_bool(0.8) {
                    &repeating
                } else if !returning.is_empty() && rng.gen_bool(0.8) {
                    &returning
                } else if !quiet.is_empty() && rng.gen_bool(0.95) {
                    &quiet
                } else if !reversible.is_empty() && rng.gen_bool(0.5) {
                    &reversible
                } else {
                    &moves
                };
                record.push(pool[rng.gen_range(0..pool.len())]);
            }
        }
        seen
    }

    #[test]
    fn the_search_and_the_game_record_agree_on_every_draw() {
        // International: threefold repetition, 25 moves each, the 16- and 5-move endgames.
        let seen = agree::<Diagonal<International>>(
            &[
                "start",
                "W:WK46,K50:BK3",
                "W:WK46,K47,K50:BK3",
                "W:WK46,K47,K48:BK1,K2,K3",
                "W:WK47,31,33,38,39:B8,13,K45,19,16",
            ],
            40,
            1,
        );
        assert!(seen.iter().all(|&n| n > 0), "International: {seen:?}");
        // Russian: threefold, 15 moves each; English: threefold, 40 moves each; Italian:
        // fourfold, 40 moves each. No endgame counters.
        for (name, seen) in [
            (
                "Russian",
                agree::<Diagonal<Russian>>(&["start", "W:WK29,K30:BK1,K2"], 30, 2),
            ),
            (
                "English",
                agree::<Diagonal<English>>(&["start", "B:WK29,K30:BK1,K2"], 30, 3),
            ),
            (
                "Italian",
                agree::<Diagonal<Italian>>(&["start", "W:WK29,K32:BK4,K1"], 30, 4),
            ),
        ] {
            assert!(
                seen[0] > 0 && seen[1] > 0 && seen[2] == 0,
                "{name}: {seen:?}"
            );
        }
        // Turkish: threefold repetition only (one piece each is decided, not a rule draw).
        let seen = agree::<Orthogonal<Turkish>>(&["start", "W:WKa1,Kh1:BKa8,Kh8"], 30, 5);
        assert!(
            seen[0] > 0 && seen[1] == 0 && seen[2] == 0,
            "Turkish: {seen:?}"
        );
    }
}
