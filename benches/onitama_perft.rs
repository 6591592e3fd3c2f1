//! Perft speed of Onitama through the generic `plies::harness::perft`, from community deals.
//!
//! Key invariant: every measured run asserts its node count against the community perft tables
//! (docs/rules/onitama.md), so a faster time cannot come from a wrong count.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use plies::Notation;
use plies::harness::perft::{PerftConvention, perft};
use plies_onitama::Onitama;

/// (name, position, convention, depth, community node count).
const CASES: &[(&str, &str, PerftConvention, u32, u64)] = &[
    (
        "ox-boar leaf d6",
        "bbBbb/5/5/5/rrRrr r ox,boar horse,elephant crab",
        PerftConvention::Leaf,
        6,
        7_748_422,
    ),
    (
        "ox-boar stop d6",
        "bbBbb/5/5/5/rrRrr r ox,boar horse,elephant crab",
        PerftConvention::Stop,
        6,
        7_746_995,
    ),
    (
        "goose-dragon leaf d6",
        "bbBbb/5/5/5/rrRrr r goose,dragon mantis,eel crane",
        PerftConvention::Leaf,
        6,
        2_793_554,
    ),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("onitama_perft");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for &(name, position, convention, depth, expected) in CASES {
        let state = Onitama::parse_position(position).expect("bench position parses");
        group.bench_function(name, |b| {
            b.iter(|| {
                let nodes = perft(black_box(&state), depth, convention);
                assert_eq!(nodes, expected, "{name}: perft changed");
                nodes
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
