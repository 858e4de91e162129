//! perft: counting move paths, for checking generators against published numbers.
//!
//! There is one perft for every family. It plays every move but the last ply's, which it
//! counts with [`Game::count_moves`] (bulk counting): families count their quiet moves from
//! bitboards there without listing them. Each ply of the recursion reuses one move list, so
//! that no node allocates.
//!
//! ```
//! use polydam_engine::diagonal::{rules::International, Diagonal};
//! use polydam_engine::game::{Duplicates, Game};
//! use polydam_engine::perft::count_paths;
//! type Intl = Diagonal<International>;
//! assert_eq!(count_paths::<Intl>(&Intl::start(), 3, Duplicates::Drop), 658);
//! ```

use crate::game::{Duplicates, Game};

/// How many moves a move list is made ready for: more than any family's start position has,
/// so that the lists rarely grow.
const LIST_CAPACITY: usize = 128;

/// perft on the calling thread: the number of move paths of exactly `depth` plies from `pos`.
/// A position decided before its moves ([`Game::decided`]) ends its paths, as one with no
/// legal move does.
pub fn count_paths<G: Game>(pos: &G::Position, depth: u32, dups: Duplicates) -> u64 {
    let mut lists: Vec<Vec<G::Move>> = (0..depth)
        .map(|_| Vec::with_capacity(LIST_CAPACITY))
        .collect();
    count_below::<G>(pos, dups, &mut lists)
}

/// [`count_paths`] below `pos` to the depth `lists.len()`: `lists[0]` holds this node's moves,
/// the rest the plies below, one list per ply.
fn count_below<G: Game>(pos: &G::Position, dups: Duplicates, lists: &mut [Vec<G::Move>]) -> u64 {
    let Some((list, below)) = lists.split_first_mut() else {
        return 1;
    };
    if G::decided(pos).is_some() {
        return 0;
    }
    if below.is_empty() {
        return G::count_moves(pos, dups, list);
    }
    G::generate(pos, dups, list);
    let mut total = 0;
    for mv in list.iter() {
        total += count_below::<G>(&G::play(pos, mv), dups, below);
    }
    total
}

/// perft split by root move: one `(move, count)` per legal move, in generation order. With
/// `parallel` (and the crate's `parallel` feature; serial without it), the work is shared
/// out over rayon's thread pool by the positions two plies
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
            .map(|m| (*m, count_paths::<G>(&G::play(pos, m), depth - 1, dups)))
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
    let counts = crate::par::map_indices(jobs.len(), &|k| {
        count_paths::<G>(&jobs[k].1, depth - 2, dups)
    });
    let mut totals = vec![0u64; moves.len()];
    for ((i, _), n) in jobs.iter().zip(counts) {
        totals[*i] += n;
    }
    moves.into_iter().zip(totals).collect()
}

/// perft, optionally with the work shared out over rayon (see [`divide`]); without
/// `parallel`, the same as [`count_paths`].
pub fn perft<G: Game>(pos: &G::Position, depth: u32, dups: Duplicates, parallel: bool) -> u64 {
    if !parallel || depth < 3 {
        return count_paths::<G>(pos, depth, dups);
    }
    divide::<G>(pos, depth, dups, true)
        .iter()
        .map(|(_, n)| n)
        .sum()
}
