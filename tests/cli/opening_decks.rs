//! The opening decks shipped in engine/openings/ that `polydam openings` made: every line is
//! legal in its variant, the positions are distinct and balanced by the score written beside
//! them, and there are enough for a 200-game match.

use std::collections::HashSet;

use polydam::openings::parse_book;
use polydam_engine::diagonal::rules::{Brazilian, Italian, Russian};
use polydam_engine::diagonal::Diagonal;
use polydam_engine::game::Game;
use polydam_engine::record::GameRecord;

/// Checks the deck `name` of `G`: its header, then every line.
fn check_deck<G: Game>(name: &str) {
    let path = format!("{}/engine/openings/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let header = format!(
        "# polydam openings variant={} plies=3 max-score=0.3",
        G::NAME
    );
    assert!(
        text.starts_with(&header),
        "{path}: {}",
        text.lines().next().unwrap_or("")
    );
    let openings = parse_book::<G>(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(openings.len() >= 100, "{path}: {} openings", openings.len());
    let mut positions = HashSet::new();
    for o in &openings {
        assert_eq!(o.moves.len(), 3, "{path}");
        let mut record = GameRecord::<G>::new(o.start);
        for &mv in &o.moves {
            record.push(mv);
        }
        assert!(
            positions.insert(G::fen(record.current())),
            "{path}: a position twice"
        );
    }
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let score = line
            .split_once(" {")
            .and_then(|(_, s)| s.trim_end_matches('}').parse::<f64>().ok())
            .unwrap_or_else(|| panic!("{path}: no score in '{line}'"));
        assert!(score.abs() <= 0.3, "{path}: {line}");
    }
}

#[test]
fn the_russian_brazilian_and_italian_decks_are_legal_distinct_and_balanced() {
    check_deck::<Diagonal<Russian>>("russian-3move.txt");
    check_deck::<Diagonal<Brazilian>>("brazilian-3move.txt");
    check_deck::<Diagonal<Italian>>("italian-3move.txt");
}
