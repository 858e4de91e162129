//! The orthogonal family's sparse features for learning (see [`crate::learn::features`]): its
//! `patterns`, `orthogonal-lines-v2` (the default), and `psq`, `orthogonal-psq-v1` (men and
//! kings by square), both numbered by [`super::learned`].

use super::learned::{self as lines, LineLayout};
use super::rules::Rules;
use super::{eval, Orthogonal, Position};
use crate::learn::features::{FeatureKind, Features};
use crate::learn::source::{WeightsError, WeightsSource};

impl<R: Rules> Features for Orthogonal<R> {
    fn feature_kinds() -> &'static [FeatureKind] {
        &[FeatureKind::Patterns, FeatureKind::Psq]
    }

    fn feature_set(kind: FeatureKind) -> String {
        ortho_layout::<R>(kind).name()
    }

    fn feature_count(kind: FeatureKind) -> usize {
        ortho_layout::<R>(kind).total()
    }

    fn features(kind: FeatureKind, pos: &Position, out: &mut Vec<u32>) {
        lines::active_features_in(ortho_layout::<R>(kind), pos, |i| out.push(i as u32));
    }

    fn feature_name(kind: FeatureKind, index: usize) -> String {
        ortho_layout::<R>(kind).feature_name(index)
    }

    fn hand_evaluation(pos: &Position) -> i32 {
        eval::hand_evaluate::<R>(pos)
    }

    fn weights_name() -> Option<&'static str> {
        R::learned_cell().map(|_| R::NAME)
    }

    fn prepare_weights(source: &WeightsSource) -> Result<(), WeightsError> {
        lines::prepare::<R>(source)
    }
}

/// The orthogonal layout of `kind`: the lines for `patterns`, piece-square for `psq`.
fn ortho_layout<R: Rules>(kind: FeatureKind) -> LineLayout {
    match kind {
        FeatureKind::Patterns => LineLayout::of::<R>(),
        FeatureKind::Psq => LineLayout::psq_of::<R>(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::features::testing::sorted;

    #[test]
    fn orthogonal_variants_have_lines_and_piece_squares() {
        use crate::orthogonal::rules::{Dameo, Turkish};
        type T = Orthogonal<Turkish>;
        let p = FeatureKind::Patterns;
        assert_eq!(T::feature_kinds(), &[p, FeatureKind::Psq]);
        assert_eq!(T::feature_set(FeatureKind::Psq), "orthogonal-psq-v1-16men");
        assert_eq!(T::feature_count(FeatureKind::Psq), 8 * 64 + 1 + 4 * 17);
        assert_eq!(T::feature_set(p), "orthogonal-lines-v2-16men");
        assert_eq!(T::feature_count(p), 2 * 16 * 6561 + 4 * 64 + 1 + 4 * 17);
        assert_eq!(
            Orthogonal::<Dameo>::feature_set(p),
            "orthogonal-lines-v2-18men"
        );
        // The twin (colours swapped, board turned, the other side to move) has the same
        // features; the same board with the other side to move does not.
        let f = sorted::<T>(p, "W:Wa2,Kc5,d3:Bb7,h6");
        assert_eq!(f.len(), 16 + 1 + 5);
        assert_eq!(f, sorted::<T>(p, "B:Wa3,g2:Be6,Kf4,h7"));
        assert_ne!(f, sorted::<T>(p, "B:Wa2,Kc5,d3:Bb7,h6"));
        assert_eq!(T::feature_name(p, T::feature_count(p) - 1), "opp-kings=16");
    }
}
