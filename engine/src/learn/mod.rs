//! The learned evaluation's shared parts: the sparse features of positions ([`features`];
//! each family implements them), the weights file format ([`weights`]), where the weights
//! come from ([`source`]) and what the families' learned evaluations share ([`linear`]:
//! count features, fixed point). Fitting the weights is the workshop's job: the program's
//! `forge` (see `docs/training.md`).

pub mod features;
pub mod linear;
pub mod source;
pub mod weights;
