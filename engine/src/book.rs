//! Opening books: positions with the moves Polydam's own search scored there.
//!
//! A book is a text file, one position a line:
//!
//! ```text
//! # comments and blank lines are ignored
//! POSITION ; MOVE SCORE MOVE SCORE ... [; depth=D]
//! ```
//!
//! `POSITION` is any text the family's position parser accepts (the FEN, or the Hub string);
//! each `MOVE` is in the variant's move text (read leniently, like the Hub's `pos moves=`);
//! each `SCORE` is an integer in the search's units (hundredths of a man, see
//! [`Score`]) from the side to move's point of view; `depth=D` is the depth of the search that
//! scored the moves (0 when not given). Entries are keyed by the position's Zobrist key, computed
//! when the book is read, so that a book survives a change of the keys. Every move is checked
//! legal when the book is read: a bad line is an error that names its line number.
//!
//! ```
//! use polydam_engine::book::{BookRng, OpeningBook};
//! use polydam_engine::diagonal::{rules::International, Diagonal};
//! use polydam_engine::game::{Game, MoveStyle};
//! type Intl = Diagonal<International>;
//! let text = "W:W31-50:B1-20 ; 32-28 10 33-28 8 31-27 -20 ; depth=4\n";
//! let book = OpeningBook::<Intl>::parse(text).unwrap();
//! let start = Intl::start();
//! let mut rng = BookRng::new(1);
//! let mv = book.choose(&start, 0, &mut rng).unwrap();
//! assert_eq!(Intl::move_text(&start, &mv, MoveStyle::Hub), "32-28");
//! let err = OpeningBook::<Intl>::parse("W:W31-50:B1-20 ; 32-26 0\n").unwrap_err();
//! assert_eq!(err.line, 1);
//! ```

use std::collections::HashMap;
use std::fmt;

use crate::game::{Duplicates, Game, MoveStyle};
use crate::score::Score;

/// The International book shipped with the engine (grown by `polydam book grow`, see
/// docs/book.md), used when the data directory holds no book of its own.
pub const INTERNATIONAL_BOOK: &str = include_str!("../book/international.book");

/// The book embedded in the program for `variant` (a registry name), if any.
pub fn embedded(variant: &str) -> Option<&'static str> {
    match variant {
        "international" => Some(INTERNATIONAL_BOOK),
        _ => None,
    }
}

/// One move of a book position with its score.
pub struct BookMove<G: Game> {
    /// The move, legal in the entry's position.
    pub mv: G::Move,
    /// Its score from the side to move's point of view.
    pub score: Score,
}

/// A position of the book with its scored moves.
pub struct BookEntry<G: Game> {
    /// The position.
    pub position: G::Position,
    /// The scored moves, best first.
    pub moves: Vec<BookMove<G>>,
    /// The depth of the search that scored them (0 when unknown).
    pub depth: i32,
}

// Written by hand: derives would require the game's marker type to be `Clone`, `Debug`, ...
impl<G: Game> Clone for BookMove<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for BookMove<G> {}

impl<G: Game> PartialEq for BookMove<G> {
    fn eq(&self, other: &Self) -> bool {
        self.mv == other.mv && self.score == other.score
    }
}

impl<G: Game> fmt::Debug for BookMove<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} {}", self.mv, self.score.centi())
    }
}

impl<G: Game> Clone for BookEntry<G> {
    fn clone(&self) -> Self {
        BookEntry {
            position: self.position,
            moves: self.moves.clone(),
            depth: self.depth,
        }
    }
}

impl<G: Game> PartialEq for BookEntry<G> {
    fn eq(&self, other: &Self) -> bool {
        self.position == other.position && self.moves == other.moves && self.depth == other.depth
    }
}

impl<G: Game> fmt::Debug for BookEntry<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line())
    }
}

impl<G: Game> BookEntry<G> {
    /// An entry of `position`; the moves are sorted best first (stable, so equal scores keep
    /// their order).
    pub fn new(position: G::Position, mut moves: Vec<BookMove<G>>, depth: i32) -> Self {
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        BookEntry {
            position,
            moves,
            depth,
        }
    }

    /// The best score, if the entry has moves.
    pub fn best_score(&self) -> Option<Score> {
        self.moves.first().map(|m| m.score)
    }

    /// The moves whose score is within `margin` (hundredths of a man) of the best.
    pub fn near_best(&self, margin: i32) -> impl Iterator<Item = &BookMove<G>> {
        let floor = self
            .best_score()
            .map_or(i32::MAX, |b| b.centi().saturating_sub(margin.max(0)));
        self.moves.iter().filter(move |m| m.score.centi() >= floor)
    }

    /// The entry as one line of a book file (no newline).
    pub fn line(&self) -> String {
        let mut out = G::fen(&self.position);
        out.push_str(" ;");
        for m in &self.moves {
            out.push(' ');
            out.push_str(&G::move_text(&self.position, &m.mv, MoveStyle::Hub));
            out.push(' ');
            out.push_str(&m.score.centi().to_string());
        }
        out.push_str(&format!(" ; depth={}", self.depth));
        out
    }
}

/// What is wrong with a book, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    /// The line, counting from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "book line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for BookError {}

/// A small deterministic random number generator (SplitMix64) for choosing among book moves:
/// the same seed gives the same choices.
#[derive(Clone, Debug)]
pub struct BookRng(u64);

impl BookRng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        BookRng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (which must not be 0), nearly uniform.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// An opening book: positions, keyed by their Zobrist key, with their scored moves.
pub struct OpeningBook<G: Game> {
    entries: HashMap<u64, BookEntry<G>>,
}

impl<G: Game> Clone for OpeningBook<G> {
    fn clone(&self) -> Self {
        OpeningBook {
            entries: self.entries.clone(),
        }
    }
}

impl<G: Game> fmt::Debug for OpeningBook<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OpeningBook({} positions)", self.entries.len())
    }
}

impl<G: Game> Default for OpeningBook<G> {
    fn default() -> Self {
        OpeningBook {
            entries: HashMap::new(),
        }
    }
}

impl<G: Game> OpeningBook<G> {
    /// An empty book.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads a book from its text (see the module documentation). A position given twice is an
    /// error, as is any line that does not parse or names an illegal move.
    pub fn parse(text: &str) -> Result<Self, BookError> {
        let mut book = OpeningBook::new();
        for (i, raw) in text.lines().enumerate() {
            let err = |message: String| BookError {
                line: i + 1,
                message,
            };
            let Some(entry) = parse_line::<G>(raw).map_err(err)? else {
                continue;
            };
            let key = G::hash(&entry.position);
            if book.entries.contains_key(&key) {
                return Err(err(format!(
                    "position {} is already in the book",
                    G::fen(&entry.position)
                )));
            }
            book.entries.insert(key, entry);
        }
        Ok(book)
    }

    /// The book as text: a header comment, then one line per position, sorted so that the
    /// same book always gives the same text.
    pub fn to_text(&self, header: &str) -> String {
        let mut lines: Vec<String> = self.entries.values().map(BookEntry::line).collect();
        lines.sort();
        let mut out = String::new();
        for h in header.lines() {
            out.push_str("# ");
            out.push_str(h);
            out.push('\n');
        }
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
        out
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry, in no particular order.
    pub fn entries(&self) -> impl Iterator<Item = &BookEntry<G>> {
        self.entries.values()
    }

    /// Adds `entry`, replacing the one of the same position if any; returns the replaced one.
    pub fn insert(&mut self, entry: BookEntry<G>) -> Option<BookEntry<G>> {
        self.entries.insert(G::hash(&entry.position), entry)
    }

    /// Adds every entry of `other`; where both have a position, keeps the deeper search's entry
    /// (`other`'s when the depths are equal).
    pub fn merge(&mut self, other: OpeningBook<G>) {
        for (key, entry) in other.entries {
            match self.entries.get(&key) {
                Some(mine) if mine.depth > entry.depth => {}
                _ => {
                    self.entries.insert(key, entry);
                }
            }
        }
    }

    /// Whether `pos` is in the book.
    pub fn contains(&self, pos: &G::Position) -> bool {
        self.entries.contains_key(&G::hash(pos))
    }

    /// The entry of `pos`, if the book has it.
    pub fn get(&self, pos: &G::Position) -> Option<&BookEntry<G>> {
        self.entries.get(&G::hash(pos))
    }

    /// The book moves of `pos` (best first) that are legal there: empty when `pos` is not in
    /// the book. The legality check guards against the rare key collision.
    pub fn probe(&self, pos: &G::Position) -> Vec<BookMove<G>> {
        let Some(entry) = self.get(pos) else {
            return Vec::new();
        };
        let mut legal = Vec::new();
        G::generate(pos, Duplicates::Drop, &mut legal);
        entry
            .moves
            .iter()
            .filter(|m| legal.contains(&m.mv))
            .copied()
            .collect()
    }

    /// A move for `pos`: uniformly at random among the book moves whose score is within
    /// `margin` (hundredths of a man) of the best; with `margin` 0 the first best move,
    /// always. `None` when `pos` is not in the book.
    pub fn choose(&self, pos: &G::Position, margin: i32, rng: &mut BookRng) -> Option<G::Move> {
        let moves = self.probe(pos);
        let best = moves.first()?.score.centi();
        let floor = best.saturating_sub(margin.max(0));
        let near: Vec<&BookMove<G>> = moves.iter().filter(|m| m.score.centi() >= floor).collect();
        if margin <= 0 || near.len() == 1 {
            return Some(near[0].mv);
        }
        Some(near[rng.below(near.len())].mv)
    }
}

/// One line of a book file: `None` for a blank or comment line.
fn parse_line<G: Game>(raw: &str) -> Result<Option<BookEntry<G>>, String> {
    let line = raw.split('#').next().unwrap_or("").trim();
    if line.is_empty() {
        return Ok(None);
    }
    let mut parts = line.split(';');
    let pos_text = parts.next().unwrap_or("").trim();
    let Some(moves_text) = parts.next() else {
        return Err("expected `POSITION ; MOVE SCORE ...`: no `;`".to_string());
    };
    let depth = match parts.next() {
        None => 0,
        Some(field) => {
            let field = field.trim();
            let value = field
                .strip_prefix("depth=")
                .ok_or_else(|| format!("expected `depth=D` after the moves, found `{field}`"))?;
            value
                .parse::<i32>()
                .map_err(|_| format!("bad depth `{value}`"))?
        }
    };
    if let Some(extra) = parts.next() {
        return Err(format!("unexpected `;{extra}`"));
    }
    if pos_text.is_empty() {
        return Err("no position before the `;`".to_string());
    }
    let position =
        G::parse_position(pos_text).map_err(|e| format!("bad position `{pos_text}`: {e}"))?;
    let words: Vec<&str> = moves_text.split_whitespace().collect();
    if words.is_empty() {
        return Err("no moves".to_string());
    }
    if !words.len().is_multiple_of(2) {
        return Err(format!(
            "moves and scores must come in pairs, found {} words",
            words.len()
        ));
    }
    let mut moves: Vec<BookMove<G>> = Vec::with_capacity(words.len() / 2);
    for pair in words.chunks(2) {
        let mv =
            G::parse_move(&position, pair[0]).map_err(|e| format!("move `{}`: {e}", pair[0]))?;
        let score = pair[1]
            .parse::<i32>()
            .map_err(|_| format!("bad score `{}` of move `{}`", pair[1], pair[0]))?;
        if score.abs() > Score::WIN.centi() {
            return Err(format!(
                "score {score} of move `{}` is out of range",
                pair[0]
            ));
        }
        if moves.iter().any(|m| m.mv == mv) {
            return Err(format!("move `{}` is given twice", pair[0]));
        }
        moves.push(BookMove {
            mv,
            score: Score::from_centi(score),
        });
    }
    Ok(Some(BookEntry::new(position, moves, depth)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagonal::{rules::International, Diagonal};
    type Intl = Diagonal<International>;

    #[test]
    fn shipped_international_book_loads_and_holds_only_legal_moves() {
        let book = OpeningBook::<Intl>::parse(INTERNATIONAL_BOOK).expect("the shipped book loads");
        for entry in book.entries() {
            let mut legal = Vec::new();
            Intl::generate(&entry.position, Duplicates::Drop, &mut legal);
            assert!(!entry.moves.is_empty());
            for m in &entry.moves {
                assert!(legal.contains(&m.mv), "{}", entry.line());
            }
        }
    }

    #[test]
    fn damaged_line_is_named() {
        let text = "# header\nW:W31-50:B1-20 ; 32-28 5\nW:W31-50:B1-20x ; 32-28 5\n";
        let err = OpeningBook::<Intl>::parse(text).unwrap_err();
        assert_eq!(err.line, 3);
        assert!(
            err.to_string().starts_with("book line 3: bad position"),
            "{err}"
        );
        let err = OpeningBook::<Intl>::parse("W:W31-50:B1-20 ; 32-28 five").unwrap_err();
        assert!(err.message.contains("bad score"), "{err}");
        let err = OpeningBook::<Intl>::parse("W:W31-50:B1-20 ; 32-28").unwrap_err();
        assert!(err.message.contains("pairs"), "{err}");
        let err = OpeningBook::<Intl>::parse("W:W31-50:B1-20 ; 20-24 3").unwrap_err();
        assert!(err.message.contains("move `20-24`"), "{err}");
    }

    #[test]
    fn margin_zero_is_deterministic_and_margin_varies() {
        let book =
            OpeningBook::<Intl>::parse("W:W31-50:B1-20 ; 32-28 10 33-28 9 34-29 8 31-27 -50")
                .unwrap();
        let start = Intl::start();
        let first = book.choose(&start, 0, &mut BookRng::new(0));
        let mut seen = std::collections::HashSet::new();
        for seed in 0..50 {
            assert_eq!(book.choose(&start, 0, &mut BookRng::new(seed)), first);
            let mv = book.choose(&start, 5, &mut BookRng::new(seed)).unwrap();
            seen.insert(Intl::move_text(&start, &mv, MoveStyle::Hub));
        }
        let mut seen: Vec<String> = seen.into_iter().collect();
        seen.sort();
        assert_eq!(seen, ["32-28", "33-28", "34-29"]);
    }

    #[test]
    fn text_round_trips() {
        let text = "W:W31-50:B1-20 ; 32-28 10 33-28 9 ; depth=3\n";
        let book = OpeningBook::<Intl>::parse(text).unwrap();
        let again = OpeningBook::<Intl>::parse(&book.to_text("hello")).unwrap();
        assert_eq!(again.len(), 1);
        assert_eq!(
            again.get(&Intl::start()).unwrap(),
            book.get(&Intl::start()).unwrap()
        );
    }
}
