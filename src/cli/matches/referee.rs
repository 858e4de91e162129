//! One game between two engines (Hub or DXP), refereed with Polydam's own rules.
//!
//! The referee keeps the game in a [`GameRecord`] (so the variant's draw rules apply), sends
//! each Hub engine the start position and every move since (`pos pos=... moves="..."`), then
//! the `level` lines and `go think` (a DXP engine gets a GAMEREQ at the start and the moves as
//! they are played), and checks the answer: a move that does not parse as one legal move, a
//! bare `done`, a crash, a broken DXP exchange or a late answer loses the game for the engine
//! that gave it.

use std::time::Duration;

use polydam_engine::game::{Game, Side};
use polydam_engine::text::printable;

use super::engine::{quote, EngineFailure};
use super::kept::{KeptGame, Started};
use super::player::{Player, Turn};
use super::settings::{Adjudication, RefereeConfig, TimeControl};
use crate::openings::Opening;
use crate::pdn::PdnResult;
use polydam_protocol::lexer::excerpt;

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameEnd {
    /// The result, from White's point of view.
    pub result: PdnResult,
    /// Why the game ended, for the PDN `Termination` tag and the report.
    pub termination: String,
    /// The side that forfeited (illegal move, crash, time, no move) and why.
    pub forfeit: Option<(Side, String)>,
    /// Whether the engine playing each side (by [`Side::index`]) must be restarted.
    pub restart: [bool; 2],
    /// The moves of the whole game (the opening included) in PDN style.
    pub pdn_moves: Vec<String>,
    /// With a clock: the smallest time left on a clock when a move arrived (before the
    /// increment), in seconds, and the side it was; negative when a move was late but within
    /// the tolerance. `None` without a clock or before the first move.
    pub worst_margin: Option<(f64, Side)>,
    /// Seconds each side (by [`Side::index`]) spent on its moves.
    pub used: [f64; 2],
    /// Plies the engines played after the opening: 0 when the game ended before its first
    /// move.
    pub engine_plies: usize,
}

/// How every loss on time's reason begins, so that the report can tell them apart.
pub const TIME_FORFEIT: &str = "time forfeit";

/// Whether a forfeit's reason is a loss on time.
pub fn is_time_forfeit(why: &str) -> bool {
    why.starts_with(TIME_FORFEIT)
}

/// The `level` lines for the side to move.
fn level_lines(config: &RefereeConfig, clock_left: f64) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(depth) = config.depth {
        lines.push(format!("level depth={depth}"));
    }
    if let Some(nodes) = config.nodes {
        lines.push(format!("level nodes={nodes}"));
    }
    match config.time_control {
        Some(TimeControl::MoveTime(s)) => lines.push(format!("level move-time={s}")),
        Some(TimeControl::Clock { inc, .. }) => {
            lines.push(format!("level time={:.3} inc={inc}", clock_left.max(0.0)))
        }
        None => {}
    }
    lines
}

/// The clock after a move that took `used` seconds with `clock_left` left: the increment is
/// added, or the move loses on time when the clock went below zero by more than `grace`.
///
/// A clock below zero stays below zero (the engine is told `time=0`): the grace is one
/// tolerance for the whole game, for pipe latency and scheduling, not a fresh allowance per
/// move (resetting the clock to zero once let an engine out of time play whole games).
fn charge_clock(clock_left: f64, used: f64, inc: f64, grace: Duration) -> Result<f64, String> {
    let left = clock_left - used;
    if left < -grace.as_secs_f64() {
        return Err(format!(
            "{TIME_FORFEIT} (used {used:.3} s with {clock_left:.3} s left, {:.3} s past the \
             clock; the tolerance is {:.3} s)",
            -left,
            grace.as_secs_f64()
        ));
    }
    Ok(left + inc)
}

/// Tracks the engines' scores for adjudication.
#[derive(Default)]
struct ScoreWatch {
    /// Each side's last score, from White's point of view.
    last: [Option<f64>; 2],
    /// Consecutive plies with an agreed win, and for whom.
    win_streak: (usize, f64),
    /// Consecutive plies with an agreed draw.
    draw_streak: usize,
}

impl ScoreWatch {
    /// Records the mover's score; returns an adjudicated result if there is one.
    fn update(
        &mut self,
        adj: &Adjudication,
        side: Side,
        score: Option<f64>,
        plies: usize,
    ) -> Option<(PdnResult, String)> {
        self.last[side.index()] = score.map(|s| if side == Side::White { s } else { -s });
        let (Some(a), Some(b)) = (self.last[0], self.last[1]) else {
            self.win_streak = (0, 0.0);
            self.draw_streak = 0;
            return None;
        };
        if a.abs() >= adj.win_score && b.abs() >= adj.win_score && a.signum() == b.signum() {
            if self.win_streak.1 == a.signum() {
                self.win_streak.0 += 1;
            } else {
                self.win_streak = (1, a.signum());
            }
        } else {
            self.win_streak = (0, 0.0);
        }
        if a.abs() <= adj.draw_score && b.abs() <= adj.draw_score {
            self.draw_streak += 1;
        } else {
            self.draw_streak = 0;
        }
        if self.win_streak.0 >= adj.plies {
            let winner = if self.win_streak.1 > 0.0 {
                Side::White
            } else {
                Side::Black
            };
            return Some((
                PdnResult::win_for(winner),
                format!(
                    "adjudicated: both engines see a win for {} for {} plies",
                    winner.name(),
                    adj.plies
                ),
            ));
        }
        if self.draw_streak >= adj.plies && plies >= adj.draw_min_plies {
            return Some((
                PdnResult::Draw,
                format!(
                    "adjudicated: both engines see a draw for {} plies",
                    adj.plies
                ),
            ));
        }
        None
    }
}

/// Plays one game. `players` holds the engine for each side, indexed by [`Side::index`].
/// At the end each engine is told the game is over (DXP engines need it); one that does not
/// take it well is marked for a restart.
pub fn play_game<G: Game>(
    opening: &Opening<G>,
    players: [&mut Player; 2],
    config: &RefereeConfig,
) -> GameEnd {
    play_started(KeptGame::start(opening), players, config)
}

/// [`play_game`] from the opening, played: not generic in the game.
fn play_started(started: Started, players: [&mut Player; 2], config: &RefereeConfig) -> GameEnd {
    let mut tally = ClockTally::default();
    let [white, black] = players;
    let opening_plies = started.pdn_moves.len();
    let mut end = referee_moves(started, [&mut *white, &mut *black], config, &mut tally);
    end.worst_margin = tally.worst_margin;
    end.used = tally.used;
    end.engine_plies = end.pdn_moves.len().saturating_sub(opening_plies);
    for (side, player) in [(Side::White, white), (Side::Black, black)] {
        if !end.restart[side.index()] && !player.game_over(end.result, side) {
            end.restart[side.index()] = true;
        }
    }
    end
}

/// What the referee's watch saw of the engines' time, kept whatever way the game ends.
#[derive(Default)]
struct ClockTally {
    /// The smallest time left on a clock when a move arrived, and the side.
    worst_margin: Option<(f64, Side)>,
    /// Seconds each side spent on its moves.
    used: [f64; 2],
}

/// The game itself; `tally` follows the clocks as moves arrive.
fn referee_moves(
    started: Started,
    players: [&mut Player; 2],
    config: &RefereeConfig,
    tally: &mut ClockTally,
) -> GameEnd {
    let Started {
        game: mut record,
        start_hub,
        mut hub_moves,
        mut pdn_moves,
    } = started;
    let start_hub = quote(&start_hub);
    let mut clocks = match config.time_control {
        Some(TimeControl::Clock { time, .. }) => [time; 2],
        _ => [0.0; 2],
    };
    let mut watch = ScoreWatch::default();
    let forfeit = |side: Side, why: String, restart: bool, pdn_moves: Vec<String>| {
        let mut restarts = [false; 2];
        restarts[side.index()] = restart;
        GameEnd {
            result: PdnResult::win_for(side.opponent()),
            termination: format!("{} forfeits: {why}", side.name()),
            forfeit: Some((side, why)),
            restart: restarts,
            pdn_moves,
            worst_margin: None,
            used: [0.0; 2],
            engine_plies: 0,
        }
    };
    let ended = |result, termination, pdn_moves| GameEnd {
        result,
        termination,
        forfeit: None,
        restart: [false; 2],
        pdn_moves,
        worst_margin: None,
        used: [0.0; 2],
        engine_plies: 0,
    };

    for side in [Side::White, Side::Black] {
        match players[side.index()].new_game(&*record, side, config) {
            Ok(()) => {}
            Err(EngineFailure::Crashed(why)) => {
                return forfeit(side, format!("crashed ({why})"), true, pdn_moves);
            }
            Err(EngineFailure::Timeout) => {
                let why = "no answer to the game request".to_owned();
                return forfeit(side, why, true, pdn_moves);
            }
            Err(EngineFailure::Protocol(why)) => return forfeit(side, why, true, pdn_moves),
            Err(EngineFailure::Resigned) => {
                return forfeit(side, "resigned before the game".into(), true, pdn_moves);
            }
        }
    }

    loop {
        if let Some((result, why)) = record.rules_end() {
            return ended(result, why, pdn_moves);
        }
        if record.plies() >= config.max_plies {
            let why = format!("ply cap ({} plies)", config.max_plies);
            return ended(PdnResult::Draw, why, pdn_moves);
        }
        let side = record.side_to_move();
        let pos_line = if hub_moves.is_empty() {
            format!("pos pos={start_hub}")
        } else {
            format!("pos pos={start_hub} moves=\"{}\"", hub_moves.join(" "))
        };
        let clock_left = clocks[side.index()];
        let timeout = match config.time_control {
            Some(TimeControl::Clock { .. }) => {
                Duration::from_secs_f64((clock_left + config.grace.as_secs_f64()).max(0.0))
            }
            _ => config.move_timeout,
        };
        let engine = &mut *players[side.index()];
        let turn = Turn {
            record: &*record,
            pos_line: &pos_line,
            level_lines: &level_lines(config, clock_left),
            timeout,
        };
        let answer = match engine.think(&turn) {
            Ok(answer) => answer,
            Err(EngineFailure::Timeout) => {
                tally.used[side.index()] += timeout.as_secs_f64();
                engine.kill();
                let why = format!(
                    "{TIME_FORFEIT} (no move within {:.2} s)",
                    timeout.as_secs_f64()
                );
                return forfeit(side, why, true, pdn_moves);
            }
            Err(EngineFailure::Crashed(why)) => {
                return forfeit(side, format!("crashed ({why})"), true, pdn_moves);
            }
            Err(EngineFailure::Protocol(why)) => return forfeit(side, why, true, pdn_moves),
            Err(EngineFailure::Resigned) => {
                let why = format!("{} resigns", side.name());
                return ended(PdnResult::win_for(side.opponent()), why, pdn_moves);
            }
        };
        tally.used[side.index()] += answer.elapsed.as_secs_f64();
        if let Some(TimeControl::Clock { inc, .. }) = config.time_control {
            let used = answer.elapsed.as_secs_f64();
            let margin = clock_left - used;
            if tally.worst_margin.is_none_or(|(m, _)| margin < m) {
                tally.worst_margin = Some((margin, side));
            }
            match charge_clock(clock_left, used, inc, config.grace) {
                Ok(left) => clocks[side.index()] = left,
                Err(why) => return forfeit(side, why, false, pdn_moves),
            }
        }
        let Some(text) = answer.mv else {
            return forfeit(side, "no move (bare done)".into(), false, pdn_moves);
        };
        let [hub, pdn] = match record.play_text(&text) {
            Some(texts) => texts,
            None => {
                // What an engine or a DXP peer wrote is shown escaped: it goes to the terminal.
                let mut why = format!("illegal move {}", printable(&excerpt(&text)));
                if let Some(said) = &answer.error {
                    let said = printable(&excerpt(said)).into_owned();
                    why.push_str(&format!(" (the engine said: {said})"));
                }
                return forfeit(side, why, false, pdn_moves);
            }
        };
        hub_moves.push(hub);
        pdn_moves.push(pdn);
        if let Some(adj) = &config.adjudication {
            if let Some((result, why)) = watch.update(adj, side, answer.score, record.plies()) {
                return ended(result, why, pdn_moves);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADJ: Adjudication = Adjudication {
        plies: 3,
        win_score: 5.0,
        draw_score: 0.1,
        draw_min_plies: 6,
    };

    #[test]
    fn agreed_win_is_adjudicated_after_the_streak() {
        let mut w = ScoreWatch::default();
        // White sees +6, Black sees -7 (a win for White from White's view): agreed.
        assert_eq!(w.update(&ADJ, Side::White, Some(6.0), 1), None);
        assert_eq!(w.update(&ADJ, Side::Black, Some(-7.0), 2), None);
        assert_eq!(w.update(&ADJ, Side::White, Some(6.5), 3), None);
        let (r, why) = w.update(&ADJ, Side::Black, Some(-8.0), 4).unwrap();
        assert_eq!(r, PdnResult::WhiteWins);
        assert!(why.contains("white"), "{why}");
    }

    #[test]
    fn disagreement_or_missing_scores_reset_the_streak() {
        let mut w = ScoreWatch::default();
        w.update(&ADJ, Side::White, Some(6.0), 1);
        w.update(&ADJ, Side::Black, Some(-7.0), 2);
        // Black now thinks it is winning: no agreement.
        assert_eq!(w.update(&ADJ, Side::Black, Some(7.0), 3), None);
        assert_eq!(w.update(&ADJ, Side::White, None, 4), None);
        assert_eq!(w.win_streak.0, 0);
    }

    #[test]
    fn draws_wait_for_the_minimum_ply() {
        let mut w = ScoreWatch::default();
        for ply in 1..=5 {
            let side = if ply % 2 == 1 {
                Side::White
            } else {
                Side::Black
            };
            assert_eq!(w.update(&ADJ, side, Some(0.0), ply), None);
        }
        let (r, _) = w.update(&ADJ, Side::Black, Some(0.05), 6).unwrap();
        assert_eq!(r, PdnResult::Draw);
    }

    #[test]
    fn a_clock_below_zero_is_not_refilled() {
        let grace = Duration::from_millis(20);
        // 15 ms over: within the tolerance, and the debt is kept.
        let left = charge_clock(0.010, 0.025, 0.0, grace).expect("within the tolerance");
        assert!((left + 0.015).abs() < 1e-9, "{left}");
        // 10 ms more: 25 ms past the clock, lost, although this move alone took 10 ms.
        let why = charge_clock(left, 0.010, 0.0, grace).expect_err("lost on time");
        assert!(why.contains("time forfeit"), "{why}");
        assert!(why.contains("tolerance is 0.020 s"), "{why}");
        // `--time 0`: the first move that takes longer than the tolerance loses.
        assert!(charge_clock(0.0, 0.021, 0.0, grace).is_err());
        // The increment pays the debt back.
        let left = charge_clock(0.0, 0.015, 0.05, grace).expect("within the tolerance");
        assert!((left - 0.035).abs() < 1e-9, "{left}");
    }

    #[test]
    fn level_lines_per_time_control() {
        let mut c = RefereeConfig {
            time_control: Some(TimeControl::MoveTime(0.05)),
            depth: Some(3),
            nodes: None,
            move_timeout: Duration::from_secs(1),
            grace: Duration::from_millis(100),
            max_plies: 10,
            adjudication: None,
        };
        assert_eq!(
            level_lines(&c, 0.0),
            ["level depth=3", "level move-time=0.05"]
        );
        c.depth = None;
        c.nodes = Some(20000);
        c.time_control = None;
        assert_eq!(level_lines(&c, 0.0), ["level nodes=20000"]);
        c.nodes = None;
        c.time_control = Some(TimeControl::Clock {
            time: 10.0,
            inc: 0.1,
        });
        assert_eq!(level_lines(&c, 9.5), ["level time=9.500 inc=0.1"]);
    }
}
