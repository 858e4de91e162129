//! The `polydam` program's tests: the real binary driven through its command line and the Hub
//! protocol on stdin/stdout, in one test binary.

mod analysis_cli;
mod book_cli;
mod cli_tools;
mod common;
mod default_tables;
mod defects48;
mod dxp;
mod egtb_cli;
mod hostile_files;
mod hub_bad_input;
mod match_cli;
mod opening_decks;
mod play_cli;
mod selfplay_train;
mod transcripts;
mod web;
mod web_rules;
mod weights_cli;
