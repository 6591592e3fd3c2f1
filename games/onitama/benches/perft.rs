//! Perft speed of Onitama: the generic runner with depth-1 bulk counting (leaves/s) on one deal
//! and on the community deals to depth 6 (both conventions), and a full make-move walk that
//! plays every leaf (states/s, the figure a searcher sees).
//!
//! Key invariant: every bench asserts its node count (from the community perft tables in
//! docs/rules/onitama.md), so a faster number cannot come from a wrong result.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use plies::harness::{PerftConvention, perft};
use plies::{Game, Notation};
use plies_onitama::{Move, Onitama};

const DEAL: &str = "bbBbb/5/5/5/rrRrr b horse,elephant ox,boar crab";
/// Leaf-convention perft 5 of `DEAL`, from the rules document.
const DEAL_D5: u64 = 487_780;

/// Community deals: (name, position, convention, depth, community node count).
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

/// Plays every move down to `depth` (no bulk counting), leaf convention; counts leaves.
fn walk(state: &Onitama, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    moves.clear();
    state.generate_moves(moves);
    if moves.is_empty() {
        return 1;
    }
    let mut nodes = 0;
    for &mv in moves.iter() {
        nodes += walk(&state.play(mv), depth - 1, rest);
    }
    nodes
}

fn benches(c: &mut Criterion) {
    let deal = Onitama::parse_position(DEAL).expect("valid position");
    let mut group = c.benchmark_group("onitama_perft");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(DEAL_D5));
    group.bench_function("bulk_leaf_d5", |b| {
        b.iter(|| {
            let n = perft(black_box(&deal), 5, PerftConvention::Leaf);
            assert_eq!(n, DEAL_D5);
        });
    });
    group.bench_function("play_every_leaf_d5", |b| {
        let mut buffers: Vec<Vec<Move>> = (0..5).map(|_| Vec::with_capacity(64)).collect();
        b.iter(|| {
            let n = walk(black_box(&deal), 5, &mut buffers);
            assert_eq!(n, DEAL_D5);
        });
    });
    group.finish();

    let mut group = c.benchmark_group("onitama_perft_d6");
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

criterion_group!(perft_benches, benches);
criterion_main!(perft_benches);
