//! The diagonal family's board for display: light and dark squares as seen from White's side,
//! with the variant's own square names (numbers, or algebraic in Russian and Czech) and its
//! orientation (the turned Italian and Spanish boards, where a1 is a light square).

use super::bits::Bits;
use super::notation::{algebraic_of_internal, number_of_internal};
use super::position::{Move, Position};
use super::rules::{Numbering, Rules};
use crate::game::view::{BoardView, Cell, Piece};
use crate::game::Side;

/// The board of `pos` for display, with the squares of `last` marked.
pub fn board_view<R: Rules>(pos: &Position<R::Bits>, last: Option<&Move<R::Bits>>) -> BoardView {
    let g = R::SHEET.board;
    let width = 2 * g.half;
    // The Italian and Spanish boards are turned: the notation module mirrors the files, and
    // drawing through the same mirror puts their square 1 where their players expect it.
    let mirrored = R::INFO.numbering != Numbering::Standard;
    let algebraic = R::INFO.algebraic;
    let marked = last.map_or(R::Bits::ZERO, |m| {
        R::Bits::bit(m.from as u32) | R::Bits::bit(m.to as u32)
    });
    let mut cells = Vec::with_capacity((width * g.rows) as usize);
    let mut playing = vec![false; (width * g.rows) as usize];
    for s in 0..g.squares() {
        let (row, file) = g.row_file(s);
        let col = if mirrored { width - 1 - file } else { file };
        playing[(row * width + col) as usize] = true;
        let bit = R::Bits::from_wide(g.wide_bit_of_square(s));
        let owner = [Side::White, Side::Black]
            .into_iter()
            .find(|side| !(pos.pieces[side.index()] & bit).is_empty());
        let label = if algebraic {
            algebraic_of_internal::<R>(s)
        } else {
            number_of_internal::<R>(s).to_string()
        };
        cells.push(Cell {
            row,
            col,
            playable: true,
            short_label: label.clone(),
            label,
            piece: owner.map(|owner| Piece {
                owner,
                king: !(pos.kings & bit).is_empty(),
                size: None,
            }),
            tile: None,
            marked: !(marked & bit).is_empty(),
        });
    }
    for row in 0..g.rows {
        for col in 0..width {
            if !playing[(row * width + col) as usize] {
                cells.push(Cell::unplayable(row, col));
            }
        }
    }
    let (col_labels, row_labels) = if algebraic {
        (
            (0..width)
                .map(|c| ((b'a' + c as u8) as char).to_string())
                .collect(),
            (0..g.rows).map(|r| (g.rows - r).to_string()).collect(),
        )
    } else {
        (Vec::new(), Vec::new())
    };
    BoardView {
        rows: g.rows,
        cols: width,
        cells,
        col_labels,
        row_labels,
        label_empty_cells: !algebraic,
        note: None,
    }
}
