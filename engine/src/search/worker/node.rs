//! The alpha-beta search of the nodes below the root (principal variation search with table
//! cutoffs, pruning and late-move reductions) and the quiescence search at its horizon.

use super::pruning::{self, StaticFacts, RFP_DEPTH};
use super::{outcome_score, Frame, Worker};
use crate::game::{Duplicates, Game};
use crate::record::DrawCounters;
use crate::score::{Depth, Ply, Score, MAX_PLY};
use crate::search::tt::Bound;

/// A node's move lists, borrowed from its ply's frame while the node is searched.
struct MoveLists<G: Game> {
    /// The node's moves.
    moves: Vec<G::Move>,
    /// Their ordering scores (see [`Worker::pick_move`]).
    order: Vec<i32>,
    /// The moves left to sort once selection gives way to sorting.
    rest: Vec<i64>,
}

impl<G: Game> MoveLists<G> {
    /// Borrows the lists of `frame`.
    #[inline(always)]
    fn take(frame: &mut Frame<G>) -> Self {
        MoveLists {
            moves: std::mem::take(&mut frame.moves),
            order: std::mem::take(&mut frame.order),
            rest: std::mem::take(&mut frame.rest),
        }
    }

    /// Gives the lists back to `frame`, for the next node at its ply.
    #[inline(always)]
    fn give_back(self, frame: &mut Frame<G>) {
        frame.moves = self.moves;
        frame.order = self.order;
        frame.rest = self.rest;
    }
}

/// What a node settled before its move loop, which the pruning tests and every move's search
/// read.
#[derive(Clone, Copy)]
pub(super) struct Plan {
    /// The remaining depth, after the forced-move extension and internal iterative reduction.
    pub(super) depth: Depth,
    /// The node's distance from the root.
    pub(super) ply: Ply,
    /// Whether the node is on the principal variation (searched with an open window).
    pub(super) pv_node: bool,
    /// Whether the node is a horizon node extended because of a capture threat (its children
    /// are quiescence nodes).
    pub(super) horizon_extension: bool,
    /// Whether the node's moves capture.
    pub(super) capture_node: bool,
    /// Whether futility pruning skips the node's quiet late moves.
    pub(super) futile: bool,
    /// The table move's index in the move list, if valid.
    pub(super) tt_move: Option<usize>,
}

impl<G: Game> Worker<'_, G> {
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
    pub(super) fn search(
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
        alpha: Score,
        beta: Score,
        depth: Depth,
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
        let mut lists = MoveLists::take(&mut self.frames[p]);
        let score = self.interior_with(
            pos,
            alpha,
            beta,
            depth,
            ply,
            pv_node,
            horizon_extension,
            &mut lists,
        );
        lists.give_back(&mut self.frames[p]);
        score
    }

    /// [`Self::interior`] once the node is counted, with its move lists: the table, the
    /// pruning decisions, the moves, and the table entry the search leaves.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn interior_with(
        &mut self,
        pos: &G::Position,
        alpha: Score,
        beta: Score,
        mut depth: Depth,
        ply: Ply,
        pv_node: bool,
        horizon_extension: bool,
        lists: &mut MoveLists<G>,
    ) -> Score {
        let (listed, move_count) =
            Self::list_or_count(pos, depth, pv_node, horizon_extension, &mut lists.moves);
        if move_count == 0 {
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
        if listed && move_count == 1 && !horizon_extension {
            ahead = 0;
            ahead_child = self.play_prefetching(pos, &lists.moves[0]);
        }
        let key = G::hash(pos);
        let hit = self.tt.probe(key);
        let tt_index = hit.and_then(|h| h.move_index);
        if let Some(score) = pruning::table_cut(hit, ply, depth, alpha, beta, pv_node) {
            return score;
        }

        // A forced move costs the side nothing to think about: do not count it as a ply.
        if move_count == 1 {
            depth += 1;
        }
        let mut plan = Plan {
            depth,
            ply,
            pv_node,
            horizon_extension,
            // A counted node has no capture (that is when the count answers).
            capture_node: listed && G::is_capture(&lists.moves[0]),
            futile: false,
            tt_move: None,
        };
        let mut facts = StaticFacts::new(hit.and_then(|h| h.eval));
        if let Some(score) = pruning::reverse_futility::<G>(pos, &plan, beta, &mut facts) {
            return score;
        }
        plan.depth = pruning::iterative_reduction(plan.depth, tt_index.is_some());
        plan.futile = pruning::futile::<G>(pos, &plan, alpha, &mut facts);

        if !listed {
            // Not pruned after all: list the moves (as many as counted).
            G::generate(pos, Duplicates::Drop, &mut lists.moves);
            debug_assert_eq!(lists.moves.len(), move_count, "quiet_move_count disagrees");
        }
        // The table move is known: play it ahead, unless it is the forced move already played.
        // One place for counted and listed nodes alike: in a family that counts moves, a node
        // whose moves were listed before the pruning tests skips them (a capture, the
        // principal variation, more than the pruning depth, a threat), so playing it earlier
        // would gain nothing (measured: the same speed, 1.007x).
        plan.tt_move = tt_index.map(usize::from).filter(|&i| i < lists.moves.len());
        if let (Some(t), true) = (plan.tt_move.filter(|&t| t != ahead), plan.depth.plies() > 1) {
            ahead = t;
            ahead_child = self.play_prefetching(pos, &lists.moves[t]);
        }
        let (best, best_index) =
            self.search_moves(pos, alpha, beta, &plan, ahead, ahead_child, lists);
        if self.stopped {
            return Score::DRAW;
        }
        self.store_node(key, best, alpha, beta, best_index, facts.eval, &plan);
        best
    }

    /// Leaves the result of a node (key `key`, window alpha-beta, as `plan` settled it) in the
    /// table: its best score as the bound it is, its best move, its static evaluation.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn store_node(
        &self,
        key: u64,
        best: Score,
        alpha: Score,
        beta: Score,
        best_index: Option<usize>,
        static_eval: Option<Score>,
        plan: &Plan,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_move = best_index.filter(|&i| i < 255).map(|i| i as u8);
        let score = best.to_tt(plan.ply);
        self.tt
            .store(key, score, static_eval, plan.depth, bound, stored_move);
    }

    /// Lists the moves of `pos` into `moves`, or only counts them where that may be all the
    /// node needs. Most shallow nodes outside the principal variation are cut off (by the
    /// table or by reverse futility pruning) before they search a move, and all they need to
    /// know of their moves is how many there are and whether they capture: ask for that, which
    /// bitboards tell, and list the moves only once they are to be searched. The extended
    /// horizon nodes face a capture threat, which rules pruning out: they list at once.
    ///
    /// Otherwise the moves are generated before the table is probed: the bucket, prefetched by
    /// the parent, has time to arrive while the moves are generated. Returns whether the moves
    /// were listed, and how many there are.
    #[inline(always)]
    fn list_or_count(
        pos: &G::Position,
        depth: Depth,
        pv_node: bool,
        horizon_extension: bool,
        moves: &mut Vec<G::Move>,
    ) -> (bool, usize) {
        let counted = if !pv_node && !horizon_extension && depth.plies() <= RFP_DEPTH {
            G::quiet_move_count(pos)
        } else {
            None
        };
        match counted {
            Some(n) => (false, n),
            None => {
                G::generate(pos, Duplicates::Drop, moves);
                (true, moves.len())
            }
        }
    }

    /// The move loop of a node (window alpha-beta) as `plan` settled it, the move `ahead`
    /// (`usize::MAX` if none) already played into `ahead_child`: the best score and the index
    /// of the move that raised alpha last. On a stop, what it returns means nothing.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_moves(
        &mut self,
        pos: &G::Position,
        mut alpha: Score,
        beta: Score,
        plan: &Plan,
        mut ahead: usize,
        mut ahead_child: G::Position,
        lists: &mut MoveLists<G>,
    ) -> (Score, Option<usize>) {
        let (depth, ply, p) = (plan.depth, plan.ply, plan.ply.index());
        // Moves in the order of `pick_move`.
        let n = lists.moves.len();
        lists.order.clear();
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
                i = self.pick_move(
                    pos,
                    p,
                    k,
                    plan.tt_move,
                    &lists.moves,
                    &mut lists.order,
                    &mut lists.rest,
                );
                child = if depth.plies() > 1 {
                    self.play_prefetching(pos, &lists.moves[i])
                } else {
                    G::play(pos, &lists.moves[i])
                };
            }
            // From the second move on (a node whose first move did not cut off usually
            // searches several), the next one is known before this one is searched: play it
            // now and start loading its bucket, which then has this whole subtree's time to
            // arrive. The order is fixed when the moves are scored, so picking ahead picks
            // the same moves.
            if depth.plies() > 1 && k + 1 < n && k > 0 {
                ahead = self.pick_move(
                    pos,
                    p,
                    k + 1,
                    plan.tt_move,
                    &lists.moves,
                    &mut lists.order,
                    &mut lists.rest,
                );
                ahead_child = self.play_prefetching(pos, &lists.moves[ahead]);
            }
            let mv = lists.moves[i];
            // Skipped only while a searched move keeps the node from counting as lost.
            if plan.futile && searched >= 1 && !best.is_loss() && !G::has_capture(&child) {
                continue;
            }
            self.enter_child(pos, &mv, &child, ply);
            searched += 1;
            let score = self.search_child(&child, alpha, beta, plan, searched);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_index = Some(i);
                    if plan.pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        self.reward_cutoff(pos, p, mv, depth, plan.capture_node);
                        break;
                    }
                    alpha = score;
                }
            }
        }
        (best, best_index)
    }

    /// The score of `child`, the `searched`-th move searched at a node as `plan` settled it,
    /// from the node's view: the first move with the full window, the others with a null
    /// window (late quiet ones reduced first), searched again when they beat alpha.
    #[inline(always)]
    fn search_child(
        &mut self,
        child: &G::Position,
        alpha: Score,
        beta: Score,
        plan: &Plan,
        searched: usize,
    ) -> Score {
        let (depth, next) = (plan.depth, plan.ply.next());
        let new_depth = if plan.horizon_extension {
            Depth(-1)
        } else {
            depth - 1
        };
        if searched == 1 {
            return -self.search(child, -beta, -alpha, new_depth, next, plan.pv_node);
        }
        let mut r = 0;
        if pruning::reducible::<G>(depth, plan.capture_node, searched, child) {
            r = self.lmr[depth.plies().min(63) as usize][searched.min(63)] as i32;
            if plan.pv_node {
                r -= 1;
            }
            r = r.clamp(0, new_depth.plies() - 1);
        }
        let mut score = -self.search(child, -alpha - 1, -alpha, new_depth - r, next, false);
        if r > 0 && score > alpha && !self.stopped {
            score = -self.search(child, -alpha - 1, -alpha, new_depth, next, false);
        }
        if plan.pv_node && score > alpha && score < beta && !self.stopped {
            score = -self.search(child, -beta, -alpha, new_depth, next, true);
        }
        score
    }
}
