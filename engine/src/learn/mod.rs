//! Learning the evaluation from games: the training-data format that `polydam selfplay`
//! writes and `polydam train` reads, sparse features of positions, and the logistic
//! regression that fits their weights (see `docs/training.md`); [`linear`] holds what the
//! families' learned evaluations share (count features, fixed point, loading weights files).

pub mod data;
pub mod features;
pub mod linear;
pub mod logistic;
pub mod weights;
