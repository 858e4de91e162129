//! One search thread: iterative deepening, the alpha-beta search, quiescence and move ordering.
//!
//! Every thread of a Lazy SMP search runs this same code on the same root and shares only the
//! transposition table: the threads drift apart through timing and through helpers skipping
//! some iterations, and what one learns, the others find in the table.

use std::sync::atomic::Ordering;

use super::tt::{Bound, TranspositionTable};
use super::{Clockwork, Shared, ThreadOutcome};
use crate::egtb::probe::TableProbe;
use crate::game::{Duplicates, Game, Outcome};
use crate::record::{DrawCounters, GameRecord};
use crate::score::{Depth, Ply, Score, MAX_PLY};

/// How often (in nodes) a thread publishes its node count and checks the clock and the stop
/// flags. 1024 nodes take well under a millisecond, so a stop is honoured within a few.
const POLL_INTERVAL: u64 = 1024;

/// Moves picked by selection before the rest of a node's moves are sorted (counting the table
/// move). Either way the order is the same; 2 measured best of 1 to 5 (callgrind, depth-11
/// middle games: 3.4% fewer mispredicted branches than 3).
const SELECTION_PICKS: usize = 2;

/// Cap of the history scores; bonuses shrink as a score approaches it ("gravity"), so that
/// recent cutoffs count more than old ones.
const HISTORY_MAX: i32 = 1 << 14;

/// The score of a finished game `ply` plies from the root, from the side to move's view.
#[inline]
pub(crate) fn outcome_score(outcome: Outcome, ply: Ply) -> Score {
    match outcome {
        Outcome::Win => Score::win_in(ply),
        Outcome::Loss => Score::loss_in(ply),
        Outcome::Draw => Score::DRAW,
    }
}

/// Move-ordering statistics of one thread, kept by the [`super::Searcher`] between searches.
pub(crate) struct Heuristics<G: Game> {
    /// History scores by side to move and [`Game::move_index`] (16 bits: the table stays
    /// small enough to live in the first-level cache next to everything else).
    history: Vec<i16>,
    /// Two killer moves per ply: quiet moves that caused a cutoff at that ply.
    killers: Vec<[Option<G::Move>; 2]>,
    /// The per-ply scratch space, kept between searches: allocating and first touching it
    /// costs a noticeable part of a millisecond, which a 0.1 s search should not pay.
    frames: Vec<Frame<G>>,
}

impl<G: Game> Heuristics<G> {
    pub fn new() -> Self {
        Heuristics {
            history: vec![0; 2 * G::MOVE_INDEX_BOUND.max(1)],
            killers: vec![[None, None]; MAX_PLY + 2],
            frames: Vec::new(),
        }
    }

    pub fn clear(&mut self) {
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
    }

    #[inline]
    fn history_slot(pos: &G::Position, mv: &G::Move) -> usize {
        let side = G::side_to_move(pos).index();
        let i = G::move_index(pos, mv).min(G::MOVE_INDEX_BOUND.max(1) - 1);
        side * G::MOVE_INDEX_BOUND.max(1) + i
    }

    #[inline]
    fn update_history(&mut self, pos: &G::Position, mv: &G::Move, bonus: i32) {
        let h = &mut self.history[Self::history_slot(pos, mv)];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let old = *h as i32;
        // Stays within ±HISTORY_MAX, which fits in 16 bits.
        *h = (old + bonus - old * bonus.abs() / HISTORY_MAX) as i16;
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

/// Deepest remaining depth at which reverse futility pruning applies.
const RFP_DEPTH: i32 = 3;
/// Its margin per ply of remaining depth, in hundredths of a man.
const RFP_MARGIN: i32 = 60;
/// Shallowest remaining depth at which a node without a table move is searched a ply less
/// (internal iterative reduction).
const IIR_DEPTH: i32 = 4;
/// Deepest remaining depth at which futility pruning skips quiet late moves.
const FUTILITY_DEPTH: i32 = 2;
/// Its margin: a fixed part plus a part per ply of remaining depth, in hundredths of a man.
const FUTILITY_BASE: i32 = 40;
/// See [`FUTILITY_BASE`].
const FUTILITY_MARGIN: i32 = 80;
/// Moves searched at full depth before late-move reductions start (the table move and the
/// killers, usually).
const LMR_FIRST_REDUCED: usize = 2;

/// Late-move reduction for a move searched at `depth` as the `n`-th move (both at least 1).
fn reduction(depth: i32, n: usize) -> i32 {
    // ln(depth) * ln(n) / 2: the usual shape; late moves at high depth lose most.
    let r = (depth as f64).ln() * (n as f64).ln() / 2.0;
    r as i32
}

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
        // waiting for its word would overrun the time limit (issue 21: 256 threads on 2 cores
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

    /// Iterative deepening; returns the deepest completed iteration's result.
    pub fn iterate(&mut self, on_info: &mut dyn FnMut(&super::SearchInfo<G>)) -> ThreadOutcome<G> {
        let max_depth = self
            .clock
            .limits
            .depth
            .unwrap_or(Depth::MAX)
            .min(Depth::MAX)
            .plies()
            .max(1);
        let mut result = ThreadOutcome {
            best_move: self.root_moves.first().map(|r| r.mv),
            score: -Score::INFINITE,
            depth: Depth::ZERO,
            pv: Vec::new(),
            nodes: 0,
        };
        let mut score = Score::DRAW;
        for d in 1..=max_depth {
            // Helpers skip some iterations, so that they are usually one ply ahead of the main
            // thread and fill the table with deeper results (the classic Lazy SMP skip
            // pattern: thread i skips depth d when ((d + i) / size) is odd).
            // The last iteration is never skipped: a helper that ran out of iterations would
            // sit idle while the main thread finishes.
            if !self.is_main() && d > 1 && d < max_depth {
                let size = 1 + (self.id as i32 + 1) / 4;
                if ((d + self.id as i32) / size) % 2 == 1 {
                    continue;
                }
            }
            self.seldepth = 0;
            self.leaf_plies = 0;
            self.leaves = 0;
            let depth = Depth(d);
            let (mut alpha, mut beta) = (-Score::INFINITE, Score::INFINITE);
            let mut delta = 25;
            // Aspiration window around the last score once it is stable enough to trust.
            if d >= 4 && !score.is_decisive() {
                alpha = (score - delta).max(-Score::INFINITE);
                beta = (score + delta).min(Score::INFINITE);
            }
            loop {
                let s = self.root(depth, alpha, beta);
                if self.stopped {
                    break;
                }
                if s <= alpha {
                    beta = Score::from_centi((alpha.centi() + beta.centi()) / 2);
                    alpha = (s - delta).max(-Score::INFINITE);
                } else if s >= beta {
                    beta = (s + delta).min(Score::INFINITE);
                } else {
                    score = s;
                    break;
                }
                delta += delta;
                if delta > 400 {
                    alpha = -Score::INFINITE;
                    beta = Score::INFINITE;
                }
            }
            // Sort the root moves for the next iteration (or for the partial result): best
            // first, moves never raising alpha after them by their previous score.
            self.root_moves
                .sort_by(|a, b| b.score.cmp(&a.score).then(b.previous.cmp(&a.previous)));
            if self.stopped {
                // A stopped iteration still counts if a move raised alpha in its last window:
                // the previous best is always searched first, so such a move is at least as
                // good at the new depth.
                let first = self.root_moves[0];
                if first.score > -Score::INFINITE && self.frames[0].pv.first() == Some(&first.mv) {
                    result.best_move = Some(first.mv);
                    result.pv = self.frames[0].pv.clone();
                    result.score = first.score;
                }
                break;
            }
            for r in &mut self.root_moves {
                r.previous = r.score;
            }
            result.best_move = Some(self.root_moves[0].mv);
            result.score = score;
            result.depth = depth;
            result.pv = self.frames[0].pv.clone();
            if !self.is_main() && d == max_depth {
                // A helper finished the last iteration first: its result is the search's
                // (the deepest completed iteration wins), so the main thread need not finish.
                self.shared.halt.store(true, Ordering::SeqCst);
            }
            if self.is_main() {
                self.shared.nodes[self.id]
                    .0
                    .store(self.nodes, Ordering::Relaxed);
                self.publish_table_hits();
                let nodes = self.shared.total_nodes();
                let time = self.clock.started.elapsed();
                let secs = time.as_secs_f64();
                on_info(&super::SearchInfo {
                    depth,
                    mean_depth: if self.leaves > 0 {
                        self.leaf_plies as f64 / self.leaves as f64
                    } else {
                        d as f64
                    },
                    seldepth: Ply(self.seldepth),
                    score,
                    nodes,
                    time,
                    nps: if secs > 0.0 { nodes as f64 / secs } else { 0.0 },
                    pv: result.pv.clone(),
                    table_hits: self.shared.table_hits.load(Ordering::Relaxed),
                    root_table: self.shared.root_table,
                });
                if self.clock.soft_limit_reached() {
                    break;
                }
                // A forced result seen well within the horizon will not change: stop early
                // when the search is timed or unbounded (a fixed depth is searched in full).
                let bounded_only_by_depth =
                    self.clock.limits.depth.is_some() && !self.clock.limits.is_timed();
                if let Some(p) = score.plies_to_end() {
                    if !self.clock.limits.infinite && !bounded_only_by_depth && d as u32 > p + 2 {
                        break;
                    }
                }
                // A single legal move needs no deep search unless analysing.
                if self.root_moves.len() == 1 && !self.clock.limits.analyze && d >= 4 {
                    break;
                }
            }
        }
        self.shared.nodes[self.id]
            .0
            .store(self.nodes, Ordering::Relaxed);
        self.publish_table_hits();
        result.nodes = self.nodes;
        if result.score == -Score::INFINITE {
            result.score = Score::DRAW;
        }
        result
    }

    /// Searches the root moves at `depth` within (alpha, beta).
    fn root(&mut self, depth: Depth, mut alpha: Score, beta: Score) -> Score {
        let pos = self.root_pos;
        self.count_node();
        self.frames[0].pv.clear();
        self.keys[self.base] = G::hash(&pos);
        let mut best = -Score::INFINITE;
        let mut best_index = None;
        for r in &mut self.root_moves {
            r.score = -Score::INFINITE;
        }
        for i in 0..self.root_moves.len() {
            let rm = self.root_moves[i];
            let child = G::play(&pos, &rm.mv);
            self.enter_child(&pos, &rm.mv, &child, Ply::ROOT);
            let mut score;
            if i == 0 {
                score = -self.search(&child, -beta, -alpha, depth - 1, Ply(1), true);
            } else {
                score = -self.search(&child, -alpha - 1, -alpha, depth - 1, Ply(1), false);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.search(&child, -beta, -alpha, depth - 1, Ply(1), true);
                }
            }
            if self.stopped {
                return best;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                self.root_moves[i].score = score;
                best_index = Some(rm.index);
                self.update_pv(Ply::ROOT, rm.mv);
                if score >= beta {
                    break;
                }
                alpha = score;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best_index.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            G::hash(&pos),
            best.to_tt(Ply::ROOT),
            None,
            depth,
            bound,
            best_index,
        );
        best
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

    /// The index of the `k`-th move to search at a node of `ply` index `p`: the table move
    /// first, alone (it often cuts off, and then nothing else needs scoring); then killers,
    /// then history. Moves are scored when the first move after the table move is picked
    /// (`order` is empty until then), and picked in sequence: `k` = 0, 1, 2...
    ///
    /// Inlined into the move loop: as a call it saved and restored six registers twice per
    /// move (1% of all instructions, counted with callgrind).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn pick_move(
        &self,
        pos: &G::Position,
        p: usize,
        k: usize,
        tt_move: Option<usize>,
        moves: &[G::Move],
        order: &mut Vec<i32>,
        rest: &mut Vec<i64>,
    ) -> usize {
        if let (Some(t), 0) = (tt_move, k) {
            return t;
        }
        if order.is_empty() {
            let killers = self.heur.killers[p];
            // Moves are told apart by their history slot first: a killer is compared whole
            // only with the move of its slot (equal moves share a slot), which spares most
            // moves two full comparisons.
            let [slot0, slot1] =
                killers.map(|k| k.map_or(usize::MAX, |k| Heuristics::<G>::history_slot(pos, &k)));
            let history = &self.heur.history;
            // One pass that the compiler can size up front (no capacity test per move).
            order.extend(moves.iter().map(|mv| {
                let slot = Heuristics::<G>::history_slot(pos, mv);
                if slot == slot0 && killers[0] == Some(*mv) {
                    1 << 29
                } else if slot == slot1 && killers[1] == Some(*mv) {
                    (1 << 29) - 1
                } else {
                    history[slot] as i32
                }
            }));
            if let Some(t) = tt_move {
                order[t] = i32::MIN;
            }
        }
        if k < SELECTION_PICKS {
            // Pick the best-ordered move left: most nodes cut off within the first few
            // moves, so selecting beats sorting.
            let mut i = 0;
            let mut top = i32::MIN;
            for (j, &s) in order.iter().enumerate() {
                if s > top {
                    top = s;
                    i = j;
                }
            }
            order[i] = i32::MIN;
            i
        } else {
            // A node that got this far usually searches everything: sort the rest once
            // (score above, index below) instead of selecting each time.
            if k == SELECTION_PICKS {
                rest.clear();
                for (j, &s) in order.iter().enumerate() {
                    if s != i32::MIN {
                        // 0xFFFF - j: equal scores keep generation order, as selection
                        // would.
                        rest.push((s as i64) << 16 | (0xFFFF - j) as i64);
                    }
                }
                rest.sort_unstable_by(|a, b| b.cmp(a));
            }
            0xFFFF - (rest[k - SELECTION_PICKS] & 0xFFFF) as usize
        }
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

    /// Quiescence: resolves captures (compulsory, so no standing pat while one exists) and
    /// otherwise trusts the static evaluation.
    fn qsearch(&mut self, pos: &G::Position, alpha: Score, beta: Score, ply: Ply) -> Score {
        self.qsearch_known(pos, alpha, beta, ply, G::has_capture(pos))
    }

    /// [`Self::qsearch`] when the caller already knows whether the side to move can capture.
    #[inline]
    fn qsearch_known(
        &mut self,
        pos: &G::Position,
        mut alpha: Score,
        beta: Score,
        ply: Ply,
        can_capture: bool,
    ) -> Score {
        self.count_node();
        if self.stopped {
            return Score::DRAW;
        }
        if ply.0 > self.seldepth {
            self.seldepth = ply.0;
        }
        if let Some(o) = G::decided(pos) {
            return outcome_score(o, ply);
        }
        if ply.index() >= MAX_PLY - 1 {
            return Score::from_eval(G::evaluate(pos));
        }
        if !can_capture {
            if !G::has_move(pos) {
                return outcome_score(G::no_move_outcome(pos), ply);
            }
            // Endgame tables at the end of a capture sequence: a capture restarts the
            // move-count rules, so fresh counters stand for the path's.
            if let Some(tables) = self.tables {
                if let Some(score) = tables.search_score(pos, &DrawCounters::start::<G>(pos)) {
                    self.table_hits += 1;
                    // Seen from the root: a nearer table win scores higher.
                    return score.unpack_tt(ply);
                }
            }
            return Score::from_eval(G::evaluate(pos));
        }
        let p = ply.index();
        let mut moves = std::mem::take(&mut self.frames[p].moves);
        G::generate_captures(pos, &mut moves);
        let mut best = -Score::INFINITE;
        for mv in moves.iter() {
            let child = G::play(pos, mv);
            let score = -self.qsearch(&child, -beta, -alpha, ply.next());
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.frames[p].moves = moves;
        best
    }

    /// The alpha-beta search (principal variation search) of `pos` at `ply` > 0.
    #[inline]
    fn search(
        &mut self,
        pos: &G::Position,
        mut alpha: Score,
        mut beta: Score,
        mut depth: Depth,
        ply: Ply,
        pv_node: bool,
    ) -> Score {
        let p = ply.index();
        self.frames[p].pv.clear();
        if let Some(o) = G::decided(pos) {
            return outcome_score(o, ply);
        }
        if self.is_rule_draw(ply) && G::has_move(pos) {
            return Score::DRAW;
        }
        if p >= MAX_PLY - 1 {
            return Score::from_eval(G::evaluate(pos));
        }
        // Endgame tables: an exact value, with the draw rules' counters of this node.
        if let Some(tables) = self.tables {
            if let Some(score) = tables.search_score(pos, &self.frames[p].draw) {
                self.table_hits += 1;
                // Seen from the root: a nearer table win scores higher.
                return score.unpack_tt(ply);
            }
        }
        // Mate-distance pruning: no line from here can beat a win at the next ply or lose
        // faster than now.
        alpha = alpha.max(Score::loss_in(ply));
        beta = beta.min(Score::win_in(ply.next()));
        if alpha >= beta {
            return alpha;
        }

        // At the horizon, a position where the opponent threatens to capture is not quiet:
        // standing pat would assume the threat away, and one more ply (every move, each
        // followed by quiescence) sees whether it can be parried. The extended node's children
        // get depth -1, so the extension never chains.
        let mut horizon_extension = false;
        if depth <= Depth::ZERO {
            let can_capture = G::has_capture(pos);
            if depth == Depth::ZERO && !can_capture && G::capture_threat(pos) {
                depth = Depth::ONE;
                horizon_extension = true;
            } else {
                self.leaves += 1;
                self.leaf_plies += ply.0 as u64;
                return self.qsearch_known(pos, alpha, beta, ply, can_capture);
            }
        }

        self.interior(pos, alpha, beta, depth, ply, pv_node, horizon_extension)
    }

    /// [`Self::search`] of a node that searches its moves (`depth` > 0), after the tests that
    /// every node makes. Kept apart so that those tests, inlined where the search recurses,
    /// spare the horizon's nodes (most nodes) the call to this much larger function.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn interior(
        &mut self,
        pos: &G::Position,
        mut alpha: Score,
        beta: Score,
        mut depth: Depth,
        ply: Ply,
        pv_node: bool,
        horizon_extension: bool,
    ) -> Score {
        let p = ply.index();
        self.count_node();
        if self.stopped {
            return Score::DRAW;
        }
        if ply.0 > self.seldepth {
            self.seldepth = ply.0;
        }
        let mut moves = std::mem::take(&mut self.frames[p].moves);
        let mut order = std::mem::take(&mut self.frames[p].order);
        let mut rest = std::mem::take(&mut self.frames[p].rest);
        // Most shallow nodes outside the principal variation are cut off (by the table or by
        // reverse futility pruning) before they search a move, and all they need to know of
        // their moves is how many there are and whether they capture: ask for that, which
        // bitboards tell, and list the moves only once they are to be searched. The extended
        // horizon nodes face a capture threat, which rules pruning out: they list at once.
        let counted = if !pv_node && !horizon_extension && depth.plies() <= RFP_DEPTH {
            G::quiet_move_count(pos)
        } else {
            None
        };
        // Otherwise generate before probing the table: the bucket, prefetched by the parent,
        // has time to arrive while the moves are generated.
        let move_count = match counted {
            Some(n) => n,
            None => {
                G::generate(pos, Duplicates::Drop, &mut moves);
                moves.len()
            }
        };
        if move_count == 0 {
            self.frames[p].moves = moves;
            self.frames[p].order = order;
            self.frames[p].rest = rest;
            return outcome_score(G::no_move_outcome(pos), ply);
        }
        // The next move's index and position, when played ahead of its turn so that its
        // table bucket (which it probes first thing, unless it is a quiescence node) has time
        // to arrive. Two plain variables rather than an `Option` of a pair: the copies in and
        // out of such an option compile to overlapping partial stores that stall the next
        // load. A forced move (most often a lone capture) is known before the table is
        // probed: play it now, so that its bucket and this node's own one load at the same time
        // (the child of a forced capture waited 185 cycles for its probe on average, 91 once
        // played here; time-stamp counter, depth-14 middle games). An extended horizon node's
        // children are quiescence nodes, which do not probe.
        let mut ahead = usize::MAX;
        let mut ahead_child = *pos;
        if counted.is_none() && move_count == 1 && !horizon_extension {
            ahead = 0;
            ahead_child = self.play_prefetching(pos, &moves[0]);
        }
        let key = G::hash(pos);
        let hit = self.tt.probe(key);
        let mut tt_index = None;
        if let Some(h) = hit {
            tt_index = h.move_index;
            let score = h.score.unpack_tt(ply);
            if !pv_node && h.depth >= depth {
                let cut = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    self.frames[p].moves = moves;
                    self.frames[p].order = order;
                    self.frames[p].rest = rest;
                    return score;
                }
            }
        }

        // A forced move costs the side nothing to think about: do not count it as a ply.
        if move_count == 1 {
            depth += 1;
        }
        // A counted node has no capture (that is when the count answers).
        let capture_node = counted.is_none() && G::is_capture(&moves[0]);

        // Static evaluation, for pruning: only meaningful in a quiet position that nothing
        // threatens (a capture for either side would change the material at once).
        let mut static_eval = hit.and_then(|h| h.eval);
        // Whether either side threatens a capture: asked once, by the first pruning test that
        // needs it.
        let mut threat = None;
        // Reverse futility pruning: at shallow depth, a quiet position evaluated far above
        // beta is assumed to hold (the opponent would need a shot worth the margin).
        if !pv_node
            && !capture_node
            && depth.plies() <= RFP_DEPTH
            && !beta.is_decisive()
            && !*threat.get_or_insert_with(|| G::capture_threat(pos))
        {
            let e = *static_eval.get_or_insert_with(|| Score::from_eval(G::evaluate(pos)));
            if e - RFP_MARGIN * depth.plies() >= beta {
                self.frames[p].moves = moves;
                self.frames[p].order = order;
                self.frames[p].rest = rest;
                return e;
            }
        }

        // Internal iterative reduction: a node the table knows no move for was not searched
        // before (or failed low everywhere), so it is unlikely to matter; searching it a ply
        // shallower costs little, and the table move the shallower search leaves orders the
        // next visit.
        if tt_index.is_none() && depth.plies() >= IIR_DEPTH {
            depth -= 1;
        }

        // Futility pruning: a quiet, unthreatened node evaluated far below alpha will not be
        // lifted above it by a quiet move that offers no exchange; only its first move and
        // the moves that hand over a capture (a shot may win material) are searched.
        let mut futile = false;
        if !pv_node
            && !capture_node
            && !horizon_extension
            && depth.plies() <= FUTILITY_DEPTH
            && !alpha.is_decisive()
            && !*threat.get_or_insert_with(|| G::capture_threat(pos))
        {
            let e = *static_eval.get_or_insert_with(|| Score::from_eval(G::evaluate(pos)));
            futile = e + FUTILITY_BASE + FUTILITY_MARGIN * depth.plies() <= alpha;
        }

        if counted.is_some() {
            // Not pruned after all: list the moves (as many as counted).
            G::generate(pos, Duplicates::Drop, &mut moves);
            debug_assert_eq!(moves.len(), move_count, "quiet_move_count disagrees");
        }
        // The table move is known: play it ahead, unless it is the forced move already played.
        // One place for counted and listed nodes alike: in a family that counts moves, a node
        // whose moves were listed before the pruning tests skips them (a capture, the
        // principal variation, more than the pruning depth, a threat), so playing it earlier
        // would gain nothing (measured: the same speed, 1.007x).
        let tt_move = tt_index.map(usize::from).filter(|&i| i < moves.len());
        if let (Some(t), true) = (tt_move.filter(|&t| t != ahead), depth.plies() > 1) {
            ahead = t;
            ahead_child = self.play_prefetching(pos, &moves[t]);
        }

        // Moves in the order of `pick_move`.
        let n = moves.len();
        order.clear();

        let original_alpha = alpha;
        let mut best = -Score::INFINITE;
        let mut best_index: Option<usize> = None;
        let mut searched = 0usize;
        for k in 0..n {
            let i;
            let child;
            if ahead != usize::MAX {
                i = ahead;
                child = ahead_child;
                ahead = usize::MAX;
            } else {
                i = self.pick_move(pos, p, k, tt_move, &moves, &mut order, &mut rest);
                child = if depth.plies() > 1 {
                    self.play_prefetching(pos, &moves[i])
                } else {
                    G::play(pos, &moves[i])
                };
            }
            // From the second move on (a node whose first move did not cut off usually
            // searches several), the next one is known before this one is searched: play it
            // now and start loading its bucket, which then has this whole subtree's time to
            // arrive. The order is fixed when the moves are scored, so picking ahead picks
            // the same moves.
            if depth.plies() > 1 && k + 1 < n && k > 0 {
                ahead = self.pick_move(pos, p, k + 1, tt_move, &moves, &mut order, &mut rest);
                ahead_child = self.play_prefetching(pos, &moves[ahead]);
            }
            let mv = moves[i];
            // Skipped only while a searched move keeps the node from counting as lost.
            if futile && searched >= 1 && !best.is_loss() && !G::has_capture(&child) {
                continue;
            }
            self.enter_child(pos, &mv, &child, ply);
            searched += 1;

            let new_depth = if horizon_extension {
                Depth(-1)
            } else {
                depth - 1
            };
            let mut score;
            if searched == 1 {
                score = -self.search(&child, -beta, -alpha, new_depth, ply.next(), pv_node);
            } else {
                // Late-move reduction of quiet moves that neither capture nor hand the
                // opponent a capture (such moves are forcing, like checks in chess).
                let mut r = 0;
                if depth.plies() >= 3
                    && !capture_node
                    && searched > LMR_FIRST_REDUCED
                    && !G::has_capture(&child)
                {
                    r = self.lmr[depth.plies().min(63) as usize][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth.plies() - 1);
                }
                score = -self.search(&child, -alpha - 1, -alpha, new_depth - r, ply.next(), false);
                if r > 0 && score > alpha && !self.stopped {
                    score = -self.search(&child, -alpha - 1, -alpha, new_depth, ply.next(), false);
                }
                if pv_node && score > alpha && score < beta && !self.stopped {
                    score = -self.search(&child, -beta, -alpha, new_depth, ply.next(), true);
                }
            }
            if self.stopped {
                self.frames[p].moves = moves;
                self.frames[p].order = order;
                self.frames[p].rest = rest;
                return Score::DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_index = Some(i);
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if !capture_node {
                            let k = &mut self.heur.killers[p];
                            if k[0] != Some(mv) {
                                k[1] = k[0];
                                k[0] = Some(mv);
                            }
                        }
                        let bonus = depth.plies() * depth.plies();
                        self.heur.update_history(pos, &mv, bonus);
                        break;
                    }
                    alpha = score;
                }
            }
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_move = best_index.filter(|&i| i < 255).map(|i| i as u8);
        self.tt
            .store(key, best.to_tt(ply), static_eval, depth, bound, stored_move);
        self.frames[p].moves = moves;
        self.frames[p].order = order;
        self.frames[p].rest = rest;
        best
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
