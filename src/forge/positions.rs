//! Books of balanced positions with few pieces, taken from self-play games (data files of
//! [`super::selfplay`]), for matches that must reach the endgame. `polydam positions` is its
//! front-end.
//!
//! Each game of the data gives at most one position: the first one, in game order, that has
//! the piece count the book wants next (the counts cycle through the spec's piece range so
//! that the book spreads over them; a game without that count gives its first position of any
//! count in range), no capture for either side, a recorded score within the spec's bounds,
//! and, searched again to the spec's depth (one thread, a fresh table), a score still within
//! them. Positions already in the book are skipped. The result depends only on the data and
//! the spec.

use std::fmt;
use std::path::PathBuf;

use polydam_engine::game::Game;
use polydam_engine::record::GameRecord;
use polydam_engine::search::{Limits, SearchControl, Searcher};

use super::data::DataLine;

/// Why a book cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionsError(pub String);

impl fmt::Display for PositionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionsError {}

/// What a book takes.
#[derive(Clone, Copy, Debug)]
pub struct PositionsSpec {
    /// Positions wanted.
    pub count: usize,
    /// Fewest pieces on the board.
    pub min_pieces: u32,
    /// Most pieces on the board.
    pub max_pieces: u32,
    /// Largest score taken, in men (recorded and searched again).
    pub max_score: f64,
    /// Smallest score taken, in men.
    pub min_score: f64,
    /// Depth of the new search.
    pub depth: i32,
    /// Transposition table of the search, in MiB.
    pub hash_mib: usize,
}

/// A position of the book: its FEN, its pieces and its new score.
pub type Entry = (String, u32, i32);

/// The book's positions and the games read, from `data` files.
pub fn collect<G: Game>(
    o: &PositionsSpec,
    data: &[PathBuf],
) -> Result<(Vec<Entry>, usize), PositionsError> {
    let mut searcher =
        Searcher::<G>::try_new(o.hash_mib, 1).map_err(|e| PositionsError(e.to_string()))?;
    let counts: Vec<u32> = (o.min_pieces..=o.max_pieces).collect();
    let mut book: Vec<(String, u32, i32)> = Vec::new();
    let mut games_read = 0usize;
    'files: for path in data {
        let name = path.display().to_string();
        let text = polydam_engine::files::read_text(path, polydam_engine::files::TEXT_LIMIT)
            .map_err(|e| PositionsError(format!("cannot read {name}: {e}")))?;
        for game in games_of(&text, &name)? {
            if book.len() >= o.count {
                break 'files;
            }
            games_read += 1;
            let want = counts[book.len() % counts.len()];
            // The count wanted next if the game has one that passes, else any in range.
            for exact in [true, false] {
                if let Some(entry) =
                    pick::<G>(&game, &name, exact.then_some(want), o, &mut searcher, &book)?
                {
                    book.push(entry);
                    break;
                }
            }
        }
    }
    Ok((book, games_read))
}

/// A candidate line of the data, already parsed.
pub struct Candidate {
    /// The position, as the data wrote it.
    pub position: String,
    /// Its recorded score.
    pub score: i32,
}

/// Splits data text into games: a game is a run of lines whose ply increases.
pub fn games_of(text: &str, name: &str) -> Result<Vec<Vec<Candidate>>, PositionsError> {
    let mut games: Vec<Vec<Candidate>> = Vec::new();
    let mut last_ply = None;
    for (i, line) in text.lines().enumerate() {
        let parsed = DataLine::parse(line)
            .map_err(|e| PositionsError(format!("{name} line {}: {e}", i + 1)))?;
        let Some(d) = parsed else {
            continue;
        };
        if last_ply.is_none_or(|p| d.ply <= p) {
            games.push(Vec::new());
        }
        last_ply = Some(d.ply);
        if let Some(g) = games.last_mut() {
            g.push(Candidate {
                position: d.position,
                score: d.score,
            });
        }
    }
    Ok(games)
}

/// Pieces on the board, both sides.
fn pieces<G: Game>(pos: &G::Position) -> u32 {
    G::board_view(pos, None)
        .cells
        .iter()
        .filter(|c| c.piece.is_some())
        .count() as u32
}

/// The first position of `game` that the book takes: `want` pieces (or any count in range),
/// no capture for either side, balanced by its recorded score and by a new search, not in
/// `book` yet. Returns its FEN, pieces and new score.
fn pick<G: Game>(
    game: &[Candidate],
    name: &str,
    want: Option<u32>,
    o: &PositionsSpec,
    searcher: &mut Searcher<G>,
    book: &[(String, u32, i32)],
) -> Result<Option<(String, u32, i32)>, PositionsError> {
    let limit = (o.max_score * 100.0).round() as i32;
    let floor = (o.min_score * 100.0).round() as i32;
    let control = SearchControl::new();
    for c in game {
        if c.score.abs() > limit || c.score.abs() < floor {
            continue;
        }
        let pos = G::parse_position(&c.position).map_err(|e| {
            PositionsError(format!(
                "{name}: '{}' is not a {} position: {e}",
                c.position,
                G::NAME
            ))
        })?;
        let n = pieces::<G>(&pos);
        if want.is_some_and(|w| w != n)
            || !(o.min_pieces..=o.max_pieces).contains(&n)
            || G::has_capture(&pos)
            || G::capture_threat(&pos)
            || G::decided(&pos).is_some()
            || !G::has_move(&pos)
        {
            continue;
        }
        let fen = G::fen(&pos);
        if book.iter().any(|b| b.0 == fen) {
            continue;
        }
        searcher.clear();
        let r = searcher.search(
            &GameRecord::new(pos),
            &Limits::depth(o.depth),
            &control,
            &mut |_| {},
        );
        let a = r.score.centi().abs();
        if (floor..=limit).contains(&a) {
            return Ok(Some((fen, n, r.score.centi())));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_split_where_the_ply_falls() {
        let text = "# polydam selfplay variant=international\n\
                    W:W31:B20 1 10 8\nB:W27:B20 0 -10 9\nW:W31:B20 0.5 0 8\nB:W31:B19 0.5 0 9\n";
        let games = games_of(text, "t").expect("parses");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].len(), 2);
        assert_eq!(games[1][1].position, "B:W31:B19");
        let bad = games_of("W:W31:B20 2 10 8\n", "t")
            .err()
            .expect("bad result");
        assert!(bad.0.contains("t line 1"), "{bad}");
    }
}
