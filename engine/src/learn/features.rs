//! Sparse features of a position for a linear evaluation: a position is the set of its active
//! feature indices (each with the implicit value 1), and a linear evaluation is the sum of
//! their weights. Features are seen from the side to move, so that one weight serves both
//! colours and the evaluation stays colour-symmetric.
//!
//! The diagonal family's set (`diagonal-psq-v1`) is piece-square plus material counts; the
//! evaluation itself does not use it yet (see `docs/training.md`).

use crate::diagonal::rules::Rules;
use crate::diagonal::{Diagonal, Position};
use crate::game::{Game, Side};

/// A family whose positions can be described by sparse features.
pub trait Features: Game {
    /// The feature set's name, written in weights files so that weights are never read for
    /// another set (it changes whenever the indices change).
    fn feature_set() -> String;

    /// The number of features: every index is below it.
    fn feature_count() -> usize;

    /// Appends the active features of `pos` (seen from the side to move) to `out`; an index
    /// may appear more than once, counting that many times.
    fn features(pos: &Self::Position, out: &mut Vec<u32>);

    /// A readable name of feature `index`, for the weights file.
    fn feature_name(index: usize) -> String;
}

/// Something to do with a game type that has a feature set, chosen at run time
/// (see [`crate::variants::dispatch_features`]).
pub trait FeaturesVisitor {
    /// What the visit returns.
    type Output;
    /// Called with the variant's game type.
    fn visit<G: Features>(self) -> Self::Output;
}

/// The layout of `diagonal-psq-v1` on a board of `squares` squares and `men` men a side:
/// own men, own kings, opponent men, opponent kings on each square (side-relative: square 0
/// is the far corner of the side to move's promotion row), a bias, then one-hot counts of own
/// men, opponent men, own kings and opponent kings (0 to `men`, larger counts clamped).
#[derive(Clone, Copy, Debug)]
struct PsqLayout {
    squares: usize,
    men: usize,
}

impl PsqLayout {
    fn of<R: Rules>() -> PsqLayout {
        let g = R::SHEET.board;
        PsqLayout {
            squares: g.squares(),
            men: (g.half * (g.rows / 2 - 1)) as usize,
        }
    }

    fn bias(self) -> usize {
        4 * self.squares
    }

    fn count(self, group: usize, n: u32) -> usize {
        self.bias() + 1 + group * (self.men + 1) + (n as usize).min(self.men)
    }

    fn total(self) -> usize {
        self.bias() + 1 + 4 * (self.men + 1)
    }
}

const PIECE_GROUPS: [&str; 4] = ["own-man", "own-king", "opp-man", "opp-king"];
const COUNT_GROUPS: [&str; 4] = ["own-men", "opp-men", "own-kings", "opp-kings"];

impl<R: Rules> Features for Diagonal<R> {
    fn feature_set() -> String {
        let l = PsqLayout::of::<R>();
        format!("diagonal-psq-v1-{}sq", l.squares)
    }

    fn feature_count() -> usize {
        PsqLayout::of::<R>().total()
    }

    fn features(pos: &Position, out: &mut Vec<u32>) {
        let l = PsqLayout::of::<R>();
        let g = R::SHEET.board;
        let us = pos.side;
        // White starts at the bottom and moves towards square 0.
        let relative = |square: usize, side: Side| match side {
            Side::White => square,
            Side::Black => l.squares - 1 - square,
        };
        let mut counts = [0u32; 4];
        for (own, side) in [(true, us), (false, us.opponent())] {
            let mut bits = pos.pieces[side.index()];
            while bits != 0 {
                let bit = bits.trailing_zeros();
                bits &= bits - 1;
                let Some(square) = g.square_of_bit(bit) else {
                    continue;
                };
                let king = pos.kings & (1u64 << bit) != 0;
                let group = (!own as usize) * 2 + king as usize;
                out.push((group * l.squares + relative(square, us)) as u32);
                counts[(!own as usize) + 2 * king as usize] += 1;
            }
        }
        out.push(l.bias() as u32);
        for (group, n) in counts.into_iter().enumerate() {
            out.push(l.count(group, n) as u32);
        }
    }

    fn feature_name(index: usize) -> String {
        let l = PsqLayout::of::<R>();
        if index < l.bias() {
            format!("{}-{}", PIECE_GROUPS[index / l.squares], index % l.squares)
        } else if index == l.bias() {
            "bias".into()
        } else if index < l.total() {
            let i = index - l.bias() - 1;
            format!("{}={}", COUNT_GROUPS[i / (l.men + 1)], i % (l.men + 1))
        } else {
            format!("unused-{index}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagonal::rules::{International, Russian};

    type Intl = Diagonal<International>;

    fn sorted<G: Features>(fen: &str) -> Vec<u32> {
        let pos = G::parse_position(fen).expect("test position");
        let mut f = Vec::new();
        G::features(&pos, &mut f);
        assert!(f.iter().all(|&i| (i as usize) < G::feature_count()));
        f.sort_unstable();
        f
    }

    #[test]
    fn the_start_position_has_one_feature_per_piece_plus_five() {
        assert_eq!(Intl::feature_count(), 4 * 50 + 1 + 4 * 21);
        assert_eq!(sorted::<Intl>("W:W31-50:B1-20").len(), 40 + 5);
        assert_eq!(Diagonal::<Russian>::feature_count(), 4 * 32 + 1 + 4 * 13);
    }

    #[test]
    fn features_are_seen_from_the_side_to_move() {
        // The same position with colours swapped (board turned) and the other side to move.
        assert_eq!(
            sorted::<Intl>("W:W31,K45:B7,12"),
            sorted::<Intl>("B:W39,44:B20,K6")
        );
        assert_ne!(
            sorted::<Intl>("W:W31,K45:B7,12"),
            sorted::<Intl>("B:W31,K45:B7,12")
        );
    }

    #[test]
    fn every_feature_has_a_distinct_name() {
        let names: std::collections::HashSet<String> =
            (0..Intl::feature_count()).map(Intl::feature_name).collect();
        assert_eq!(names.len(), Intl::feature_count());
        assert!(names.contains("bias") && names.contains("own-men=20"));
    }
}
