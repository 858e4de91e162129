//! The `polydam` program as a library: one module per subcommand under [`cli`], each a function
//! that takes its typed options and returns `Result<(), CliError>`. `src/main.rs` parses the
//! command line with clap and dispatches; the Hub session itself lives in `polydam-protocol`.

#![forbid(unsafe_code)]

pub mod cli;
pub mod openings;
pub mod pdn;
