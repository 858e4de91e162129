//! Seesaw Draughts' board for display: the 8x8 diagonal board numbered 1-32 (Brazilian
//! numbering), each stack with its size.

use polydam_tables::diagonal::EIGHT;

use super::movegen::{Move, Position};
use crate::game::view::{owner_of, BoardView, Cell, Piece};

/// The board of `pos` for display, with the squares of `last` marked.
pub fn board_view(pos: &Position, last: Option<&Move>) -> BoardView {
    let marked = last.map_or(0, |m| (1u64 << m.from) | (1u64 << m.to));
    let mut cells = Vec::with_capacity(64);
    for row in 0..8 {
        for col in 0..8 {
            let Some(s) = EIGHT.square_at(row, col) else {
                cells.push(Cell::unplayable(row, col));
                continue;
            };
            let bit_index = EIGHT.bit_index(s);
            let bit = 1u64 << bit_index;
            let owner = owner_of(&pos.stacks, bit);
            cells.push(Cell {
                row,
                col,
                playable: true,
                label: (s + 1).to_string(),
                short_label: (s + 1).to_string(),
                piece: owner.map(|owner| Piece {
                    owner,
                    king: false,
                    size: Some(u16::from(pos.size_at(bit_index))),
                }),
                tile: None,
                marked: marked & bit != 0,
            });
        }
    }
    BoardView {
        rows: 8,
        cols: 8,
        cells,
        col_labels: Vec::new(),
        row_labels: Vec::new(),
        label_empty_cells: true,
        note: None,
    }
}
