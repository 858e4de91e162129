//! Unchecked positions of Seesaw Draughts, and the one way to turn them into a [`Position`]:
//! [`Position::from_setup`], which validates them.
//!
//! ```
//! use polydam_engine::stacks::{Position, SeesawDraughts, Setup, SetupError};
//! use polydam_engine::game::{Game, Side};
//! let mut setup = Setup::new(Side::White);
//! setup.stacks.push((22, Side::White, 3));
//! setup.stacks.push((9, Side::Black, 1));
//! let pos = Position::from_setup(setup.clone()).expect("a valid setup");
//! assert_eq!(SeesawDraughts::fen(&pos), "W:W22^3:B9");
//! // A second stack on square 22.
//! setup.stacks.push((22, Side::Black, 2));
//! assert_eq!(
//!     Position::from_setup(setup),
//!     Err(SetupError::SquareTwice(22))
//! );
//! ```

use std::fmt;

use super::movegen::{Position, MAX_SIZE};
use super::notation::bit_of_number;
use crate::game::Side;
use crate::text::excerpt;

/// What is wrong with a Seesaw Draughts position given as text or as a [`Setup`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The text is empty.
    Empty,
    /// The side to move is not `W` or `B`.
    BadSide(String),
    /// A FEN section or item that cannot be read.
    BadToken(String),
    /// A square named twice.
    SquareTwice(usize),
    /// A setup's square number outside 1-32 (text cannot give one: its squares are checked
    /// as they are read).
    OffBoard(usize),
    /// A stack of size 0.
    ZeroSize(usize),
    /// A stack larger than a position can store.
    TooLarge {
        /// Square number.
        square: usize,
        /// The size asked for.
        size: String,
    },
    /// A king, which does not exist in this game.
    King(String),
    /// A Hub string of the wrong length.
    BadLength {
        /// Characters given.
        got: usize,
    },
    /// A character that is not `w`, `b` or `e` in a Hub string.
    BadPieceChar {
        /// The character.
        ch: char,
        /// Its square number.
        index: usize,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Empty => write!(f, "empty position"),
            SetupError::BadSide(s) => write!(f, "side to move must be W or B, not '{}'", excerpt(s)),
            SetupError::BadToken(t) => f.write_str(t),
            SetupError::SquareTwice(n) => write!(f, "square {n} is given twice"),
            SetupError::OffBoard(n) => write!(f, "square {n} is off the board (squares are 1-32)"),
            SetupError::ZeroSize(n) => write!(f, "the stack on square {n} has size 0; sizes start at 1"),
            SetupError::TooLarge { square, size } => write!(
                f,
                "the stack on square {square} has size {}; at most {MAX_SIZE} can be stored",
                excerpt(size)
            ),
            SetupError::King(item) => write!(
                f,
                "'{}' is a king, but seesaw-draughts has none: give the stack size as square^size (e.g. 22^2)",
                excerpt(item)
            ),
            SetupError::BadLength { got } => write!(
                f,
                "position string has {got} characters; seesaw-draughts needs 33 (side to move and one per square), or a FEN such as W:W21-32:B1-12"
            ),
            SetupError::BadPieceChar { ch, index } => write!(
                f,
                "character '{ch}' for square {index} is not w, b or e (stacks larger than 1 need the FEN form, e.g. W:W22^3:B9)"
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// An unchecked Seesaw Draughts position: the side to move and a list of stacks, as the
/// parsers read them. [`Position::from_setup`] checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The side to move.
    pub side: Side,
    /// (square number 1-32, owner, size) for every stack, in any order.
    pub stacks: Vec<(usize, Side, u32)>,
}

impl Setup {
    /// An empty board with `side` to move.
    pub fn new(side: Side) -> Setup {
        Setup {
            side,
            stacks: Vec::new(),
        }
    }

    /// Validates the setup and builds the position (the family's own error).
    pub(crate) fn position(&self) -> Result<Position, SetupError> {
        let mut pos = Position::empty(self.side);
        for &(n, owner, size) in &self.stacks {
            let bit = bit_of_number(n).ok_or(SetupError::OffBoard(n))?;
            if pos.occupied() & (1u64 << bit) != 0 {
                return Err(SetupError::SquareTwice(n));
            }
            if size == 0 {
                return Err(SetupError::ZeroSize(n));
            }
            let size = u8::try_from(size).map_err(|_| SetupError::TooLarge {
                square: n,
                size: size.to_string(),
            })?;
            pos.put(owner, bit, size);
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }
}

impl Position {
    /// The position that `setup` describes, checked: every square on the board and given
    /// once, every size from 1 to [`MAX_SIZE`].
    pub fn from_setup(setup: Setup) -> Result<Position, SetupError> {
        setup.position()
    }

    /// The position as a setup (stacks in ascending square order):
    /// `Position::from_setup(pos.to_setup())` gives `pos` back.
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::new(self.side);
        for n in 1..=32 {
            let Some(bit) = bit_of_number(n) else {
                continue;
            };
            for owner in [Side::White, Side::Black] {
                if self.stacks[owner.index()] & (1u64 << bit) != 0 {
                    setup.stacks.push((n, owner, u32::from(self.size_at(bit))));
                }
            }
        }
        setup
    }
}
