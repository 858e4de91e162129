//! Bad input gets an error that names the problem: malformed FEN, impossible squares, unknown
//! variants, illegal and ambiguous moves.

use polydam_engine::diagonal::rules::{English, International, Russian};
use polydam_engine::diagonal::Diagonal;
use polydam_engine::game::{Game, MoveError};
use polydam_engine::record::GameRecord;
use polydam_engine::variants::lookup;

type Intl = Diagonal<International>;

fn position_error<G: Game>(text: &str) -> String {
    G::parse_position(text)
        .expect_err("must be refused")
        .to_string()
}

#[test]
fn malformed_fen_is_refused_with_the_reason() {
    assert!(position_error::<Intl>("X:W31-50:B1-20").contains("side to move must be W or B"));
    assert!(position_error::<Intl>("W:W31-50:Q1-20").contains("must start with W or B"));
    assert!(position_error::<Intl>("W:W31-5x:B1-20").contains("31-5x"));
    assert!(position_error::<Intl>("W:W40-31:B1-20").contains("runs backwards"));
    assert!(position_error::<Intl>("W:W31,31:B1").contains("square 31 is given twice"));
    assert!(position_error::<Intl>("W:W31:B31").contains("square 31 is given twice"));
    assert!(position_error::<Intl>("").contains("empty"));
    assert!(position_error::<Intl>("W").contains("characters"));
}

#[test]
fn impossible_squares_are_refused() {
    assert!(position_error::<Intl>("W:W51:B1")
        .contains("square 51 is off the board (squares are 1-50)"));
    assert!(position_error::<Intl>("W:W0:B1").contains("square 0 is off the board"));
    assert!(position_error::<Diagonal<Russian>>("W:W33:B1").contains("1-32"));
    // A man on its own promotion row would already be a king.
    assert!(position_error::<Intl>("W:W3:B40").contains("white man on square 3, its promotion row"));
    assert!(position_error::<Intl>("W:W40:B48").contains("black man on square 48"));
    // Algebraic light square.
    assert!(position_error::<Diagonal<Russian>>("W:Wa2:B1").contains("'a2' is not a square"));
    // Too many pieces.
    assert!(position_error::<Diagonal<English>>("W:W5-32:B")
        .contains("white has 28 pieces; at most 12"));
}

#[test]
fn bad_hub_strings_are_refused() {
    let ok = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    assert!(Intl::parse_position(ok).is_ok());
    let short = &ok[..40];
    assert!(position_error::<Intl>(short).contains("40 characters; this board needs 51"));
    let bad = ok.replacen('e', "x", 1);
    assert!(position_error::<Intl>(&bad).contains("character 'x' at position 21"));
    let bad_side = ok.replacen('W', "Z", 1);
    assert!(position_error::<Intl>(&bad_side).contains("side to move"));
}

#[test]
fn unknown_variant_is_named() {
    let err = lookup("intrenational").expect_err("unknown").to_string();
    assert!(err.contains("unknown variant 'intrenational'"), "{err}");
    assert!(
        err.contains("international"),
        "the message lists the known variants: {err}"
    );
}

#[test]
fn illegal_move_is_refused_and_the_record_keeps_its_state() {
    let mut record = GameRecord::<Intl>::new(Intl::start());
    record.push_text("32-28").expect("legal");
    let before = *record.current();
    let err = record
        .push_text("32-28")
        .expect_err("no piece on 32 any more");
    assert_eq!(err, MoveError::Illegal("32-28".into()));
    assert_eq!(*record.current(), before);
    assert!(matches!(
        record.push_text("32-"),
        Err(MoveError::Malformed(_))
    ));
    assert!(matches!(
        record.push_text("hello"),
        Err(MoveError::Malformed(_))
    ));
    assert!(
        matches!(record.push_text("99-98"), Err(MoveError::Malformed(m)) if m.contains("off the board"))
    );
    assert_eq!(record.moves().len(), 1);
}

#[test]
fn ambiguous_move_lists_the_candidates() {
    // English: the e1 man (31) reaches c7 (6) by two three-piece routes, over d2, b4, b6 or
    // over f2, f4, d6. "31x6" names both; the full Hub or PDN forms name one.
    type E = Diagonal<English>;
    let pos = E::parse_position("W:W31:B26,17,9,27,19,10").expect("parses");
    match E::parse_move(&pos, "31x6") {
        Err(MoveError::Ambiguous(text, options)) => {
            assert_eq!(text, "31x6");
            assert_eq!(options.len(), 2, "{options:?}");
        }
        other => panic!("expected ambiguity, got {other:?}"),
    }
    let hub = E::parse_move(&pos, "31x6x9x17x26").expect("Hub form is exact");
    let pdn = E::parse_move(&pos, "31x22x13x6").expect("PDN form is exact");
    assert_eq!(hub, pdn);
}
