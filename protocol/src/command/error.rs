//! The ways a Hub line can fail to be a valid command.

use std::fmt;

use super::MAX_SECONDS;
use crate::lexer::LexError;

/// Why a line is not a valid command. Offending values are cut to a short excerpt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandError {
    /// The line could not be lexed (only from [`super::parse_line`]).
    Lex(LexError),
    /// A required argument is absent.
    MissingArgument {
        /// The command word.
        command: &'static str,
        /// The argument's name.
        arg: &'static str,
    },
    /// An argument that needs a value came as a bare flag, or with an empty value where one
    /// is required.
    MissingValue {
        /// The command word.
        command: &'static str,
        /// The argument's name.
        arg: &'static str,
    },
    /// An integer argument does not hold a whole number.
    NotAnInteger {
        /// The argument's name.
        arg: &'static str,
        /// Excerpt of the value received.
        value: String,
    },
    /// An integer argument is negative.
    NegativeInteger {
        /// The argument's name.
        arg: &'static str,
        /// Excerpt of the value received.
        value: String,
    },
    /// An integer argument exceeds its type's range.
    IntegerTooLarge {
        /// The argument's name.
        arg: &'static str,
        /// Excerpt of the value received.
        value: String,
        /// The largest value accepted.
        max: u64,
    },
    /// A seconds argument is not a number.
    NotANumber {
        /// The argument's name.
        arg: &'static str,
        /// Excerpt of the value received.
        value: String,
    },
    /// A seconds argument is NaN or infinite.
    NotFinite {
        /// The argument's name.
        arg: &'static str,
        /// Excerpt of the value received.
        value: String,
    },
    /// A seconds argument exceeds [`MAX_SECONDS`].
    TooManySeconds {
        /// The argument's name.
        arg: &'static str,
        /// Excerpt of the value received.
        value: String,
    },
    /// `pos` without any of `pos=`, `start` or `fen=`.
    NoPosition,
    /// `pos` with more than one of `pos=`, `start` and `fen=`.
    ConflictingPositions,
    /// `go` with more than one of `think`, `ponder` and `analyze`.
    ConflictingGoModes,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Lex(err) => err.fmt(f),
            CommandError::MissingArgument { command, arg } => {
                write!(f, "{command}: missing argument {arg}=...")
            }
            CommandError::MissingValue { command, arg } => {
                write!(f, "{command}: argument '{arg}' needs a value ({arg}=...)")
            }
            CommandError::NotAnInteger { arg, value } => {
                write!(f, "{arg} must be a non-negative integer, got '{value}'")
            }
            CommandError::NegativeInteger { arg, value } => {
                write!(f, "{arg} must not be negative, got '{value}'")
            }
            CommandError::IntegerTooLarge { arg, value, max } => {
                write!(f, "{arg} is too large (at most {max}), got '{value}'")
            }
            CommandError::NotANumber { arg, value } => {
                write!(f, "{arg} must be a number of seconds, got '{value}'")
            }
            CommandError::NotFinite { arg, value } => {
                write!(f, "{arg} must be a finite number of seconds, got '{value}'")
            }
            CommandError::TooManySeconds { arg, value } => write!(
                f,
                "{arg} is absurdly large (more than {MAX_SECONDS} seconds), got '{value}'"
            ),
            CommandError::NoPosition => {
                write!(f, "pos needs one of pos=<position>, start or fen=<FEN>")
            }
            CommandError::ConflictingPositions => {
                write!(
                    f,
                    "pos takes only one of pos=<position>, start and fen=<FEN>"
                )
            }
            CommandError::ConflictingGoModes => {
                write!(f, "go takes only one of think, ponder and analyze")
            }
        }
    }
}

impl std::error::Error for CommandError {}

impl From<LexError> for CommandError {
    fn from(err: LexError) -> Self {
        CommandError::Lex(err)
    }
}
