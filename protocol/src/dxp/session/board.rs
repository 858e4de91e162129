//! The game a [`super::DxpSession`] plays, seen through the object-safe [`DxpBoard`]: the
//! session, its exchanges and its reports are written once and not compiled once per game;
//! [`board`] makes the one generic implementation, which owns the searcher, the initiator's
//! start positions and the game in progress.

use polydam_engine::game::{Game, MoveStyle, Side};
use polydam_engine::record::GameRecord;
use polydam_engine::search::{Limits, SearchControl, Searcher};

use super::exchange::{rules_end, Decision};
use crate::dxp::game::{move_from_dxp, move_to_dxp, position_from_dxp, position_to_dxp, GameError};
use crate::dxp::message::{Acceptance, DxpMove, DxpPosition};

/// Where a game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// The initiator's start position of this index.
    Opening(usize),
    /// The position of the last GAMEREQ accepted ([`DxpBoard::accept`]).
    Accepted,
}

/// What the report of a finished game needs to know of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFacts {
    /// The variant's canonical name.
    pub variant: &'static str,
    /// The plies played.
    pub plies: usize,
    /// The start position's FEN, when it is not the variant's start.
    pub start_fen: Option<String>,
    /// Whether the side to move at the start is not the variant's first player.
    pub second_player_starts: bool,
}

/// One variant's game, searcher and start positions, as a DXP session plays them.
pub trait DxpBoard {
    /// The number of the initiator's start positions.
    fn openings(&self) -> usize;

    /// The start position `opening` for a GAMEREQ: `None` when it is the variant's start with
    /// White to move.
    fn request_position(&self, opening: usize) -> Result<Option<DxpPosition>, GameError>;

    /// Checks the start position of a GAMEREQ (`None`: the variant's start) and keeps it as
    /// [`Start::Accepted`], or gives the code and reason to refuse it.
    fn accept(&mut self, position: Option<&DxpPosition>) -> Result<(), (Acceptance, String)>;

    /// Forgets what the searcher learnt (a new game).
    fn clear_search(&mut self);

    /// Starts a game from `start`; returns the start's FEN when it is not the variant's start.
    fn begin(&mut self, start: Start) -> Option<String>;

    /// The side to move.
    fn side_to_move(&self) -> Side;

    /// The side that moved first in the game.
    fn first_mover(&self) -> Side;

    /// The plies played in the game.
    fn plies(&self) -> usize;

    /// The rules' decision and its reason when the game is over by them.
    fn rules_end(&self) -> Option<(Decision, String)>;

    /// Searches the current position within `limits`; whether a move was found (kept for
    /// [`DxpBoard::found_move`] and [`DxpBoard::play_found`]).
    fn search(&mut self, limits: &Limits) -> bool;

    /// The move found, in DXP form, with the seconds it took.
    fn found_move(&self, seconds: u16) -> Result<DxpMove, GameError>;

    /// Plays the move found.
    fn play_found(&mut self);

    /// Plays the opponent's move if it is legal.
    fn play_dxp(&mut self, mv: &DxpMove) -> Result<(), GameError>;

    /// The game's moves in PDN style.
    fn pdn_moves(&self) -> &[String];

    /// What the report of the game needs.
    fn facts(&self) -> GameFacts;
}

/// The [`DxpBoard`] of the game `G`, with its searcher, the initiator's start positions
/// (empty for a follower) and the opening book its moves come from while it has the position.
pub fn board<G: Game>(
    searcher: Searcher<G>,
    openings: Vec<G::Position>,
    book: crate::book::BookPlayer<G>,
) -> Box<dyn DxpBoard> {
    Box::new(BoardOf::<G> {
        searcher,
        book,
        openings,
        accepted: G::start(),
        record: GameRecord::new(G::start()),
        pdn_moves: Vec::new(),
        found: None,
    })
}

/// [`DxpBoard`] for `G`.
struct BoardOf<G: Game> {
    searcher: Searcher<G>,
    book: crate::book::BookPlayer<G>,
    openings: Vec<G::Position>,
    accepted: G::Position,
    record: GameRecord<G>,
    pdn_moves: Vec<String>,
    found: Option<G::Move>,
}

impl<G: Game> DxpBoard for BoardOf<G> {
    fn openings(&self) -> usize {
        self.openings.len()
    }

    fn request_position(&self, opening: usize) -> Result<Option<DxpPosition>, GameError> {
        let start = self.openings[opening];
        if start == G::start() && G::side_to_move(&start) == Side::White {
            return Ok(None);
        }
        position_to_dxp::<G>(&start).map(Some)
    }

    fn accept(&mut self, position: Option<&DxpPosition>) -> Result<(), (Acceptance, String)> {
        let start = match position {
            None => G::start(),
            Some(p) => {
                position_from_dxp::<G>(p).map_err(|e| (Acceptance::NotThisGame, e.to_string()))?
            }
        };
        if let Some((_, why)) = rules_end(&GameRecord::<G>::new(start)) {
            let why = format!("the game is already over in this position ({why})");
            return Err((Acceptance::NotThisGame, why));
        }
        self.accepted = start;
        Ok(())
    }

    fn clear_search(&mut self) {
        self.searcher.clear();
    }

    fn begin(&mut self, start: Start) -> Option<String> {
        let start = match start {
            Start::Opening(i) => self.openings[i],
            Start::Accepted => self.accepted,
        };
        self.record = GameRecord::new(start);
        self.pdn_moves.clear();
        self.found = None;
        (start != G::start()).then(|| G::fen(&start))
    }

    fn side_to_move(&self) -> Side {
        G::side_to_move(self.record.current())
    }

    fn first_mover(&self) -> Side {
        let start = self
            .record
            .positions()
            .first()
            .unwrap_or(self.record.current());
        G::side_to_move(start)
    }

    fn plies(&self) -> usize {
        self.record.moves().len()
    }

    fn rules_end(&self) -> Option<(Decision, String)> {
        rules_end(&self.record)
    }

    fn search(&mut self, limits: &Limits) -> bool {
        if let Some((mv, _, _)) = self.book.choose(self.record.current()) {
            self.found = Some(mv);
            return true;
        }
        let control = SearchControl::new();
        let found = self
            .searcher
            .search(&self.record, limits, &control, &mut |_| {});
        self.found = found.best_move;
        self.found.is_some()
    }

    fn found_move(&self, seconds: u16) -> Result<DxpMove, GameError> {
        let pos = self.record.current();
        match &self.found {
            Some(mv) => move_to_dxp::<G>(pos, mv, seconds),
            None => Err(GameError::IllegalPosition("no move was found".into())),
        }
    }

    fn play_found(&mut self) {
        if let Some(mv) = self.found.take() {
            let pos = *self.record.current();
            self.pdn_moves.push(G::move_text(&pos, &mv, MoveStyle::Pdn));
            self.record.push(mv);
        }
    }

    fn play_dxp(&mut self, mv: &DxpMove) -> Result<(), GameError> {
        let pos = *self.record.current();
        let mv = move_from_dxp::<G>(&pos, mv)?;
        self.pdn_moves.push(G::move_text(&pos, &mv, MoveStyle::Pdn));
        self.record.push(mv);
        Ok(())
    }

    fn pdn_moves(&self) -> &[String] {
        &self.pdn_moves
    }

    fn facts(&self) -> GameFacts {
        let start = self
            .record
            .positions()
            .first()
            .unwrap_or(self.record.current());
        let fen = G::fen(start);
        GameFacts {
            variant: G::NAME,
            plies: self.record.moves().len(),
            start_fen: (fen != G::fen(&G::start())).then_some(fen),
            second_player_starts: G::side_to_move(start) != G::side_to_move(&G::start()),
        }
    }
}
