//! Rule tests for Seesaw Draughts and hex Seesaw, one per clause of `../shared/rules/seesaw.md`,
//! each with a hand-built position and its complete expected move list.
//!
//! Seesaw Draughts squares are Brazilian numbers (29 = a1, 1 = b8); hex cells are named by
//! column letter and the number counted from the bottom of the column (docs/seesaw.md).

use crate::support::{moves, moves_in};
use polydam_engine::game::{Duplicates, Game, MoveStyle, Outcome};
use polydam_engine::perft::count_paths;
use polydam_engine::stacks::SeesawDraughts as Sd;

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

// ---------------------------------------------------------------- hex Seesaw (side 4)

use polydam_engine::hex::{Hex, Side4, Side5};

type Hx = Hex<Side4>;

#[test]
fn hex_start_has_six_moves() {
    // Card: "South has 6 legal moves: steps to the N, NE and NW neighbours of its corner, and
    // deploys on the same three cells".
    assert_eq!(
        moves::<Hx>("start"),
        vec!["@c1", "@d2", "@e1", "d1-c1", "d1-d2", "d1-e1"]
    );
    assert_eq!(Hx::fen(&Hx::start()), "W:Wd1:Bd7:TWd1:TBd7");
    assert_eq!(
        Hex::<Side5>::fen(&Hex::<Side5>::start()),
        "W:We1:Be9:TWe1:TBe9"
    );
}

#[test]
fn hex_deploy_next_to_an_own_tile() {
    // Card: "on a cell that has no tile and no disc and is adjacent to at least one cell with a
    // tile of your colour (covered or not)". White tiles d1 (bare) and d2 (under White's
    // stack); c2 has a Black tile, so no deploy there; d2 holds a disc.
    assert_eq!(
        moves::<Hx>("W:Wd2:Bd7:TWd1,d2:TBc2,d7"),
        vec!["@c1", "@d3", "@e1", "@e2", "d2-c2", "d2-d3", "d2-e2"]
    );
    // With only d1 as a tile, only its free neighbours c1 and e1.
    assert_eq!(
        moves::<Hx>("W:Wd2:Bd7:TWd1:TBc2,d7"),
        vec!["@c1", "@e1", "d2-c2", "d2-d3", "d2-e2"]
    );
}

#[test]
fn hex_moves_go_through_tiles_but_not_stacks_and_may_turn() {
    // Card: "a stack of size s takes 1..s steps, each to an adjacent cell in one of its three
    // allowed directions ... it may change between these three from step to step. Every cell it
    // enters ... must hold no disc; tiles of either colour may be crossed and landed on".
    // The 3-stack on d1 is walled by its own stack on d2: d3 is reached by turning (e1-e2-d3 or
    // c1-c2-d3), and e2 with its Black tile is crossed and landed on.
    assert_eq!(
        moves::<Hx>("W:Wd1^3,d2:Bd7:TWd1:TBe2,d7"),
        vec![
            "@c1", "@e1", "d1-a1", "d1-b1", "d1-b2", "d1-c1", "d1-c2", "d1-c3", "d1-d3", "d1-e1",
            "d1-e2", "d1-e3", "d1-f1", "d1-f2", "d1-g1", "d2-c2", "d2-d3", "d2-e2"
        ]
    );
    // An even stack walks backward: the 2-stack on d4 goes S, SE, SW, one or two steps.
    assert_eq!(
        moves::<Hx>("W:Wd4^2:Bd7:TWd1:TBd7"),
        vec![
            "@c1", "@d2", "@e1", "d4-b2", "d4-c2", "d4-c3", "d4-d2", "d4-d3", "d4-e2", "d4-e3",
            "d4-f2"
        ]
    );
}

#[test]
fn hex_capture_is_compulsory_in_all_directions() {
    // Card: "if any of your stacks can reach an enemy stack in at most s steps with the
    // direction restriction lifted ... you must capture". The 2-stack on b1 (even: it would
    // step backward) reaches b3 two steps north; g1's steps and the deploys are not allowed.
    assert_eq!(moves::<Hx>("W:Wb1^2,g1:Bb3,d7:TWd1:TBd7"), vec!["b1xb3"]);
    // Three steps away, b4 is out of the 2-stack's reach: it steps backward (SE to c1, then
    // on to d1 or back), or White deploys.
    assert_eq!(
        moves::<Hx>("W:Wb1^2:Bb4,d7:TWd1:TBd7"),
        vec!["@c1", "@d2", "@e1", "b1-c1", "b1-d1"]
    );
}

#[test]
fn hex_recapture_with_leftover_steps() {
    // Card: "if steps remain and another enemy is within reach of the remaining steps, you must
    // capture again". The 3-stack on d1 takes d2 (1 step) and must then take d3 (1 step), with
    // one step left for a forward move or none; or it takes d3 first, around d2 (3 steps).
    assert_eq!(
        moves::<Hx>("W:Wd1^3:Bd2,d3,d7:TWd1:TBd7"),
        vec![
            "d1xd2xd3",
            "d1xd2xd3-c3",
            "d1xd2xd3-d4",
            "d1xd2xd3-e3",
            "d1xd3"
        ]
    );
    let after = after::<Hx>("W:Wd1^3:Bd2,d3,d7:TWd1:TBd7", "d1xd2xd3-d4");
    assert_eq!(after, "B:Wd4^3:Bd7:TWd1:TBd7");
}

#[test]
fn hex_leftover_move_follows_parity() {
    // Card: "you may spend the remaining steps on one non-capturing move of that stack
    // (direction-restricted by its parity as above) or stop". The 2-stack (even) on d3 takes
    // d4 north and may then only step backward: S, SE or SW, back onto d3 included.
    assert_eq!(
        moves::<Hx>("W:Wd3^2:Bd4,d7:TWd1:TBd7"),
        vec!["d3xd4", "d3xd4-c3", "d3xd4-d3", "d3xd4-e3"]
    );
}

#[test]
fn hex_promotion_after_stopping_early() {
    // Card: "an odd stack on a tile of the opponent's colour ... gains one disc. This also
    // holds when the player stops with steps left over". The 3-stack takes d4 (on a Black tile)
    // with one step and stops there with two left.
    let fen = "W:Wd3^3:Bd4,d7:TWd1:TBd4,d7";
    assert_eq!(
        moves::<Hx>(fen),
        vec![
            "d3xd4", "d3xd4-b4", "d3xd4-c4", "d3xd4-c5", "d3xd4-d5", "d3xd4-d6", "d3xd4-e4",
            "d3xd4-e5", "d3xd4-f4"
        ]
    );
    assert_eq!(after::<Hx>(fen, "d3xd4"), "B:Wd4^4:Bd7:TWd1:TBd4,d7");
    // Moving on, it ends on a bare cell and does not grow.
    assert_eq!(after::<Hx>(fen, "d3xd4-d5"), "B:Wd5^3:Bd7:TWd1:TBd4,d7");
    // An odd stack stepping onto an opponent's tile grows; an even one on its own tile too.
    assert_eq!(
        after::<Hx>("W:Wd2:Bd7:TWd1:TBc2,d7", "d2-c2"),
        "B:Wc2^2:Bd7:TWd1:TBc2,d7"
    );
    assert_eq!(
        after::<Hx>("W:Wd2^2:Bd7:TWd1:TBd7", "d2-d1"),
        "B:Wd1^3:Bd7:TWd1:TBd7"
    );
}

#[test]
fn hex_win_when_the_opponent_has_no_stacks() {
    // Card: "if, at the end of your turn, your opponent has no stacks on the board, you win".
    let fen = "W:Wd3:Bd4:TWd1:TBd7";
    let pos = Hx::parse_position(fen).expect("parses");
    let m = Hx::parse_move(&pos, "d3xd4").expect("legal");
    let next = Hx::play(&pos, &m);
    assert_eq!(Hx::decided(&next), Some(Outcome::Loss));
    let mut list = Vec::new();
    Hx::generate(&next, Duplicates::Drop, &mut list);
    assert!(list.is_empty(), "Black may not deploy once it has lost");
}

#[test]
fn hex_pass_and_double_pass_draw() {
    // Card: "No legal move: the player passes; if both players pass in succession the game is
    // drawn". White's four 1-stacks round the top corner have no free forward cell and hide
    // the neighbours of White's only tile; Black's four round the bottom corner likewise.
    let fen = "W:Wc6,d6,d7,e6:Bc1,d1,d2,e1:TWd7:TBd1";
    assert_eq!(moves::<Hx>(fen), vec!["pass"]);
    let pos = Hx::parse_position(fen).expect("parses");
    assert_eq!(Hx::decided(&pos), None);
    let next = Hx::play(&pos, &Hx::parse_move(&pos, "pass").expect("legal"));
    assert_eq!(Hx::fen(&next), "B:Wc6,d6,d7,e6:Bc1,d1,d2,e1:TWd7:TBd1:pass");
    assert_eq!(Hx::decided(&next), Some(Outcome::Draw));
    assert_eq!(Hx::no_move_outcome(&next), Outcome::Draw);
    // perft stops there too: the pass is the one path of depth 1, and none goes deeper.
    for (depth, paths) in [(1, 1), (2, 0), (3, 0)] {
        assert_eq!(count_paths::<Hx>(&pos, depth, Duplicates::Drop), paths);
    }
    // After a pass, a side that can move plays on.
    let fen = "W:Wc6,d6,d7,e6:Bd1:TWd7:TBd1";
    assert_eq!(moves::<Hx>(fen), vec!["pass"]);
    let pos = Hx::parse_position(fen).expect("parses");
    let next = Hx::play(&pos, &Hx::parse_move(&pos, "pass").expect("legal"));
    assert_eq!(Hx::decided(&next), None);
    assert_eq!(moves::<Hx>(&Hx::fen(&next)), vec!["@c1", "@d2", "@e1"]);
}

#[test]
fn hex_notation_and_errors() {
    let pos = Hx::parse_position("W:Wd1^3:Bd2,d3,d7:TWd1:TBd7").expect("parses");
    // The captures must be given in a legal order.
    assert!(Hx::parse_move(&pos, "d1xd3xd2").is_err());
    assert!(Hx::parse_move(&pos, "d1xd2xd3-d4").is_ok());
    let err = |fen: &str| Hx::parse_position(fen).expect_err("refused").to_string();
    assert!(err("W:Wh1:Bd7").contains("off the board") || err("W:Wh1:Bd7").contains("not a cell"));
    assert!(err("W:Wd8:Bd7").contains("off the board"));
    assert!(err("W:Wd1,d1:Bd7").contains("two stacks"));
    assert!(err("W:Wd1^0:Bd7").contains("sizes are 1-255"));
    assert!(err("W:Wd1^256:Bd7").contains("sizes are 1-255"));
    assert!(err("W:Wd1:Bd7:TWd1:TBd1").contains("two tiles"));
    assert!(err("X:Wd1").contains("side to move"));
    let bad = Hx::parse_move(&Hx::start(), "z9-d2")
        .expect_err("refused")
        .to_string();
    assert!(bad.contains("off the board"), "{bad}");
    let bad = Hx::parse_move(&Hx::start(), "d1-")
        .expect_err("refused")
        .to_string();
    assert!(bad.contains("not a cell"), "{bad}");
}

#[test]
fn perft_from_the_start_to_depth_5() {
    // The table in docs/seesaw.md; side 4 and side 5 agree until the armies can meet.
    let counts = [7, 49, 302, 1469, 7482];
    let hex = [6, 36, 258, 1849, 17114];
    for (d, (&sd, &hx)) in counts.iter().zip(hex.iter()).enumerate() {
        let depth = d as u32 + 1;
        for dups in [Duplicates::Drop, Duplicates::Keep] {
            assert_eq!(
                count_paths::<Sd>(&Sd::start(), depth, dups),
                sd,
                "seesaw-draughts {depth}"
            );
            assert_eq!(
                count_paths::<Hx>(&Hx::start(), depth, dups),
                hx,
                "seesaw {depth}"
            );
            assert_eq!(
                count_paths::<Hex<Side5>>(&Hex::<Side5>::start(), depth, dups),
                hx,
                "seesaw-5 {depth}"
            );
        }
    }
    assert_eq!(
        count_paths::<Hx>(&Hx::start(), 6, Duplicates::Drop),
        158_296
    );
    assert_eq!(
        count_paths::<Hex<Side5>>(&Hex::<Side5>::start(), 6, Duplicates::Drop),
        158_404
    );
    assert_eq!(
        count_paths::<Sd>(&Sd::start(), 7, Duplicates::Drop),
        190_146
    );
}
