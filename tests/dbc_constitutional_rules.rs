//! Deferred backward capture, its four halt rules, and Constitutional draughts
//! (`../shared/rules/diagonal-10x10.md`): a test per clause with hand-built positions and
//! their complete move lists, then consistency checks over thousands of random positions.

use std::collections::BTreeSet;

use crate::support::moves;
use polydam_engine::diagonal::rules::*;
use polydam_engine::diagonal::{Diagonal, Position, Setup};
use polydam_engine::game::{Duplicates, Game, Side};
use polydam_tables::diagonal::TEN;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

type Intl = Diagonal<International>;
type D = Diagonal<Dbc>;
type Dk = Diagonal<DbcKiller>;
type Dkl = Diagonal<DbcKillerLight>;
type Dh = Diagonal<DbcHalt>;
type Dh2 = Diagonal<DbcHalt2>;
type C = Diagonal<Constitutional>;

#[test]
fn dbc_man_first_jump_not_backward_so_the_smaller_capture_is_compulsory() {
    // The e5 man (28) could take three pieces starting backward (f4, h4, h6: 33, 34, 24), or
    // two starting forward (d6, b8: 22, 11). International takes three; dbc may not start
    // backward, so its majority is over the legal sequences: the two-piece capture.
    let fen = "W:W28:B33,34,24,22,11";
    assert_eq!(moves::<Intl>(fen), vec!["28x19x24x33x34"]);
    assert_eq!(moves::<D>(fen), vec!["28x6x11x22"]);
}

#[test]
fn dbc_backward_jump_as_second_jump_is_legal() {
    // e5 takes d6 forward to c7, then b6 backward to a5.
    assert_eq!(moves::<D>("W:W28:B22,21"), vec!["28x26x21x22"]);
}

#[test]
fn dbc_kings_capture_backward_first() {
    // A king is unaffected: the e5 king takes f4 backward.
    assert_eq!(
        moves::<D>("W:WK28:B33"),
        vec!["28x39x33", "28x44x33", "28x50x33"]
    );
}

const A1_TAKES_E5_KING: &str = "W:WK46:BK28";
const A1_TAKES_E5_MAN: &str = "W:WK46:B28";
const ANYWHERE_BEYOND_E5: [&str; 5] = ["x10x28", "x14x28", "x19x28", "x23x28", "x5x28"];

fn beyond_e5() -> Vec<String> {
    ANYWHERE_BEYOND_E5
        .iter()
        .map(|t| format!("46{t}"))
        .collect()
}

#[test]
fn halt_rules_on_a_single_capture() {
    // One piece taken: only dbc-killer halts, and only behind a king.
    assert_eq!(moves::<D>(A1_TAKES_E5_KING), beyond_e5());
    assert_eq!(moves::<Dk>(A1_TAKES_E5_KING), vec!["46x23x28"]);
    assert_eq!(moves::<Dkl>(A1_TAKES_E5_KING), beyond_e5());
    assert_eq!(moves::<Dh>(A1_TAKES_E5_KING), beyond_e5());
    assert_eq!(moves::<Dh2>(A1_TAKES_E5_KING), beyond_e5());
    for men_only in [moves::<Dk>(A1_TAKES_E5_MAN), moves::<Dh>(A1_TAKES_E5_MAN)] {
        assert_eq!(men_only, beyond_e5());
    }
}

// The a1 king takes e5, must go on from g7 (19) and take h6 (24); it can then land on i5 (30)
// or j4 (35). The halt puts it on i5.
const FREE: [&str; 2] = ["46x30x24x28", "46x35x24x28"];
const HALTED: [&str; 1] = ["46x30x24x28"];

#[test]
fn halt_rules_on_a_multiple_capture_ending_on_a_man() {
    let fen = "W:WK46:B28,24";
    assert_eq!(moves::<D>(fen), FREE);
    assert_eq!(moves::<Dk>(fen), FREE);
    assert_eq!(moves::<Dkl>(fen), FREE);
    assert_eq!(moves::<Dh>(fen), HALTED);
    assert_eq!(moves::<Dh2>(fen), FREE);
}

#[test]
fn halt_rules_on_a_multiple_capture_ending_on_one_king() {
    let fen = "W:WK46:B28,K24";
    assert_eq!(moves::<D>(fen), FREE);
    assert_eq!(moves::<Dk>(fen), HALTED);
    assert_eq!(moves::<Dkl>(fen), HALTED);
    assert_eq!(moves::<Dh>(fen), HALTED);
    assert_eq!(moves::<Dh2>(fen), FREE);
}

#[test]
fn halt_rules_on_a_multiple_capture_ending_on_two_kings() {
    // The first king taken (e5) does not halt the king on f6: continuing stays compulsory.
    let fen = "W:WK46:BK28,K24";
    assert_eq!(moves::<D>(fen), FREE);
    assert_eq!(moves::<Dk>(fen), HALTED);
    assert_eq!(moves::<Dkl>(fen), HALTED);
    assert_eq!(moves::<Dh>(fen), HALTED);
    assert_eq!(moves::<Dh2>(fen), HALTED);
}

#[test]
fn constitutional_slide_past_a_threatened_square_to_an_unthreatened_one_is_illegal() {
    // The black king on b6 (21) threatens d4 (32): it sees it over c5 and e3 beyond is empty.
    // The a1 king may go to b2 (one square), c3, or d4 (a threatened square), not further.
    assert_eq!(moves::<C>("W:WK46:BK21"), vec!["46-32", "46-37", "46-41"]);
    assert_eq!(moves::<Intl>("W:WK46:BK21").len(), 9);
}

#[test]
fn constitutional_slide_to_a_threatened_square_and_one_square_moves_are_legal() {
    let list = moves::<C>("W:WK46:BK21");
    assert!(
        list.contains(&"46-32".to_string()),
        "ending on the threatened d4 is a sacrifice, allowed"
    );
    assert!(
        list.contains(&"46-41".to_string()),
        "one-square moves are never restricted"
    );
}

#[test]
fn constitutional_threat_seen_through_the_vacated_start_square() {
    // King on d4 (32), black king on b6 (21) guarded by a man on a7 (16) so no capture. With
    // d4 lifted, b6 sees e3 and f2 (threatened) through it; g1 (49) has nothing beyond it, so
    // the slide d4-g1 passes threatened squares to an unthreatened one: illegal. d4-f2 ends on
    // a threatened square: legal.
    let fen = "W:WK32:BK21,16";
    let expected = [
        "32-10", "32-14", "32-19", "32-23", "32-27", "32-28", "32-37", "32-38", "32-41", "32-43",
        "32-46", "32-5",
    ];
    assert_eq!(moves::<C>(fen), expected);
    let mut with_g1 = expected.map(String::from).to_vec();
    with_g1.push("32-49".into());
    with_g1.sort();
    assert_eq!(moves::<Intl>(fen), with_g1);
}

#[test]
fn constitutional_captures_are_unaffected() {
    // The a1 king takes c3 and may land past the threatened d4 on any square.
    let fen = "W:WK46:B37,K16,K3";
    assert_eq!(moves::<C>(fen), moves::<Intl>(fen));
    assert_eq!(moves::<C>(fen).len(), 7);
}

/// A random legal-looking 10x10 setup with many kings.
fn random_setup(rng: &mut SmallRng) -> Setup {
    let mut setup = Setup::new(if rng.gen_bool(0.5) {
        Side::White
    } else {
        Side::Black
    });
    let mut occupied = 0u64;
    for _ in 0..rng.gen_range(4..24) {
        let s = rng.gen_range(0..TEN.squares());
        let bit = TEN.bit_of_square(s);
        if occupied & bit != 0 {
            continue;
        }
        let side = rng.gen_range(0..2usize);
        let king = rng.gen_bool(0.4);
        let row = s / 5;
        // Men never stand on their own promotion row.
        if !king && ((side == 0 && row == 0) || (side == 1 && row == 9)) {
            continue;
        }
        occupied |= bit;
        let owner = if side == 0 { Side::White } else { Side::Black };
        setup.pieces.push((s, owner, king));
    }
    setup
}

/// The position of `setup` for variant `R` (its key and evaluation terms are `R`'s).
fn position<R: Rules<Bits = u64>>(setup: &Setup) -> Position {
    Position::from_setup::<R>(setup.clone())
        .unwrap_or_else(|e| panic!("{}: random setup {setup:?}: {e}", R::NAME))
}

fn move_set<R: Rules<Bits = u64>>(setup: &Setup) -> BTreeSet<(u8, u8, u64)> {
    let pos = position::<R>(setup);
    let mut list = Vec::new();
    Diagonal::<R>::generate(&pos, Duplicates::Drop, &mut list);
    list.iter().map(|m| (m.from, m.to, m.captured)).collect()
}

/// International moves with free choice among complete capture sequences: every legal
/// International sequence before the majority rule is applied.
struct InternationalFree;
impl Rules for InternationalFree {
    type Bits = u64;
    const NAME: &'static str = "international-free";
    const SHEET: RuleSheet = RuleSheet {
        precedence: Precedence::Free,
        ..INTERNATIONAL
    };
    const INFO: DiagonalInfo = International::INFO;
}

#[test]
fn halt_moves_subset_of_dbc_and_dbc_captures_subset_of_international_over_random_positions() {
    let mut rng = SmallRng::seed_from_u64(0xDBC);
    let mut with_captures = 0;
    let mut restricted = 0;
    for _ in 0..20_000 {
        let setup = random_setup(&mut rng);
        let pos = position::<Dbc>(&setup);
        let dbc = move_set::<Dbc>(&setup);
        for halt in [
            move_set::<DbcKiller>(&setup),
            move_set::<DbcKillerLight>(&setup),
            move_set::<DbcHalt>(&setup),
            move_set::<DbcHalt2>(&setup),
        ] {
            assert!(
                halt.is_subset(&dbc),
                "halt variant not a subset of dbc in {}",
                D::fen(&pos)
            );
            restricted += (halt.len() < dbc.len()) as usize;
        }
        if dbc.iter().any(|m| m.2 != 0) {
            with_captures += 1;
            // Every dbc capture is a complete International capture sequence; and when both
            // games take the same number of pieces, the dbc captures are International moves.
            let free = move_set::<InternationalFree>(&setup);
            assert!(
                dbc.is_subset(&free),
                "dbc capture not an International sequence in {}",
                D::fen(&pos)
            );
            let intl = move_set::<International>(&setup);
            let count =
                |s: &BTreeSet<(u8, u8, u64)>| s.iter().map(|m| m.2.count_ones()).max().unwrap_or(0);
            if count(&intl) == count(&dbc) {
                assert!(
                    dbc.is_subset(&intl),
                    "dbc not a subset of International in {}",
                    D::fen(&pos)
                );
            }
        }
        let cons = move_set::<Constitutional>(&setup);
        assert!(
            cons.is_subset(&move_set::<International>(&setup)),
            "constitutional not a subset in {}",
            C::fen(&pos)
        );
    }
    // The random positions must actually exercise the rules.
    assert!(
        with_captures > 2_000,
        "only {with_captures} positions with captures"
    );
    assert!(
        restricted > 100,
        "halt rules restricted only {restricted} times"
    );
}
