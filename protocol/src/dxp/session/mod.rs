//! A DXP session: Polydam playing games on one connection after another, as the initiator
//! (a GAMEREQ for each game, colours alternating) or the follower (answering GAMEREQs).
//!
//! Moves are checked against Polydam's own rules; the clock is the game budget of the GAMEREQ.
//! An opponent that closes the connection, goes silent past its clock and the timeout, sends a
//! malformed message or an illegal move ends the game with a report (and a CHAT to the
//! opponent saying what was wrong), never a hang or a panic. The session prints nothing: it
//! tells a [`Report`] what to show and hands it every game as it ends. The message exchanges
//! themselves are in [`exchange`], shared with the match runner's DXP engines.

mod board;
pub mod exchange;
mod play;

use std::time::{Duration, Instant};

use polydam_engine::game::Side;
use polydam_engine::search::Limits;

use crate::dxp::conn::{Connection, RecvError};
use crate::dxp::game::{colour, side};
use crate::dxp::message::{Acceptance, DxpError, GameAcc, GameReq, Message, VERSION};

pub use self::board::{board, DxpBoard, GameFacts, Start};
use self::exchange::{request_game, Listener, RequestError};
pub use self::exchange::{Deaf, Decision};

/// The pause between two messages sent in a row (see `Connection::set_pacing`): pydraughts
/// 0.6.7 loses a first MOVE that arrives in the same read as its GAMEACC (docs/dxp.md).
const PACING: Duration = Duration::from_millis(100);

/// What the session shows and keeps: the front end prints and saves, the session does not.
pub trait Report {
    /// A line for the user (a game starting, a CHAT from the opponent).
    fn say(&mut self, line: &str);
    /// A problem: the opponent's fault, the connection's, or ours.
    fn warn(&mut self, line: &str);
    /// A game that ended, however it ended (to show and save).
    fn game(&mut self, game: &PlayedGame<'_>);
}

/// A game as it ended.
pub struct PlayedGame<'a> {
    /// Its number in the session (from 1).
    pub number: usize,
    /// The opponent's address.
    pub peer: &'a str,
    /// White's name.
    pub white: &'a str,
    /// Black's name.
    pub black: &'a str,
    /// The game's variant, length and start.
    pub facts: GameFacts,
    /// Its moves in PDN style.
    pub moves: &'a [String],
    /// How it was decided, or `None` when it did not finish.
    pub decision: Option<Decision>,
    /// Why it ended.
    pub why: &'a str,
}

/// The initiator's requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Requests {
    /// Games to play on each connection (colours alternate).
    pub games: usize,
    /// Thinking time per player for the whole game, in minutes (0 = none announced).
    pub minutes: u16,
    /// The number of moves of the whole game (0 = no limit).
    pub moves: u16,
}

/// How the session plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The name sent in GAMEREQ, GAMEACC and CHAT.
    pub name: String,
    /// How long the opponent may take beyond its clock (or per answer without a clock), and
    /// how long a follower's connection may go without a GAMEREQ (after it opens or a game
    /// ends), whatever else arrives meanwhile.
    pub timeout: Duration,
    /// The longest a game may last on the wall clock before it is abandoned and its
    /// connection closed; `None` for [`default_game_limit`].
    pub game_limit: Option<Duration>,
    /// The limits of each search (depth, nodes, move time); the game's clock is added.
    pub limits: Limits,
    /// The initiator's requests, or `None` for a follower.
    pub initiator: Option<Requests>,
}

/// The longest a game may last when the settings give no limit: twice the GAMEREQ's budget
/// per player plus ten minutes, or an hour for a game without a clock. Without it an opponent
/// that answers just within the timeout every move could hold a listener for days.
pub fn default_game_limit(budget: Option<Duration>) -> Duration {
    match budget {
        Some(b) => b.saturating_mul(2).saturating_add(Duration::from_secs(600)),
        None => Duration::from_secs(3600),
    }
}

/// Games by how they ended, from Polydam's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games lost.
    pub losses: usize,
    /// Games that did not finish.
    pub unfinished: usize,
    /// Games, requests and connections that ended on a fault (ours or the opponent's).
    pub faults: usize,
}

/// A game about to be played.
struct GameSpec {
    start: Start,
    ours: Side,
    opponent: String,
    minutes: u16,
    moves: u16,
    /// Our stop code in the GAMEEND we send: whether we want no game after this one.
    stop_after: bool,
}

/// What the connection is good for after a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum After {
    /// Another game may follow.
    GoOn,
    /// The opponent said (stop code 1) it wants no more games.
    OpponentStops,
    /// The connection is closed or no longer trusted.
    Lost,
}

/// One process's DXP work: its game (with the searcher and the initiator's start positions),
/// its report, its count of games.
pub struct DxpSession<'a> {
    settings: Settings,
    board: Box<dyn DxpBoard>,
    report: &'a mut dyn Report,
    /// Games started so far (their numbers).
    played: usize,
    tally: Tally,
}

/// The session's [`Listener`] on a connection: CHATs are shown, malformed messages reported
/// and answered with a CHAT.
struct Ears<'s, 'a> {
    session: &'s mut DxpSession<'a>,
    who: &'s str,
}

impl Listener for Ears<'_, '_> {
    fn chat(&mut self, text: &str) {
        self.session.chat_from(self.who, text);
    }

    fn malformed(&mut self, text: &str, error: &DxpError) -> Option<String> {
        Some(self.session.report_malformed(text, &error.to_string()))
    }
}

impl<'a> DxpSession<'a> {
    /// A session with its game (made by [`board`] with the searcher and the initiator's start
    /// positions: at least one for an initiator; none for a follower) and where its lines and
    /// games go.
    pub fn new(settings: Settings, board: Box<dyn DxpBoard>, report: &'a mut dyn Report) -> Self {
        DxpSession {
            settings,
            board,
            report,
            played: 0,
            tally: Tally::default(),
        }
    }

    /// Games started so far.
    pub fn played(&self) -> usize {
        self.played
    }

    /// The games by how they ended, and the faults.
    pub fn tally(&self) -> Tally {
        self.tally
    }

    /// Shows a line of the front end's (a connection opened or closed) among the session's.
    pub fn say(&mut self, line: &str) {
        self.report.say(line);
    }

    /// Reports a problem of the front end's (a connection that could not be accepted).
    pub fn warn(&mut self, line: &str) {
        self.report.warn(line);
    }

    /// Counts a fault found outside the session (a connection that could not be accepted).
    pub fn count_fault(&mut self) {
        self.tally.faults += 1;
    }

    /// Plays on one connection in the role of the settings, until it is done with.
    pub fn serve(&mut self, conn: &mut Connection) {
        conn.set_pacing(PACING);
        match self.settings.initiator {
            Some(requests) => self.initiate(conn, requests),
            None => self.follow(conn),
        }
    }

    /// A report of a problem that counts as a fault.
    fn fault(&mut self, line: &str) {
        self.report.warn(line);
        self.tally.faults += 1;
    }

    fn chat_from(&mut self, who: &str, text: &str) {
        let line = format!("chat from {who}: {}", text.trim_end());
        self.report.say(&line);
    }

    /// Reports a malformed message; returns the CHAT telling the opponent (the error alone:
    /// with the message quoted it may not fit in one CHAT).
    fn report_malformed(&mut self, text: &str, error: &str) -> String {
        self.report.warn(&malformed_text(text, error));
        format!("{}: {error}", self.settings.name)
    }

    /// Reports a malformed message and tells the opponent; returns the report.
    fn malformed(&mut self, conn: &mut Connection, text: &str, error: &str) -> String {
        let chat = self.report_malformed(text, error);
        let _ = conn.send(&Message::Chat(chat));
        malformed_text(text, error)
    }

    /// The initiator: a GAMEREQ per game, colours alternating, each opening twice.
    fn initiate(&mut self, conn: &mut Connection, requests: Requests) {
        let games = requests.games;
        for g in 0..games {
            let opening = (g / 2) % self.board.openings();
            let ours = if g % 2 == 0 { Side::White } else { Side::Black };
            let position = match self.board.request_position(opening) {
                Ok(p) => p,
                Err(e) => return self.fault(&format!("cannot send the start position: {e}")),
            };
            let request = GameReq {
                version: VERSION,
                initiator: self.settings.name.clone(),
                follower_colour: colour(ours.opponent()),
                minutes: requests.minutes,
                moves: requests.moves,
                position,
            };
            let Some(follower) = self.await_acceptance(conn, request, g + 1) else {
                return;
            };
            let Ok(follower) = follower else {
                continue;
            };
            let spec = GameSpec {
                start: Start::Opening(opening),
                ours,
                opponent: follower,
                minutes: requests.minutes,
                moves: requests.moves,
                stop_after: g + 1 == games,
            };
            let why = match self.play(conn, &spec) {
                After::GoOn => continue,
                After::OpponentStops => format!(
                    "the follower wants no more games after game {} of {games}",
                    self.played
                ),
                After::Lost => format!(
                    "the connection is lost: {} of {games} games not played",
                    games - g - 1
                ),
            };
            if g + 1 < games {
                self.fault(&why);
            }
            return;
        }
    }

    /// Sends request `n` and waits for its GAMEACC: `Some(Ok(name))` when accepted,
    /// `Some(Err(()))` when this game is refused but another may be asked for, `None` when no
    /// more games can be played on this connection.
    fn await_acceptance(
        &mut self,
        conn: &mut Connection,
        request: GameReq,
        n: usize,
    ) -> Option<Result<String, ()>> {
        let deadline = Instant::now() + self.settings.timeout;
        let mut ears = Ears {
            session: self,
            who: "the follower",
        };
        let answer = request_game(conn, request, deadline, &mut ears);
        let why = match answer {
            Ok(GameAcc {
                follower,
                acceptance: Acceptance::Accepted,
            }) => return Some(Ok(follower)),
            Ok(GameAcc {
                follower,
                acceptance,
            }) => {
                self.fault(&format!(
                    "game request {n}: {follower} {} (code {})",
                    acceptance.meaning(),
                    acceptance.digit()
                ));
                return (acceptance == Acceptance::NotThisGame).then_some(Err(()));
            }
            Err(RequestError::Send(e)) => format!("cannot send the GAMEREQ of game {n}: {e}"),
            Err(RequestError::Unexpected(kind)) => format!(
                "game request {n}: expected GAMEACC, got {}; closing the connection",
                kind.name()
            ),
            Err(RequestError::Recv(RecvError::Malformed { text, error })) => {
                self.malformed(conn, &text, &error.to_string());
                self.tally.faults += 1;
                return None;
            }
            Err(RequestError::Recv(e)) => format!(
                "game request {n}: no GAMEACC: {}",
                recv_text(&e, self.settings.timeout)
            ),
        };
        self.fault(&why);
        None
    }

    /// The follower: answers GAMEREQs and plays, until the initiator closes the connection
    /// (or stays silent for the timeout between games).
    ///
    /// The wait for a GAMEREQ is one deadline, from the connection's start or the last game's
    /// end: CHATs, refused GAMEREQs and other messages do not push it back, so that a client
    /// that keeps talking without playing cannot hold a one-at-a-time listener.
    fn follow(&mut self, conn: &mut Connection) {
        let mut deadline = Instant::now() + self.settings.timeout;
        loop {
            match conn.recv(deadline) {
                Ok(Message::GameReq(req)) => {
                    let Some(spec) = self.accept(conn, &req) else {
                        continue;
                    };
                    if self.play(conn, &spec) == After::Lost {
                        return;
                    }
                    deadline = Instant::now() + self.settings.timeout;
                }
                Ok(Message::Chat(text)) => self.chat_from("the initiator", &text),
                Ok(Message::BackReq { .. }) => {
                    let _ = conn.send(&Message::BackAcc(1));
                }
                // A GAMEEND between games (pydraughts says goodbye with one): nothing to end.
                Ok(Message::GameEnd(_)) => {}
                Ok(other) => {
                    let kind = other.kind().name();
                    self.report
                        .warn(&format!("ignored a {kind} outside a game"));
                    let chat = format!("{}: ignored a {kind} outside a game", self.settings.name);
                    let _ = conn.send(&Message::Chat(chat));
                }
                Err(RecvError::Malformed { text, error }) => {
                    self.malformed(conn, &text, &error.to_string());
                    self.tally.faults += 1;
                }
                Err(RecvError::Closed { partial: false }) => return,
                Err(RecvError::Timeout) => {
                    let secs = self.settings.timeout.as_secs_f64();
                    let line = format!("no GAMEREQ within {secs:.1} s; closing the connection");
                    return self.report.warn(&line);
                }
                Err(e) => {
                    let why = recv_text(&e, self.settings.timeout);
                    return self.fault(&format!("between games: {why}"));
                }
            }
        }
    }

    /// Answers a GAMEREQ: the game to play, or `None` after refusing it (and saying why).
    fn accept(&mut self, conn: &mut Connection, req: &GameReq) -> Option<GameSpec> {
        let name = self.settings.name.clone();
        match acceptable(&mut *self.board, req) {
            Ok(()) => {}
            Err((code, why)) => {
                let who = if req.initiator.is_empty() {
                    "the initiator"
                } else {
                    &req.initiator
                };
                self.fault(&format!("refused the GAMEREQ of {who}: {why}"));
                let _ = conn.send(&Message::Chat(format!("{name} refuses the game: {why}")));
                let _ = conn.send(&Message::GameAcc(GameAcc {
                    follower: name,
                    acceptance: code,
                }));
                return None;
            }
        }
        let accepted = Message::GameAcc(GameAcc {
            follower: name,
            acceptance: Acceptance::Accepted,
        });
        if let Err(e) = conn.send(&accepted) {
            self.fault(&format!("cannot send GAMEACC: {e}"));
            return None;
        }
        Some(GameSpec {
            start: Start::Accepted,
            ours: side(req.follower_colour),
            opponent: req.initiator.clone(),
            minutes: req.minutes,
            moves: req.moves,
            stop_after: false,
        })
    }
}

/// Keeps the start position of a GAMEREQ the follower can play in `board`, or gives the code
/// and reason to refuse it.
fn acceptable(board: &mut dyn DxpBoard, req: &GameReq) -> Result<(), (Acceptance, String)> {
    if req.version != VERSION {
        let why = format!("protocol version {:02}, not 01", req.version);
        return Err((Acceptance::WrongVersion, why));
    }
    board.accept(req.position.as_ref())
}

/// A malformed message in words.
fn malformed_text(text: &str, error: &str) -> String {
    if text.is_empty() {
        format!("malformed message: {error}")
    } else {
        format!(
            "malformed message '{}': {error}",
            crate::dxp::conn::excerpt(text)
        )
    }
}

/// A receive error in words, the timeout included.
fn recv_text(e: &RecvError, timeout: Duration) -> String {
    match e {
        RecvError::Timeout => format!("no message within {:.1} s", timeout.as_secs_f64()),
        other => other.to_string(),
    }
}
