//! Iterative deepening: one iteration after another, each within an aspiration window around
//! the last score, and the root's move loop.

use std::sync::atomic::Ordering;

use super::Worker;
use crate::game::Game;
use crate::score::{Depth, Ply, Score};
use crate::search::tt::Bound;
use crate::search::{PvLine, SearchInfo, ThreadOutcome};

impl<G: Game> Worker<'_, G> {
    /// Iterative deepening; returns the deepest completed iteration's result.
    pub fn iterate(&mut self, on_info: &mut dyn FnMut(&SearchInfo<G>)) -> ThreadOutcome<G> {
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
            lines: Vec::new(),
            nodes: 0,
        };
        let mut score = Score::DRAW;
        // Multi-PV: the best `wanted` root moves each get a line of their own, searched in
        // turn at every depth, each without the moves whose lines came before it.
        let wanted = self.clock.limits.lines().min(self.root_moves.len()).max(1);
        let mut line_scores = vec![Score::DRAW; wanted];
        let mut lines: Vec<PvLine<G>> = Vec::new();
        let mut unrest = Unrest::default();
        for d in 1..=max_depth {
            if self.skips(d, max_depth) {
                continue;
            }
            self.seldepth = 0;
            self.leaf_plies = 0;
            self.leaves = 0;
            let depth = Depth(d);
            let mut found: Vec<PvLine<G>> = Vec::with_capacity(wanted);
            for (k, line_score) in line_scores.iter_mut().enumerate() {
                self.pv_index = k;
                let previous = if k == 0 { score } else { *line_score };
                let s = self.aspiration(depth, previous);
                // Sort the root moves still without a line for the next one (or for the
                // partial result): best first, moves never raising alpha after them by their
                // previous score. With one line, that is every root move.
                self.root_moves[k..]
                    .sort_by(|a, b| b.score.cmp(&a.score).then(b.previous.cmp(&a.previous)));
                if self.stopped {
                    break;
                }
                *line_score = s;
                if k == 0 {
                    score = s;
                }
                found.push(PvLine {
                    score: s,
                    pv: self.frames[0].pv.clone(),
                });
            }
            self.pv_index = 0;
            if found.len() > 1 {
                // Search instability can score a later line above an earlier one: best first,
                // as the lines are reported and played (the root moves of the lines keep step:
                // each scored its line, and the sorts are stable).
                let n = found.len();
                self.root_moves[..n].sort_by_key(|r| std::cmp::Reverse(r.score));
                found.sort_by_key(|l| std::cmp::Reverse(l.score));
                for (k, line) in found.iter().enumerate() {
                    line_scores[k] = line.score;
                }
                score = found[0].score;
            }
            if found.is_empty() {
                // Stopped in the first line: what counts is what raised alpha.
                self.keep_partial(&mut result);
                break;
            }
            // Stopped after the first line (multi-PV): the lines not searched at this depth
            // keep the previous depth's, after the new ones.
            for old in &lines {
                if found.len() >= wanted {
                    break;
                }
                if found.iter().all(|l| l.pv.first() != old.pv.first()) {
                    found.push(old.clone());
                }
            }
            lines = found;
            for r in &mut self.root_moves {
                r.previous = r.score;
            }
            result.best_move = Some(self.root_moves[0].mv);
            result.score = score;
            result.depth = depth;
            result.pv = lines[0].pv.clone();
            result.lines = lines.clone();
            if !self.is_main() && d == max_depth {
                // A helper finished the last iteration first: its result is the search's
                // (the deepest completed iteration wins), so the main thread need not finish.
                self.shared.halt.store(true, Ordering::SeqCst);
            }
            if self.is_main() {
                self.report(depth, score, &lines, on_info);
                unrest.update(self.root_moves[0].mv);
                let scale = unrest.scale(score, self.clock.previous_score, self.root_moves.len());
                if self.stopped || self.enough(d, score, scale) {
                    break;
                }
            } else if self.stopped {
                break;
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

    /// Whether this thread skips the iteration of depth `d` (of `max_depth`).
    ///
    /// Helpers skip some iterations, so that they are usually one ply ahead of the main thread
    /// and fill the table with deeper results (the classic Lazy SMP skip pattern: thread i
    /// skips depth d when ((d + i) / size) is odd). The last iteration is never skipped: a
    /// helper that ran out of iterations would sit idle while the main thread finishes.
    fn skips(&self, d: i32, max_depth: i32) -> bool {
        if !self.is_main() && d > 1 && d < max_depth {
            let size = 1 + (self.id as i32 + 1) / 4;
            return ((d + self.id as i32) / size) % 2 == 1;
        }
        false
    }

    /// One iteration at `depth`: the root searched within an aspiration window around the last
    /// iteration's `score` (once it is stable enough to trust), widened until the result
    /// falls inside. Returns the iteration's score, or `score` if the search stopped.
    fn aspiration(&mut self, depth: Depth, mut score: Score) -> Score {
        let (mut alpha, mut beta) = (-Score::INFINITE, Score::INFINITE);
        let mut delta = 25;
        if depth.plies() >= 4 && !score.is_decisive() {
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
        score
    }

    /// Takes the result of a stopped iteration into `result` if it counts: it does if a move
    /// raised alpha in its last window, since the previous best is always searched first, so
    /// such a move is at least as good at the new depth.
    fn keep_partial(&self, result: &mut ThreadOutcome<G>) {
        let first = self.root_moves[0];
        if first.score > -Score::INFINITE && self.frames[0].pv.first() == Some(&first.mv) {
            result.best_move = Some(first.mv);
            result.pv = self.frames[0].pv.clone();
            result.score = first.score;
        }
    }

    /// Reports the main thread's completed iteration at `depth` to `on_info`.
    fn report(
        &mut self,
        depth: Depth,
        score: Score,
        lines: &[PvLine<G>],
        on_info: &mut dyn FnMut(&SearchInfo<G>),
    ) {
        self.shared.nodes[self.id]
            .0
            .store(self.nodes, Ordering::Relaxed);
        self.publish_table_hits();
        let nodes = self.shared.total_nodes();
        let time = self.clock.started.elapsed();
        let secs = time.as_secs_f64();
        on_info(&SearchInfo {
            depth,
            mean_depth: if self.leaves > 0 {
                self.leaf_plies as f64 / self.leaves as f64
            } else {
                depth.plies() as f64
            },
            seldepth: Ply(self.seldepth),
            score,
            nodes,
            time,
            nps: if secs > 0.0 { nodes as f64 / secs } else { 0.0 },
            pv: lines.first().map(|l| l.pv.clone()).unwrap_or_default(),
            lines: lines.to_vec(),
            table_hits: self.shared.table_hits.load(Ordering::Relaxed),
            root_table: self.shared.root_table,
        });
    }

    /// Whether the main thread stops after the iteration of depth `d` that scored `score`,
    /// when the search's stability asks for `scale` times the usual time.
    fn enough(&self, d: i32, score: Score, scale: f64) -> bool {
        if self.clock.soft_limit_reached(scale) {
            return true;
        }
        // A forced result seen well within the horizon will not change: stop early when the
        // search is timed or unbounded (a fixed depth is searched in full).
        let bounded_only_by_depth =
            self.clock.limits.depth.is_some() && !self.clock.limits.is_timed();
        if let Some(p) = score.plies_to_end() {
            if !self.clock.limits.infinite && !bounded_only_by_depth && d as u32 > p + 2 {
                return true;
            }
        }
        // A single legal move needs no deep search unless analysing.
        self.root_moves.len() == 1 && !self.clock.limits.analyze && d >= 4
    }

    /// Searches the root moves at `depth` within (alpha, beta).
    fn root(&mut self, depth: Depth, mut alpha: Score, beta: Score) -> Score {
        let pos = self.root_pos;
        self.count_node();
        self.frames[0].pv.clear();
        self.keys[self.base] = G::hash(&pos);
        let mut best = -Score::INFINITE;
        let mut best_index = None;
        // In a multi-PV search the moves before `pv_index` have their lines already.
        let first = self.pv_index;
        for r in &mut self.root_moves[first..] {
            r.score = -Score::INFINITE;
        }
        for i in first..self.root_moves.len() {
            let rm = self.root_moves[i];
            let child = G::play(&pos, &rm.mv);
            self.enter_child(&pos, &rm.mv, &child, Ply::ROOT);
            let mut score;
            if i == first {
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
        if first > 0 {
            // The best of the moves left is not the root's best: nothing for the table.
            return best;
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
}

/// What the main thread learns between iterations about how settled its search is, for the
/// time manager: a search whose best move keeps changing, or whose score falls, needs more
/// time; a settled one, or a choice between two moves, less.
struct Unrest<M> {
    /// Best-move changes, each iteration's counting half as much as the next one's.
    changes: f64,
    last_best: Option<M>,
}

impl<M> Default for Unrest<M> {
    fn default() -> Self {
        Unrest {
            changes: 0.0,
            last_best: None,
        }
    }
}

impl<M: PartialEq + Copy> Unrest<M> {
    /// Records the best move of an iteration just completed.
    fn update(&mut self, best: M) {
        self.changes *= 0.5;
        if self.last_best.is_some_and(|m| m != best) {
            self.changes += 1.0;
        }
        self.last_best = Some(best);
    }

    /// How many times the usual time the search deserves, after an iteration that scored
    /// `score`, when the previous move's search scored `previous` and the root has `moves`
    /// legal moves.
    fn scale(&self, score: Score, previous: Option<Score>, moves: usize) -> f64 {
        // A best move that just changed may change again: look deeper before playing it.
        let instability = 0.8 + 1.1 * self.changes;
        // A falling score means trouble that a deeper search may still avoid.
        let falling = match previous {
            Some(p) if !p.is_decisive() && !score.is_decisive() => {
                let drop = (p.centi() - score.centi()).clamp(-300, 300);
                (1.0 + f64::from(drop) / 250.0).clamp(0.75, 1.5)
            }
            _ => 1.0,
        };
        // Two moves to choose from are told apart sooner than twenty.
        let narrow = if moves == 2 { 0.7 } else { 1.0 };
        (instability * falling * narrow).clamp(0.5, 2.5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changing_best_move_asks_for_more_time() {
        let mut u = Unrest::default();
        for _ in 0..8 {
            u.update(1u8);
        }
        let settled = u.scale(Score::DRAW, None, 20);
        u.update(2u8);
        let changed = u.scale(Score::DRAW, None, 20);
        assert!(settled < 1.0 && changed > 1.5, "{settled} {changed}");
        assert!(u.scale(Score::DRAW, None, 2) < changed);
    }

    #[test]
    fn a_falling_score_asks_for_more_time_and_a_rising_one_for_less() {
        let u = Unrest::<u8>::default();
        let same = u.scale(Score::from_centi(20), Some(Score::from_centi(20)), 20);
        let fell = u.scale(Score::from_centi(-80), Some(Score::from_centi(20)), 20);
        let rose = u.scale(Score::from_centi(120), Some(Score::from_centi(20)), 20);
        assert!(rose < same && same < fell, "{rose} {same} {fell}");
        let won = u.scale(Score::win_in(Ply(9)), Some(Score::from_centi(20)), 20);
        assert_eq!(won, same);
    }
}
