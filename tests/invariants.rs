//! Invariants that every registered variant must keep: the start position reads, has a move,
//! prints and parses back, random playouts keep the incremental hash equal to a fresh
//! computation, every generated move's text (both styles) parses back to the same move, the
//! family's move count (perft's bulk counting) equals the length of its move list, and perft
//! agrees with perft by plain move generation.

use polydam_engine::game::{Duplicates, Game, MoveStyle};
use polydam_engine::perft::count_paths;
use polydam_engine::variants::{dispatch, GameVisitor, VARIANTS};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

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

struct Playouts {
    games: usize,
    seed: u64,
}
impl GameVisitor for Playouts {
    type Output = Result<usize, String>;
    fn visit<G: Game>(self) -> Self::Output {
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let mut plies = 0;
        let mut list = Vec::new();
        let mut scratch = Vec::new();
        for game in 0..self.games {
            let mut pos = G::start();
            for ply in 0..300 {
                if G::decided(&pos).is_some() {
                    break;
                }
                G::generate(&pos, Duplicates::Drop, &mut list);
                // perft's bulk count agrees with the list, both ways of counting duplicates.
                for dups in [Duplicates::Drop, Duplicates::Keep] {
                    G::generate(&pos, dups, &mut scratch);
                    let listed = scratch.len() as u64;
                    let counted = G::count_moves(&pos, dups, &mut scratch);
                    if counted != listed {
                        return Err(format!("game {game} ply {ply}: {counted} moves counted, {listed} listed ({dups:?}) in {}", G::fen(&pos)));
                    }
                }
                if list.is_empty() {
                    break;
                }
                // Every move's text, in both styles, reads back to that move.
                for m in &list {
                    for style in [MoveStyle::Hub, MoveStyle::Pdn] {
                        let text = G::move_text(&pos, m, style);
                        match G::parse_move(&pos, &text) {
                            Ok(back) if back == *m => {}
                            Ok(back) => return Err(format!("game {game} ply {ply}: '{text}' read back as {back:?}, not {m:?} in {}", G::fen(&pos))),
                            Err(e) => return Err(format!("game {game} ply {ply}: '{text}' does not read back: {e} in {}", G::fen(&pos))),
                        }
                    }
                }
                let m = list[rng.gen_range(0..list.len())];
                pos = G::play(&pos, &m);
                plies += 1;
                if G::hash(&pos) != G::hash_from_scratch(&pos) {
                    return Err(format!(
                        "game {game} ply {ply}: incremental hash differs after {} in {}",
                        G::move_text(&pos, &m, MoveStyle::Hub),
                        G::fen(&pos)
                    ));
                }
                let fen = G::fen(&pos);
                match G::parse_position(&fen) {
                    Ok(back) if back == pos => {}
                    Ok(_) => return Err(format!("FEN {fen} reads back differently")),
                    Err(e) => return Err(format!("FEN {fen} does not read back: {e}")),
                }
            }
        }
        Ok(plies)
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
        let plies = dispatch(
            v.name,
            Playouts {
                games: 20,
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
