//! Unchecked positions of the diagonal family, and the one way to turn them into a
//! [`Position`]: [`Position::from_setup`], which validates them for a variant and fills in what
//! a position keeps for that variant (its Zobrist key and the men's evaluation terms).
//!
//! ```
//! use polydam_engine::diagonal::{rules::International, Diagonal, Position, Setup, SetupError};
//! use polydam_engine::game::{Game, Side};
//! // A white man on square 28 (internal square 27), a black king on square 3.
//! let mut setup = Setup::new(Side::White);
//! setup.pieces.push((27, Side::White, false));
//! setup.pieces.push((2, Side::Black, true));
//! let pos = Position::from_setup::<International>(setup.clone()).expect("a valid setup");
//! assert_eq!(Diagonal::<International>::fen(&pos), "W:W28:BK3");
//! // Two pieces on one square.
//! setup.pieces.push((27, Side::Black, false));
//! assert_eq!(
//!     Position::from_setup::<International>(setup),
//!     Err(SetupError::SquareTwice(28))
//! );
//! ```

use std::fmt;

use super::bits::Bits;
use super::eval;
use super::movegen::promotion_row;
use super::notation::number_of_internal;
use super::patterns::Windows;
use super::position::Position;
use super::rules::{Goal, Rules};
use crate::game::Side;
use crate::text::excerpt;

/// What is wrong with a position given as text or as a [`Setup`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The text is empty.
    Empty,
    /// The side to move is not `W` or `B`.
    BadSide(String),
    /// A Hub string of the wrong length.
    BadLength {
        /// Characters given.
        got: usize,
        /// Characters the board needs.
        want: usize,
    },
    /// A character that is not a piece code in a Hub string.
    BadPieceChar {
        /// The character.
        ch: char,
        /// Its square number.
        index: usize,
    },
    /// A FEN section or square that cannot be read.
    BadToken(String),
    /// A square named twice (its number in the variant's numbering).
    SquareTwice(usize),
    /// A setup's internal square index beyond the board (text cannot give one: its squares
    /// are checked as they are read).
    OffBoard(usize),
    /// A man on the row where it would already have been crowned.
    ManOnPromotionRow {
        /// The man's side.
        side: Side,
        /// Its square number in the variant's numbering.
        square: usize,
    },
    /// More pieces than a side starts with.
    TooManyPieces {
        /// The side.
        side: Side,
        /// Pieces given.
        count: usize,
        /// Pieces a side starts with.
        max: usize,
    },
    /// Breakthrough: the side to move already owns a king, so the game ended before this.
    BreakthroughKingToMove,
    /// Frisian king-move counters that do not fit the position, or counters given for a
    /// variant that has none (the message says which).
    BadKingMoves(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Empty => write!(f, "empty position"),
            SetupError::BadSide(s) => {
                write!(f, "side to move must be W or B, not '{}'", excerpt(s))
            }
            SetupError::BadLength { got, want } => write!(
                f,
                "position string has {got} characters; this board needs {want} (side to move and one per square)"
            ),
            SetupError::BadPieceChar { ch, index } => write!(
                f,
                "character '{ch}' at position {index} is not a piece code (w, b, W, B or e)"
            ),
            SetupError::BadToken(t) => f.write_str(t),
            SetupError::SquareTwice(n) => write!(f, "square {n} is given twice"),
            SetupError::OffBoard(s) => {
                write!(f, "internal square {s} is off the board")
            }
            SetupError::ManOnPromotionRow { side, square } => write!(
                f,
                "{} man on square {square}, its promotion row: it would already be a king",
                side.name()
            ),
            SetupError::TooManyPieces { side, count, max } => {
                write!(f, "{} has {count} pieces; at most {max} are possible", side.name())
            }
            SetupError::BreakthroughKingToMove => write!(
                f,
                "breakthrough: the side to move already has a king, so the game is over"
            ),
            SetupError::BadKingMoves(why) => write!(f, "king-move counters: {why}"),
        }
    }
}

impl std::error::Error for SetupError {}

/// An unchecked diagonal position: the side to move and a list of pieces, as the parsers read
/// them. [`Position::from_setup`] checks it for a variant.
///
/// Squares are internal indices: 0-based, row by row from the top-left playing square, the
/// International numbering minus one on every board (see
/// [`notation::internal_of_number`](super::notation::internal_of_number) for the variants that
/// number their squares otherwise).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The side to move.
    pub side: Side,
    /// (internal square, side, is king) for every piece, in any order.
    pub pieces: Vec<(usize, Side, bool)>,
    /// Frisian's king-move counters by [`Side::index`]: (quiet moves in a row, 1 to 3, the
    /// king's internal square), or `None` (see [`super::KingMoves`]).
    pub king_moves: [Option<(u8, usize)>; 2],
}

impl Setup {
    /// An empty board with `side` to move.
    pub fn new(side: Side) -> Setup {
        Setup {
            side,
            pieces: Vec::new(),
            king_moves: [None, None],
        }
    }

    /// Validates the setup for variant `R` and builds the position (the family's own error).
    pub(crate) fn position<R: Rules>(&self) -> Result<Position<R::Bits>, SetupError> {
        let g = R::SHEET.board;
        let side = self.side;
        let mut pos = Position::<R::Bits>::empty(side);
        let mut counts = [0usize; 2];
        // The men a side starts with on the board's usual setup (all rows but the middle two).
        let max = (g.half * (g.rows / 2 - 1)) as usize;
        for &(s, owner, king) in &self.pieces {
            if s >= g.squares() {
                return Err(SetupError::OffBoard(s));
            }
            let bit = R::Bits::from_wide(g.wide_bit_of_square(s));
            if !(pos.occupied() & bit).is_empty() {
                return Err(SetupError::SquareTwice(number_of_internal::<R>(s)));
            }
            if !king && !(bit & promotion_row::<R>(owner)).is_empty() {
                return Err(SetupError::ManOnPromotionRow {
                    side: owner,
                    square: number_of_internal::<R>(s),
                });
            }
            pos.pieces[owner.index()] |= bit;
            if king {
                pos.kings |= bit;
            }
            counts[owner.index()] += 1;
        }
        for owner in [Side::White, Side::Black] {
            if counts[owner.index()] > max {
                return Err(SetupError::TooManyPieces {
                    side: owner,
                    count: counts[owner.index()],
                    max,
                });
            }
        }
        if R::SHEET.goal == Goal::FirstKingWins
            && !(pos.pieces[side.index()] & pos.kings).is_empty()
        {
            return Err(SetupError::BreakthroughKingToMove);
        }
        for owner in [Side::White, Side::Black] {
            let Some((count, s)) = self.king_moves[owner.index()] else {
                continue;
            };
            let name = owner.name();
            if !R::SHEET.king_move_limit {
                return Err(SetupError::BadKingMoves(format!(
                    "{} has no king-move limit",
                    R::NAME
                )));
            }
            let square = number_of_internal::<R>(s);
            if !(1..=3).contains(&count) {
                return Err(SetupError::BadKingMoves(format!(
                    "{name}'s count {count} is not 1, 2 or 3"
                )));
            }
            let bit = if s < g.squares() {
                R::Bits::from_wide(g.wide_bit_of_square(s))
            } else {
                R::Bits::ZERO
            };
            if (pos.pieces[owner.index()] & pos.kings & bit).is_empty() {
                return Err(SetupError::BadKingMoves(format!(
                    "no {name} king on square {square}"
                )));
            }
            if (pos.pieces[owner.index()] & !pos.kings).is_empty() {
                return Err(SetupError::BadKingMoves(format!(
                    "{name} has no men, so its kings are not limited"
                )));
            }
            pos.king_moves.set(owner, count, bit.trailing_zeros());
        }
        pos.hash = pos.compute_hash();
        pos.men_terms = eval::men_terms_from_scratch::<R>(&pos);
        pos.windows = Windows::<R::Bits>::of(R::SHEET.board).from_scratch(&pos);
        Ok(pos)
    }
}

impl<B: Bits> Position<B> {
    /// The position that `setup` describes, checked for variant `R` (whose word must be `B`):
    /// no square given twice, no man on its promotion row, no side with more pieces than it
    /// starts with, (in Breakthrough) no king of the side to move, and (in Frisian) king-move
    /// counters only on a king of a side that has men. The Zobrist key and the men's
    /// evaluation terms are computed for `R`: play the position under `R` only.
    pub fn from_setup<R: Rules<Bits = B>>(setup: Setup) -> Result<Position<B>, SetupError> {
        setup.position::<R>()
    }

    /// The position as a setup (pieces in ascending internal square order) on the board of
    /// variant `R`: `Position::from_setup::<R>(pos.to_setup::<R>())` gives `pos` back.
    pub fn to_setup<R: Rules<Bits = B>>(&self) -> Setup {
        let g = R::SHEET.board;
        let mut setup = Setup::new(self.side);
        for s in 0..g.squares() {
            let bit = B::from_wide(g.wide_bit_of_square(s));
            for owner in [Side::White, Side::Black] {
                if !(self.pieces[owner.index()] & bit).is_empty() {
                    setup
                        .pieces
                        .push((s, owner, !(self.kings & bit).is_empty()));
                }
            }
        }
        for owner in [Side::White, Side::Black] {
            if let Some((count, bit)) = self.king_moves.count(owner) {
                if let Some(s) = g.square_of_bit(bit) {
                    setup.king_moves[owner.index()] = Some((count, s));
                }
            }
        }
        setup
    }
}
