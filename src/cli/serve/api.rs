//! The JSON messages of `polydam serve`'s WebSocket (documented in `docs/web.md`).
//!
//! Every client message is a JSON object with a `type`; [`parse_request`] checks it completely
//! (known type, known fields, types and ranges) and says what is wrong otherwise. Server
//! messages are the `...Out` structs and the `*_json` helpers, serialised with serde.

use std::time::Duration;

use polydam_engine::game::Side;
use polydam_engine::text::excerpt;
use polydam_engine::variants::{VariantEntry, VARIANTS};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use super::play::SearchExtras;

/// The largest message the server reads, in bytes; longer ones get an error.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// A request from the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// List the variants.
    Variants,
    /// Send the state again.
    State,
    /// A new game of a variant, from its start or a FEN.
    New {
        /// A registered name or alias.
        variant: String,
        /// The first position, if not the start.
        fen: Option<String>,
    },
    /// Load a position (FEN) or a game (PDN) in the current variant.
    Load(Load),
    /// Play a move.
    Move(MoveBy),
    /// Take back plies.
    Undo {
        /// How many (1 when not given).
        plies: usize,
    },
    /// The engine plays the side to move.
    Go {
        /// Seconds to think.
        movetime: Option<f64>,
        /// Depth to search.
        depth: Option<i64>,
        /// Lines, threads, table, level and clock.
        extras: SearchExtras,
    },
    /// The engine analyses the position until stopped (or the limit given).
    Analyse {
        /// Seconds to think.
        movetime: Option<f64>,
        /// Depth to search.
        depth: Option<i64>,
        /// Lines, threads and table.
        extras: SearchExtras,
    },
    /// Stop the running search.
    Stop,
    /// Show another node of the game tree.
    Goto {
        /// The node's id (its index in `state`'s `nodes`).
        node: usize,
    },
    /// Set the comment after the move shown.
    Comment {
        /// The comment (empty: none).
        text: String,
    },
    /// End the game with a result the page decided (resignation, time, agreed draw).
    Result {
        /// `white`, `black`, or none for a draw.
        winner: Option<Side>,
        /// Why, as the PDN's Termination tag gives it (`white resigned`).
        reason: String,
    },
}

/// What `load` carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Load {
    /// A position.
    Fen(String),
    /// A game.
    Pdn(String),
}

/// How `move` names its move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveBy {
    /// In the variant's notation (read leniently).
    Text(String),
    /// By the cells it passes through (each legal move's `path` in `state`).
    Path(Vec<String>),
}

/// The message types the server knows, in the order of the docs.
pub const REQUEST_TYPES: &[&str] = &[
    "variants", "state", "new", "load", "move", "undo", "go", "analyse", "stop", "goto", "comment",
    "result",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GotoFields {
    node: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CommentFields {
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultFields {
    winner: Option<String>,
    reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoFields {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewFields {
    variant: String,
    fen: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LoadFields {
    fen: Option<String>,
    pdn: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveFields {
    text: Option<String>,
    path: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UndoFields {
    plies: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchFields {
    movetime: Option<f64>,
    depth: Option<i64>,
    multipv: Option<u32>,
    threads: Option<u32>,
    hash: Option<u32>,
    level: Option<u32>,
    time: Option<f64>,
    inc: Option<f64>,
}

/// A list of cells as `a, b, c`, shortened.
pub fn short_list(items: &[String]) -> String {
    let shown: Vec<String> = items.iter().take(12).map(|s| excerpt(s)).collect();
    let more = if items.len() > 12 { ", ..." } else { "" };
    format!("{}{more}", shown.join(", "))
}

/// The message type of a request (for `error`'s `request` field), if it has one.
pub fn request_type(text: &str) -> Option<String> {
    let value: Value = serde_json::from_str(text).ok()?;
    let t = value.get("type")?.as_str()?;
    REQUEST_TYPES.contains(&t).then(|| t.to_string())
}

/// Reads one message from the page, or says what is wrong with it.
pub fn parse_request(text: &str) -> Result<Request, String> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(format!(
            "message of {} bytes is too long (at most {MAX_MESSAGE_BYTES})",
            text.len()
        ));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| format!("malformed JSON: {e}"))?;
    let Value::Object(mut fields) = value else {
        return Err("a message must be a JSON object with a \"type\"".into());
    };
    let kind = match fields.remove("type") {
        Some(Value::String(s)) => s,
        Some(_) => return Err("\"type\" must be a string".into()),
        None => return Err("the message has no \"type\"".into()),
    };
    let rest = Value::Object(fields);
    fn read<T: for<'de> Deserialize<'de>>(kind: &str, rest: Value) -> Result<T, String> {
        serde_json::from_value(rest).map_err(|e| format!("bad '{kind}' message: {e}"))
    }
    match kind.as_str() {
        "variants" => read::<NoFields>(&kind, rest).map(|_| Request::Variants),
        "state" => read::<NoFields>(&kind, rest).map(|_| Request::State),
        "stop" => read::<NoFields>(&kind, rest).map(|_| Request::Stop),
        "new" => {
            let f: NewFields = read(&kind, rest)?;
            Ok(Request::New {
                variant: f.variant,
                fen: f.fen,
            })
        }
        "load" => match read::<LoadFields>(&kind, rest)? {
            LoadFields {
                fen: Some(f),
                pdn: None,
            } => Ok(Request::Load(Load::Fen(f))),
            LoadFields {
                fen: None,
                pdn: Some(p),
            } => Ok(Request::Load(Load::Pdn(p))),
            _ => Err("bad 'load' message: give either \"fen\" or \"pdn\"".into()),
        },
        "move" => match read::<MoveFields>(&kind, rest)? {
            MoveFields {
                text: Some(t),
                path: None,
            } => Ok(Request::Move(MoveBy::Text(t))),
            MoveFields {
                text: None,
                path: Some(p),
            } => Ok(Request::Move(MoveBy::Path(p))),
            _ => Err("bad 'move' message: give either \"text\" or \"path\"".into()),
        },
        "undo" => {
            let f: UndoFields = read(&kind, rest)?;
            match f.plies.unwrap_or(1) {
                0 => Err("bad 'undo' message: plies must be at least 1".into()),
                n => Ok(Request::Undo { plies: n as usize }),
            }
        }
        "go" | "analyse" => {
            let f: SearchFields = read(&kind, rest)?;
            let extras = SearchExtras {
                multipv: f.multipv,
                threads: f.threads,
                hash: f.hash,
                level: f.level,
                time: f.time,
                inc: f.inc,
            };
            Ok(if kind == "go" {
                Request::Go {
                    movetime: f.movetime,
                    depth: f.depth,
                    extras,
                }
            } else {
                Request::Analyse {
                    movetime: f.movetime,
                    depth: f.depth,
                    extras,
                }
            })
        }
        "goto" => read::<GotoFields>(&kind, rest).map(|f| Request::Goto { node: f.node }),
        "comment" => read::<CommentFields>(&kind, rest).map(|f| Request::Comment { text: f.text }),
        "result" => {
            let f: ResultFields = read(&kind, rest)?;
            let winner = match f.winner.as_deref() {
                None => None,
                Some("white") => Some(Side::White),
                Some("black") => Some(Side::Black),
                Some(other) => {
                    return Err(format!(
                        "result: winner '{}' is not white or black (leave it out for a draw)",
                        excerpt(other)
                    ))
                }
            };
            Ok(Request::Result {
                winner,
                reason: f.reason,
            })
        }
        other => Err(format!(
            "unknown message type '{}' (known: {})",
            excerpt(other),
            REQUEST_TYPES.join(", ")
        )),
    }
}

/// A variant as the page lists it.
#[derive(Clone, Debug, Serialize)]
pub struct VariantOut {
    /// The registry name.
    pub name: &'static str,
    /// Other names accepted.
    pub aliases: &'static [&'static str],
    /// `diagonal`, `orthogonal`, `stacks` or `hex`.
    pub family: &'static str,
    /// One line.
    pub description: &'static str,
}

impl VariantOut {
    /// The page's view of a registry row.
    pub fn of(v: &'static VariantEntry) -> VariantOut {
        VariantOut {
            name: v.name,
            aliases: v.aliases,
            family: v.family.name(),
            description: v.description,
        }
    }
}

/// A piece on a cell.
#[derive(Clone, Debug, Serialize)]
pub struct PieceOut {
    /// `white` or `black`.
    pub owner: &'static str,
    /// A king.
    pub king: bool,
    /// The stack size, in the stack families.
    pub size: Option<u16>,
}

/// One cell of the board (see `polydam_engine::view::Cell`).
#[derive(Clone, Debug, Serialize)]
pub struct CellOut {
    /// Grid row, 0 at the top as White sees the board.
    pub row: u32,
    /// Grid column, 0 at the left.
    pub col: u32,
    /// Pieces can stand here.
    pub playable: bool,
    /// The cell's name in the variant's notation.
    pub label: String,
    /// The name without what the column letter says (hex), else the same.
    pub short: String,
    /// What stands here.
    pub piece: Option<PieceOut>,
    /// The tile's colour (hex Seesaw).
    pub tile: Option<&'static str>,
    /// The last move started or ended here.
    pub marked: bool,
}

/// A legal move.
#[derive(Clone, Debug, Serialize)]
pub struct LegalMove {
    /// In the variant's notation.
    pub text: String,
    /// The cells it passes through, start first (see `Game::move_path`).
    pub path: Vec<String>,
    /// It captures.
    pub capture: bool,
}

/// A finished game's result.
#[derive(Clone, Debug, Serialize)]
pub struct ResultOut {
    /// `white`, `black`, or none for a draw.
    pub winner: Option<&'static str>,
    /// `white wins`, `draw`, ...
    pub text: String,
    /// Why the game ended.
    pub reason: String,
}

/// The `state` message.
#[derive(Clone, Debug, Serialize)]
pub struct StateOut {
    /// Always `state`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The variant.
    pub variant: VariantOut,
    /// Grid height.
    pub rows: u32,
    /// Grid width.
    pub cols: u32,
    /// Labels under the grid columns (may be empty).
    pub col_labels: Vec<String>,
    /// Labels left of the grid rows (may be empty).
    pub row_labels: Vec<String>,
    /// Empty playable cells show their names.
    pub label_empty: bool,
    /// The cells.
    pub cells: Vec<CellOut>,
    /// The side to move.
    pub side: &'static str,
    /// The side to move in the first position (for move numbers).
    pub first_side: &'static str,
    /// The side that moves first in the variant's start position (`black` in English
    /// checkers): move 1 begins with its move, so a game whose `first_side` differs numbers
    /// its first move `1. …`.
    pub start_side: &'static str,
    /// The legal moves (none when the game is over).
    pub moves: Vec<LegalMove>,
    /// The moves played, in the variant's notation.
    pub history: Vec<String>,
    /// The cells of the last move.
    pub last_path: Vec<String>,
    /// The position.
    pub fen: String,
    /// The first position.
    pub start_fen: String,
    /// The game as PDN.
    pub pdn: String,
    /// The result, when the game is over.
    pub result: Option<ResultOut>,
    /// The game tree: every move played or loaded, the root (the first position) first; a
    /// node's index is its id.
    pub nodes: Vec<NodeOut>,
    /// The id of the node shown (`history` is the path to it).
    pub node: usize,
}

/// A node of the game tree.
#[derive(Clone, Debug, Serialize)]
pub struct NodeOut {
    /// The node before it (none for the root).
    pub parent: Option<usize>,
    /// Its move in the variant's notation (empty for the root).
    #[serde(rename = "move")]
    pub text: String,
    /// The comment after the move (the root's: before the game).
    pub comment: Option<String>,
    /// The move's annotation glyphs from a loaded PDN (`!`, `?!`, `$14`), in order.
    pub marks: Vec<String>,
    /// The moves after it: the main continuation first, then the variations.
    pub children: Vec<usize>,
    /// Plies from the first position.
    pub ply: usize,
}

#[derive(Serialize)]
struct VariantsOut {
    #[serde(rename = "type")]
    kind: &'static str,
    variants: Vec<VariantOut>,
}

/// The `variants` message.
pub fn variants_json() -> String {
    to_json(&VariantsOut {
        kind: "variants",
        variants: VARIANTS.iter().map(VariantOut::of).collect(),
    })
}

#[derive(Serialize)]
struct ErrorOut<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    message: &'a str,
    request: Option<&'a str>,
}

/// An `error` message about a request of type `request` (if it had a known type).
pub fn error_json(message: &str, request: Option<&str>) -> String {
    to_json(&ErrorOut {
        kind: "error",
        message,
        request,
    })
}

#[derive(Serialize)]
struct InfoOut<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    search: u64,
    depth: i32,
    seldepth: i32,
    score: &'a str,
    centi: i32,
    nodes: u64,
    nps: u64,
    time: f64,
    pv: &'a str,
}

/// One line of a multi-PV `info`: its score (from the side to move's view) and moves.
#[derive(Clone, Debug, Serialize)]
pub struct LineOut {
    /// The score as text: men with two decimals, or `win N` / `loss N` (plies).
    pub score: String,
    /// The score in hundredths of a man.
    pub centi: i32,
    /// The line, in the variant's notation.
    pub pv: String,
}

/// What the endgame tables add to an `info`: the root's verdict (`win`, `draw`, `loss`,
/// from the side to move's view) and the nodes they scored.
#[derive(Clone, Copy, Debug, Default)]
pub struct TablesOut<'a> {
    /// The root's verdict, when the tables cover it.
    pub verdict: Option<&'a str>,
    /// Nodes scored by the tables (0: none).
    pub hits: u64,
}

/// An `info` message with every line of a multi-PV search and the tables' figures.
pub fn info_lines_json(info: &str, lines: &[LineOut], tables: TablesOut<'_>) -> String {
    // The plain message's fields, then the extensions: built on the JSON value so that the
    // plain message stays the one source of its fields.
    let mut value: Value = serde_json::from_str(info).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        if lines.len() > 1 {
            if let Ok(v) = serde_json::to_value(lines) {
                map.insert("lines".into(), v);
            }
        }
        if let Some(verdict) = tables.verdict {
            map.insert("tables".into(), Value::from(verdict));
        }
        if tables.hits > 0 {
            map.insert("tbhits".into(), Value::from(tables.hits));
        }
        return value.to_string();
    }
    info.to_owned()
}

/// An `info` message: one completed iteration of search `search`.
#[allow(clippy::too_many_arguments)]
pub fn info_json(
    search: u64,
    depth: i32,
    seldepth: i32,
    score: &str,
    centi: i32,
    nodes: u64,
    nps: f64,
    time: Duration,
    pv: &str,
) -> String {
    to_json(&InfoOut {
        kind: "info",
        search,
        depth,
        seldepth,
        score,
        centi,
        nodes,
        nps: nps as u64,
        time: time.as_secs_f64(),
        pv,
    })
}

#[derive(Serialize)]
struct DoneOut<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    search: u64,
    mode: &'a str,
    best: Option<&'a str>,
    score: Option<&'a str>,
    depth: i32,
    nodes: u64,
    time: f64,
}

/// A `done` message: search `search` (a `go` or an `analyse`) has ended.
pub fn done_json(
    search: u64,
    mode: &str,
    best: Option<&str>,
    score: Option<&str>,
    depth: i32,
    nodes: u64,
    time: Duration,
) -> String {
    to_json(&DoneOut {
        kind: "done",
        search,
        mode,
        best,
        score,
        depth,
        nodes,
        time: time.as_secs_f64(),
    })
}

#[derive(Serialize)]
struct SearchingOut<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    search: u64,
    mode: &'a str,
}

/// A `searching` message: search `search` has started.
pub fn searching_json(search: u64, mode: &str) -> String {
    to_json(&SearchingOut {
        kind: "searching",
        search,
        mode,
    })
}

/// `value` as JSON text. Our message structs only hold strings, numbers and lists, which
/// always serialise; should one ever fail, the page gets an error message instead.
pub fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| {
        format!(
            "{{\"type\":\"error\",\"message\":{},\"request\":null}}",
            Value::String(format!("cannot write the reply: {e}"))
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_parse() {
        assert_eq!(
            parse_request(r#"{"type":"new","variant":"turkish"}"#),
            Ok(Request::New {
                variant: "turkish".into(),
                fen: None
            })
        );
        assert_eq!(
            parse_request(r#"{"type":"move","path":["32","28"]}"#),
            Ok(Request::Move(MoveBy::Path(vec!["32".into(), "28".into()])))
        );
        assert_eq!(
            parse_request(r#"{"type":"undo"}"#),
            Ok(Request::Undo { plies: 1 })
        );
        assert_eq!(
            parse_request(r#"{"type":"go","depth":3}"#),
            Ok(Request::Go {
                movetime: None,
                depth: Some(3),
                extras: SearchExtras::default(),
            })
        );
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        let err = |t: &str| parse_request(t).expect_err(t);
        assert!(err("{\"type\":").starts_with("malformed JSON"));
        assert!(err("[1,2]").contains("JSON object"));
        assert!(err("{}").contains("no \"type\""));
        assert!(err(r#"{"type":7}"#).contains("must be a string"));
        assert!(err(r#"{"type":"dance"}"#).starts_with("unknown message type 'dance'"));
        assert!(err(r#"{"type":"new"}"#).contains("missing field `variant`"));
        assert!(err(r#"{"type":"new","variant":3}"#).contains("invalid type"));
        assert!(err(r#"{"type":"stop","now":true}"#).contains("unknown field `now`"));
        assert!(err(r#"{"type":"move"}"#).contains("either"));
        assert!(err(r#"{"type":"move","text":"a","path":[]}"#).contains("either"));
        assert!(err(r#"{"type":"undo","plies":0}"#).contains("at least 1"));
        assert!(err(r#"{"type":"undo","plies":-1}"#).contains("bad 'undo'"));
        let long = format!(
            r#"{{"type":"move","text":"{}"}}"#,
            "x".repeat(MAX_MESSAGE_BYTES)
        );
        assert!(err(&long).contains("too long"));
    }

    #[test]
    fn request_type_only_names_known_types() {
        assert_eq!(request_type(r#"{"type":"go"}"#).as_deref(), Some("go"));
        assert_eq!(request_type(r#"{"type":"dance"}"#), None);
        assert_eq!(request_type("nonsense"), None);
    }

    #[test]
    fn replies_are_json_with_a_type() {
        let v: Value =
            serde_json::from_str(&error_json("bad \"x\"", Some("move"))).expect("error is JSON");
        assert_eq!(v["type"], "error");
        assert_eq!(v["message"], "bad \"x\"");
        assert_eq!(v["request"], "move");
        let v: Value = serde_json::from_str(&variants_json()).expect("variants is JSON");
        let list = v["variants"].as_array().map_or(0, Vec::len);
        assert_eq!(list, VARIANTS.len());
        assert_eq!(v["variants"][0]["name"], VARIANTS[0].name);
    }
}
