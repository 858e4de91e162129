//! Rule tests for Canadian and Sri Lankan draughts, `../shared/rules/canadian-12x12.md`: International rules on
//! the 12x12 board, whose 72 squares take 77 bits of the ghost-bit layout, a `u128`: the tests
//! pin the captures that cross from the high word (bits 64 and up, the two bottom rows) to the
//! low one, and the numbering.
//!
//! Squares are numbered 1-72 (1 = b12, 6 = l12, 67 = a1, 72 = k1); the comments give the
//! algebraic squares and the bits.

use crate::support::{moves, moves_in};
use polydam_engine::diagonal::notation::{algebraic_of_internal, internal_of_number};
use polydam_engine::diagonal::rules::{Canadian, SriLankan};
use polydam_engine::diagonal::Diagonal;
use polydam_engine::game::{Game, MoveStyle};
use polydam_engine::record::GameRecord;
use polydam_tables::diagonal::TWELVE;

type C = Diagonal<Canadian>;

#[test]
fn canadian_start_and_numbering() {
    assert_eq!(C::fen(&C::start()), "W:W43-72:B1-30");
    assert_eq!(
        C::hub_position(&C::start()),
        format!("W{}{}{}", "b".repeat(30), "e".repeat(12), "w".repeat(30))
    );
    // White's first moves: a5 (43) has one, b5-j5 (44-48) two each.
    assert_eq!(
        moves_in::<C>("start", MoveStyle::Pdn),
        vec![
            "43-37", "44-37", "44-38", "45-38", "45-39", "46-39", "46-40", "47-40", "47-41",
            "48-41", "48-42"
        ]
    );
    // a1 is square 67 on bit 71, l12 square 6 on bit 5.
    assert_eq!(TWELVE.bit_index(66), 71);
    assert_eq!(TWELVE.bit_index(5), 5);
}

#[test]
fn canadian_king_captures_along_the_long_diagonal_across_the_words() {
    // The a1 king (bit 71) takes k11 (12, bit 11) at the far end of the long diagonal and
    // lands on l12 (6, bit 5).
    assert_eq!(moves::<C>("W:WK67:B12,2"), vec!["67x6x12"]);
    // And back: the l12 king takes b2 (61, bit 65) and lands on a1.
    assert_eq!(moves::<C>("B:W61:BK6"), vec!["6x67x61"]);
    // Two pieces on the diagonal, c3 (56, bit 59) and f6 (23, bit 23): the king takes both
    // and lands beyond the second anywhere.
    assert_eq!(
        moves::<C>("W:WK67:B56,23,2"),
        vec!["67x12x23x56", "67x17x23x56", "67x6x23x56"]
    );
}

#[test]
fn canadian_man_jump_across_the_words() {
    // The b2 man (bit 65) jumps c3 (56, bit 59) to d4 (50, bit 53).
    assert_eq!(moves::<C>("W:W61:B56,2"), vec!["61x50x56"]);
    let mut record = GameRecord::<C>::new(C::parse_position("W:W61:B56,2").expect("parses"));
    record.push_text("61x50").expect("legal");
    assert_eq!(C::fen(record.current()), "B:W50:B2");
    assert_eq!(
        C::hash(record.current()),
        C::hash_from_scratch(record.current())
    );
}

#[test]
fn canadian_plays_with_the_fmjd_draw_rules() {
    let rules = C::draw_rules();
    assert_eq!((rules.repetitions, rules.quiet_plies), (3, 50));
    let three = C::parse_position("W:WK67,K72,K66:BK1").expect("parses");
    assert_eq!(C::endgame_ply_limit(&three), Some(32));
    let two = C::parse_position("W:WK67,K72:BK1").expect("parses");
    assert_eq!(C::endgame_ply_limit(&two), Some(10));
}

// Sri Lankan draughts: the card's note under Perft, "International rules on the 12x12 board with
// the other colouring". Its board is Canadian's in a mirror: square 1 = a12, 6 = k12, 7 = b11,
// 67 = b1, 72 = l1 (our choice, as Italian's turned 8x8 board), the long diagonal a12-l1.

type S = Diagonal<SriLankan>;

/// The Sri Lankan number of the square that Canadian numbers `n` (the same internal square).
fn sri_lankan_number(n: usize) -> usize {
    let (row, col) = ((n - 1) / 6, (n - 1) % 6);
    row * 6 + (5 - col) + 1
}

/// `text` with every square number turned by [`sri_lankan_number`] (or its inverse: it is its
/// own inverse).
fn renumbered(text: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    for ch in text.chars().chain(std::iter::once(' ')) {
        if ch.is_ascii_digit() {
            digits.push(ch);
            continue;
        }
        if !digits.is_empty() {
            let n: usize = digits.parse().expect("a square number");
            out.push_str(&sri_lankan_number(n).to_string());
            digits.clear();
        }
        out.push(ch);
    }
    out.pop();
    out
}

#[test]
fn srilankan_start_and_numbering() {
    assert_eq!(S::fen(&S::start()), "W:W43-72:B1-30");
    assert_eq!(S::hub_position(&S::start()), C::hub_position(&C::start()));
    // White's first moves: b5 (43) to l5 (48); the edge square l5 has one move.
    assert_eq!(
        moves_in::<S>("start", MoveStyle::Pdn),
        vec![
            "43-37", "43-38", "44-38", "44-39", "45-39", "45-40", "46-40", "46-41", "47-41",
            "47-42", "48-42"
        ]
    );
    let algebraic = |n: usize| {
        let s = internal_of_number::<SriLankan>(n).expect("a square");
        algebraic_of_internal::<SriLankan>(s)
    };
    assert_eq!(
        [1, 6, 7, 12, 67, 72].map(algebraic),
        ["a12", "k12", "b11", "l11", "b1", "l1"]
    );
}

#[test]
fn srilankan_king_captures_along_the_long_diagonal_a12_l1() {
    // The l1 king (72) takes b11 (7) at the far end and lands on a12 (1).
    assert_eq!(moves::<S>("W:WK72:B7,5"), vec!["72x1x7"]);
}

#[test]
fn srilankan_is_canadian_in_a_mirror() {
    // Every move of a Canadian position is the renumbered move of the mirrored Sri Lankan one
    // (positions without ranges: renumbering turns single squares).
    for fen in [
        "W:W43,44,45,50,55,61,66:B1,2,7,13,20,26,30",
        "W:WK67:B56,23,2",
        "B:WK5,40,45:B10,K27,33",
        "W:W61:B56,2",
        "W:W31,37,38,K50:B19,20,K25,26,44",
    ] {
        let mirrored: Vec<String> = {
            let mut v: Vec<String> = moves::<S>(&renumbered(fen))
                .iter()
                .map(|m| renumbered(m))
                .collect();
            v.sort();
            v
        };
        assert_eq!(mirrored, moves::<C>(fen), "{fen}");
    }
}
