//! Typed GUI-to-engine commands, parsed from lexed Hub lines.
//!
//! Parsing is pure and checks only the syntax of each argument: moves and positions stay
//! strings here, to be validated by the session against the selected variant. Command words are
//! matched case-sensitively, as in Scan; unknown commands become [`Command::Unknown`] (the
//! session answers them with an error) while unknown arguments are ignored, so that newer GUIs
//! may add some. When an argument is repeated, the last occurrence counts.

mod error;
mod numbers;

pub use error::CommandError;
use numbers::{parse_integer, parse_seconds};

use crate::lexer::{lex, Arg, Line};

/// Largest number of seconds accepted in a `level` line (about 115 days): anything above is a
/// client bug, not a time control.
pub const MAX_SECONDS: f64 = 1e7;

/// One command from the GUI.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `hub`: answer `id`, the `param` lines, then `wait`.
    Hub,
    /// `init`: load what is needed and answer `ready`.
    Init,
    /// `set-param name=N value=V`.
    SetParam {
        /// The parameter's name (never empty).
        name: String,
        /// Its new value, unvalidated (possibly empty).
        value: String,
    },
    /// `pos ...`: set the position, then play moves.
    Pos(PosCommand),
    /// `level ...`: search limits, to be merged into those already set since the last `pos`.
    Level(LevelCommand),
    /// `go [think|ponder|analyze]`.
    Go(GoMode),
    /// `ponder-hit`: the predicted move was played.
    PonderHit,
    /// `stop`: end the search soon (a `done` is still owed).
    Stop,
    /// `ping`: answer `pong`.
    Ping,
    /// `new-game`: the next search is unrelated to the last one.
    NewGame,
    /// `quit`: exit.
    Quit,
    /// A command word this engine does not know, exactly as received.
    Unknown(String),
}

/// Where a `pos` command takes its position from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionSpec {
    /// `pos start`: the selected variant's start position (a flag; a value given to it is
    /// ignored).
    Start,
    /// `pos pos=P`: a Hub position string (side to move, then one character per square).
    Hub(String),
    /// `pos fen=F`: a PDN FEN such as `W:W31-50:B1-20` (an extension).
    Fen(String),
}

/// A parsed `pos` command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PosCommand {
    /// The position to set up.
    pub position: PositionSpec,
    /// The moves to play from it, in order (from `moves="m1 m2 ..."`, split on whitespace).
    pub moves: Vec<String>,
}

/// The search limits of one `level` line; `None` (or `false`) means "not given on this line".
///
/// Seconds are finite, non-negative and at most [`MAX_SECONDS`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LevelCommand {
    /// `depth=D`: maximum depth in plies.
    pub depth: Option<u32>,
    /// `nodes=N`: maximum number of nodes.
    pub nodes: Option<u64>,
    /// `move-time=S`: fixed time for this move, in seconds.
    pub move_time: Option<f64>,
    /// `moves=M`: moves to play until the next time control.
    pub moves: Option<u32>,
    /// `time=T`: time left on the clock, in seconds.
    pub time: Option<f64>,
    /// `inc=I`: increment per move, in seconds.
    pub inc: Option<f64>,
    /// `infinite`: search until `stop` (a flag; a value given to it is ignored).
    pub infinite: bool,
}

impl LevelCommand {
    /// Merges a later `level` line into this one: every limit the later line gives replaces the
    /// current one, the others are kept; `infinite` stays set once set.
    pub fn merge(&mut self, later: &LevelCommand) {
        self.depth = later.depth.or(self.depth);
        self.nodes = later.nodes.or(self.nodes);
        self.move_time = later.move_time.or(self.move_time);
        self.moves = later.moves.or(self.moves);
        self.time = later.time.or(self.time);
        self.inc = later.inc.or(self.inc);
        self.infinite |= later.infinite;
    }

    /// Whether the line gave no limit at all.
    pub fn is_empty(&self) -> bool {
        *self == LevelCommand::default()
    }
}

/// The kind of search `go` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoMode {
    /// `go think` (also a bare `go`): a normal timed search.
    Think,
    /// `go ponder`: search on the opponent's time until `ponder-hit` or `stop`.
    Ponder,
    /// `go analyze`: infinite analysis, no book, even with a single legal move.
    Analyze,
}

impl GoMode {
    /// The mode's Hub name.
    pub fn name(self) -> &'static str {
        match self {
            GoMode::Think => "think",
            GoMode::Ponder => "ponder",
            GoMode::Analyze => "analyze",
        }
    }
}

/// Lexes and parses one raw input line.
pub fn parse_line(text: &str) -> Result<Command, CommandError> {
    parse_command(&lex(text)?)
}

/// Turns a lexed line into a typed command.
pub fn parse_command(line: &Line) -> Result<Command, CommandError> {
    Ok(match line.command.as_str() {
        "hub" => Command::Hub,
        "init" => Command::Init,
        "set-param" => parse_set_param(line)?,
        "pos" => Command::Pos(parse_pos(line)?),
        "level" => Command::Level(parse_level(line)?),
        "go" => Command::Go(parse_go(line)?),
        "ponder-hit" => Command::PonderHit,
        "stop" => Command::Stop,
        "ping" => Command::Ping,
        "new-game" => Command::NewGame,
        "quit" => Command::Quit,
        other => Command::Unknown(other.to_owned()),
    })
}

/// The value of the last argument named `arg`, if present; a flag of that name is an error.
fn value_of<'a>(
    line: &'a Line,
    command: &'static str,
    arg: &'static str,
) -> Result<Option<&'a str>, CommandError> {
    match line.arg(arg) {
        None => Ok(None),
        Some(Arg::Flag(_)) => Err(CommandError::MissingValue { command, arg }),
        Some(Arg::Pair(_, value)) => Ok(Some(value)),
    }
}

/// Like [`value_of`], but an empty value is an error too.
fn non_empty_value_of<'a>(
    line: &'a Line,
    command: &'static str,
    arg: &'static str,
) -> Result<Option<&'a str>, CommandError> {
    match value_of(line, command, arg)? {
        Some(value) if value.trim().is_empty() => Err(CommandError::MissingValue { command, arg }),
        other => Ok(other),
    }
}

fn parse_set_param(line: &Line) -> Result<Command, CommandError> {
    const COMMAND: &str = "set-param";
    let name = non_empty_value_of(line, COMMAND, "name")?.ok_or(CommandError::MissingArgument {
        command: COMMAND,
        arg: "name",
    })?;
    let value = value_of(line, COMMAND, "value")?.ok_or(CommandError::MissingArgument {
        command: COMMAND,
        arg: "value",
    })?;
    Ok(Command::SetParam {
        name: name.to_owned(),
        value: value.to_owned(),
    })
}

fn parse_pos(line: &Line) -> Result<PosCommand, CommandError> {
    const COMMAND: &str = "pos";
    let mut sources = 0;
    let mut position = None;
    if let Some(hub) = non_empty_value_of(line, COMMAND, "pos")? {
        sources += 1;
        position = Some(PositionSpec::Hub(hub.trim().to_owned()));
    }
    if let Some(fen) = non_empty_value_of(line, COMMAND, "fen")? {
        sources += 1;
        position = Some(PositionSpec::Fen(fen.trim().to_owned()));
    }
    if line.has("start") {
        sources += 1;
        position = Some(PositionSpec::Start);
    }
    if sources > 1 {
        return Err(CommandError::ConflictingPositions);
    }
    let position = position.ok_or(CommandError::NoPosition)?;
    let moves = line
        .value("moves")
        .map(|list| list.split_ascii_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    Ok(PosCommand { position, moves })
}

fn parse_level(line: &Line) -> Result<LevelCommand, CommandError> {
    const COMMAND: &str = "level";
    let int = |arg: &'static str, max: u64| -> Result<Option<u64>, CommandError> {
        non_empty_value_of(line, COMMAND, arg)?
            .map(|value| parse_integer(arg, value, max))
            .transpose()
    };
    let seconds = |arg: &'static str| -> Result<Option<f64>, CommandError> {
        non_empty_value_of(line, COMMAND, arg)?
            .map(|value| parse_seconds(arg, value))
            .transpose()
    };
    let small = |arg: &'static str| -> Result<Option<u32>, CommandError> {
        Ok(int(arg, u64::from(u32::MAX))?.and_then(|n| u32::try_from(n).ok()))
    };
    Ok(LevelCommand {
        depth: small("depth")?,
        nodes: int("nodes", u64::MAX)?,
        move_time: seconds("move-time")?,
        moves: small("moves")?,
        time: seconds("time")?,
        inc: seconds("inc")?,
        infinite: line.has("infinite"),
    })
}

fn parse_go(line: &Line) -> Result<GoMode, CommandError> {
    let mut mode = None;
    for candidate in [GoMode::Think, GoMode::Ponder, GoMode::Analyze] {
        if line.has(candidate.name()) {
            if mode.is_some() {
                return Err(CommandError::ConflictingGoModes);
            }
            mode = Some(candidate);
        }
    }
    Ok(mode.unwrap_or(GoMode::Think))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::LexError;

    fn parse(text: &str) -> Command {
        match parse_line(text) {
            Ok(command) => command,
            Err(err) => panic!("parsing {text:?} failed: {err}"),
        }
    }

    fn parse_err(text: &str) -> CommandError {
        match parse_line(text) {
            Ok(command) => panic!("parsing {text:?} should fail, got {command:?}"),
            Err(err) => err,
        }
    }

    fn level(text: &str) -> LevelCommand {
        match parse(text) {
            Command::Level(level) => level,
            other => panic!("expected a level command, got {other:?}"),
        }
    }

    fn pos(text: &str) -> PosCommand {
        match parse(text) {
            Command::Pos(pos) => pos,
            other => panic!("expected a pos command, got {other:?}"),
        }
    }

    const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

    #[test]
    fn simple_commands() {
        assert_eq!(parse("hub"), Command::Hub);
        assert_eq!(parse("init"), Command::Init);
        assert_eq!(parse("ponder-hit"), Command::PonderHit);
        assert_eq!(parse("stop"), Command::Stop);
        assert_eq!(parse("ping"), Command::Ping);
        assert_eq!(parse("new-game"), Command::NewGame);
        assert_eq!(parse("quit"), Command::Quit);
        assert_eq!(parse("quit now please=1"), Command::Quit);
        assert_eq!(parse("ping\r"), Command::Ping);
    }

    #[test]
    fn unknown_and_case_sensitive_commands() {
        assert_eq!(parse("bogus x=1"), Command::Unknown("bogus".to_owned()));
        assert_eq!(parse("HUB"), Command::Unknown("HUB".to_owned()));
        assert_eq!(parse("Go think"), Command::Unknown("Go".to_owned()));
        assert_eq!(parse("ponderhit"), Command::Unknown("ponderhit".to_owned()));
    }

    #[test]
    fn lex_errors_pass_through() {
        assert_eq!(parse_err(""), CommandError::Lex(LexError::Empty));
        let err = parse_err("pos moves=\"1-2");
        assert!(matches!(
            err,
            CommandError::Lex(LexError::UnterminatedQuote { .. })
        ));
        assert!(err.to_string().starts_with("unterminated quote"));
    }

    #[test]
    fn set_param() {
        assert_eq!(
            parse("set-param name=variant value=russian"),
            Command::SetParam {
                name: "variant".to_owned(),
                value: "russian".to_owned()
            }
        );
        assert_eq!(
            parse("set-param value=\"a b\" name=book"),
            Command::SetParam {
                name: "book".to_owned(),
                value: "a b".to_owned()
            }
        );
        assert_eq!(
            parse("set-param name=book value="),
            Command::SetParam {
                name: "book".to_owned(),
                value: String::new()
            }
        );
        let err = parse_err("set-param value=1");
        assert_eq!(
            err,
            CommandError::MissingArgument {
                command: "set-param",
                arg: "name"
            }
        );
        assert_eq!(err.to_string(), "set-param: missing argument name=...");
        assert_eq!(
            parse_err("set-param name=x"),
            CommandError::MissingArgument {
                command: "set-param",
                arg: "value"
            }
        );
        assert_eq!(
            parse_err("set-param name=\"\" value=1"),
            CommandError::MissingValue {
                command: "set-param",
                arg: "name"
            }
        );
        assert_eq!(
            parse_err("set-param name=x value").to_string(),
            "set-param: argument 'value' needs a value (value=...)"
        );
    }

    #[test]
    fn pos_hub_string_with_moves() {
        let cmd = pos(&format!("pos pos={START} moves=\"32-28  19-23\t28x19x23\""));
        assert_eq!(cmd.position, PositionSpec::Hub(START.to_owned()));
        assert_eq!(cmd.moves, vec!["32-28", "19-23", "28x19x23"]);
    }

    #[test]
    fn pos_start_and_fen() {
        assert_eq!(
            pos("pos start"),
            PosCommand {
                position: PositionSpec::Start,
                moves: vec![]
            }
        );
        assert_eq!(pos("pos start moves=32-28").moves, vec!["32-28"]);
        assert_eq!(pos("pos start moves=\"\"").moves, Vec::<String>::new());
        assert_eq!(pos("pos start moves").moves, Vec::<String>::new());
        assert_eq!(
            pos("pos fen=\"W:W31-50:B1-20\"").position,
            PositionSpec::Fen("W:W31-50:B1-20".to_owned())
        );
        assert_eq!(
            pos("pos fen=B:W18,K24:BK3").position,
            PositionSpec::Fen("B:W18,K24:BK3".to_owned())
        );
    }

    #[test]
    fn pos_errors() {
        let err = parse_err("pos moves=\"32-28\"");
        assert_eq!(err, CommandError::NoPosition);
        assert_eq!(
            err.to_string(),
            "pos needs one of pos=<position>, start or fen=<FEN>"
        );
        assert_eq!(parse_err("pos"), CommandError::NoPosition);
        assert_eq!(
            parse_err(&format!("pos start pos={START}")),
            CommandError::ConflictingPositions
        );
        assert_eq!(
            parse_err("pos fen=W:W31:B1 pos=Wbe"),
            CommandError::ConflictingPositions
        );
        assert_eq!(
            parse_err("pos pos"),
            CommandError::MissingValue {
                command: "pos",
                arg: "pos"
            }
        );
        assert_eq!(
            parse_err("pos pos=\"\""),
            CommandError::MissingValue {
                command: "pos",
                arg: "pos"
            }
        );
        assert_eq!(
            parse_err("pos fen= start"),
            CommandError::MissingValue {
                command: "pos",
                arg: "fen"
            }
        );
    }

    #[test]
    fn pos_repeated_argument_takes_last() {
        assert_eq!(
            pos("pos pos=Wa pos=Wb").position,
            PositionSpec::Hub("Wb".to_owned())
        );
    }

    #[test]
    fn go_modes() {
        assert_eq!(parse("go"), Command::Go(GoMode::Think));
        assert_eq!(parse("go think"), Command::Go(GoMode::Think));
        assert_eq!(parse("go ponder"), Command::Go(GoMode::Ponder));
        assert_eq!(parse("go analyze"), Command::Go(GoMode::Analyze));
        assert_eq!(parse("go future-mode think"), Command::Go(GoMode::Think));
        assert_eq!(parse("go ponder ponder"), Command::Go(GoMode::Ponder));
        let err = parse_err("go think analyze");
        assert_eq!(err, CommandError::ConflictingGoModes);
        assert_eq!(
            err.to_string(),
            "go takes only one of think, ponder and analyze"
        );
    }

    #[test]
    fn level_single_limits() {
        assert_eq!(level("level depth=12").depth, Some(12));
        assert_eq!(level("level nodes=1000000").nodes, Some(1_000_000));
        assert_eq!(level("level move-time=1.5").move_time, Some(1.5));
        assert!(level("level infinite").infinite);
        assert!(level("level").is_empty());
        assert!(level("level whatever=3 other").is_empty());
    }

    #[test]
    fn level_combined_time_control() {
        let lv = level("level moves=40 time=300 inc=2 depth=30 nodes=5 infinite move-time=0.5");
        assert_eq!(
            lv,
            LevelCommand {
                depth: Some(30),
                nodes: Some(5),
                move_time: Some(0.5),
                moves: Some(40),
                time: Some(300.0),
                inc: Some(2.0),
                infinite: true,
            }
        );
        assert_eq!(level("level time=7.25 inc=0.1").moves, None);
    }

    #[test]
    fn level_seconds_are_real_and_clamped() {
        assert_eq!(
            level("level time=0.30000000000000004").time,
            Some(0.30000000000000004)
        );
        assert_eq!(level("level time=-5").time, Some(0.0));
        let zero = level("level time=-0").time;
        assert!(zero.is_some_and(|t| t == 0.0 && t.is_sign_positive()));
        assert_eq!(level("level inc=-0.5").inc, Some(0.0));
        assert_eq!(level("level time=-1e300").time, Some(0.0));
        assert_eq!(level("level time=1e3").time, Some(1000.0));
        assert_eq!(level("level time=.5").time, Some(0.5));
        assert_eq!(level("level time=\" 12 \"").time, Some(12.0));
        assert_eq!(level("level time=10000000").time, Some(1e7));
    }

    #[test]
    fn level_seconds_errors() {
        for bad in ["NaN", "nan", "inf", "-inf", "infinity"] {
            let err = parse_err(&format!("level time={bad}"));
            assert!(
                matches!(err, CommandError::NotFinite { arg: "time", .. }),
                "{bad}: {err:?}"
            );
        }
        let err = parse_err("level move-time=abc");
        assert_eq!(
            err.to_string(),
            "move-time must be a number of seconds, got 'abc'"
        );
        let err = parse_err("level inc=1e8");
        assert_eq!(
            err.to_string(),
            "inc is absurdly large (more than 10000000 seconds), got '1e8'"
        );
        assert!(matches!(
            parse_err("level time=1,5"),
            CommandError::NotANumber { .. }
        ));
        assert_eq!(
            parse_err("level time"),
            CommandError::MissingValue {
                command: "level",
                arg: "time"
            }
        );
        assert_eq!(
            parse_err("level time="),
            CommandError::MissingValue {
                command: "level",
                arg: "time"
            }
        );
    }

    #[test]
    fn level_integer_errors() {
        let err = parse_err("level depth=abc");
        assert_eq!(
            err,
            CommandError::NotAnInteger {
                arg: "depth",
                value: "abc".to_owned()
            }
        );
        assert_eq!(
            err.to_string(),
            "depth must be a non-negative integer, got 'abc'"
        );
        let err = parse_err("level depth=-3");
        assert_eq!(err.to_string(), "depth must not be negative, got '-3'");
        let err = parse_err("level depth=4294967296");
        assert_eq!(
            err.to_string(),
            "depth is too large (at most 4294967295), got '4294967296'"
        );
        let err = parse_err("level nodes=99999999999999999999999");
        assert!(matches!(
            err,
            CommandError::IntegerTooLarge {
                arg: "nodes",
                max: u64::MAX,
                ..
            }
        ));
        for bad in ["1.5", "1e3", "", "+", "-", "--1", "0x10", "½", "٣"] {
            let text = format!("level nodes=\"{bad}\"");
            let err = parse_err(&text);
            assert!(
                matches!(
                    err,
                    CommandError::NotAnInteger { .. } | CommandError::MissingValue { .. }
                ),
                "{text}: {err:?}"
            );
        }
        assert!(matches!(
            parse_err("level moves=-1"),
            CommandError::NegativeInteger { arg: "moves", .. }
        ));
    }

    #[test]
    fn level_integer_edge_cases() {
        assert_eq!(level("level depth=0").depth, Some(0));
        assert_eq!(level("level depth=-0").depth, Some(0));
        assert_eq!(level("level depth=+7").depth, Some(7));
        assert_eq!(level("level depth=007").depth, Some(7));
        assert_eq!(level("level depth=4294967295").depth, Some(u32::MAX));
        assert_eq!(
            level("level nodes=18446744073709551615").nodes,
            Some(u64::MAX)
        );
    }

    #[test]
    fn level_merge() {
        let mut limits = level("level moves=40 time=300 inc=2");
        limits.merge(&level("level time=250.5"));
        limits.merge(&level("level depth=9"));
        assert_eq!(
            limits,
            LevelCommand {
                depth: Some(9),
                moves: Some(40),
                time: Some(250.5),
                inc: Some(2.0),
                ..LevelCommand::default()
            }
        );
        limits.merge(&level("level infinite"));
        limits.merge(&level("level"));
        assert!(limits.infinite);
        assert_eq!(limits.depth, Some(9));
    }

    #[test]
    fn error_excerpts_stay_short() {
        let huge = "9".repeat(1 << 20);
        let err = parse_err(&format!("level nodes={huge}"));
        assert!(err.to_string().len() < 200);
        let err = parse_err(&format!("level depth=x{huge}"));
        assert!(err.to_string().len() < 200);
        let err = parse_err(&format!("level time={huge}"));
        assert!(err.to_string().len() < 200, "{err}");
    }

    #[test]
    fn pydraughts_lines() {
        // What pydraughts 0.6.7 sends.
        assert!(matches!(
            parse("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15\""),
            Command::Pos(_)
        ));
        assert_eq!(
            level("level moves=40 time=118.0 inc=2"),
            LevelCommand {
                moves: Some(40),
                time: Some(118.0),
                inc: Some(2.0),
                ..LevelCommand::default()
            }
        );
        assert_eq!(
            parse("set-param name=book value=none"),
            Command::SetParam {
                name: "book".to_owned(),
                value: "none".to_owned()
            }
        );
    }

    #[test]
    fn random_lines_never_panic() {
        let words = [
            "pos",
            "level",
            "go",
            "set-param",
            "hub",
            "start",
            "fen=",
            "pos=",
            "moves=\"",
            "\"",
            "=",
            " ",
            "depth=",
            "nodes=",
            "time=",
            "-",
            "1",
            "9",
            "e",
            ".",
            "inf",
            "NaN",
            "é",
            "\r",
            "think",
            "analyze",
            "ponder",
            "name=",
            "value=",
            "infinite",
            "move-time=",
        ];
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let len = (next() % 12) as usize;
            let text: String = (0..len)
                .map(|_| words[(next() % words.len() as u64) as usize])
                .collect();
            let bytes: Vec<u8> = (0..len * 3).map(|_| next() as u8).collect();
            if let Err(err) = parse_line(&String::from_utf8_lossy(&bytes)) {
                assert!(err.to_string().len() < 200);
            }
            match parse_line(&text) {
                Ok(Command::Level(limits)) => {
                    for secs in [limits.time, limits.inc, limits.move_time]
                        .into_iter()
                        .flatten()
                    {
                        assert!(secs.is_finite() && (0.0..=MAX_SECONDS).contains(&secs));
                    }
                }
                Ok(_) => {}
                Err(err) => assert!(err.to_string().len() < 200),
            }
        }
    }
}
