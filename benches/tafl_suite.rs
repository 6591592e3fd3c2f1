//! The tafl tactics suite (`games/tafl/suite/escapes.txt`: king escapes and captures from real
//! Copenhagen games and self-play, each with an exhaustive proof) searched whole by the full
//! searcher at a fixed node budget per position: the time to work through the suite, and how
//! many positions it solves (the winning side finds the win, the losing side sees the loss).
//! `tafl suite --time MS` is the same count at a fixed time.
//!
//! Key invariant: every measured run searches each position with a fresh searcher at the same
//! node budget on one thread (deterministic), asserts that no answer contradicts a proof, and
//! asserts the solved count and the node total against constants recorded once from this
//! code, so a faster run cannot come from less work and a change of strength shows as a
//! changed signature (record a new one only for an intended change).

use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use plies::search::{SearchLimits, Searcher};
use plies::spec::SearcherSpec;
use plies_tafl::suite::{Answer, Tactic, judge, parse_suite};
use plies_tafl::{Tafl, TaflEvaluator};

const SUITE: &str = include_str!("../games/tafl/suite/escapes.txt");

/// Positions searched per suite position.
const NODES: u64 = 2_000;

/// (solved, node total) of the whole suite at [`NODES`] per position.
const SIGNATURE: (usize, u64) = (346, 704_616);

/// Searches every position; returns (solved, node total) and panics on a wrong answer.
fn run(tactics: &[Tactic]) -> (usize, u64) {
    let (mut solved, mut nodes) = (0, 0);
    for tactic in tactics {
        let mut searcher: Box<dyn Searcher<Tafl>> = SearcherSpec::default()
            .build(TaflEvaluator::default())
            .expect("a 16 MB table");
        let result = searcher.search(&tactic.position, &SearchLimits::nodes(NODES).until_proven());
        nodes += result.stats.nodes;
        match judge(tactic.proof, result.known_score()) {
            Answer::Solved => solved += 1,
            Answer::Missed => {}
            Answer::Wrong => panic!("an answer contradicts the proof: {}", tactic.line()),
        }
    }
    (solved, nodes)
}

fn bench_suite(c: &mut Criterion) {
    let tactics = parse_suite(SUITE).expect("the suite file reads");
    let mut group = c.benchmark_group("tafl_suite");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(tactics.len() as u64));
    group.bench_function("pvs_2000_nodes", |b| {
        b.iter_batched(
            || (),
            |()| {
                let signature = run(&tactics);
                assert_eq!(
                    signature, SIGNATURE,
                    "suite signature (solved, nodes) changed"
                );
                signature
            },
            BatchSize::PerIteration,
        );
    });
    group.finish();
}

criterion_group!(benches, bench_suite);
criterion_main!(benches);
