//! Endgames that a variant's rules make winnable: two kings against one under
//! `constitutional`, three against one under `dbc-killer-light`. In International and in `dbc`
//! the same positions are draws (the lone king keeps to the long diagonal), so each test checks
//! both: the parent variant's search sees no win, and under the variant the engine, playing
//! both sides at a fixed depth, wins the game with the referee applying every draw rule (the
//! 5- and 16-move endgame limits included).

use polydam_engine::diagonal::eval::{lone_king_holds_against, main_road_decides};
use polydam_engine::diagonal::rules::{
    Constitutional, Dbc, DbcKillerLight, International, DBC, INTERNATIONAL,
};
use polydam_engine::diagonal::rules::{BRAZILIAN, CONSTITUTIONAL, DBC_KILLER_LIGHT, RUSSIAN};
use polydam_engine::diagonal::Diagonal;
use polydam_engine::game::{Game, MoveStyle, Outcome, Side};
use polydam_engine::record::GameRecord;
use polydam_engine::search::{Limits, SearchControl, Searcher};

/// Depth both sides search at: the wins below take at most 13 plies.
const DEPTH: i32 = 14;

/// Asserts that the parent variant's search, White to move in `fen`, finds no win.
fn parent_is_not_won<G: Game>(fen: &str) {
    let pos = G::parse_position(fen).expect("test position parses");
    let record = GameRecord::<G>::new(pos);
    let mut searcher = Searcher::<G>::new(16, 1);
    let result = searcher.search(
        &record,
        &Limits::depth(DEPTH),
        &SearchControl::new(),
        &mut |_| {},
    );
    assert!(
        !result.score.is_win(),
        "{} {fen}: the parent variant should hold, search says {}",
        G::NAME,
        result.score.hub()
    );
}

/// Plays `fen` out with the engine on both sides; returns the winner and the moves played.
fn play_out<G: Game>(fen: &str) -> (Option<Side>, String) {
    let pos = G::parse_position(fen).expect("test position parses");
    let mut record = GameRecord::<G>::new(pos);
    // One searcher per side, as in a match; fresh tables would do as well.
    let mut searchers = [Searcher::<G>::new(16, 1), Searcher::<G>::new(16, 1)];
    let mut line = String::new();
    for _ in 0..200 {
        if let Some((outcome, _reason)) = record.outcome() {
            let mover = G::side_to_move(record.current());
            let winner = match outcome {
                Outcome::Win => Some(mover),
                Outcome::Loss => Some(mover.opponent()),
                Outcome::Draw => None,
            };
            return (winner, line);
        }
        let pos = *record.current();
        let side = G::side_to_move(&pos).index();
        let result = searchers[side].search(
            &record,
            &Limits::depth(DEPTH),
            &SearchControl::new(),
            &mut |_| {},
        );
        let mv = result.best_move.expect("a legal move exists");
        line.push_str(&G::move_text(&pos, &mv, MoveStyle::Hub));
        line.push(' ');
        record.push(mv);
    }
    panic!("{} {fen}: no result in 200 plies: {line}", G::NAME);
}

fn won_by_white<G: Game>(fen: &str) {
    let (winner, line) = play_out::<G>(fen);
    assert_eq!(winner, Some(Side::White), "{} {fen}: {line}", G::NAME);
}

/// Two kings against one, the lone king on or near the long diagonal, White to move.
const TWO_AGAINST_ONE: [&str; 5] = [
    "W:WK2,K25:BK28",
    "W:WK7,K6:BK46",
    "W:WK20,K25:BK41",
    "W:WK9,K37:BK49",
    "W:WK1,K25:BK44",
];

/// Three kings against one on the long diagonal, White to move.
const THREE_AGAINST_ONE: [&str; 5] = [
    "W:WK30,K49,K39:BK5",
    "W:WK6,K49,K1:BK14",
    "W:WK33,K12,K18:BK37",
    "W:WK13,K48,K3:BK28",
    "W:WK43,K31,K1:BK41",
];

#[test]
fn constitutional_two_kings_beat_one() {
    for fen in TWO_AGAINST_ONE {
        parent_is_not_won::<Diagonal<International>>(fen);
        won_by_white::<Diagonal<Constitutional>>(fen);
    }
}

#[test]
fn dbc_killer_light_three_kings_beat_one() {
    for fen in THREE_AGAINST_ONE {
        parent_is_not_won::<Diagonal<Dbc>>(fen);
        won_by_white::<Diagonal<DbcKillerLight>>(fen);
    }
}

#[test]
fn the_evaluation_knows_which_lone_king_endings_are_won() {
    assert_eq!(lone_king_holds_against(&INTERNATIONAL), 3);
    assert_eq!(lone_king_holds_against(&DBC), 3);
    assert_eq!(lone_king_holds_against(&CONSTITUTIONAL), 1);
    assert_eq!(lone_king_holds_against(&DBC_KILLER_LIGHT), 2);
    // On 8x8 the lone king holds against three on the main road only.
    assert_eq!(lone_king_holds_against(&RUSSIAN), 3);
    assert!(main_road_decides(&RUSSIAN) && main_road_decides(&BRAZILIAN));
    assert!(!main_road_decides(&INTERNATIONAL) && !main_road_decides(&DBC));
    // The evaluation sees the won ending as clearly better than the held one.
    let won = Diagonal::<Constitutional>::parse_position("W:WK2,K25:BK28").expect("parses");
    let held = Diagonal::<International>::parse_position("W:WK2,K25:BK28").expect("parses");
    let won_eval = Diagonal::<Constitutional>::evaluate(&won);
    let held_eval = Diagonal::<International>::evaluate(&held);
    assert!(
        won_eval > held_eval + 200,
        "constitutional {won_eval} vs international {held_eval}"
    );
}
