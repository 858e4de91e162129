//! Long random playouts of the Seesaw variants: after every move the incremental hash equals a
//! fresh computation, the FEN reads back to the same position, and every legal move's text (both
//! styles) parses back to the same move.

use polydam_engine::game::{Duplicates, Game, MoveStyle};
use polydam_engine::variants::{dispatch, GameVisitor};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

struct Playouts {
    games: usize,
    max_plies: usize,
    seed: u64,
}

impl GameVisitor for Playouts {
    type Output = Result<(usize, usize), String>;
    fn visit<G: Game>(self) -> Self::Output {
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let mut plies = 0;
        let mut finished = 0;
        let mut list = Vec::new();
        for game in 0..self.games {
            let mut pos = G::start();
            for ply in 0..self.max_plies {
                if G::decided(&pos).is_some() {
                    finished += 1;
                    break;
                }
                G::generate(&pos, Duplicates::Drop, &mut list);
                if list.is_empty() {
                    finished += 1;
                    break;
                }
                for (i, m) in list.iter().enumerate() {
                    if list[..i].contains(m) {
                        return Err(format!("game {game} ply {ply}: {m:?} listed twice"));
                    }
                    for style in [MoveStyle::Hub, MoveStyle::Pdn] {
                        let text = G::move_text(&pos, m, style);
                        match G::parse_move(&pos, &text) {
                            Ok(back) if back == *m => {}
                            Ok(back) => {
                                return Err(format!(
                                    "game {game} ply {ply}: '{text}' read back as {back:?}, not {m:?} in {}",
                                    G::fen(&pos)
                                ))
                            }
                            Err(e) => {
                                return Err(format!(
                                    "game {game} ply {ply}: '{text}' does not read back: {e} in {}",
                                    G::fen(&pos)
                                ))
                            }
                        }
                    }
                }
                let m = list[rng.gen_range(0..list.len())];
                let before = pos;
                pos = G::play(&pos, &m);
                plies += 1;
                if G::hash(&pos) != G::hash_from_scratch(&pos) {
                    return Err(format!(
                        "game {game} ply {ply}: incremental hash differs after {} from {}",
                        G::move_text(&before, &m, MoveStyle::Hub),
                        G::fen(&before)
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
        Ok((plies, finished))
    }
}

fn run(name: &str, games: usize, max_plies: usize, seed: u64) {
    let (plies, finished) = dispatch(
        name,
        Playouts {
            games,
            max_plies,
            seed,
        },
    )
    .expect("registered")
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    eprintln!("{name}: {games} games, {plies} plies, {finished} finished");
    assert!(plies > games * 10, "{name}: only {plies} plies");
}

#[test]
fn seesaw_draughts_random_playouts() {
    run("seesaw-draughts", 3000, 250, 0x5EE5_0001);
}

#[test]
fn seesaw_hex_side_4_random_playouts() {
    run("seesaw", 2000, 300, 0x5EE5_0004);
}

#[test]
fn seesaw_hex_side_5_random_playouts() {
    run("seesaw-5", 1000, 300, 0x5EE5_0005);
}
