//! Fixed-depth search speed of the full PVS searcher on the eight Onitama bench deals.
//!
//! Key invariant: every measured run asserts its node total against the signature recorded in
//! `plies_onitama::bench` (the same numbers `cargo run --release --example onitama -- bench
//! --full` checks): a signature of the whole search (ordering, pruning, table). A change to it
//! must be intentional: a search change that alters it is a behaviour change, to be justified
//! (and the constant updated in the same commit), never a side effect.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use plies::Notation;
use plies::search::SearchLimits;
use plies::spec::SearcherSpec;
use plies_onitama::bench::BENCH_SIGNATURES;
use plies_onitama::{BENCH_DEALS, Onitama, PstEvaluator};

/// The ladder depths measured here (the cheap rungs; `bench --full` runs all of them).
const DEPTHS: [u32; 2] = [8, 10];

fn bench_search(c: &mut Criterion) {
    let deals: Vec<Onitama> = BENCH_DEALS
        .iter()
        .map(|text| Onitama::parse_position(text).expect("bench deal parses"))
        .collect();
    let mut group = c.benchmark_group("onitama_search");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    for depth in DEPTHS {
        let signature = BENCH_SIGNATURES
            .iter()
            .find(|s| s.depth == depth)
            .expect("a recorded signature")
            .nodes;
        let limits = SearchLimits::depth(depth);
        group.bench_function(format!("eight deals pvs d{depth}"), |b| {
            b.iter_batched(
                // A fresh searcher (empty table) per deal keeps every run identical.
                || {
                    (0..deals.len())
                        .map(|_| {
                            SearcherSpec::default()
                                .build::<Onitama, _>(PstEvaluator::tuned())
                                .expect("a 16 MB table")
                        })
                        .collect::<Vec<_>>()
                },
                |mut searchers| {
                    let mut nodes = 0;
                    for (searcher, deal) in searchers.iter_mut().zip(&deals) {
                        nodes += searcher.search(black_box(deal), &limits).stats.nodes;
                    }
                    assert_eq!(
                        nodes, signature,
                        "search signature changed for the eight deals at depth {depth}"
                    );
                    nodes
                },
                BatchSize::PerIteration,
            );
        });
    }
    group.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
