//! A game record: the positions reached along a game, with the draw rules of the variant
//! (repetition, quiet-move count, endgame counters) applied as the game goes.
//!
//! The rules themselves live here once, in [`DrawCounters`]: the record keeps one per position,
//! and the search keeps one per ply of its path and asks the same [`DrawCounters::verdict`], so
//! that the search and a referee keeping a record never disagree on a draw.
//!
//! ```
//! use polydam_engine::diagonal::{rules::International, Diagonal};
//! use polydam_engine::game::Game;
//! use polydam_engine::record::GameRecord;
//! type Intl = Diagonal<International>;
//! // Two kings against one: the FMJD 5-move rule, 10 plies.
//! let pos = Intl::parse_position("W:WK46,K50:BK3").expect("parses");
//! let mut record = GameRecord::<Intl>::new(pos);
//! assert_eq!(record.draw_counters().endgame_limit(), Some(10));
//! record.push_text("46-41").expect("legal");
//! let counters = record.draw_counters();
//! assert_eq!((counters.quiet_plies(), counters.endgame_plies()), (1, 1));
//! assert_eq!(record.outcome(), None);
//! ```

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

impl EndReason {
    /// The reason in words, for a player, when `side` is the side to move at the end; without
    /// the final position at hand. [`EndReason::explain`] says more where the position shows it.
    pub fn describe(self, side: crate::game::Side) -> String {
        match self {
            EndReason::NoMoves => format!("{} has no legal move", side.name()),
            EndReason::Decided => "decided by the position".to_string(),
            EndReason::Repetition => "repetition".to_string(),
            EndReason::QuietMoves => {
                "move-count rule (too many moves without a capture or a man move)".to_string()
            }
            EndReason::EndgameCounter => "endgame move-count rule".to_string(),
        }
    }
}

impl EndReason {
    /// The reason in words for a game of `G` that ended in `pos` (the final position): the
    /// one wording of every program that reports results (the web board, `polydam match`,
    /// `polydam dxp`, `polydam play`). It says what happened where the position shows it: a
    /// side with no pieces left, one piece each, two passes in a row.
    ///
    /// ```
    /// use polydam_engine::diagonal::{rules::International, Diagonal};
    /// use polydam_engine::game::Game;
    /// use polydam_engine::record::{EndReason, GameRecord};
    /// type Intl = Diagonal<International>;
    /// let mut record = GameRecord::<Intl>::new(Intl::parse_position("W:W28:B23").expect("parses"));
    /// record.push_text("28x19").expect("legal");
    /// let (_, reason) = record.outcome().expect("over");
    /// assert_eq!(reason.explain::<Intl>(record.current()), "black has no pieces left");
    /// ```
    pub fn explain<G: Game>(self, pos: &G::Position) -> String {
        let side = G::side_to_move(pos);
        let view = G::board_view(pos, None);
        // Families without a board view (none today) fall back to the general words.
        let counts =
            (!view.cells.is_empty()).then(|| (view.count(side), view.count(side.opponent())));
        match self {
            EndReason::NoMoves => match counts {
                Some((0, _)) => format!("{} has no pieces left", side.name()),
                _ => format!("{} has no legal move", side.name()),
            },
            EndReason::Decided => match (G::decided(pos), counts) {
                (_, Some((0, _))) => format!("{} has no pieces left", side.name()),
                (Some(Outcome::Draw), Some((1, 1))) => "each side has one piece left".to_string(),
                (Some(Outcome::Draw), _) => "both sides passed in succession".to_string(),
                (Some(Outcome::Loss), _) => {
                    format!("{} crowned a king first", side.opponent().name())
                }
                _ => "decided by the position".to_string(),
            },
            EndReason::Repetition => {
                format!("{}-fold repetition", G::draw_rules().repetitions)
            }
            EndReason::QuietMoves => {
                "move-count rule (too many moves without a capture or a man move)".to_string()
            }
            EndReason::EndgameCounter => "endgame move-count rule".to_string(),
        }
    }
}

/// The counters of the variant's draw rules in one position of a game: what the rules need to
/// know of the moves that led there, besides the positions themselves (repetitions).
///
/// [`DrawCounters::after`] carries them over one move and [`DrawCounters::verdict`] applies
/// the rules; both are the only implementation of the rules, used by [`GameRecord`] and by the
/// search (which copies them ply by ply along its path, so they stay small and `Copy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawCounters {
    /// Plies since the last irreversible move.
    quiet_plies: u16,
    /// Plies spent in the current endgame-counter material.
    endgame_plies: u16,
    /// The ply limit of the endgame counter in this position, if its material is covered.
    endgame_limit: Option<u16>,
}

impl DrawCounters {
    /// The counters of a game that starts (or is taken up) at `pos`: nothing counted yet.
    #[inline]
    pub fn start<G: Game>(pos: &G::Position) -> Self {
        DrawCounters {
            quiet_plies: 0,
            endgame_plies: 0,
            endgame_limit: G::endgame_ply_limit(pos),
        }
    }

    /// The counters after `mv`, played from `pos` (whose counters `self` are), leads to
    /// `child`.
    #[inline]
    pub fn after<G: Game>(&self, pos: &G::Position, mv: &G::Move, child: &G::Position) -> Self {
        let quiet_plies = if G::is_irreversible(pos, mv) {
            0
        } else {
            self.quiet_plies.saturating_add(1)
        };
        let endgame_limit = G::endgame_ply_limit(child);
        // The counter runs while the same endgame class lasts without a capture, and restarts
        // at 0 on entering one: the rules count the moves made once the ending is on the
        // board (FMJD: "5 moves each" after the capture that left two kings against one), not
        // the move that made it, as a game set up in the ending counts from 0 too.
        let endgame_plies = match (self.endgame_limit, endgame_limit) {
            (Some(a), Some(b)) if a == b && !G::is_capture(mv) => {
                self.endgame_plies.saturating_add(1)
            }
            _ => 0,
        };
        DrawCounters {
            quiet_plies,
            endgame_plies,
            endgame_limit,
        }
    }

    /// Plies since the last irreversible move: also how far back a repetition can be.
    #[inline]
    pub fn quiet_plies(&self) -> u16 {
        self.quiet_plies
    }

    /// Plies already spent under the endgame counter (0 outside its endgames).
    #[inline]
    pub fn endgame_plies(&self) -> u16 {
        self.endgame_plies
    }

    /// The endgame counter's ply limit in this position, if its material is covered.
    #[inline]
    pub fn endgame_limit(&self) -> Option<u16> {
        self.endgame_limit
    }

    /// The draw rule that ends the game in this position, if any: repetition, then the
    /// quiet-move rule, then the endgame counter.
    ///
    /// `keys` are the Zobrist keys of the positions up to this one (its own key last); only
    /// the last [`Self::quiet_plies`] plies are looked at. An earlier occurrence at an index of
    /// `path_from` or more counts as a repetition by itself (the search passes the start of its
    /// path: see its use there); `keys.len()` turns that off.
    ///
    /// Whether the game has already ended otherwise (a decided position, no legal move) is
    /// the caller's to check first: those take precedence over every draw rule.
    #[inline]
    pub fn verdict<G: Game>(&self, keys: &[u64], path_from: usize) -> Option<EndReason> {
        let rules = G::draw_rules();
        if self.is_repetition(keys, rules.repetitions, path_from) {
            return Some(EndReason::Repetition);
        }
        if rules.quiet_plies > 0 && self.quiet_plies >= rules.quiet_plies {
            return Some(EndReason::QuietMoves);
        }
        match self.endgame_limit {
            Some(limit) if self.endgame_plies >= limit => Some(EndReason::EndgameCounter),
            _ => None,
        }
    }

    /// Whether the last of `keys` occurred `needed` times (0: never a draw) within the last
    /// `quiet_plies` plies, or once before at an index of `path_from` or more.
    #[inline]
    fn is_repetition(&self, keys: &[u64], needed: u8, path_from: usize) -> bool {
        // A position cannot recur within fewer than 4 reversible plies: both sides must move
        // away and back.
        if needed == 0 || self.quiet_plies < 4 {
            return false;
        }
        let Some(here) = keys.len().checked_sub(1) else {
            return false;
        };
        let key = keys[here];
        let oldest = here.saturating_sub(self.quiet_plies as usize);
        let mut count = 1;
        // Only positions with the same side to move can be equal: every second one.
        let Some(mut i) = here.checked_sub(2) else {
            return false;
        };
        while i >= oldest {
            if keys[i] == key {
                if i >= path_from {
                    return true;
                }
                count += 1;
                if count >= needed as usize {
                    return true;
                }
            }
            if i < 2 {
                break;
            }
            i -= 2;
        }
        false
    }
}

/// A game from some position on, with its draw counters.
#[derive(Debug)]
pub struct GameRecord<G: Game> {
    positions: Vec<G::Position>,
    moves: Vec<G::Move>,
    /// The key of each position (the repetition rule compares them).
    keys: Vec<u64>,
    /// The draw counters of each position.
    counters: Vec<DrawCounters>,
}

// Written by hand: a derive would require `G: Clone`, and game types are markers.
impl<G: Game> Clone for GameRecord<G> {
    fn clone(&self) -> Self {
        GameRecord {
            positions: self.positions.clone(),
            moves: self.moves.clone(),
            keys: self.keys.clone(),
            counters: self.counters.clone(),
        }
    }
}

impl<G: Game> GameRecord<G> {
    /// A record starting at `start`.
    pub fn new(start: G::Position) -> Self {
        GameRecord {
            positions: vec![start],
            moves: Vec::new(),
            keys: vec![G::hash(&start)],
            counters: vec![DrawCounters::start::<G>(&start)],
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

    /// The draw counters of the current position.
    pub fn draw_counters(&self) -> DrawCounters {
        // Never empty, like `positions`.
        self.counters.last().copied().unwrap_or_default()
    }

    /// Plies since the last irreversible move in the current position.
    pub fn quiet_plies(&self) -> u16 {
        self.draw_counters().quiet_plies()
    }

    /// Plies already spent under the endgame counter in the current position.
    pub fn endgame_plies(&self) -> u16 {
        self.draw_counters().endgame_plies()
    }

    /// The keys of the positions that a repetition of the current one may go back to: those
    /// since the last irreversible move, oldest first, the current one last.
    fn reversible_keys(&self) -> &[u64] {
        let start = self
            .keys
            .len()
            .saturating_sub(self.quiet_plies() as usize + 1);
        &self.keys[start..]
    }

    /// Hashes of the positions since the last irreversible move, oldest first, the current one
    /// last (what a search needs to see repetitions through the game).
    pub fn reversible_hashes(&self) -> Vec<u64> {
        self.reversible_keys().to_vec()
    }

    /// Plays `mv`, which must be legal in the current position.
    pub fn push(&mut self, mv: G::Move) {
        let pos = *self.current();
        let next = G::play(&pos, &mv);
        let counters = self.draw_counters().after::<G>(&pos, &mv, &next);
        self.positions.push(next);
        self.moves.push(mv);
        self.keys.push(G::hash(&next));
        self.counters.push(counters);
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
        self.keys.pop();
        self.counters.pop();
        Some(mv)
    }

    /// How many times the current position has occurred (same side to move included) since
    /// the last irreversible move, the only stretch where it can recur.
    pub fn repetitions(&self) -> usize {
        let keys = self.reversible_keys();
        let here = keys.last();
        keys.iter().filter(|&k| Some(k) == here).count()
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
        // The record has no search path: only repetitions within the game count.
        let reason = self
            .draw_counters()
            .verdict::<G>(&self.keys, self.keys.len())?;
        Some((Outcome::Draw, reason))
    }
}
