//! Perft speed: the generic runner with depth-1 bulk counting (leaves/s), and a full make-move
//! walk that plays every leaf (states/s, the figure a searcher sees). Every bench asserts its
//! node count (from the rules document), so a faster number cannot come from a wrong result.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use plies::harness::perft::{PerftConvention, perft};
use plies::{Game, Notation};
use plies_onitama::{Move, Onitama};

const DEAL: &str = "bbBbb/5/5/5/rrRrr b horse,elephant ox,boar crab";
/// Leaf-convention perft 5 of `DEAL`, from the rules document.
const DEAL_D5: u64 = 487_780;

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
}

criterion_group!(perft_benches, benches);
criterion_main!(perft_benches);
