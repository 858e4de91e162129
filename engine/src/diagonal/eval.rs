//! Evaluation of diagonal-family positions.

use super::position::Position;
use super::rules::Rules;

/// Material only, from the side to move's view: a provisional evaluation.
pub fn evaluate<R: Rules>(pos: &Position) -> i32 {
    let us = pos.side.index();
    let score = |side: usize| {
        let own = pos.pieces[side];
        (own & !pos.kings).count_ones() as i32 * 100 + (own & pos.kings).count_ones() as i32 * 300
    };
    score(us) - score(1 - us)
}
