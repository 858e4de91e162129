//! Rule tests for Seesaw Draughts and hex Seesaw, one per clause of `../shared/rules/seesaw.md`,
//! each with a hand-built position and its complete expected move list.
//!
//! Seesaw Draughts squares are Brazilian numbers (29 = a1, 1 = b8); hex cells are named by
//! column letter and the number counted from the bottom of the column (docs/seesaw.md).

use polydam_engine::game::{Duplicates, Game, MoveStyle, Outcome};
use polydam_engine::stacks::SeesawDraughts as Sd;

fn moves_in<G: Game>(fen: &str, style: MoveStyle) -> Vec<String> {
    let pos = G::parse_position(fen).expect("test position parses");
    let mut list = Vec::new();
    G::generate(&pos, Duplicates::Drop, &mut list);
    let mut texts: Vec<String> = list.iter().map(|m| G::move_text(&pos, m, style)).collect();
    texts.sort();
    texts
}

fn moves<G: Game>(fen: &str) -> Vec<String> {
    moves_in::<G>(fen, MoveStyle::Hub)
}

fn after<G: Game>(fen: &str, mv: &str) -> String {
    let pos = G::parse_position(fen).expect("test position parses");
    let m = G::parse_move(&pos, mv).expect("test move is legal");
    G::fen(&G::play(&pos, &m))
}

// ---------------------------------------------------------------- seesaw-draughts

#[test]
fn sd_start_has_seven_quiet_moves() {
    // Card: "from White's side White has 7 quiet moves and no capture".
    assert_eq!(
        moves::<Sd>("start"),
        vec!["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]
    );
    assert_eq!(Sd::fen(&Sd::start()), "W:W21-32:B1-12");
}

#[test]
fn sd_one_stack_captures_backward() {
    // Card: "a stack of size n captures in any of the four diagonal directions (forward and
    // backward, whatever its parity)"; a 1-stack captures like a Brazilian man.
    // White 1-stack d4 (18), Black c3 (22) behind it, b2 (25) empty.
    assert_eq!(moves::<Sd>("W:W18:B22"), vec!["18x25x22"]);
}

#[test]
fn sd_three_stack_captures_at_range_three_with_forced_landing() {
    // Card: "an enemy stack that is 1..n squares away ... it must land on that square".
    // White 3-stack a1 (29); Black d4 (18) three squares up the long diagonal: lands on e5 (15)
    // only, not f6 (11).
    assert_eq!(moves::<Sd>("W:W29^3:B18"), vec!["29x15x18"]);
    assert_eq!(moves_in::<Sd>("W:W29^3:B18", MoveStyle::Pdn), vec!["29x15"]);
    // Black c3 (22) two squares away: lands on d4 (18), right behind, nowhere further.
    assert_eq!(moves::<Sd>("W:W29^3:B22"), vec!["29x18x22"]);
    // At range 4 the 3-stack cannot reach e5 (15); it steps forward to b2 (25) instead.
    assert_eq!(moves::<Sd>("W:W29^3:B15"), vec!["29-25"]);
}

#[test]
fn sd_two_enemies_in_line_block_a_capture() {
    // Card: "provided the square immediately behind the enemy is empty". Black b2 (25) and
    // c3 (22) in line before the a1 (29) 3-stack: no capture; only the g1 (32) stack moves.
    assert_eq!(moves::<Sd>("W:W29^3,32:B22,25"), vec!["32-27", "32-28"]);
}

#[test]
fn sd_no_majority_rule() {
    // Card: "no majority rule: any capture and any continuation may be chosen". From c3 (22):
    // b4 (17) alone, or d4 (18) then f6 (11).
    assert_eq!(
        moves::<Sd>("W:W22:B11,17,18"),
        vec!["22x13x17", "22x8x11x18"]
    );
}

#[test]
fn sd_no_promotion_in_the_middle_of_a_sequence() {
    // Card: "passing through a back rank in the middle of a sequence does nothing". White f6
    // (11) takes e7 (7) landing on d8 (2), Black's back rank, then c7 (6) landing on b6 (9).
    assert_eq!(moves::<Sd>("W:W11:B6,7,29"), vec!["11x9x6x7"]);
    assert_eq!(
        moves_in::<Sd>("W:W11:B6,7,29", MoveStyle::Pdn),
        vec!["11x2x9"]
    );
    assert_eq!(after::<Sd>("W:W11:B6,7,29", "11x2x9"), "B:W9:B29");
}

#[test]
fn sd_odd_stack_promoted_on_the_far_rank() {
    // Card: "an odd stack that ends on the opponent's back rank ... gets one more piece".
    assert_eq!(moves::<Sd>("W:W6:B32"), vec!["6-1", "6-2"]);
    assert_eq!(after::<Sd>("W:W6:B32", "6-1"), "B:W1^2:B32");
    // Also at the end of a capture: d6 (10) takes c7 (6), lands on b8 (1) and grows.
    assert_eq!(after::<Sd>("W:W10:B6,32", "10x1"), "B:W1^2:B32");
    // A Black 3-stack reaching White's back rank becomes 4.
    assert_eq!(after::<Sd>("B:W1:B26^3", "26-30"), "W:W1:B30^4");
}

#[test]
fn sd_even_stack_promoted_on_its_own_rank() {
    // Card: "an even stack that ends on its own back rank gets one more piece".
    assert_eq!(moves::<Sd>("W:W26^2:B1"), vec!["26-30", "26-31"]);
    assert_eq!(after::<Sd>("W:W26^2:B1", "26-31"), "B:W31^3:B1");
    // An even stack ending on the far rank does not grow.
    assert_eq!(after::<Sd>("W:W10^2:B6,32", "10x1"), "B:W1^2:B32");
}

#[test]
fn sd_even_stacks_step_backward() {
    // Card: "an odd stack steps one square diagonally forward, an even stack one square
    // diagonally backward"; "a non-capturing move is always exactly one square".
    assert_eq!(moves::<Sd>("W:W18^2:B1"), vec!["18-22", "18-23"]);
    assert_eq!(moves::<Sd>("W:W18^4:B1"), vec!["18-22", "18-23"]);
    assert_eq!(moves::<Sd>("W:W18^3:B1"), vec!["18-14", "18-15"]);
    // Black's backward is up the board.
    assert_eq!(moves::<Sd>("B:W32:B15^2"), vec!["15-10", "15-11"]);
}

#[test]
fn sd_captured_stacks_are_removed_whole_at_the_end() {
    // Card: "every captured stack is removed whole, whatever its size".
    assert_eq!(after::<Sd>("W:W18:B22^5,1", "18x25"), "B:W25:B1");
}

#[test]
fn sd_no_stacks_or_no_move_loses() {
    // Card: "a player who has no legal move (including having no stacks) loses".
    assert!(moves::<Sd>("B:W18:B").is_empty());
    let pos = Sd::parse_position("B:W18:B").expect("parses");
    assert_eq!(Sd::no_move_outcome(&pos), Outcome::Loss);
    // A White 2-stack on its own back rank has no backward step.
    assert!(moves::<Sd>("W:W29^2:B1").is_empty());
}

#[test]
fn sd_fen_sizes_and_errors() {
    let pos = Sd::parse_position("W:W21,22,23^3:B1,2^2").expect("sized FEN parses");
    assert_eq!(Sd::fen(&pos), "W:W21,22,23^3:B1,2^2");
    // Plain PDN FEN: every size 1.
    assert_eq!(Sd::parse_position("W:W21-32:B1-12"), Ok(Sd::start()));
    let err = |fen: &str| Sd::parse_position(fen).expect_err("refused").to_string();
    assert!(
        err("W:W21^256:B1").contains("at most 255"),
        "{}",
        err("W:W21^256:B1")
    );
    assert!(err("W:W21^0:B1").contains("size 0"));
    assert!(err("W:WK21:B1").contains("king"));
    assert!(err("W:W21,21:B1").contains("twice"));
    assert!(err("W:W33:B1").contains("off the board"));
    assert!(err("W:W21^x:B1").contains("not a number"));
}
