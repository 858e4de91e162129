//! What bounds a search (depth, nodes, time, clock), the control shared with the thread that
//! reads commands (stop, ponder, ponder hit), and the time manager that turns a clock into
//! deadlines.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::score::Depth;

/// A game clock: the time left for the side to move, its increment, and the moves to play
/// before the next time control (if any).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clock {
    /// Time left on the clock.
    pub time: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves to play before the clock is refilled; `None` = the rest of the game.
    pub moves_to_go: Option<u32>,
}

/// Limits of one search. Several may be set: the search stops at the first one reached.
/// With none set (and not `infinite`), the search runs until [`SearchControl::stop`] or the
/// maximum depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Limits {
    /// Last iteration to complete.
    pub depth: Option<Depth>,
    /// Nodes to search (approximate with several threads: checked every few hundred nodes).
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub move_time: Option<Duration>,
    /// Clock-based time control.
    pub clock: Option<Clock>,
    /// Search until stopped, even after a forced result or the maximum depth is reached.
    pub infinite: bool,
    /// Analysis: search even when there is a single legal move (otherwise a timed search with
    /// one legal move returns at once).
    pub analyze: bool,
    /// How many root moves to report with their lines (multi-PV): the best `multipv` moves,
    /// each searched in full at every iteration. 0 and 1 both mean one line, the ordinary
    /// search; more lines cost more time at each depth.
    pub multipv: usize,
}

impl Limits {
    /// Search to `depth` plies.
    pub fn depth(depth: i32) -> Limits {
        Limits {
            depth: Some(Depth(depth)),
            ..Limits::default()
        }
    }

    /// Search `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Search for `time`.
    pub fn move_time(time: Duration) -> Limits {
        Limits {
            move_time: Some(time),
            ..Limits::default()
        }
    }

    /// The number of lines to report: [`Limits::multipv`], at least 1.
    pub fn lines(&self) -> usize {
        self.multipv.max(1)
    }

    /// Whether a time limit applies (fixed move time or a clock).
    pub fn is_timed(&self) -> bool {
        self.move_time.is_some() || self.clock.is_some()
    }
}

/// Shared between the search and the thread that reads commands: asks a running search to stop,
/// and carries the ponder state.
///
/// While pondering no time limit applies; [`SearchControl::ponder_hit`] turns the search into a
/// timed one whose clock starts at that instant. Call [`SearchControl::reset`] before each new
/// search (the searcher does not, so that a `stop` arriving just before the search starts is not
/// lost).
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// Nanoseconds from [`epoch`] to the ponder hit, plus one; 0 = none. An atomic rather than
    /// a lock: every search thread reads it when it checks the clock.
    ponder_hit_at: AtomicU64,
}

/// A fixed instant of this process, from which ponder hits are counted.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

impl SearchControl {
    /// A control with no stop requested, not pondering.
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    /// Clears the stop request and the ponder state; `pondering` starts the next search as a
    /// ponder search.
    pub fn reset(&self, pondering: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        self.ponder_hit_at.store(0, Ordering::SeqCst);
    }

    /// Asks the search to stop as soon as possible (within a few milliseconds); it still
    /// returns its best move.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was requested.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether the search is (still) pondering.
    #[inline]
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// The predicted move was played: the search goes on as a timed search, with its clock
    /// starting now.
    pub fn ponder_hit(&self) {
        let since = epoch().elapsed().as_nanos().min(u64::MAX as u128 - 1) as u64;
        self.ponder_hit_at.store(since + 1, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// When the ponder hit arrived, if it did.
    pub fn ponder_hit_time(&self) -> Option<Instant> {
        match self.ponder_hit_at.load(Ordering::SeqCst) {
            0 => None,
            n => Some(epoch() + Duration::from_nanos(n - 1)),
        }
    }
}

/// Time kept back from every allotment for the unwinding after the deadline, thread
/// scheduling on a loaded machine and pipe latency: 5 ms plus 5% of the allotment, at most
/// 50 ms (measured: a stopped search returns within 1-3 ms of its deadline on a loaded
/// 2-core machine, the rest is the operating system's).
fn safety_margin(available: Duration) -> Duration {
    (available / 20 + Duration::from_millis(5)).min(Duration::from_millis(50))
}

/// Least fixed cost assumed for a move, besides its thinking: the engine measures its own
/// (starting and joining threads, overshooting the deadline), but not the client's reading and
/// writing of the pipes, which two processes on a loaded machine measured at 0.1-0.5 ms.
pub(crate) const MIN_MOVE_COST: Duration = Duration::from_micros(500);

/// Deadlines of one search, derived from the limits when the clock starts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TimeBudget {
    /// The time this move is planned to take. The main thread starts no new iteration once
    /// it has spent [`SOFT_SHARE`] of it, scaled by how unsettled its search is (see
    /// [`TimeBudget::soft`]).
    pub target: Duration,
    /// Stop searching at once after this much time.
    pub hard: Duration,
    /// The clock is nearly empty: answer at once (a shallow search on one thread), as a
    /// search with helpers costs more than the clock can pay.
    pub instant: bool,
    /// Whether the soft limit follows the search's stability (a clock); a fixed move time is
    /// used in full whatever the search says.
    pub flexible: bool,
}

/// The share of the planned time after which no new iteration starts in a settled search:
/// an iteration takes longer than everything before it, so a search stopped at this share
/// ends on average near the planned time.
const SOFT_SHARE: f64 = 0.7;

/// Below this many fixed move costs in an even share of the clock, the clock is too short
/// for the sudden-death plan (see [`TimeBudget::from_clock`]).
const POOR_CLOCK_COSTS: u32 = 20;

/// The sudden-death plan: how many more moves the side to move should budget for, and what
/// share of an even split of the clock this move deserves, from `progress`, the fraction of
/// the start position's pieces still on the board (`None` when the family cannot tell).
///
/// Games are decided in the middle game, so the opening (every piece still on the board)
/// gets half an even share and the middle game a little more than one; the moves planned for
/// shrink with the material, so that the clock is spent by the usual end of a game but never
/// run down by a long one (each move takes a share of what is left).
fn sudden_death_plan(progress: Option<f64>) -> (f64, f64) {
    match progress {
        Some(f) => {
            let f = f.clamp(0.0, 1.0);
            (8.0 + 30.0 * f, (0.5 + 3.0 * (1.0 - f)).min(1.1))
        }
        None => (30.0, 0.8),
    }
}

impl TimeBudget {
    /// The budget for `limits`, or `None` when no time limit applies. `move_cost` is what a
    /// move costs besides its thinking, as measured on the previous moves; `progress` is the
    /// fraction of the start position's pieces left on the board, if known.
    pub fn new(limits: &Limits, move_cost: Duration, progress: Option<f64>) -> Option<TimeBudget> {
        let mut budget: Option<TimeBudget> = None;
        if let Some(t) = limits.move_time {
            // A fixed move time is used in full: no later move can profit from time saved
            // now, and a partly searched iteration still improves the move (its first root
            // move is the previous best, and any move proven better replaces it).
            let hard = t.saturating_sub(safety_margin(t));
            budget = Some(TimeBudget {
                target: hard,
                hard,
                instant: false,
                flexible: false,
            });
        }
        if let Some(c) = limits.clock {
            let b = TimeBudget::from_clock(&c, move_cost, progress);
            budget = Some(match budget {
                Some(m) => TimeBudget {
                    target: m.target.min(b.target),
                    hard: m.hard.min(b.hard),
                    instant: b.instant,
                    flexible: false,
                },
                None => b,
            });
        }
        budget
    }

    /// The soft limit when the search's stability asks for `scale` times the usual time:
    /// no new iteration starts after it.
    pub fn soft(&self, scale: f64) -> Duration {
        if self.flexible {
            // Half the hard limit at most: an iteration started later would be cut by it, and
            // the unwinding past a hard limit is paid for on every move after (move cost).
            self.target.mul_f64(SOFT_SHARE * scale).min(self.hard / 2)
        } else {
            self.hard
        }
    }

    fn from_clock(c: &Clock, move_cost: Duration, progress: Option<f64>) -> TimeBudget {
        // Moves to plan for: the moves to go (an even split), or the sudden-death plan.
        let (moves, weight) = match c.moves_to_go {
            Some(m) => (f64::from(m.clamp(1, 50)), 1.0),
            None => sudden_death_plan(progress),
        };
        // Every move costs its fixed cost on top of its thinking, so the fixed cost of the
        // moves planned for is set aside first: otherwise a long game without increment pays
        // it out of the safety margin, move after move, until the flag falls (a game was
        // lost on time past ply 164 with the clock at 0-0.8 ms). Once the clock is down to that
        // reserve, moves are answered at once, for a fraction of that cost each, so the
        // reserve lasts for far more moves than it was planned for.
        let cost = move_cost.max(MIN_MOVE_COST);
        // In sudden death the reserve is for 30 moves whatever the plan: a long game may
        // bring more than the plan expects, and a reserve grown with the plan leaves a short
        // clock nothing to think with.
        let reserve_moves = match c.moves_to_go {
            Some(_) => moves,
            None => 30.0,
        };
        let reserve = safety_margin(c.time) + cost.mul_f64(reserve_moves.ceil());
        let left = c.time.saturating_sub(reserve);
        let increment = c.increment.mul_f64(0.8);
        let even = left.mul_f64(1.0 / reserve_moves) + increment;
        if even < cost {
            // Thinking would cost less than answering: answer at once.
            return TimeBudget {
                target: Duration::ZERO,
                hard: Duration::ZERO,
                instant: true,
                flexible: false,
            };
        }
        // On a clock so short that a move's even share is worth few fixed costs, a steady
        // 70% of that share instead of the plan: the plan's middle-game spending would leave
        // the rest of the game to instant answers.
        let planned = if even < cost * POOR_CLOCK_COSTS {
            even.mul_f64(0.7)
        } else {
            left.mul_f64(weight / moves) + increment
        };
        // What may be spent now: everything above the safety margin and this move's cost.
        let spendable = c.time.saturating_sub(safety_margin(c.time) + cost);
        let target = planned.min(spendable);
        // Allow a hard limit of several times the target for unsettled searches, but never
        // more than a fraction of what is left (with one move to go, all of it).
        let cap = if c.moves_to_go == Some(1) {
            spendable
        } else {
            spendable.mul_f64(0.35)
        };
        let hard = (planned * 4).min(cap).max(target);
        TimeBudget {
            target,
            hard,
            instant: false,
            flexible: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_time_is_never_exceeded() {
        for ms in [1u64, 10, 100, 1000, 60_000] {
            let t = Duration::from_millis(ms);
            let b = TimeBudget::new(&Limits::move_time(t), Duration::ZERO, None).expect("timed");
            assert!(b.hard < t || t.is_zero() || b.hard.is_zero());
            assert!(b.soft(1.0) <= b.hard && b.soft(3.0) <= b.hard);
        }
    }

    #[test]
    fn clock_budget_stays_within_the_time_left() {
        for (time, inc, mtg) in [
            (1000u64, 0u64, None),
            (100, 0, None),
            (60_000, 1000, None),
            (5000, 0, Some(1)),
            (5000, 0, Some(40)),
            (10, 2000, None),
        ] {
            let clock = Clock {
                time: Duration::from_millis(time),
                increment: Duration::from_millis(inc),
                moves_to_go: mtg,
            };
            let limits = Limits {
                clock: Some(clock),
                ..Limits::default()
            };
            let b = TimeBudget::new(&limits, Duration::from_millis(1), None).expect("timed");
            assert!(b.hard < clock.time, "{time} {inc} {mtg:?}: {b:?}");
            assert!(b.soft(1.0) <= b.hard && b.soft(3.0) <= b.hard);
        }
    }

    fn sudden_death(ms: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                time: Duration::from_millis(ms),
                ..Clock::default()
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn a_nearly_empty_clock_is_answered_at_once() {
        let cost = Duration::from_millis(1);
        // 30 planned moves at 1 ms each, plus the safety margin: below that, no thinking.
        for ms in [0, 1, 5, 20, 35] {
            let b = TimeBudget::new(&sudden_death(ms), cost, None).expect("timed");
            assert!(b.instant && b.hard.is_zero(), "{ms} ms: {b:?}");
        }
        let b = TimeBudget::new(&sudden_death(200), cost, None).expect("timed");
        assert!(!b.instant && !b.hard.is_zero(), "{b:?}");
        // An increment that pays for thinking allows it even on an empty clock.
        let mut limits = sudden_death(3);
        if let Some(c) = limits.clock.as_mut() {
            c.increment = Duration::from_millis(50);
        }
        let b = TimeBudget::new(&limits, cost, None).expect("timed");
        assert!(!b.instant && b.hard < Duration::from_millis(3), "{b:?}");
    }

    /// A simulated sudden-death game of 0.2 s: every move costs its thinking (the hard limit,
    /// the worst case) plus a fixed 1 ms, or 0.2 ms when answered at once. The clock must
    /// last 200 moves, the longest game a match plays (400 plies).
    #[test]
    fn the_reserve_does_not_drain() {
        let cost = Duration::from_millis(1);
        for progress in [None, Some(1.0), Some(0.6), Some(0.1)] {
            let mut clock = Duration::from_millis(200);
            for _ in 0..200 {
                let limits = sudden_death(clock.as_millis() as u64);
                let b = TimeBudget::new(&limits, cost, progress).expect("timed");
                let spent = if b.instant {
                    Duration::from_micros(200)
                } else {
                    b.hard + cost
                };
                clock = clock.checked_sub(spent).expect("lost on time");
            }
            assert!(clock > Duration::from_millis(5), "{progress:?}: {clock:?}");
        }
    }

    /// A minute's sudden-death game of 65 moves, the material falling from move 8 on as in
    /// engine games, each move taking its planned time: the middle game gets more per move
    /// than the opening, most of the clock is spent, and some is left.
    #[test]
    fn the_plan_spends_the_clock_on_the_middle_game() {
        let mut clock = Duration::from_secs(60);
        let mut spent = Vec::new();
        for k in 0..65u32 {
            let pieces = if k < 8 {
                40.0
            } else {
                (40.0 - f64::from(k - 8) * 0.68).max(6.0)
            };
            let limits = sudden_death(clock.as_millis() as u64);
            let b = TimeBudget::new(&limits, MIN_MOVE_COST, Some(pieces / 40.0)).expect("timed");
            assert!(!b.instant && b.soft(1.0) < b.target && b.target <= b.hard);
            clock -= b.target;
            spent.push(b.target.as_secs_f64());
        }
        let opening = spent[..10].iter().sum::<f64>() / 10.0;
        let middle = spent[15..50].iter().sum::<f64>() / 35.0;
        assert!(middle > 1.3 * opening, "{opening} {middle}");
        assert!(
            clock > Duration::from_secs(1) && clock < Duration::from_secs(10),
            "{clock:?}"
        );
    }

    #[test]
    fn ponder_hit_ends_pondering() {
        let c = SearchControl::new();
        c.reset(true);
        assert!(c.is_pondering());
        assert!(c.ponder_hit_time().is_none());
        c.ponder_hit();
        assert!(!c.is_pondering());
        assert!(c.ponder_hit_time().is_some());
        c.stop();
        assert!(c.is_stopped());
        c.reset(false);
        assert!(!c.is_stopped());
    }
}
