//! One WebSocket connection: requests in, replies and search reports out.
//!
//! The connection task owns the game ([`Table`]) and the running search, so requests and the
//! search's reports are handled one at a time, in the order they arrive. A search runs on the
//! server's pool of blocking worker threads and reports through a channel; its result is played
//! only if it is still the connection's current search and the position has not changed since
//! it started.
//!
//! A connection has at most one job on the pool. A `go` or `analyse` that arrives while its
//! previous search is still winding down waits in the connection, and a later one replaces it:
//! a page that floods requests costs one worker, not one per request.

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use tokio::sync::mpsc;

use super::api::{self, Load, MoveBy, Request};
use super::play::{self, EngineSetup, SearchExtras};
use super::session::{self, Event, RunningSearch, SearchMode, Table};
use polydam_engine::search::Limits;

/// Close code: the message was too big (RFC 6455, 1009).
pub const CLOSE_TOO_BIG: u16 = 1009;
/// Close code: try again later (RFC 6455 registry, 1013), sent when all slots are taken.
pub const CLOSE_TRY_LATER: u16 = 1013;

/// The variant a connection starts with.
pub const FIRST_VARIANT: &str = "international";

/// The connection's current search.
enum Current {
    /// On a worker.
    Running(RunningSearch),
    /// Waiting for the connection's previous job to leave its worker.
    Waiting {
        id: u64,
        mode: SearchMode,
        limits: Limits,
        setup: EngineSetup,
    },
}

impl Current {
    fn id(&self) -> u64 {
        match self {
            Current::Running(s) => s.id,
            Current::Waiting { id, .. } => *id,
        }
    }
}

/// One connection's game and search.
pub struct Connection {
    table: Box<dyn Table>,
    search: Option<Current>,
    /// Whether a job of this connection is on the worker pool (running, or stopped and
    /// winding down), until its [`Event::Finished`].
    busy: bool,
    next_search: u64,
    events: mpsc::UnboundedSender<Event>,
}

impl Connection {
    /// A connection with an International game from the start, whose searches report on
    /// `events`.
    pub fn new(events: mpsc::UnboundedSender<Event>) -> Result<Connection, String> {
        Ok(Connection {
            table: session::new_table(FIRST_VARIANT, None)?,
            search: None,
            busy: false,
            next_search: 1,
            events,
        })
    }

    /// The `state` message.
    pub fn state_json(&self) -> String {
        api::to_json(&self.table.state())
    }

    /// Stops the running search, if any, and forgets it (its reports will be dropped); a
    /// waiting search is dropped.
    pub fn stop_search(&mut self) {
        if let Some(Current::Running(s)) = self.search.take() {
            s.stop();
        }
    }

    /// The replies to one text message.
    pub fn handle(&mut self, text: &str) -> Vec<String> {
        match api::parse_request(text) {
            Ok(request) => {
                let kind = api::request_type(text);
                self.handle_request(request)
                    .unwrap_or_else(|e| vec![api::error_json(&e, kind.as_deref())])
            }
            Err(e) => vec![api::error_json(&e, api::request_type(text).as_deref())],
        }
    }

    fn handle_request(&mut self, request: Request) -> Result<Vec<String>, String> {
        match request {
            Request::Variants => Ok(vec![api::variants_json()]),
            Request::State => Ok(vec![self.state_json()]),
            Request::New { variant, fen } => {
                let table = session::new_table(&variant, fen.as_deref())?;
                self.stop_search();
                self.table = table;
                Ok(vec![self.state_json()])
            }
            Request::Load(load) => {
                match load {
                    Load::Fen(fen) => self.table.load_fen(Some(&fen))?,
                    Load::Pdn(pdn) => {
                        let game = crate::pdn::read_pdn(&pdn)?;
                        match crate::pdn::pdn_variant(&game, self.table.variant())? {
                            // Another game's PDN: a new table, kept only if the game loads.
                            Some(entry) => {
                                let mut table = session::new_table(entry.name, None)?;
                                table.load_pdn(&pdn)?;
                                self.stop_search();
                                self.table = table;
                            }
                            None => self.table.load_pdn(&pdn)?,
                        }
                    }
                }
                self.stop_search();
                Ok(vec![self.state_json()])
            }
            Request::Move(by) => {
                match by {
                    MoveBy::Text(text) => self.table.play_text(&text)?,
                    MoveBy::Path(path) => self.table.play_path(&path)?,
                }
                self.stop_search();
                Ok(vec![self.state_json()])
            }
            Request::Undo { plies } => {
                self.table.undo(plies)?;
                self.stop_search();
                Ok(vec![self.state_json()])
            }
            Request::Goto { node } => {
                self.table.goto(node)?;
                self.stop_search();
                Ok(vec![self.state_json()])
            }
            Request::Comment { text } => {
                self.table.comment(&text)?;
                Ok(vec![self.state_json()])
            }
            Request::Result { winner, reason } => {
                self.table.declare(winner, &reason)?;
                self.stop_search();
                Ok(vec![self.state_json()])
            }
            Request::Go {
                movetime,
                depth,
                extras,
            } => self.start(SearchMode::Play, movetime, depth, &extras),
            Request::Analyse {
                movetime,
                depth,
                extras,
            } => self.start(SearchMode::Analyse, movetime, depth, &extras),
            Request::Stop => match &self.search {
                // The search answers with its `done` once it has stopped.
                Some(Current::Running(s)) => {
                    s.stop();
                    Ok(Vec::new())
                }
                // One that has not started ends here.
                Some(Current::Waiting { id, mode, .. }) => {
                    let (id, mode) = (*id, *mode);
                    self.search = None;
                    Ok(vec![api::done_json(
                        id,
                        mode.name(),
                        None,
                        None,
                        0,
                        0,
                        std::time::Duration::ZERO,
                    )])
                }
                None => Ok(Vec::new()),
            },
        }
    }

    fn start(
        &mut self,
        mode: SearchMode,
        movetime: Option<f64>,
        depth: Option<i64>,
        extras: &SearchExtras,
    ) -> Result<Vec<String>, String> {
        let mut limits = session::limits(mode, movetime, depth)?;
        let setup = play::apply(mode, extras, movetime.is_some(), &mut limits)?;
        self.table.check_playing()?;
        self.stop_search();
        let id = self.next_search;
        self.next_search += 1;
        if self.busy {
            // Started when the previous job finishes, unless replaced before.
            self.search = Some(Current::Waiting {
                id,
                mode,
                limits,
                setup,
            });
        } else {
            self.launch(id, mode, limits, setup)?;
        }
        Ok(vec![api::searching_json(id, mode.name())])
    }

    /// Puts search `id` on the worker pool.
    fn launch(
        &mut self,
        id: u64,
        mode: SearchMode,
        limits: Limits,
        setup: EngineSetup,
    ) -> Result<(), String> {
        let running = self
            .table
            .start_search(id, mode, limits, setup, self.events.clone())?;
        self.busy = true;
        self.search = Some(Current::Running(running));
        Ok(())
    }

    /// The messages a search report turns into (none for a search no longer current).
    pub fn on_event(&mut self, event: Event) -> Vec<String> {
        let current = self.search.as_ref().map(Current::id);
        match event {
            Event::Finished => {
                self.busy = false;
                match self.search.take() {
                    Some(Current::Waiting {
                        id,
                        mode,
                        limits,
                        setup,
                    }) => match self.launch(id, mode, limits, setup) {
                        Ok(()) => Vec::new(),
                        Err(e) => vec![api::error_json(&e, Some(mode.name()))],
                    },
                    other => {
                        self.search = other;
                        Vec::new()
                    }
                }
            }
            Event::Info { search, json } if current == Some(search) => vec![json],
            Event::Done {
                search,
                mode,
                generation,
                best_hub,
                json,
            } if current == Some(search) => {
                self.search = None;
                let mut out = vec![json];
                if mode == SearchMode::Play && generation == self.table.generation() {
                    if let Some(best) = best_hub {
                        match self.table.play_text(&best) {
                            Ok(()) => out.push(self.state_json()),
                            Err(e) => out.push(api::error_json(
                                &format!("the engine's move {best} could not be played: {e}"),
                                Some("go"),
                            )),
                        }
                    }
                }
                out
            }
            _ => Vec::new(),
        }
    }
}

fn text(json: String) -> Message {
    Message::Text(json.into())
}

async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    let frame = CloseFrame {
        code,
        reason: reason.to_string().into(),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

/// Refuses a connection over the limit: an error, then a close frame.
pub async fn refuse(mut socket: WebSocket, limit: usize) {
    let message = format!("too many connections (at most {limit}); close another page and retry");
    let _ = socket.send(text(api::error_json(&message, None))).await;
    close(&mut socket, CLOSE_TRY_LATER, "too many connections").await;
}

/// Serves one connection until it closes: `variants` and `state` first, then a reply to each
/// request and the reports of its searches. The running search is stopped at the end.
pub async fn serve(mut socket: WebSocket) {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut conn = match Connection::new(tx) {
        Ok(c) => c,
        Err(e) => {
            let _ = socket.send(text(api::error_json(&e, None))).await;
            close(&mut socket, 1011, "cannot start a game").await;
            return;
        }
    };
    let hello = [api::variants_json(), conn.state_json()];
    for json in hello {
        if socket.send(text(json)).await.is_err() {
            return;
        }
    }
    loop {
        let replies = tokio::select! {
            incoming = socket.recv() => match incoming {
                None | Some(Ok(Message::Close(_))) => break,
                Some(Ok(Message::Text(t))) => conn.handle(t.as_str()),
                Some(Ok(Message::Binary(_))) => vec![api::error_json(
                    "binary messages are not understood: send JSON text",
                    None,
                )],
                Some(Ok(_)) => Vec::new(), // ping and pong: answered by the library
                Some(Err(e)) => {
                    // The transport's limit or a broken frame: the stream cannot go on.
                    let message = format!("cannot read the message: {e}; closing");
                    let _ = socket.send(text(api::error_json(&message, None))).await;
                    close(&mut socket, CLOSE_TOO_BIG, "unreadable message").await;
                    break;
                }
            },
            Some(event) = rx.recv() => conn.on_event(event),
        };
        for json in replies {
            if socket.send(text(json)).await.is_err() {
                conn.stop_search();
                return;
            }
        }
    }
    conn.stop_search();
}
