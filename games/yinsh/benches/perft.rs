//! Yinsh perft(5) from the first opening of docs/rules/yinsh.md (decision level, leaf convention).
//! The document gives depths 1–4 only, so the bench asserts depth 4 (13,229,621, from the
//! document) before timing depth 5, and prints the depth-5 count (682,876,657 when written;
//! not independently confirmed).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use plies::Notation;
use plies::harness::{PerftConvention, perft};
use plies_yinsh::Yinsh;

const OPENING_1: &str = "g2 c6 f2 d4 e1 e4 h3 a4 d1 f6";
/// Perft 4 of the opening, from the rules document.
const OPENING_1_D4: u64 = 13_229_621;

fn benches(c: &mut Criterion) {
    let state = Yinsh::start_position()
        .play_line(OPENING_1)
        .expect("valid opening");
    assert_eq!(perft(&state, 4, PerftConvention::Leaf), OPENING_1_D4);
    let d5 = perft(&state, 5, PerftConvention::Leaf);
    println!("yinsh perft(5) of opening 1 = {d5}");
    let mut group = c.benchmark_group("yinsh_perft");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(30))
        .throughput(Throughput::Elements(d5));
    group.bench_function("opening1_d5", |b| {
        b.iter(|| perft(black_box(&state), 5, PerftConvention::Leaf))
    });
    group.finish();
}

criterion_group!(yinsh, benches);
criterion_main!(yinsh);
