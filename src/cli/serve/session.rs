//! One connection's game: the record being played in the variant chosen, behind an object-safe
//! trait so that the socket loop does not depend on the game type.
//!
//! [`new_table`] dispatches on the registry once per `new` message; every later request is a
//! call on the monomorphised [`GameTable`]. Moves cross the trait as text (the variant's
//! notation) or as the cells the page clicked ([`Game::move_path`]).

use std::any::Any;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use polydam_engine::egtb::TableProbe;
use polydam_engine::game::{Duplicates, Game, MoveError, MoveStyle, Outcome, Side};
use polydam_engine::record::GameRecord;
use polydam_engine::search::{
    pv_text, IterationFigures, Limits, SearchControl, SearchInfo, Searcher,
};
use polydam_engine::text::excerpt;
use polydam_engine::variants::{dispatch, lookup, GameVisitor, VariantEntry};
use polydam_engine::view::BoardView;

use super::api::{self, CellOut, LegalMove, NodeOut, PieceOut, ResultOut, StateOut, VariantOut};
use super::play::EngineSetup;
use super::review::Tree;
use crate::cli::tables::TablesArgs;
use crate::pdn::{self, PdnGame, PdnLine, PdnResult};

/// Transposition table of each connection's engine, in MiB (eight connections: 256 MiB).
pub const HASH_MIB: usize = 32;

/// Most moves a loaded PDN game may hold.
const MAX_PDN_MOVES: usize = 2000;

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchMode {
    /// Find a move and play it (`go`).
    Play,
    /// Show lines until stopped (`analyse`).
    Analyse,
}

impl SearchMode {
    /// The mode's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            SearchMode::Play => "go",
            SearchMode::Analyse => "analyse",
        }
    }
}

/// What a search thread reports to its connection.
#[derive(Debug)]
pub enum Event {
    /// A completed iteration, as a ready `info` message.
    Info {
        /// The search it belongs to.
        search: u64,
        /// The message's JSON text.
        json: String,
    },
    /// The search's job has left its worker thread (sent last, even if the search panicked):
    /// the connection may start its next search.
    Finished,
    /// The search has ended.
    Done {
        /// The search it belongs to.
        search: u64,
        /// What it was for.
        mode: SearchMode,
        /// The position it searched (see [`Table::generation`]).
        generation: u64,
        /// Its best move in Hub form (exact, for playing it), if it found one.
        best_hub: Option<String>,
        /// The `done` message's JSON text.
        json: String,
    },
}

/// A running search: its id and the flag that stops it.
pub struct RunningSearch {
    /// Its id, echoed in its `info` and `done` messages.
    pub id: u64,
    /// Set to stop it.
    pub control: Arc<SearchControl>,
}

impl RunningSearch {
    /// Asks the search to stop (it sends its `done` when it has).
    pub fn stop(&self) {
        self.control.stop();
    }
}

/// The game of one connection, whatever its variant.
pub trait Table: Send {
    /// The variant's registry row.
    fn variant(&self) -> &'static VariantEntry;
    /// A number that changes whenever the position changes (a search's result is only played
    /// on the position it searched).
    fn generation(&self) -> u64;
    /// The whole state for the page.
    fn state(&self) -> StateOut;
    /// Plays a move given as text in any form the variant reads.
    fn play_text(&mut self, text: &str) -> Result<(), String>;
    /// Plays the move that passes through exactly these cells.
    fn play_path(&mut self, path: &[String]) -> Result<(), String>;
    /// Takes back `plies` plies; answers how many were taken back.
    fn undo(&mut self, plies: usize) -> Result<usize, String>;
    /// Starts again from the position given (a FEN), or from the variant's start.
    fn load_fen(&mut self, fen: Option<&str>) -> Result<(), String>;
    /// Loads a PDN game (its `FEN` tag, moves, comments and variations), showing the end of
    /// its main line.
    fn load_pdn(&mut self, text: &str) -> Result<(), String>;
    /// Shows node `node` of the game tree (see `state`'s `nodes`).
    fn goto(&mut self, node: usize) -> Result<(), String>;
    /// Sets the comment after the move shown (before the game at the first position).
    fn comment(&mut self, text: &str) -> Result<(), String>;
    /// Ends the game shown with a result decided outside the rules (a resignation, a flag
    /// fall, an agreed draw): `winner` none is a draw. It stands, in the state and the PDN,
    /// while the game's main line stays as it is.
    fn declare(&mut self, winner: Option<Side>, reason: &str) -> Result<(), String>;
    /// An error when the game is over (there is nothing to search).
    fn check_playing(&self) -> Result<(), String>;
    /// Starts a search of the current position on the blocking worker threads; its progress
    /// and end arrive on `events`, then [`Event::Finished`].
    fn start_search(
        &mut self,
        id: u64,
        mode: SearchMode,
        limits: Limits,
        setup: EngineSetup,
        events: tokio::sync::mpsc::UnboundedSender<Event>,
    ) -> Result<RunningSearch, String>;
}

/// The endgame tables the server's games use ([`use_tables`]); none until it is called.
static TABLES: OnceLock<TablesArgs> = OnceLock::new();

/// The tables opened so far, one entry per variant (an `Option<Arc<dyn TableProbe<G>>>`
/// each): a variant's tables are loaded at its first game, not at every game.
type Opened = Vec<(&'static str, Box<dyn Any + Send>)>;
static OPENED: Mutex<Opened> = Mutex::new(Vec::new());

/// Makes every later game use the endgame tables `args` name.
pub fn use_tables(args: TablesArgs) {
    // Set once per process: `run_serve` runs once.
    let _ = TABLES.set(args);
}

/// The endgame tables of `G`, loaded the first time they are asked for.
fn tables<G: Game>() -> Option<Arc<dyn TableProbe<G>>> {
    let args = TABLES.get()?;
    let mut opened = OPENED.lock().ok()?;
    if let Some((_, t)) = opened.iter().find(|(name, _)| *name == G::NAME) {
        return t
            .downcast_ref::<Option<Arc<dyn TableProbe<G>>>>()
            .cloned()
            .flatten();
    }
    let t = args.open::<G>();
    opened.push((G::NAME, Box::new(t.clone())));
    t
}

/// A new game of the variant `name` (a registered name or alias), from `fen` or its start.
pub fn new_table(name: &str, fen: Option<&str>) -> Result<Box<dyn Table>, String> {
    let entry = lookup(name).map_err(|e| e.to_string())?;
    let mut table = dispatch(entry.name, NewTable).map_err(|e| e.to_string())??;
    if fen.is_some() {
        table.load_fen(fen)?;
    }
    Ok(table)
}

struct NewTable;

impl GameVisitor for NewTable {
    type Output = Result<Box<dyn Table>, String>;

    fn visit<G: Game>(self) -> Self::Output {
        let entry = lookup(G::NAME).map_err(|e| e.to_string())?;
        let mut searcher = Searcher::<G>::try_new(HASH_MIB, 1).map_err(|e| e.to_string())?;
        searcher.set_tables(tables::<G>());
        Ok(Box::new(GameTable::<G> {
            entry,
            record: GameRecord::new(G::start()),
            generation: 0,
            searcher: Arc::new(Mutex::new(searcher)),
            loaded_tags: Vec::new(),
            loaded_main: Vec::new(),
            tree: Tree::new(),
            declared: None,
        }))
    }
}

/// The game of one connection in the variant `G`.
pub struct GameTable<G: Game> {
    entry: &'static VariantEntry,
    record: GameRecord<G>,
    generation: u64,
    // Shared with the search job, which holds it while it searches; the connection starts
    // its next search only when the job has finished (`Event::Finished`).
    searcher: Arc<Mutex<Searcher<G>>>,
    // The tags of the PDN game loaded last (White, Black, Event, ...), written back into the
    // game's PDN until another game or position is set up.
    loaded_tags: Vec<(String, String)>,
    // That game's main line: its Result and Termination tags stand while the main line is
    // still the one loaded, neither played on nor taken back.
    loaded_main: Vec<String>,
    // Every move played or loaded, with comments and variations; `record` is the path from
    // its root to the node shown.
    tree: Tree,
    // A result decided outside the rules, with the main line it ended: it stands while the
    // main line is still that one (a take-back or a move played on ends it).
    declared: Option<Declared>,
}

/// A result the page decided (resignation, time, agreed draw) for the main line `line`.
struct Declared {
    line: Vec<String>,
    winner: Option<Side>,
    reason: String,
}

impl<G: Game> GameTable<G> {
    fn changed(&mut self) {
        self.generation += 1;
    }

    fn legal(&self) -> Vec<G::Move> {
        let mut moves = Vec::new();
        if self.result().is_none() {
            G::generate(self.record.current(), Duplicates::Drop, &mut moves);
        }
        moves
    }

    /// The moves played, in the variant's notation.
    fn history(&self) -> Vec<String> {
        let positions = self.record.positions();
        self.record
            .moves()
            .iter()
            .zip(positions)
            .map(|(mv, pos)| G::move_text(pos, mv, MoveStyle::Pdn))
            .collect()
    }

    fn result(&self) -> Option<(ResultOut, PdnResult)> {
        let Some((outcome, reason)) = self.record.outcome() else {
            return self
                .declared()
                .filter(|_| self.tree.current() == self.tree.main_end())
                .map(declared_result);
        };
        let pos = self.record.current();
        result_of(outcome, reason.explain::<G>(pos), G::side_to_move(pos))
    }

    /// The declared result, while the main line it ended is unchanged.
    fn declared(&self) -> Option<&Declared> {
        self.declared
            .as_ref()
            .filter(|d| self.tree.to_line().texts() == d.line)
    }

    /// The record of the main line of the tree (the game the PDN's result is about).
    fn main_record(&self) -> GameRecord<G> {
        let end = self.tree.main_end();
        if end == self.tree.current() {
            return self.record.clone();
        }
        let mut record = GameRecord::new(self.record.positions()[0]);
        for text in self.tree.path(end) {
            // The tree holds only moves that were legal where they stand.
            if record.push_text(&text).is_err() {
                break;
            }
        }
        record
    }

    fn pdn_text(&self) -> String {
        let first = &self.record.positions()[0];
        let start_fen = G::fen(first);
        let fen = (start_fen != G::fen(&G::start())).then_some(start_fen);
        // Move 1 begins with the side that moves first in the variant (Black in English
        // checkers): only a game begun by the other side starts with `1...`.
        let second_player_starts = G::side_to_move(first) != G::side_to_move(&G::start());
        let line = self.tree.to_line();
        let declared = self.declared();
        let unchanged = line.texts() == self.loaded_main && declared.is_none();
        let tags: Vec<(String, String)> = self
            .loaded_tags
            .iter()
            .filter(|(name, _)| {
                unchanged
                    || !(name.eq_ignore_ascii_case("Result")
                        || name.eq_ignore_ascii_case("Termination"))
            })
            .cloned()
            .collect();
        let main = self.main_record();
        let result = match main.outcome() {
            Some((outcome, reason)) => {
                let pos = main.current();
                result_of(outcome, reason.explain::<G>(pos), G::side_to_move(pos))
            }
            None => declared.map(declared_result),
        };
        pdn_text_of(G::NAME, result, fen, &line, second_player_starts, &tags)
    }

    /// Plays `mv` on the record and in the tree.
    fn push(&mut self, mv: G::Move) {
        let text = G::move_text(self.record.current(), &mv, MoveStyle::Pdn);
        self.record.push(mv);
        self.tree.play(&text);
    }

    /// Replays the moves from the first position to the tree's node shown.
    fn replay_to_current(&mut self) -> Result<(), String> {
        let mut record = GameRecord::new(self.record.positions()[0]);
        for (i, text) in self.tree.path(self.tree.current()).iter().enumerate() {
            record.push_text(text).map_err(|e| move_error(i, text, e))?;
        }
        self.record = record;
        Ok(())
    }
}

/// Adds the moves of `line` (and its variations) to `tree` after node `at`, checking each
/// from the position `record` ends with; `place` says where the line stands, for errors.
/// Answers the line's first and last nodes (`at` for an empty line).
fn grow<G: Game>(
    tree: &mut Tree,
    at: usize,
    record: &GameRecord<G>,
    line: &PdnLine,
    place: &str,
) -> Result<(usize, usize), String> {
    let mut record = record.clone();
    let mut at = at;
    let mut first = None;
    for (i, mv) in line.moves.iter().enumerate() {
        if record.outcome().is_some() {
            return Err(format!("{place}{}", over_at(i, &mv.text)));
        }
        // The position before the move, from which its variations start.
        let before = *record.current();
        let variation_start = (!mv.variations.is_empty()).then(|| record.clone());
        let played = record
            .push_text(&mv.text)
            .map_err(|e| format!("{place}{}", move_error(i, &mv.text, e)))?;
        let parent = at;
        at = tree.child(parent, &G::move_text(&before, &played, MoveStyle::Pdn));
        first.get_or_insert(at);
        if let Some(c) = &mv.comment {
            tree.set_comment(at, c);
        }
        if !mv.marks.is_empty() {
            tree.set_marks(at, mv.marks.clone());
        }
        let Some(start) = variation_start else {
            continue;
        };
        for (k, variation) in mv.variations.iter().enumerate() {
            let inner = format!(
                "{place}variation {} at move {} ('{}'): ",
                k + 1,
                i + 1,
                excerpt(&mv.text)
            );
            let (begin, _) = grow(tree, parent, &start, variation, &inner)?;
            if variation.comment.is_some() && begin != parent {
                tree.set_before(begin, variation.comment.clone());
            }
        }
    }
    Ok((first.unwrap_or(at), at))
}

/// The result and its reason `why` for the page and the PDN, of a game that ended with
/// `outcome` for `side` (the side to move).
fn result_of(outcome: Outcome, why: String, side: Side) -> Option<(ResultOut, PdnResult)> {
    let winner = match outcome {
        Outcome::Win => Some(side),
        Outcome::Loss => Some(side.opponent()),
        Outcome::Draw => None,
    };
    let text = match winner {
        Some(s) => format!("{} wins", s.name()),
        None => "draw".to_string(),
    };
    let pdn_result = match winner {
        Some(Side::White) => PdnResult::WhiteWins,
        Some(Side::Black) => PdnResult::BlackWins,
        None => PdnResult::Draw,
    };
    Some((
        ResultOut {
            winner: winner.map(Side::name),
            text,
            reason: why,
        },
        pdn_result,
    ))
}

/// The page's and the PDN's form of a declared result.
fn declared_result(d: &Declared) -> (ResultOut, PdnResult) {
    let (text, pdn_result) = match d.winner {
        Some(Side::White) => ("white wins".to_string(), PdnResult::WhiteWins),
        Some(Side::Black) => ("black wins".to_string(), PdnResult::BlackWins),
        None => ("draw".to_string(), PdnResult::Draw),
    };
    (
        ResultOut {
            winner: d.winner.map(Side::name),
            text,
            reason: d.reason.clone(),
        },
        pdn_result,
    )
}

/// The PDN of a game of `variant` with this `result`, start `fen` (when not the variant's),
/// movetext `line` and first player.
fn pdn_text_of(
    variant: &str,
    result: Option<(ResultOut, PdnResult)>,
    fen: Option<String>,
    line: &PdnLine,
    second_player_starts: bool,
    tags: &[(String, String)],
) -> String {
    let (result, termination) = match result {
        Some((r, pdn)) => (Some(pdn), r.reason),
        None => (None, "unterminated".into()),
    };
    let game = PdnGame {
        event: "polydam serve".into(),
        site: "?".into(),
        variant: variant.into(),
        round: 1,
        date: pdn::today(),
        white: "?".into(),
        black: "?".into(),
        result,
        fen,
        termination,
        moves: line.texts(),
        second_player_starts,
    };
    pdn::write_game_tree(&game, tags, line)
}

/// The moves of a PDN game read, with its variations: at most [`MAX_PDN_MOVES`] of them.
fn pdn_tree(game: &pdn::PdnRead) -> Result<&PdnLine, String> {
    let n = game.tree.count();
    if n > MAX_PDN_MOVES {
        return Err(format!(
            "the game has {n} moves (variations included); at most {MAX_PDN_MOVES} are read"
        ));
    }
    Ok(&game.tree)
}

/// Move `i` (from 0) of a PDN game, `mv`, comes after the game's end.
fn over_at(i: usize, mv: &str) -> String {
    format!(
        "move {} ('{}'): the game was already over",
        i + 1,
        excerpt(mv)
    )
}

/// Move `i` (from 0) of a PDN game, `mv`, cannot be played for the reason `e`.
fn move_error(i: usize, mv: &str, e: MoveError) -> String {
    format!("move {} ('{}'): {e}", i + 1, excerpt(mv))
}

/// The board of `view` for the page.
fn cells_out(view: &BoardView) -> Vec<CellOut> {
    view.cells
        .iter()
        .map(|c| CellOut {
            row: c.row,
            col: c.col,
            playable: c.playable,
            label: c.label.clone(),
            short: c.short_label.clone(),
            piece: c.piece.map(|p| PieceOut {
                owner: p.owner.name(),
                king: p.king,
                size: p.size,
            }),
            tile: c.tile.map(Side::name),
            marked: c.marked,
        })
        .collect()
}

impl<G: Game> Table for GameTable<G> {
    fn variant(&self) -> &'static VariantEntry {
        self.entry
    }

    fn generation(&self) -> u64 {
        self.generation
    }

    fn state(&self) -> StateOut {
        let pos = self.record.current();
        let last = self.record.moves().last();
        let view = G::board_view(pos, last);
        let n = self.record.positions().len();
        let last_path = match (last, n) {
            (Some(mv), n) if n >= 2 => G::move_path(&self.record.positions()[n - 2], mv),
            _ => Vec::new(),
        };
        let moves = self
            .legal()
            .iter()
            .map(|m| LegalMove {
                text: G::move_text(pos, m, MoveStyle::Pdn),
                path: G::move_path(pos, m),
                capture: G::is_capture(m),
            })
            .collect();
        StateOut {
            kind: "state",
            variant: VariantOut::of(self.entry),
            rows: view.rows,
            cols: view.cols,
            col_labels: view.col_labels.clone(),
            row_labels: view.row_labels.clone(),
            label_empty: view.label_empty_cells,
            cells: cells_out(&view),
            side: G::side_to_move(pos).name(),
            first_side: G::side_to_move(&self.record.positions()[0]).name(),
            start_side: G::side_to_move(&G::start()).name(),
            moves,
            history: self.history(),
            last_path,
            fen: G::fen(pos),
            start_fen: G::fen(&self.record.positions()[0]),
            pdn: self.pdn_text(),
            result: self.result().map(|(r, _)| r),
            nodes: self
                .tree
                .nodes()
                .iter()
                .map(|n| NodeOut {
                    parent: n.parent,
                    text: n.text.clone(),
                    comment: n.comment.clone(),
                    marks: n.marks.clone(),
                    children: n.children.clone(),
                    ply: n.ply,
                })
                .collect(),
            node: self.tree.current(),
        }
    }

    fn check_playing(&self) -> Result<(), String> {
        match self.result() {
            Some(_) => Err("the game is over (undo, load or start a new game)".into()),
            None => Ok(()),
        }
    }

    fn declare(&mut self, winner: Option<Side>, reason: &str) -> Result<(), String> {
        const MAX_REASON: usize = 200;
        let reason = reason.trim();
        if reason.is_empty() {
            return Err("a result needs its reason (for example 'white resigned')".into());
        }
        if reason.chars().count() > MAX_REASON {
            return Err(format!(
                "a result's reason may hold at most {MAX_REASON} characters"
            ));
        }
        if self.tree.current() != self.tree.main_end() {
            return Err("a result ends the game's main line: show its last move first".into());
        }
        if self.result().is_some() {
            return Err("the game is already over".into());
        }
        self.declared = Some(Declared {
            line: self.tree.to_line().texts(),
            winner,
            reason: reason.to_string(),
        });
        // A move the engine was making when the game was decided is not played.
        self.changed();
        Ok(())
    }

    fn play_text(&mut self, text: &str) -> Result<(), String> {
        self.check_playing()?;
        let mv = G::parse_move(self.record.current(), text).map_err(|e| e.to_string())?;
        self.push(mv);
        self.changed();
        Ok(())
    }

    fn play_path(&mut self, path: &[String]) -> Result<(), String> {
        self.check_playing()?;
        let pos = *self.record.current();
        let found: Vec<G::Move> = self
            .legal()
            .into_iter()
            .filter(|m| G::move_path(&pos, m) == path)
            .collect();
        match found.as_slice() {
            [mv] => {
                self.push(*mv);
                self.changed();
                Ok(())
            }
            [] => Err(format!(
                "illegal move: no legal move passes through {}",
                api::short_list(path)
            )),
            several => Err(format!(
                "ambiguous move: {} moves pass through {}",
                several.len(),
                api::short_list(path)
            )),
        }
    }

    fn undo(&mut self, plies: usize) -> Result<usize, String> {
        let available = self.record.moves().len();
        if available == 0 {
            return Err("nothing to undo".into());
        }
        let n = plies.min(available);
        for _ in 0..n {
            self.record.pop();
            self.tree.back();
        }
        self.changed();
        Ok(n)
    }

    fn load_fen(&mut self, fen: Option<&str>) -> Result<(), String> {
        let start = match fen {
            Some(text) => G::parse_position(text).map_err(|e| format!("bad position: {e}"))?,
            None => G::start(),
        };
        self.record = GameRecord::new(start);
        self.loaded_tags.clear();
        self.loaded_main.clear();
        self.declared = None;
        self.tree = Tree::new();
        self.changed();
        Ok(())
    }

    fn load_pdn(&mut self, text: &str) -> Result<(), String> {
        let game = pdn::read_pdn(text)?;
        let start = match &game.fen {
            Some(f) => G::parse_position(f).map_err(|e| format!("bad FEN tag: {e}"))?,
            None => G::start(),
        };
        let line = pdn_tree(&game)?;
        let mut tree = Tree::new();
        let mut record = GameRecord::<G>::new(start);
        let (_, end) = grow(&mut tree, 0, &record, line, "")?;
        if let Some(c) = &line.comment {
            tree.set_comment(0, c);
        }
        tree.goto(end)?;
        for (i, text) in tree.path(end).iter().enumerate() {
            record.push_text(text).map_err(|e| move_error(i, text, e))?;
        }
        self.record = record;
        self.loaded_main = tree.to_line().texts();
        self.tree = tree;
        self.loaded_tags = game.tags;
        self.declared = None;
        self.changed();
        Ok(())
    }

    fn goto(&mut self, node: usize) -> Result<(), String> {
        let previous = self.tree.current();
        self.tree.goto(node)?;
        if let Err(e) = self.replay_to_current() {
            let _ = self.tree.goto(previous);
            return Err(e);
        }
        self.changed();
        Ok(())
    }

    fn comment(&mut self, text: &str) -> Result<(), String> {
        const MAX_COMMENT: usize = 2000;
        if text.chars().count() > MAX_COMMENT {
            return Err(format!(
                "a comment may hold at most {MAX_COMMENT} characters"
            ));
        }
        self.tree.set_comment(self.tree.current(), text);
        Ok(())
    }

    fn start_search(
        &mut self,
        id: u64,
        mode: SearchMode,
        limits: Limits,
        setup: EngineSetup,
        events: tokio::sync::mpsc::UnboundedSender<Event>,
    ) -> Result<RunningSearch, String> {
        self.check_playing()?;
        let control = Arc::new(SearchControl::new());
        let record = self.record.clone();
        let searcher = Arc::clone(&self.searcher);
        let generation = self.generation;
        let thread_control = Arc::clone(&control);
        spawn_blocking(Box::new(move || {
            let _finished = FinishedGuard(events.clone());
            run_search(SearchJob {
                id,
                mode,
                generation,
                limits,
                setup,
                record,
                searcher,
                control: thread_control,
                events,
            })
        }));
        Ok(RunningSearch { id, control })
    }
}

/// Runs `job` on tokio's blocking threads (not generic, so that tokio's task machinery is
/// compiled once). They are the server's one pool of search workers: `run_serve` bounds their
/// number, and each connection has at most one job there at a time.
fn spawn_blocking(job: Box<dyn FnOnce() + Send>) {
    tokio::task::spawn_blocking(job);
}

/// Sends [`Event::Finished`] when a search job ends, however it ends.
struct FinishedGuard(tokio::sync::mpsc::UnboundedSender<Event>);

impl Drop for FinishedGuard {
    fn drop(&mut self) {
        let _ = self.0.send(Event::Finished);
    }
}

struct SearchJob<G: Game> {
    id: u64,
    mode: SearchMode,
    generation: u64,
    limits: Limits,
    setup: EngineSetup,
    record: GameRecord<G>,
    searcher: Arc<Mutex<Searcher<G>>>,
    control: Arc<SearchControl>,
    events: tokio::sync::mpsc::UnboundedSender<Event>,
}

/// Runs one search to its end on this (blocking) thread, sending `info` after each iteration
/// and `done` at the end.
fn run_search<G: Game>(job: SearchJob<G>) {
    let root = *job.record.current();
    // A search that panicked poisons the lock; the table inside is still usable.
    let mut searcher = job
        .searcher
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if job.control.is_stopped() {
        // Stopped while waiting for the previous search: nothing to report but the end.
        let (id, mode, generation) = (job.id, job.mode, job.generation);
        return send_stopped(&job.events, id, mode, generation);
    }
    if let Err(e) = configure(&mut searcher, &job.setup) {
        let _ = job.events.send(Event::Info {
            search: job.id,
            json: api::error_json(&e, Some(job.mode.name())),
        });
    }
    let events = job.events.clone();
    let id = job.id;
    let mut result = searcher.search(
        &job.record,
        &job.limits,
        &job.control,
        &mut |info: &SearchInfo<G>| {
            let pv = pv_text::<G>(&root, &info.pv, MoveStyle::Pdn);
            let lines: Vec<api::LineOut> = info
                .lines
                .iter()
                .map(|l| api::LineOut {
                    score: l.score.to_string(),
                    centi: l.score.centi(),
                    pv: pv_text::<G>(&root, &l.pv, MoveStyle::Pdn),
                })
                .collect();
            let verdict = info.root_table.map(|t| t.value.name());
            let tables = api::TablesOut {
                verdict,
                hits: info.table_hits,
            };
            send_info(&events, id, info.figures(), &pv, &lines, tables);
        },
    );
    if let Some((plan, random)) = job.setup.level {
        polydam_protocol::driver::play_level(&mut result, &plan, random);
    }
    let best = result.best_move.map(|m| {
        (
            G::move_text(&root, &m, MoveStyle::Hub),
            G::move_text(&root, &m, MoveStyle::Pdn),
        )
    });
    let json = api::done_json(
        job.id,
        job.mode.name(),
        best.as_ref().map(|(_, pdn)| pdn.as_str()),
        Some(&result.score.to_string()),
        result.depth.plies(),
        result.nodes,
        result.time,
    );
    let _ = job.events.send(Event::Done {
        search: job.id,
        mode: job.mode,
        generation: job.generation,
        best_hub: best.map(|(hub, _)| hub),
        json,
    });
}

/// Gives `searcher` the threads and table `setup` asks for; a table that cannot be had
/// leaves the old one, and the error says so.
fn configure<G: Game>(searcher: &mut Searcher<G>, setup: &EngineSetup) -> Result<(), String> {
    if let Some(threads) = setup.threads {
        if searcher.threads() != threads {
            searcher.set_threads(threads);
        }
    }
    if let Some(mib) = setup.hash_mib {
        if searcher.tt().bytes().div_ceil(1 << 20) != mib {
            searcher
                .try_resize_hash(mib)
                .map_err(|e| format!("{e}; the table stays as it was"))?;
        }
    }
    Ok(())
}

/// Sends the end of search `id`, stopped before it started.
fn send_stopped(
    events: &tokio::sync::mpsc::UnboundedSender<Event>,
    id: u64,
    mode: SearchMode,
    generation: u64,
) {
    let _ = events.send(Event::Done {
        search: id,
        mode,
        generation,
        best_hub: None,
        json: api::done_json(id, mode.name(), None, None, 0, 0, Duration::ZERO),
    });
}

/// Sends the `info` of an iteration of search `id` whose principal variation is `pv`.
fn send_info(
    events: &tokio::sync::mpsc::UnboundedSender<Event>,
    id: u64,
    info: IterationFigures,
    pv: &str,
    lines: &[api::LineOut],
    tables: api::TablesOut<'_>,
) {
    let json = api::info_json(
        id,
        info.depth.plies(),
        info.seldepth.0 as i32,
        &info.score.to_string(),
        info.score.centi(),
        info.nodes,
        info.nps,
        info.time,
        pv,
    );
    let json = if lines.len() > 1 || tables.verdict.is_some() || tables.hits > 0 {
        api::info_lines_json(&json, lines, tables)
    } else {
        json
    };
    let _ = events.send(Event::Info { search: id, json });
}

/// How long a `go` may think at most, and the default.
pub const MAX_MOVETIME: f64 = 600.0;
/// A `go` with neither `movetime` nor `depth` thinks this long.
pub const DEFAULT_MOVETIME: f64 = 1.0;

/// The limits of a `go` or `analyse` with the given options, checked.
pub fn limits(
    mode: SearchMode,
    movetime: Option<f64>,
    depth: Option<i64>,
) -> Result<Limits, String> {
    let max_depth = polydam_engine::search::Depth::MAX.plies();
    let mut limits = Limits {
        analyze: mode == SearchMode::Analyse,
        ..Limits::default()
    };
    if let Some(d) = depth {
        if !(1..=i64::from(max_depth)).contains(&d) {
            return Err(format!("depth must be from 1 to {max_depth}, not {d}"));
        }
        limits.depth = Some(polydam_engine::search::Depth(d as i32));
    }
    if let Some(s) = movetime {
        if !s.is_finite() || s <= 0.0 || s > MAX_MOVETIME {
            return Err(format!(
                "movetime must be a number of seconds above 0 and at most {MAX_MOVETIME}, not {s}"
            ));
        }
        limits.move_time = Some(Duration::from_secs_f64(s));
    }
    if mode == SearchMode::Play && limits.depth.is_none() && limits.move_time.is_none() {
        limits.move_time = Some(Duration::from_secs_f64(DEFAULT_MOVETIME));
    }
    Ok(limits)
}
