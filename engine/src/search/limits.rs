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
    /// Do not start a new iteration after this much time (an iteration usually takes longer
    /// than everything before it).
    pub soft: Duration,
    /// Stop searching at once after this much time.
    pub hard: Duration,
    /// The clock is nearly empty: answer at once (a shallow search on one thread), as a
    /// search with helpers costs more than the clock can pay.
    pub instant: bool,
}

impl TimeBudget {
    /// The budget for `limits`, or `None` when no time limit applies. `move_cost` is what a
    /// move costs besides its thinking, as measured on the previous moves.
    pub fn new(limits: &Limits, move_cost: Duration) -> Option<TimeBudget> {
        let mut budget: Option<TimeBudget> = None;
        if let Some(t) = limits.move_time {
            // A fixed move time is used in full: no later move can profit from time saved
            // now, and a partly searched iteration still improves the move (its first root
            // move is the previous best, and any move proven better replaces it).
            let hard = t.saturating_sub(safety_margin(t));
            budget = Some(TimeBudget {
                soft: hard,
                hard,
                instant: false,
            });
        }
        if let Some(c) = limits.clock {
            let b = TimeBudget::from_clock(&c, move_cost);
            budget = Some(match budget {
                Some(m) => TimeBudget {
                    soft: m.soft.min(b.soft),
                    hard: m.hard.min(b.hard),
                    instant: b.instant,
                },
                None => b,
            });
        }
        budget
    }

    fn from_clock(c: &Clock, move_cost: Duration) -> TimeBudget {
        // Moves to plan for: the moves to go, or an assumed 30 more moves in a sudden-death
        // game (draughts games rarely last much longer once the middle game is reached).
        let moves = c.moves_to_go.unwrap_or(30).clamp(1, 50);
        // Every move costs its fixed cost on top of its thinking, so the fixed cost of the
        // moves planned for is set aside first: otherwise a long game without increment pays
        // it out of the safety margin, move after move, until the flag falls (a game was
        // lost on time past ply 164 with the clock at 0-0.8 ms). Once the clock is down to that
        // reserve, moves are answered at once, for a fraction of that cost each, so the
        // reserve lasts for far more moves than it was planned for.
        let cost = move_cost.max(MIN_MOVE_COST);
        let reserve = safety_margin(c.time) + cost * moves;
        let left = c.time.saturating_sub(reserve);
        let base = left / moves + c.increment.mul_f64(0.8);
        if base < cost {
            // Thinking would cost less than answering: answer at once.
            return TimeBudget {
                soft: Duration::ZERO,
                hard: Duration::ZERO,
                instant: true,
            };
        }
        // What may be spent now: everything above the safety margin and this move's cost.
        let spendable = c.time.saturating_sub(safety_margin(c.time) + cost);
        let soft = base.min(spendable);
        // Allow a hard limit of several times the target for unstable iterations, but never
        // more than a fraction of what is left (with one move to go, all of it).
        let cap = if moves == 1 {
            spendable
        } else {
            spendable.mul_f64(0.4)
        };
        let hard = (base * 3).min(cap).max(soft);
        TimeBudget {
            soft: soft.mul_f64(0.5),
            hard,
            instant: false,
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
            let b = TimeBudget::new(&Limits::move_time(t), Duration::ZERO).expect("timed");
            assert!(b.hard < t || t.is_zero() || b.hard.is_zero());
            assert!(b.soft <= b.hard);
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
            let b = TimeBudget::new(&limits, Duration::from_millis(1)).expect("timed");
            assert!(b.hard < clock.time, "{time} {inc} {mtg:?}: {b:?}");
            assert!(b.soft <= b.hard);
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
            let b = TimeBudget::new(&sudden_death(ms), cost).expect("timed");
            assert!(b.instant && b.hard.is_zero(), "{ms} ms: {b:?}");
        }
        let b = TimeBudget::new(&sudden_death(200), cost).expect("timed");
        assert!(!b.instant && !b.hard.is_zero(), "{b:?}");
        // An increment that pays for thinking allows it even on an empty clock.
        let mut limits = sudden_death(3);
        if let Some(c) = limits.clock.as_mut() {
            c.increment = Duration::from_millis(50);
        }
        let b = TimeBudget::new(&limits, cost).expect("timed");
        assert!(!b.instant && b.hard < Duration::from_millis(3), "{b:?}");
    }

    /// A simulated sudden-death game of 0.2 s: every move costs its thinking (the hard limit,
    /// the worst case) plus a fixed 1 ms, or 0.2 ms when answered at once. The clock must
    /// last 200 moves, the longest game a match plays (400 plies).
    #[test]
    fn the_reserve_does_not_drain() {
        let cost = Duration::from_millis(1);
        let mut clock = Duration::from_millis(200);
        for _ in 0..200 {
            let b = TimeBudget::new(&sudden_death(clock.as_millis() as u64), cost).expect("timed");
            let spent = if b.instant {
                Duration::from_micros(200)
            } else {
                b.hard + cost
            };
            clock = clock.checked_sub(spent).expect("lost on time");
        }
        assert!(clock > Duration::from_millis(5), "{clock:?}");
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
