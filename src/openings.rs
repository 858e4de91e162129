//! Openings: a start position and the moves played from it before the engines take over. Read
//! from a book (`polydam match --book`, `polydam selfplay --book`, `polydam dxp --book`) or
//! drawn at random from the start (reproducible for a seed).

use std::path::Path;

use polydam_engine::game::{Duplicates, Game};
use polydam_engine::record::GameRecord;
use polydam_protocol::lexer::excerpt;
use polydam_tables::zobrist::splitmix64;

use crate::cli::CliError;
use crate::pdn;

/// A start position and the opening moves played from it.
#[derive(Clone, Debug)]
pub struct Opening<G: Game> {
    /// The position the game starts from.
    pub start: G::Position,
    /// Opening moves, played for both engines.
    pub moves: Vec<G::Move>,
}

/// The random openings' generator (also selfplay's): SplitMix64 from a seed, the sequence the
/// Zobrist keys use.
pub struct Random(pub u64);

impl Random {
    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        let (state, value) = splitmix64(self.0);
        self.0 = state;
        (value % n as u64) as usize
    }
}

/// Reads the book file at `path` ([`parse_book`]).
pub fn read_book<G: Game>(path: &Path) -> Result<Vec<Opening<G>>, CliError> {
    let text = polydam_engine::files::read_text(path, polydam_engine::files::TEXT_LIMIT)
        .map_err(|e| CliError(format!("cannot read the book {}: {e}", path.display())))?;
    parse_book::<G>(&text)
}

/// Reads a book: one opening per line, `#` comments and blank lines skipped. A line is a
/// position (PDN FEN or Hub string), or moves from the start (PDN movetext: move numbers are
/// allowed), or `POSITION;MOVES` (an empty position or `start` meaning the variant's start).
pub fn parse_book<G: Game>(text: &str) -> Result<Vec<Opening<G>>, CliError> {
    let mut openings = Vec::new();
    book_lines(text, &mut |line, position| {
        openings.push(opening_of::<G>(line, position)?);
        Ok(())
    })?;
    Ok(openings)
}

/// What a book line gives: the line, and its position text and moves when it has a `;`.
type BookLine<'a> = dyn FnMut(&str, Option<(&str, &str)>) -> Result<(), String> + 'a;

/// Hands every opening line of a book to `each` (with its `POSITION;MOVES` split, if it has
/// one), its errors numbered by line; an error when there is none. Not generic in the game.
fn book_lines(text: &str, each: &mut BookLine<'_>) -> Result<(), CliError> {
    let mut any = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        each(line, line.split_once(';'))
            .map_err(|why| CliError(format!("book line {}: {why}", i + 1)))?;
        any = true;
    }
    if !any {
        return Err(CliError("the book holds no opening".into()));
    }
    Ok(())
}

/// The opening of a book `line`, split at its `;` into `split` if it has one.
fn opening_of<G: Game>(line: &str, split: Option<(&str, &str)>) -> Result<Opening<G>, String> {
    let (start, moves) = match split {
        Some((pos, moves)) => {
            let pos = pos.trim();
            let start = if pos.is_empty() || pos.eq_ignore_ascii_case("start") {
                G::start()
            } else {
                G::parse_position(pos).map_err(|e| format!("bad position: {e}"))?
            };
            (start, moves)
        }
        None => match G::parse_position(line) {
            Ok(start) => (start, ""),
            Err(_) => (G::start(), line),
        },
    };
    let mut record = GameRecord::<G>::new(start);
    let moves = pdn::read_moves(moves)?;
    for text in &moves {
        record.push_text(text).map_err(|e| {
            format!(
                "'{}' is neither a position nor moves from it: {e}",
                excerpt(line)
            )
        })?;
    }
    if record.outcome().is_some() {
        return Err("the game is already over after this opening".into());
    }
    Ok(Opening {
        start,
        moves: record.moves().to_vec(),
    })
}

/// `count` openings of `plies` random legal plies from the start.
pub fn random_openings<G: Game>(
    count: usize,
    plies: usize,
    seed: u64,
) -> Result<Vec<Opening<G>>, CliError> {
    let mut rng = Random(seed);
    let mut openings = Vec::new();
    let mut moves = Vec::new();
    while openings.len() < count {
        let mut found = None;
        for _ in 0..1000 {
            let mut record = GameRecord::<G>::new(G::start());
            while record.moves().len() < plies && record.outcome().is_none() {
                G::generate(record.current(), Duplicates::Drop, &mut moves);
                let mv = moves[rng.below(moves.len())];
                record.push(mv);
            }
            if record.outcome().is_none() {
                found = Some(record.moves().to_vec());
                break;
            }
        }
        let moves = found.ok_or_else(|| {
            CliError(format!(
                "found no random opening of {plies} plies that leaves the game open"
            ))
        })?;
        openings.push(Opening {
            start: G::start(),
            moves,
        });
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use polydam_engine::diagonal::rules::{English, International};
    use polydam_engine::diagonal::Diagonal;
    use polydam_engine::game::Game;

    type Intl = Diagonal<International>;

    #[test]
    fn book_lines_in_every_form() {
        let book = "# comment\n\n32-28 19-23\nW:W31-50:B1-20\nstart;33-29\nW:W31-50:B1-20; 34-30\n";
        let openings = parse_book::<Intl>(book).unwrap();
        assert_eq!(openings.len(), 4);
        assert_eq!(openings[0].moves.len(), 2);
        assert!(openings[1].moves.is_empty());
        assert_eq!(openings[2].moves.len(), 1);
        assert_eq!(openings[3].moves.len(), 1);
    }

    /// The ballot deck of English checkers (engine/openings): 156 openings, each three legal
    /// plies from the start, no two alike, numbered as the ACF numbers them.
    #[test]
    fn the_english_three_move_ballots_are_legal_and_distinct() {
        let text = include_str!("../engine/openings/english-3move.txt");
        let openings = parse_book::<Diagonal<English>>(text).expect("every ballot is legal");
        assert_eq!(openings.len(), 156);
        let mut positions = std::collections::HashSet::new();
        for o in &openings {
            assert_eq!(o.moves.len(), 3);
            let mut record = GameRecord::<Diagonal<English>>::new(o.start);
            for &mv in &o.moves {
                record.push(mv);
            }
            positions.insert(Diagonal::<English>::fen(record.current()));
        }
        assert_eq!(positions.len(), 156, "two ballots reach the same position");
        let numbers: Vec<usize> = text
            .lines()
            .filter_map(|l| l.split("{ACF ").nth(1)?.trim_end_matches('}').parse().ok())
            .collect();
        assert_eq!(numbers.len(), 156);
        assert!(numbers.windows(2).all(|w| w[0] < w[1]) && numbers[155] == 174);
    }

    #[test]
    fn bad_book_lines_are_reported_with_their_number() {
        let err = parse_book::<Intl>("32-28\n32-29\n").unwrap_err();
        assert!(err.0.starts_with("book line 2:"), "{err}");
        let err = parse_book::<Intl>("W:Wxx;32-28\n").unwrap_err();
        assert!(err.0.contains("bad position"), "{err}");
        assert!(parse_book::<Intl>("# nothing\n").is_err());
    }

    #[test]
    fn random_openings_are_reproducible() {
        let a = random_openings::<Intl>(3, 6, 7).unwrap();
        let b = random_openings::<Intl>(3, 6, 7).unwrap();
        assert_eq!(a.len(), 3);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.moves, y.moves);
            assert_eq!(x.moves.len(), 6);
        }
    }
}
