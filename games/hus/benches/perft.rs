//! Hus perft(6) from the start: speed of move generation and copy-make, asserting the count
//! (recomputed by the independent slow reference in `tests/reference.rs`, see `perft6.txt`).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use plies::harness::{PerftConvention, perft};
use plies_hus::Hus;

/// Perft(6) from the start, from the slow reference implementation.
const PERFT_6: u64 = include!("perft6.txt");

fn benches(c: &mut Criterion) {
    let start = Hus::start();
    assert_eq!(perft(&start, 6, PerftConvention::Leaf), PERFT_6);
    let mut group = c.benchmark_group("hus_perft");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(16))
        .throughput(Throughput::Elements(PERFT_6));
    group.bench_function("start_d6", |b| {
        b.iter(|| perft(black_box(&start), 6, PerftConvention::Leaf))
    });
    group.finish();
}

criterion_group!(hus, benches);
criterion_main!(hus);
