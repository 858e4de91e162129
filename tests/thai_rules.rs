//! Rule tests for Thai draughts (Mak-hot), one per clause of `../shared/rules/thai.md` that the
//! perft rows do not pin (they use a three-row start and meet the Thai king only from depth 9).
//! Each test gives a hand-built position and its complete expected move list.
//!
//! Squares are numbered 1-32 as in the 8x8 card (1 = b8, 29 = a1); the comments give the
//! algebraic squares.

use crate::support::{moves, moves_in};
use polydam_engine::diagonal::rules::{Brazilian, Russian, Thai};
use polydam_engine::diagonal::Diagonal;
use polydam_engine::game::{Game, MoveStyle};

type T = Diagonal<Thai>;
type Ru = Diagonal<Russian>;

#[test]
fn thai_start_has_eight_men_each_and_white_moves_first() {
    assert_eq!(T::fen(&T::start()), "W:W25-32:B1-8");
    assert_eq!(
        T::hub_position(&T::start()),
        format!("W{}{}{}", "b".repeat(8), "e".repeat(16), "w".repeat(8))
    );
    assert_eq!(
        moves::<T>("W:W25-32:B1-8"),
        vec!["25-21", "25-22", "26-22", "26-23", "27-23", "27-24", "28-24"]
    );
}

#[test]
fn thai_king_lands_right_behind_the_captured_piece() {
    // The a1 king takes e5 (15) from afar over b2, c3 and d4, and must land on f6 (11), not
    // g7 or h8 as a Russian king may.
    assert_eq!(moves::<T>("W:WK29:B15,1"), vec!["29x11x15"]);
    assert_eq!(
        moves::<Ru>("W:WK29:B15,1"),
        vec!["29x11x15", "29x4x15", "29x8x15"]
    );
}

#[test]
fn thai_king_turns_back_180_degrees_over_the_emptied_squares() {
    // The d4 king takes e5 (15), lands on f6 (11) and turns straight back: e5 is empty at once
    // (immediate removal), d4 is its own start, and it takes c3 (22) landing on b2 (25). Or
    // the other way round. A Russian king can do neither: the captured piece would block it.
    assert_eq!(
        moves::<T>("W:WK18:B15,22,1"),
        vec!["18x11x15x22", "18x25x15x22"]
    );
    assert_eq!(
        moves::<Ru>("W:WK18:B15,22,1"),
        vec!["18x11x15", "18x25x22", "18x29x22", "18x4x15", "18x8x15"]
    );
}

#[test]
fn thai_men_capture_forward_only() {
    // The c3 man takes d4 (18) forward, never b2 (25) behind it.
    assert_eq!(moves::<T>("W:W22:B18,25,1"), vec!["22x15x18"]);
    assert_eq!(moves::<Ru>("W:W22:B18,25,1"), vec!["22x15x18", "22x29x25"]);
}

#[test]
fn thai_no_precedence_any_capture_may_be_chosen() {
    // The c3 man may take one piece (b4, landing on a5) or two (d4, then f6, landing on g7):
    // both are legal, where Brazilian's majority rule keeps the longer.
    assert_eq!(
        moves::<T>("W:W22:B17,18,11"),
        vec!["22x13x17", "22x8x11x18"]
    );
    assert_eq!(
        moves::<Diagonal<Brazilian>>("W:W22:B17,18,11"),
        vec!["22x8x11x18"]
    );
}

#[test]
fn thai_pdn_captures_use_the_dash() {
    assert_eq!(
        moves_in::<T>("W:WK18:B15,22,1", MoveStyle::Pdn),
        vec!["18-11", "18-25"]
    );
    // Read back in that form and in Hub form.
    let pos = T::parse_position("W:WK18:B15,22,1").expect("parses");
    let dash = T::parse_move(&pos, "18-11").expect("a capture written with -");
    let hub = T::parse_move(&pos, "18x11x15x22").expect("Hub form");
    assert_eq!(dash, hub);
}

#[test]
fn thai_draws_are_threefold_repetition_and_25_moves_each() {
    let rules = T::draw_rules();
    assert_eq!(
        (rules.repetitions, rules.quiet_plies, rules.endgame_counters),
        (3, 50, false)
    );
}
