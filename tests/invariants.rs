//! Invariants that every registered variant must keep: the start position reads, has a move,
//! prints and parses back; random playouts ([`Playouts`]) keep the incremental hash equal to a
//! fresh computation, every position's FEN reading back to it and its Hub string to itself
//! (Frisian's king-move counters come from the moves, not the Hub string), list no move
//! twice, write every move in text (both styles) that parses back to the same move, and count
//! as many moves for perft's last ply as they list; and perft agrees with perft by plain move
//! generation.

use crate::support::Playouts;
use polydam_engine::game::{Duplicates, Game};
use polydam_engine::perft::count_paths;
use polydam_engine::variants::{dispatch, GameVisitor, VARIANTS};

struct StartRoundTrip;
impl GameVisitor for StartRoundTrip {
    type Output = Result<(), String>;
    fn visit<G: Game>(self) -> Self::Output {
        // `start()` has no fallback board: a start FEN that does not read panics there, and
        // the text `start` reports why.
        let start = G::start();
        let read = G::parse_position("start").map_err(|e| format!("'start': {e}"))?;
        if read != start {
            return Err("'start' reads as another position than start()".into());
        }
        if G::decided(&start).is_some() || !G::has_move(&start) {
            return Err(format!("the start {} has no move to play", G::fen(&start)));
        }
        let fen = G::fen(&start);
        let back = G::parse_position(&fen).map_err(|e| format!("FEN {fen}: {e}"))?;
        if back != start {
            return Err(format!("FEN {fen} reads back differently"));
        }
        let hub = G::hub_position(&start);
        let back = G::parse_position(&hub).map_err(|e| format!("hub {hub}: {e}"))?;
        if back != start {
            return Err(format!("hub string {hub} reads back differently"));
        }
        if G::hash(&start) != G::hash_from_scratch(&start) {
            return Err("start hash".into());
        }
        Ok(())
    }
}

/// perft by listing and playing every move, the last ply's too: the reference that
/// [`count_paths`], which counts the last ply with [`Game::count_moves`], must agree with.
fn plain_perft<G: Game>(pos: &G::Position, depth: u32, dups: Duplicates) -> u64 {
    if depth == 0 {
        return 1;
    }
    if G::decided(pos).is_some() {
        return 0;
    }
    let mut moves = Vec::new();
    G::generate(pos, dups, &mut moves);
    moves
        .iter()
        .map(|m| plain_perft::<G>(&G::play(pos, m), depth - 1, dups))
        .sum()
}

struct PerftAgrees;
impl GameVisitor for PerftAgrees {
    type Output = Result<(), String>;
    fn visit<G: Game>(self) -> Self::Output {
        let start = G::start();
        for dups in [Duplicates::Drop, Duplicates::Keep] {
            let fast = count_paths::<G>(&start, 3, dups);
            let plain = plain_perft::<G>(&start, 3, dups);
            if fast != plain || fast == 0 {
                return Err(format!("perft(3) {fast} against plain generation {plain}"));
            }
        }
        Ok(())
    }
}

#[test]
fn every_start_position_round_trips() {
    for v in VARIANTS {
        dispatch(v.name, StartRoundTrip)
            .expect("registered")
            .unwrap_or_else(|e| panic!("{}: {e}", v.name));
        assert_eq!(
            (v.start_fen)(),
            dispatch(v.name, FenOf).expect("registered")
        );
    }
}

struct FenOf;
impl GameVisitor for FenOf {
    type Output = String;
    fn visit<G: Game>(self) -> String {
        G::fen(&G::start())
    }
}

#[test]
fn random_playouts_keep_hash_and_notation_consistent() {
    let mut total = 0;
    for (i, v) in VARIANTS.iter().enumerate() {
        let (plies, _) = dispatch(
            v.name,
            Playouts {
                games: 20,
                max_plies: 300,
                seed: 1000 + i as u64,
            },
        )
        .expect("registered")
        .unwrap_or_else(|e| panic!("{}: {e}", v.name));
        assert!(plies > 200, "{}: only {plies} plies played", v.name);
        total += plies;
    }
    eprintln!(
        "{total} random plies checked over {} variants",
        VARIANTS.len()
    );
}

#[test]
fn family_perft_agrees_with_plain_generation() {
    for v in VARIANTS {
        dispatch(v.name, PerftAgrees)
            .expect("registered")
            .unwrap_or_else(|e| panic!("{}: {e}", v.name));
    }
}

#[test]
fn registry_names_match_game_names_and_aliases_resolve() {
    struct Name;
    impl GameVisitor for Name {
        type Output = &'static str;
        fn visit<G: Game>(self) -> &'static str {
            G::NAME
        }
    }
    for v in VARIANTS {
        assert_eq!(dispatch(v.name, Name).expect("registered"), v.name);
        for alias in v.aliases {
            assert_eq!(dispatch(alias, Name).expect("alias"), v.name);
        }
    }
    for (alias, name) in [
        ("normal", "international"),
        ("standard", "international"),
        ("losing", "antidraughts"),
        ("bt", "breakthrough"),
        ("american", "english"),
    ] {
        assert_eq!(dispatch(alias, Name).expect("alias"), name);
    }
}
