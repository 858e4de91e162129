//! The engine behind the Hub session: one variant's game record and searcher, chosen once
//! through the registry (see [`open`]) and used through the object-safe [`Engine`] trait, so
//! that the session itself is not generic.
//!
//! A search runs on its own thread (started by [`Engine::start`]), which writes the `info`
//! lines and the final `done` line itself and then reports [`Event::SearchDone`] to the
//! session; the searcher comes back to the engine when the session calls [`Engine::finish`].

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use polydam_engine::egtb::TableProbe;
use polydam_engine::game::{Duplicates, Game, MoveError, MoveStyle};
use polydam_engine::record::GameRecord;
use polydam_engine::search::{
    pv_text, HashError, IterationFigures, LevelPlan, Limits, SearchControl, SearchInfo,
    SearchResult, Searcher,
};
use polydam_engine::variants::{dispatch, GameVisitor, UnknownVariant};

use crate::book::{BookPlayer, BookSettings};
use crate::command::{PosCommand, PositionSpec};
use crate::egtb::TablesDir;
use crate::io::{InputLine, Output};
use crate::lexer::excerpt;
use crate::numbering::Translator;
use crate::reply::{InfoReply, Reply};

/// What the session's event loop reacts to.
#[derive(Debug)]
pub enum Event {
    /// A line from the client (or why it is unusable).
    Line(InputLine),
    /// The client closed our input.
    Eof,
    /// The search with this id has written its `done` line.
    SearchDone(u64),
}

/// Stack of the thread that runs the main search worker (the searcher gives its helpers the
/// same).
const SEARCH_STACK: usize = 16 << 20;

/// Why a `pos` command failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionFailure {
    /// The message for `error message=...`.
    pub message: String,
    /// Whether the position changed anyway: a bad move in `moves=` keeps the position
    /// reached before it (as the Hub specification asks); a bad position changes nothing.
    pub changed: bool,
}

/// How a search should run, besides its limits.
#[derive(Debug, Clone, Copy)]
pub struct SearchRequest {
    /// The limits, already derived from the `level` lines and the `go` mode.
    pub limits: Limits,
    /// `go ponder`: no clock until `ponder-hit`.
    pub pondering: bool,
    /// Identifies the search in [`Event::SearchDone`].
    pub id: u64,
    /// A strength level below full strength, and the random number its choice of move uses:
    /// the move played is then one of the search's lines (see [`LevelPlan::choose`]), and the
    /// opening book is not used.
    pub level: Option<(LevelPlan, u64)>,
}

/// One variant's engine, as the session sees it.
pub trait Engine: Send {
    /// The variant's canonical name.
    fn variant(&self) -> &'static str;

    /// Sets the position from a `pos` command (squares in the client's numbering, which
    /// `tr` translates).
    fn set_position(&mut self, cmd: &PosCommand, tr: &Translator) -> Result<(), PositionFailure>;

    /// Starts a search of the current position on a new thread. Its `info` and `done` lines
    /// go to `out`; when `done` is written, [`Event::SearchDone`] goes to `events`.
    fn start(
        &mut self,
        req: SearchRequest,
        tr: Translator,
        out: Arc<Output>,
        events: Sender<Event>,
    );

    /// Waits for the running search, if any, to end (after it wrote `done`).
    fn finish(&mut self);

    /// Whether a search is running (started and not yet finished).
    fn is_searching(&self) -> bool;

    /// The control of the current or next search (stop, ponder hit).
    fn control(&self) -> Arc<SearchControl>;

    /// Forgets everything learnt (the transposition table, move ordering statistics).
    fn new_game(&mut self);

    /// Resizes the transposition table (emptying it); when the new table cannot be had, the
    /// old one stays, contents and all, and the error says why.
    fn set_hash(&mut self, mib: usize) -> Result<(), HashError>;

    /// Sets the number of search threads.
    fn set_threads(&mut self, threads: usize);

    /// Loads the endgame tables of up to `max_pieces` pieces from `dir` (one subdirectory per
    /// variant), or drops them. Returns the problems to answer with `error` lines (those of a
    /// directory the user chose: it or a slice missing or damaged, a variant without tables),
    /// one message each; the engine plays on with whatever could be loaded. The default
    /// directory's notes go to stderr (see [`crate::egtb::open`]).
    fn set_tables(&mut self, dir: &TablesDir, max_pieces: u32) -> Vec<String>;

    /// The current position as a card-numbered Hub string (for tests and debugging).
    fn position_text(&self) -> String;

    /// Applies the opening book settings, loading the book if needed; on error the engine
    /// keeps its previous book (if any) and the message says what is wrong.
    fn set_book(&mut self, settings: &BookSettings) -> Result<(), String>;
}

/// Why an engine could not be opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenError {
    /// No such variant.
    Variant(UnknownVariant),
    /// The transposition table cannot be allocated.
    Hash(HashError),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Variant(e) => e.fmt(f),
            OpenError::Hash(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for OpenError {}

/// What creates the engine of a variant: [`open`].
pub type OpenFn = fn(&str, usize, usize) -> Result<Box<dyn Engine>, OpenError>;

/// Creates the engine of `variant` with a table of `hash_mib` MiB and `threads` threads.
// Inline: compiled in the crate that calls it (with every variant's engine), not here.
#[inline]
pub fn open(variant: &str, hash_mib: usize, threads: usize) -> Result<Box<dyn Engine>, OpenError> {
    dispatch(variant, Open { hash_mib, threads })
        .map_err(OpenError::Variant)?
        .map_err(OpenError::Hash)
}

struct Open {
    hash_mib: usize,
    threads: usize,
}

impl GameVisitor for Open {
    type Output = Result<Box<dyn Engine>, HashError>;

    fn visit<G: Game>(self) -> Result<Box<dyn Engine>, HashError> {
        Ok(Box::new(GameEngine::<G> {
            record: GameRecord::new(G::start()),
            searcher: Some(Searcher::try_new(self.hash_mib, self.threads)?),
            hash_mib: self.hash_mib,
            threads: self.threads,
            running: None,
            control: Arc::new(SearchControl::new()),
            tables: None,
            book: BookPlayer::default(),
        }))
    }
}

/// A searcher handed over to a search thread, and back.
type Parked<G> = Arc<Mutex<Option<Searcher<G>>>>;

/// Takes the searcher out of `parked` (none if a thread that had it panicked).
fn unpark<G: Game>(parked: &Parked<G>) -> Option<Searcher<G>> {
    parked.lock().ok().and_then(|mut s| s.take())
}

/// Starts the search thread on `job` (not generic, so that the thread machinery is compiled
/// once and not once per game).
fn spawn_search(job: Box<dyn FnOnce() + Send>) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name("search".into())
        .stack_size(SEARCH_STACK)
        .spawn(job)
}

/// Runs `f`, catching a panic; whether it returned.
fn returned(f: &mut dyn FnMut()) -> bool {
    catch_unwind(AssertUnwindSafe(f)).is_ok()
}

/// The engine of the game `G`.
struct GameEngine<G: Game> {
    record: GameRecord<G>,
    /// `None` while a search thread owns it.
    searcher: Option<Searcher<G>>,
    hash_mib: usize,
    threads: usize,
    /// The running search's thread, and where its searcher comes back to when it ends.
    running: Option<(JoinHandle<()>, Parked<G>)>,
    control: Arc<SearchControl>,
    /// The endgame tables, given to every searcher.
    tables: Option<Arc<dyn TableProbe<G>>>,
    /// The opening book.
    book: BookPlayer<G>,
}

impl<G: Game> GameEngine<G> {
    /// The searcher, recreated if a search thread lost it (which fails only when its table
    /// cannot be allocated again).
    fn searcher(&mut self) -> Result<&mut Searcher<G>, HashError> {
        self.finish();
        let searcher = match self.searcher.take() {
            Some(s) => s,
            None => {
                let mut s = Searcher::try_new(self.hash_mib, self.threads)?;
                s.set_tables(self.tables.clone());
                s
            }
        };
        Ok(self.searcher.insert(searcher))
    }
}

/// A copy of `record`, replayed from its start: `GameRecord`'s derived `Clone` asks for
/// `G: Clone`, which the zero-sized game markers do not implement.
fn copy_record<G: Game>(record: &GameRecord<G>) -> GameRecord<G> {
    let start = record.positions().first().copied().unwrap_or_else(G::start);
    let mut copy = GameRecord::new(start);
    for mv in record.moves() {
        copy.push(*mv);
    }
    copy
}

/// A position that cannot be set, for `why`: nothing changes.
fn bad_position(why: String) -> PositionFailure {
    PositionFailure {
        message: format!("bad position: {why}"),
        changed: false,
    }
}

/// Move `n` of `moves=`, `text`, that cannot be played for the reason `e`: the position before
/// it is kept.
fn bad_move(n: usize, text: &str, e: MoveError, tr: &Translator) -> PositionFailure {
    let shown = excerpt(text);
    let message = match e {
        MoveError::Malformed(why) => {
            format!("bad move {n} '{shown}' in moves=: {why}")
        }
        MoveError::Illegal(_) => format!(
            "illegal move: '{shown}' (move {n} of moves=) is not legal in this position; \
             the position after move {} is kept",
            n - 1
        ),
        MoveError::Ambiguous(_, options) => {
            let options: Vec<String> = options.iter().map(|o| tr.move_out(o)).collect();
            format!(
                "ambiguous move: '{shown}' (move {n} of moves=) could be {}; \
                 the position after move {} is kept",
                options.join(" or "),
                n - 1
            )
        }
    };
    PositionFailure {
        message,
        changed: true,
    }
}

/// Writes the `info` line of a completed iteration; in a multi-PV search, one per line, best
/// first, each with `multipv=K` and its own score.
fn send_info<G: Game>(out: &Output, root: &G::Position, info: &SearchInfo<G>, tr: &Translator) {
    if info.lines.len() <= 1 {
        let pv = pv_text::<G>(root, &info.pv, MoveStyle::Hub);
        send_info_line(out, &info.figures(), &pv, None, tr);
        return;
    }
    for (k, line) in info.lines.iter().enumerate() {
        let pv = pv_text::<G>(root, &line.pv, MoveStyle::Hub);
        let figures = IterationFigures {
            score: line.score,
            ..info.figures()
        };
        send_info_line(out, &figures, &pv, Some(k as u32 + 1), tr);
    }
}

/// Writes the `info` line of an iteration with these figures and principal variation `pv`
/// (card-numbered Hub moves), line `multipv` of a multi-PV search.
fn send_info_line(
    out: &Output,
    info: &IterationFigures,
    pv: &str,
    multipv: Option<u32>,
    tr: &Translator,
) {
    let pv: Vec<String> = pv.split_whitespace().map(|m| tr.move_out(m)).collect();
    let reply = InfoReply {
        depth: Some(info.depth.plies().max(0) as u32),
        mean_depth: Some(info.mean_depth),
        score: Some(info.score.hub()),
        nodes: Some(info.nodes),
        time: Some(info.time.as_secs_f64()),
        nps: Some(info.nps),
        tables: info.root_table.map(|t| t.value.name().to_owned()),
        tb_hits: (info.table_hits > 0).then_some(info.table_hits),
        book: None,
        pv: (!pv.is_empty()).then(|| pv.join(" ")),
        multipv,
    };
    if !reply.is_empty() {
        out.send(&Reply::Info(reply));
    }
}

/// The `done` line for a search result (a bare `done` when there is no legal move).
fn done_line<G: Game>(
    root: &G::Position,
    result: Option<&SearchResult<G>>,
    tr: &Translator,
) -> String {
    let mut legal = Vec::new();
    if G::decided(root).is_none() {
        G::generate(root, Duplicates::Drop, &mut legal);
    }
    // The search's move if it is legal, else any legal move (a search that panicked).
    let best = result
        .and_then(|r| r.best_move)
        .filter(|m| legal.contains(m))
        .or_else(|| legal.first().copied());
    let Some(best) = best else {
        return "done\n".to_owned();
    };
    let mv = tr.move_out(&G::move_text(root, &best, MoveStyle::Hub));
    let child = G::play(root, &best);
    let ponder = result
        .filter(|r| r.best_move == Some(best))
        .and_then(|r| r.ponder_move)
        .filter(|p| {
            let mut replies = Vec::new();
            if G::decided(&child).is_none() {
                G::generate(&child, Duplicates::Drop, &mut replies);
            }
            replies.contains(p)
        })
        .map(|p| tr.move_out(&G::move_text(&child, &p, MoveStyle::Hub)));
    Reply::Done { mv, ponder }.to_line()
}

/// Runs one search to its `done` line, catching a panic so that `done` is still written.
/// With a `level`, the move is that level's choice among the search's lines.
fn run_search<G: Game>(
    searcher: &mut Searcher<G>,
    record: &GameRecord<G>,
    limits: &Limits,
    control: &SearchControl,
    level: Option<(LevelPlan, u64)>,
    tr: &Translator,
    out: &Output,
) {
    let root = *record.current();
    let mut result = None;
    returned(&mut || {
        result = Some(searcher.search(record, limits, control, &mut |info| {
            send_info::<G>(out, &root, info, tr)
        }))
    });
    if let (Some((plan, random)), Some(r)) = (level, result.as_mut()) {
        play_level(r, &plan, random);
    }
    out.send_raw(&done_line::<G>(&root, result.as_ref(), tr));
}

/// Makes `result` play the move `plan` chooses among its lines (with `random`), its line
/// becoming the principal one.
pub fn play_level<G: Game>(result: &mut SearchResult<G>, plan: &LevelPlan, random: u64) {
    let scores: Vec<_> = result.lines.iter().map(|l| l.score).collect();
    let k = plan.choose(&scores, random);
    if k == 0 {
        return;
    }
    if let Some(line) = result.lines.get(k) {
        result.best_move = line.pv.first().copied();
        result.ponder_move = line.pv.get(1).copied();
        result.score = line.score;
        result.pv = line.pv.clone();
    }
}

impl<G: Game> Engine for GameEngine<G> {
    fn variant(&self) -> &'static str {
        G::NAME
    }

    fn set_position(&mut self, cmd: &PosCommand, tr: &Translator) -> Result<(), PositionFailure> {
        self.finish();
        let start = match &cmd.position {
            PositionSpec::Start => G::start(),
            PositionSpec::Hub(text) => {
                let card = tr.position_in(text).map_err(bad_position)?;
                G::parse_position(&card).map_err(|e| bad_position(e.to_string()))?
            }
            PositionSpec::Fen(text) => {
                G::parse_position(&tr.fen_in(text)).map_err(|e| bad_position(e.to_string()))?
            }
        };
        let mut record = GameRecord::<G>::new(start);
        for (i, text) in cmd.moves.iter().enumerate() {
            if let Err(e) = record.push_text(&tr.move_in(text)) {
                self.record = record;
                return Err(bad_move(i + 1, text, e, tr));
            }
        }
        self.record = record;
        Ok(())
    }

    fn start(
        &mut self,
        req: SearchRequest,
        tr: Translator,
        out: Arc<Output>,
        events: Sender<Event>,
    ) {
        // Reset before the thread starts, so that a stop sent right after `go` is not lost.
        self.control.reset(req.pondering);
        let id = req.id;
        // A book move is answered at once, without a search; never while pondering or
        // analysing, which ask for a search.
        let from_book =
            !req.pondering && !req.limits.analyze && !req.limits.infinite && req.level.is_none();
        if from_book {
            let root = *self.record.current();
            if let Some((mv, score, source)) = self.book.choose(&root) {
                let text = G::move_text(&root, &mv, MoveStyle::Hub);
                out.send(&Reply::Info(InfoReply {
                    score: Some(score.hub()),
                    book: Some(source.to_owned()),
                    pv: Some(tr.move_out(&text)),
                    ..InfoReply::default()
                }));
                out.send(&Reply::Done {
                    mv: tr.move_out(&text),
                    ponder: None,
                });
                let _ = events.send(Event::SearchDone(id));
                return;
            }
        }
        let _ = self.searcher();
        let Some(searcher) = self.searcher.take() else {
            // No table to be had (a lost searcher that cannot be rebuilt): still answer, with
            // any legal move, as every `go` gets its `done`.
            out.send_raw(&done_line::<G>(self.record.current(), None, &tr));
            let _ = events.send(Event::SearchDone(id));
            return;
        };
        let record = copy_record(&self.record);
        let control = Arc::clone(&self.control);
        let limits = req.limits;
        let level = req.level;
        let parked: Parked<G> = Arc::new(Mutex::new(Some(searcher)));
        let spawned = spawn_search(Box::new({
            let parked = Arc::clone(&parked);
            let out = Arc::clone(&out);
            let events = events.clone();
            move || {
                let Some(mut searcher) = unpark(&parked) else {
                    return;
                };
                run_search(&mut searcher, &record, &limits, &control, level, &tr, &out);
                let _ = events.send(Event::SearchDone(id));
                if let Ok(mut slot) = parked.lock() {
                    *slot = Some(searcher);
                }
            }
        }));
        match spawned {
            Ok(handle) => self.running = Some((handle, parked)),
            Err(_) => {
                // No thread to be had: search here (ping and stop wait until it ends).
                let Some(mut searcher) = unpark(&parked) else {
                    return;
                };
                run_search(
                    &mut searcher,
                    &self.record,
                    &limits,
                    &self.control,
                    level,
                    &tr,
                    &out,
                );
                self.searcher = Some(searcher);
                let _ = events.send(Event::SearchDone(id));
            }
        }
    }

    fn finish(&mut self) {
        if let Some((handle, parked)) = self.running.take() {
            if handle.join().is_ok() {
                self.searcher = unpark(&parked);
            }
        }
    }

    fn is_searching(&self) -> bool {
        self.running.is_some()
    }

    fn control(&self) -> Arc<SearchControl> {
        Arc::clone(&self.control)
    }

    fn new_game(&mut self) {
        if let Ok(s) = self.searcher() {
            s.clear();
        }
    }

    fn set_hash(&mut self, mib: usize) -> Result<(), HashError> {
        self.searcher()?.try_resize_hash(mib)?;
        self.hash_mib = mib;
        Ok(())
    }

    fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
        if let Ok(s) = self.searcher() {
            s.set_threads(threads);
        }
    }

    fn position_text(&self) -> String {
        G::hub_position(self.record.current())
    }

    fn set_book(&mut self, settings: &BookSettings) -> Result<(), String> {
        self.finish();
        self.book.configure(settings)
    }

    fn set_tables(&mut self, dir: &TablesDir, max_pieces: u32) -> Vec<String> {
        let (tables, notes) = crate::egtb::open::<G>(dir, max_pieces);
        self.tables = tables.clone();
        if let Ok(s) = self.searcher() {
            s.set_tables(tables);
        }
        notes
    }
}

impl<G: Game> Drop for GameEngine<G> {
    fn drop(&mut self) {
        self.control.stop();
        self.finish();
    }
}
