//! perft speed of the diagonal family, in leaves per second (criterion's "elements").
//!
//! `cargo bench --bench perft` measures International from the start (depth 7 and 9, one
//! thread, bulk counting at the last ply) and the 8x8 games at depth 9. The target is
//! 100 million leaves per second on one thread for International depth 9.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use polydam_engine::diagonal::rules::{English, International, Russian};
use polydam_engine::diagonal::Diagonal;
use polydam_engine::game::{Duplicates, Game};
use polydam_engine::perft::count_paths;
use std::time::Duration;

fn bench_game<G: Game>(c: &mut Criterion, depth: u32) {
    let start = G::start();
    let leaves = count_paths::<G>(&start, depth, Duplicates::Drop);
    let mut group = c.benchmark_group(format!("perft/{}", G::NAME));
    group.throughput(Throughput::Elements(leaves));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    group.bench_with_input(BenchmarkId::from_parameter(depth), &depth, |b, &d| {
        b.iter(|| count_paths::<G>(&start, d, Duplicates::Drop))
    });
    group.finish();
}

fn perft_benches(c: &mut Criterion) {
    bench_game::<Diagonal<International>>(c, 7);
    bench_game::<Diagonal<International>>(c, 9);
    bench_game::<Diagonal<Russian>>(c, 9);
    bench_game::<Diagonal<English>>(c, 9);
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
