//! One game of a [`DxpSession`]: our moves searched, the opponent's received and checked, until
//! the rules, the opponent, the move limit or a fault end it.

use std::time::{Duration, Instant};

use polydam_engine::game::Side;
use polydam_engine::search::{Clock, Limits};

use super::exchange::{await_move, end_game, Confirmation, Decision};
use super::{default_game_limit, recv_text, After, DxpSession, Ears, GameSpec, PlayedGame};
use crate::dxp::conn::{Connection, RecvError};
use crate::dxp::message::{DxpMove, EndReason, GameEnd, Message};

/// Seconds per move when neither the GAMEREQ (0 minutes) nor the settings give a limit.
const DEFAULT_MOVETIME: f64 = 1.0;
/// The longest wait for the GAMEEND that confirms the end of a game.
const CONFIRM_TIMEOUT: Duration = Duration::from_secs(10);

/// A game in progress (the position and moves are the board's).
struct GameState {
    /// Time each side used, by [`Side::index`] (the opponent's as we measure it).
    used: [Duration; 2],
    /// The game budget per player, if the GAMEREQ gave one.
    budget: Option<Duration>,
    /// When the side to move started thinking.
    turn_started: Instant,
    /// When the game is abandoned, however it stands (the settings' game limit).
    abandon_at: Instant,
    /// The game limit.
    limit: Duration,
}

/// How a game ended, as recorded.
struct Ending {
    decision: Option<Decision>,
    why: String,
    fault: bool,
}

impl Ending {
    fn rules((decision, why): (Decision, String)) -> Ending {
        Ending {
            decision: Some(decision),
            why,
            fault: false,
        }
    }

    fn fault(why: String) -> Ending {
        Ending {
            decision: None,
            why,
            fault: true,
        }
    }
}

/// The end of a game and what the connection is good for after it; `None` while it goes on.
type Step = Option<(Ending, After)>;

impl DxpSession<'_> {
    /// Plays one game, hands it to the report and says what the connection is good for.
    pub(super) fn play(&mut self, conn: &mut Connection, spec: &GameSpec) -> After {
        self.played += 1;
        let number = self.played;
        self.board.clear_search();
        let name = self.settings.name.clone();
        let (white, black) = match spec.ours {
            Side::White => (name.as_str(), spec.opponent.as_str()),
            Side::Black => (spec.opponent.as_str(), name.as_str()),
        };
        let from = self.board.begin(spec.start);
        self.report.say(&format!(
            "game {number}: {white} - {black} ({} min, {} moves{})",
            spec.minutes,
            spec.moves,
            from.map_or(String::new(), |fen| format!(", from {fen}"))
        ));
        let budget = (spec.minutes > 0).then(|| Duration::from_secs(60 * u64::from(spec.minutes)));
        let limit = self
            .settings
            .game_limit
            .unwrap_or_else(|| default_game_limit(budget));
        let now = Instant::now();
        let mut game = GameState {
            used: [Duration::ZERO; 2],
            budget,
            turn_started: now,
            abandon_at: now + limit,
            limit,
        };
        let (ending, after) = self.game_loop(conn, spec, &mut game);
        if ending.fault {
            self.fault(&format!("game {number}: {}", ending.why));
        }
        match ending.decision {
            None => self.tally.unfinished += 1,
            Some(Decision::Draw) => self.tally.draws += 1,
            Some(Decision::Win(s)) if s == spec.ours => self.tally.wins += 1,
            Some(Decision::Win(_)) => self.tally.losses += 1,
        }
        self.report.game(&PlayedGame {
            number,
            peer: conn.peer(),
            white,
            black,
            facts: self.board.facts(),
            moves: self.board.pdn_moves(),
            decision: ending.decision,
            why: &ending.why,
        });
        after
    }

    /// The moves of one game until it ends.
    fn game_loop(
        &mut self,
        conn: &mut Connection,
        spec: &GameSpec,
        game: &mut GameState,
    ) -> (Ending, After) {
        loop {
            if Instant::now() >= game.abandon_at {
                return abandon(conn, game);
            }
            let ours = self.board.side_to_move() == spec.ours;
            let step = if ours {
                self.our_turn(conn, spec, game)
            } else {
                self.their_turn(conn, spec, game)
            };
            if let Some(end) = step {
                return end;
            }
        }
    }

    /// Our move: the game ends here by the rules or the move limit, or our move is sent.
    fn our_turn(&mut self, conn: &mut Connection, spec: &GameSpec, game: &mut GameState) -> Step {
        if let Some((decision, why)) = self.board.rules_end() {
            let after = self.end_game(conn, reason_for(decision, spec.ours), spec.stop_after);
            return Some((Ending::rules((decision, why)), after));
        }
        // The move limit: the side to move may end the game once each side has played the
        // GAMEREQ's number of moves.
        let limit = usize::from(spec.moves);
        if limit > 0 && self.board.plies() >= 2 * limit {
            let after = self.end_game(conn, EndReason::Unspecified, spec.stop_after);
            let why = format!("move limit of the game request ({limit} moves) reached");
            let ending = Ending {
                decision: None,
                why,
                fault: false,
            };
            return Some((ending, after));
        }
        let limits = self.limits(spec, game, spec.ours);
        if !self.board.search(&limits) {
            // The rules said the game goes on; a search without a move is a bug, but the game
            // still ends cleanly.
            let after = self.end_game(conn, EndReason::Unspecified, spec.stop_after);
            return Some((Ending::fault("the search found no move".into()), after));
        }
        let spent = game.turn_started.elapsed();
        let seconds = spent.as_secs_f64().round().min(9999.0) as u16;
        let message = match self.board.found_move(seconds) {
            Ok(m) => Message::Move(m),
            Err(e) => {
                let after = self.end_game(conn, EndReason::Unspecified, spec.stop_after);
                return Some((Ending::fault(e.to_string()), after));
            }
        };
        if let Err(e) = conn.send(&message) {
            let why = format!("the connection failed while sending our move: {e}");
            return Some((Ending::fault(why), After::Lost));
        }
        game.used[spec.ours.index()] += spent;
        self.board.play_found();
        game.turn_started = Instant::now();
        None
    }

    /// The opponent's move, awaited for its clock as we measure it plus the timeout.
    fn their_turn(&mut self, conn: &mut Connection, spec: &GameSpec, game: &mut GameState) -> Step {
        let mover = spec.ours.opponent();
        let waited_from = Instant::now();
        let left = game.budget.map_or(Duration::ZERO, |b| {
            b.saturating_sub(game.used[mover.index()])
        });
        let timeout = self.settings.timeout;
        let deadline = (waited_from + left + timeout).min(game.abandon_at);
        let mut ears = Ears {
            session: self,
            who: &spec.opponent,
        };
        let message = await_move(conn, deadline, &mut ears);
        game.used[mover.index()] += waited_from.elapsed();
        let stop = spec.stop_after;
        match message {
            Ok(Message::Move(m)) => self.their_move(conn, spec, game, &m),
            Ok(Message::GameEnd(end)) => Some(self.their_end(conn, spec, end)),
            Ok(other) => {
                let kind = other.kind().name();
                let why = format!(
                    "{} sent a {kind} during the game instead of a MOVE",
                    mover.name()
                );
                let _ = conn.send(&Message::Chat(format!("{}: {why}", self.settings.name)));
                let after = self.end_game(conn, EndReason::Unspecified, stop);
                Some((Ending::fault(why), after))
            }
            Err(RecvError::Malformed { text, error }) => {
                let why = self.malformed(conn, &text, &error.to_string());
                let after = self.end_game(conn, EndReason::Unspecified, stop);
                Some((Ending::fault(why), after))
            }
            Err(RecvError::Timeout) if Instant::now() >= game.abandon_at => {
                Some(abandon(conn, game))
            }
            Err(RecvError::Timeout) => {
                let why = format!(
                    "no move from {} within {:.1} s ({:.1} s of its clock and --timeout \
                     {:.1} s); game abandoned, connection closed",
                    mover.name(),
                    (left + timeout).as_secs_f64(),
                    left.as_secs_f64(),
                    timeout.as_secs_f64()
                );
                let end = GameEnd {
                    reason: EndReason::Unspecified,
                    stop: true,
                };
                let _ = conn.send(&Message::GameEnd(end));
                Some((Ending::fault(why), After::Lost))
            }
            Err(e) => {
                let why = format!(
                    "{} (after {} plies); game saved unfinished",
                    recv_text(&e, timeout),
                    self.board.plies()
                );
                Some((Ending::fault(why), After::Lost))
            }
        }
    }

    /// The opponent's MOVE: played when legal; the game ends on an illegal move, or where the
    /// rules ended it when the opponent played on.
    fn their_move(
        &mut self,
        conn: &mut Connection,
        spec: &GameSpec,
        game: &mut GameState,
        m: &DxpMove,
    ) -> Step {
        if let Some((decision, why)) = self.board.rules_end() {
            // Our move ended the game by Polydam's rules and the opponent played on: the game
            // ends where the rules ended it.
            let after = self.end_game(conn, reason_for(decision, spec.ours), spec.stop_after);
            let why = format!("{why}; the opponent played on with {m}");
            return Some((Ending::rules((decision, why)), after));
        }
        match self.board.play_dxp(m) {
            Ok(()) => {
                game.turn_started = Instant::now();
                None
            }
            Err(e) => {
                let why = format!("{} sent an {e}", spec.ours.opponent().name());
                let _ = conn.send(&Message::Chat(format!("{}: {why}", self.settings.name)));
                let after = self.end_game(conn, EndReason::Unspecified, spec.stop_after);
                Some((Ending::fault(why), after))
            }
        }
    }

    /// The opponent's GAMEEND: confirmed with ours; the game's result is the rules' when they
    /// ended it, else what the opponent says.
    fn their_end(
        &mut self,
        conn: &mut Connection,
        spec: &GameSpec,
        end: GameEnd,
    ) -> (Ending, After) {
        let confirm = GameEnd {
            reason: EndReason::Unspecified,
            stop: spec.stop_after,
        };
        let after = match conn.send(&Message::GameEnd(confirm)) {
            Ok(()) if end.stop => After::OpponentStops,
            Ok(()) => After::GoOn,
            Err(_) => After::Lost,
        };
        let mover = spec.ours.opponent();
        let who = mover.name();
        let ending = match (self.board.rules_end(), end.reason) {
            (Some(over), _) => Ending::rules(over),
            (None, EndReason::Resigns) => {
                Ending::rules((Decision::Win(mover.opponent()), format!("{who} resigns")))
            }
            (None, EndReason::Draw) => {
                Ending::rules((Decision::Draw, format!("{who} ended the game as a draw")))
            }
            (None, reason) => Ending {
                decision: None,
                why: format!(
                    "{who} ended the game ({}: GAMEEND reason {})",
                    reason.meaning(),
                    reason.digit()
                ),
                fault: false,
            },
        };
        (ending, after)
    }

    /// The search limits for our move: the settings' limits and the clock of the game budget.
    fn limits(&self, spec: &GameSpec, game: &GameState, us: Side) -> Limits {
        let mut limits = Limits {
            clock: None,
            ..self.settings.limits
        };
        if let Some(budget) = game.budget {
            // Our moves so far: half the plies, the odd one ours when we moved first.
            let plies = self.board.plies();
            let first = self.board.first_mover() == us;
            let ours = if first { plies.div_ceil(2) } else { plies / 2 };
            let played = ours.min(usize::from(u16::MAX)) as u16;
            let moves_to_go = (spec.moves > played).then(|| u32::from(spec.moves - played));
            limits.clock = Some(Clock {
                time: budget.saturating_sub(game.used[us.index()]),
                increment: Duration::ZERO,
                moves_to_go,
            });
        }
        if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.move_time.is_none()
            && limits.clock.is_none()
        {
            limits.move_time = Some(Duration::from_secs_f64(DEFAULT_MOVETIME));
        }
        limits
    }

    /// Sends our GAMEEND and waits for the opponent's (a MOVE that crossed it is dropped).
    fn end_game(&mut self, conn: &mut Connection, reason: EndReason, stop: bool) -> After {
        let deadline = Instant::now() + self.settings.timeout.min(CONFIRM_TIMEOUT);
        let mut ears = Ears {
            session: self,
            who: "the opponent",
        };
        match end_game(conn, GameEnd { reason, stop }, deadline, &mut ears) {
            Confirmation::Confirmed { stop: true } => After::OpponentStops,
            Confirmation::Confirmed { stop: false } => After::GoOn,
            Confirmation::Silent => {
                self.report
                    .warn("the opponent did not confirm the end of the game (no GAMEEND)");
                After::GoOn
            }
            Confirmation::Lost => After::Lost,
        }
    }
}

/// Ends a game that reached its limit: a GAMEEND that wants no more games, and the connection
/// given up, so that the listener is free for the next one.
fn abandon(conn: &mut Connection, game: &GameState) -> (Ending, After) {
    let end = GameEnd {
        reason: EndReason::Unspecified,
        stop: true,
    };
    let _ = conn.send(&Message::GameEnd(end));
    let why = format!(
        "game abandoned after {:.1} s, its limit (--game-limit); connection closed",
        game.limit.as_secs_f64()
    );
    (Ending::fault(why), After::Lost)
}

/// Our GAMEEND reason for a decision: we give up, see a draw, or see our win.
fn reason_for(decision: Decision, ours: Side) -> EndReason {
    match decision {
        Decision::Draw => EndReason::Draw,
        Decision::Win(side) if side == ours => EndReason::Wins,
        Decision::Win(_) => EndReason::Resigns,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_from_our_side() {
        assert_eq!(reason_for(Decision::Draw, Side::White), EndReason::Draw);
        assert_eq!(
            reason_for(Decision::Win(Side::White), Side::White),
            EndReason::Wins
        );
        assert_eq!(
            reason_for(Decision::Win(Side::White), Side::Black),
            EndReason::Resigns
        );
    }
}
