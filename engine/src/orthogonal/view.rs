//! The orthogonal family's board for display: all 64 squares, files a-h and ranks 1-8, White
//! at the bottom.

use super::notation::square_name;
use super::position::{Move, Position};
use crate::game::view::{owner_of, BoardView, Cell, Piece};

/// The board of `pos` for display, with the squares of `last` marked.
pub fn board_view(pos: &Position, last: Option<&Move>) -> BoardView {
    let marked = last.map_or(0, |m| (1u64 << m.from) | (1u64 << m.to));
    let mut cells = Vec::with_capacity(64);
    for sq in 0..64u8 {
        let bit = 1u64 << sq;
        let owner = owner_of(&pos.pieces, bit);
        cells.push(Cell {
            // Bit 8 * rank + file: rank 0 (rank 1) is the bottom grid row.
            row: 7 - u32::from(sq / 8),
            col: u32::from(sq % 8),
            playable: true,
            label: square_name(sq),
            short_label: square_name(sq),
            piece: owner.map(|owner| Piece {
                owner,
                king: pos.kings & bit != 0,
                size: None,
            }),
            tile: None,
            marked: marked & bit != 0,
        });
    }
    BoardView {
        rows: 8,
        cols: 8,
        cells,
        col_labels: (b'a'..=b'h').map(|c| (c as char).to_string()).collect(),
        row_labels: (1..=8).rev().map(|r: u32| r.to_string()).collect(),
        label_empty_cells: false,
        note: None,
    }
}
