//! Evaluation of hex Seesaw positions.
//!
//! Per side: stacks by size (a stack of size s takes up to s steps and captures anything within
//! s steps, card "a stack of size s takes 1..s steps"), a bonus when the stack can reach a cell
//! where it would promote this turn (an opponent's tile for an odd stack, an own tile for an
//! even one: the "distance to the next promotion" at its shortest), its reach (cells it can move
//! to), the enemy stacks within its capture reach (threats), the tiles (promotion area and deploy base) and the free cells to deploy on. Computed
//! for both sides and subtracted, so the score is colour-symmetric.

use polydam_tables::hex::HexGeometry;

use super::movegen::{cells, deploy_cells, reach_targets, walk, Position};
use crate::game::Side;

/// Worth of a stack by size (index = size, capped at 8).
const STACK_VALUE: [i32; 9] = [0, 100, 160, 210, 255, 295, 330, 360, 385];
/// A stack that can promote on its next move.
const PROMOTION_IN_REACH: i32 = 25;
/// Per cell a stack can move to.
const REACH: i32 = 2;
/// Per tile of the side's colour.
const TILE: i32 = 8;
/// Per cell the side could deploy on.
const DEPLOY_ROOM: i32 = 3;
/// Per enemy stack within capture reach of one of the side's stacks.
const THREAT: i32 = 6;

fn side_score(g: &HexGeometry, pos: &Position, side: Side) -> i32 {
    let us = side.index();
    let free = !pos.occupied() & g.mask;
    let enemies = pos.stacks[1 - us];
    let mut score = 0;
    let mut threatened = 0u64;
    for c in cells(pos.stacks[us]) {
        let size = pos.sizes[c];
        // Card: a capture reaches any enemy within s steps through disc-free cells.
        reach_targets(g, c, size as u32, free | 1u64 << c, enemies, |t, _| {
            threatened |= 1u64 << t
        });
        score += STACK_VALUE[(size as usize).min(8)];
        let odd = size % 2 == 1;
        let dests = walk(g, c, size as u32, free, side, odd);
        score += REACH * dests.count_ones() as i32;
        let promo_tiles = if odd {
            pos.tiles[1 - us]
        } else {
            pos.tiles[us]
        };
        if dests & promo_tiles != 0 {
            score += PROMOTION_IN_REACH;
        }
    }
    score += THREAT * threatened.count_ones() as i32;
    score += TILE * pos.tiles[us].count_ones() as i32;
    score += DEPLOY_ROOM * deploy_cells(g, pos, side).count_ones() as i32;
    score
}

/// Static evaluation from the side to move's point of view.
pub fn evaluate(g: &HexGeometry, pos: &Position) -> i32 {
    side_score(g, pos, pos.side) - side_score(g, pos, pos.side.opponent())
}
