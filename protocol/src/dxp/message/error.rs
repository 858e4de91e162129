//! The ways bytes can fail to be a DXP message, each naming the message and the field.

use std::fmt;

use super::{Kind, MAX_MESSAGE_LEN};

/// Why bytes are not a DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DxpError {
    /// A message with no character (two `\0` in a row).
    Empty,
    /// More than [`MAX_MESSAGE_LEN`] characters before a `\0` (the rest up to the next `\0`
    /// is dropped).
    TooLong {
        /// Characters received before giving up.
        len: usize,
    },
    /// A byte that is not an ASCII character 1-127.
    NotAscii {
        /// Its index in the message (0 = the type).
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// The first character is no message type.
    UnknownType(char),
    /// The message has the wrong number of characters.
    WrongLength {
        /// The message kind.
        kind: Kind,
        /// Characters received.
        got: usize,
        /// What the layout asks for, in words (`34`, `43 or 94`, `11 + 2 per capture = 15`).
        want: String,
    },
    /// A number field holds something other than digits.
    BadDigits {
        /// The message kind.
        kind: Kind,
        /// The field.
        field: &'static str,
        /// What it holds.
        text: String,
    },
    /// A field holds a code outside its list.
    BadField {
        /// The message kind.
        kind: Kind,
        /// The field.
        field: &'static str,
        /// What it holds.
        text: String,
        /// What it may hold.
        expected: &'static str,
    },
    /// A square number outside 1-50.
    SquareOffBoard {
        /// The message kind.
        kind: Kind,
        /// The field.
        field: &'static str,
        /// The number.
        square: u16,
    },
    /// The same square captured twice in one MOVE.
    CapturedTwice {
        /// The square.
        square: u8,
    },
}

impl fmt::Display for DxpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DxpError::Empty => write!(f, "empty message"),
            DxpError::TooLong { len } => write!(
                f,
                "message longer than {MAX_MESSAGE_LEN} characters ({len} without a \\0); dropped"
            ),
            DxpError::NotAscii { index, byte } => write!(
                f,
                "byte {byte:#04x} at offset {index} is not an ASCII character 1-127"
            ),
            DxpError::UnknownType(c) => write!(
                f,
                "unknown message type '{}' (expected R, A, M, E, C, B or K)",
                c.escape_default()
            ),
            DxpError::WrongLength { kind, got, want } => write!(
                f,
                "{} message has {got} characters; its layout needs {want}",
                kind.name()
            ),
            DxpError::BadDigits { kind, field, text } => write!(
                f,
                "{} {field} '{}' is not a number of {} digits",
                kind.name(),
                text.escape_default(),
                text.len()
            ),
            DxpError::BadField {
                kind,
                field,
                text,
                expected,
            } => write!(
                f,
                "{} {field} '{}' is not {expected}",
                kind.name(),
                text.escape_default()
            ),
            DxpError::SquareOffBoard {
                kind,
                field,
                square,
            } => write!(
                f,
                "{} {field} {square:02} is off the board (squares are 01-50)",
                kind.name()
            ),
            DxpError::CapturedTwice { square } => {
                write!(f, "MOVE captures square {square:02} twice")
            }
        }
    }
}

impl std::error::Error for DxpError {}
