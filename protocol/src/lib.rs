//! Polydam's wire protocols as a library: the Hub protocol (lexer, typed commands, replies,
//! session state machine, the driver that runs a session over stdin/stdout) and DamExchange
//! ([`dxp`]: messages, reassembly over TCP, positions and moves of the wire). No command-line
//! parsing here: the `polydam` program at the workspace root drives it.

#![forbid(unsafe_code)]

pub mod book;
pub mod command;
pub mod driver;
pub mod dxp;
pub mod egtb;
pub mod io;
pub mod lexer;
pub mod numbering;
pub mod params;
pub mod reply;
pub mod session;
