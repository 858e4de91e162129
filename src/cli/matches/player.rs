//! An engine of a match as the referee drives it, whichever protocol it speaks: Hub over a
//! child process's pipes ([`HubEngine`]) or DXP over TCP ([`DxpEngine`]).

use std::time::Duration;

use polydam_engine::game::Side;

use super::dxp_engine::DxpEngine;
use super::engine::{Answer, EngineFailure, HubEngine};
use super::kept::Kept;
use super::settings::{EngineSpec, Protocol, RefereeConfig};
use crate::pdn::PdnResult;

/// What the referee asks of the engine to move.
pub struct Turn<'a> {
    /// The game so far (from the opening's start position).
    pub record: &'a dyn Kept,
    /// Hub: the `pos` line.
    pub pos_line: &'a str,
    /// Hub: the `level` lines.
    pub level_lines: &'a [String],
    /// How long the answer may take.
    pub timeout: Duration,
}

/// A running engine.
#[derive(Debug)]
pub enum Player {
    /// A Hub engine.
    Hub(HubEngine),
    /// A DXP engine.
    Dxp(DxpEngine),
}

impl Player {
    /// Starts (or connects to) the engine of `spec`; each handshake answer must come within
    /// `timeout`.
    pub fn start(spec: &EngineSpec, variant: &str, timeout: Duration) -> Result<Player, String> {
        match &spec.protocol {
            Protocol::Hub => HubEngine::start(spec, variant, timeout).map(Player::Hub),
            Protocol::Dxp(target) => DxpEngine::start(target, timeout).map(Player::Dxp),
        }
    }

    /// The name the engine gave (Hub `id name=`), or its program's or address's.
    pub fn id_name(&self) -> &str {
        match self {
            Player::Hub(e) => &e.id_name,
            Player::Dxp(e) => &e.id_name,
        }
    }

    /// Starts a game from `opening` (its last position), `opening_plies` into the record, with
    /// the engine playing `side`.
    pub fn new_game(
        &mut self,
        opening: &dyn Kept,
        side: Side,
        config: &RefereeConfig,
    ) -> Result<(), EngineFailure> {
        match self {
            Player::Hub(e) => e.new_game(),
            Player::Dxp(e) => e.new_game(opening, side, config),
        }
    }

    /// The engine's move.
    pub fn think(&mut self, turn: &Turn<'_>) -> Result<Answer, EngineFailure> {
        match self {
            Player::Hub(e) => e.think(turn.pos_line, turn.level_lines, turn.timeout),
            Player::Dxp(e) => e.think(turn.record, turn.timeout),
        }
    }

    /// Tells the engine the game is over (DXP: GAMEEND and its confirmation); `false` when
    /// the engine should be restarted before its next game.
    pub fn game_over(&mut self, result: PdnResult, side: Side) -> bool {
        match self {
            Player::Hub(_) => true,
            Player::Dxp(e) => e.game_over(result, side),
        }
    }

    /// Ends the engine at once.
    pub fn kill(&mut self) {
        match self {
            Player::Hub(e) => e.kill(),
            Player::Dxp(e) => e.kill(),
        }
    }
}
