//! Hex Seesaw's sparse features for learning (see [`crate::learn::features`]): its
//! piece-square set only, `hex-psq-v1`, numbered by [`super::learned`].

use super::learned::{self, HexLayout};
use super::{eval, Hex, HexBoard, Position};
use crate::learn::features::{FeatureKind, Features};
use crate::learn::source::{WeightsError, WeightsSource};

/// Hex Seesaw has its piece-square set only: `hex-psq-v1` (see [`crate::hex::learned`]),
/// whatever `kind` says.
impl<B: HexBoard> Features for Hex<B> {
    fn feature_kinds() -> &'static [FeatureKind] {
        &[FeatureKind::Psq]
    }

    fn feature_set(_kind: FeatureKind) -> String {
        HexLayout::of::<B>().name()
    }

    fn feature_count(_kind: FeatureKind) -> usize {
        HexLayout::of::<B>().total()
    }

    fn features(_kind: FeatureKind, pos: &Position, out: &mut Vec<u32>) {
        learned::active_features::<B>(pos, |i| out.push(i as u32));
    }

    fn feature_name(_kind: FeatureKind, index: usize) -> String {
        HexLayout::of::<B>().feature_name(index)
    }

    fn hand_evaluation(pos: &Position) -> i32 {
        eval::hand_evaluate(B::GEOMETRY, pos)
    }

    fn weights_name() -> Option<&'static str> {
        Some(B::NAME)
    }

    fn prepare_weights(source: &WeightsSource) -> Result<(), WeightsError> {
        learned::prepare::<B>(source)
    }
}
