//! DXP messages (layer 2 of DamExchange): typed values, read from and written to the bytes of
//! one message (its terminating `\0` already removed, see [`super::frame`]).
//!
//! Every message is 1 to 127 ASCII characters; the first is its type. Numbers are fixed-width
//! decimal with leading zeros, squares are the 10x10 numbers 01-50. Reading is strict: a field
//! of the wrong width, a non-digit in a number, a square off the board or an unknown code is a
//! [`DxpError`] that names the message and the field, and nothing is guessed.
//!
//! ```
//! use polydam_protocol::dxp::message::{Message, DxpMove};
//! let m = Message::parse(b"M001205250422122320").unwrap();
//! let Message::Move(mv) = &m else { panic!() };
//! assert_eq!((mv.from, mv.to), (5, 25));
//! assert_eq!(mv.captured, [22, 12, 23, 20]);
//! assert_eq!(m.encode(), "M001205250422122320");
//! ```

mod error;
mod parse;

use std::fmt;

pub use error::DxpError;

/// The longest message, in characters (without its `\0`).
pub const MAX_MESSAGE_LEN: usize = 127;
/// The width of a program name in GAMEREQ and GAMEACC.
pub const NAME_LEN: usize = 32;
/// Squares of the 10x10 board, numbered 1 to 50.
pub const SQUARES: usize = 50;
/// The only protocol version there is (`01`).
pub const VERSION: u8 = 1;

/// A colour as DXP writes it: `W` white, `Z` (zwart) black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// White, whose men start on 31-50.
    White,
    /// Black, whose men start on 1-20.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opponent(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// `W` or `Z`.
    pub fn letter(self) -> char {
        match self {
            Colour::White => 'W',
            Colour::Black => 'Z',
        }
    }

    /// The colour's name in lower case.
    pub fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
        }
    }

    fn from_letter(field: &'static str, kind: Kind, c: u8) -> Result<Colour, DxpError> {
        match c {
            b'W' => Ok(Colour::White),
            b'Z' => Ok(Colour::Black),
            _ => Err(DxpError::BadField {
                kind,
                field,
                text: char::from(c).to_string(),
                expected: "W or Z",
            }),
        }
    }
}

/// What stands on a square of a DXP position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// `e`.
    Empty,
    /// `w`.
    WhiteMan,
    /// `z`.
    BlackMan,
    /// `W`.
    WhiteKing,
    /// `Z`.
    BlackKing,
}

impl Piece {
    /// The piece's letter.
    pub fn letter(self) -> char {
        match self {
            Piece::Empty => 'e',
            Piece::WhiteMan => 'w',
            Piece::BlackMan => 'z',
            Piece::WhiteKing => 'W',
            Piece::BlackKing => 'Z',
        }
    }

    /// The piece of a letter, if it is one.
    pub fn from_letter(c: char) -> Option<Piece> {
        Some(match c {
            'e' => Piece::Empty,
            'w' => Piece::WhiteMan,
            'z' => Piece::BlackMan,
            'W' => Piece::WhiteKing,
            'Z' => Piece::BlackKing,
            _ => return None,
        })
    }
}

/// A position as GAMEREQ carries it: the colour to move and squares 1-50 (index 0 = square 1).
///
/// Only the layout is checked here; whether the position is legal is the game's business
/// ([`super::game::position_from_dxp`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DxpPosition {
    /// The colour to move first.
    pub to_move: Colour,
    /// What stands on each square, square 1 first.
    pub squares: [Piece; SQUARES],
}

/// GAMEREQ: the initiator asks for a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReq {
    /// The protocol version (`01`; another number is read and left to the follower to refuse).
    pub version: u8,
    /// The initiator's name (the padding removed).
    pub initiator: String,
    /// The colour the follower plays.
    pub follower_colour: Colour,
    /// Thinking time per player for the whole game, in minutes (0-999).
    pub minutes: u16,
    /// Moves of the whole game after which it may be ended; 0 = no limit.
    pub moves: u16,
    /// The start position, or `None` for the normal start with White to move (`A`).
    pub position: Option<DxpPosition>,
}

/// GAMEACC's acceptance code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Acceptance {
    /// `0`: the follower accepts the game.
    Accepted,
    /// `1`: the GAMEREQ's protocol version is not the one expected.
    WrongVersion,
    /// `2`: not this game (time, position, ...), but another may be asked for.
    NotThisGame,
    /// `3`: no game at all.
    NoGames,
}

impl Acceptance {
    /// The code's digit.
    pub fn digit(self) -> char {
        match self {
            Acceptance::Accepted => '0',
            Acceptance::WrongVersion => '1',
            Acceptance::NotThisGame => '2',
            Acceptance::NoGames => '3',
        }
    }

    /// What the code means, for reports.
    pub fn meaning(self) -> &'static str {
        match self {
            Acceptance::Accepted => "accepted",
            Acceptance::WrongVersion => "refused: protocol version not supported",
            Acceptance::NotThisGame => "refused: not this game (another may be asked for)",
            Acceptance::NoGames => "refused: no game at all",
        }
    }
}

/// GAMEACC: the follower's answer to GAMEREQ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameAcc {
    /// The follower's name (the padding removed).
    pub follower: String,
    /// Whether it accepts.
    pub acceptance: Acceptance,
}

/// MOVE: one move, with the squares of the pieces it captures.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DxpMove {
    /// Seconds the mover used for it (information only; 0-9999).
    pub seconds: u16,
    /// The square the piece leaves (1-50).
    pub from: u8,
    /// The square where it stops (1-50).
    pub to: u8,
    /// The captured squares (1-50), in the order sent.
    pub captured: Vec<u8>,
}

impl fmt::Display for DxpMove {
    /// `32-28`, or `05x25` followed by the captured squares in parentheses.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.captured.is_empty() {
            write!(f, "{}-{}", self.from, self.to)
        } else {
            let caps: Vec<String> = self.captured.iter().map(u8::to_string).collect();
            write!(
                f,
                "{}x{} (captures {})",
                self.from,
                self.to,
                caps.join(", ")
            )
        }
    }
}

/// GAMEEND's reason code (information only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// `0`: no reason given (always allowed; the only code of a confirmation).
    Unspecified,
    /// `1`: the sender gives up.
    Resigns,
    /// `2`: the sender sees a draw.
    Draw,
    /// `3`: the sender sees a win for itself.
    Wins,
}

impl EndReason {
    /// The code's digit.
    pub fn digit(self) -> char {
        match self {
            EndReason::Unspecified => '0',
            EndReason::Resigns => '1',
            EndReason::Draw => '2',
            EndReason::Wins => '3',
        }
    }

    /// What the code means, for reports.
    pub fn meaning(self) -> &'static str {
        match self {
            EndReason::Unspecified => "no reason given",
            EndReason::Resigns => "gives up",
            EndReason::Draw => "claims a draw",
            EndReason::Wins => "claims a win",
        }
    }
}

/// GAMEEND: ends the current game (or confirms its end).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameEnd {
    /// Why the sender ends it.
    pub reason: EndReason,
    /// Whether the sender wants to stop altogether (stop code `1`) rather than play another
    /// game (`0`).
    pub stop: bool,
}

/// A DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `R`: a game request (initiator only).
    GameReq(GameReq),
    /// `A`: the answer to a game request (follower only).
    GameAcc(GameAcc),
    /// `M`: a move.
    Move(DxpMove),
    /// `E`: the end of a game, or its confirmation.
    GameEnd(GameEnd),
    /// `C`: free text (up to 126 characters).
    Chat(String),
    /// `B`: a request to go back to a move number with a colour to move.
    BackReq {
        /// The move number (0-999).
        move_number: u16,
        /// The colour to move then.
        to_move: Colour,
    },
    /// `K`: the answer to a back request: `0` yes, `1` not supported, `2` continue the game
    /// (kept as its digit).
    BackAcc(u8),
}

/// The kinds of messages, for error reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// GAMEREQ.
    GameReq,
    /// GAMEACC.
    GameAcc,
    /// MOVE.
    Move,
    /// GAMEEND.
    GameEnd,
    /// CHAT.
    Chat,
    /// BACKREQ.
    BackReq,
    /// BACKACC.
    BackAcc,
}

impl Kind {
    /// The message's name as the DXP pages write it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::GameReq => "GAMEREQ",
            Kind::GameAcc => "GAMEACC",
            Kind::Move => "MOVE",
            Kind::GameEnd => "GAMEEND",
            Kind::Chat => "CHAT",
            Kind::BackReq => "BACKREQ",
            Kind::BackAcc => "BACKACC",
        }
    }
}

/// A name field as sent: ASCII printable only, no leading blank, cut or padded to 32.
fn padded_name(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| if (' '..='~').contains(&c) { c } else { '?' })
        .collect();
    let clean = clean.trim_start();
    let clean = if clean.is_empty() { "?" } else { clean };
    format!("{:<width$.width$}", clean, width = NAME_LEN)
}

impl Message {
    /// The message as sent (without its `\0`). Names are cut or padded to 32 printable ASCII
    /// characters, chat text to 126, numbers to their width: the result always reads back.
    pub fn encode(&self) -> String {
        match self {
            Message::GameReq(r) => {
                let mut out = format!(
                    "R{:02}{}{}{:03}{:03}",
                    r.version.min(99),
                    padded_name(&r.initiator),
                    r.follower_colour.letter(),
                    r.minutes.min(999),
                    r.moves.min(999)
                );
                match &r.position {
                    None => out.push('A'),
                    Some(p) => {
                        out.push('B');
                        out.push(p.to_move.letter());
                        out.extend(p.squares.iter().map(|s| s.letter()));
                    }
                }
                out
            }
            Message::GameAcc(a) => {
                format!("A{}{}", padded_name(&a.follower), a.acceptance.digit())
            }
            Message::Move(m) => {
                let mut out = format!(
                    "M{:04}{:02}{:02}{:02}",
                    m.seconds.min(9999),
                    m.from,
                    m.to,
                    m.captured.len()
                );
                for c in &m.captured {
                    out.push_str(&format!("{c:02}"));
                }
                out
            }
            Message::GameEnd(e) => {
                format!("E{}{}", e.reason.digit(), if e.stop { '1' } else { '0' })
            }
            Message::Chat(text) => {
                let clean: String = text
                    .chars()
                    .map(|c| if c.is_ascii() && c != '\0' { c } else { '?' })
                    .take(MAX_MESSAGE_LEN - 1)
                    .collect();
                format!("C{clean}")
            }
            Message::BackReq {
                move_number,
                to_move,
            } => format!("B{:03}{}", move_number.min(&999), to_move.letter()),
            Message::BackAcc(code) => format!("K{}", code.min(&9)),
        }
    }

    /// The message's kind.
    pub fn kind(&self) -> Kind {
        match self {
            Message::GameReq(_) => Kind::GameReq,
            Message::GameAcc(_) => Kind::GameAcc,
            Message::Move(_) => Kind::Move,
            Message::GameEnd(_) => Kind::GameEnd,
            Message::Chat(_) => Kind::Chat,
            Message::BackReq { .. } => Kind::BackReq,
            Message::BackAcc(_) => Kind::BackAcc,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start_squares() -> [Piece; SQUARES] {
        let mut s = [Piece::Empty; SQUARES];
        for (i, p) in s.iter_mut().enumerate() {
            *p = match i {
                0..=19 => Piece::BlackMan,
                30..=49 => Piece::WhiteMan,
                _ => Piece::Empty,
            };
        }
        s
    }

    /// The examples of the DXP pages read as documented and write back unchanged.
    #[test]
    fn examples_of_the_pages_round_trip() {
        for text in [
            "R01Tornado voor Windows 4.0        W060065A",
            "ATornado voor Windows 4.0        0",
            "M0012061100",
            "M001205250422122320",
            "E00",
            "CWhat do you think about move 35?",
            "B005Z",
            "K1",
        ] {
            let m = Message::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(m.encode(), text);
        }
        let Ok(Message::GameReq(r)) =
            Message::parse(b"R01Tornado voor Windows 4.0        W060065A")
        else {
            panic!("not a GAMEREQ");
        };
        assert_eq!(r.initiator, "Tornado voor Windows 4.0");
        assert_eq!(r.follower_colour, Colour::White);
        assert_eq!((r.minutes, r.moves), (60, 65));
        assert_eq!(r.position, None);
        let Ok(Message::Move(m)) = Message::parse(b"M0012061100") else {
            panic!("not a MOVE");
        };
        assert_eq!((m.seconds, m.from, m.to), (12, 6, 11));
        assert!(m.captured.is_empty());
    }

    #[test]
    fn gamereq_with_a_position_round_trips() {
        let req = GameReq {
            version: 1,
            initiator: "Polydam".into(),
            follower_colour: Colour::Black,
            minutes: 5,
            moves: 0,
            position: Some(DxpPosition {
                to_move: Colour::Black,
                squares: start_squares(),
            }),
        };
        let text = Message::GameReq(req.clone()).encode();
        assert_eq!(text.len(), 94);
        assert!(text.starts_with("R01Polydam                         Z005000BZ"));
        assert_eq!(Message::parse(text.as_bytes()), Ok(Message::GameReq(req)));
    }

    #[test]
    fn names_are_padded_cut_and_cleaned() {
        let long = "x".repeat(40);
        let text = Message::GameAcc(GameAcc {
            follower: format!("  {long}"),
            acceptance: Acceptance::NotThisGame,
        })
        .encode();
        assert_eq!(text, format!("A{}2", "x".repeat(32)));
        let text = Message::GameAcc(GameAcc {
            follower: "caf\u{e9}".into(),
            acceptance: Acceptance::Accepted,
        })
        .encode();
        assert_eq!(&text[1..6], "caf? ");
    }

    fn err(text: &[u8]) -> DxpError {
        Message::parse(text).expect_err("malformed")
    }

    #[test]
    fn wrong_lengths() {
        assert!(matches!(
            err(b"M001206110"),
            DxpError::WrongLength {
                kind: Kind::Move,
                got: 10,
                ..
            }
        ));
        // Says two captures, carries one.
        let e = err(b"M001205250222");
        assert!(e.to_string().contains("= 15 for 2 captures"), "{e}");
        assert!(matches!(
            err(b"E0"),
            DxpError::WrongLength {
                kind: Kind::GameEnd,
                ..
            }
        ));
        assert!(matches!(err(b"K"), DxpError::WrongLength { .. }));
        assert!(matches!(err(b"B05Z"), DxpError::WrongLength { .. }));
        assert!(matches!(
            err(b"AShort0"),
            DxpError::WrongLength {
                kind: Kind::GameAcc,
                ..
            }
        ));
        // A GAMEREQ that says B but has no position, and one that says A with a position.
        let a = "R01Tornado voor Windows 4.0        W060065A";
        assert!(matches!(
            err(&a.as_bytes()[..40]),
            DxpError::WrongLength { .. }
        ));
        let b_short = format!("{}B", &a[..42]);
        assert!(err(b_short.as_bytes())
            .to_string()
            .contains("94 with start position B"));
        let a_long = format!("{a}W{}", "e".repeat(50));
        assert!(err(a_long.as_bytes())
            .to_string()
            .contains("43 with start position A"));
    }

    #[test]
    fn bad_digits() {
        let e = err(b"M00a2061100");
        assert_eq!(
            e,
            DxpError::BadDigits {
                kind: Kind::Move,
                field: "time",
                text: "00a2".into()
            }
        );
        assert!(e.to_string().contains("MOVE time '00a2'"), "{e}");
        assert!(matches!(
            err(b"M0012 61100"),
            DxpError::BadDigits {
                field: "from square",
                ..
            }
        ));
        assert!(matches!(
            err(b"M00120611-1"),
            DxpError::BadDigits {
                field: "number captured",
                ..
            }
        ));
        assert!(matches!(
            err(b"R0xTornado voor Windows 4.0        W060065A"),
            DxpError::BadDigits {
                field: "version",
                ..
            }
        ));
        assert!(matches!(
            err(b"R01Tornado voor Windows 4.0        W06O065A"),
            DxpError::BadDigits {
                field: "thinking time",
                ..
            }
        ));
        assert!(matches!(err(b"B0x5Z"), DxpError::BadDigits { .. }));
        assert!(matches!(err(b"Kx"), DxpError::BadDigits { .. }));
    }

    #[test]
    fn squares_off_the_board() {
        assert_eq!(
            err(b"M0012511100"),
            DxpError::SquareOffBoard {
                kind: Kind::Move,
                field: "from square",
                square: 51
            }
        );
        assert!(matches!(
            err(b"M0012060000"),
            DxpError::SquareOffBoard {
                field: "to square",
                square: 0,
                ..
            }
        ));
        let e = err(b"M001205250199");
        assert!(
            e.to_string()
                .contains("captured square 99 is off the board"),
            "{e}"
        );
        assert_eq!(
            err(b"M00120525021212"),
            DxpError::CapturedTwice { square: 12 }
        );
    }

    #[test]
    fn bad_codes_and_characters() {
        let a = "R01Tornado voor Windows 4.0        W060065A";
        let colour = a.replace("W060", "X060");
        assert!(matches!(
            err(colour.as_bytes()),
            DxpError::BadField {
                field: "follower colour",
                ..
            }
        ));
        let start = a.replace("065A", "065C");
        assert!(matches!(
            err(start.as_bytes()),
            DxpError::BadField {
                field: "starting position",
                ..
            }
        ));
        let mut squares: String = start_squares().iter().map(|p| p.letter()).collect();
        squares.replace_range(24..25, "b");
        let pos = format!("{}BW{squares}", &a[..42]);
        let e = err(pos.as_bytes());
        assert!(e.to_string().contains("'b (square 25)'"), "{e}");
        assert!(matches!(
            err(b"E40"),
            DxpError::BadField {
                field: "reason",
                ..
            }
        ));
        assert!(matches!(
            err(b"E02"),
            DxpError::BadField {
                field: "stop code",
                ..
            }
        ));
        assert!(matches!(
            err(b"ATornado voor Windows 4.0        9"),
            DxpError::BadField {
                field: "acceptance code",
                ..
            }
        ));
        assert_eq!(err(b"X123"), DxpError::UnknownType('X'));
        assert_eq!(err(b""), DxpError::Empty);
        assert_eq!(
            err(b"C\xffx"),
            DxpError::NotAscii {
                index: 1,
                byte: 0xff
            }
        );
        assert_eq!(err(&[b'C'; 128]), DxpError::TooLong { len: 128 });
    }

    #[test]
    fn chat_is_cut_to_the_longest_message() {
        let text = Message::Chat("y".repeat(300)).encode();
        assert_eq!(text.len(), MAX_MESSAGE_LEN);
        assert_eq!(
            Message::parse(text.as_bytes()),
            Ok(Message::Chat("y".repeat(126)))
        );
    }
}
