//! Writing finished games as PDN.
//!
//! Tags: `Event`, `Site`, `Date`, `Round` (the game number), `White`, `Black`, `Result`, then
//! `GameType` for the variants PDN numbers (20 International, 21 English, 22 Italian, 23
//! American pool, 24 Spanish, 25 Russian, 26 Brazilian, 29 Czech, 30 Turkish, 40 Frisian) or
//! `Variant` otherwise, `FEN` when the game does not start from the variant's start position,
//! and `Termination` with the referee's reason.

use std::fmt::Write as _;

/// The game's result from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdnResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

/// One finished game, ready to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// The variant's registry name.
    pub variant: String,
    /// Round number (the game number in the match).
    pub round: usize,
    /// Date as `YYYY.MM.DD`.
    pub date: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The result.
    pub result: PdnResult,
    /// The start position's FEN when it is not the variant's start.
    pub fen: Option<String>,
    /// Why the game ended.
    pub termination: String,
    /// The moves in PDN style, from the start position.
    pub moves: Vec<String>,
    /// Whether the first move is the second player's (numbered `1...`).
    pub second_player_starts: bool,
}

/// The PDN `GameType` number of a variant, when PDN defines one.
pub fn game_type(variant: &str) -> Option<u32> {
    Some(match variant {
        "international" => 20,
        "english" => 21,
        "italian" => 22,
        "pool" => 23,
        "spanish" => 24,
        "russian" => 25,
        "brazilian" => 26,
        "czech" => 29,
        "turkish" => 30,
        "frisian" => 40,
        _ => return None,
    })
}

/// The result token: `1-0`, `0-1`, `1/2-1/2` for English and pool checkers (as their PDN
/// files write it), `2-0`, `0-2`, `1-1` for every other game.
pub fn result_text(variant: &str, result: PdnResult) -> &'static str {
    let checkers = matches!(variant, "english" | "pool");
    match (checkers, result) {
        (true, PdnResult::WhiteWins) => "1-0",
        (true, PdnResult::BlackWins) => "0-1",
        (true, PdnResult::Draw) => "1/2-1/2",
        (false, PdnResult::WhiteWins) => "2-0",
        (false, PdnResult::BlackWins) => "0-2",
        (false, PdnResult::Draw) => "1-1",
    }
}

/// A tag value with its quotes and backslashes escaped.
fn tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{escaped}\"]");
}

/// The game as PDN text, ending with a blank line.
pub fn write_game(game: &PdnGame) -> String {
    let mut out = String::new();
    let result = result_text(&game.variant, game.result);
    tag(&mut out, "Event", "polydam match");
    tag(&mut out, "Site", "?");
    tag(&mut out, "Date", &game.date);
    tag(&mut out, "Round", &game.round.to_string());
    tag(&mut out, "White", &game.white);
    tag(&mut out, "Black", &game.black);
    tag(&mut out, "Result", result);
    match game_type(&game.variant) {
        Some(n) => tag(&mut out, "GameType", &n.to_string()),
        None => tag(&mut out, "Variant", &game.variant),
    }
    if let Some(fen) = &game.fen {
        tag(&mut out, "FEN", fen);
    }
    tag(&mut out, "Termination", &game.termination);
    out.push('\n');
    let mut tokens = Vec::new();
    let offset = usize::from(game.second_player_starts);
    for (i, mv) in game.moves.iter().enumerate() {
        let ply = i + offset;
        // The move number stays on the line of its move.
        if ply % 2 == 0 {
            tokens.push(format!("{}. {mv}", ply / 2 + 1));
        } else if i == 0 {
            tokens.push(format!("{}... {mv}", ply / 2 + 1));
        } else {
            tokens.push(mv.clone());
        }
    }
    tokens.push(result.to_owned());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// Today's date (UTC) as `YYYY.MM.DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
    }

    #[test]
    fn a_short_game() {
        let game = PdnGame {
            variant: "international".into(),
            round: 3,
            date: "2026.11.22".into(),
            white: "A".into(),
            black: "B \"x\"".into(),
            result: PdnResult::BlackWins,
            fen: None,
            termination: "illegal move 50-45 by A".into(),
            moves: vec!["32-28".into(), "19-23".into(), "28x19".into()],
            second_player_starts: false,
        };
        let text = write_game(&game);
        assert!(text.contains("[Round \"3\"]\n"));
        assert!(text.contains("[Black \"B \\\"x\\\"\"]\n"));
        assert!(text.contains("[Result \"0-2\"]\n[GameType \"20\"]\n"));
        assert!(
            text.ends_with("\n1. 32-28 19-23 2. 28x19 0-2\n\n"),
            "{text}"
        );
        let game = PdnGame {
            variant: "seesaw".into(),
            moves: vec!["a".into(), "b".into()],
            second_player_starts: true,
            result: PdnResult::Draw,
            fen: Some("F".into()),
            ..game
        };
        let text = write_game(&game);
        assert!(text.contains("[Variant \"seesaw\"]\n[FEN \"F\"]\n"));
        assert!(text.ends_with("\n1... a 2. b 1-1\n\n"), "{text}");
    }
}
