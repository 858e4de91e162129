//! The search: iterative deepening alpha-beta (PVS with aspiration windows, quiescence over
//! captures and capture threats, late-move reductions) over a lock-free transposition table,
//! with Lazy SMP on scoped threads. Generic over [`Game`]: every family is searched by the same
//! code, which knows nothing about boards.
//!
//! ```
//! use polydam_engine::diagonal::{rules::Russian, Diagonal};
//! use polydam_engine::game::Game;
//! use polydam_engine::record::GameRecord;
//! use polydam_engine::search::{Limits, SearchControl, Searcher};
//!
//! type Russian8 = Diagonal<Russian>;
//! let mut searcher = Searcher::<Russian8>::new(16, 1);
//! let record = GameRecord::new(Russian8::start());
//! let control = SearchControl::new();
//! let result = searcher.search(&record, &Limits::depth(6), &control, &mut |_info| {});
//! let best = result.best_move.expect("the start position has moves");
//! assert!(result.pv.first() == Some(&best));
//! ```

mod level;
mod limits;
mod memory;
mod threads;
mod tt;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use crate::score::{Depth, Ply, Score, MAX_PLY};
pub use level::{level_name, level_plan, mix_seed, LevelPlan, MAX_LEVEL};
pub use limits::{Clock, Limits, SearchControl};
pub use memory::{
    available_memory, check_hash_mib, hash_limit_mib, max_hash_mib, HashError, AVAILABLE_MEMORY_ENV,
};
pub use tt::{Bound, TranspositionTable, TtHit};

use crate::egtb::probe::{RootTable, TableProbe};
use crate::game::{Duplicates, Game, MoveStyle, Side};
use crate::record::GameRecord;
use limits::TimeBudget;
use worker::{Heuristics, Worker};

/// One line of a multi-PV search (see [`Limits::multipv`]): a root move's score and its
/// principal variation, which starts with that move.
#[derive(Debug)]
pub struct PvLine<G: Game> {
    /// The score after the line's first move, from the side to move's view.
    pub score: Score,
    /// The line: a legal line from the root.
    pub pv: Vec<G::Move>,
}

// Written by hand: a derive would demand `G: Clone` of the family marker type.
impl<G: Game> Clone for PvLine<G> {
    fn clone(&self) -> Self {
        PvLine {
            score: self.score,
            pv: self.pv.clone(),
        }
    }
}

/// Progress of a search, reported after every completed iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo<G: Game> {
    /// The completed iteration's nominal depth.
    pub depth: Depth,
    /// Mean distance from the root of the positions where the main thread's iteration reached
    /// the horizon (below the nominal depth where moves were reduced, above it with
    /// extensions).
    pub mean_depth: f64,
    /// The deepest ply reached, quiescence included.
    pub seldepth: Ply,
    /// Score of the best move, from the side to move's view.
    pub score: Score,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Nodes per second.
    pub nps: f64,
    /// Principal variation: a legal line from the root.
    pub pv: Vec<G::Move>,
    /// The best root moves with their lines, best first: as many as [`Limits::multipv`]
    /// asks (fewer when the root has fewer moves); the first is `score` and `pv`.
    pub lines: Vec<PvLine<G>>,
    /// Nodes scored by the endgame tables, all threads.
    pub table_hits: u64,
    /// What the endgame tables say of the root, when they cover it.
    pub root_table: Option<RootTable>,
}

/// The figures of a [`SearchInfo`] without its moves, in a type that is not generic in the
/// game: what reports print, so that their code is compiled once.
#[derive(Clone, Copy, Debug)]
pub struct IterationFigures {
    /// The iteration's depth.
    pub depth: Depth,
    /// The mean depth reached.
    pub mean_depth: f64,
    /// The deepest ply reached.
    pub seldepth: Ply,
    /// The score.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time spent so far.
    pub time: Duration,
    /// Nodes per second.
    pub nps: f64,
    /// Endgame table hits.
    pub table_hits: u64,
    /// The root's endgame table verdict, if any.
    pub root_table: Option<RootTable>,
}

impl<G: Game> SearchInfo<G> {
    /// The iteration's figures, without the principal variation.
    pub fn figures(&self) -> IterationFigures {
        IterationFigures {
            depth: self.depth,
            mean_depth: self.mean_depth,
            seldepth: self.seldepth,
            score: self.score,
            nodes: self.nodes,
            time: self.time,
            nps: self.nps,
            table_hits: self.table_hits,
            root_table: self.root_table,
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<G: Game> {
    /// The move to play; `None` only when the root has no legal move (or the game is over).
    pub best_move: Option<G::Move>,
    /// The expected reply, if known.
    pub ponder_move: Option<G::Move>,
    /// Score of the best move, from the side to move's view.
    pub score: Score,
    /// Depth of the last completed iteration (0 when none completed).
    pub depth: Depth,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// Principal variation, starting with `best_move`: a legal line from the root.
    pub pv: Vec<G::Move>,
    /// The best root moves with their lines, best first (see [`SearchInfo::lines`]); the
    /// first is `best_move`'s, `score` and `pv`. Empty when there is no legal move.
    pub lines: Vec<PvLine<G>>,
    /// Nodes scored by the endgame tables, all threads.
    pub table_hits: u64,
    /// What the endgame tables say of the root, when they cover it.
    pub root_table: Option<RootTable>,
}

/// The legal-move list of `pos` as the search plays (duplicate capture paths dropped).
fn legal_moves<G: Game>(pos: &G::Position) -> Vec<G::Move> {
    let mut moves = Vec::new();
    if G::decided(pos).is_none() {
        G::generate(pos, Duplicates::Drop, &mut moves);
    }
    moves
}

/// The longest prefix of `pv` that is a legal line from `root`.
pub fn legal_prefix<G: Game>(root: &G::Position, pv: &[G::Move]) -> Vec<G::Move> {
    let mut pos = *root;
    let mut out = Vec::with_capacity(pv.len());
    for mv in pv {
        if !legal_moves::<G>(&pos).contains(mv) {
            break;
        }
        out.push(*mv);
        pos = G::play(&pos, mv);
    }
    out
}

/// The moves of `pv` in text form, space-separated, each written in the position it is played
/// from.
pub fn pv_text<G: Game>(root: &G::Position, pv: &[G::Move], style: MoveStyle) -> String {
    let mut pos = *root;
    let mut words = Vec::with_capacity(pv.len());
    for mv in pv {
        words.push(G::move_text(&pos, mv, style));
        pos = G::play(&pos, mv);
    }
    words.join(" ")
}

/// State shared by the threads of one search.
pub(crate) struct Shared {
    /// Set by the main thread when a limit is reached, to stop the helpers.
    pub halt: AtomicBool,
    /// Nodes of each thread, published every few hundred nodes.
    pub nodes: Vec<PaddedCounter>,
    /// Nodes scored by the endgame tables, all threads (published with the nodes).
    pub table_hits: AtomicU64,
    /// What the endgame tables say of the root.
    pub root_table: Option<RootTable>,
}

/// A counter on its own cache line, so that threads publishing their counts do not slow
/// each other down.
#[repr(align(64))]
#[derive(Default)]
pub(crate) struct PaddedCounter(pub AtomicU64);

impl Shared {
    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|c| c.0.load(Ordering::Relaxed)).sum()
    }
}

/// What the main thread needs to decide when to stop.
pub(crate) struct Clockwork<'a> {
    pub control: &'a SearchControl,
    pub limits: Limits,
    pub started: Instant,
    /// `None` when no time limit applies (or while pondering).
    pub budget: Option<TimeBudget>,
    /// The score of this searcher's previous timed search, when it was for the same side to
    /// move: a score falling below it asks for more time.
    pub previous_score: Option<Score>,
}

impl Clockwork<'_> {
    /// The instant the clock runs from: the start, or the ponder hit.
    fn clock_start(&self) -> Instant {
        self.control.ponder_hit_time().unwrap_or(self.started)
    }

    /// Whether time is up (hard limit). Never true while pondering.
    pub fn hard_limit_reached(&self) -> bool {
        match self.budget {
            Some(b) if !self.control.is_pondering() => self.clock_start().elapsed() >= b.hard,
            _ => false,
        }
    }

    /// Whether starting another iteration is not worth it (soft limit), when the search's
    /// stability asks for `scale` times the usual time.
    pub fn soft_limit_reached(&self, scale: f64) -> bool {
        match self.budget {
            Some(b) if !self.control.is_pondering() => {
                self.clock_start().elapsed() >= b.soft(scale)
            }
            _ => false,
        }
    }
}

/// A searcher for the game `G`: owns the transposition table and the per-thread move-ordering
/// statistics, and runs searches on the calling thread plus `threads - 1` helpers.
pub struct Searcher<G: Game> {
    tt: Arc<TranspositionTable>,
    threads: usize,
    heuristics: Vec<Heuristics<G>>,
    /// What a timed move costs besides its thinking (starting and joining the threads,
    /// overshooting the deadline), measured on the previous moves; the time manager sets it
    /// aside for every move still to play.
    move_cost: Duration,
    /// The side to move and score of the last timed search, for the time manager.
    last_score: Option<(Side, Score)>,
    /// The pieces of the start position, for the time manager's idea of the game's progress.
    start_pieces: Option<u32>,
    /// Endgame tables, probed at the nodes they cover.
    tables: Option<Arc<dyn TableProbe<G>>>,
}

impl<G: Game> std::fmt::Debug for Searcher<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("game", &G::NAME)
            .field("tt", &self.tt)
            .field("threads", &self.threads)
            .finish()
    }
}

impl<G: Game> Searcher<G> {
    /// A searcher with a table of `hash_mib` MiB and `threads` search threads (at least 1).
    ///
    /// # Panics
    ///
    /// If the table cannot be allocated; sizes that come from a user go through
    /// [`Searcher::try_new`] instead.
    pub fn new(hash_mib: usize, threads: usize) -> Searcher<G> {
        match Searcher::try_new(hash_mib, threads) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        }
    }

    /// A searcher with a table of `hash_mib` MiB and `threads` search threads (at least 1), or
    /// the reason the table cannot be had (more than this machine can give now).
    pub fn try_new(hash_mib: usize, threads: usize) -> Result<Searcher<G>, HashError> {
        let tt = TranspositionTable::try_new(hash_mib)?;
        let threads = threads.max(1);
        Ok(Searcher {
            tt: Arc::new(tt),
            threads,
            heuristics: (0..threads).map(|_| Heuristics::new()).collect(),
            move_cost: Duration::ZERO,
            last_score: None,
            start_pieces: G::board_pieces(&G::start()),
            tables: None,
        })
    }

    /// Replaces the table by an empty one of `hash_mib` MiB.
    ///
    /// # Panics
    ///
    /// If the table cannot be allocated (see [`Searcher::try_resize_hash`]).
    pub fn resize_hash(&mut self, hash_mib: usize) {
        if let Err(e) = self.try_resize_hash(hash_mib) {
            panic!("{e}");
        }
    }

    /// Replaces the table by an empty one of `hash_mib` MiB; when that cannot be had, keeps
    /// the current table (and its contents) and says why. The new table is allocated while
    /// the old one still exists, so it must fit beside it.
    pub fn try_resize_hash(&mut self, hash_mib: usize) -> Result<(), HashError> {
        self.tt = Arc::new(TranspositionTable::try_new(hash_mib)?);
        Ok(())
    }

    /// Sets the number of search threads (at least 1).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.heuristics.resize_with(self.threads, Heuristics::new);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// What a timed move has cost besides its thinking, as measured so far (a moving average
    /// that rises quickly and falls slowly).
    pub fn move_cost(&self) -> Duration {
        self.move_cost
    }

    /// Sets (or, with `None`, removes) the endgame tables the search probes.
    pub fn set_tables(&mut self, tables: Option<Arc<dyn TableProbe<G>>>) {
        self.tables = tables;
    }

    /// The endgame tables the search probes, if any.
    pub fn tables(&self) -> Option<&Arc<dyn TableProbe<G>>> {
        self.tables.as_ref()
    }

    /// The shared transposition table.
    pub fn tt(&self) -> &Arc<TranspositionTable> {
        &self.tt
    }

    /// Forgets everything learnt (a new game): empties the table and the move-ordering
    /// statistics. A search after `clear` behaves exactly like one by a new searcher.
    pub fn clear(&mut self) {
        self.last_score = None;
        self.tt.clear();
        for h in &mut self.heuristics {
            h.clear();
        }
    }

    /// Searches the current position of `root`, whose earlier positions count for repetitions
    /// and whose counters carry the variant's draw rules into the search.
    ///
    /// Returns when a limit is reached or `control` asks to stop. While `control` says the
    /// search is pondering, or with [`Limits::infinite`], it does not return before
    /// [`SearchControl::ponder_hit`] / [`SearchControl::stop`], even after finishing.
    /// `on_info` is called on this thread after every completed iteration.
    pub fn search(
        &mut self,
        root: &GameRecord<G>,
        limits: &Limits,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo<G>),
    ) -> SearchResult<G> {
        let started = Instant::now();
        let pos = *root.current();
        let mut moves = legal_moves::<G>(&pos);
        // Tables covering the root keep only the moves they prefer (see `egtb::probe`).
        let root_table = match &self.tables {
            Some(t) => t.root(&pos, &root.draw_counters(), &mut moves),
            None => None,
        };
        let side = G::side_to_move(&pos);
        let budget = TimeBudget::new(limits, self.move_cost, self.progress(&pos));
        let instant = budget.is_some_and(|b| b.instant) && !limits.infinite;
        let mut limits = *limits;
        if instant {
            // The clock is nearly empty: a two-ply search on this thread alone, which takes
            // microseconds, where starting the helpers alone would cost more.
            limits.depth = Some(limits.depth.unwrap_or(Depth(2)).min(Depth(2)));
        }
        let clockwork = Clockwork {
            control,
            limits,
            started,
            budget,
            previous_score: self
                .last_score
                .filter(|(s, _)| *s == side)
                .map(|(_, score)| score),
        };
        if let Some(result) = self.answer_at_once(root, &moves, &clockwork, root_table) {
            return result;
        }

        self.tt.new_search();
        let shared = Shared {
            halt: AtomicBool::new(false),
            nodes: (0..self.threads)
                .map(|_| PaddedCounter::default())
                .collect(),
            table_hits: AtomicU64::new(0),
            root_table,
        };
        let (outcomes, main_span) =
            self.run_threads(root, &moves, &shared, &clockwork, instant, on_info);
        // Instant answers are measured too: a cost that only a search could lower would keep
        // every later move instant after one slow move on a loaded machine.
        if let Some(b) = clockwork.budget {
            self.measure_move_cost(&clockwork, b, main_span);
        }
        let result = self.result_of(&pos, &moves, &outcomes, &shared, started);
        if clockwork.budget.is_some() {
            self.last_score = Some((side, result.score));
        }
        result
    }

    /// The answer that needs no search, if any: the root has no legal move (the game is over),
    /// or a single one in a timed game (not an analysis), with nothing to think about.
    fn answer_at_once(
        &self,
        root: &GameRecord<G>,
        moves: &[G::Move],
        clockwork: &Clockwork<'_>,
        root_table: Option<RootTable>,
    ) -> Option<SearchResult<G>> {
        let pos = *root.current();
        let limits = &clockwork.limits;
        let (best_move, score, pv) = if moves.is_empty() {
            let score = match G::decided(&pos) {
                Some(o) => worker::outcome_score(o, Ply::ROOT),
                None => worker::outcome_score(G::no_move_outcome(&pos), Ply::ROOT),
            };
            wait_for_release(clockwork);
            (None, score, Vec::new())
        } else if moves.len() == 1 && !limits.analyze && !limits.infinite && limits.is_timed() {
            wait_for_release(clockwork);
            let score = self
                .tables
                .as_ref()
                .and_then(|t| t.search_score(&pos, &root.draw_counters()))
                .unwrap_or_else(|| Score::from_eval(G::evaluate(&pos)));
            (Some(moves[0]), score, vec![moves[0]])
        } else {
            return None;
        };
        let lines = if pv.is_empty() {
            Vec::new()
        } else {
            vec![PvLine {
                score,
                pv: pv.clone(),
            }]
        };
        Some(SearchResult {
            best_move,
            ponder_move: best_move.and_then(|m| self.ponder_from_tt(&pos, &m)),
            score,
            depth: Depth::ZERO,
            nodes: 0,
            time: clockwork.started.elapsed(),
            pv,
            lines,
            table_hits: 0,
            root_table,
        })
    }

    /// Runs the search's threads on `root`'s `moves`: the helpers (none for an `instant`
    /// search) on threads of their own, the main one on this thread. Returns every thread's
    /// outcome, the main one first, and when the main thread started, finished and was
    /// released (ponder, infinite), for measuring what the move cost besides its thinking.
    fn run_threads(
        &mut self,
        root: &GameRecord<G>,
        moves: &[G::Move],
        shared: &Shared,
        clockwork: &Clockwork<'_>,
        instant: bool,
        on_info: &mut dyn FnMut(&SearchInfo<G>),
    ) -> (Vec<ThreadOutcome<G>>, (Instant, Instant, Instant)) {
        let tables = self.tables.as_deref();
        let history = root.reversible_hashes();
        let tt: &TranspositionTable = &self.tt;
        let (main_h, helper_h) = self.heuristics.split_at_mut(1);
        let main_h = &mut main_h[0];
        let helper_h: &mut [Heuristics<G>] = if instant { &mut [] } else { helper_h };
        let started = clockwork.started;
        let mut main_span = (started, started, started);

        let mut slots: Vec<Option<ThreadOutcome<G>>> = helper_h.iter().map(|_| None).collect();
        let mut main_outcome = None;
        let history = &history;
        let helpers: Vec<threads::HelperJob<'_>> = helper_h
            .iter_mut()
            .zip(slots.iter_mut())
            .enumerate()
            .map(|(i, (h, slot))| -> threads::HelperJob<'_> {
                Box::new(move || {
                    let mut w = Worker::new(
                        i + 1,
                        tt,
                        tables,
                        shared,
                        clockwork,
                        h,
                        root,
                        history,
                        moves.to_vec(),
                    );
                    *slot = Some(w.iterate(&mut |_| {}));
                })
            })
            .collect();
        threads::run_scoped(helpers, &mut || {
            let mut main = Worker::new(
                0,
                tt,
                tables,
                shared,
                clockwork,
                &mut *main_h,
                root,
                history,
                moves.to_vec(),
            );
            let main_started = Instant::now();
            main_outcome = Some(main.iterate(&mut *on_info));
            let main_done = Instant::now();
            // Finished or out of time: release the helpers, but first honour ponder/infinite.
            wait_for_release(clockwork);
            main_span = (main_started, main_done, Instant::now());
            shared.halt.store(true, Ordering::SeqCst);
        });
        let outcomes = main_outcome
            .into_iter()
            .chain(slots.into_iter().flatten())
            .collect();
        (outcomes, main_span)
    }

    /// The search's result from the threads' `outcomes` (the main thread's first): the main
    /// thread's answer, unless a helper completed a deeper iteration, with its principal
    /// variation cut to a legal line from `pos`.
    fn result_of(
        &self,
        pos: &G::Position,
        moves: &[G::Move],
        outcomes: &[ThreadOutcome<G>],
        shared: &Shared,
        started: Instant,
    ) -> SearchResult<G> {
        let nodes = outcomes.iter().map(|o| o.nodes).sum::<u64>();
        let mut best = &outcomes[0];
        for o in &outcomes[1..] {
            if o.depth > best.depth && o.best_move.is_some() {
                best = o;
            }
        }
        let mut pv = legal_prefix::<G>(pos, &best.pv);
        let best_move = match pv.first() {
            Some(m) => *m,
            None => {
                let m = best
                    .best_move
                    .filter(|m| moves.contains(m))
                    .unwrap_or(moves[0]);
                pv = vec![m];
                m
            }
        };
        let ponder_move = match pv.get(1) {
            Some(m) => Some(*m),
            None => self.ponder_from_tt(pos, &best_move),
        };
        // The first line is the result's own; the others follow if their lines are legal and
        // start with another move.
        let mut lines = vec![PvLine {
            score: best.score,
            pv: pv.clone(),
        }];
        for line in best.lines.iter().skip(1) {
            let legal = legal_prefix::<G>(pos, &line.pv);
            if let Some(first) = legal.first() {
                if lines.iter().all(|l| l.pv.first() != Some(first)) {
                    lines.push(PvLine {
                        score: line.score,
                        pv: legal,
                    });
                }
            }
        }
        SearchResult {
            best_move: Some(best_move),
            ponder_move,
            score: best.score,
            depth: best.depth,
            nodes,
            time: started.elapsed(),
            pv,
            lines,
            table_hits: shared.table_hits.load(Ordering::Relaxed),
            root_table: shared.root_table,
        }
    }

    /// Updates the move cost with this search's: the time before the main thread started
    /// (spawning the helpers), after it was released (joining them), and past the hard limit.
    fn measure_move_cost(
        &mut self,
        clockwork: &Clockwork<'_>,
        budget: TimeBudget,
        (main_started, main_done, released): (Instant, Instant, Instant),
    ) {
        let thinking = main_done.saturating_duration_since(clockwork.clock_start());
        let sample = main_started.saturating_duration_since(clockwork.started)
            + released.elapsed()
            + thinking.saturating_sub(budget.hard);
        // Rise quickly, fall slowly: a move that cost more is a warning for the next ones.
        self.move_cost = if sample > self.move_cost {
            (self.move_cost + sample) / 2
        } else {
            (self.move_cost * 7 + sample) / 8
        };
    }

    /// How far the game has gone, for the time manager: the fraction of the start position's
    /// pieces still on the board at `pos`, if the family can count them.
    fn progress(&self, pos: &G::Position) -> Option<f64> {
        let now = G::board_pieces(pos)?;
        let start = self.start_pieces.filter(|&n| n > 0)?;
        Some(f64::from(now) / f64::from(start))
    }

    /// The reply stored in the table for the position after `mv`, if it is legal.
    fn ponder_from_tt(&self, pos: &G::Position, mv: &G::Move) -> Option<G::Move> {
        let child = G::play(pos, mv);
        let hit = self.tt.probe(G::hash(&child))?;
        let i = hit.move_index? as usize;
        legal_moves::<G>(&child).get(i).copied()
    }
}

/// Blocks while the search must not return yet: pondering (until the ponder hit) or infinite
/// (until stopped).
fn wait_for_release(clockwork: &Clockwork<'_>) {
    let c = clockwork.control;
    while !c.is_stopped() && (c.is_pondering() || clockwork.limits.infinite) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// What one thread's iterative deepening produced.
pub(crate) struct ThreadOutcome<G: Game> {
    pub best_move: Option<G::Move>,
    pub score: Score,
    pub depth: Depth,
    pub pv: Vec<G::Move>,
    /// The lines of a multi-PV search, best first (the first is `pv`'s).
    pub lines: Vec<PvLine<G>>,
    pub nodes: u64,
}
