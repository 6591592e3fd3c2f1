//! Fixed-depth search speed of the full PVS searcher on Onitama deals.
//!
//! Key invariant: every measured search asserts its node count against a constant recorded once
//! from this code: a signature of the whole search (ordering, pruning, table). A change to any
//! signature must be intentional: a search change that alters it is a behaviour change, to be
//! justified (and the constant updated in the same commit), never a side effect.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use plies::search::searcher_by_name;
use plies::{Notation, SearchLimits};
use plies_onitama::{Onitama, PstEvaluator};

/// (name, position, depth, node signature). Recorded with `PstEvaluator::default()` and the `pvs`
/// searcher; `cargo run --release --example onitama -- bench --position P --depth D` prints the
/// same numbers.
const CASES: &[(&str, &str, u32, u64)] = &[
    (
        "monkey-crane pvs d9",
        "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon",
        9,
        328_102,
    ),
    (
        "ox-boar pvs d9",
        "bbBbb/5/5/5/rrRrr r ox,boar horse,elephant crab",
        9,
        401_061,
    ),
];

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("onitama_search");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for &(name, position, depth, signature) in CASES {
        let state = Onitama::parse_position(position).expect("bench position parses");
        let limits = SearchLimits::depth(depth);
        group.bench_function(name, |b| {
            b.iter_batched(
                // A fresh searcher (empty table) for each run keeps every run identical.
                || searcher_by_name::<Onitama, _>("pvs", PstEvaluator::default()).unwrap(),
                |mut searcher| {
                    let result = searcher.search(black_box(&state), &limits);
                    assert_eq!(
                        result.stats.nodes, signature,
                        "search signature changed for {position} at depth {depth}"
                    );
                    result.best_move
                },
                BatchSize::PerIteration,
            );
        });
    }
    group.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
