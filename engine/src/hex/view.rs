//! Hex Seesaw's board for display: flat-topped cells in vertical columns `a`.. from the left,
//! South (White) at the bottom, stacks with their sizes and the tiles under them.

use polydam_tables::hex::HexGeometry;

use super::movegen::{cells as cells_of, Kind, Move, Position};
use super::notation::cell_name;
use crate::game::view::{owner_of, BoardView, Cell, Piece};

/// The board of `pos` on geometry `g` for display, with the cells of `last` marked (a pass
/// marks nothing, a deploy its cell).
pub fn board_view(g: &HexGeometry, pos: &Position, last: Option<&Move>) -> BoardView {
    let marked = match last {
        Some(m) if m.kind != Kind::Pass => (1u64 << m.from) | (1u64 << m.to),
        _ => 0,
    };
    // Doubled coordinates: y runs from -top to top in steps of 2 within a column and by 1
    // between columns, so one grid row per unit of y gives the offset columns of a hex board.
    let top = 2 * (g.side - 1);
    let mut cells = Vec::with_capacity(g.cells);
    for c in cells_of(g.mask) {
        let bit = 1u64 << c;
        let x = i32::from(g.x[c]);
        let y = i32::from(g.y[c]);
        let owner = owner_of(&pos.stacks, bit);
        let tile = owner_of(&pos.tiles, bit);
        cells.push(Cell {
            row: (top - y) as u32,
            col: (x + g.side - 1) as u32,
            playable: true,
            label: cell_name(g, c as u8),
            short_label: g.name_parts(c as u8).1.to_string(),
            piece: owner.map(|owner| Piece {
                owner,
                king: false,
                size: Some(u16::from(pos.sizes[c])),
            }),
            tile,
            marked: marked & bit != 0,
        });
    }
    let cols = (2 * g.side - 1) as u32;
    BoardView {
        rows: (2 * top + 1) as u32,
        cols,
        cells,
        col_labels: (0..cols)
            .map(|c| ((b'a' + c as u8) as char).to_string())
            .collect(),
        row_labels: Vec::new(),
        label_empty_cells: true,
        note: None,
    }
}
