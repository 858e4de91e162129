//! Polydam's front ends: the Hub protocol (lexer, typed commands, replies, session) and the
//! command-line subcommands of the `polydam` binary.

pub mod cli;
pub mod command;
pub mod lexer;
pub mod reply;
