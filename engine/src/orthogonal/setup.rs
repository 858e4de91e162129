//! Unchecked positions of the orthogonal family, and the one way to turn them into a
//! [`Position`]: [`Position::from_setup`], which validates them for a variant.
//!
//! ```
//! use polydam_engine::orthogonal::{rules::Turkish, Orthogonal, Position, Setup, SetupError};
//! use polydam_engine::game::{Game, Side};
//! // A white man on d4 (bit 27), a black king on h8 (bit 63).
//! let mut setup = Setup::new(Side::White);
//! setup.pieces.push((27, Side::White, false));
//! setup.pieces.push((63, Side::Black, true));
//! let pos = Position::from_setup::<Turkish>(setup.clone()).expect("a valid setup");
//! assert_eq!(Orthogonal::<Turkish>::fen(&pos), "W:Wd4:BKh8");
//! // A white man on a8, in its promotion zone.
//! setup.pieces.push((56, Side::White, false));
//! assert!(matches!(
//!     Position::from_setup::<Turkish>(setup),
//!     Err(SetupError::ManInPromotionZone { .. })
//! ));
//! ```

use std::fmt;

use super::notation::square_name;
use super::position::Position;
use super::rules::{men_per_side, Rules};
use crate::game::Side;
use crate::text::excerpt;

/// What is wrong with a position given as text or as a [`Setup`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The text is empty.
    Empty,
    /// The side to move is not `W` or `B`.
    BadSide(String),
    /// A position string of the wrong length.
    BadLength {
        /// Characters given.
        got: usize,
    },
    /// A character that is not a piece code in a position string.
    BadPieceChar {
        /// The character.
        ch: char,
        /// Its place in the string (the side letter is 0).
        index: usize,
    },
    /// A FEN section or item that cannot be read.
    BadToken(String),
    /// A square given twice.
    SquareTwice(String),
    /// A setup's bit index beyond the 64 squares (text cannot give one: its squares are
    /// checked as they are read).
    OffBoard(u8),
    /// A man standing in its own promotion zone (it would already be a king).
    ManInPromotionZone {
        /// The man's side.
        side: Side,
        /// Its square.
        square: String,
    },
    /// More pieces than the side starts with.
    TooManyPieces {
        /// The side.
        side: Side,
        /// Pieces given.
        count: usize,
        /// Pieces at the start.
        max: usize,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Empty => write!(f, "empty position"),
            SetupError::BadSide(s) => {
                write!(f, "side to move must be W or B, not '{}'", excerpt(s))
            }
            SetupError::BadLength { got } => write!(
                f,
                "position string has {got} characters; it needs 65 (W or B, then 64 squares a8..h1)"
            ),
            SetupError::BadPieceChar { ch, index } => write!(
                f,
                "character '{ch}' at position {index} is not a piece code (w, b, W, B or e)"
            ),
            SetupError::BadToken(t) => write!(f, "{}", excerpt(t)),
            SetupError::SquareTwice(s) => write!(f, "square {s} is given twice"),
            SetupError::OffBoard(bit) => {
                write!(f, "bit {bit} is off the board (squares are bits 0-63)")
            }
            SetupError::ManInPromotionZone { side, square } => write!(
                f,
                "{} man on {square}, in its promotion zone: it would already be a king",
                side.name()
            ),
            SetupError::TooManyPieces { side, count, max } => write!(
                f,
                "{} has {count} pieces; this variant starts with {max}",
                side.name()
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// An unchecked orthogonal position: the side to move and a list of pieces, as the parsers
/// read them. [`Position::from_setup`] checks it for a variant.
///
/// Squares are bit indices, `8 * rank + file` (a1 = 0, h1 = 7, h8 = 63).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The side to move.
    pub side: Side,
    /// (bit index, side, is king) for every piece, in any order.
    pub pieces: Vec<(u8, Side, bool)>,
}

impl Setup {
    /// An empty board with `side` to move.
    pub fn new(side: Side) -> Setup {
        Setup {
            side,
            pieces: Vec::new(),
        }
    }

    /// Validates the setup for variant `R` and builds the position (the family's own error).
    pub(crate) fn position<R: Rules>(&self) -> Result<Position, SetupError> {
        let mut pos = Position::empty(self.side);
        for &(sq, owner, king) in &self.pieces {
            if sq >= 64 {
                return Err(SetupError::OffBoard(sq));
            }
            let bit = 1u64 << sq;
            if pos.occupied() & bit != 0 {
                return Err(SetupError::SquareTwice(square_name(sq)));
            }
            if !king && bit & R::SHEET.zone[owner.index()] != 0 {
                return Err(SetupError::ManInPromotionZone {
                    side: owner,
                    square: square_name(sq),
                });
            }
            pos.pieces[owner.index()] |= bit;
            if king {
                pos.kings |= bit;
            }
        }
        let max = men_per_side::<R>();
        for owner in [Side::White, Side::Black] {
            let count = pos.pieces[owner.index()].count_ones() as usize;
            if count > max {
                return Err(SetupError::TooManyPieces {
                    side: owner,
                    count,
                    max,
                });
            }
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }
}

impl Position {
    /// The position that `setup` describes, checked for variant `R`: every square on the
    /// board and given once, no man in its own promotion zone, no side with more pieces than
    /// it starts with in `R`.
    pub fn from_setup<R: Rules>(setup: Setup) -> Result<Position, SetupError> {
        setup.position::<R>()
    }

    /// The position as a setup (pieces in ascending square order):
    /// `Position::from_setup::<R>(pos.to_setup())` gives `pos` back.
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::new(self.side);
        for sq in 0..64u8 {
            let bit = 1u64 << sq;
            for owner in [Side::White, Side::Black] {
                if self.pieces[owner.index()] & bit != 0 {
                    setup.pieces.push((sq, owner, self.kings & bit != 0));
                }
            }
        }
        setup
    }
}
