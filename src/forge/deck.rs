//! Decks of balanced openings for matches: every distinct position a few plies from the start
//! that a search finds balanced, each written as the moves that reach it. For the games whose
//! federations publish no opening table of their own (English has the ACF's three-move
//! ballots, `engine/openings/english-3move.txt`). `polydam openings` is its front-end.
//!
//! The sequences are walked depth first, the moves of every position in the order of their
//! written text; a sequence after which the game is over is left out, and of the sequences
//! that reach the same position only the first is kept. Each position is then searched to the
//! spec's depth (one thread, a fresh table) and kept when its score is within the bound. The
//! deck depends only on the variant, the spec and the weights.

use std::collections::HashMap;
use std::fmt;

use polydam_engine::game::{Duplicates, Game, MoveStyle};
use polydam_engine::record::GameRecord;
use polydam_engine::search::{Limits, SearchControl, Searcher};

/// Why a deck cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeckError(pub String);

impl fmt::Display for DeckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DeckError {}

/// What a deck takes.
#[derive(Clone, Copy, Debug)]
pub struct DeckSpec {
    /// Plies from the start position.
    pub plies: u32,
    /// Largest absolute score kept, in men.
    pub max_score: f64,
    /// Depth of the search that judges each position.
    pub depth: i32,
    /// Transposition table of that search, in MiB.
    pub hash_mib: usize,
}

/// One opening of the deck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeckLine {
    /// The moves from the start, in the variant's notation.
    pub moves: Vec<String>,
    /// The search's score for the side to move after them, in hundredths of a man.
    pub score: i32,
}

/// A deck and what was walked to make it.
#[derive(Clone, Debug, Default)]
pub struct Deck {
    /// The balanced openings, in walking order.
    pub lines: Vec<DeckLine>,
    /// Sequences of the spec's plies after which the game goes on.
    pub sequences: usize,
    /// Distinct positions they reach (each searched once).
    pub positions: usize,
}

/// The deck of `G` for `spec`; `progress(done, total)` is called after each search.
pub fn build<G: Game>(
    spec: &DeckSpec,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Deck, DeckError> {
    let mut found = Found::<G>::default();
    walk::<G>(G::start(), spec.plies, &mut Vec::new(), &mut found);
    let (found, sequences) = (found.lines, found.sequences);
    let mut searcher =
        Searcher::<G>::try_new(spec.hash_mib, 1).map_err(|e| DeckError(e.to_string()))?;
    let control = SearchControl::new();
    let limit = (spec.max_score * 100.0).round() as i32;
    let total = found.len();
    let mut lines = Vec::new();
    for (i, (moves, pos)) in found.into_iter().enumerate() {
        searcher.clear();
        let r = searcher.search(
            &GameRecord::new(pos),
            &Limits::depth(spec.depth),
            &control,
            &mut |_| {},
        );
        let score = r.score.centi();
        if score.abs() <= limit {
            lines.push(DeckLine { moves, score });
        }
        progress(i + 1, total);
    }
    Ok(Deck {
        lines,
        sequences,
        positions: total,
    })
}

/// What a walk found: each new position with its path, in walking order, the positions by
/// key (hundreds of thousands at six plies: a look-up, not a scan), and the sequences.
struct Found<G: Game> {
    lines: Vec<(Vec<String>, G::Position)>,
    by_key: HashMap<u64, Vec<usize>>,
    sequences: usize,
}

impl<G: Game> Default for Found<G> {
    fn default() -> Self {
        Found {
            lines: Vec::new(),
            by_key: HashMap::new(),
            sequences: 0,
        }
    }
}

/// Walks the sequences of `plies` more plies from `pos` (reached by `path`), adding each
/// position not yet in `found` with its path and counting every sequence.
fn walk<G: Game>(pos: G::Position, plies: u32, path: &mut Vec<String>, found: &mut Found<G>) {
    if G::decided(&pos).is_some() || !G::has_move(&pos) {
        return;
    }
    if plies == 0 {
        found.sequences += 1;
        let same_key = found.by_key.entry(G::hash(&pos)).or_default();
        if !same_key.iter().any(|&i| found.lines[i].1 == pos) {
            same_key.push(found.lines.len());
            found.lines.push((path.clone(), pos));
        }
        return;
    }
    let mut moves = Vec::new();
    G::generate(&pos, Duplicates::Drop, &mut moves);
    let mut texts: Vec<(String, G::Move)> = moves
        .into_iter()
        .map(|mv| (written::<G>(&pos, &mv), mv))
        .collect();
    texts.sort_by(|a, b| a.0.cmp(&b.0));
    for (text, mv) in texts {
        path.push(text);
        walk::<G>(G::play(&pos, &mv), plies - 1, path, found);
        path.pop();
    }
}

/// The move as the variant writes it, or in Hub form (every captured square) when the written
/// form would not name this move alone.
fn written<G: Game>(pos: &G::Position, mv: &G::Move) -> String {
    let text = G::move_text(pos, mv, MoveStyle::Pdn);
    match G::parse_move(pos, &text) {
        Ok(m) if m == *mv => text,
        _ => G::move_text(pos, mv, MoveStyle::Hub),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polydam_engine::diagonal::{rules::Russian as RussianRules, Diagonal};

    type Russian = Diagonal<RussianRules>;

    #[test]
    fn a_russian_deck_holds_distinct_balanced_legal_openings() {
        let spec = DeckSpec {
            plies: 2,
            max_score: 0.3,
            depth: 4,
            hash_mib: 1,
        };
        let mut calls = 0;
        let deck = build::<Russian>(&spec, &mut |_, _| calls += 1).expect("deck");
        // Seven first moves and seven replies to each: 49 sequences, no two alike.
        assert_eq!(deck.sequences, 49);
        assert_eq!(deck.positions, 49);
        assert_eq!(calls, 49);
        assert!(!deck.lines.is_empty() && deck.lines.len() <= 49);
        let mut seen = Vec::new();
        for line in &deck.lines {
            assert!(line.score.abs() <= 30, "{line:?}");
            assert_eq!(line.moves.len(), 2);
            let mut record = GameRecord::<Russian>::new(Russian::start());
            for m in &line.moves {
                record.push_text(m).expect("legal");
            }
            let fen = Russian::fen(record.current());
            assert!(!seen.contains(&fen), "{line:?} twice");
            seen.push(fen);
        }
        // Sorted by the written moves, the first line starts with the first move in that order.
        assert!(deck.lines.windows(2).all(|w| w[0].moves <= w[1].moves));
    }

    #[test]
    fn transpositions_are_kept_once() {
        let spec = DeckSpec {
            plies: 3,
            max_score: 100.0,
            depth: 1,
            hash_mib: 1,
        };
        let deck = build::<Russian>(&spec, &mut |_, _| {}).expect("deck");
        // White's two first moves in either order with the same Black reply meet.
        assert!(deck.positions < deck.sequences, "{deck:?}");
        assert_eq!(deck.lines.len(), deck.positions);
    }
}
