//! Rule tests of the orthogonal family, one per distinctive clause of
//! `../shared/rules/orthogonal.md`, each with the complete list of legal moves of its position,
//! and the colour symmetry every orthogonal variant must keep (the invariants common to every
//! variant, such as round trips of positions and moves and the Zobrist keys, are in
//! `invariants.rs`).
//!
//! Moves are listed in Hub form (from, to, captured squares in alphabetical order); a move that
//! crowns carries `=K` (a marker of these tests only, not of the notation).

use polydam_engine::game::{Duplicates, Game, MoveStyle, Outcome, Side};
use polydam_engine::orthogonal::rules::*;
use polydam_engine::orthogonal::{notation, Orthogonal, Position};
use polydam_engine::perft::count_paths;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn position<R: Rules>(fen: &str) -> Position {
    match Orthogonal::<R>::parse_position(fen) {
        Ok(p) => p,
        Err(e) => panic!("{}: bad test position {fen}: {e}", R::NAME),
    }
}

/// The legal moves of `fen` in Hub form, sorted, crowning moves marked `=K`.
fn moves_with<R: Rules>(fen: &str, dups: Duplicates) -> Vec<String> {
    let pos = position::<R>(fen);
    let mut list = Vec::new();
    Orthogonal::<R>::generate(&pos, dups, &mut list);
    let mut out: Vec<String> = list
        .iter()
        .map(|m| {
            let mut t = Orthogonal::<R>::move_text(&pos, m, MoveStyle::Hub);
            if m.crowns {
                t.push_str("=K");
            }
            t
        })
        .collect();
    out.sort();
    out
}

fn moves<R: Rules>(fen: &str) -> Vec<String> {
    moves_with::<R>(fen, Duplicates::Drop)
}

/// Asserts that the legal moves of `fen` in variant `R` are exactly `expected`.
fn assert_moves<R: Rules>(fen: &str, expected: &[&str]) {
    let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(moves::<R>(fen), want, "{} in {fen}", R::NAME);
}

/// The Turkish (landing squares) text of the move written `hub` in Hub form.
fn pdn<R: Rules>(fen: &str, hub: &str) -> String {
    let pos = position::<R>(fen);
    let mv = Orthogonal::<R>::parse_move(&pos, hub).expect("legal test move");
    Orthogonal::<R>::move_text(&pos, &mv, MoveStyle::Pdn)
}

// ---------------------------------------------------------------------------------------------
// Kings: no 180° turn, immediate removal, start square, halt, short kings

/// Card "No 180° turn": after taking d5 the king may not come straight back down the d-file to
/// take d2 (nor the other way round).
#[test]
fn turkish_king_may_not_turn_180() {
    let fen = "W:WKd4:Bd5,d2";
    assert_moves::<Turkish>(fen, &["d4xd1xd2", "d4xd6xd5", "d4xd7xd5", "d4xd8xd5"]);
}

/// `keny`, `keny-2`: "180° allowed": the same king takes both pieces, in either order.
#[test]
fn keny_king_may_turn_180() {
    let fen = "W:WKd4:Bd5,d2";
    let both = ["d4xd1xd2xd5", "d4xd6xd2xd5", "d4xd7xd2xd5", "d4xd8xd2xd5"];
    assert_moves::<Keny2>(fen, &both);
    assert_moves::<Keny>(fen, &both);
}

/// Card "Removal: immediate ... its square can be crossed ... later in the same sequence": the
/// king takes c4 along rank 4 and later runs down the c-file through c4 to take c2.
#[test]
fn turkish_king_recrosses_a_square_emptied_by_immediate_removal() {
    let fen = "W:WKa4,f4,b7:Bc4,e6,d7,c2";
    assert_moves::<Turkish>(fen, &["a4xc1xc2xc4xd7xe6"]);
    assert_eq!(pdn::<Turkish>(fen, "a4xc1xc2xc4xd7xe6"), "a4xe4xe7xc7xc1");
}

/// Card "Removal: end": in Adigha the taken c4 still stands, so the king stops on c7.
#[test]
fn adigha_captured_pieces_block_until_the_end() {
    let fen = "W:WKa4,f4,b7:Bc4,e6,d7,c2";
    assert_moves::<Adigha>(fen, &["a4xc7xc4xd7xe6"]);
}

/// Card note on `turkish`: the king's start square counts as empty once it has left; a king
/// that comes back to it writes `a1xa1`. Both loops (clockwise and anticlockwise) give the same
/// move, which counts once as the engine plays and twice when paths are kept.
#[test]
fn turkish_king_may_return_to_its_start_square() {
    let fen = "W:WKa1:Ba3,Kb1,c4,d2";
    assert_moves::<Turkish>(fen, &["a1xa1xa3xb1xc4xd2", "a1xa2xa3xb1xc4xd2"]);
    assert_eq!(
        moves_with::<Turkish>(fen, Duplicates::Keep),
        vec![
            "a1xa1xa3xb1xc4xd2".to_string(),
            "a1xa1xa3xb1xc4xd2".to_string(),
            "a1xa2xa3xb1xc4xd2".to_string(),
        ]
    );
}

/// Card "Common ground": "A piece may never jump its own pieces, nor two pieces at once."
#[test]
fn turkish_no_jump_over_two_pieces_or_own_pieces() {
    let fen = "W:WKa1,a5:Ba3,a4,Kc1,Kd1";
    assert_moves::<Turkish>(fen, &["a1-a2", "a1-b1", "a5-a6", "a5-b5"]);
}

/// Card "any": a flying king lands on any empty square beyond; in `greek` ("halt") it must
/// stop right behind d4 and so cannot reach the f6 piece that the Turkish king takes.
#[test]
fn greek_king_halts_right_behind_the_captured_piece() {
    let fen = "W:WKd1:Bd4,f6";
    assert_moves::<Turkish>(fen, &["d1xg6xd4xf6", "d1xh6xd4xf6"]);
    assert_moves::<Greek>(fen, &["d1xd5xd4"]);
    assert_moves::<Greek2>(fen, &["d1xd5xd4"]);
}

/// A flying king going on along the same line: the printed landing is the farthest one, and any
/// square of the run reads back as the same move.
#[test]
fn turkish_straight_on_capture_accepts_any_intermediate_landing() {
    let fen = "W:WKd1:Bd3,d6";
    assert_moves::<Turkish>(fen, &["d1xd7xd3xd6", "d1xd8xd3xd6"]);
    assert_eq!(pdn::<Turkish>(fen, "d1xd7xd3xd6"), "d1xd5xd7");
    let pos = position::<Turkish>(fen);
    let want = Orthogonal::<Turkish>::parse_move(&pos, "d1xd7xd3xd6").unwrap();
    for text in ["d1xd4xd7", "d1xd5xd7", "d1xd7xd6xd3", "d1-d7", "d1xd7"] {
        assert_eq!(
            Orthogonal::<Turkish>::parse_move(&pos, text),
            Ok(want),
            "{text}"
        );
    }
}

/// `gothic`: "one step, all 8" and "short leap, all 8": the king takes only an adjacent piece.
#[test]
fn gothic_king_steps_and_captures_only_next_to_it() {
    assert_moves::<Gothic>("W:WKd4:Be5,d6,b4", &["d4xf6xe5"]);
    assert_moves::<Gothic>(
        "W:WKd4:Bh8",
        &[
            "d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-d5", "d4-e3", "d4-e4", "d4-e5",
        ],
    );
}

/// `turkthic`: "flying halt, all 8": the king captures diagonally and halts behind the piece.
#[test]
fn turkthic_king_captures_diagonally_and_halts() {
    assert_moves::<Turkthic>("W:WKa1:Bc3,h8", &["a1xd4xc3"]);
    assert_moves::<Turkthic2>("W:WKa1:Bc3,h8", &["a1-a2", "a1-b1", "a1-b2"]);
}

/// `armenian`: men also step diagonally forward; kings move in all 8 directions but capture
/// only orthogonally (the king does not take h8 along the diagonal).
#[test]
fn armenian_diagonal_steps_but_orthogonal_captures() {
    assert_moves::<Armenian>(
        "W:WKa1,c5:Bh8",
        &[
            "a1-a2", "a1-a3", "a1-a4", "a1-a5", "a1-a6", "a1-a7", "a1-a8", "a1-b1", "a1-c1",
            "a1-d1", "a1-e1", "a1-f1", "a1-g1", "a1-h1", "a1-b2", "a1-c3", "a1-d4", "a1-e5",
            "a1-f6", "a1-g7", "c5-c6", "c5-d5", "c5-b5", "c5-d6", "c5-b6",
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// Majority and compulsory continuation

/// Card "Majority": Turkish must take two; `greek-3` ("no" majority) may take one, but its king
/// must still land where it can go on ("also where there is no majority rule").
#[test]
fn greek3_free_choice_but_the_king_must_go_on() {
    let fen = "W:Wb2,Kd1:Bb3,d3,f5";
    assert_moves::<Turkish>(fen, &["d1xg5xd3xf5", "d1xh5xd3xf5"]);
    assert_moves::<Greek3>(fen, &["b2xb4xb3", "d1xg5xd3xf5", "d1xh5xd3xf5"]);
}

// ---------------------------------------------------------------------------------------------
// Men: promotion in capture, backward captures

/// Card "continue-as-man": the Turkish man reaching c8 goes on sideways as a man, takes d8 and
/// is crowned only because the move ends on the far rank.
#[test]
fn turkish_man_keeps_capturing_as_a_man_on_the_far_rank() {
    let fen = "W:Wc6:Bc7,d8,e5";
    assert_moves::<Turkish>(fen, &["c6xe8xc7xd8=K"]);
    assert_eq!(pdn::<Turkish>(fen, "c6xe8xc7xd8"), "c6xc8xe8");
}

/// Card "crown-and-continue": in `greek-4` (and `adigha`, `turkthic`) the man is crowned on c8
/// and goes on as a king, down the e-file.
#[test]
fn greek4_crown_and_continue() {
    let fen = "W:Wc6:Bc7,d8,e5";
    let king_goes_on = [
        "c6xe1xc7xd8xe5=K",
        "c6xe2xc7xd8xe5=K",
        "c6xe3xc7xd8xe5=K",
        "c6xe4xc7xd8xe5=K",
    ];
    assert_moves::<Greek4>(fen, &king_goes_on);
    assert_moves::<Armenian3>(fen, &king_goes_on);
    assert_moves::<Adigha>(fen, &king_goes_on);
    assert_moves::<Turkthic>(fen, &["c6xe4xc7xd8xe5=K"]);
}

/// `greek-6` (halt, crown-and-continue): the crowned king halts behind d8 and behind e5;
/// `greek-7` and `greek-5` add free choice, so the single capture a2xa4 is legal beside it.
#[test]
fn greek_halting_or_free_crown_and_continue() {
    let fen = "W:Wc6,a2:Bc7,d8,e5,a3";
    assert_moves::<Greek6>(fen, &["c6xe4xc7xd8xe5=K"]);
    assert_moves::<Greek7>(fen, &["a2xa4xa3", "c6xe4xc7xd8xe5=K"]);
    assert_moves::<Greek5>(
        fen,
        &[
            "a2xa4xa3",
            "c6xe1xc7xd8xe5=K",
            "c6xe2xc7xd8xe5=K",
            "c6xe3xc7xd8xe5=K",
            "c6xe4xc7xd8xe5=K",
        ],
    );
    assert_moves::<Turkish>(fen, &["c6xe8xc7xd8=K"]);
}

/// `gothic-modified-2`: "it is not required to capture the longest line".
#[test]
fn gothic_modified_2_no_majority() {
    let fen = "W:Wd4,a2:Ba3,d5,d7";
    assert_moves::<Gothic>(fen, &["d4xd8xd5xd7=K"]);
    assert_moves::<GothicModified>(fen, &["d4xd8xd5xd7=K"]);
    assert_moves::<GothicModified2>(fen, &["a2xa4xa3", "d4xd8xd5xd7=K"]);
}

/// Man steps per card row: `croda` and `dameo` N + D2, `modern-gothic` D2, `universal` F5,
/// `armenian` O3 + D2, `turkish` O3; `croda` men capture backward from the first jump (O4).
#[test]
fn man_step_directions_per_card() {
    let fen = "W:Wd4:Bh8";
    assert_moves::<Croda>(fen, &["d4-c5", "d4-d5", "d4-e5"]);
    assert_moves::<Dameo>(fen, &["d4-c5", "d4-d5", "d4-e5"]);
    assert_moves::<ModernGothic>(fen, &["d4-c5", "d4-e5"]);
    assert_moves::<Universal>(fen, &["d4-c4", "d4-c5", "d4-d5", "d4-e4", "d4-e5"]);
    assert_moves::<Armenian>(fen, &["d4-c4", "d4-c5", "d4-d5", "d4-e4", "d4-e5"]);
    assert_moves::<Turkish>(fen, &["d4-c4", "d4-d5", "d4-e4"]);
    assert_moves::<Croda>("W:Wd4:Bd3,h8", &["d4xd2xd3"]);
    assert_moves::<ModernGothic>("W:Wd4:Bd3,h8", &["d4xd2xd3"]);
}

/// Card "crown-and-stop": the Gothic man is crowned on c8 and the move ends there.
#[test]
fn gothic_crown_and_stop() {
    assert_moves::<Gothic>("W:Wc6:Bc7,d8,e5", &["c6xc8xc7=K"]);
}

/// Card "No 180° turn ... also holds across the crowning": in `greek-4` the new king may not
/// go straight back down the c-file; in `keny` ("180° allowed") it may.
#[test]
fn crowned_king_may_not_reverse_the_mans_last_jump() {
    let fen = "W:Wc6:Bc7,c4,h5";
    assert_moves::<Greek4>(fen, &["c6xc8xc7=K"]);
    assert_moves::<Keny>(fen, &["c6xc1xc4xc7=K", "c6xc2xc4xc7=K", "c6xc3xc4xc7=K"]);
    assert_moves::<Turkish>(fen, &["c6xc8xc7=K"]);
}

/// Card note on `armenian-2`: a man may not capture backward as its first jump...
#[test]
fn armenian2_man_first_jump_not_backward() {
    let fen = "W:Wd4:Bd3,d5,d6";
    assert_moves::<Armenian2>(fen, &["d4-c4", "d4-e4"]);
    assert_moves::<Turkish>(fen, &["d4-c4", "d4-e4"]);
    // `bosnian`: men capture O4, backward from the first jump.
    assert_moves::<Bosnian>(fen, &["d4xd2xd3"]);
}

/// ... but may as its second or later jump (deferred backward capture).
#[test]
fn armenian2_man_captures_backward_later_in_the_sequence() {
    let fen = "W:Wd4:Bd5,e6,f5";
    assert_moves::<Armenian2>(fen, &["d4xf4xd5xe6xf5"]);
    assert_eq!(pdn::<Armenian2>(fen, "d4xf4xd5xe6xf5"), "d4xd6xf6xf4");
    assert_moves::<Turkish>(fen, &["d4xf6xd5xe6"]);
}

/// Card note on `dameo`: a man crossing the far rank during a capture is not crowned; it goes
/// on as a man (backward too: men capture O4) and ends on e6.
#[test]
fn dameo_man_crossing_the_far_rank_is_not_crowned() {
    assert_moves::<Dameo>("W:Wc6:Bc7,d8,e7", &["c6xe6xc7xd8xe7"]);
}

/// `turkthic`: men capture F5, diagonally forward too; `universal` men capture in all eight
/// directions; `teutonic` men cannot capture diagonally backward.
#[test]
fn men_capture_directions_per_card() {
    assert_moves::<Turkthic>("W:Wd4:Be5,h8", &["d4xf6xe5"]);
    assert_moves::<Turkish>("W:Wd4:Be5,h8", &["d4-c4", "d4-d5", "d4-e4"]);
    assert_moves::<Universal>("W:Wd4:Bc3,h8", &["d4xb2xc3"]);
    assert_moves::<Teutonic>("W:Wd4:Bc3,h8", &["d4-c5", "d4-e5"]);
}

// ---------------------------------------------------------------------------------------------
// Line leaps and line moves

/// Card "First-rank line leap": a1 leaps over the king on a2 ("Kings in the line are allowed
/// (our choice)"); no leap NE where b2 is empty.
#[test]
fn turkish_modified_line_leap_over_a_king() {
    assert_moves::<TurkishModified>(
        "W:Wa1,Ka2:Bh7",
        &[
            "a1-a3", "a1-b1", "a2-a3", "a2-a4", "a2-a5", "a2-a6", "a2-a7", "a2-a8", "a2-b2",
            "a2-c2", "a2-d2", "a2-e2", "a2-f2", "a2-g2", "a2-h2",
        ],
    );
}

/// "... landing on the first square beyond that line, which must be empty (an enemy piece
/// there stops the leap)"; "A leap that lands on the far rank crowns."
#[test]
fn turkish_modified_line_leap_blocked_by_an_enemy_and_crowning() {
    assert_moves::<TurkishModified>("W:Wa1,a2:Ba3,a4", &["a1-b1", "a2-b2"]);
    assert_moves::<TurkishModified>(
        "W:Wa1-a7:Bh2",
        &[
            "a1-a8=K", "a1-b1", "a2-b2", "a3-b3", "a4-b4", "a5-b5", "a6-b6", "a7-a8=K", "a7-b7",
        ],
    );
}

/// `gothic-modified`: the leap goes N, NE or NW, though Gothic men step only diagonally.
#[test]
fn gothic_modified_line_leap_diagonal() {
    assert_moves::<GothicModified>("W:Wc1,d2:Bh7", &["c1-b2", "c1-e3", "d2-c3", "d2-e3"]);
}

/// Card note on `dameo`: "an unbroken line of friendly men that points N, NE or NW moves one
/// square along itself"; b1's line towards NW (a2) runs off the board.
#[test]
fn dameo_line_move() {
    assert_moves::<Dameo>(
        "W:Wa1-a3,b1:Bh8",
        &[
            "a1-a4", "a1-b2", "a2-a4", "a2-b3", "a3-a4", "a3-b4", "b1-b2", "b1-c2",
        ],
    );
}

/// "... a king in front of the line blocks it"; Dameo kings move like a chess queen.
#[test]
fn dameo_line_move_blocked_by_a_king() {
    assert_moves::<Dameo>(
        "W:Wa1,a2,Ka3:Ba8",
        &[
            "a1-b2", "a2-b3", "a3-a4", "a3-a5", "a3-a6", "a3-a7", "a3-b3", "a3-c3", "a3-d3",
            "a3-e3", "a3-f3", "a3-g3", "a3-h3", "a3-b4", "a3-c5", "a3-d6", "a3-e7", "a3-f8",
            "a3-b2", "a3-c1",
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// Harzdame

/// Card note on `harzdame`: White's men step N or E and are crowned in c8-h8 and h3-h7 (not
/// on a8-b8).
#[test]
fn harzdame_promotion_zone_white() {
    assert_moves::<Harzdame>("W:Wa8,g3,h2:Bd5", &["a8-b8", "g3-g4", "g3-h3=K", "h2-h3=K"]);
}

/// Black's men step S or W and are crowned in a1-a6 and b1-f1 (not on g1).
#[test]
fn harzdame_promotion_zone_black() {
    assert_moves::<Harzdame>("B:Wd5:Bh1,b6,a7", &["a7-a6=K", "b6-a6=K", "b6-b5", "h1-g1"]);
}

// ---------------------------------------------------------------------------------------------
// Bahrain

/// Card note on `bahrain`: c4 is threatened (c5 could take it), so f3-f4, after which f4 would
/// threaten f5, is illegal; the threatened man's own moves stay legal.
#[test]
fn bahrain_threatened_man_filter() {
    let fen = "W:Wc4,f3:Bc5,c6,f5";
    assert_moves::<Bahrain>(fen, &["c4-b4", "c4-d4", "f3-e3", "f3-g3"]);
    assert_moves::<Turkish>(fen, &["c4-b4", "c4-d4", "f3-e3", "f3-f4", "f3-g3"]);
}

/// "If the filter leaves no move at all, the unfiltered moves are legal (our choice)."
#[test]
fn bahrain_filter_fallback_when_nothing_is_left() {
    assert_moves::<Bahrain>(
        "W:Wa4,g2:Ba5,a6,b4,c4,g4,h3,f3",
        &["g2-f2", "g2-g3", "g2-h2"],
    );
}

// ---------------------------------------------------------------------------------------------
// Game end

/// Card "Game end": one piece each is an immediate draw in Turkish and the games "as Turkish",
/// not in Gothic or Harzdame.
#[test]
fn turkish_one_piece_each_is_a_draw() {
    let fen = "W:WKa1:Bh7";
    type T = Orthogonal<Turkish>;
    assert_eq!(T::decided(&position::<Turkish>(fen)), Some(Outcome::Draw));
    assert_eq!(
        count_paths::<T>(&position::<Turkish>(fen), 1, Duplicates::Drop),
        0
    );
    for draw in [
        Orthogonal::<Greek>::decided(&position::<Greek>(fen)),
        Orthogonal::<Keny>::decided(&position::<Keny>(fen)),
        Orthogonal::<Bahrain>::decided(&position::<Bahrain>(fen)),
        Orthogonal::<Adigha>::decided(&position::<Adigha>(fen)),
    ] {
        assert_eq!(draw, Some(Outcome::Draw));
    }
    assert_eq!(
        Orthogonal::<Gothic>::decided(&position::<Gothic>(fen)),
        None
    );
    assert_eq!(
        Orthogonal::<Harzdame>::decided(&position::<Harzdame>(fen)),
        None
    );
    assert_eq!(
        Orthogonal::<Turkthic2>::decided(&position::<Turkthic2>(fen)),
        None
    );
    // A capture that leaves one piece each ends the game at once.
    let pos = position::<Turkish>("W:WKa1:Ba3,h7");
    let mv = T::parse_move(&pos, "a1xa4").unwrap();
    assert_eq!(T::decided(&T::play(&pos, &mv)), Some(Outcome::Draw));
    assert_eq!(T::decided(&pos), None);
}

/// "A player who has no pieces or no legal move loses."
#[test]
fn no_move_loses() {
    type T = Orthogonal<Turkish>;
    // White's only man is blocked by black men.
    let pos = position::<Turkish>("W:Wa7:Ba8,b7,c7,h2");
    let mut list = Vec::new();
    T::generate(&pos, Duplicates::Drop, &mut list);
    assert!(list.is_empty());
    assert_eq!(T::no_move_outcome(&pos), Outcome::Loss);
}

// ---------------------------------------------------------------------------------------------
// Notation

#[test]
fn position_formats_and_errors() {
    type T = Orthogonal<Turkish>;
    let start = T::start();
    assert_eq!(T::fen(&start), "W:Wa2-h3:Ba6-h7");
    let hub = T::hub_position(&start);
    assert_eq!(hub.len(), 65);
    assert_eq!(T::parse_position(&hub), Ok(start));
    assert_eq!(T::parse_position("W:Wa2-h3:Ba6-h7"), Ok(start));
    assert_eq!(T::parse_position("[FEN \"W:Wa2-h3:Ba6-h7\"]"), Ok(start));
    for bad in [
        "",
        "W",
        "Q:Wa1:Bh7",
        "W:Wa1:Bh9",
        "W:Wa1,a1:Bh7",
        "W:Wa8:Bh7",
        "W:Wa1-h3:Bh7",
        "W:Xa1",
        "Wxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "W:W\u{e9}1:Bh7",
    ] {
        assert!(
            T::parse_position(bad).is_err(),
            "{bad:?} should be rejected"
        );
    }
    let pos = position::<Turkish>("B:WKd4,c3:Bc6,Kh8");
    assert_eq!(T::fen(&pos), "B:Wc3,Kd4:Bc6,Kh8");
    assert_eq!(notation::parse_any::<Turkish>(&T::fen(&pos)).unwrap(), pos);
}

#[test]
fn move_parse_errors_are_typed() {
    use polydam_engine::game::MoveError;
    type T = Orthogonal<Turkish>;
    let start = T::start();
    assert!(matches!(
        T::parse_move(&start, ""),
        Err(MoveError::Malformed(_))
    ));
    assert!(matches!(
        T::parse_move(&start, "c3"),
        Err(MoveError::Malformed(_))
    ));
    assert!(matches!(
        T::parse_move(&start, "c3-z9"),
        Err(MoveError::Malformed(_))
    ));
    assert!(matches!(
        T::parse_move(&start, "c3-c5"),
        Err(MoveError::Illegal(_))
    ));
    assert_eq!(
        T::move_text(
            &start,
            &T::parse_move(&start, "C3-C4").unwrap(),
            MoveStyle::Hub
        ),
        "c3-c4"
    );
    assert!(matches!(
        T::parse_move(&start, "x-d4"),
        Err(MoveError::Malformed(_))
    ));
}

// ---------------------------------------------------------------------------------------------
// Colour symmetry over every variant (`invariants.rs` makes the checks common to every family:
// round trips, hash, move texts)

/// The start prints as the registry writes it, and the colour-swapped position (board turned
/// 180 degrees) of every position of many random games has the same number of moves and the
/// same evaluation.
fn colour_symmetry<R: Rules>(games: usize, seed: u64) -> usize {
    type G<R> = Orthogonal<R>;
    let start = G::<R>::start();
    assert_eq!(
        start.pieces(Side::White).count_ones(),
        start.pieces(Side::Black).count_ones()
    );
    assert_eq!(G::<R>::fen(&start), R::INFO.start_fen, "{}", R::NAME);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut list = Vec::new();
    let mut flipped_list = Vec::new();
    let mut plies = 0;
    for _ in 0..games {
        let mut pos = start;
        for _ in 0..200 {
            if G::<R>::decided(&pos).is_some() {
                break;
            }
            G::<R>::generate(&pos, Duplicates::Drop, &mut list);
            let flipped = pos.flipped();
            G::<R>::generate(&flipped, Duplicates::Drop, &mut flipped_list);
            let fen = G::<R>::fen(&pos);
            assert_eq!(list.len(), flipped_list.len(), "{}: {fen}", R::NAME);
            assert_eq!(
                G::<R>::evaluate(&pos),
                G::<R>::evaluate(&flipped),
                "{}: {fen}",
                R::NAME
            );
            if list.is_empty() {
                break;
            }
            let mv = list[rng.gen_range(0..list.len())];
            pos = G::<R>::play(&pos, &mv);
            plies += 1;
        }
    }
    plies
}

macro_rules! colour_symmetry_tests {
    ($($name:ident: $ty:ty,)*) => {
        $(
            #[test]
            fn $name() {
                let plies = colour_symmetry::<$ty>(40, 0x0A7B ^ stringify!($name).len() as u64);
                assert!(plies > 1000, "only {plies} random plies");
            }
        )*
    };
}

colour_symmetry_tests! {
    colour_symmetry_turkish: Turkish,
    colour_symmetry_turkish_modified: TurkishModified,
    colour_symmetry_armenian: Armenian,
    colour_symmetry_armenian_2: Armenian2,
    colour_symmetry_armenian_3: Armenian3,
    colour_symmetry_gothic: Gothic,
    colour_symmetry_gothic_modified: GothicModified,
    colour_symmetry_gothic_modified_2: GothicModified2,
    colour_symmetry_adigha: Adigha,
    colour_symmetry_croda: Croda,
    colour_symmetry_modern_gothic: ModernGothic,
    colour_symmetry_modern_gothic_2: ModernGothic2,
    colour_symmetry_teutonic: Teutonic,
    colour_symmetry_teutonic_2: Teutonic2,
    colour_symmetry_greek: Greek,
    colour_symmetry_greek_2: Greek2,
    colour_symmetry_greek_3: Greek3,
    colour_symmetry_greek_4: Greek4,
    colour_symmetry_greek_5: Greek5,
    colour_symmetry_greek_6: Greek6,
    colour_symmetry_greek_7: Greek7,
    colour_symmetry_universal: Universal,
    colour_symmetry_dameo: Dameo,
    colour_symmetry_turkthic: Turkthic,
    colour_symmetry_turkthic_2: Turkthic2,
    colour_symmetry_keny: Keny,
    colour_symmetry_keny_2: Keny2,
    colour_symmetry_harzdame: Harzdame,
    colour_symmetry_bahrain: Bahrain,
    colour_symmetry_bosnian: Bosnian,
}
