//! `polydam play`: a game against the engine (or between two people) in the terminal.
//!
//! The loop reads one line at a time: a move in the variant's notation (read leniently by
//! [`Game::parse_move`]) or a command (`moves`, `undo`, `hint`, `fen`, `new`, `save FILE`,
//! `resign`, `help`, `quit`). With `--time`, each side has a clock.
//! Bad input gets a one-line error and the game goes on; end of input ends the program
//! normally. All output goes through a `&mut dyn Write`, so tests can drive it in-process.

mod board;
pub mod render;

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use polydam_engine::game::{Game, Outcome, Side};
use polydam_engine::record::EndReason;
use polydam_engine::search::{Clock, Depth, Limits, Searcher};
use polydam_engine::variants::{dispatch, GameVisitor};

use super::book::BookArgs;
use super::setup::PositionArgs;
use super::tables::TablesArgs;
use super::CliError;
use crate::pdn::{PdnGame, PdnResult};
use board::{board, PlayBoard};
use render::Style;

/// Which side the engine plays (`--engine-side`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum EngineSide {
    /// The engine plays White.
    White,
    /// The engine plays Black.
    ///
    /// The default: the human moves first in most variants.
    #[default]
    Black,
    /// No engine: two people play.
    ///
    /// `undo` then takes back one ply.
    None,
}

impl EngineSide {
    fn side(self) -> Option<Side> {
        match self {
            EngineSide::White => Some(Side::White),
            EngineSide::Black => Some(Side::Black),
            EngineSide::None => None,
        }
    }
}

/// Options of `polydam play`.
#[derive(Clone, Debug, clap::Args)]
pub struct PlayOptions {
    /// The variant and the position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// The engine's side (`none`: two people play).
    #[arg(long, value_enum, default_value = "black")]
    pub engine_side: EngineSide,
    /// Seconds per engine move (1 when neither this nor --depth is given).
    #[arg(long, allow_negative_numbers = true)]
    pub movetime: Option<f64>,
    /// Search depth per engine move.
    #[arg(long, short = 'd', allow_negative_numbers = true)]
    pub depth: Option<i32>,
    /// Draw the board in plain ASCII (w b W B).
    #[arg(long)]
    pub ascii: bool,
    /// Colour the last move (only when the output is a terminal).
    // `main` turns this off when stdout is no terminal; tests driving `run_play` choose.
    #[arg(long)]
    pub color: bool,
    /// Transposition table size in MiB.
    #[arg(long = "hash", value_name = "HASH", default_value_t = 16)]
    pub hash_mib: usize,
    /// The endgame tables.
    #[command(flatten)]
    pub tables: TablesArgs,
    /// The opening book.
    #[command(flatten)]
    pub book: BookArgs,
    /// A clock for each side: MIN minutes, plus INC seconds after each move (`5`, `3+2`,
    /// `0.5+1`); a side whose time runs out loses. The engine plays on its clock (unless
    /// --movetime or --depth is given too).
    #[arg(long, value_name = "MIN[+INC]", value_parser = parse_time_control)]
    pub time: Option<TimeControl>,
}

/// A clock's setting (`--time MIN[+INC]`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Time for each side at the start.
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// Reads `MIN[+INC]`: minutes, then optionally `+` and seconds.
pub fn parse_time_control(text: &str) -> Result<TimeControl, String> {
    let (min, inc) = match text.split_once('+') {
        Some((m, i)) => (m, Some(i)),
        None => (text, None),
    };
    let number = |t: &str, what: &str, max: f64| -> Result<f64, String> {
        match t.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && (0.0..=max).contains(&x) => Ok(x),
            _ => Err(format!(
                "{what} must be a number from 0 to {max}, not '{}' (the form is MIN[+INC], e.g. 5 or 3+2)",
                t.trim()
            )),
        }
    };
    let minutes = number(min, "the minutes", 600.0)?;
    let inc = match inc {
        Some(i) => number(i, "the increment (seconds)", 600.0)?,
        None => 0.0,
    };
    if minutes == 0.0 && inc == 0.0 {
        return Err("a clock needs some time: MIN or INC above 0".into());
    }
    Ok(TimeControl {
        base: Duration::from_secs_f64(minutes * 60.0),
        increment: Duration::from_secs_f64(inc),
    })
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            position: PositionArgs::default(),
            engine_side: EngineSide::Black,
            movetime: None,
            depth: None,
            ascii: false,
            color: false,
            hash_mib: 16,
            tables: TablesArgs::default(),
            book: BookArgs::default(),
            time: None,
        }
    }
}

/// Engine time per move when no limit is given.
const DEFAULT_MOVETIME: f64 = 1.0;

const HELP: &str = "\
commands:
  <move>   play a move in the variant's notation (see `moves`)
  moves    list the legal moves
  undo     take back your last move (and the engine's answer)
  hint     ask the engine for a move
  fen      print the position
  save F   write the game to the file F as PDN
  resign   give up the game
  new      start again
  help     this text
  quit     leave (end of input does too)";

fn io_err(e: std::io::Error) -> CliError {
    CliError(format!("cannot write output: {e}"))
}

/// What a line of input asks for.
#[derive(Debug, PartialEq, Eq)]
enum Input<'a> {
    Empty,
    Quit,
    Help,
    Moves,
    Undo,
    Hint,
    Fen,
    New,
    Resign,
    Save(&'a str),
    Move(&'a str),
}

fn classify(line: &str) -> Input<'_> {
    let text = line.trim();
    match text.to_ascii_lowercase().as_str() {
        "" => Input::Empty,
        "quit" | "exit" | "q" => Input::Quit,
        "help" | "?" => Input::Help,
        "moves" | "legal" => Input::Moves,
        "undo" | "u" | "takeback" => Input::Undo,
        "hint" => Input::Hint,
        "fen" => Input::Fen,
        "new" => Input::New,
        "resign" => Input::Resign,
        "save" => Input::Save(""),
        _ => match text.split_once(char::is_whitespace) {
            Some((word, file)) if word.eq_ignore_ascii_case("save") => Input::Save(file.trim()),
            _ => Input::Move(text),
        },
    }
}

/// The game at the table: the record being played, the position to go back to on `new`, and
/// the engine with its limits (one searcher for the whole game, so its table carries over).
struct Table<'a> {
    opts: &'a PlayOptions,
    style: Style,
    /// The game, its first position and the engine's searcher.
    board: Box<dyn PlayBoard>,
    limits: Limits,
    /// A result the table decided (a resignation, a clock that ran out): the winner and why.
    decided: Option<(Side, String)>,
    /// Time left on each side's clock (White's, Black's), with `--time`.
    clock: Option<[Duration; 2]>,
    /// The clocks before each ply played since the start, so that `undo` gives the time back.
    clock_before: Vec<[Duration; 2]>,
    /// When the board was last shown: the person to move thinks from then on.
    turn_start: Instant,
}

/// The index of `side`'s clock.
fn clock_index(side: Side) -> usize {
    usize::from(side == Side::Black)
}

/// A clock's time as `M:SS` (tenths below 20 seconds).
fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    if s < 20 {
        format!("{}:{:02}.{}", s / 60, s % 60, d.subsec_millis() / 100)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

impl Table<'_> {
    fn engine_to_move(&self) -> bool {
        self.opts.engine_side.side() == Some(self.board.side_to_move())
    }

    /// Whether the game is over, on the board or by the table's decision.
    fn is_over(&self) -> bool {
        self.board.outcome().is_some() || self.decided.is_some()
    }

    /// Charges `spent` to `side`'s clock after its move: the increment is added, or the side
    /// loses when its time ran out (then `false`).
    fn charge(&mut self, side: Side, spent: Duration) -> bool {
        let Some(clock) = self.clock.as_mut() else {
            return true;
        };
        let left = &mut clock[clock_index(side)];
        match left.checked_sub(spent) {
            Some(rest) if !rest.is_zero() => {
                *left = rest + self.opts.time.map_or(Duration::ZERO, |t| t.increment);
                true
            }
            _ => {
                *left = Duration::ZERO;
                let why = format!("{}'s time ran out", side.name());
                self.decided = Some((side.opponent(), why));
                false
            }
        }
    }

    /// Charges `spent` to `side`'s clock for the ply it has just played, keeping the clocks as
    /// they were before it for `undo`.
    fn charge_ply(&mut self, side: Side, spent: Duration) -> bool {
        if let Some(clock) = self.clock {
            self.clock_before.push(clock);
        }
        self.charge(side, spent)
    }

    /// The clocks set back to their start (a new game).
    fn reset_clock(&mut self) {
        self.clock = self.opts.time.map(|t| [t.base, t.base]);
        self.clock_before.clear();
    }

    /// The engine's limits for its move now: its clock's, unless a fixed limit was given.
    fn engine_limits(&self) -> Limits {
        let mut limits = self.limits;
        if let Some(clock) = self.clock {
            if self.opts.movetime.is_none() && self.opts.depth.is_none() {
                limits.move_time = None;
            }
            limits.clock = Some(Clock {
                time: clock[clock_index(self.board.side_to_move())],
                increment: self.opts.time.map_or(Duration::ZERO, |t| t.increment),
                moves_to_go: None,
            });
        }
        limits
    }

    /// The game as PDN.
    fn pdn(&self) -> String {
        let engine = self.opts.engine_side.side();
        let name = |side: Side| match engine {
            Some(s) if s == side => "Polydam".to_string(),
            Some(_) => "you".to_string(),
            None => "?".to_string(),
        };
        let (result, termination) = match (&self.decided, self.board.outcome()) {
            (Some((winner, why)), _) => (Some(PdnResult::win_for(*winner)), why.clone()),
            (None, Some((outcome, reason))) => {
                let side = self.board.side_to_move();
                let result = match outcome {
                    Outcome::Win => PdnResult::win_for(side),
                    Outcome::Loss => PdnResult::win_for(side.opponent()),
                    Outcome::Draw => PdnResult::Draw,
                };
                (Some(result), self.board.end_text(reason))
            }
            (None, None) => (None, "unterminated".to_string()),
        };
        let game = PdnGame {
            event: "polydam play".into(),
            site: "?".into(),
            variant: self.board.variant().into(),
            round: 1,
            date: crate::pdn::today(),
            white: name(Side::White),
            black: name(Side::Black),
            result,
            fen: self.board.start_fen(),
            termination,
            moves: self.board.history(),
            second_player_starts: self.board.second_player_starts(),
        };
        crate::pdn::write_game(&game)
    }

    fn show_board(&self, out: &mut dyn Write) -> Result<(), CliError> {
        let view = self.board.view();
        out.write_all(render::render(&view, self.style).as_bytes())
            .map_err(io_err)?;
        let side = self.board.side_to_move();
        let who = match self.opts.engine_side.side() {
            None => "",
            Some(s) if s == side => " (engine)",
            Some(_) => " (you)",
        };
        let last = self
            .board
            .last_move()
            .map_or(String::new(), |mv| format!(", last move {mv}"));
        writeln!(
            out,
            "move {}: {} ({}) to move{who}{last}",
            self.move_number(),
            side.name(),
            render::piece_glyph(side, false, self.style)
        )
        .map_err(io_err)?;
        if let Some(clock) = self.clock {
            writeln!(
                out,
                "clock: white {}, black {}",
                clock_text(clock[0]),
                clock_text(clock[1])
            )
            .map_err(io_err)?;
        }
        Ok(())
    }

    /// The number of the current full move, counting from 1 at the first position given (a
    /// game whose first position has Black to move starts with Black's half of move 1).
    fn move_number(&self) -> usize {
        let offset = usize::from(self.board.first_side() == Side::Black);
        (self.board.plies() + offset) / 2 + 1
    }

    /// The legal moves in the variant's notation, sorted.
    fn legal_texts(&self) -> Vec<String> {
        let mut texts = self.board.legal_texts();
        texts.sort();
        texts
    }

    /// The engine's move in PDN style, played when `play` is set.
    fn search(&mut self, play: bool) -> Option<String> {
        let limits = if play {
            self.engine_limits()
        } else {
            self.limits
        };
        self.board.search(&limits, play)
    }

    /// Takes back the human's last move (with the engine's answers after it), or one ply when
    /// two people play. Returns how many plies were taken back.
    fn undo(&mut self) -> usize {
        let Some(human) = self.opts.engine_side.side().map(Side::opponent) else {
            let taken = self.board.pop();
            if taken {
                self.restore_clock();
            }
            return usize::from(taken);
        };
        // Only go back if some earlier position had the human to move: otherwise the engine
        // would simply play its first move again.
        if !self.board.had_to_move(human) {
            return 0;
        }
        let mut taken = 0;
        while self.board.pop() {
            taken += 1;
            self.restore_clock();
            if self.board.side_to_move() == human {
                break;
            }
        }
        taken
    }

    /// The clocks as they were before the ply just taken back.
    fn restore_clock(&mut self) {
        if let Some(before) = self.clock_before.pop() {
            self.clock = Some(before);
        }
    }

    fn result_text(&self, outcome: Outcome, reason: EndReason) -> String {
        let side = self.board.side_to_move();
        let result = match outcome {
            Outcome::Win => format!("{} wins", side.name()),
            Outcome::Loss => format!("{} wins", side.opponent().name()),
            Outcome::Draw => "draw".to_string(),
        };
        let why = self.board.end_text(reason);
        format!("game over: {result} ({why})")
    }

    fn run(&mut self, input: &mut dyn LineSource, out: &mut dyn Write) -> Result<(), CliError> {
        let variant = self.board.variant();
        writeln!(out, "polydam play: {variant} (type a move, or `help`)").map_err(io_err)?;
        let mut line = String::new();
        let mut shown = false;
        loop {
            let over = self.board.outcome();
            if over.is_none() && self.decided.is_none() && self.engine_to_move() {
                let side = self.board.side_to_move();
                let started = Instant::now();
                match self.search(true) {
                    Some(mv) => {
                        writeln!(out, "engine plays {mv}").map_err(io_err)?;
                        self.charge_ply(side, started.elapsed());
                        shown = false;
                        continue;
                    }
                    None => {
                        // Not expected with a legal move on the board; let the human take over.
                        writeln!(out, "error: the engine found no move").map_err(io_err)?;
                    }
                }
            }
            if !shown {
                self.show_board(out)?;
                if let Some((winner, why)) = &self.decided {
                    writeln!(out, "game over: {} wins ({why})", winner.name()).map_err(io_err)?;
                    writeln!(out, "(undo, new, save FILE or quit)").map_err(io_err)?;
                } else if let Some((outcome, reason)) = over {
                    writeln!(out, "{}", self.result_text(outcome, reason)).map_err(io_err)?;
                    writeln!(out, "(undo, new, save FILE or quit)").map_err(io_err)?;
                }
                shown = true;
                self.turn_start = Instant::now();
            }
            line.clear();
            match input.read_line("> ", &mut line, out) {
                Ok(false) => {
                    writeln!(out).map_err(io_err)?;
                    return Ok(());
                }
                Ok(true) => {}
                Err(e) => {
                    // Not UTF-8 and the like: say so and carry on with the next line.
                    writeln!(out, "error: cannot read input: {e}").map_err(io_err)?;
                    continue;
                }
            }
            match self.answer(classify(&line), out)? {
                None => return Ok(()),
                Some(true) => shown = false,
                Some(false) => {}
            }
        }
    }

    /// Answers one line of input: `None` to quit, else whether the board changed (and is
    /// shown again).
    fn answer(&mut self, input: Input<'_>, out: &mut dyn Write) -> Result<Option<bool>, CliError> {
        let over = self.is_over();
        let mut changed = false;
        match input {
            Input::Empty => {}
            Input::Quit => return Ok(None),
            Input::Help => writeln!(out, "{HELP}").map_err(io_err)?,
            Input::Fen => writeln!(out, "{}", self.board.fen()).map_err(io_err)?,
            Input::Moves => {
                let texts = self.legal_texts();
                let noun = if texts.len() == 1 { "move" } else { "moves" };
                writeln!(out, "{} legal {noun}: {}", texts.len(), texts.join(" "))
                    .map_err(io_err)?;
            }
            Input::Hint => {
                if over {
                    writeln!(out, "error: the game is over").map_err(io_err)?;
                } else {
                    match self.search(false) {
                        Some(mv) => writeln!(out, "hint: {mv}").map_err(io_err)?,
                        None => writeln!(out, "no hint").map_err(io_err)?,
                    }
                }
            }
            Input::New => {
                self.board.restart();
                self.decided = None;
                self.reset_clock();
                writeln!(out, "new game").map_err(io_err)?;
                changed = true;
            }
            Input::Undo => match self.undo() {
                0 => writeln!(out, "error: nothing to undo").map_err(io_err)?,
                n => {
                    // A resignation or a fall of the flag is taken back with the move.
                    self.decided = None;
                    let plies = if n == 1 { "ply" } else { "plies" };
                    writeln!(out, "took back {n} {plies}").map_err(io_err)?;
                    changed = true;
                }
            },
            Input::Resign => {
                if over {
                    writeln!(out, "error: the game is over").map_err(io_err)?;
                } else {
                    // The person to move resigns (against the engine: the person's side).
                    let side = match self.opts.engine_side.side() {
                        Some(engine) => engine.opponent(),
                        None => self.board.side_to_move(),
                    };
                    writeln!(out, "{} resigns", side.name()).map_err(io_err)?;
                    self.decided = Some((side.opponent(), format!("{} resigned", side.name())));
                    changed = true;
                }
            }
            Input::Save(file) => {
                if file.is_empty() {
                    writeln!(out, "error: save needs a file name: save FILE").map_err(io_err)?;
                } else {
                    match std::fs::write(file, self.pdn()) {
                        Ok(()) => writeln!(out, "saved the game to {file}").map_err(io_err)?,
                        Err(e) => {
                            writeln!(out, "error: cannot write {file}: {e}").map_err(io_err)?
                        }
                    }
                }
            }
            Input::Move(text) => {
                if over {
                    writeln!(out, "error: the game is over (undo, new or quit)").map_err(io_err)?;
                } else if self.engine_to_move() {
                    writeln!(out, "error: it is the engine's turn").map_err(io_err)?;
                } else {
                    let side = self.board.side_to_move();
                    let spent = self.turn_start.elapsed();
                    let left = self.clock.map(|c| c[clock_index(side)]);
                    if left.is_some_and(|left| spent >= left) {
                        // Typed too late: the clock has run out, the move is not played.
                        self.charge(side, spent);
                        changed = true;
                    } else {
                        match self.board.push_text(text) {
                            Ok(()) => {
                                self.charge_ply(side, spent);
                                changed = true;
                            }
                            Err(e) => {
                                writeln!(out, "error: {e} (type `moves` for the legal moves)")
                                    .map_err(io_err)?
                            }
                        }
                    }
                }
            }
        }
        Ok(Some(changed))
    }
}

/// Where the typed lines come from: a plain reader, or a line editor on a terminal.
trait LineSource {
    /// Shows `prompt`, reads one line into `line`; `Ok(false)` at the end of input.
    fn read_line(
        &mut self,
        prompt: &str,
        line: &mut String,
        out: &mut dyn Write,
    ) -> std::io::Result<bool>;
}

/// Plain reading: the prompt goes to the output, the line comes from the reader as it is.
struct PlainLines<'a>(&'a mut dyn BufRead);

impl LineSource for PlainLines<'_> {
    fn read_line(
        &mut self,
        prompt: &str,
        line: &mut String,
        out: &mut dyn Write,
    ) -> std::io::Result<bool> {
        write!(out, "{prompt}")?;
        out.flush()?;
        Ok(self.0.read_line(line)? > 0)
    }
}

/// A terminal's lines through rustyline: cursor keys edit the line, up and down walk the
/// lines typed before (kept for this game only).
struct EditedLines(rustyline::DefaultEditor);

impl LineSource for EditedLines {
    fn read_line(
        &mut self,
        prompt: &str,
        line: &mut String,
        out: &mut dyn Write,
    ) -> std::io::Result<bool> {
        use rustyline::error::ReadlineError;
        // What the game printed must be on the screen before the editor draws its prompt.
        out.flush()?;
        match self.0.readline(prompt) {
            Ok(text) => {
                if !text.trim().is_empty() {
                    // A full history only loses its oldest line; nothing to report.
                    let _ = self.0.add_history_entry(text.as_str());
                }
                line.push_str(&text);
                line.push('\n');
                Ok(true)
            }
            // Ctrl-D and Ctrl-C leave the game, as the end of piped input does.
            Err(ReadlineError::Eof | ReadlineError::Interrupted) => Ok(false),
            Err(ReadlineError::Io(e)) => Err(e),
            Err(e) => Err(std::io::Error::other(e.to_string())),
        }
    }
}

struct PlayJob<'a> {
    opts: &'a PlayOptions,
    input: &'a mut dyn LineSource,
    out: &'a mut dyn Write,
}

impl GameVisitor for PlayJob<'_> {
    type Output = Result<(), CliError>;

    fn visit<G: Game>(self) -> Self::Output {
        let o = self.opts;
        let initial = o.position.record::<G>()?;
        let mut limits = Limits::default();
        if let Some(d) = o.depth {
            limits.depth = Some(Depth(d));
        }
        if o.movetime.is_some() || o.depth.is_none() {
            let s = o.movetime.unwrap_or(DEFAULT_MOVETIME);
            limits.move_time = Some(Duration::from_secs_f64(s.min(1e6)));
        }
        let mut searcher = Searcher::<G>::try_new(o.hash_mib, 1)?;
        searcher.set_tables(o.tables.open::<G>());
        let mut game = Table {
            opts: o,
            style: Style {
                ascii: o.ascii,
                color: o.color,
            },
            board: board(initial, searcher, o.book.open::<G>()?),
            limits,
            decided: None,
            clock: o.time.map(|t| [t.base, t.base]),
            clock_before: Vec::new(),
            turn_start: Instant::now(),
        };
        game.run(self.input, self.out)
    }
}

/// Runs `polydam play`, reading lines from `input` and writing to `out`.
pub fn run_play(
    opts: &PlayOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    run_play_from(opts, &mut PlainLines(input), out)
}

/// Runs `polydam play` with the terminal's lines read through a line editor (cursor keys,
/// history): what `main` uses when standard input is a terminal.
pub fn run_play_terminal(opts: &PlayOptions, out: &mut dyn Write) -> Result<(), CliError> {
    let editor = rustyline::DefaultEditor::new()
        .map_err(|e| CliError(format!("cannot set up line editing on the terminal: {e}")))?;
    run_play_from(opts, &mut EditedLines(editor), out)
}

fn run_play_from(
    opts: &PlayOptions,
    input: &mut dyn LineSource,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    crate::cli::check_depth(opts.depth)?;
    crate::cli::check_movetime(opts.movetime)?;
    if let Some(s) = opts.movetime {
        // The shared check allows 0 (analysis stops at once); a game needs a real think.
        if s == 0.0 {
            return Err(CliError(format!(
                "--movetime must be a positive number of seconds, not {s}"
            )));
        }
    }
    dispatch(&opts.position.variant, PlayJob { opts, input, out })?
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(opts: &PlayOptions, input: &str) -> String {
        let mut out = Vec::new();
        let mut reader = input.as_bytes();
        run_play(opts, &mut reader, &mut out).expect("the game runs");
        String::from_utf8(out).expect("UTF-8 output")
    }

    fn opts(variant: &str, engine_side: EngineSide) -> PlayOptions {
        PlayOptions {
            position: PositionArgs {
                variant: variant.into(),
                ..PositionArgs::default()
            },
            engine_side,
            depth: Some(1),
            ascii: true,
            tables: TablesArgs::off(),
            book: BookArgs::off(),
            ..PlayOptions::default()
        }
    }

    #[test]
    fn commands_are_recognised_case_insensitively() {
        assert_eq!(classify("  MOVES \n"), Input::Moves);
        assert_eq!(classify("Undo"), Input::Undo);
        assert_eq!(classify(""), Input::Empty);
        assert_eq!(classify("a3-a4"), Input::Move("a3-a4"));
    }

    #[test]
    fn two_humans_undo_one_ply() {
        let text = play(&opts("turkish", EngineSide::None), "a3-a4\nundo\nfen\n");
        assert!(text.contains("took back 1 ply"), "{text}");
        assert!(!text.contains("engine plays"), "{text}");
        assert!(text.contains("W:Wa2-h3:Ba6-h7"), "{text}");
    }

    #[test]
    fn engine_as_white_moves_first_and_undo_at_start_is_refused() {
        let text = play(&opts("russian", EngineSide::White), "undo\n");
        assert!(text.starts_with("polydam play: russian"), "{text}");
        assert_eq!(text.matches("engine plays").count(), 1, "{text}");
        assert!(text.contains("error: nothing to undo"), "{text}");
    }

    #[test]
    fn garbage_gets_an_error_and_the_game_goes_on() {
        let text = play(
            &opts("international", EngineSide::Black),
            "zz\u{0}9\n32-28\n",
        );
        assert!(text.contains("error: "), "{text}");
        assert_eq!(text.matches("engine plays").count(), 1, "{text}");
    }

    #[test]
    fn a_finished_game_reports_the_result() {
        // White to move with no pieces left: Black has won.
        let mut o = opts("english", EngineSide::None);
        o.position.fen = Some("W:W:B1".into());
        let text = play(&o, "11-15\nquit\n");
        assert!(
            text.contains("game over: black wins (white has no pieces left)"),
            "{text}"
        );
        assert!(text.contains("error: the game is over"), "{text}");
    }

    #[test]
    fn input_that_is_not_utf8_is_an_error_not_the_end() {
        let mut out = Vec::new();
        let mut input: &[u8] = b"\xff\xfe\ne3-e4\n";
        run_play(&opts("turkish", EngineSide::Black), &mut input, &mut out).expect("the game runs");
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("error: cannot read input"), "{text}");
        assert_eq!(text.matches("engine plays").count(), 1, "{text}");
    }

    #[test]
    fn fen_and_moves_options_set_the_start_and_new_returns_to_it() {
        let mut o = opts("turkish", EngineSide::None);
        o.position.moves = Some("e3-e4 b6-b5".into());
        let text = play(
            &o,
            "d3-d4
new
fen
",
        );
        assert!(
            text.contains("move 2: white (w) to move, last move b6-b5"),
            "{text}"
        );
        assert!(
            text.contains("move 2: black (b) to move, last move d3-d4"),
            "{text}"
        );
        assert!(text.contains("new game"), "{text}");
        assert!(
            text.contains("W:Wa2-h2,a3-d3,f3-h3,e4:Bb5,a6,c6-h6,a7-h7"),
            "{text}"
        );
    }

    #[test]
    fn bad_options_are_errors() {
        let mut o = opts("turkish", EngineSide::Black);
        o.depth = Some(0);
        assert!(run_play(&o, &mut "".as_bytes(), &mut Vec::new()).is_err());
        let o = opts("nonesuch", EngineSide::Black);
        assert!(run_play(&o, &mut "".as_bytes(), &mut Vec::new()).is_err());
    }

    /// `PlayOptions::default()` (used by the tests above) gives clap's defaults.
    #[test]
    fn default_is_what_the_command_line_gives() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            opts: PlayOptions,
        }
        let parsed = <Cli as clap::Parser>::try_parse_from(["play"])
            .unwrap()
            .opts;
        assert_eq!(
            format!("{parsed:?}"),
            format!("{:?}", PlayOptions::default())
        );
    }
}
