//! Writing finished games as PDN.
//!
//! Tags: `Event`, `Site`, `Date`, `Round` (the game number), `White`, `Black`, `Result` (`*` for
//! a game that did not finish), then
//! `GameType` for the variants PDN numbers or `Variant` otherwise, `FEN` when the game does not
//! start from the variant's start position (or when its GameType is another game's, as Frysk!
//! is written as Frisian), and `Termination` with the referee's reason. The
//! GameType and the result style are the variant's registry row's
//! ([`VariantEntry`](polydam_engine::variants::VariantEntry) `pdn_game_type`, `pdn_result`).

use std::fmt::Write as _;

use polydam_engine::variants::{lookup, PdnResultStyle};

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
    /// The `Event` tag (`polydam match`, `polydam dxp`).
    pub event: String,
    /// The `Site` tag (`?` when there is nothing to say).
    pub site: String,
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
    /// The result, or `None` for a game that did not finish (written `*`).
    pub result: Option<PdnResult>,
    /// The start position's FEN when it is not the variant's start.
    pub fen: Option<String>,
    /// Why the game ended.
    pub termination: String,
    /// The moves in PDN style, from the start position.
    pub moves: Vec<String>,
    /// Whether the first move is the second player's (numbered `1...`).
    pub second_player_starts: bool,
}

/// The PDN `GameType` tag value of a variant (its registry row's), when PDN numbers it.
pub fn game_type(variant: &str) -> Option<String> {
    lookup(variant).ok()?.pdn_game_type.tag_value()
}

/// The result token in the variant's style (its registry row's): `1-0`, `0-1`, `1/2-1/2` for
/// checkers (English and pool, as their PDN files write it), `2-0`, `0-2`, `1-1` for draughts,
/// and for an unknown name.
pub fn result_text(variant: &str, result: PdnResult) -> &'static str {
    let style = lookup(variant).map_or(PdnResultStyle::Draughts, |v| v.pdn_result);
    match (style, result) {
        (PdnResultStyle::Checkers, PdnResult::WhiteWins) => "1-0",
        (PdnResultStyle::Checkers, PdnResult::BlackWins) => "0-1",
        (PdnResultStyle::Checkers, PdnResult::Draw) => "1/2-1/2",
        (PdnResultStyle::Draughts, PdnResult::WhiteWins) => "2-0",
        (PdnResultStyle::Draughts, PdnResult::BlackWins) => "0-2",
        (PdnResultStyle::Draughts, PdnResult::Draw) => "1-1",
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
    let result = game.result.map_or("*", |r| result_text(&game.variant, r));
    tag(&mut out, "Event", &game.event);
    tag(&mut out, "Site", &game.site);
    tag(&mut out, "Date", &game.date);
    tag(&mut out, "Round", &game.round.to_string());
    tag(&mut out, "White", &game.white);
    tag(&mut out, "Black", &game.black);
    tag(&mut out, "Result", result);
    match game_type(&game.variant) {
        Some(value) => tag(&mut out, "GameType", &value),
        None => tag(&mut out, "Variant", &game.variant),
    }
    // A variant written under another game's GameType names its start.
    let fen = game.fen.clone().or_else(|| {
        let v = lookup(&game.variant).ok()?;
        v.pdn_game_type.needs_fen().then(|| (v.start_fen)())
    });
    if let Some(fen) = &fen {
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
    fn game_types_and_result_styles() {
        for (variant, value) in [
            ("international", Some("20")),
            ("english", Some("21")),
            ("italian", Some("22")),
            ("pool", Some("23")),
            ("spanish", Some("24")),
            ("russian", Some("25")),
            ("brazilian", Some("26")),
            ("czech", Some("29")),
            ("turkish", Some("30")),
            ("killer", None),
            ("seesaw", None),
            ("frisian", Some("40")),
            ("frysk", Some("40")),
            ("canadian", Some("27")),
            ("srilankan", Some("27,W,12,12,N2,1")),
            ("thai", Some("31,W,8,8,N2,0")),
            ("no-such-game", None),
        ] {
            assert_eq!(game_type(variant).as_deref(), value, "{variant}");
        }
        for (variant, tokens) in [
            ("english", ["1-0", "0-1", "1/2-1/2"]),
            ("pool", ["1-0", "0-1", "1/2-1/2"]),
            ("russian", ["2-0", "0-2", "1-1"]),
            ("seesaw", ["2-0", "0-2", "1-1"]),
            ("no-such-game", ["2-0", "0-2", "1-1"]),
        ] {
            let results = [PdnResult::WhiteWins, PdnResult::BlackWins, PdnResult::Draw];
            assert_eq!(
                results.map(|r| result_text(variant, r)),
                tokens,
                "{variant}"
            );
        }
    }

    #[test]
    fn a_short_game() {
        let game = PdnGame {
            event: "polydam match".into(),
            site: "?".into(),
            variant: "international".into(),
            round: 3,
            date: "2026.11.22".into(),
            white: "A".into(),
            black: "B \"x\"".into(),
            result: Some(PdnResult::BlackWins),
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
            result: Some(PdnResult::Draw),
            fen: Some("F".into()),
            ..game
        };
        let text = write_game(&game);
        assert!(text.contains("[Variant \"seesaw\"]\n[FEN \"F\"]\n"));
        assert!(text.ends_with("\n1... a 2. b 1-1\n\n"), "{text}");
        let text = write_game(&PdnGame {
            result: None,
            ..game
        });
        assert!(text.contains("[Result \"*\"]\n"), "{text}");
        assert!(text.ends_with("\n1... a 2. b *\n\n"), "{text}");
    }

    #[test]
    fn the_new_classics_have_their_game_types() {
        let game = |variant: &str| PdnGame {
            event: "polydam match".into(),
            site: "?".into(),
            variant: variant.into(),
            round: 1,
            date: "2026.11.22".into(),
            white: "A".into(),
            black: "B".into(),
            result: Some(PdnResult::Draw),
            fen: None,
            termination: "draw".into(),
            moves: Vec::new(),
            second_player_starts: false,
        };
        let frisian = write_game(&game("frisian"));
        assert!(
            frisian.contains("[GameType \"40\"]\n[Termination"),
            "{frisian}"
        );
        // Frysk! is Frisian from its own start, as pydraughts writes it.
        let frysk = write_game(&game("frysk"));
        assert!(
            frysk.contains("[GameType \"40\"]\n[FEN \"W:W46-50:B1-5\"]\n"),
            "{frysk}"
        );
        let canadian = write_game(&game("canadian"));
        assert!(
            canadian.contains("[GameType \"27\"]\n[Termination"),
            "{canadian}"
        );
        let thai = write_game(&game("thai"));
        assert!(thai.contains("[GameType \"31,W,8,8,N2,0\"]\n"), "{thai}");
    }
}
