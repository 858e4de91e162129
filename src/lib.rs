//! The `polydam` program as a library: one module per subcommand under [`cli`], each a function
//! that takes its typed options and returns `Result<(), CliError>`; the workshop that makes
//! tables, training data, weights and books ([`forge`]); and what several commands share: the
//! PDN reader and writer ([`pdn`]), the openings ([`openings`]) and the writing of output files
//! ([`files`]). `src/main.rs` parses the
//! command line with clap and dispatches; the Hub and DXP sessions live in `polydam-protocol`.

#![forbid(unsafe_code)]

pub mod cli;
pub mod files;
pub mod forge;
pub mod openings;
pub mod pdn;
