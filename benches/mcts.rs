//! MCTS speed per game: playouts per second (criterion's throughput, one element = one
//! iteration = one playout from an unproven start position) for light and heavy playouts on
//! every game: Onitama, Brandub (tafl), Hus, Yinsh and Kalah (the tutorial game in
//! `games/kalah`); then the same Onitama search on one thread and on two (tree and root
//! parallelism).
//!
//! Key invariant: every measured search runs a fixed number of iterations from a fixed seed on
//! one thread and asserts its node count (positions made, playout plies included) against a
//! constant recorded once from this code, so a faster number cannot come from less work. A
//! change of a signature must be intentional (a behaviour change of MCTS or of a game).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use plies::mcts::{HeavyPlayout, Mcts, MctsConfig};
use plies::search::{SearchLimits, Searcher};
use plies::{Evaluator, Game, Notation};
use plies_hus::{Hus, HusEvaluator};
use plies_kalah::{Kalah, StoreDifference};
use plies_onitama::{Onitama, PstEvaluator};
use plies_tafl::{TaflEvaluator, start_of};
use plies_yinsh::{Yinsh, YinshEvaluator};

/// Iterations of a light-playout case.
const LIGHT_ITERATIONS: u64 = 2_000;
/// Iterations of a heavy-playout case.
const HEAVY_ITERATIONS: u64 = 500;
/// Playout cut-off of the heavy cases (as `mcts-heavy` on the command line).
const HEAVY_CUTOFF: u32 = 8;

/// Node signatures: (onitama light, onitama heavy, kalah light, kalah heavy).
const SIGNATURES: [u64; 4] = [50_818, 33_757, 80_989, 25_368];
/// Node signatures of Brandub, Hus and Yinsh: (light, heavy) each.
const MORE_SIGNATURES: [[u64; 2]; 3] = [[79_913, 131_174], [82_841, 66_265], [83_915, 323_595]];

fn searcher<G: Game, E: Evaluator<G> + 'static>(evaluator: E, heavy: bool) -> Mcts<G, E> {
    if heavy {
        let config = MctsConfig {
            playout_cutoff: HEAVY_CUTOFF,
            ..MctsConfig::iterations(HEAVY_ITERATIONS)
        };
        Mcts::new(evaluator, config).with_policy(HeavyPlayout::softmax(100.0))
    } else {
        Mcts::new(evaluator, MctsConfig::iterations(LIGHT_ITERATIONS))
    }
}

fn bench_game<G: Game, E: Evaluator<G> + Clone + 'static>(
    c: &mut Criterion,
    game: &str,
    state: &G,
    evaluator: &E,
    signatures: [u64; 2],
) {
    let mut group = c.benchmark_group(format!("mcts_{game}"));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for (heavy, signature) in [(false, signatures[0]), (true, signatures[1])] {
        let iterations = if heavy {
            HEAVY_ITERATIONS
        } else {
            LIGHT_ITERATIONS
        };
        group.throughput(Throughput::Elements(iterations));
        let name = if heavy { "heavy" } else { "light" };
        group.bench_function(name, |b| {
            b.iter_batched(
                || searcher(evaluator.clone(), heavy),
                |mut mcts| {
                    let result = mcts.search(black_box(state), &SearchLimits::default());
                    assert_eq!(mcts.last_stats().iterations, iterations);
                    assert_eq!(
                        result.stats.nodes, signature,
                        "MCTS signature changed: {game} {name}"
                    );
                    result.best_move
                },
                BatchSize::PerIteration,
            );
        });
    }
    group.finish();
}

fn bench_mcts(c: &mut Criterion) {
    let onitama = Onitama::parse_position("bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon")
        .expect("bench position parses");
    bench_game(
        c,
        "onitama",
        &onitama,
        &PstEvaluator::default(),
        [SIGNATURES[0], SIGNATURES[1]],
    );
    bench_game(
        c,
        "kalah",
        &Kalah::start_position(),
        &StoreDifference::default(),
        [SIGNATURES[2], SIGNATURES[3]],
    );
    let brandub = start_of("brandub").expect("Brandub is a built-in variant");
    bench_game(
        c,
        "brandub",
        &brandub,
        &TaflEvaluator::default(),
        MORE_SIGNATURES[0],
    );
    bench_game(
        c,
        "hus",
        &Hus::start_position(),
        &HusEvaluator::default(),
        MORE_SIGNATURES[1],
    );
    bench_game(
        c,
        "yinsh",
        &Yinsh::start_position(),
        &YinshEvaluator::default(),
        MORE_SIGNATURES[2],
    );
}

/// Iterations of each thread-scaling case, in total over the threads.
const THREAD_ITERATIONS: u64 = 8_000;

/// Light playouts on Onitama with one thread, then two trees (root parallelism): the same total
/// of iterations each, so the throughputs compare directly (two threads cannot be faster than two cores allow; on a loaded
/// machine the ratio says little). The node counts of two threads depend on the interleaving, so
/// only the iteration total is asserted.
fn bench_threads(c: &mut Criterion) {
    let state = Onitama::parse_position("bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon")
        .expect("bench position parses");
    let mut group = c.benchmark_group("mcts_threads_onitama");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(THREAD_ITERATIONS));
    let cases = [
        ("one", 1, THREAD_ITERATIONS),
        ("root2", 2, THREAD_ITERATIONS / 2),
    ];
    for (name, threads, iterations) in cases {
        group.bench_function(name, |b| {
            b.iter_batched(
                || {
                    let config = MctsConfig::iterations(iterations).with_threads(threads);
                    Mcts::new(PstEvaluator::default(), config)
                },
                |mut mcts| {
                    let result = mcts.search(black_box(&state), &SearchLimits::default());
                    assert_eq!(mcts.last_stats().iterations, THREAD_ITERATIONS);
                    result.best_move
                },
                BatchSize::PerIteration,
            );
        });
    }
    group.finish();
}

criterion_group!(benches, bench_mcts, bench_threads);
criterion_main!(benches);
