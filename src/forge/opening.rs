//! Growing an opening book ([`polydam_engine::book`]) with Polydam's own search, best first.
//!
//! The book is a tree walked from the start position: a position in the book leads to the
//! positions after its moves within `margin` of its best, each with an equal share of the
//! position's weight (the start weighs 1). The frontier is every position so reached that is
//! not in the book yet; growing repeatedly takes the heaviest one (then the shallowest, then
//! the smallest key, so the order is deterministic), scores every legal move by searching the
//! position after it to `depth - 1` and negating, and adds the entry, whose moves extend the
//! frontier.
//!
//! Shards: with `shard = (i, k)` the frontier is split by key, so that `k` jobs grow disjoint
//! parts of the same book and their outputs merge (`polydam book merge`). A position that is
//! not in the book belongs to shard `key % k` when its parent is in the book the job started
//! from, and to its parent's shard otherwise; the start position, when the book lacks it, is
//! scored by every shard (the same search gives the same entry).

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashSet};
use std::time::{Duration, Instant};

use polydam_engine::book::{BookEntry, BookMove, OpeningBook};
use polydam_engine::game::{Duplicates, Game};
use polydam_engine::record::GameRecord;
use polydam_engine::search::{Limits, SearchControl, Searcher};

/// How to grow a book.
#[derive(Clone, Debug)]
pub struct GrowSpec {
    /// New positions wanted.
    pub positions: usize,
    /// Depth of the search that scores a position (each move's child is searched one less).
    pub depth: i32,
    /// Moves within this many hundredths of a man of the best lead on.
    pub margin: i32,
    /// This job's shard `(i, k)`, `i` from 1 to `k`; `None` grows everything.
    pub shard: Option<(u64, u64)>,
    /// Transposition table of the searches, in MiB (shared by the whole job).
    pub hash_mib: usize,
    /// Stop after this long even if fewer positions were added.
    pub max_time: Option<Duration>,
}

/// Whose a frontier position is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    /// In the book the job started from, or the start position: walked by every shard.
    Shared,
    /// This shard's.
    Mine,
    /// Another shard's: not expanded here.
    Other,
}

/// A position waiting on the frontier.
struct Node<G: Game> {
    pos: G::Position,
    weight: f64,
    ply: u32,
    owner: Owner,
}

impl<G: Game> Node<G> {
    fn rank(&self) -> (f64, std::cmp::Reverse<u32>, std::cmp::Reverse<u64>) {
        (
            self.weight,
            std::cmp::Reverse(self.ply),
            std::cmp::Reverse(G::hash(&self.pos)),
        )
    }
}

impl<G: Game> PartialEq for Node<G> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<G: Game> Eq for Node<G> {}

impl<G: Game> PartialOrd for Node<G> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<G: Game> Ord for Node<G> {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (self.rank(), other.rank());
        a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2))
    }
}

/// What a growing job did.
#[derive(Clone, Copy, Debug, Default)]
pub struct GrowStats {
    /// Positions added.
    pub added: usize,
    /// Positions left on the frontier (this shard's and shared ones).
    pub frontier: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Deepest ply from the start of an added position.
    pub max_ply: u32,
}

/// Whether shard `(i, k)` owns the position of `key`.
pub fn shard_owns(shard: Option<(u64, u64)>, key: u64) -> bool {
    match shard {
        None => true,
        // The key's high bits: its low bits may be shared by positions that differ little.
        Some((i, k)) => (key >> 32) % k == i - 1,
    }
}

/// Scores every legal move of `pos`: the position after each is searched to `depth - 1` (at
/// least 1) and its score negated. `None` when `pos` has no legal move.
pub fn score_position<G: Game>(
    searcher: &mut Searcher<G>,
    pos: &G::Position,
    depth: i32,
) -> Option<(BookEntry<G>, u64)> {
    let mut moves = Vec::new();
    if G::decided(pos).is_some() {
        return None;
    }
    G::generate(pos, Duplicates::Drop, &mut moves);
    if moves.is_empty() {
        return None;
    }
    let control = SearchControl::new();
    let limits = Limits::depth((depth - 1).max(1));
    let mut nodes = 0;
    let mut scored = Vec::with_capacity(moves.len());
    for mv in moves {
        let mut record = GameRecord::<G>::new(*pos);
        record.push(mv);
        let result = searcher.search(&record, &limits, &control, &mut |_| {});
        nodes += result.nodes;
        scored.push(BookMove {
            mv,
            score: -result.score,
        });
    }
    Some((BookEntry::new(*pos, scored, depth), nodes))
}

/// Grows `book` by `spec`; `on_added` is called after each new entry with the book and the
/// running figures (to save the book now and then, or move a progress bar).
pub fn grow<G: Game>(
    book: &mut OpeningBook<G>,
    spec: &GrowSpec,
    on_added: &mut dyn FnMut(&OpeningBook<G>, &GrowStats),
) -> Result<GrowStats, String> {
    let mut searcher = Searcher::<G>::try_new(spec.hash_mib, 1).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let mut stats = GrowStats::default();
    let mut seen: HashSet<u64> = HashSet::new();
    let mut heap: BinaryHeap<Node<G>> = BinaryHeap::new();
    heap.push(Node {
        pos: G::start(),
        weight: 1.0,
        ply: 0,
        owner: Owner::Shared,
    });
    let initial: HashSet<u64> = book.entries().map(|e| G::hash(&e.position)).collect();
    while let Some(node) = heap.pop() {
        let key = G::hash(&node.pos);
        if !seen.insert(key) {
            continue;
        }
        let in_book = book.contains(&node.pos);
        if !in_book {
            if node.owner == Owner::Other {
                continue;
            }
            if stats.added >= spec.positions
                || spec.max_time.is_some_and(|t| started.elapsed() >= t)
            {
                // Left for a later job: counted, not expanded.
                stats.frontier += 1;
                continue;
            }
            let Some((entry, nodes)) = score_position(&mut searcher, &node.pos, spec.depth) else {
                continue;
            };
            stats.added += 1;
            stats.nodes += nodes;
            stats.max_ply = stats.max_ply.max(node.ply);
            book.insert(entry);
            on_added(book, &stats);
        }
        let Some(entry) = book.get(&node.pos) else {
            continue;
        };
        let near: Vec<G::Move> = entry.near_best(spec.margin).map(|m| m.mv).collect();
        let share = node.weight / near.len().max(1) as f64;
        for mv in near {
            let child = G::play(&node.pos, &mv);
            let child_key = G::hash(&child);
            if seen.contains(&child_key) {
                continue;
            }
            let owner = if initial.contains(&child_key) {
                Owner::Shared
            } else {
                match node.owner {
                    // The parent is in the book every shard started from (or is the start).
                    Owner::Shared => {
                        if shard_owns(spec.shard, child_key) {
                            Owner::Mine
                        } else {
                            Owner::Other
                        }
                    }
                    // The parent was added by this shard: its children are this shard's.
                    Owner::Mine => Owner::Mine,
                    Owner::Other => Owner::Other,
                }
            };
            heap.push(Node {
                pos: child,
                weight: share,
                ply: node.ply + 1,
                owner,
            });
        }
    }
    Ok(stats)
}
