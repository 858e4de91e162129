//! Learning the evaluation from games: the training-data format that `polydam selfplay`
//! writes and `polydam train` reads, sparse features of positions, and the logistic
//! regression that fits their weights (see `docs/training.md`).

pub mod data;
pub mod features;
pub mod logistic;
pub mod weights;
