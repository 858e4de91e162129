//! Learning the evaluation from games: the training-data format that `polydam selfplay`
//! writes (see `docs/training.md`).

pub mod data;
