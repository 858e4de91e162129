//! Unchecked positions of hex Seesaw, and the one way to turn them into a [`Position`]:
//! [`Position::from_setup`], which validates them for a board.
//!
//! ```
//! use polydam_engine::hex::{notation, Hex, Position, Setup, SetupError, Side4};
//! use polydam_engine::game::{Game, Side};
//! use polydam_tables::hex::SIDE4;
//! let cell = |name| notation::parse_cell(&SIDE4, name).expect("a cell");
//! let mut setup = Setup::new(Side::White);
//! setup.stacks.push((cell("d1"), Side::White, 2));
//! setup.stacks.push((cell("d7"), Side::Black, 1));
//! setup.tiles.push((cell("d1"), Side::White));
//! setup.tiles.push((cell("d7"), Side::Black));
//! let pos = Position::from_setup::<Side4>(setup.clone()).expect("a valid setup");
//! assert_eq!(Hex::<Side4>::fen(&pos), "W:Wd1^2:Bd7:TWd1:TBd7");
//! // A black tile on d1 too.
//! setup.tiles.push((cell("d1"), Side::Black));
//! assert_eq!(
//!     Position::from_setup::<Side4>(setup),
//!     Err(SetupError::TileTwice("d1".into()))
//! );
//! ```

use std::fmt;

use polydam_tables::hex::HexGeometry;

use super::movegen::{Position, MAX_SIZE};
use super::notation::cell_name;
use super::HexBoard;
use crate::game::Side;
use crate::text::excerpt;

/// What is wrong with a hex Seesaw position given as text or as a [`Setup`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The text is empty.
    Empty,
    /// The side to move is not `W` or `B`.
    BadSide(String),
    /// A section or item that cannot be read.
    BadToken(String),
    /// Two stacks on one cell.
    StackTwice(String),
    /// Tiles of both colours, or one tile twice, on one cell.
    TileTwice(String),
    /// A stack of size 0 or larger than can be stored.
    BadSize {
        /// The cell.
        cell: String,
        /// The size given.
        size: String,
    },
    /// A setup's cell index beyond the board (text cannot give one: its cells are checked as
    /// they are read).
    OffBoard(u8),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Empty => write!(f, "empty position"),
            SetupError::BadSide(s) => {
                write!(f, "side to move must be W or B, not '{}'", excerpt(s))
            }
            SetupError::BadToken(t) => f.write_str(t),
            SetupError::StackTwice(c) => write!(f, "cell {c} holds two stacks"),
            SetupError::TileTwice(c) => write!(f, "cell {c} is given two tiles"),
            SetupError::BadSize { cell, size } => write!(
                f,
                "the stack on {cell} has size {}; sizes are 1-{MAX_SIZE}",
                excerpt(size)
            ),
            SetupError::OffBoard(c) => write!(f, "cell index {c} is off the board"),
        }
    }
}

impl std::error::Error for SetupError {}

/// An unchecked hex Seesaw position, as the parser reads it: the side to move, the stacks, the
/// tiles and whether the previous move was a pass. [`Position::from_setup`] checks it for a
/// board.
///
/// Cells are the board's cell indices (see [`polydam_tables::hex`];
/// [`notation::parse_cell`](super::notation::parse_cell) finds one by name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The side to move.
    pub side: Side,
    /// (cell, owner, size) for every stack, in any order.
    pub stacks: Vec<(u8, Side, u32)>,
    /// (cell, colour) for every tile, in any order; a stack may stand on it or not.
    pub tiles: Vec<(u8, Side)>,
    /// The previous move was a pass (card: "if both players pass in succession the game is
    /// drawn").
    pub passed: bool,
}

impl Setup {
    /// An empty board with `side` to move, after a move that was not a pass.
    pub fn new(side: Side) -> Setup {
        Setup {
            side,
            stacks: Vec::new(),
            tiles: Vec::new(),
            passed: false,
        }
    }

    /// Validates the setup on board `g` and builds the position (the family's own error).
    /// Stacks are checked before tiles.
    pub(crate) fn position(&self, g: &HexGeometry) -> Result<Position, SetupError> {
        let mut p = Position::empty(self.side);
        p.passed = self.passed;
        let on_board = |cell: u8| -> Result<u64, SetupError> {
            let bit = 1u64.checked_shl(u32::from(cell)).unwrap_or(0);
            if g.mask & bit == 0 {
                return Err(SetupError::OffBoard(cell));
            }
            Ok(bit)
        };
        for &(cell, owner, size) in &self.stacks {
            let bit = on_board(cell)?;
            if p.occupied() & bit != 0 {
                return Err(SetupError::StackTwice(cell_name(g, cell)));
            }
            if !(1..=u32::from(MAX_SIZE)).contains(&size) {
                return Err(SetupError::BadSize {
                    cell: cell_name(g, cell),
                    size: size.to_string(),
                });
            }
            p.stacks[owner.index()] |= bit;
            p.sizes[cell as usize] = size as u8;
        }
        for &(cell, colour) in &self.tiles {
            let bit = on_board(cell)?;
            if (p.tiles[0] | p.tiles[1]) & bit != 0 {
                return Err(SetupError::TileTwice(cell_name(g, cell)));
            }
            p.tiles[colour.index()] |= bit;
        }
        p.hash = p.compute_hash();
        Ok(p)
    }
}

impl Position {
    /// The position that `setup` describes, checked for board `B`: every cell on the board,
    /// at most one stack and one tile per cell, every size from 1 to [`MAX_SIZE`].
    pub fn from_setup<B: HexBoard>(setup: Setup) -> Result<Position, SetupError> {
        setup.position(B::GEOMETRY)
    }

    /// The position as a setup (stacks, then tiles, in ascending cell order):
    /// `Position::from_setup::<B>(pos.to_setup())` gives `pos` back.
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::new(self.side);
        setup.passed = self.passed;
        for cell in 0..64u8 {
            let bit = 1u64 << cell;
            for owner in [Side::White, Side::Black] {
                if self.stacks[owner.index()] & bit != 0 {
                    setup
                        .stacks
                        .push((cell, owner, u32::from(self.sizes[cell as usize])));
                }
            }
        }
        for cell in 0..64u8 {
            let bit = 1u64 << cell;
            for colour in [Side::White, Side::Black] {
                if self.tiles[colour.index()] & bit != 0 {
                    setup.tiles.push((cell, colour));
                }
            }
        }
        setup
    }
}
