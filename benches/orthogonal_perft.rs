//! Criterion bench of the orthogonal generator: Turkish perft from the start (bulk counting at
//! the last ply, one thread), plus one variant with kings in every direction and removal at the
//! end (Dameo) and one with the Bahrain filter.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use polydam_engine::game::{Duplicates, Game};
use polydam_engine::orthogonal::rules::{Bahrain, Dameo, Turkish};
use polydam_engine::orthogonal::Orthogonal;
use polydam_engine::perft::count_paths;

fn turkish(c: &mut Criterion) {
    type T = Orthogonal<Turkish>;
    let start = T::start();
    let mut group = c.benchmark_group("orthogonal_perft");
    group.sample_size(20);
    // perft(6) = 931,312 leaves.
    group.throughput(Throughput::Elements(931_312));
    group.bench_function("turkish_6", |b| {
        b.iter(|| count_paths::<T>(std::hint::black_box(&start), 6, Duplicates::Drop))
    });
    type D = Orthogonal<Dameo>;
    let dameo = D::start();
    group.throughput(Throughput::Elements(2_704));
    group.bench_function("dameo_2", |b| {
        b.iter(|| count_paths::<D>(std::hint::black_box(&dameo), 2, Duplicates::Drop))
    });
    type B = Orthogonal<Bahrain>;
    let bahrain = B::start();
    group.throughput(Throughput::Elements(85_062));
    group.bench_function("bahrain_5", |b| {
        b.iter(|| count_paths::<B>(std::hint::black_box(&bahrain), 5, Duplicates::Drop))
    });
    group.finish();
}

criterion_group!(benches, turkish);
criterion_main!(benches);
