//! Rule tests for Frisian draughts and Frysk!, one per clause of `../shared/rules/frisian.md`
//! that the perft rows cannot reach (perft from the start meets a king only at depth 7, a
//! fourth successive king move only at depth 13). Each test gives a hand-built position and its
//! complete expected move list (Hub form, captured squares ascending).
//!
//! Squares are numbered 1-50 as in International (1 = b10, 46 = a1); the comments give the
//! algebraic squares. Along a row the next dark square is n ± 1, along a file n ± 10.

use crate::support::{moves, moves_in};
use polydam_engine::diagonal::rules::{Frisian, Frysk};
use polydam_engine::diagonal::Diagonal;
use polydam_engine::game::{Duplicates, Game, MoveStyle, Outcome, Side};
use polydam_engine::record::{EndReason, GameRecord};
use polydam_tables::diagonal::TEN;

type F = Diagonal<Frisian>;

/// The bit index of square `n` (1-50), as [`polydam_engine::diagonal::KingMoves`] gives it.
fn bit(n: usize) -> u32 {
    TEN.bit_index(n - 1)
}

/// The record of the game from `fen` after the moves `line` (space-separated).
fn after(fen: &str, line: &str) -> GameRecord<F> {
    let mut record = GameRecord::<F>::new(F::parse_position(fen).expect("test position parses"));
    for mv in line.split_whitespace() {
        record
            .push_text(mv)
            .unwrap_or_else(|e| panic!("{mv} in {}: {e}", F::fen(record.current())));
    }
    record
}

/// The sorted legal moves (Hub form) of the record's current position.
fn legal(record: &GameRecord<F>) -> Vec<String> {
    moves::<F>(&F::fen(record.current()))
}

#[test]
fn frisian_man_captures_along_rows_and_files() {
    // The f4 man (33) takes d4 (32) along its row, landing on b4 (31), or f6 (23) up its
    // file, landing on f8 (13): one man either way, so both are legal.
    assert_eq!(moves::<F>("W:W33:B32,23,1"), vec!["33x13x23", "33x31x32"]);
}

#[test]
fn frisian_king_captures_along_rows_and_files_at_any_distance() {
    // The e1 king (48) takes e5 (28) up the file over e3 (38), landing on e7 or e9.
    assert_eq!(moves::<F>("W:WK48:B28,1"), vec!["48x18x28", "48x8x28"]);
    // The a3 king (36) takes e3 (38) along its row over c3 (37), landing on g3 or i3.
    assert_eq!(moves::<F>("W:WK36:B38,1"), vec!["36x39x38", "36x40x38"]);
}

#[test]
fn frisian_king_simple_moves_are_diagonal_only() {
    // The a1 king slides along its diagonal only, never up the a-file or along the first row.
    assert_eq!(
        moves::<F>("W:WK46:B1"),
        vec!["46-10", "46-14", "46-19", "46-23", "46-28", "46-32", "46-37", "46-41", "46-5"]
    );
}

#[test]
fn frisian_value_rule_1_higher_value_first() {
    // One king (value 2) beats one man (value 1): the f4 man must take the f6 king, not d4.
    assert_eq!(moves::<F>("W:W33:B32,K23,1"), vec!["33x13x23"]);
    // Two kings (value 4) beat three men (value 3): up the file over the f6 king and along
    // row 8 over the h8 king (14), not the men d4, b6 and c9 (ending on d10).
    assert_eq!(moves::<F>("W:W33:B32,21,7,K23,K14"), vec!["33x15x14x23"]);
    assert_eq!(moves::<F>("W:W33:B32,21,7"), vec!["33x2x7x21x32"]);
}

#[test]
fn frisian_value_rule_2_fewer_kings_at_equal_value() {
    // Two men (value 2, no king) beat one king (value 2): d4 and b6, not the f6 king.
    assert_eq!(moves::<F>("W:W33:B32,21,K23,1"), vec!["33x11x21x32"]);
    // One king and two men (value 4) beat two kings (value 4), our reading of the card's
    // ladder: d4, the b6 king and c9, not the kings on f6 and h8.
    assert_eq!(moves::<F>("W:W33:B32,K21,7,K23,K14"), vec!["33x2x7x21x32"]);
}

#[test]
fn frisian_value_rule_3_with_a_king_at_equal_material() {
    // The a1 king's capture of a5 (26) and the i3 man's capture of i5 (30) take one man each:
    // the king's must be played (either landing).
    assert_eq!(
        moves::<F>("W:W40,K46:B30,26,1"),
        vec!["46x16x26", "46x6x26"]
    );
    assert_eq!(moves::<F>("W:W40:B30,26,1"), vec!["40x20x30"]);
}

#[test]
fn frisian_value_rule_4_otherwise_free() {
    // Equal material, both with men: either capture (first test above); a king's equal
    // captures may land on any square beyond: every landing is listed.
    assert_eq!(moves::<F>("W:W33:B32,23,1").len(), 2);
    assert_eq!(moves::<F>("W:WK48:B28,1").len(), 2);
}

#[test]
fn frisian_man_passing_the_far_row_stays_a_man() {
    // The f8 man (13) takes e9 (8), reaches d10 (2) and must go on down the d-file over d8
    // (12) to d6 (22): it ends there as a man.
    let record = after("W:W13:B8,12", "13x22x8x12");
    assert_eq!(F::fen(record.current()), "B:W22:B");
}

#[test]
fn frisian_pdn_writes_start_and_end_unless_two_captures_share_them() {
    assert_eq!(
        moves_in::<F>("W:W33:B32,21,7", MoveStyle::Pdn),
        vec!["33x2"]
    );
    assert_eq!(
        moves_in::<F>("W:W33:B32,23,1", MoveStyle::Pdn),
        vec!["33x13", "33x31"]
    );
}

/// The start of the king-limit tests: a1 king and i1 man against an h10 king and a b10 man;
/// both kings shuffle until each has made three quiet moves in a row.
const SHUFFLE: &str = "W:WK46,50:BK4,1";
const THREE_EACH: &str = "46-41 4-9 41-46 9-4 46-41 4-9";

#[test]
fn frisian_king_limit_fourth_quiet_move_refused() {
    let record = after(SHUFFLE, THREE_EACH);
    // The b2 king (41) has made three quiet moves: only the man may move.
    assert_eq!(legal(&record), vec!["50-44", "50-45"]);
    assert_eq!(
        record.current().king_moves().count(Side::White),
        Some((3, bit(41)))
    );
    // Lidraughts' FEN field: Black's king on g9 (9) and White's on b2 (41), three moves each.
    assert_eq!(F::fen(record.current()), "W:WK41,50:B1,K9:+309+341");
    let read = F::parse_position("W:WK41,50:B1,K9:H0:F4:+309+341").expect("lidraughts FEN");
    assert_eq!(&read, record.current());
    assert_eq!(F::hash(&read), F::hash(record.current()));
    // Without the counters it is another position, with the king free to move.
    let fresh = F::parse_position("W:WK41,50:B1,K9").expect("parses");
    assert_ne!(fresh, read);
    assert_ne!(F::hash(&fresh), F::hash(&read));
    assert_eq!(legal(&GameRecord::new(fresh)).len(), 13);
}

#[test]
fn frisian_king_limit_released_by_another_move() {
    // White moves its man: its counter is cleared. Black's g9 king is limited in turn.
    let record = after(SHUFFLE, &format!("{THREE_EACH} 50-45"));
    assert_eq!(legal(&record), vec!["1-6", "1-7"]);
    assert_eq!(record.current().king_moves().count(Side::White), None);
    // Black's man move frees Black's king; White's king may move again, and counts from 1.
    let record = after(SHUFFLE, &format!("{THREE_EACH} 50-45 1-7 41-46"));
    assert_eq!(
        record.current().king_moves().count(Side::White),
        Some((1, bit(46)))
    );
    let record = after(SHUFFLE, &format!("{THREE_EACH} 50-45 1-7"));
    assert_eq!(
        legal(&record),
        vec![
            "41-10", "41-14", "41-19", "41-23", "41-28", "41-32", "41-36", "41-37", "41-46",
            "41-47", "41-5", "45-40"
        ]
    );
}

#[test]
fn frisian_king_limit_released_by_a_capture() {
    // A capture by the limited king itself clears its counter: White's b2 king has made three
    // quiet moves and takes d4 (32) on the long diagonal.
    let record = after("W:WK41,50:BK16,32,1:+0+341", "41x28x32");
    assert_eq!(record.current().king_moves().count(Side::White), None);
}

#[test]
fn frisian_king_limit_lapses_when_the_side_has_no_men() {
    // Kings only: no limit, the a1 king makes a fourth and fifth quiet move in a row.
    let record = after("W:WK46:BK4,K1", "46-41 4-9 41-46 9-4 46-41 4-9 41-46 9-4");
    assert_eq!(record.current().king_moves().count(Side::White), None);
    assert!(legal(&record).contains(&"46-41".to_string()));
    // Losing the last man lifts the limit at once: Black's h6 man takes White's i5 man, and
    // the limited b2 king may move again.
    let pos = F::parse_position("B:WK41,30:BK3,24:+0+341").expect("parses");
    assert_eq!(moves::<F>(&F::fen(&pos)), vec!["24x35x30"]);
    let record = after("B:WK41,30:BK3,24:+0+341", "24x35x30");
    assert_eq!(record.current().king_moves().count(Side::White), None);
    assert_eq!(legal(&record).len(), 11);
}

#[test]
fn frisian_king_limit_side_without_a_move_loses() {
    // The b2 king may not make a fourth quiet move and cannot capture; the i1 man is blocked
    // (h2 and j2 taken, g3 behind h2): White has no legal move and loses.
    let limited = "W:WK41,50:B39,44,45,K5:+0+341";
    assert!(moves::<F>(limited).is_empty());
    let record = GameRecord::<F>::new(F::parse_position(limited).expect("parses"));
    assert_eq!(record.outcome(), Some((Outcome::Loss, EndReason::NoMoves)));
    // The same board without the counter: the king moves.
    assert_eq!(moves::<F>("W:WK41,50:B39,44,45,K5").len(), 10);
}

#[test]
fn frisian_king_limit_rebuilt_from_the_moves_of_a_game() {
    // A Hub client sends the start and every move: replaying them gives the counters, as the
    // FEN field does.
    let record = after(SHUFFLE, THREE_EACH);
    let from_fen = F::parse_position(&F::fen(record.current())).expect("parses");
    assert_eq!(&from_fen, record.current());
    // Bad counters are refused with a reason.
    for (fen, why) in [
        ("W:WK41,50:B1,K9:+309+346", "no white king on square 46"),
        ("W:WK41:B1,K9:+0+341", "white has no men"),
        ("W:WK41,50:B1,K9:+4+0", "count must be 0 to 3"),
        ("W:WK41,50:B1,K9:+0+3", "has no square"),
        ("W:WK41,50:B1,K9:+0", "expected +<count><square>"),
    ] {
        let err = F::parse_position(fen).expect_err(fen).to_string();
        assert!(err.contains(why), "{fen}: {err}");
    }
    let err = Diagonal::<polydam_engine::diagonal::rules::International>::parse_position(
        "W:WK41,50:B1,K9:+0+341",
    )
    .expect_err("International has no king-move limit")
    .to_string();
    assert!(err.contains("no king-move limit"), "{err}");
}

/// Plays quiet moves that neither capture nor allow a capture nor repeat a position, until
/// `plies` have been played.
fn wander(record: &mut GameRecord<F>, plies: usize) {
    let mut seen: Vec<u64> = vec![F::hash(record.current())];
    for ply in 0..plies {
        assert_eq!(record.outcome(), None, "game ended early at ply {ply}");
        let pos = *record.current();
        let mut list = Vec::new();
        F::generate(&pos, Duplicates::Drop, &mut list);
        let next = list.into_iter().find(|m| {
            let child = F::play(&pos, m);
            let mut replies = Vec::new();
            F::generate(&child, Duplicates::Drop, &mut replies);
            !F::is_capture(m)
                && !seen.contains(&F::hash(&child))
                && !replies.iter().any(F::is_capture)
        });
        let mv = next.expect("a fresh quiet king move exists");
        record.push(mv);
        seen.push(F::hash(record.current()));
    }
}

#[test]
fn frisian_two_kings_against_one_drawn_fourteen_plies_after_it_arose() {
    // The a1 king takes c3 (37), landing on d4 (32): two kings against one.
    let mut record = after("W:WK46,K50:BK6,37", "46x32x37");
    assert_eq!(F::endgame_ply_limit(record.current()), Some(14));
    wander(&mut record, 13);
    assert_eq!(record.outcome(), None);
    wander_one_more(&mut record);
    assert_eq!(
        record.outcome(),
        Some((Outcome::Draw, EndReason::EndgameCounter))
    );
}

#[test]
fn frisian_one_king_against_one_drawn_four_plies_after_it_arose() {
    let mut record = after("W:WK46:BK6,37", "46x32x37");
    wander(&mut record, 3);
    assert_eq!(record.outcome(), None);
    wander_one_more(&mut record);
    assert_eq!(
        record.outcome(),
        Some((Outcome::Draw, EndReason::EndgameCounter))
    );
}

#[test]
fn frisian_other_endings_have_no_count() {
    for fen in ["W:WK46,K47,K50:BK3", "W:WK46,50:BK3", "W:WK46,K50:BK3,K4"] {
        let pos = F::parse_position(fen).expect("parses");
        assert_eq!(F::endgame_ply_limit(&pos), None, "{fen}");
    }
    // No quiet-move rule: threefold repetition is the only other draw.
    let rules = F::draw_rules();
    assert_eq!((rules.repetitions, rules.quiet_plies), (3, 0));
}

/// One more quiet move (a capture-free one, if any).
fn wander_one_more(record: &mut GameRecord<F>) {
    let pos = *record.current();
    let mut list = Vec::new();
    F::generate(&pos, Duplicates::Drop, &mut list);
    let mv = list
        .into_iter()
        .find(|m| !F::is_capture(m))
        .expect("a quiet move");
    record.push(mv);
}

#[test]
fn frysk_starts_with_five_men_each_under_frisian_rules() {
    type Y = Diagonal<Frysk>;
    assert_eq!(Y::fen(&Y::start()), "W:W46-50:B1-5");
    // Frisian rules from Frysk!'s start: the same moves.
    assert_eq!(moves::<Y>("W:W46-50:B1-5"), moves::<F>("W:W46-50:B1-5"));
    assert_eq!(moves::<Y>("W:W33:B32,K21,7,K23,K14"), vec!["33x2x7x21x32"]);
}
