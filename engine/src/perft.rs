//! perft: counting move paths, for checking generators against published numbers.

use rayon::prelude::*;

use crate::game::{Duplicates, Game};

/// perft by playing every move (families may override [`Game::perft`] with bulk counting).
pub fn generic_perft<G: Game>(pos: &G::Position, depth: u32, dups: Duplicates) -> u64 {
    if depth == 0 {
        return 1;
    }
    if G::decided(pos).is_some() {
        return 0;
    }
    let mut moves = Vec::new();
    G::generate(pos, dups, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| generic_perft::<G>(&G::play(pos, m), depth - 1, dups))
        .sum()
}

/// perft split by root move: one `(move, count)` per legal move, in generation order. With
/// `parallel`, the work is shared out over rayon's thread pool by the positions two plies
/// deep, which balances the threads far better than the handful of root moves would.
pub fn divide<G: Game>(
    pos: &G::Position,
    depth: u32,
    dups: Duplicates,
    parallel: bool,
) -> Vec<(G::Move, u64)> {
    if depth == 0 || G::decided(pos).is_some() {
        return Vec::new();
    }
    let mut moves = Vec::new();
    G::generate(pos, dups, &mut moves);
    if !parallel || depth < 3 {
        return moves
            .iter()
            .map(|m| (*m, G::perft(&G::play(pos, m), depth - 1, dups)))
            .collect();
    }
    // (root index, grandchild position) for every two-ply line.
    let mut jobs: Vec<(usize, G::Position)> = Vec::new();
    let mut replies = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let child = G::play(pos, m);
        if G::decided(&child).is_some() {
            continue;
        }
        G::generate(&child, dups, &mut replies);
        jobs.extend(replies.iter().map(|r| (i, G::play(&child, r))));
    }
    let counts: Vec<(usize, u64)> = jobs
        .par_iter()
        .map(|(i, p)| (*i, G::perft(p, depth - 2, dups)))
        .collect();
    let mut totals = vec![0u64; moves.len()];
    for (i, n) in counts {
        totals[i] += n;
    }
    moves.into_iter().zip(totals).collect()
}

/// perft, optionally with the root moves shared out over rayon.
pub fn perft<G: Game>(pos: &G::Position, depth: u32, dups: Duplicates, parallel: bool) -> u64 {
    if !parallel || depth < 3 {
        return G::perft(pos, depth, dups);
    }
    divide::<G>(pos, depth, dups, true)
        .iter()
        .map(|(_, n)| n)
        .sum()
}
