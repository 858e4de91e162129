//! Sparse features of a position for a linear evaluation: a position is the set of its active
//! feature indices (each with the implicit value 1), and a linear evaluation is the sum of
//! their weights. Features are seen from the side to move, so that one weight serves both
//! colours and the evaluation stays colour-symmetric.
//!
//! This module holds what is generic: the kinds of feature set and the [`Features`] trait. Each
//! family implements it beside its learned evaluation, which numbers the same features:
//! `diagonal::features` (`diagonal-psq-v1`, and `diagonal-patterns-v1`: overlapping 4x4 board
//! windows, 3^8 states each, middle-game and endgame tables), `orthogonal::features`
//! (`orthogonal-lines-v2`: ranks and files, and `orthogonal-psq-v1`), `stacks::features`
//! (`stacks-psq-v1`) and `hex::features` (`hex-psq-v1`); all end with material counts (see
//! [`super::linear::CountTail`]). The formats are in `docs/training.md`.

use crate::game::Game;
use crate::learn::source::{WeightsError, WeightsSource};

/// Which feature set to extract (`polydam train --features NAME`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FeatureKind {
    /// Piece-square features plus material counts (the default): men and kings by square
    /// (diagonal); stacks by size bucket and square, with middle-game and endgame tables
    /// (Seesaw Draughts); tile and stack by cell, likewise (hex Seesaw).
    #[default]
    Psq,
    /// The family's board patterns (3^8 states each, middle-game and endgame tables) plus
    /// material counts: overlapping 4x4 windows (diagonal), ranks and files (orthogonal).
    Patterns,
}

impl FeatureKind {
    /// Every kind, in the order they are listed.
    pub const ALL: [FeatureKind; 2] = [FeatureKind::Psq, FeatureKind::Patterns];

    /// The kind's short name, as `--features` takes it.
    pub const fn name(self) -> &'static str {
        match self {
            FeatureKind::Psq => "psq",
            FeatureKind::Patterns => "patterns",
        }
    }

    /// The kind called `name` (see [`FeatureKind::name`]), if any.
    pub fn from_name(name: &str) -> Option<FeatureKind> {
        FeatureKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A family whose positions can be described by sparse features.
pub trait Features: Game {
    /// The feature sets this family offers; the first is what `polydam train` fits when it is
    /// not given `--features`.
    fn feature_kinds() -> &'static [FeatureKind];

    /// The feature set's name, written in weights files so that weights are never read for
    /// another set (it changes whenever the indices change). `kind` must be one of
    /// [`Features::feature_kinds`], as for every method below.
    fn feature_set(kind: FeatureKind) -> String;

    /// The number of features: every index is below it.
    fn feature_count(kind: FeatureKind) -> usize;

    /// Appends the active features of `pos` (seen from the side to move) to `out`; an index
    /// may appear more than once, counting that many times.
    fn features(kind: FeatureKind, pos: &Self::Position, out: &mut Vec<u32>);

    /// Appends the active features of `pos` with their values to `out`: what `polydam train`
    /// fits, the evaluation being the sum of each weight times its value. By default every
    /// feature of [`Features::features`] with the value 1; a set that blends two tables
    /// (`diagonal-patterns-v2`) gives each its share.
    fn feature_values(kind: FeatureKind, pos: &Self::Position, out: &mut Vec<(u32, f32)>) {
        let mut plain = Vec::new();
        Self::features(kind, pos, &mut plain);
        out.extend(plain.into_iter().map(|f| (f, 1.0)));
    }

    /// A readable name of feature `index`, for the weights file.
    fn feature_name(kind: FeatureKind, index: usize) -> String;

    /// The hand-written evaluation of `pos` from the side to move's view, in hundredths of a
    /// man: the base that weights trained with `--base hand` are added to.
    fn hand_evaluation(pos: &Self::Position) -> i32;

    /// The variant name the game's learned weights are kept under (its own, or the variant
    /// it shares them with), or `None` when it has no learned evaluation.
    fn weights_name() -> Option<&'static str>;

    /// Builds the weights `source` gives this game, without using them yet: what
    /// `variants::set_weights` checks before it installs a source.
    fn prepare_weights(source: &WeightsSource) -> Result<(), WeightsError>;
}

/// Something to do with a game type and its feature sets, chosen at run time (see
/// `variants::dispatch_features`).
pub trait FeaturesVisitor {
    /// What the visit returns.
    type Output;
    /// Called with the variant's game type.
    fn visit<G: Features>(self) -> Self::Output;
}

#[cfg(test)]
pub(crate) mod testing {
    use super::{FeatureKind, Features};

    /// The active features of `fen` in `G`, sorted, each checked to be in range.
    pub(crate) fn sorted<G: Features>(kind: FeatureKind, fen: &str) -> Vec<u32> {
        let pos = G::parse_position(fen).expect("test position");
        let mut f = Vec::new();
        G::features(kind, &pos, &mut f);
        assert!(f.iter().all(|&i| (i as usize) < G::feature_count(kind)));
        f.sort_unstable();
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_read_back_from_their_names() {
        for kind in FeatureKind::ALL {
            assert_eq!(FeatureKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(FeatureKind::from_name("nosuch"), None);
    }
}
