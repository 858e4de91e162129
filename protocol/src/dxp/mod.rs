//! DamExchange (DXP), the protocol 10x10 draughts programs play each other over: Kingsrow,
//! Scan, Moby Dam, Damage, Dragon and pydraughts' `DXPEngine` speak it.
//!
//! - [`message`]: the seven messages (GAMEREQ, GAMEACC, MOVE, GAMEEND, CHAT, BACKREQ,
//!   BACKACC) as typed values, read from and written to bytes, with a typed [`DxpError`] for
//!   every way a message can be malformed;
//! - [`frame`]: reassembly of `\0`-terminated messages from TCP reads that split or merge them;
//! - [`conn`]: a TCP connection that sends whole messages and receives them with a deadline;
//! - [`game`]: positions and moves of the wire as a variant's own, with the variant's checks
//!   (an illegal GAMEREQ position, a move that is not legal in the game's position).
//!
//! - [`session`]: the session that plays games, as initiator or follower, used by `polydam dxp`
//!   and by the match runner's DXP engines; it prints nothing and reports through a trait.
//!
//! The protocol is summed up in `docs/dxp.md`.
//!
//! [`DxpError`]: message::DxpError

pub mod conn;
pub mod frame;
pub mod game;
pub mod message;
pub mod session;
