//! Polydam's front ends: the Hub protocol (lexer, typed commands, replies, session) and the
//! command-line subcommands of the `polydam` binary.

pub mod cli;
pub mod command;
pub mod driver;
pub mod io;
pub mod lexer;
pub mod numbering;
pub mod params;
pub mod reply;
pub mod session;
