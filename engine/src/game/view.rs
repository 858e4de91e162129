//! A neutral description of a board for display: which cells exist, where they stand on a
//! text grid, what stands on them and what they are called.
//!
//! Each family fills a [`BoardView`] in [`crate::game::Game::board_view`]; front ends draw it
//! without knowing the family (the terminal drawing lives in the protocol crate). The engine
//! itself never prints.
//!
//! ```
//! use polydam_engine::orthogonal::{rules::Turkish, Orthogonal};
//! use polydam_engine::game::{Game, Side};
//! let view = Orthogonal::<Turkish>::board_view(&Orthogonal::<Turkish>::start(), None);
//! assert_eq!(view.rows, 8);
//! let white = view.cells.iter().filter(|c| c.piece.is_some_and(|p| p.owner == Side::White));
//! assert_eq!(white.count(), 16);
//! ```

use super::Side;

/// What stands on a cell: a man, a king, or a stack of some size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Whose piece it is.
    pub owner: Side,
    /// Whether it is a king.
    pub king: bool,
    /// The stack size, in the families whose pieces are stacks (`None` elsewhere).
    pub size: Option<u16>,
}

/// One cell of the board (a playing square, a light square, or a hex cell).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Grid row, 0 at the top (as seen from White's side).
    pub row: u32,
    /// Grid column, 0 at the left.
    pub col: u32,
    /// Whether pieces can stand here (false for the light squares of a diagonal board).
    pub playable: bool,
    /// The cell's name in the variant's notation (`12`, `c3`, `d1`); empty on light squares.
    pub label: String,
    /// The label without what the column label printed below the board already says (hex
    /// Seesaw: the number within the column); the same as `label` elsewhere.
    pub short_label: String,
    /// The piece on the cell.
    pub piece: Option<Piece>,
    /// The colour of the tile under the cell, in the families that have tiles.
    pub tile: Option<Side>,
    /// Whether the last move started or ended here.
    pub marked: bool,
}

impl Cell {
    /// A cell where nothing can stand (a light square of a diagonal board).
    pub fn unplayable(row: u32, col: u32) -> Cell {
        Cell {
            row,
            col,
            playable: false,
            label: String::new(),
            short_label: String::new(),
            piece: None,
            tile: None,
            marked: false,
        }
    }
}

/// Which side's bitboard of `by_side` (indexed by [`Side::index`]) holds `bit`, if either.
pub fn owner_of(by_side: &[u64; 2], bit: u64) -> Option<Side> {
    if by_side[0] & bit != 0 {
        Some(Side::White)
    } else if by_side[1] & bit != 0 {
        Some(Side::Black)
    } else {
        None
    }
}

/// A board ready to be drawn: a `rows` x `cols` grid in which some positions hold cells.
///
/// Square boards fill the whole grid. Hex boards use one grid column per board column and one
/// grid row per half cell height, so a column's neighbours sit one row up or down: drawn in
/// a monospace font, the offsets give the hexagonal shape.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BoardView {
    /// Grid height.
    pub rows: u32,
    /// Grid width.
    pub cols: u32,
    /// The cells, in any order.
    pub cells: Vec<Cell>,
    /// Labels to print under each grid column (`a`..`h`), or empty for none.
    pub col_labels: Vec<String>,
    /// Labels to print left of each grid row (`8`..`1`), or empty for none.
    pub row_labels: Vec<String>,
    /// Whether empty playable cells should show their label (numbered boards, where the edge
    /// letters would not help to find square 27).
    pub label_empty_cells: bool,
    /// Text to show when the family has no board drawing (the default view: the FEN).
    pub note: Option<String>,
}

impl BoardView {
    /// A view without cells that only carries a note (the FEN, for families without a
    /// drawing).
    pub fn note_only(note: String) -> BoardView {
        BoardView {
            note: Some(note),
            ..BoardView::default()
        }
    }

    /// The number of pieces (or stacks) of `owner` on the board.
    pub fn count(&self, owner: Side) -> usize {
        self.cells
            .iter()
            .filter(|c| c.piece.is_some_and(|p| p.owner == owner))
            .count()
    }
}
