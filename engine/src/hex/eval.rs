//! Evaluation of hex Seesaw positions.
//!
//! Per side: stacks by size (a stack of size s takes up to s steps and captures anything within
//! s steps, card "a stack of size s takes 1..s steps"), a bonus when the stack can reach a cell
//! where it would promote this turn (an opponent's tile for an odd stack, an own tile for an
//! even one: the "distance to the next promotion" at its shortest), its reach (cells it can move
//! to), the enemy stacks within its capture reach (threats), the tiles (promotion area and deploy base) and the free cells to deploy on. Computed
//! for both sides and subtracted, so the score is colour-symmetric.
//!
//! Learned weights (see [`super::learned`]), when the board has them, are added to this hand
//! evaluation (or replace it, for weights trained with `--base none`).

use polydam_tables::hex::HexGeometry;

use super::learned::{learned, Learned};
use super::movegen::{cells, deploy_cells, reach_targets, walk, Position};
use super::HexBoard;
use crate::game::Side;
use crate::learn::weights::Base;

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

/// The static evaluation of board `B`'s position from the side to move's point of view, in
/// hundredths of a 1-stack: the board's learned weights (see [`super::learned`]) on their
/// base, or the hand evaluation alone.
#[inline]
pub fn evaluate<B: HexBoard>(pos: &Position) -> i32 {
    evaluate_with(learned::<B>(), B::GEOMETRY, pos)
}

/// The static evaluation on board `g` with the learned weights `learned` (`None`: the hand
/// evaluation alone).
#[inline(always)]
pub fn evaluate_with(learned: Option<&Learned>, g: &HexGeometry, pos: &Position) -> i32 {
    match learned {
        None => hand_evaluate(g, pos),
        Some(l) => {
            // The weights were fitted on top of their base: the same base must be under them.
            let base = match l.base() {
                Base::Hand => hand_evaluate(g, pos),
                Base::None => 0,
            };
            base + l.evaluate(pos)
        }
    }
}

/// The hand-written evaluation from the side to move's point of view (the base of learned
/// weights trained with `--base hand`).
pub fn hand_evaluate(g: &HexGeometry, pos: &Position) -> i32 {
    side_score(g, pos, pos.side) - side_score(g, pos, pos.side.opponent())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::learned::tests::{features, mirror, random_file, random_game, twin};
    use crate::hex::{Side4, Side5};

    /// With random weights on either base: the evaluation is the base plus the sum of the
    /// active weights (within the rounding to 1/8 of each), and the twin of every position
    /// (board turned, colours swapped, the other side to move) scores the same for its side
    /// to move, as the hand evaluation does; so does the mirror image.
    fn check_learned_evaluation<B: HexBoard>() {
        let g = B::GEOMETRY;
        for (seed, base) in [(3, Base::Hand), (4, Base::None)] {
            let file = random_file::<B>(seed, base);
            let l = Learned::from_file::<B>(&file, "test").expect("random weights load");
            for game in 1..=4 {
                random_game::<B>(game, 150, |pos| {
                    let (t, m) = (twin::<B>(pos), mirror::<B>(pos));
                    let hand = hand_evaluate(g, pos);
                    assert_eq!(hand, hand_evaluate(g, &t));
                    assert_eq!(hand, hand_evaluate(g, &m));
                    let got = evaluate_with(Some(&l), g, pos);
                    assert_eq!(got, evaluate_with(Some(&l), g, &t));
                    assert_eq!(got, evaluate_with(Some(&l), g, &m));
                    let f = features::<B>(pos);
                    let mut sum = match base {
                        Base::Hand => hand as f64,
                        Base::None => 0.0,
                    };
                    sum += f.iter().map(|&i| file.weights[i]).sum::<f64>();
                    let slack = 0.5 + f.len() as f64 / 16.0;
                    assert!((got as f64 - sum).abs() <= slack, "{got} vs {sum}");
                });
            }
        }
    }

    #[test]
    fn learned_evaluation_is_hand_plus_weights_and_colour_symmetric() {
        check_learned_evaluation::<Side4>();
        check_learned_evaluation::<Side5>();
    }
}
