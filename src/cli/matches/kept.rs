//! The game a referee keeps, seen through the object-safe [`Kept`], so that the referee and
//! its players are written once and not compiled once per game. [`KeptGame`] is the one
//! generic implementation.

use polydam_engine::game::{Game, MoveStyle, Side};
use polydam_engine::record::GameRecord;
use polydam_protocol::dxp::game::{move_to_dxp, position_to_dxp};
use polydam_protocol::dxp::message::{DxpMove, DxpPosition};
use polydam_protocol::dxp::session::exchange::{self, Decision};

use crate::openings::Opening;
use crate::pdn::PdnResult;

/// A game in progress, kept by the referee with the variant's rules.
pub trait Kept {
    /// The plies played so far, the opening's included.
    fn plies(&self) -> usize;

    /// The side to move.
    fn side_to_move(&self) -> Side;

    /// The result and its reason when the game is over by the variant's rules (the position
    /// decides it, the side to move has no move, or a draw rule applies), else `None`: the
    /// rules' verdict as the DXP session words it.
    fn rules_end(&self) -> Option<(PdnResult, String)>;

    /// Plays `text` if it is one legal move of the current position; returns its Hub and PDN
    /// texts, or `None` (and plays nothing) when it is not.
    fn play_text(&mut self, text: &str) -> Option<[String; 2]>;

    /// The current position for a DXP game request: `None` when it is the variant's start
    /// with White to move.
    fn dxp_position(&self) -> Result<Option<DxpPosition>, String>;

    /// The move of ply `ply` (from 0) in DXP form.
    fn dxp_move(&self, ply: usize) -> Result<DxpMove, String>;
}

/// [`Kept`] for the game `G`.
pub struct KeptGame<G: Game>(GameRecord<G>);

/// What a game from an opening starts with: the kept game (the opening played), the Hub text
/// of the start position, and the opening's moves as Hub and as PDN texts.
pub struct Started {
    /// The game.
    pub game: Box<dyn Kept>,
    /// The start position, as a Hub `pos=` value.
    pub start_hub: String,
    /// The opening's moves, Hub style.
    pub hub_moves: Vec<String>,
    /// The opening's moves, PDN style.
    pub pdn_moves: Vec<String>,
}

impl<G: Game> KeptGame<G> {
    /// The game from `opening`, its moves played.
    pub fn start(opening: &Opening<G>) -> Started {
        let mut record = GameRecord::<G>::new(opening.start);
        let mut hub_moves = Vec::new();
        let mut pdn_moves = Vec::new();
        for mv in &opening.moves {
            let pos = *record.current();
            hub_moves.push(G::move_text(&pos, mv, MoveStyle::Hub));
            pdn_moves.push(G::move_text(&pos, mv, MoveStyle::Pdn));
            record.push(*mv);
        }
        Started {
            game: Box::new(KeptGame(record)),
            start_hub: G::hub_position(&opening.start),
            hub_moves,
            pdn_moves,
        }
    }
}

impl<G: Game> Kept for KeptGame<G> {
    fn plies(&self) -> usize {
        self.0.moves().len()
    }

    fn side_to_move(&self) -> Side {
        G::side_to_move(self.0.current())
    }

    fn rules_end(&self) -> Option<(PdnResult, String)> {
        let (decision, why) = exchange::rules_end(&self.0)?;
        let result = match decision {
            Decision::Win(side) => PdnResult::win_for(side),
            Decision::Draw => PdnResult::Draw,
        };
        Some((result, why))
    }

    fn play_text(&mut self, text: &str) -> Option<[String; 2]> {
        let pos = *self.0.current();
        let mv = G::parse_move(&pos, text).ok()?;
        let texts = [
            G::move_text(&pos, &mv, MoveStyle::Hub),
            G::move_text(&pos, &mv, MoveStyle::Pdn),
        ];
        self.0.push(mv);
        Some(texts)
    }

    fn dxp_position(&self) -> Result<Option<DxpPosition>, String> {
        let pos = self.0.current();
        if *pos == G::start() && G::side_to_move(pos) == Side::White {
            return Ok(None);
        }
        position_to_dxp::<G>(pos)
            .map(Some)
            .map_err(|e| e.to_string())
    }

    fn dxp_move(&self, ply: usize) -> Result<DxpMove, String> {
        let (Some(pos), Some(mv)) = (self.0.positions().get(ply), self.0.moves().get(ply)) else {
            return Err(format!("no move {}", ply + 1));
        };
        move_to_dxp::<G>(pos, mv, 0).map_err(|e| e.to_string())
    }
}
