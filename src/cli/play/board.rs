//! The game of `polydam play`, seen through the object-safe [`PlayBoard`], so that the table
//! (the input loop, the board, the commands) is written once and not compiled once per game;
//! [`board`] makes the one generic implementation, which owns the record and the searcher.

use polydam_engine::game::view::BoardView;
use polydam_engine::game::{Duplicates, Game, MoveError, MoveStyle, Outcome, Side};
use polydam_engine::record::{EndReason, GameRecord};
use polydam_engine::search::{Limits, SearchControl, Searcher};
use polydam_protocol::book::BookPlayer;

/// A game in progress, with the engine's searcher.
pub trait PlayBoard {
    /// The variant's canonical name.
    fn variant(&self) -> &'static str;

    /// The side to move.
    fn side_to_move(&self) -> Side;

    /// The side to move in the first position.
    fn first_side(&self) -> Side;

    /// The plies played.
    fn plies(&self) -> usize;

    /// The current position as drawn, the last move marked.
    fn view(&self) -> BoardView;

    /// The last move in PDN style, if a move was played.
    fn last_move(&self) -> Option<String>;

    /// The current position's FEN.
    fn fen(&self) -> String;

    /// The legal moves in PDN style, in generation order.
    fn legal_texts(&self) -> Vec<String>;

    /// How the game ended, if it did.
    fn outcome(&self) -> Option<(Outcome, EndReason)>;

    /// Why the game ended, in words, for `reason` (see [`EndReason::explain`]).
    fn end_text(&self, reason: EndReason) -> String;

    /// The engine's move in PDN style within `limits`, played when `play` is set.
    fn search(&mut self, limits: &Limits, play: bool) -> Option<String>;

    /// Plays the move `text` when it is legal.
    fn push_text(&mut self, text: &str) -> Result<(), MoveError>;

    /// Takes back the last ply; whether there was one.
    fn pop(&mut self) -> bool;

    /// Whether a position before the current one had `side` to move.
    fn had_to_move(&self, side: Side) -> bool;

    /// Goes back to the first position.
    fn restart(&mut self);

    /// The moves played, in PDN style.
    fn history(&self) -> Vec<String>;

    /// The first position's FEN when it is not the variant's start.
    fn start_fen(&self) -> Option<String>;

    /// Whether the first move was the variant's second player's (numbered `1...`).
    fn second_player_starts(&self) -> bool;
}

/// The [`PlayBoard`] of `G` from `initial`, searched by `searcher`, its moves taken from
/// `book` while the position is in it.
pub fn board<G: Game>(
    initial: GameRecord<G>,
    searcher: Searcher<G>,
    book: BookPlayer<G>,
) -> Box<dyn PlayBoard> {
    Box::new(BoardOf {
        record: initial.clone(),
        initial,
        searcher,
        book,
    })
}

/// [`PlayBoard`] for `G`.
struct BoardOf<G: Game> {
    initial: GameRecord<G>,
    record: GameRecord<G>,
    searcher: Searcher<G>,
    book: BookPlayer<G>,
}

impl<G: Game> PlayBoard for BoardOf<G> {
    fn variant(&self) -> &'static str {
        G::NAME
    }

    fn side_to_move(&self) -> Side {
        G::side_to_move(self.record.current())
    }

    fn first_side(&self) -> Side {
        let first = self.record.positions().first();
        G::side_to_move(first.unwrap_or(self.record.current()))
    }

    fn plies(&self) -> usize {
        self.record.moves().len()
    }

    fn view(&self) -> BoardView {
        G::board_view(self.record.current(), self.record.moves().last())
    }

    fn last_move(&self) -> Option<String> {
        let positions = self.record.positions();
        match (self.record.moves().last(), positions.len()) {
            (Some(mv), n) if n >= 2 => Some(G::move_text(&positions[n - 2], mv, MoveStyle::Pdn)),
            _ => None,
        }
    }

    fn fen(&self) -> String {
        G::fen(self.record.current())
    }

    fn legal_texts(&self) -> Vec<String> {
        let pos = self.record.current();
        let mut moves = Vec::new();
        G::generate(pos, Duplicates::Drop, &mut moves);
        let mut texts = Vec::with_capacity(moves.len());
        for m in &moves {
            texts.push(G::move_text(pos, m, MoveStyle::Pdn));
        }
        texts
    }

    fn outcome(&self) -> Option<(Outcome, EndReason)> {
        self.record.outcome()
    }

    fn end_text(&self, reason: EndReason) -> String {
        reason.explain::<G>(self.record.current())
    }

    fn search(&mut self, limits: &Limits, play: bool) -> Option<String> {
        // The engine's own moves come from the book while it has the position (a hint is a
        // search).
        if play {
            if let Some((mv, _, _)) = self.book.choose(self.record.current()) {
                let text = G::move_text(self.record.current(), &mv, MoveStyle::Pdn);
                self.record.push(mv);
                return Some(format!("{text} (book)"));
            }
        }
        let control = SearchControl::new();
        let result = self
            .searcher
            .search(&self.record, limits, &control, &mut |_| {});
        let mv = result.best_move?;
        let text = G::move_text(self.record.current(), &mv, MoveStyle::Pdn);
        if play {
            self.record.push(mv);
        }
        Some(text)
    }

    fn push_text(&mut self, text: &str) -> Result<(), MoveError> {
        self.record.push_text(text).map(|_| ())
    }

    fn pop(&mut self) -> bool {
        self.record.pop().is_some()
    }

    fn had_to_move(&self, side: Side) -> bool {
        let positions = self.record.positions();
        positions[..positions.len() - 1]
            .iter()
            .any(|p| G::side_to_move(p) == side)
    }

    fn restart(&mut self) {
        self.record = self.initial.clone();
    }

    fn history(&self) -> Vec<String> {
        self.record
            .moves()
            .iter()
            .zip(self.record.positions())
            .map(|(mv, pos)| G::move_text(pos, mv, MoveStyle::Pdn))
            .collect()
    }

    fn start_fen(&self) -> Option<String> {
        let first = G::fen(&self.record.positions()[0]);
        (first != G::fen(&G::start())).then_some(first)
    }

    fn second_player_starts(&self) -> bool {
        G::side_to_move(&self.record.positions()[0]) != G::side_to_move(&G::start())
    }
}
