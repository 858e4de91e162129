//! Building positions from setups: every family refuses an impossible setup with its typed
//! error (the same one the text of that position gets), and a setup of a position reached by
//! play builds that very position back, key and evaluation terms included.

use polydam_engine::diagonal::rules::{
    Breakthrough, Dbc, English, International, Italian, Rules as DiagonalRules, Russian,
};
use polydam_engine::diagonal::{self, Diagonal};
use polydam_engine::game::{Duplicates, Game, Side};
use polydam_engine::hex::{self, Hex, HexBoard, Side4, Side5};
use polydam_engine::orthogonal::rules::{Dameo, Harzdame, Rules as OrthogonalRules, Turkish};
use polydam_engine::orthogonal::{self, Orthogonal};
use polydam_engine::stacks::{self, SeesawDraughts};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use Side::{Black, White};

// ---------------------------------------------------------------------------------------------
// Refused setups

fn diagonal_error<R: DiagonalRules>(pieces: &[(usize, Side, bool)]) -> diagonal::SetupError {
    let mut setup = diagonal::Setup::new(White);
    setup.pieces.extend_from_slice(pieces);
    diagonal::Position::from_setup::<R>(setup).expect_err("must be refused")
}

#[test]
fn diagonal_setup_with_two_pieces_on_a_square_is_refused() {
    use diagonal::SetupError::*;
    // Internal square 27 is square 28 in International numbering.
    let err = diagonal_error::<International>(&[(27, White, false), (27, Black, true)]);
    assert_eq!(err, SquareTwice(28));
    // The text of the same position gets the same error and the same message.
    assert_eq!(
        Diagonal::<International>::parse_position("W:W28:BK28"),
        Err(err.clone())
    );
    assert_eq!(err.to_string(), "square 28 is given twice");
    // Italian numbers the squares of a row from the other end: internal 0 is its square 4.
    assert_eq!(
        diagonal_error::<Italian>(&[(0, Black, false), (0, White, true)]),
        SquareTwice(4)
    );
}

#[test]
fn diagonal_setups_that_cannot_occur_are_refused() {
    use diagonal::SetupError::*;
    assert_eq!(
        diagonal_error::<International>(&[(2, White, false)]),
        ManOnPromotionRow {
            side: White,
            square: 3
        }
    );
    let thirteen: Vec<_> = (0..13).map(|s| (s + 8, Black, false)).collect();
    assert_eq!(
        diagonal_error::<English>(&thirteen),
        TooManyPieces {
            side: Black,
            count: 13,
            max: 12
        }
    );
    assert_eq!(
        diagonal_error::<Breakthrough>(&[(2, White, true), (40, Black, false)]),
        BreakthroughKingToMove
    );
    assert_eq!(
        diagonal_error::<Russian>(&[(32, White, false)]),
        OffBoard(32)
    );
}

fn orthogonal_error<R: OrthogonalRules>(pieces: &[(u8, Side, bool)]) -> orthogonal::SetupError {
    let mut setup = orthogonal::Setup::new(White);
    setup.pieces.extend_from_slice(pieces);
    orthogonal::Position::from_setup::<R>(setup).expect_err("must be refused")
}

#[test]
fn orthogonal_setups_that_cannot_occur_are_refused() {
    use orthogonal::SetupError::*;
    // d4 is bit 27.
    let err = orthogonal_error::<Turkish>(&[(27, White, false), (27, Black, false)]);
    assert_eq!(err, SquareTwice("d4".into()));
    assert_eq!(Orthogonal::<Turkish>::parse_position("W:Wd4:Bd4"), Err(err));
    assert_eq!(
        orthogonal_error::<Turkish>(&[(60, White, false)]),
        ManInPromotionZone {
            side: White,
            square: "e8".into()
        }
    );
    let nineteen: Vec<_> = (8..27).map(|sq| (sq, White, false)).collect();
    assert_eq!(
        orthogonal_error::<Dameo>(&nineteen),
        TooManyPieces {
            side: White,
            count: 19,
            max: 18
        }
    );
    assert_eq!(
        orthogonal_error::<Turkish>(&[(64, Black, true)]),
        OffBoard(64)
    );
}

fn stacks_error(stacks: &[(usize, Side, u32)]) -> stacks::SetupError {
    let mut setup = stacks::Setup::new(White);
    setup.stacks.extend_from_slice(stacks);
    stacks::Position::from_setup(setup).expect_err("must be refused")
}

#[test]
fn stacks_setups_that_cannot_occur_are_refused() {
    use stacks::SetupError::*;
    let err = stacks_error(&[(22, White, 1), (22, Black, 3)]);
    assert_eq!(err, SquareTwice(22));
    assert_eq!(SeesawDraughts::parse_position("W:W22:B22^3"), Err(err));
    assert_eq!(stacks_error(&[(9, Black, 0)]), ZeroSize(9));
    assert_eq!(
        stacks_error(&[(9, Black, 256)]),
        TooLarge {
            square: 9,
            size: "256".into()
        }
    );
    assert_eq!(stacks_error(&[(33, White, 1)]), OffBoard(33));
}

fn hex_error<B: HexBoard>(stacks: &[(&str, Side, u32)], tiles: &[(&str, Side)]) -> hex::SetupError {
    let cell = |name| hex::notation::parse_cell(B::GEOMETRY, name).expect("a cell");
    let mut setup = hex::Setup::new(White);
    for &(name, owner, size) in stacks {
        setup.stacks.push((cell(name), owner, size));
    }
    for &(name, colour) in tiles {
        setup.tiles.push((cell(name), colour));
    }
    hex::Position::from_setup::<B>(setup).expect_err("must be refused")
}

#[test]
fn hex_setups_that_cannot_occur_are_refused() {
    use hex::SetupError::*;
    let err = hex_error::<Side4>(&[("d1", White, 1), ("d1", Black, 1)], &[]);
    assert_eq!(err, StackTwice("d1".into()));
    assert_eq!(Hex::<Side4>::parse_position("W:Wd1:Bd1:TW:TB"), Err(err));
    let err = hex_error::<Side5>(&[("e1", White, 1)], &[("e1", White), ("e1", Black)]);
    assert_eq!(err, TileTwice("e1".into()));
    assert_eq!(
        hex_error::<Side4>(&[("d7", Black, 0)], &[]),
        BadSize {
            cell: "d7".into(),
            size: "0".into()
        }
    );
    // Side 4 has 37 cells; index 40 exists on side 5 only.
    let mut setup = hex::Setup::new(Black);
    setup.stacks.push((40, White, 1));
    assert!(hex::Position::from_setup::<Side5>(setup.clone()).is_ok());
    assert_eq!(hex::Position::from_setup::<Side4>(setup), Err(OffBoard(40)));
}

// ---------------------------------------------------------------------------------------------
// Setups of positions reached by play

/// Plays random games of `G` from the start and hands `check` every position reached, with
/// its FEN for messages.
fn random_positions<G: Game>(seed: u64, games: usize, mut check: impl FnMut(&G::Position)) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut list = Vec::new();
    for _ in 0..games {
        let mut pos = G::start();
        for _ in 0..200 {
            check(&pos);
            G::generate(&pos, Duplicates::Drop, &mut list);
            if list.is_empty() || G::decided(&pos).is_some() {
                break;
            }
            pos = G::play(&pos, &list[rng.gen_range(0..list.len())]);
        }
    }
}

fn diagonal_round_trip<R: DiagonalRules>() {
    random_positions::<Diagonal<R>>(0x5E7, 20, |pos| {
        let built = diagonal::Position::from_setup::<R>(pos.to_setup::<R>());
        // Whole positions compare equal: pieces, side, key and the men's evaluation terms.
        assert_eq!(built.as_ref(), Ok(pos), "{}", Diagonal::<R>::fen(pos));
        assert_eq!(pos.hash(), pos.compute_hash());
    });
}

#[test]
fn diagonal_setup_of_a_played_position_builds_it_back() {
    diagonal_round_trip::<International>();
    diagonal_round_trip::<Dbc>();
    diagonal_round_trip::<Breakthrough>();
    diagonal_round_trip::<Russian>();
    diagonal_round_trip::<English>();
    diagonal_round_trip::<Italian>();
}

fn orthogonal_round_trip<R: OrthogonalRules>() {
    random_positions::<Orthogonal<R>>(0x5E7, 20, |pos| {
        let built = orthogonal::Position::from_setup::<R>(pos.to_setup());
        assert_eq!(built.as_ref(), Ok(pos), "{}", Orthogonal::<R>::fen(pos));
    });
}

#[test]
fn orthogonal_setup_of_a_played_position_builds_it_back() {
    orthogonal_round_trip::<Turkish>();
    orthogonal_round_trip::<Dameo>();
    orthogonal_round_trip::<Harzdame>();
}

#[test]
fn stacks_setup_of_a_played_position_builds_it_back() {
    random_positions::<SeesawDraughts>(0x5E7, 20, |pos| {
        let built = stacks::Position::from_setup(pos.to_setup());
        assert_eq!(built.as_ref(), Ok(pos), "{}", SeesawDraughts::fen(pos));
    });
}

fn hex_round_trip<B: HexBoard>() {
    random_positions::<Hex<B>>(0x5E7, 20, |pos| {
        let built = hex::Position::from_setup::<B>(pos.to_setup());
        assert_eq!(built.as_ref(), Ok(pos), "{}", Hex::<B>::fen(pos));
    });
}

#[test]
fn hex_setup_of_a_played_position_builds_it_back() {
    hex_round_trip::<Side4>();
    hex_round_trip::<Side5>();
}
