//! Typed engine-to-GUI replies and their Hub formatting.
//!
//! Every [`Reply`] displays as exactly one line, without the trailing newline. Values are made
//! safe first, since Hub has no escapes: `"` becomes `'`, and control characters, line breaks
//! and other non-space whitespace become spaces. A value is then quoted iff it is empty or holds
//! a space or `=`.
//!
//! `pydraughts` splits the arguments of `id`, `param` and `info` lines at unquoted spaces and
//! then each token at every `=`, expecting exactly two parts; so on those lines every argument is
//! a `key=value` pair (never a bare flag) and a `=` inside a value is replaced by `:`.

use std::fmt;

/// One line from the engine to the GUI.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// `id name=.. version=.. author=.. country=..`, the first answer to `hub`.
    Id {
        /// The engine's name.
        name: String,
        /// The engine's version.
        version: String,
        /// The author(s).
        author: String,
        /// The author's country.
        country: String,
    },
    /// `param name=.. value=.. type=.. ...`, one per parameter after `id`.
    Param(ParamDecl),
    /// `wait`, the end of the answer to `hub`.
    Wait,
    /// `ready`, the answer to `init`.
    Ready,
    /// `info ...`, search progress.
    Info(InfoReply),
    /// `done move=M [ponder=P]`, the end of a search.
    Done {
        /// The move played, in Hub notation.
        mv: String,
        /// The expected answer to it, if any.
        ponder: Option<String>,
    },
    /// `pong`, the answer to `ping`.
    Pong,
    /// `error message="..."`: bad input; the engine carries on.
    Error(String),
}

/// The declaration of one engine parameter, sent after `id`.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamDecl {
    /// The parameter's name, as used by `set-param name=`.
    pub name: String,
    /// Its default value, already formatted (`true`, `64`, `0.5`, ...).
    pub default: String,
    /// Its type and range.
    pub kind: ParamKind,
}

/// The type of a parameter, with its bounds or choices.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamKind {
    /// `type=bool`.
    Bool,
    /// `type=int min=.. max=..`.
    Int {
        /// Smallest value allowed.
        min: i64,
        /// Largest value allowed.
        max: i64,
    },
    /// `type=real min=.. max=..` (a non-finite bound is left out).
    Real {
        /// Smallest value allowed.
        min: f64,
        /// Largest value allowed.
        max: f64,
    },
    /// `type=string`.
    String,
    /// `type=enum values="a b c"`. Whitespace inside one value becomes `_`; empty values are
    /// left out (the list is split on spaces).
    Enum {
        /// The choices, in order.
        values: Vec<String>,
    },
}

impl ParamKind {
    /// The Hub name of the type.
    pub fn type_name(&self) -> &'static str {
        match self {
            ParamKind::Bool => "bool",
            ParamKind::Int { .. } => "int",
            ParamKind::Real { .. } => "real",
            ParamKind::String => "string",
            ParamKind::Enum { .. } => "enum",
        }
    }
}

/// Search progress; every field is optional and only the present ones are printed, in the
/// order `depth mean-depth score nodes time nps tables tbhits book pv`. Non-finite reals are
/// left out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InfoReply {
    /// Nominal depth reached, in plies (printed as an integer).
    pub depth: Option<u32>,
    /// Mean depth of the principal lines (printed with 1 decimal).
    pub mean_depth: Option<f64>,
    /// The score, already formatted (men with two decimals from the side to move's view).
    pub score: Option<String>,
    /// Nodes searched (printed as an integer).
    pub nodes: Option<u64>,
    /// Elapsed time in seconds (printed with 3 decimals).
    pub time: Option<f64>,
    /// Speed in nodes **per second**; printed in millions with 2 decimals, as Hub wants.
    pub nps: Option<f64>,
    /// What the endgame tables say of the root (`win`, `draw`, `loss`), when they cover it
    /// (an extension: clients ignore arguments they do not know).
    pub tables: Option<String>,
    /// Nodes scored by the endgame tables (an extension).
    pub tb_hits: Option<u64>,
    /// The move comes from the opening book: where the book came from (its file, or
    /// `built-in`), an extension.
    pub book: Option<String>,
    /// The principal variation, moves separated by spaces.
    pub pv: Option<String>,
    /// Which of the best lines this is, from 1, in a multi-PV search (an extension, printed
    /// after `depth=`; absent with one line).
    pub multipv: Option<u32>,
}

impl InfoReply {
    /// Whether no field would be printed. A bare `info` line crashes `pydraughts`: don't send
    /// one.
    pub fn is_empty(&self) -> bool {
        self.depth.is_none()
            && self.mean_depth.is_none_or(|x| !x.is_finite())
            && self.score.is_none()
            && self.nodes.is_none()
            && self.time.is_none_or(|x| !x.is_finite())
            && self.nps.is_none_or(|x| !x.is_finite())
            && self.tables.is_none()
            && self.tb_hits.is_none()
            && self.book.is_none()
            && self.pv.is_none()
            && self.multipv.is_none()
    }
}

/// `text` with `"` turned into `'` and control characters and non-space whitespace (tabs,
/// line breaks, ...) turned into spaces, so that it fits in one Hub line.
pub fn sanitize(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' => '\'',
            ' ' => ' ',
            c if c.is_control() || c.is_whitespace() => ' ',
            c => c,
        })
        .collect()
}

/// Whether a sanitized value must be quoted: it is empty or holds a space or `=`.
pub fn needs_quotes(value: &str) -> bool {
    value.is_empty() || value.contains([' ', '='])
}

/// Writes ` key=value` with `value` sanitized and quoted iff needed.
fn write_pair(f: &mut fmt::Formatter<'_>, key: &str, value: &str) -> fmt::Result {
    let value = sanitize(value);
    if needs_quotes(&value) {
        write!(f, " {key}=\"{value}\"")
    } else {
        write!(f, " {key}={value}")
    }
}

/// Like [`write_pair`], with `=` replaced by `:` for the lines `pydraughts` splits at `=`.
fn write_strict_pair(f: &mut fmt::Formatter<'_>, key: &str, value: &str) -> fmt::Result {
    write_pair(f, key, &value.replace('=', ":"))
}

impl fmt::Display for ParamDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("param")?;
        write_strict_pair(f, "name", &self.name)?;
        write_strict_pair(f, "value", &self.default)?;
        write_strict_pair(f, "type", self.kind.type_name())?;
        match &self.kind {
            ParamKind::Bool | ParamKind::String => {}
            ParamKind::Int { min, max } => {
                write_strict_pair(f, "min", &min.to_string())?;
                write_strict_pair(f, "max", &max.to_string())?;
            }
            ParamKind::Real { min, max } => {
                if min.is_finite() {
                    write_strict_pair(f, "min", &min.to_string())?;
                }
                if max.is_finite() {
                    write_strict_pair(f, "max", &max.to_string())?;
                }
            }
            ParamKind::Enum { values } => {
                let mut list = String::new();
                for value in values {
                    let word: String = sanitize(value)
                        .replace('=', ":")
                        .split(' ')
                        .filter(|part| !part.is_empty())
                        .collect::<Vec<_>>()
                        .join("_");
                    if !word.is_empty() {
                        if !list.is_empty() {
                            list.push(' ');
                        }
                        list.push_str(&word);
                    }
                }
                write_strict_pair(f, "values", &list)?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for InfoReply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let finite = |x: Option<f64>| x.filter(|x| x.is_finite());
        f.write_str("info")?;
        if let Some(depth) = self.depth {
            write!(f, " depth={depth}")?;
        }
        if let Some(k) = self.multipv {
            write!(f, " multipv={k}")?;
        }
        if let Some(mean_depth) = finite(self.mean_depth) {
            write!(f, " mean-depth={mean_depth:.1}")?;
        }
        if let Some(score) = &self.score {
            write_strict_pair(f, "score", score)?;
        }
        if let Some(nodes) = self.nodes {
            write!(f, " nodes={nodes}")?;
        }
        if let Some(time) = finite(self.time) {
            write!(f, " time={time:.3}")?;
        }
        if let Some(nps) = finite(self.nps) {
            write!(f, " nps={:.2}", nps / 1e6)?;
        }
        if let Some(tables) = &self.tables {
            write_strict_pair(f, "tables", tables)?;
        }
        if let Some(hits) = self.tb_hits {
            write!(f, " tbhits={hits}")?;
        }
        if let Some(book) = &self.book {
            write_strict_pair(f, "book", book)?;
        }
        if let Some(pv) = &self.pv {
            // Collapse runs of spaces so the list splits cleanly.
            let moves = sanitize(pv);
            let mut list = String::with_capacity(moves.len());
            for mv in moves.split(' ').filter(|mv| !mv.is_empty()) {
                if !list.is_empty() {
                    list.push(' ');
                }
                list.push_str(mv);
            }
            write_strict_pair(f, "pv", &list)?;
        }
        Ok(())
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id {
                name,
                version,
                author,
                country,
            } => {
                f.write_str("id")?;
                write_strict_pair(f, "name", name)?;
                write_strict_pair(f, "version", version)?;
                write_strict_pair(f, "author", author)?;
                write_strict_pair(f, "country", country)
            }
            Reply::Param(decl) => decl.fmt(f),
            Reply::Wait => f.write_str("wait"),
            Reply::Ready => f.write_str("ready"),
            Reply::Info(info) => info.fmt(f),
            Reply::Done { mv, ponder } => {
                f.write_str("done")?;
                write_pair(f, "move", mv)?;
                if let Some(ponder) = ponder {
                    write_pair(f, "ponder", ponder)?;
                }
                Ok(())
            }
            Reply::Pong => f.write_str("pong"),
            Reply::Error(message) => {
                f.write_str("error")?;
                write_pair(f, "message", message)
            }
        }
    }
}

impl Reply {
    /// The reply as one line ending in `\n`, ready to be written in a single call.
    pub fn to_line(&self) -> String {
        format!("{self}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::{lex, Arg, Line};

    fn relex(reply: &Reply) -> Line {
        let text = reply.to_string();
        assert!(!text.contains(['\n', '\r']), "{text:?}");
        match lex(&text) {
            Ok(line) => line,
            Err(err) => panic!("{text:?} does not lex back: {err}"),
        }
    }

    /// Splits like pydraughts 0.6.7's `id`/`param`/`info` parser: at unquoted runs of spaces,
    /// then each token at every `=`, which must give exactly two parts.
    fn pydraughts_pairs(text: &str) -> Vec<(String, String)> {
        let args = text.split_once(' ').map_or("", |(_, rest)| rest);
        let mut tokens = Vec::new();
        let mut current = String::new();
        let mut quoted = false;
        for c in args.chars() {
            match c {
                '"' => {
                    quoted = !quoted;
                    current.push(c);
                }
                ' ' if !quoted => {
                    if !current.is_empty() {
                        tokens.push(std::mem::take(&mut current));
                    }
                }
                c => current.push(c),
            }
        }
        assert!(!quoted, "unbalanced quotes in {text:?}");
        if !current.is_empty() {
            tokens.push(current);
        }
        tokens
            .into_iter()
            .map(|token| {
                let parts: Vec<&str> = token.split('=').collect();
                match parts.as_slice() {
                    [key, value] => ((*key).to_owned(), (*value).to_owned()),
                    _ => panic!("pydraughts would crash on token {token:?} of {text:?}"),
                }
            })
            .collect()
    }

    fn pairs(line: &Line) -> Vec<(&str, &str)> {
        line.args
            .iter()
            .map(|arg| match arg {
                Arg::Pair(name, value) => (name.as_str(), value.as_str()),
                Arg::Flag(name) => panic!("unexpected flag {name}"),
            })
            .collect()
    }

    fn polydam_id() -> Reply {
        Reply::Id {
            name: "Polydam".to_owned(),
            version: "0.1.0".to_owned(),
            author: "Polydam developers".to_owned(),
            country: "Netherlands".to_owned(),
        }
    }

    #[test]
    fn simple_replies() {
        assert_eq!(Reply::Wait.to_string(), "wait");
        assert_eq!(Reply::Ready.to_string(), "ready");
        assert_eq!(Reply::Pong.to_string(), "pong");
        assert_eq!(Reply::Pong.to_line(), "pong\n");
    }

    #[test]
    fn id_line() {
        let id = polydam_id();
        assert_eq!(
            id.to_string(),
            "id name=Polydam version=0.1.0 author=\"Polydam developers\" country=Netherlands"
        );
        let line = relex(&id);
        assert_eq!(line.command, "id");
        assert_eq!(
            pairs(&line),
            vec![
                ("name", "Polydam"),
                ("version", "0.1.0"),
                ("author", "Polydam developers"),
                ("country", "Netherlands")
            ]
        );
        assert_eq!(pydraughts_pairs(&id.to_string()).len(), 4);
    }

    #[test]
    fn id_with_hostile_fields_stays_one_pair_per_token() {
        let id = Reply::Id {
            name: "Poly=dam".to_owned(),
            version: String::new(),
            author: "A \"B\"\nC".to_owned(),
            country: "x=y z".to_owned(),
        };
        let text = id.to_string();
        assert_eq!(
            text,
            "id name=Poly:dam version=\"\" author=\"A 'B' C\" country=\"x:y z\""
        );
        let parsed = pydraughts_pairs(&text);
        assert_eq!(parsed.len(), 4);
        assert_eq!(parsed[1], ("version".to_owned(), "\"\"".to_owned()));
        assert_eq!(
            pairs(&relex(&id)),
            vec![
                ("name", "Poly:dam"),
                ("version", ""),
                ("author", "A 'B' C"),
                ("country", "x:y z")
            ]
        );
    }

    #[test]
    fn param_lines() {
        let bool_param = Reply::Param(ParamDecl {
            name: "ponder".to_owned(),
            default: "false".to_owned(),
            kind: ParamKind::Bool,
        });
        assert_eq!(
            bool_param.to_string(),
            "param name=ponder value=false type=bool"
        );
        let int_param = Reply::Param(ParamDecl {
            name: "tt-size".to_owned(),
            default: "24".to_owned(),
            kind: ParamKind::Int { min: 16, max: 30 },
        });
        assert_eq!(
            int_param.to_string(),
            "param name=tt-size value=24 type=int min=16 max=30"
        );
        let real_param = Reply::Param(ParamDecl {
            name: "margin".to_owned(),
            default: "0.05".to_owned(),
            kind: ParamKind::Real {
                min: -0.5,
                max: f64::INFINITY,
            },
        });
        assert_eq!(
            real_param.to_string(),
            "param name=margin value=0.05 type=real min=-0.5"
        );
        let string_param = Reply::Param(ParamDecl {
            name: "book".to_owned(),
            default: String::new(),
            kind: ParamKind::String,
        });
        assert_eq!(
            string_param.to_string(),
            "param name=book value=\"\" type=string"
        );
        for reply in [&bool_param, &int_param, &real_param, &string_param] {
            let text = reply.to_string();
            assert!(pydraughts_pairs(&text).len() >= 3);
            relex(reply);
        }
    }

    #[test]
    fn variant_enum_param_name_before_values() {
        let variant = Reply::Param(ParamDecl {
            name: "variant".to_owned(),
            default: "normal".to_owned(),
            kind: ParamKind::Enum {
                values: vec![
                    "normal".to_owned(),
                    "russian".to_owned(),
                    "bad name".to_owned(),
                    String::new(),
                    "a=b".to_owned(),
                ],
            },
        });
        let text = variant.to_string();
        assert_eq!(
            text,
            "param name=variant value=normal type=enum values=\"normal russian bad_name a:b\""
        );
        let name_at = text.find("name=");
        let values_at = text.find("values=");
        assert!(name_at < values_at);
        let line = relex(&variant);
        assert_eq!(line.value("values"), Some("normal russian bad_name a:b"));
        assert_eq!(line.value("name"), Some("variant"));
        // pydraughts strips the quotes and splits on whitespace.
        let parsed = pydraughts_pairs(&text);
        let values = parsed
            .iter()
            .find(|(key, _)| key == "values")
            .map(|(_, value)| value.trim_matches('"').split_whitespace().count());
        assert_eq!(values, Some(4));
    }

    #[test]
    fn single_value_enum_is_unquoted() {
        let reply = Reply::Param(ParamDecl {
            name: "variant".to_owned(),
            default: "normal".to_owned(),
            kind: ParamKind::Enum {
                values: vec!["normal".to_owned()],
            },
        });
        assert_eq!(
            reply.to_string(),
            "param name=variant value=normal type=enum values=normal"
        );
    }

    #[test]
    fn info_full_line() {
        let info = InfoReply {
            depth: Some(14),
            mean_depth: Some(15.234),
            score: Some("-0.25".to_owned()),
            nodes: Some(1_234_567),
            time: Some(1.5),
            nps: Some(823_044.6),
            tables: None,
            tb_hits: None,
            pv: Some("32-28 19-23  28x19x23".to_owned()),
            book: None,
            multipv: None,
        };
        let text = Reply::Info(info).to_string();
        assert_eq!(
            text,
            "info depth=14 mean-depth=15.2 score=-0.25 nodes=1234567 time=1.500 nps=0.82 \
             pv=\"32-28 19-23 28x19x23\""
        );
        let parsed = pydraughts_pairs(&text);
        assert_eq!(parsed.len(), 7);
        assert_eq!(parsed[0].1.parse::<u64>().ok(), Some(14));
        assert_eq!(parsed[3].1.parse::<u64>().ok(), Some(1_234_567));
    }

    #[test]
    fn info_round_trip() {
        let info = InfoReply {
            depth: Some(7),
            mean_depth: Some(8.5),
            score: Some("99.99".to_owned()),
            nodes: Some(u64::MAX),
            time: Some(0.123),
            nps: Some(12_340_000.0),
            tables: Some("win".to_owned()),
            tb_hits: Some(42),
            pv: Some("28x19".to_owned()),
            book: None,
            multipv: Some(2),
        };
        let line = relex(&Reply::Info(info.clone()));
        assert_eq!(line.command, "info");
        let number = |key: &str| line.value(key).and_then(|v| v.parse::<f64>().ok());
        assert_eq!(line.value("depth"), Some("7"));
        assert_eq!(number("mean-depth"), info.mean_depth);
        assert_eq!(line.value("score"), Some("99.99"));
        assert_eq!(
            line.value("nodes").and_then(|v| v.parse::<u64>().ok()),
            info.nodes
        );
        assert_eq!(number("time"), info.time);
        let nps = number("nps").map(|millions| millions * 1e6);
        assert!(nps.is_some_and(|nps| (nps - 12_340_000.0).abs() < 1.0));
        assert_eq!(line.value("pv"), Some("28x19"));
        assert_eq!(line.value("tables"), Some("win"));
        assert_eq!(line.value("tbhits"), Some("42"));
        assert_eq!(line.value("multipv"), Some("2"));
        assert_eq!(
            line.args.iter().map(Arg::name).collect::<Vec<_>>(),
            vec![
                "depth",
                "multipv",
                "mean-depth",
                "score",
                "nodes",
                "time",
                "nps",
                "tables",
                "tbhits",
                "pv"
            ]
        );
    }

    #[test]
    fn info_subsets_and_non_finite() {
        let info = InfoReply {
            nodes: Some(0),
            time: Some(f64::NAN),
            nps: Some(f64::INFINITY),
            pv: Some(String::new()),
            ..InfoReply::default()
        };
        assert_eq!(Reply::Info(info).to_string(), "info nodes=0 pv=\"\"");
        assert!(InfoReply::default().is_empty());
        assert!(InfoReply {
            mean_depth: Some(f64::NAN),
            ..InfoReply::default()
        }
        .is_empty());
        assert!(!InfoReply {
            depth: Some(1),
            ..InfoReply::default()
        }
        .is_empty());
        assert_eq!(InfoReply::default().to_string(), "info");
    }

    #[test]
    fn info_time_rounding() {
        let info = InfoReply {
            time: Some(0.0004),
            ..InfoReply::default()
        };
        assert_eq!(info.to_string(), "info time=0.000");
        let info = InfoReply {
            time: Some(12.3456),
            nps: Some(999.0),
            ..InfoReply::default()
        };
        assert_eq!(info.to_string(), "info time=12.346 nps=0.00");
    }

    #[test]
    fn done_lines() {
        let done = Reply::Done {
            mv: "32-28".to_owned(),
            ponder: None,
        };
        assert_eq!(done.to_string(), "done move=32-28");
        let done = Reply::Done {
            mv: "28x19x23".to_owned(),
            ponder: Some("14x23".to_owned()),
        };
        let text = done.to_string();
        assert_eq!(text, "done move=28x19x23 ponder=14x23");
        let line = relex(&done);
        assert_eq!(
            line.args,
            vec![
                Arg::Pair("move".to_owned(), "28x19x23".to_owned()),
                Arg::Pair("ponder".to_owned(), "14x23".to_owned())
            ]
        );
        // pydraughts: whitespace split, first token's value is the move.
        let tokens: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(tokens.get(1), Some(&"move=28x19x23"));
        assert_eq!(
            Reply::Done {
                mv: String::new(),
                ponder: None
            }
            .to_string(),
            "done move=\"\""
        );
    }

    #[test]
    fn error_messages_are_sanitized() {
        let error = Reply::Error("illegal move: \"32-27\"\nat\tply 3\r".to_owned());
        let text = error.to_string();
        assert_eq!(text, "error message=\"illegal move: '32-27' at ply 3 \"");
        let line = relex(&error);
        assert_eq!(
            line.value("message"),
            Some("illegal move: '32-27' at ply 3 ")
        );
        assert_eq!(
            Reply::Error("oops".to_owned()).to_string(),
            "error message=oops"
        );
        assert_eq!(
            Reply::Error("a=b".to_owned()).to_string(),
            "error message=\"a=b\""
        );
        assert_eq!(
            Reply::Error(String::new()).to_string(),
            "error message=\"\""
        );
        assert_eq!(
            Reply::Error("x\u{2028}y\u{85}z\0".to_owned()).to_string(),
            "error message=\"x y z \""
        );
    }

    #[test]
    fn error_round_trip_of_lex_errors() {
        // A lexer error quotes the offending input; the reply must still be one clean line.
        for bad in ["pos moves=\"1-2", "=x", "go a=\"b\"c", "pos \"q"] {
            let message = match lex(bad) {
                Ok(line) => panic!("{bad:?} lexed as {line:?}"),
                Err(err) => err.to_string(),
            };
            let line = relex(&Reply::Error(message.clone()));
            assert_eq!(line.value("message"), Some(sanitize(&message).as_str()));
        }
    }

    #[test]
    fn sanitize_and_quoting_rules() {
        assert_eq!(sanitize("a\"b\tc\nd"), "a'b c d");
        assert_eq!(sanitize("Jérôme 🦀"), "Jérôme 🦀");
        assert!(needs_quotes(""));
        assert!(needs_quotes("a b"));
        assert!(needs_quotes("a=b"));
        assert!(!needs_quotes("32-28"));
        assert!(!needs_quotes("Jérôme"));
    }

    #[test]
    fn random_strings_round_trip() {
        let alphabet = [
            "a", "b", " ", "=", "\"", "\t", "\n", "\r", "é", "🦀", "\0", "\u{a0}", "-", "x", "'",
        ];
        let mut state: u64 = 0xDEAD_BEEF_CAFE_F00D;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..5_000 {
            let mut text = || -> String {
                let len = (next() % 10) as usize;
                (0..len)
                    .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                    .collect()
            };
            let message = text();
            let line = relex(&Reply::Error(message.clone()));
            assert_eq!(line.value("message"), Some(sanitize(&message).as_str()));

            let (name, version, author, country) = (text(), text(), text(), text());
            let id = Reply::Id {
                name: name.clone(),
                version: version.clone(),
                author: author.clone(),
                country: country.clone(),
            };
            let strict = |s: &str| sanitize(s).replace('=', ":");
            assert_eq!(
                pairs(&relex(&id)),
                vec![
                    ("name", strict(&name).as_str()),
                    ("version", strict(&version).as_str()),
                    ("author", strict(&author).as_str()),
                    ("country", strict(&country).as_str()),
                ]
            );
            assert_eq!(pydraughts_pairs(&id.to_string()).len(), 4);

            let info = Reply::Info(InfoReply {
                score: Some(text()),
                pv: Some(text()),
                ..InfoReply::default()
            });
            assert_eq!(pydraughts_pairs(&info.to_string()).len(), 2);
            relex(&info);
        }
    }
}
