//! Rule tests for the diagonal family, one per clause of the rule cards
//! (`../shared/rules/diagonal-10x10.md`, `../shared/rules/diagonal-8x8.md`) that perft does not
//! obviously pin. Each test gives a hand-built position and its complete expected move list.
//!
//! Squares are in each variant's own numbering; the comments give the algebraic squares.

use crate::support::{moves, moves_in};
use polydam_engine::diagonal::rules::*;
use polydam_engine::diagonal::Diagonal;
use polydam_engine::game::{Duplicates, Game, MoveStyle, Outcome, Side};
use polydam_engine::record::{EndReason, GameRecord};

fn play<G: Game>(fen: &str, mv: &str) -> G::Position {
    let pos = G::parse_position(fen).expect("test position parses");
    let m = G::parse_move(&pos, mv).expect("test move is legal");
    G::play(&pos, &m)
}

type Intl = Diagonal<International>;

#[test]
fn international_majority_rule_forces_the_longest_capture() {
    // White man 32 can take 27 (one piece) or 28 then 19 (two pieces).
    let fen = "W:W32:B27,28,19";
    assert_eq!(moves::<Intl>(fen), vec!["32x14x19x28"]);
    // Brazilian (majority) against Russian (free choice): the d4 man (18 on 8x8) can take
    // c5 (14) alone, or e5 (15) then e7 (7).
    assert_eq!(
        moves::<Diagonal<Brazilian>>("W:W18:B14,15,7"),
        vec!["18x2x7x15"]
    );
    assert_eq!(
        moves::<Diagonal<Russian>>("W:W18:B14,15,7"),
        vec!["18x2x7x15", "18x9x14"]
    );
}

#[test]
fn international_man_crowned_only_when_the_move_ends_on_the_far_row() {
    // The f8 man (13) takes e9 (8) landing on d10 (2), the far row, then goes on as a man
    // over c9 (7) to b8 (11): passing the far row does not crown it.
    let fen = "W:W13:B8,7";
    assert_eq!(moves::<Intl>(fen), vec!["13x11x7x8"]);
    let after = play::<Intl>(fen, "13x11x7x8");
    assert_eq!(Intl::fen(&after), "B:W11:B");
}

#[test]
fn killer_king_halts_right_behind_a_last_captured_king() {
    // a1 king, black king on e5: International lands anywhere beyond, Killer only on f6.
    assert_eq!(
        moves::<Intl>("W:WK46:BK28"),
        vec!["46x10x28", "46x14x28", "46x19x28", "46x23x28", "46x5x28"]
    );
    assert_eq!(moves::<Diagonal<Killer>>("W:WK46:BK28"), vec!["46x23x28"]);
    // A man as the last piece: no halt.
    assert_eq!(moves::<Diagonal<Killer>>("W:WK46:B28").len(), 5);
}

#[test]
fn killer_halt_only_restricts_the_final_landing() {
    // a1 king takes the man on e5 and must go on from g7 (19) to take the king on h6 (24): the
    // continuation stays compulsory, and only then the halt puts it on i5 (30), not j4 (35).
    assert_eq!(
        moves::<Intl>("W:WK46:B28,K24"),
        vec!["46x30x24x28", "46x35x24x28"]
    );
    assert_eq!(
        moves::<Diagonal<Killer>>("W:WK46:B28,K24"),
        vec!["46x30x24x28"]
    );
}

#[test]
fn russian_crown_and_continue() {
    // b6 man takes c7, is crowned on d8 and goes on as a flying king over e7: f6, g5 or h4.
    type R = Diagonal<Russian>;
    assert_eq!(
        moves::<R>("W:W9:B6,7"),
        vec!["9x11x6x7", "9x16x6x7", "9x20x6x7"]
    );
    assert_eq!(
        moves_in::<R>("W:W9:B6,7", MoveStyle::Pdn),
        vec!["b6:d8:f6", "b6:d8:g5", "b6:d8:h4"]
    );
    let after = play::<R>("W:W9:B6,7", "9x20x6x7");
    assert_eq!(R::fen(&after), "B:WK20:B");
}

#[test]
fn pool_man_passing_the_last_row_stays_a_man() {
    // Same position in Pool: the man passes d8 and takes e7 backward as a man, ending on f6
    // uncrowned.
    type P = Diagonal<Pool>;
    assert_eq!(moves::<P>("W:W9:B6,7"), vec!["9x11x6x7"]);
    assert_eq!(moves_in::<P>("W:W9:B6,7", MoveStyle::Pdn), vec!["9x2x11"]);
    let after = play::<P>("W:W9:B6,7", "9x11x6x7");
    assert_eq!(P::fen(&after), "B:W11:B");
}

#[test]
fn english_crowning_ends_the_move() {
    // The b6 man takes c7 and is crowned on d8; a king could take e7 next, but the move ends.
    type E = Diagonal<English>;
    assert_eq!(moves::<E>("W:W9:B6,7"), vec!["9x2x6"]);
    let after = play::<E>("W:W9:B6,7", "9x2x6");
    assert_eq!(E::fen(&after), "B:WK2:B7");
}

#[test]
fn english_men_capture_forward_only_and_kings_are_short() {
    type E = Diagonal<English>;
    // Man on d4 (18) with black men ahead on c5 (14) and behind on c3 (22): only the forward
    // capture, landing on b6 (9).
    assert_eq!(moves::<E>("W:W18:B14,22"), vec!["18x9x14"]);
    // A king captures by a short leap only: the man on b2 (25), two squares away beyond an
    // empty c3, is not taken; a flying king would have to take it.
    assert_eq!(
        moves::<E>("W:WK18:B25"),
        vec!["18-14", "18-15", "18-22", "18-23"]
    );
    assert_eq!(moves::<Diagonal<Brazilian>>("W:WK18:B25"), vec!["18x29x25"]);
}

#[test]
fn italian_men_may_not_capture_kings() {
    // c4 man (18): the king on d5 (14) is immune to it, the man on b5 (13) is not.
    assert_eq!(moves::<Diagonal<Italian>>("W:W18:BK14,13"), vec!["18x9x13"]);
    // With a man on d5 instead of the king, both captures are legal.
    assert_eq!(
        moves::<Diagonal<Italian>>("W:W18:B14,13"),
        vec!["18x11x14", "18x9x13"]
    );
}

#[test]
fn italian_precedence_king_rather_than_man() {
    // The e4 man (19) can take d5 (14), the f3 king (23) can take g4 (20): the king must.
    assert_eq!(
        moves::<Diagonal<Italian>>("W:W19,K23:B14,20"),
        vec!["23x16x20"]
    );
}

#[test]
fn italian_precedence_most_kings() {
    // The e4 king can take the d5 king or the f5 man: the king.
    assert_eq!(
        moves::<Diagonal<Italian>>("W:WK19:BK14,15"),
        vec!["19x10x14"]
    );
}

#[test]
fn italian_precedence_kings_met_earliest() {
    // The d3 king (22) has two two-piece captures each taking one king: c4 man then c6 king,
    // or e4 king then g6 man. The one that meets its king first wins.
    assert_eq!(
        moves::<Diagonal<Italian>>("W:WK22:B18,K10,K19,12"),
        vec!["22x8x12x19"]
    );
    assert_eq!(moves::<Diagonal<English>>("W:WK22:B18,K10,K19,12").len(), 2);
}

#[test]
fn italian_numbering_starts_at_a8() {
    type I = Diagonal<Italian>;
    let start = I::start();
    assert_eq!(I::hub_position(&start), "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    let mut list = Vec::new();
    I::generate(&start, Duplicates::Drop, &mut list);
    let mut texts: Vec<String> = list
        .iter()
        .map(|m| I::move_text(&start, m, MoveStyle::Hub))
        .collect();
    texts.sort();
    assert_eq!(
        texts,
        vec!["21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"]
    );
}

#[test]
fn spanish_most_pieces_then_most_kings() {
    // Spanish numbering: 1 = h1, White on 1-12 moving up. Equal single captures, one of a
    // king: the king must be taken.
    type S = Diagonal<Spanish>;
    let all = moves::<Diagonal<Brazilian>>("W:W18:B14,K15");
    assert_eq!(all.len(), 2);
    let pos = S::parse_position("W:W14:B18,K19").expect("parses");
    let mut list = Vec::new();
    S::generate(&pos, Duplicates::Drop, &mut list);
    assert!(
        list.iter().all(|m| m.captured & pos.kings() != 0),
        "Spanish must take the king"
    );
    assert_eq!(list.len(), 1);
}

#[test]
fn czech_king_capture_has_priority() {
    // The c3 man could take two pieces (d4, f6), the a5 king one (b6): the king must capture.
    type C = Diagonal<Czech>;
    assert_eq!(
        moves_in::<C>("W:W22,K13:B18,11,9,2", MoveStyle::Pdn),
        vec!["a5:c7"]
    );
    // Without kings able to capture, men choose freely among their captures.
    assert_eq!(
        moves_in::<Diagonal<Brazilian>>("W:W22,K13:B18,11,9,2", MoveStyle::Pdn),
        vec!["c3:e5:g7"]
    );
}

#[test]
fn antidraughts_no_move_wins() {
    // The a1 man is blocked by b2 and c3: no legal move.
    type A = Diagonal<Antidraughts>;
    let record = GameRecord::<A>::new(A::parse_position("W:W46:B41,37").expect("parses"));
    assert_eq!(record.outcome(), Some((Outcome::Win, EndReason::NoMoves)));
    let record = GameRecord::<Intl>::new(Intl::parse_position("W:W46:B41,37").expect("parses"));
    assert_eq!(record.outcome(), Some((Outcome::Loss, EndReason::NoMoves)));
}

#[test]
fn breakthrough_first_king_wins() {
    type B = Diagonal<Breakthrough>;
    let mut record = GameRecord::<B>::new(B::parse_position("W:W6:B45").expect("parses"));
    assert_eq!(record.outcome(), None);
    record.push_text("6-1").expect("legal");
    // Black to move, White has crowned: Black has lost.
    assert_eq!(record.outcome(), Some((Outcome::Loss, EndReason::Decided)));
    // A position where the side to move already owns a king is refused.
    let err = B::parse_position("W:WK1:B45").expect_err("refused");
    assert!(err.to_string().contains("already has a king"), "{err}");
}

/// Plays king moves that neither capture nor allow a capture nor repeat a position, until
/// `plies` have been played; returns the record.
fn wander<G: Game>(fen: &str, plies: usize) -> GameRecord<G> {
    let mut record = GameRecord::<G>::new(G::parse_position(fen).expect("parses"));
    let mut seen = vec![G::hash(record.current())];
    for ply in 0..plies {
        assert_eq!(record.outcome(), None, "game ended early at ply {ply}");
        let pos = *record.current();
        let mut list = Vec::new();
        G::generate(&pos, Duplicates::Drop, &mut list);
        let next = list.into_iter().find(|m| {
            let child = G::play(&pos, m);
            let mut replies = Vec::new();
            G::generate(&child, Duplicates::Drop, &mut replies);
            !G::is_capture(m)
                && !seen.contains(&G::hash(&child))
                && !replies.iter().any(G::is_capture)
        });
        let mv = next.expect("a fresh quiet king move exists");
        record.push(mv);
        seen.push(G::hash(record.current()));
    }
    record
}

#[test]
fn international_25_king_moves_each_is_a_draw() {
    let record = wander::<Intl>("W:WK46,K47,K48:BK1,K2,K3", 49);
    assert_eq!(record.quiet_plies(), 49);
    let mut record = record;
    let pos = *record.current();
    let mut list = Vec::new();
    Intl::generate(&pos, Duplicates::Drop, &mut list);
    let mv = list
        .into_iter()
        .find(|m| !Intl::is_capture(m))
        .expect("a quiet move");
    record.push(mv);
    assert_eq!(
        record.outcome(),
        Some((Outcome::Draw, EndReason::QuietMoves))
    );
}

#[test]
fn international_two_kings_against_one_is_drawn_after_five_moves_each() {
    let record = wander::<Intl>("W:WK46,K50:BK3", 9);
    assert_eq!(record.outcome(), None);
    let mut record = record;
    let pos = *record.current();
    let mut list = Vec::new();
    Intl::generate(&pos, Duplicates::Drop, &mut list);
    let mv = list
        .into_iter()
        .find(|m| !Intl::is_capture(m))
        .expect("a quiet move");
    record.push(mv);
    assert_eq!(
        record.outcome(),
        Some((Outcome::Draw, EndReason::EndgameCounter))
    );
}

#[test]
fn international_three_kings_against_one_get_sixteen_moves_each() {
    let record = wander::<Intl>("W:WK46,K47,K50:BK3", 31);
    assert_eq!(record.outcome(), None);
    assert_eq!(Intl::endgame_ply_limit(record.current()), Some(32));
}

#[test]
fn russian_15_king_moves_each_is_a_draw() {
    type R = Diagonal<Russian>;
    let record = wander::<R>("W:WK29,K30:BK1,K2", 29);
    assert_eq!(record.outcome(), None);
    let mut record = record;
    let pos = *record.current();
    let mut list = Vec::new();
    R::generate(&pos, Duplicates::Drop, &mut list);
    let mv = list
        .into_iter()
        .find(|m| !R::is_capture(m))
        .expect("a quiet move");
    record.push(mv);
    assert_eq!(
        record.outcome(),
        Some((Outcome::Draw, EndReason::QuietMoves))
    );
}

fn shuffle<G: Game>(fen: &str, cycle: &[&str], times: usize) -> Vec<Option<(Outcome, EndReason)>> {
    let mut record = GameRecord::<G>::new(G::parse_position(fen).expect("parses"));
    let mut outcomes = Vec::new();
    for _ in 0..times {
        for m in cycle {
            record.push_text(m).expect("legal");
        }
        outcomes.push(record.outcome());
    }
    outcomes
}

#[test]
fn threefold_repetition_is_a_draw() {
    let cycle = ["48-43", "3-9", "43-48", "9-3"];
    let outcomes = shuffle::<Intl>("W:WK48,K49:BK3,K2", &cycle, 2);
    assert_eq!(
        outcomes,
        vec![None, Some((Outcome::Draw, EndReason::Repetition))]
    );
}

#[test]
fn italian_needs_a_fourfold_repetition() {
    // Italian numbering: kings on b1 (29) and h1 (32) against g8 (4) and a8 (1).
    let cycle = ["29-25", "4-8", "25-29", "8-4"];
    let outcomes = shuffle::<Diagonal<Italian>>("W:WK29,K32:BK4,K1", &cycle, 3);
    assert_eq!(
        outcomes,
        vec![None, None, Some((Outcome::Draw, EndReason::Repetition))]
    );
}

#[test]
fn no_pieces_loses() {
    let record = GameRecord::<Intl>::new(Intl::parse_position("W:W:B1").expect("parses"));
    assert_eq!(record.outcome(), Some((Outcome::Loss, EndReason::NoMoves)));
    assert_eq!(Intl::side_to_move(record.current()), Side::White);
}
