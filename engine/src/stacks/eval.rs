//! Evaluation of Seesaw Draughts positions.
//!
//! A stack's worth grows with its size (its capture range, card: "a stack of size n captures
//! ... an enemy stack that is 1..n squares away"), up to the size 6 that reaches every target
//! on 8x8; beyond that extra pieces only change the parity. Every stack is also valued by how
//! close it is to its next promotion: an odd stack by its distance to the far rank, an even one
//! by its distance to its own back rank (card: "size parity sets the stepping direction"), and
//! a side gets a little for each quiet step it can make (no move loses) and for each enemy stack
//! it could take at once (threats). Everything is computed
//! for both colours with mirrored rows and subtracted, so the score is colour-symmetric.
//!
//! Learned weights (see [`super::learned`]), when the variant has them, are added to this hand
//! evaluation (or replace it, for weights trained with `--base none`).

use polydam_tables::diagonal::EIGHT;

use super::learned::{learned, Learned};
use super::movegen::{bits, capture_in, count_quiet, range_of, Position, MASK};
use crate::game::Side;
use crate::learn::weights::Base;

/// Worth of a stack by size (index = size, capped at 7).
const STACK_VALUE: [i32; 8] = [0, 100, 170, 230, 280, 320, 350, 360];
/// Bonus by rows still to go before the next promotion (0 = none left, the stack is there).
const PROMOTION_NEAR: [i32; 8] = [0, 30, 20, 13, 8, 4, 2, 0];
/// Per quiet step available.
const MOBILITY: i32 = 2;
/// Per enemy stack that one of the side's stacks could take at once (a first jump).
const THREAT: i32 = 6;

/// Internal row (0 = top, Black's back rank) of each bit index.
const ROW_OF_BIT: [u8; 36] = {
    let mut out = [0u8; 36];
    let mut b = 0;
    while b < 36 {
        if let Some(s) = EIGHT.square_of_bit(b as u32) {
            out[b] = (s / 4) as u8;
        }
        b += 1;
    }
    out
};

/// Enemy stacks `side` could take with a first jump: its reach and threats (card: a stack of
/// size n captures an enemy 1..n squares away with an empty square right behind).
fn threatened(pos: &Position, side: Side) -> u64 {
    let own = pos.stacks[side.index()];
    let enemy = pos.stacks[side.opponent().index()];
    let empty = !(own | enemy) & MASK;
    let mut victims = 0;
    for s in bits(own) {
        let range = range_of(pos.size_at(s.trailing_zeros()));
        for d in 0..4 {
            victims |= capture_in(s, d, range, empty | s, enemy).0;
        }
    }
    victims
}

fn side_score(pos: &Position, side: Side) -> i32 {
    let mut score = THREAT * threatened(pos, side).count_ones() as i32;
    for s in bits(pos.stacks[side.index()]) {
        let bit = s.trailing_zeros() as usize;
        let size = pos.sizes[bit];
        score += STACK_VALUE[(size as usize).min(7)];
        // Rows from the own back rank (0) to the far rank (7).
        let row = ROW_OF_BIT[bit] as usize;
        let advance = match side {
            Side::White => 7 - row,
            Side::Black => row,
        };
        let to_go = if size % 2 == 1 { 7 - advance } else { advance };
        score += PROMOTION_NEAR[to_go];
    }
    score
}

/// The static evaluation from the side to move's point of view, in hundredths of a stack:
/// the learned weights (see [`super::learned`]) on their base, or the hand evaluation alone.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(learned(), pos)
}

/// The static evaluation with the learned weights `learned` (`None`: the hand evaluation
/// alone).
#[inline(always)]
pub fn evaluate_with(learned: Option<&Learned>, pos: &Position) -> i32 {
    match learned {
        None => hand_evaluate(pos),
        Some(l) => {
            // The weights were fitted on top of their base: the same base must be under them.
            let base = match l.base() {
                Base::Hand => hand_evaluate(pos),
                Base::None => 0,
            };
            base + l.evaluate(pos)
        }
    }
}

/// The hand-written evaluation from the side to move's point of view (the base of learned
/// weights trained with `--base hand`).
pub fn hand_evaluate(pos: &Position) -> i32 {
    let us = pos.side;
    let mut score = side_score(pos, us) - side_score(pos, us.opponent());
    let mut flipped = *pos;
    flipped.side = us.opponent();
    score += MOBILITY * (count_quiet(pos) as i32 - count_quiet(&flipped) as i32);
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stacks::learned::tests::{features, random_file, random_game, twin};

    /// With random weights on either base: the evaluation is the base plus the sum of the
    /// active weights (within the rounding to 1/8 of each), and the twin of every position
    /// (board turned, colours swapped, the other side to move) scores the same for its side
    /// to move, as the hand evaluation does.
    #[test]
    fn learned_evaluation_is_hand_plus_weights_and_colour_symmetric() {
        for (seed, base) in [(3, Base::Hand), (4, Base::None)] {
            let file = random_file(seed, base);
            let l = Learned::from_file(&file, "test").expect("random weights load");
            for game in 1..=6 {
                random_game(game, 300, |pos| {
                    let t = twin(pos);
                    assert_eq!(hand_evaluate(pos), hand_evaluate(&t));
                    let got = evaluate_with(Some(&l), pos);
                    assert_eq!(got, evaluate_with(Some(&l), &t));
                    let f = features(pos);
                    let mut sum = match base {
                        Base::Hand => hand_evaluate(pos) as f64,
                        Base::None => 0.0,
                    };
                    sum += f.iter().map(|&i| file.weights[i]).sum::<f64>();
                    let slack = 0.5 + f.len() as f64 / 16.0;
                    assert!((got as f64 - sum).abs() <= slack, "{got} vs {sum}");
                });
            }
        }
    }
}
