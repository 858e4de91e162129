//! What a `go` or `analyse` may ask of the engine besides its limit: several lines, the
//! threads and table of the connection's engine, a strength level, and the engine's clock
//! (documented in docs/web.md).

use std::time::Duration;

use polydam_engine::search::{check_hash_mib, level_plan, mix_seed, Clock, LevelPlan, Limits};

use super::session::SearchMode;

/// Most lines an analysis shows.
pub const MAX_MULTIPV: u32 = 10;
/// Largest table a page may ask for, in MiB (a power of two).
pub const MAX_HASH_MIB: u32 = 4096;
/// Most seconds a clock may hold (ten hours).
pub const MAX_CLOCK: f64 = 36_000.0;
/// Largest increment, in seconds.
pub const MAX_INCREMENT: f64 = 600.0;

/// The optional fields of a `go` or `analyse` message.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchExtras {
    /// Lines to report (1 to [`MAX_MULTIPV`]).
    pub multipv: Option<u32>,
    /// Search threads of the connection's engine.
    pub threads: Option<u32>,
    /// Its transposition table, MiB (a power of two).
    pub hash: Option<u32>,
    /// Strength level for `go`: 0 full strength, 1 (beginner) to 6.
    pub level: Option<u32>,
    /// For `go`: the engine's time left, in seconds.
    pub time: Option<f64>,
    /// For `go`: the increment added after each move, in seconds.
    pub inc: Option<f64>,
}

/// How the connection's engine is set up for one search.
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineSetup {
    /// Threads to search with, if the page chose.
    pub threads: Option<usize>,
    /// Table size in MiB, if the page chose.
    pub hash_mib: Option<usize>,
    /// The level whose choice of move is played, with its random number.
    pub level: Option<(LevelPlan, u64)>,
}

/// Most threads a page may ask for: the machine's cores.
pub fn max_threads() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(256) as u32)
}

/// Checks `extras` for a search of `mode`, narrows `limits` to them (`movetime_given`: the
/// message had a `movetime`, which a clock then does not replace) and returns the engine's
/// setup; an error says which field is wrong.
pub fn apply(
    mode: SearchMode,
    extras: &SearchExtras,
    movetime_given: bool,
    limits: &mut Limits,
) -> Result<EngineSetup, String> {
    let mut setup = EngineSetup::default();
    if let Some(k) = extras.multipv {
        if !(1..=MAX_MULTIPV).contains(&k) {
            return Err(format!("multipv must be from 1 to {MAX_MULTIPV}, not {k}"));
        }
        limits.multipv = k as usize;
    }
    if let Some(t) = extras.threads {
        let max = max_threads();
        if !(1..=max).contains(&t) {
            return Err(format!(
                "threads must be from 1 to {max} (this machine's cores), not {t}"
            ));
        }
        setup.threads = Some(t as usize);
    }
    if let Some(mib) = extras.hash {
        if !(1..=MAX_HASH_MIB).contains(&mib) || !mib.is_power_of_two() {
            return Err(format!(
                "hash must be a power of two from 1 to {MAX_HASH_MIB} (MiB), not {mib}"
            ));
        }
        check_hash_mib(u64::from(mib)).map_err(|e| e.to_string())?;
        setup.hash_mib = Some(mib as usize);
    }
    let playing = mode == SearchMode::Play;
    if let Some(level) = extras.level {
        let level = u8::try_from(level)
            .ok()
            .filter(|&l| l == 0 || level_plan(l).is_some())
            .ok_or_else(|| format!("level must be from 0 (full strength) to 6, not {level}"))?;
        if let Some(plan) = level_plan(level).filter(|_| playing) {
            plan.apply(limits);
            setup.level = Some((plan, random()));
        }
    }
    if extras.inc.is_some() && extras.time.is_none() {
        return Err("inc needs time (the engine's clock)".into());
    }
    if let Some(time) = extras.time {
        if !time.is_finite() || !(0.0..=MAX_CLOCK).contains(&time) {
            return Err(format!(
                "time must be the engine's seconds left, from 0 to {MAX_CLOCK}, not {time}"
            ));
        }
        let inc = extras.inc.unwrap_or(0.0);
        if !inc.is_finite() || !(0.0..=MAX_INCREMENT).contains(&inc) {
            return Err(format!(
                "inc must be from 0 to {MAX_INCREMENT} seconds, not {inc}"
            ));
        }
        if playing {
            limits.clock = Some(Clock {
                time: Duration::from_secs_f64(time),
                increment: Duration::from_secs_f64(inc),
                moves_to_go: None,
            });
            if !movetime_given {
                // The clock decides the time, not the default second a move.
                limits.move_time = None;
            }
        }
    }
    Ok(setup)
}

/// A random number for a level's choice, from the clock.
fn random() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    mix_seed(nanos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extras_are_checked_and_applied() {
        let mut limits = Limits {
            move_time: Some(Duration::from_secs(1)),
            ..Limits::default()
        };
        let extras = SearchExtras {
            multipv: Some(3),
            level: Some(2),
            time: Some(30.0),
            inc: Some(1.0),
            ..SearchExtras::default()
        };
        let setup = apply(SearchMode::Play, &extras, false, &mut limits).expect("valid");
        assert_eq!(limits.move_time, None);
        assert_eq!(limits.clock.map(|c| c.time), Some(Duration::from_secs(30)));
        assert!(limits.multipv >= 3 && limits.nodes.is_some());
        assert_eq!(setup.level.map(|(p, _)| p.level), Some(2));
        let bad = |e: SearchExtras| apply(SearchMode::Analyse, &e, false, &mut Limits::default());
        assert!(bad(SearchExtras {
            multipv: Some(0),
            ..SearchExtras::default()
        })
        .is_err());
        assert!(bad(SearchExtras {
            hash: Some(48),
            ..SearchExtras::default()
        })
        .is_err_and(|e| e.contains("power of two")));
        assert!(bad(SearchExtras {
            level: Some(7),
            ..SearchExtras::default()
        })
        .is_err());
        assert!(bad(SearchExtras {
            time: Some(f64::NAN),
            ..SearchExtras::default()
        })
        .is_err());
        assert!(bad(SearchExtras {
            inc: Some(1.0),
            ..SearchExtras::default()
        })
        .is_err());
    }
}
