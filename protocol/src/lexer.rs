//! A pure lexer for Hub protocol lines.
//!
//! Every Hub line, in both directions, is `command name=value name=value ...`, where an argument
//! may also be a bare flag (`go think`, `pos start`). A value is quoted with `"` when it is empty
//! or holds a space or `=`; there is no escape sequence, so a quoted value runs to the next `"`.
//!
//! This module only splits a line into its parts: it knows nothing of the meaning of commands
//! (see [`crate::command`]) and never panics, whatever the input.
//!
//! Rules, precisely:
//!
//! - Separators are ASCII whitespace (space, tab, CR, LF, form feed). Leading and trailing
//!   separators, hence a trailing `\r`, are ignored; runs of separators count as one. Other
//!   Unicode spaces are ordinary characters.
//! - The first word is the command. It may not contain `=` or `"`.
//! - An argument name runs up to a separator, `=` or end of line; it may not be empty and may
//!   not contain `"`. Without a following `=` the argument is a [`Arg::Flag`].
//! - After `=`, a value starting with `"` runs to the next `"` (it may hold separators and `=`);
//!   the closing quote must be followed by a separator or the end of the line. Any other value
//!   runs to the next separator and is taken literally (it may contain `=` or `"`, as in
//!   `a=b=c`, whose value is `b=c`). `name=` followed by a separator or the end is an empty value.

use std::fmt;

pub use polydam_engine::text::EXCERPT_CHARS;

/// One argument of a Hub line, in the order it appeared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// A bare word with no `=value`, e.g. `think` in `go think`.
    Flag(String),
    /// A `name=value` pair; the value is unquoted (it may be empty).
    Pair(String, String),
}

impl Arg {
    /// The argument's name (the flag itself, or the part before `=`).
    pub fn name(&self) -> &str {
        match self {
            Arg::Flag(name) | Arg::Pair(name, _) => name,
        }
    }

    /// The value of a pair, `None` for a flag.
    pub fn value(&self) -> Option<&str> {
        match self {
            Arg::Flag(_) => None,
            Arg::Pair(_, value) => Some(value),
        }
    }
}

/// A lexed Hub line: the command word and its arguments in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The command word, e.g. `pos` (never empty, never holds whitespace, `=` or `"`).
    pub command: String,
    /// The arguments in the order they appeared, duplicates included.
    pub args: Vec<Arg>,
}

impl Line {
    /// The last argument named `name`, flag or pair (a later duplicate overrides an earlier one).
    pub fn arg(&self, name: &str) -> Option<&Arg> {
        self.args.iter().rev().find(|arg| arg.name() == name)
    }

    /// The value of the last pair named `name`, ignoring flags of that name.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .rev()
            .filter(|arg| arg.name() == name)
            .find_map(Arg::value)
    }

    /// Whether an argument named `name` is present, as a flag or as a pair.
    pub fn has(&self, name: &str) -> bool {
        self.args.iter().any(|arg| arg.name() == name)
    }

    /// Whether a bare flag named `name` is present.
    pub fn has_flag(&self, name: &str) -> bool {
        self.args
            .iter()
            .any(|arg| matches!(arg, Arg::Flag(flag) if flag == name))
    }
}

/// Why a line could not be lexed. Excerpts of the input are cut to [`EXCERPT_CHARS`]
/// characters, so the message stays short whatever the line's length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LexError {
    /// The line is empty or holds only whitespace.
    Empty,
    /// The command word contains `=` or `"`.
    BadCommand {
        /// Excerpt of the offending word.
        text: String,
    },
    /// An argument starts with `=`, so its name is empty (e.g. `=x`).
    EmptyName {
        /// 1-based character column of the `=`.
        column: usize,
        /// Excerpt of the offending argument.
        text: String,
    },
    /// An argument name contains `"` (quotes may only open a value).
    QuoteInName {
        /// 1-based character column of the argument.
        column: usize,
        /// Excerpt of the offending argument.
        text: String,
    },
    /// A quoted value has no closing `"`.
    UnterminatedQuote {
        /// Excerpt of the argument's name.
        name: String,
        /// 1-based character column of the opening quote.
        column: usize,
        /// Excerpt of the text from the opening quote on.
        text: String,
    },
    /// A closing `"` is directly followed by something other than whitespace.
    TextAfterQuote {
        /// Excerpt of the argument's name.
        name: String,
        /// 1-based character column of the character after the closing quote.
        column: usize,
        /// Excerpt of the text after the closing quote.
        text: String,
    },
}

impl fmt::Display for LexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LexError::Empty => write!(f, "empty line"),
            LexError::BadCommand { text } => write!(
                f,
                "bad command word '{text}': a command may not contain '=' or '\"'"
            ),
            LexError::EmptyName { column, text } => write!(
                f,
                "argument with an empty name at column {column}: '{text}'"
            ),
            LexError::QuoteInName { column, text } => write!(
                f,
                "quote in an argument name at column {column}: '{text}' (only values may be quoted)"
            ),
            LexError::UnterminatedQuote { name, column, text } => write!(
                f,
                "unterminated quote in the value of '{name}' at column {column}: '{text}'"
            ),
            LexError::TextAfterQuote { name, column, text } => write!(
                f,
                "no space after the closing quote of '{name}' at column {column}: '{text}'"
            ),
        }
    }
}

impl std::error::Error for LexError {}

pub use polydam_engine::text::excerpt;

/// Whether `c` separates words on a Hub line.
fn is_separator(c: char) -> bool {
    c.is_ascii_whitespace()
}

/// A position in the line; `pos` is always a character boundary of `text`.
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<char> {
        self.text
            .get(self.pos..)
            .and_then(|rest| rest.chars().next())
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += c.len_utf8();
        }
    }

    fn skip_while(&mut self, keep: impl Fn(char) -> bool) {
        while let Some(c) = self.peek() {
            if !keep(c) {
                break;
            }
            self.pos += c.len_utf8();
        }
    }

    /// The text between byte offsets `from` and the cursor.
    fn since(&self, from: usize) -> &'a str {
        self.text.get(from..self.pos).unwrap_or_default()
    }

    /// The text from byte offset `from` to the next separator, for error messages.
    fn word_from(&self, from: usize) -> &'a str {
        let rest = self.text.get(from..).unwrap_or_default();
        rest.split(is_separator).next().unwrap_or_default()
    }

    /// The 1-based character column of byte offset `at`.
    fn column(&self, at: usize) -> usize {
        self.text.get(..at).map_or(0, |head| head.chars().count()) + 1
    }
}

/// Splits one Hub line into its command word and arguments.
///
/// ```text
/// pos pos=Wbbb... moves="32-28 19-23"  ->  Line { command: "pos", args: [Pair(pos, Wbbb...),
///                                                  Pair(moves, "32-28 19-23")] }
/// ```
pub fn lex(line: &str) -> Result<Line, LexError> {
    let mut cur = Cursor { text: line, pos: 0 };
    cur.skip_while(is_separator);
    if cur.peek().is_none() {
        return Err(LexError::Empty);
    }

    let start = cur.pos;
    cur.skip_while(|c| !is_separator(c));
    let command = cur.since(start);
    if command.contains(['=', '"']) {
        return Err(LexError::BadCommand {
            text: excerpt(command),
        });
    }

    let mut args = Vec::new();
    loop {
        cur.skip_while(is_separator);
        let arg_start = cur.pos;
        match cur.peek() {
            None => break,
            Some('=') => {
                return Err(LexError::EmptyName {
                    column: cur.column(arg_start),
                    text: excerpt(cur.word_from(arg_start)),
                })
            }
            Some(_) => {}
        }

        cur.skip_while(|c| !is_separator(c) && c != '=' && c != '"');
        let name = cur.since(arg_start);
        match cur.peek() {
            Some('"') => {
                return Err(LexError::QuoteInName {
                    column: cur.column(arg_start),
                    text: excerpt(cur.word_from(arg_start)),
                })
            }
            Some('=') => cur.bump(),
            _ => {
                args.push(Arg::Flag(name.to_owned()));
                continue;
            }
        }

        let value = if cur.peek() == Some('"') {
            let quote = cur.pos;
            cur.bump();
            let value_start = cur.pos;
            cur.skip_while(|c| c != '"');
            let value = cur.since(value_start);
            if cur.peek().is_none() {
                return Err(LexError::UnterminatedQuote {
                    name: excerpt(name),
                    column: cur.column(quote),
                    text: excerpt(line.get(quote..).unwrap_or_default()),
                });
            }
            cur.bump();
            if let Some(c) = cur.peek() {
                if !is_separator(c) {
                    return Err(LexError::TextAfterQuote {
                        name: excerpt(name),
                        column: cur.column(cur.pos),
                        text: excerpt(cur.word_from(cur.pos)),
                    });
                }
            }
            value
        } else {
            let value_start = cur.pos;
            cur.skip_while(|c| !is_separator(c));
            cur.since(value_start)
        };
        args.push(Arg::Pair(name.to_owned(), value.to_owned()));
    }

    Ok(Line {
        command: command.to_owned(),
        args,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flag(name: &str) -> Arg {
        Arg::Flag(name.to_owned())
    }

    fn pair(name: &str, value: &str) -> Arg {
        Arg::Pair(name.to_owned(), value.to_owned())
    }

    fn lexed(text: &str) -> Line {
        match lex(text) {
            Ok(line) => line,
            Err(err) => panic!("lexing {text:?} failed: {err}"),
        }
    }

    fn lex_err(text: &str) -> LexError {
        match lex(text) {
            Ok(line) => panic!("lexing {text:?} should fail, got {line:?}"),
            Err(err) => err,
        }
    }

    #[test]
    fn bare_command() {
        let line = lexed("hub");
        assert_eq!(line.command, "hub");
        assert!(line.args.is_empty());
    }

    #[test]
    fn flags_and_pairs_in_order() {
        let line = lexed("level moves=40 time=300 infinite inc=2.5");
        assert_eq!(line.command, "level");
        assert_eq!(
            line.args,
            vec![
                pair("moves", "40"),
                pair("time", "300"),
                flag("infinite"),
                pair("inc", "2.5"),
            ]
        );
    }

    #[test]
    fn quoted_value_holds_spaces_and_equals() {
        let line = lexed(r#"pos pos=Wbbbbe moves="32-28 19-23 a=b" x=1"#);
        assert_eq!(
            line.args,
            vec![
                pair("pos", "Wbbbbe"),
                pair("moves", "32-28 19-23 a=b"),
                pair("x", "1")
            ]
        );
    }

    #[test]
    fn empty_values() {
        let line = lexed(r#"set-param name=x value="" other= last"#);
        assert_eq!(
            line.args,
            vec![
                pair("name", "x"),
                pair("value", ""),
                pair("other", ""),
                flag("last")
            ]
        );
        assert_eq!(lexed("a b=").args, vec![pair("b", "")]);
    }

    #[test]
    fn trailing_cr_and_surrounding_whitespace_ignored() {
        let line = lexed("  \t go   think \r");
        assert_eq!(line.command, "go");
        assert_eq!(line.args, vec![flag("think")]);
        assert_eq!(lexed("ping\r").command, "ping");
        assert_eq!(
            lexed("pos moves=\"1-2\"\r\n").args,
            vec![pair("moves", "1-2")]
        );
    }

    #[test]
    fn unquoted_value_with_equals_keeps_rest() {
        assert_eq!(lexed("x a=b=c").args, vec![pair("a", "b=c")]);
        assert_eq!(lexed("x a==").args, vec![pair("a", "=")]);
    }

    #[test]
    fn unquoted_value_may_contain_quote_after_first_char() {
        assert_eq!(
            lexed(r#"error message=it"s"#).args,
            vec![pair("message", r#"it"s"#)]
        );
    }

    #[test]
    fn unicode_is_ordinary_text() {
        let line = lexed("id name=Поли\u{a0}дам author=\"Jérôme 🦀\" é");
        assert_eq!(
            line.args,
            vec![
                pair("name", "Поли\u{a0}дам"),
                pair("author", "Jérôme 🦀"),
                flag("é")
            ]
        );
    }

    #[test]
    fn empty_line_is_an_error() {
        assert_eq!(lex_err(""), LexError::Empty);
        assert_eq!(lex_err("   \t\r\n"), LexError::Empty);
        assert_eq!(LexError::Empty.to_string(), "empty line");
    }

    #[test]
    fn empty_name_is_an_error() {
        let err = lex_err("pos =x moves=1");
        assert_eq!(
            err,
            LexError::EmptyName {
                column: 5,
                text: "=x".to_owned()
            }
        );
        assert_eq!(
            err.to_string(),
            "argument with an empty name at column 5: '=x'"
        );
        assert!(matches!(lex_err("pos ="), LexError::EmptyName { .. }));
        assert!(matches!(lex_err("x =\"a b\""), LexError::EmptyName { .. }));
    }

    #[test]
    fn unterminated_quote_is_an_error() {
        let err = lex_err(r#"pos moves="32-28 19-23"#);
        assert_eq!(
            err,
            LexError::UnterminatedQuote {
                name: "moves".to_owned(),
                column: 11,
                text: "\"32-28 19-23".to_owned()
            }
        );
        assert_eq!(
            err.to_string(),
            "unterminated quote in the value of 'moves' at column 11: '\"32-28 19-23'"
        );
        assert!(matches!(
            lex_err("a b=\""),
            LexError::UnterminatedQuote { .. }
        ));
    }

    #[test]
    fn lone_quotes() {
        assert!(matches!(lex_err("\""), LexError::BadCommand { .. }));
        assert!(matches!(lex_err("go \""), LexError::QuoteInName { .. }));
        assert!(matches!(lex_err("go \"\""), LexError::QuoteInName { .. }));
        assert!(matches!(lex_err("go a\"b"), LexError::QuoteInName { .. }));
        assert!(matches!(
            lex_err("go a=\""),
            LexError::UnterminatedQuote { .. }
        ));
        let err = lex_err("go a=\"b\"c d");
        assert_eq!(
            err,
            LexError::TextAfterQuote {
                name: "a".to_owned(),
                column: 9,
                text: "c".to_owned()
            }
        );
        assert!(err
            .to_string()
            .contains("after the closing quote of 'a' at column 9: 'c'"));
        assert!(matches!(
            lex_err("go a=\"b\"\"c\""),
            LexError::TextAfterQuote { .. }
        ));
    }

    #[test]
    fn bad_command_word() {
        let err = lex_err("a=b=c");
        assert_eq!(
            err,
            LexError::BadCommand {
                text: "a=b=c".to_owned()
            }
        );
        assert!(err.to_string().starts_with("bad command word 'a=b=c'"));
        assert!(matches!(lex_err("=x"), LexError::BadCommand { .. }));
        assert!(matches!(lex_err("\"hub\""), LexError::BadCommand { .. }));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let err = lex_err("é ü =x");
        assert_eq!(
            err,
            LexError::EmptyName {
                column: 5,
                text: "=x".to_owned()
            }
        );
    }

    #[test]
    fn excerpt_truncates_on_char_boundaries() {
        assert_eq!(excerpt("short"), "short");
        let exact: String = "x".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exact), exact);
        let long: String = "é".repeat(100);
        let cut = excerpt(&long);
        assert_eq!(cut.chars().count(), EXCERPT_CHARS + 3);
        assert!(cut.ends_with("..."));
    }

    #[test]
    fn lookup_helpers() {
        let line = lexed("level depth=3 infinite depth=5 moves");
        assert_eq!(line.value("depth"), Some("5"));
        assert_eq!(line.value("moves"), None);
        assert!(line.has("moves"));
        assert!(line.has_flag("infinite"));
        assert!(!line.has_flag("depth"));
        assert_eq!(line.arg("depth"), Some(&pair("depth", "5")));
        assert_eq!(line.arg("nope"), None);
        assert_eq!(pair("a", "b").name(), "a");
        assert_eq!(flag("f").value(), None);
    }

    #[test]
    fn megabyte_line() {
        let moves = "32-28 ".repeat(200_000);
        let line = lexed(&format!("pos start moves=\"{moves}\""));
        assert_eq!(line.value("moves").map(str::len), Some(moves.len()));

        let err = lex_err(&format!("pos moves=\"{moves}"));
        assert!(err.to_string().len() < 200, "{err}");
        let err = lex_err(&format!("pos ={moves}"));
        assert!(err.to_string().len() < 200);
        let err = lex_err(&format!("{}=", "x".repeat(1 << 20)));
        assert!(err.to_string().len() < 200);
        let err = lex_err(&format!("pos {}\"", "n".repeat(1 << 20)));
        assert!(err.to_string().len() < 200);
        let err = lex_err(&format!("pos a=\"b\"{}", "c".repeat(1 << 20)));
        assert!(err.to_string().len() < 200);
    }

    /// A small deterministic generator, to stay within `std`.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    fn check_invariants(text: &str) {
        match lex(text) {
            Ok(line) => {
                assert!(!line.command.is_empty());
                assert!(!line.command.contains(['=', '"']));
                assert!(!line.command.contains(is_separator));
                for arg in &line.args {
                    assert!(!arg.name().is_empty());
                    assert!(!arg.name().contains(['=', '"']));
                    assert!(!arg.name().contains(is_separator));
                }
            }
            Err(err) => assert!(err.to_string().chars().count() < 200, "{err}"),
        }
    }

    #[test]
    fn random_strings_never_panic() {
        let alphabet = [
            "\"", "=", " ", "\t", "\r", "\n", "a", "b", "go", "pos", "é", "🦀", "\0", "\u{a0}",
            "\u{2028}", "moves", "-", "x",
        ];
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        for _ in 0..20_000 {
            let len = rng.below(24);
            let text: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            check_invariants(&text);
        }
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut rng = XorShift(0x0123_4567_89AB_CDEF);
        for _ in 0..20_000 {
            let len = rng.below(64);
            let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            check_invariants(&String::from_utf8_lossy(&bytes));
            if let Ok(text) = std::str::from_utf8(&bytes) {
                check_invariants(text);
            }
        }
    }
}
