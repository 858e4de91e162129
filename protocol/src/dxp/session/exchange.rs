//! The message exchanges of a DXP game, each written once: asking for a game and waiting for
//! its GAMEACC, waiting for the other side's MOVE (answering BACKREQ and passing CHATs on the
//! way), and ending a game and waiting for the GAMEEND that confirms it. `polydam dxp`'s
//! session ([`super::DxpSession`]) and the match runner's DXP engines both play through them.

use std::time::Instant;

use polydam_engine::game::{Game, Side};
use polydam_engine::record::GameRecord;

use crate::dxp::conn::{Connection, RecvError};
use crate::dxp::message::{DxpError, GameAcc, GameEnd, GameReq, Kind, Message};

/// What the other side says besides the message an exchange waits for.
pub trait Listener {
    /// A CHAT from the other side.
    fn chat(&mut self, text: &str);

    /// A malformed message passed over while waiting for the GAMEEND that confirms the end of
    /// a game (elsewhere a malformed message is the exchange's error). Returns the CHAT to
    /// answer it with, if any.
    fn malformed(&mut self, text: &str, error: &DxpError) -> Option<String>;
}

/// A [`Listener`] that lets everything pass.
#[derive(Clone, Copy, Debug, Default)]
pub struct Deaf;

impl Listener for Deaf {
    fn chat(&mut self, _text: &str) {}

    fn malformed(&mut self, _text: &str, _error: &DxpError) -> Option<String> {
        None
    }
}

/// Why a game request got no GAMEACC.
#[derive(Debug)]
pub enum RequestError {
    /// The GAMEREQ could not be sent.
    Send(std::io::Error),
    /// Nothing readable came back (the deadline passed, the connection closed, a malformed
    /// message).
    Recv(RecvError),
    /// Another message came where the GAMEACC was expected.
    Unexpected(Kind),
}

/// Sends a GAMEREQ and waits until `deadline` for its GAMEACC (accepting or refusing). CHATs
/// go to `listener`; a GAMEEND (a goodbye after the previous game) is passed over.
pub fn request_game(
    conn: &mut Connection,
    request: GameReq,
    deadline: Instant,
    listener: &mut dyn Listener,
) -> Result<GameAcc, RequestError> {
    conn.send(&Message::GameReq(request))
        .map_err(RequestError::Send)?;
    loop {
        match conn.recv(deadline).map_err(RequestError::Recv)? {
            Message::GameAcc(acc) => return Ok(acc),
            Message::Chat(text) => listener.chat(&text),
            Message::GameEnd(_) => {}
            other => return Err(RequestError::Unexpected(other.kind())),
        }
    }
}

/// Waits until `deadline` for the other side's move during a game: answers a BACKREQ with
/// BACKACC 1 (taking moves back is not supported), passes CHATs to `listener`, and returns the
/// first other message (a MOVE, or whatever came instead). A BACKACC that cannot be sent is a
/// failed connection ([`RecvError::Io`]).
pub fn await_move(
    conn: &mut Connection,
    deadline: Instant,
    listener: &mut dyn Listener,
) -> Result<Message, RecvError> {
    loop {
        match conn.recv(deadline)? {
            Message::Chat(text) => listener.chat(&text),
            Message::BackReq { .. } => conn.send(&Message::BackAcc(1)).map_err(RecvError::Io)?,
            other => return Ok(other),
        }
    }
}

/// How the other side answered our GAMEEND.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirmation {
    /// Its GAMEEND came, with its stop code.
    Confirmed {
        /// Whether it wants no more games.
        stop: bool,
    },
    /// Nothing came before the deadline.
    Silent,
    /// Our GAMEEND could not be sent, or the connection closed or failed.
    Lost,
}

/// Sends our GAMEEND and waits until `deadline` for the other side's. A MOVE that crossed ours
/// is passed over; CHATs and malformed messages go to `listener`.
pub fn end_game(
    conn: &mut Connection,
    end: GameEnd,
    deadline: Instant,
    listener: &mut dyn Listener,
) -> Confirmation {
    if conn.send(&Message::GameEnd(end)).is_err() {
        return Confirmation::Lost;
    }
    loop {
        match conn.recv(deadline) {
            Ok(Message::GameEnd(end)) => return Confirmation::Confirmed { stop: end.stop },
            Ok(Message::Chat(text)) => listener.chat(&text),
            Ok(_) => {}
            Err(RecvError::Malformed { text, error }) => {
                if let Some(answer) = listener.malformed(&text, &error) {
                    let _ = conn.send(&Message::Chat(answer));
                }
            }
            Err(RecvError::Timeout) => return Confirmation::Silent,
            Err(_) => return Confirmation::Lost,
        }
    }
}

/// How a game is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A win for this side.
    Win(Side),
    /// A draw.
    Draw,
}

/// The decision and its reason when the game is over by the variant's rules (the position
/// decides it, the side to move has no move, or a draw rule applies), else `None`.
pub fn rules_end<G: Game>(record: &GameRecord<G>) -> Option<(Decision, String)> {
    use polydam_engine::game::Outcome;
    let (outcome, reason) = record.outcome()?;
    let mover = G::side_to_move(record.current());
    let decision = match outcome {
        Outcome::Win => Decision::Win(mover),
        Outcome::Loss => Decision::Win(mover.opponent()),
        Outcome::Draw => Decision::Draw,
    };
    // The engine's one wording of why a game ended, as the web board and `polydam play` say it.
    Some((decision, reason.explain::<G>(record.current())))
}
