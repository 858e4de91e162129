//! The Hub session: the state machine between the client's lines and the engine.
//!
//! A reader thread turns input into [`Event::Line`]s (bounded, byte-safe: see
//! [`crate::io`]); the session handles one event at a time on the calling thread. A search
//! runs on its own thread and writes its `info` and `done` lines itself, so the session stays
//! free to answer while it runs:
//!
//! - `ping` is answered with `pong` at once, and the search goes on;
//! - `stop` asks the search to end (its `done` follows); `ponder-hit` starts its clock;
//! - any other command ends the search first (its `done` is written), then is handled as if
//!   the engine had been idle; lines that are not commands (errors, unknown words) are
//!   answered with `error` and do not disturb the search.
//!
//! Every `go` gets exactly one `done`, even when stopped, ended by another command or when the
//! input closes. `pos` resets the search limits; `level` lines after it accumulate. Every error
//! becomes one `error message="..."` line and leaves the previous state as it was (except that
//! a bad move in `moves=` keeps the position reached before it, as the Hub specification asks).

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::time::Duration;

use polydam_engine::search::{level_plan, mix_seed, Clock, Depth, Limits, SearchControl};

use crate::command::{parse_line, Command, GoMode, LevelCommand};
use crate::driver::{self, Engine, Event, SearchRequest};
use crate::io::{InputLine, LineReader, Output};
use crate::numbering::Translator;
use crate::params::{Changed, Params};
use crate::reply::Reply;

/// What the event loop does after an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Go on reading.
    Continue,
    /// `quit` or end of input: leave the loop.
    Quit,
}

/// The Hub session state.
pub struct Session {
    /// Creates the engine of a variant ([`driver::open`]).
    open: driver::OpenFn,
    out: Arc<Output>,
    events: Sender<Event>,
    params: Params,
    engine: Option<Box<dyn Engine>>,
    /// The `level` lines since the last `pos`, merged.
    level: LevelCommand,
    /// The id of the running search, if any.
    searching: Option<u64>,
    /// Its control (stop, ponder hit).
    control: Option<Arc<SearchControl>>,
    next_search: u64,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("params", &self.params)
            .field("level", &self.level)
            .field("searching", &self.searching)
            .finish()
    }
}

/// Runs a whole session: reads `input` on a reader thread until `quit` or its end, writing
/// replies to `out`. Returns when the session is over (a running search has been told to stop
/// and has written its `done`).
pub fn run<R: BufRead + Send + 'static>(input: R, out: Arc<Output>) {
    run_with(input, out, Params::default());
}

/// [`run`] with the session's parameters starting at `params` instead of their defaults
/// (`polydam hub --set NAME=VALUE`).
pub fn run_with<R: BufRead + Send + 'static>(input: R, out: Arc<Output>, params: Params) {
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    let reader = std::thread::Builder::new()
        .name("hub-input".into())
        .spawn(move || read_lines(input, reader_tx));
    if reader.is_err() {
        // Without a thread the session cannot read while searching; give up cleanly.
        out.send(&Reply::Error("cannot start the input thread".into()));
        return;
    }
    let mut session = Session::new(out, tx);
    session.params = params;
    session.event_loop(&rx);
}

fn read_lines<R: BufRead>(input: R, tx: Sender<Event>) {
    let mut reader = LineReader::new(input);
    while let Some(line) = reader.next_line() {
        if tx.send(Event::Line(line)).is_err() {
            return;
        }
    }
    let _ = tx.send(Event::Eof);
}

impl Session {
    /// A fresh session writing to `out`; searches report to `events`.
    // Inline, like `driver::open` which it names: the engines of every variant are then
    // compiled in the program that runs the session, once, with its own searches, and not a
    // second time in this crate.
    #[inline]
    pub fn new(out: Arc<Output>, events: Sender<Event>) -> Session {
        Session {
            open: driver::open,
            out,
            events,
            params: Params::default(),
            engine: None,
            level: LevelCommand::default(),
            searching: None,
            control: None,
            next_search: 1,
        }
    }

    /// Handles events until `quit` or the end of input.
    pub fn event_loop(&mut self, rx: &Receiver<Event>) {
        while let Ok(event) = rx.recv() {
            if self.handle(event) == Flow::Quit {
                break;
            }
        }
        self.end_search();
    }

    /// The current parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    fn send(&self, reply: Reply) {
        self.out.send(&reply);
    }

    fn error(&self, message: impl Into<String>) {
        self.send(Reply::Error(message.into()));
    }

    /// Handles one event.
    pub fn handle(&mut self, event: Event) -> Flow {
        match event {
            Event::Eof => {
                // Exit at once: stop the search; its `done` is still written on the way out.
                if let Some(control) = &self.control {
                    control.stop();
                }
                Flow::Quit
            }
            Event::SearchDone(id) => {
                if self.searching == Some(id) {
                    self.end_search();
                }
                Flow::Continue
            }
            Event::Line(InputLine::Text(text)) => self.handle_text(&text),
            Event::Line(bad) => {
                if let Some(message) = bad.error() {
                    self.error(message);
                }
                Flow::Continue
            }
        }
    }

    fn handle_text(&mut self, text: &str) -> Flow {
        let command = match parse_line(text) {
            Ok(command) => command,
            Err(e) => {
                self.error(e.to_string());
                return Flow::Continue;
            }
        };
        if self.searching.is_some() {
            match command {
                Command::Ping => {
                    self.send(Reply::Pong);
                    return Flow::Continue;
                }
                Command::Stop => {
                    if let Some(control) = &self.control {
                        control.stop();
                    }
                    return Flow::Continue;
                }
                Command::PonderHit => {
                    if let Some(control) = &self.control {
                        control.ponder_hit();
                    }
                    return Flow::Continue;
                }
                Command::Unknown(word) => {
                    self.unknown(&word);
                    return Flow::Continue;
                }
                _ => {
                    // Any other command ends the search (its `done` comes first).
                    if let Some(control) = &self.control {
                        control.stop();
                    }
                    self.end_search();
                }
            }
        }
        self.idle(command)
    }

    /// Waits for the running search (which writes its `done`), if any.
    fn end_search(&mut self) {
        if let Some(engine) = self.engine.as_mut() {
            engine.finish();
        }
        self.searching = None;
        self.control = None;
    }

    fn unknown(&self, word: &str) {
        self.error(format!(
            "unknown command '{}' (known: hub, init, set-param, pos, level, go, ponder-hit, \
             stop, ping, new-game, quit)",
            crate::lexer::excerpt(word)
        ));
    }

    /// The engine of the selected variant, created if needed.
    fn engine(&mut self) -> Result<&mut Box<dyn Engine>, String> {
        let wanted = self.params.variant;
        if self.engine.as_ref().map(|e| e.variant()) != Some(wanted) {
            self.engine = None;
            let mut engine = (self.open)(wanted, self.params.hash_mib, self.params.threads)
                .map_err(|e| e.to_string())?;
            for note in load_tables(&self.params, engine.as_mut()) {
                self.error(note);
            }
            // A book that cannot be loaded is reported; the engine plays on without it.
            if let Err(e) = engine.set_book(&self.params.book_settings()) {
                self.error(format!("{e}; playing without a book"));
            }
            self.engine = Some(engine);
        }
        self.engine.as_mut().ok_or_else(|| "no engine".to_string())
    }

    fn translator(&self) -> Translator {
        Translator::new(self.params.variant, self.params.numbering)
    }

    fn idle(&mut self, command: Command) -> Flow {
        match command {
            Command::Hub => {
                self.send(Reply::Id {
                    name: "Polydam".into(),
                    version: env!("CARGO_PKG_VERSION").into(),
                    author: "Polydam developers".into(),
                    country: "unknown".into(),
                });
                for decl in self.params.declarations() {
                    self.send(Reply::Param(decl));
                }
                self.send(Reply::Wait);
            }
            Command::Init => match self.engine() {
                Ok(_) => self.send(Reply::Ready),
                Err(e) => self.error(e),
            },
            Command::SetParam { name, value } => self.set_param(&name, &value),
            Command::Pos(pos) => {
                let tr = self.translator();
                let result = self.engine().map(|engine| engine.set_position(&pos, &tr));
                match result {
                    Err(e) => self.error(e),
                    Ok(Ok(())) => self.level = LevelCommand::default(),
                    Ok(Err(failure)) => {
                        if failure.changed {
                            self.level = LevelCommand::default();
                        }
                        self.error(failure.message);
                    }
                }
            }
            Command::Level(level) => self.level.merge(&level),
            Command::Go(mode) => self.go(mode),
            // Nothing to stop or to hit when idle.
            Command::PonderHit | Command::Stop => {}
            Command::Ping => self.send(Reply::Pong),
            Command::NewGame => {
                if let Some(engine) = self.engine.as_mut() {
                    engine.new_game();
                }
            }
            Command::Quit => return Flow::Quit,
            Command::Unknown(word) => self.unknown(&word),
        }
        Flow::Continue
    }

    fn set_param(&mut self, name: &str, value: &str) {
        let previous_hash = self.params.hash_mib;
        let previous_params = self.params.clone();
        match self.params.set(name, value) {
            Err(e) => self.error(e),
            Ok(Changed::Hash) => {
                let mib = self.params.hash_mib;
                if let Some(engine) = self.engine.as_mut() {
                    // The size passed the check against the memory available, but the
                    // allocation can still fail: then the engine keeps its table, and the
                    // parameter its old value.
                    if let Err(e) = engine.set_hash(mib) {
                        self.params.hash_mib = previous_hash;
                        self.error(format!("{e}; the table stays at {previous_hash} MiB"));
                    }
                }
            }
            Ok(Changed::Threads) => {
                let threads = self.params.threads;
                if let Some(engine) = self.engine.as_mut() {
                    engine.set_threads(threads);
                }
            }
            // The engine of a new variant is created when next needed (init, pos, go).
            Ok(Changed::Variant) => {
                if self.engine.as_ref().map(|e| e.variant()) != Some(self.params.variant) {
                    self.engine = None;
                }
            }
            Ok(Changed::Tables) => {
                if let Some(engine) = self.engine.as_mut() {
                    for note in load_tables(&self.params, engine.as_mut()) {
                        self.error(note);
                    }
                }
            }
            Ok(Changed::Book) => {
                let settings = self.params.book_settings();
                if let Some(engine) = self.engine.as_mut() {
                    // A book that cannot be loaded changes nothing: the parameter keeps its
                    // old value and the engine its old book.
                    if let Err(e) = engine.set_book(&settings) {
                        self.params = previous_params;
                        self.error(format!("{e}; the book stays as it was"));
                    }
                }
            }
            Ok(
                Changed::Numbering
                | Changed::Ponder
                | Changed::MoveOverhead
                | Changed::Weights
                | Changed::Search,
            ) => {}
        }
    }

    fn go(&mut self, mode: GoMode) {
        let mut limits = search_limits(&self.level, mode, self.params.move_overhead());
        limits.multipv = self.params.multipv;
        // A strength level plays `go think` only; pondering and analysis search in full.
        let level = match level_plan(self.params.level) {
            Some(plan) if mode == GoMode::Think => {
                plan.apply(&mut limits);
                Some((plan, level_random(self.next_search)))
            }
            _ => None,
        };
        let id = self.next_search;
        self.next_search += 1;
        let tr = self.translator();
        let out = Arc::clone(&self.out);
        let events = self.events.clone();
        match self.engine() {
            Ok(engine) => {
                let request = SearchRequest {
                    limits,
                    pondering: mode == GoMode::Ponder,
                    id,
                    level,
                };
                engine.start(request, tr, out, events);
                let control = engine.control();
                self.control = Some(control);
                self.searching = Some(id);
            }
            Err(e) => self.error(e),
        }
    }
}

/// The search limits of the merged `level` lines for a `go` of `mode`, with `overhead` kept
/// back from every time limit.
///
/// `go analyze` searches until `stop` unless a limit was given; `level infinite` always does.
/// Without any `level` line, `go think` searches until `stop` or the maximum depth.
pub fn search_limits(level: &LevelCommand, mode: GoMode, overhead: Duration) -> Limits {
    let secs = |s: f64| Duration::try_from_secs_f64(s.max(0.0)).unwrap_or(Duration::ZERO);
    let mut limits = Limits::default();
    if let Some(depth) = level.depth {
        let max = Depth::MAX.plies().max(1) as u32;
        limits.depth = Some(Depth(depth.clamp(1, max) as i32));
    }
    limits.nodes = level.nodes.map(|n| n.max(1));
    limits.move_time = level.move_time.map(|t| secs(t).saturating_sub(overhead));
    if let Some(time) = level.time {
        limits.clock = Some(Clock {
            time: secs(time).saturating_sub(overhead),
            increment: secs(level.inc.unwrap_or(0.0)),
            moves_to_go: level.moves.filter(|&m| m > 0),
        });
    }
    let limited = limits.depth.is_some() || limits.nodes.is_some() || limits.is_timed();
    limits.analyze = mode == GoMode::Analyze;
    limits.infinite = level.infinite || (mode == GoMode::Analyze && !limited);
    limits
}

/// A random number for a level's choice of move in search `id`: from the clock, so that
/// games differ.
fn level_random(id: u64) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    mix_seed(nanos ^ id.rotate_left(32) ^ u64::from(std::process::id()))
}

/// Gives `engine` the endgame tables that `params` ask for (`egtb-dir`, the default directory
/// when it was never set, `bb-size`), or none; returns the problems to answer with `error`
/// lines (a chosen directory or table missing or damaged), the engine playing on with whatever
/// could be loaded.
fn load_tables(params: &Params, engine: &mut dyn Engine) -> Vec<String> {
    engine.set_tables(&params.tables_dir(), params.bb_size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::parse_line;

    fn level(lines: &[&str]) -> LevelCommand {
        let mut merged = LevelCommand::default();
        for line in lines {
            match parse_line(line) {
                Ok(Command::Level(l)) => merged.merge(&l),
                other => panic!("{line}: {other:?}"),
            }
        }
        merged
    }

    #[test]
    fn limits_from_level_lines() {
        let o = Duration::from_millis(10);
        let l = search_limits(&level(&["level depth=7"]), GoMode::Think, o);
        assert_eq!(l.depth, Some(Depth(7)));
        assert!(!l.infinite && !l.analyze);
        let l = search_limits(&level(&["level depth=0"]), GoMode::Think, o);
        assert_eq!(l.depth, Some(Depth(1)));
        let l = search_limits(&level(&["level depth=4000000000"]), GoMode::Think, o);
        assert_eq!(l.depth, Some(Depth::MAX));
        let l = search_limits(&level(&["level move-time=0.05"]), GoMode::Think, o);
        assert_eq!(l.move_time, Some(Duration::from_millis(40)));
        let l = search_limits(&level(&["level move-time=0.005"]), GoMode::Think, o);
        assert_eq!(l.move_time, Some(Duration::ZERO));
        let l = search_limits(
            &level(&["level moves=40 time=120", "level inc=2"]),
            GoMode::Think,
            o,
        );
        assert_eq!(
            l.clock,
            Some(Clock {
                time: Duration::from_millis(119_990),
                increment: Duration::from_secs(2),
                moves_to_go: Some(40),
            })
        );
        let l = search_limits(&level(&["level time=-0.5 inc=0.1"]), GoMode::Think, o);
        assert_eq!(l.clock.map(|c| c.time), Some(Duration::ZERO));
        let l = search_limits(&level(&[]), GoMode::Analyze, o);
        assert!(l.infinite && l.analyze);
        let l = search_limits(&level(&["level depth=5"]), GoMode::Analyze, o);
        assert!(!l.infinite && l.analyze);
        let l = search_limits(&level(&["level infinite"]), GoMode::Think, o);
        assert!(l.infinite);
        let l = search_limits(&level(&["level nodes=0"]), GoMode::Think, o);
        assert_eq!(l.nodes, Some(1));
    }
}
