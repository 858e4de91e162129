//! A game record: the positions reached along a game, with the draw rules of the variant
//! (repetition, quiet-move count, endgame counters) applied as the game goes.

use crate::game::{Duplicates, Game, MoveError, Outcome};

/// Why a game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move has no legal move (or no piece).
    NoMoves,
    /// The position decides the game by itself (a breakthrough king, ...).
    Decided,
    /// The same position occurred the variant's number of times.
    Repetition,
    /// Too many successive reversible moves.
    QuietMoves,
    /// The endgame counter rule (FMJD 16/5 moves) ran out.
    EndgameCounter,
}

/// A game from some position on, with its draw counters.
#[derive(Debug)]
pub struct GameRecord<G: Game> {
    positions: Vec<G::Position>,
    moves: Vec<G::Move>,
    /// Plies since the last irreversible move, for each position.
    quiet_plies: Vec<u16>,
    /// Plies spent in the current endgame-counter material, for each position.
    endgame_plies: Vec<u16>,
}

// Written by hand: a derive would require `G: Clone`, and game types are markers.
impl<G: Game> Clone for GameRecord<G> {
    fn clone(&self) -> Self {
        GameRecord {
            positions: self.positions.clone(),
            moves: self.moves.clone(),
            quiet_plies: self.quiet_plies.clone(),
            endgame_plies: self.endgame_plies.clone(),
        }
    }
}

impl<G: Game> GameRecord<G> {
    /// A record starting at `start`.
    pub fn new(start: G::Position) -> Self {
        GameRecord {
            positions: vec![start],
            moves: Vec::new(),
            quiet_plies: vec![0],
            endgame_plies: vec![0],
        }
    }

    /// The current position.
    pub fn current(&self) -> &G::Position {
        // `positions` is never empty: `new` puts the start in and nothing removes it.
        &self.positions[self.positions.len() - 1]
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// All positions, the start first.
    pub fn positions(&self) -> &[G::Position] {
        &self.positions
    }

    /// Plies since the last irreversible move in the current position.
    pub fn quiet_plies(&self) -> u16 {
        self.quiet_plies.last().copied().unwrap_or(0)
    }

    /// Plies already spent under the endgame counter in the current position.
    pub fn endgame_plies(&self) -> u16 {
        self.endgame_plies.last().copied().unwrap_or(0)
    }

    /// Hashes of the positions since the last irreversible move, oldest first, the current one
    /// last (what a search needs to see repetitions through the game).
    pub fn reversible_hashes(&self) -> Vec<u64> {
        let n = self.quiet_plies() as usize;
        let start = self.positions.len().saturating_sub(n + 1);
        self.positions[start..].iter().map(G::hash).collect()
    }

    /// Plays `mv`, which must be legal in the current position.
    pub fn push(&mut self, mv: G::Move) {
        let pos = *self.current();
        let next = G::play(&pos, &mv);
        let quiet = if G::is_irreversible(&pos, &mv) {
            0
        } else {
            self.quiet_plies().saturating_add(1)
        };
        let endgame = match (G::endgame_ply_limit(&pos), G::endgame_ply_limit(&next)) {
            (Some(a), Some(b)) if a == b && !G::is_capture(&mv) => {
                self.endgame_plies().saturating_add(1)
            }
            (_, Some(_)) => 1,
            _ => 0,
        };
        self.positions.push(next);
        self.moves.push(mv);
        self.quiet_plies.push(quiet);
        self.endgame_plies.push(endgame);
    }

    /// Reads a move leniently and plays it; on error the record is unchanged.
    pub fn push_text(&mut self, text: &str) -> Result<G::Move, MoveError> {
        let mv = G::parse_move(self.current(), text)?;
        self.push(mv);
        Ok(mv)
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn pop(&mut self) -> Option<G::Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.quiet_plies.pop();
        self.endgame_plies.pop();
        Some(mv)
    }

    /// How many times the current position has occurred (same side to move included).
    pub fn repetitions(&self) -> usize {
        let hash = G::hash(self.current());
        let n = self.quiet_plies() as usize;
        let start = self.positions.len().saturating_sub(n + 1);
        self.positions[start..]
            .iter()
            .filter(|p| G::hash(p) == hash)
            .count()
    }

    /// The result if the game is over, from the side to move's point of view, with the reason.
    pub fn outcome(&self) -> Option<(Outcome, EndReason)> {
        let pos = self.current();
        if let Some(o) = G::decided(pos) {
            return Some((o, EndReason::Decided));
        }
        let mut moves = Vec::new();
        G::generate(pos, Duplicates::Drop, &mut moves);
        if moves.is_empty() {
            return Some((G::no_move_outcome(pos), EndReason::NoMoves));
        }
        let rules = G::draw_rules();
        if rules.repetitions > 0 && self.repetitions() >= rules.repetitions as usize {
            return Some((Outcome::Draw, EndReason::Repetition));
        }
        if rules.quiet_plies > 0 && self.quiet_plies() >= rules.quiet_plies {
            return Some((Outcome::Draw, EndReason::QuietMoves));
        }
        if let Some(limit) = G::endgame_ply_limit(pos) {
            if self.endgame_plies() >= limit {
                return Some((Outcome::Draw, EndReason::EndgameCounter));
            }
        }
        None
    }
}
