//! The training-data format: one position per line, as text, so that files from separate runs
//! simply concatenate (`cat a.txt b.txt > all.txt`).
//!
//! ```text
//! # polydam selfplay variant=international seed=1 ...
//! W:W31-33,35-37,39-50:B1-15,17-20,23,25 0.5 -12 9
//! ```
//!
//! A line is `POSITION RESULT SCORE PLY`, separated by single spaces:
//!
//! - `POSITION`: the variant's FEN ([`polydam_engine::game::Game::fen`]), read back with
//!   [`polydam_engine::game::Game::parse_position`]. The last three fields are split off from the
//!   right, so a position text holding spaces would still read back.
//! - `RESULT`: the game's result from the point of view of the side to move in this
//!   position: `1` (it went on to win), `0.5` (draw), `0` (loss).
//! - `SCORE`: the search score of the position, from the side to move's point of view, in
//!   hundredths of a man (forced wins are `10000 - plies`, as [`polydam_engine::search::Score`]).
//! - `PLY`: plies played in the game before this position.
//!
//! Lines starting with `#` are comments and blank lines are skipped, so a file may carry a
//! comment line describing the run that made it and still concatenate with others.

use std::fmt;

use polydam_engine::game::Outcome;
use polydam_engine::text::excerpt;

/// One training position, its position still as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataLine {
    /// The position as the variant's FEN.
    pub position: String,
    /// The game's result for the side to move in this position.
    pub result: Outcome,
    /// The search score for the side to move, in hundredths of a man.
    pub score: i32,
    /// Plies played before this position.
    pub ply: u32,
}

/// A line that is not a data line, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError(pub String);

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DataError {}

/// The text of a result: `1`, `0.5` or `0`.
pub fn result_text(result: Outcome) -> &'static str {
    match result {
        Outcome::Win => "1",
        Outcome::Draw => "0.5",
        Outcome::Loss => "0",
    }
}

/// The result as a training target: 1, 0.5 or 0.
pub fn result_value(result: Outcome) -> f32 {
    match result {
        Outcome::Win => 1.0,
        Outcome::Draw => 0.5,
        Outcome::Loss => 0.0,
    }
}

impl fmt::Display for DataLine {
    /// The line without its newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {}",
            self.position,
            result_text(self.result),
            self.score,
            self.ply
        )
    }
}

impl DataLine {
    /// Reads one line of a data file: `Ok(None)` for a comment or a blank line.
    pub fn parse(line: &str) -> Result<Option<DataLine>, DataError> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(None);
        }
        let mut fields = line.rsplitn(4, ' ');
        let (Some(ply), Some(score), Some(result), Some(position)) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(DataError(
                "expected POSITION RESULT SCORE PLY (four fields)".into(),
            ));
        };
        let result = match result {
            "1" => Outcome::Win,
            "0.5" => Outcome::Draw,
            "0" => Outcome::Loss,
            other => {
                return Err(DataError(format!(
                    "result '{}' is not 1, 0.5 or 0",
                    excerpt(other)
                )))
            }
        };
        let score = score
            .parse::<i32>()
            .map_err(|_| DataError(format!("score '{}' is not an integer", excerpt(score))))?;
        let ply = ply
            .parse::<u32>()
            .map_err(|_| DataError(format!("ply '{}' is not a count", excerpt(ply))))?;
        let position = position.trim();
        if position.is_empty() {
            return Err(DataError("the position is empty".into()));
        }
        Ok(Some(DataLine {
            position: position.to_string(),
            result,
            score,
            ply,
        }))
    }
}

/// The variant a run's comment line names (`# polydam selfplay variant=NAME ...`), if `line`
/// is such a line.
pub fn header_variant(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("polydam selfplay")?;
    rest.split_whitespace()
        .find_map(|field| field.strip_prefix("variant="))
}

#[cfg(test)]
mod tests {
    use super::*;
    use polydam_engine::diagonal::{rules::International, Diagonal};
    use polydam_engine::game::Game;

    type Intl = Diagonal<International>;

    #[test]
    fn the_header_names_the_variant() {
        let line = "# polydam selfplay variant=killer seed=3 games=10 depth=6";
        assert_eq!(header_variant(line), Some("killer"));
        assert_eq!(header_variant("# a comment variant=x"), None);
        assert_eq!(header_variant("W:W31-50:B1-20 1 0 8"), None);
    }

    #[test]
    fn lines_round_trip() {
        for (result, score, ply) in [
            (Outcome::Win, 35, 0),
            (Outcome::Draw, -12, 9),
            (Outcome::Loss, -9_996, 131),
        ] {
            let line = DataLine {
                position: Intl::fen(&Intl::start()),
                result,
                score,
                ply,
            };
            let text = line.to_string();
            assert!(!text.contains('\n'));
            assert_eq!(DataLine::parse(&text), Ok(Some(line.clone())));
            let pos = Intl::parse_position(&line.position).expect("the FEN reads back");
            assert_eq!(pos, Intl::start());
        }
    }

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        assert_eq!(DataLine::parse("# polydam selfplay"), Ok(None));
        assert_eq!(DataLine::parse("   "), Ok(None));
    }

    #[test]
    fn malformed_lines_say_why() {
        for (line, why) in [
            ("W:W31-50:B1-20 1 5", "four fields"),
            ("W:W31-50:B1-20 2 5 0", "result '2'"),
            ("W:W31-50:B1-20 1 x 0", "score 'x'"),
            ("W:W31-50:B1-20 1 5 -1", "ply '-1'"),
        ] {
            let err = DataLine::parse(line).expect_err(line);
            assert!(err.0.contains(why), "{line}: {err}");
        }
    }
}
