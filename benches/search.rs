//! Search speed: fixed-depth searches with one thread and a fresh table, per variant.
//!
//! The node counts are fixed (the search is deterministic), so the time per iteration is a
//! direct measure of nodes per second; `polydam bench` prints the same kind of figure.

use criterion::{criterion_group, criterion_main, Criterion};
use polydam_engine::diagonal::rules::{English, International, Russian};
use polydam_engine::diagonal::Diagonal;
use polydam_engine::game::Game;
use polydam_engine::record::GameRecord;
use polydam_engine::search::{Limits, SearchControl, Searcher};

/// A quiet International middle game (both sides 15 men).
const INTERNATIONAL_MIDDLE: &str =
    "W:W25,27,28,30,32,33,34,35,37,38,39,40,42,43,44,46,48,49:B3,6,7,8,9,11,12,13,14,16,17,18,19,20,22,23,24,26";

fn search_to<G: Game>(fen: &str, depth: i32) -> u64 {
    let start = if fen == "start" {
        G::start()
    } else {
        G::parse_position(fen).expect("bench position")
    };
    let record = GameRecord::<G>::new(start);
    let mut searcher = Searcher::<G>::new(16, 1);
    let control = SearchControl::new();
    searcher
        .search(&record, &Limits::depth(depth), &control, &mut |_| {})
        .nodes
}

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("international middle game depth 10", |b| {
        b.iter(|| search_to::<Diagonal<International>>(INTERNATIONAL_MIDDLE, 10))
    });
    group.bench_function("international start depth 10", |b| {
        b.iter(|| search_to::<Diagonal<International>>("start", 10))
    });
    group.bench_function("russian start depth 12", |b| {
        b.iter(|| search_to::<Diagonal<Russian>>("start", 12))
    });
    group.bench_function("english start depth 12", |b| {
        b.iter(|| search_to::<Diagonal<English>>("start", 12))
    });
    group.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
