//! Seesaw Draughts' sparse features for learning (see [`crate::learn::features`]): its
//! piece-square set only, `stacks-psq-v1`, numbered by [`super::learned`].

use super::learned::{self, PsqLayout};
use super::{eval, Position, SeesawDraughts};
use crate::game::Game;
use crate::learn::features::{FeatureKind, Features};
use crate::learn::source::{WeightsError, WeightsSource};

/// Seesaw Draughts has its piece-square set only: `stacks-psq-v1` (see
/// [`crate::stacks::learned`]), whatever `kind` says.
impl Features for SeesawDraughts {
    fn feature_kinds() -> &'static [FeatureKind] {
        &[FeatureKind::Psq]
    }

    fn feature_set(_kind: FeatureKind) -> String {
        PsqLayout::NAME.into()
    }

    fn feature_count(_kind: FeatureKind) -> usize {
        PsqLayout::TOTAL
    }

    fn features(_kind: FeatureKind, pos: &Position, out: &mut Vec<u32>) {
        learned::active_features(pos, |i| out.push(i as u32));
    }

    fn feature_name(_kind: FeatureKind, index: usize) -> String {
        PsqLayout::feature_name(index)
    }

    fn hand_evaluation(pos: &Position) -> i32 {
        eval::hand_evaluate(pos)
    }

    fn weights_name() -> Option<&'static str> {
        Some(SeesawDraughts::NAME)
    }

    fn prepare_weights(source: &WeightsSource) -> Result<(), WeightsError> {
        learned::prepare(source)
    }
}
