//! The pruning and reduction decisions of a node: table cutoffs, reverse futility pruning,
//! internal iterative reduction, futility pruning and late-move reductions.
//!
//! Each decision is a small function inlined into the node's search (they run at most nodes),
//! sharing two facts that are costly to learn and often not needed: the static evaluation and
//! whether either side threatens a capture, each learnt by the first test that asks.

use super::node::Plan;
use crate::game::Game;
use crate::score::{Depth, Ply, Score};
use crate::search::tt::{Bound, TtHit};

/// Deepest remaining depth at which reverse futility pruning applies.
pub(super) const RFP_DEPTH: i32 = 3;
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
pub(super) fn reduction(depth: i32, n: usize) -> i32 {
    // ln(depth) * ln(n) / 2: the usual shape; late moves at high depth lose most.
    let r = (depth as f64).ln() * (n as f64).ln() / 2.0;
    r as i32
}

/// The score a table entry settles a node with (`ply`, `depth`, window alpha-beta), if it
/// does: outside the principal variation, a deep enough entry whose bound decides the window.
#[inline(always)]
pub(super) fn table_cut(
    hit: Option<TtHit>,
    ply: Ply,
    depth: Depth,
    alpha: Score,
    beta: Score,
    pv_node: bool,
) -> Option<Score> {
    let h = hit?;
    let score = h.score.unpack_tt(ply);
    if !pv_node && h.depth >= depth {
        let cut = match h.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        if cut {
            return Some(score);
        }
    }
    None
}

/// What the pruning tests learn of a node's position when first needed, and only then.
pub(super) struct StaticFacts {
    /// The static evaluation, for pruning: only meaningful in a quiet position that nothing
    /// threatens (a capture for either side would change the material at once).
    pub eval: Option<Score>,
    /// Whether either side threatens a capture.
    threat: Option<bool>,
}

impl StaticFacts {
    /// The facts known before any test: the evaluation the table stored, if any.
    #[inline(always)]
    pub fn new(eval: Option<Score>) -> Self {
        StaticFacts { eval, threat: None }
    }

    /// The static evaluation of `pos`, computed once.
    #[inline(always)]
    fn eval<G: Game>(&mut self, pos: &G::Position) -> Score {
        *self
            .eval
            .get_or_insert_with(|| Score::from_eval(G::evaluate(pos)))
    }

    /// Whether either side threatens a capture in `pos`, asked once.
    #[inline(always)]
    fn threat<G: Game>(&mut self, pos: &G::Position) -> bool {
        *self.threat.get_or_insert_with(|| G::capture_threat(pos))
    }
}

/// Reverse futility pruning: at shallow depth, a quiet position evaluated far above beta is
/// assumed to hold (the opponent would need a shot worth the margin). Returns the score to
/// return when the node (planned as `plan`) is pruned.
#[inline(always)]
pub(super) fn reverse_futility<G: Game>(
    pos: &G::Position,
    plan: &Plan,
    beta: Score,
    facts: &mut StaticFacts,
) -> Option<Score> {
    let depth = plan.depth;
    if !plan.pv_node
        && !plan.capture_node
        && depth.plies() <= RFP_DEPTH
        && !beta.is_decisive()
        && !facts.threat::<G>(pos)
    {
        let e = facts.eval::<G>(pos);
        if e - RFP_MARGIN * depth.plies() >= beta {
            return Some(e);
        }
    }
    None
}

/// Internal iterative reduction: a node the table knows no move for was not searched before
/// (or failed low everywhere), so it is unlikely to matter; searching it a ply shallower costs
/// little, and the table move the shallower search leaves orders the next visit.
#[inline(always)]
pub(super) fn iterative_reduction(depth: Depth, table_knows_a_move: bool) -> Depth {
    if !table_knows_a_move && depth.plies() >= IIR_DEPTH {
        depth - 1
    } else {
        depth
    }
}

/// Futility pruning: a quiet, unthreatened node evaluated far below alpha will not be lifted
/// above it by a quiet move that offers no exchange; only its first move and the moves that
/// hand over a capture (a shot may win material) are searched. Whether the node (planned as
/// `plan`) is futile.
#[inline(always)]
pub(super) fn futile<G: Game>(
    pos: &G::Position,
    plan: &Plan,
    alpha: Score,
    facts: &mut StaticFacts,
) -> bool {
    let depth = plan.depth;
    if !plan.pv_node
        && !plan.capture_node
        && !plan.horizon_extension
        && depth.plies() <= FUTILITY_DEPTH
        && !alpha.is_decisive()
        && !facts.threat::<G>(pos)
    {
        let e = facts.eval::<G>(pos);
        return e + FUTILITY_BASE + FUTILITY_MARGIN * depth.plies() <= alpha;
    }
    false
}

/// Whether a move, the `searched`-th searched at a node of `depth`, is a late quiet move
/// that late-move reductions apply to: neither the node nor the move captures, nor does the
/// move hand the opponent a capture (such moves are forcing, like checks in chess).
#[inline(always)]
pub(super) fn reducible<G: Game>(
    depth: Depth,
    capture_node: bool,
    searched: usize,
    child: &G::Position,
) -> bool {
    depth.plies() >= 3 && !capture_node && searched > LMR_FIRST_REDUCED && !G::has_capture(child)
}
