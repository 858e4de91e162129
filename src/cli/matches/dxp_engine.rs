//! A DXP engine in a match: the referee is the initiator, the engine the follower.
//!
//! The engine is either already running (`dxp:HOST:PORT`: the referee connects to it) or a
//! command the referee starts (`dxp:CMD ARGS`, every `{port}` in it replaced by a free local
//! port, 27531 without one) and connects to once it listens. Each game is a GAMEREQ with the
//! position after the opening and the engine's colour; moves go both ways as MOVE messages;
//! the referee ends every game with a GAMEEND (or confirms the engine's) and keeps the
//! connection for the next one.

use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use polydam_engine::game::Side;
use polydam_protocol::dxp::conn::{Connection, RecvError};
use polydam_protocol::dxp::game::colour;
use polydam_protocol::dxp::message::{
    Acceptance, DxpError, DxpMove, EndReason, GameAcc, GameEnd, GameReq, Kind, Message, VERSION,
};
use polydam_protocol::dxp::session::exchange::{
    await_move, end_game, request_game, Confirmation, Listener, RequestError,
};
use polydam_protocol::dxp::session::Deaf;

use super::engine::{Answer, EngineFailure};
use super::kept::Kept;
use super::process::{kill_group, own_group};
use super::settings::{DxpTarget, RefereeConfig, TimeControl};
use crate::pdn::PdnResult;

/// The port a DXP command listens on when its command line has no `{port}`.
pub const DXP_DEFAULT_PORT: u16 = 27531;
/// The initiator's name in the referee's GAMEREQs.
const REFEREE_NAME: &str = "polydam match";
/// Moves assumed when a fixed move time is turned into a game budget for GAMEREQ.
const MOVES_PER_BUDGET: f64 = 50.0;

/// One DXP engine, connected.
#[derive(Debug)]
pub struct DxpEngine {
    conn: Connection,
    child: Option<Child>,
    /// The address or the program's file name (the follower's name comes only with GAMEACC).
    pub id_name: String,
    /// Moves of the current game the engine knows (sent or received), counted in the
    /// referee's record.
    known: usize,
    /// Whether the engine ended the current game itself (its GAMEEND awaits our confirmation).
    ended_by_engine: bool,
    /// The time each handshake answer may take.
    timeout: Duration,
}

/// A free local port (bound and released at once; another program could take it in between,
/// which the connection attempt would then report).
fn free_port() -> Result<u16, String> {
    let listener =
        TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free local port: {e}"))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("no free local port: {e}"))
}

impl DxpEngine {
    /// Connects to the engine, starting it first when it is a command. Gives up after
    /// `timeout` (a started command may take that long to listen).
    pub fn start(target: &DxpTarget, timeout: Duration) -> Result<DxpEngine, String> {
        match target {
            DxpTarget::Address(text) => {
                let addrs: Vec<SocketAddr> = text
                    .to_socket_addrs()
                    .map_err(|e| format!("'{text}' is not an address and port ({e})"))?
                    .collect();
                let mut failure = format!("{text}: no address found");
                for addr in &addrs {
                    match Connection::connect(addr, timeout) {
                        Ok(conn) => return Ok(DxpEngine::new(conn, None, text.clone(), timeout)),
                        Err(e) => failure = format!("cannot connect to {addr}: {e}"),
                    }
                }
                Err(failure)
            }
            DxpTarget::Command(command) => {
                let needs_port = command.iter().any(|a| a.contains("{port}"));
                let port = if needs_port {
                    free_port()?
                } else {
                    DXP_DEFAULT_PORT
                };
                let args: Vec<String> = command
                    .iter()
                    .map(|a| a.replace("{port}", &port.to_string()))
                    .collect();
                let program = args.first().ok_or("empty engine command")?;
                let mut child = own_group(
                    Command::new(program)
                        .args(&args[1..])
                        .stdin(Stdio::null())
                        .stdout(Stdio::null())
                        .stderr(Stdio::null()),
                )
                .spawn()
                .map_err(|e| format!("cannot start '{}': {e}", args.join(" ")))?;
                let addr = SocketAddr::from(([127, 0, 0, 1], port));
                let until = Instant::now() + timeout;
                let conn = loop {
                    if let Ok(Some(status)) = child.try_wait() {
                        return Err(format!(
                            "'{}' exited ({status}) before listening on port {port}",
                            args.join(" ")
                        ));
                    }
                    match Connection::connect(&addr, Duration::from_millis(500)) {
                        Ok(conn) => break conn,
                        Err(e) if Instant::now() >= until => {
                            kill_group(&mut child);
                            return Err(format!(
                                "'{}' does not listen on port {port} after {:.1} s ({e})",
                                args.join(" "),
                                timeout.as_secs_f64()
                            ));
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(20)),
                    }
                };
                let name = std::path::Path::new(program)
                    .file_name()
                    .map_or_else(|| program.clone(), |n| n.to_string_lossy().into_owned());
                Ok(DxpEngine::new(conn, Some(child), name, timeout))
            }
        }
    }

    fn new(conn: Connection, child: Option<Child>, id_name: String, timeout: Duration) -> Self {
        DxpEngine {
            conn,
            child,
            id_name,
            known: 0,
            ended_by_engine: false,
            timeout,
        }
    }

    /// Asks for a game from `start` (the position after the opening, `opening_plies` into the
    /// referee's record) with the engine playing `side`; waits for its GAMEACC.
    pub fn new_game(
        &mut self,
        game: &dyn Kept,
        side: Side,
        config: &RefereeConfig,
    ) -> Result<(), EngineFailure> {
        self.known = game.plies();
        self.ended_by_engine = false;
        let position = game.dxp_position().map_err(EngineFailure::Protocol)?;
        let request = GameReq {
            version: VERSION,
            initiator: REFEREE_NAME.into(),
            follower_colour: colour(side),
            minutes: budget_minutes(config),
            moves: 0,
            position,
        };
        let deadline = Instant::now() + self.timeout;
        match request_game(&mut self.conn, request, deadline, &mut Deaf) {
            Ok(GameAcc {
                acceptance: Acceptance::Accepted,
                ..
            }) => Ok(()),
            Ok(GameAcc { acceptance, .. }) => Err(EngineFailure::Protocol(format!(
                "refused the game: GAMEACC code {} ({})",
                acceptance.digit(),
                acceptance.meaning()
            ))),
            Err(RequestError::Send(e)) => {
                Err(EngineFailure::Crashed(format!("connection lost: {e}")))
            }
            Err(RequestError::Recv(e)) => Err(failure(e)),
            Err(RequestError::Unexpected(kind)) => Err(unexpected(kind, "GAMEACC")),
        }
    }

    /// Sends the moves the engine has not seen yet and waits for its move, up to `timeout`.
    /// The move comes back in Hub form (`from-to`, or `fromxto` and the captured squares) for
    /// the referee to check like any other engine's.
    pub fn think(&mut self, game: &dyn Kept, timeout: Duration) -> Result<Answer, EngineFailure> {
        for ply in self.known..game.plies() {
            let dxp = game.dxp_move(ply).map_err(EngineFailure::Protocol)?;
            self.send(&Message::Move(dxp))?;
        }
        self.known = game.plies();
        let started = Instant::now();
        let deadline = started + timeout;
        let mut said = Said(None);
        match await_move(&mut self.conn, deadline, &mut said).map_err(failure)? {
            Message::Move(m) => {
                // The referee plays it or ends the game: either way the engine knows it.
                self.known += 1;
                Ok(Answer {
                    mv: Some(hub_text(&m)),
                    score: None,
                    elapsed: started.elapsed(),
                    error: said.0,
                })
            }
            Message::GameEnd(end) => {
                self.ended_by_engine = true;
                Err(match end.reason {
                    EndReason::Resigns => EngineFailure::Resigned,
                    reason => EngineFailure::Protocol(format!(
                        "ended the game with GAMEEND reason {} ({}) where Polydam's rules do \
                         not end it",
                        reason.digit(),
                        reason.meaning()
                    )),
                })
            }
            other => Err(unexpected(other.kind(), "MOVE")),
        }
    }

    /// Ends the game on the engine's side: confirms its GAMEEND, or sends ours (the reason as
    /// its opponent sees the result) and waits for its confirmation. `false` when the engine
    /// did not confirm, and should be restarted.
    pub fn game_over(&mut self, result: PdnResult, side: Side) -> bool {
        let reason = if result == PdnResult::Draw {
            EndReason::Draw
        } else if result == PdnResult::win_for(side) {
            EndReason::Resigns
        } else {
            EndReason::Wins
        };
        if self.ended_by_engine {
            let confirm = GameEnd {
                reason: EndReason::Unspecified,
                stop: false,
            };
            return self.send(&Message::GameEnd(confirm)).is_ok();
        }
        let deadline = Instant::now() + self.timeout;
        let end = GameEnd {
            reason,
            stop: false,
        };
        matches!(
            end_game(&mut self.conn, end, deadline, &mut Deaf),
            Confirmation::Confirmed { stop: false }
        )
    }

    fn send(&mut self, message: &Message) -> Result<(), EngineFailure> {
        self.conn
            .send(message)
            .map_err(|e| EngineFailure::Crashed(format!("connection lost: {e}")))
    }

    /// Closes the connection and ends the process the referee started.
    pub fn kill(&mut self) {
        self.conn.close();
        if let Some(child) = &mut self.child {
            kill_group(child);
        }
    }
}

impl Drop for DxpEngine {
    /// Closes the connection; a process the referee started gets a moment to leave, then is
    /// killed.
    fn drop(&mut self) {
        self.conn.close();
        if let Some(child) = &mut self.child {
            let until = Instant::now() + Duration::from_millis(300);
            while Instant::now() < until {
                if let Ok(Some(_)) = child.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            // Whatever it started goes with it.
            kill_group(child);
        }
    }
}

/// The game budget a GAMEREQ announces, in whole minutes: the clock rounded up, or 50 moves
/// at a fixed move time; 0 (none) with a depth or node limit only.
fn budget_minutes(config: &RefereeConfig) -> u16 {
    let seconds = match config.time_control {
        Some(TimeControl::Clock { time, .. }) => time,
        Some(TimeControl::MoveTime(s)) => s * MOVES_PER_BUDGET,
        None => return 0,
    };
    (seconds / 60.0).ceil().clamp(1.0, 999.0) as u16
}

/// A MOVE in the Hub form the referee reads.
fn hub_text(m: &DxpMove) -> String {
    if m.captured.is_empty() {
        return format!("{}-{}", m.from, m.to);
    }
    let mut text = format!("{}x{}", m.from, m.to);
    for c in &m.captured {
        text.push_str(&format!("x{c}"));
    }
    text
}

fn unexpected(kind: Kind, wanted: &str) -> EngineFailure {
    EngineFailure::Protocol(format!(
        "sent a {} where a {wanted} was expected",
        kind.name()
    ))
}

/// A receive error as the engine's failure.
fn failure(e: RecvError) -> EngineFailure {
    match e {
        RecvError::Timeout => EngineFailure::Timeout,
        RecvError::Malformed { .. } => EngineFailure::Protocol(e.to_string()),
        RecvError::Closed { .. } | RecvError::Io(_) => {
            EngineFailure::Crashed(format!("connection lost: {e}"))
        }
    }
}

/// Keeps the last CHAT of the engine while it thinks.
struct Said(Option<String>);

impl Listener for Said {
    fn chat(&mut self, text: &str) {
        self.0 = Some(text.to_owned());
    }

    fn malformed(&mut self, _text: &str, _error: &DxpError) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hub_texts_and_budgets() {
        let m = DxpMove {
            seconds: 0,
            from: 5,
            to: 25,
            captured: vec![22, 12],
        };
        assert_eq!(hub_text(&m), "5x25x22x12");
        let quiet = DxpMove {
            captured: vec![],
            ..m
        };
        assert_eq!(hub_text(&quiet), "5-25");
        let mut c = RefereeConfig {
            time_control: Some(TimeControl::Clock {
                time: 61.0,
                inc: 0.0,
            }),
            depth: None,
            nodes: None,
            move_timeout: Duration::from_secs(1),
            grace: Duration::from_millis(100),
            max_plies: 10,
            adjudication: None,
        };
        assert_eq!(budget_minutes(&c), 2);
        c.time_control = Some(TimeControl::MoveTime(0.1));
        assert_eq!(budget_minutes(&c), 1);
        c.time_control = None;
        assert_eq!(budget_minutes(&c), 0);
    }
}
