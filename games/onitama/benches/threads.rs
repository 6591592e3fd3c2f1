//! Time to depth of the full PVS searcher with 1 and 2 threads (Lazy SMP) on Onitama: one
//! measured run searches every benchmark deal (`plies_onitama::BENCH_DEALS`) to a fixed depth
//! with a fresh searcher each, so criterion's time per run is the total time to that depth and
//! the speed-up of N threads is the 1-thread time over the N-thread time.
//!
//! ```sh
//! cargo bench -p plies-onitama --bench threads                       # depth 11, 1 and 2 threads
//! PLIES_THREADS=1,2,4 PLIES_THREADS_DEPTH=12 cargo bench -p plies-onitama --bench threads
//! ```
//!
//! Key invariant: every measured run asserts the work it did. A 1-thread run must make exactly
//! the nodes of the first 1-thread run (recorded before measuring: the search is deterministic);
//! a run with more threads, whose node count depends on timing, must complete the depth on every
//! deal with a legal move. The total nodes of each configuration are printed beside criterion's
//! times, so a faster time can be told apart from less work, and so is the main thread's share
//! of the 1-thread nodes: on a loaded machine, where the threads do not get a core each, that
//! share (not the time) shows what the threads would gain on an idle one.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use plies::search::{SearchLimits, Searcher};
use plies::spec::SearcherSpec;
use plies::{Game, Notation};
use plies_onitama::{BENCH_DEALS, Onitama, PstEvaluator};

/// The depth when `PLIES_THREADS_DEPTH` is not set (about a second per run with one thread).
const DEFAULT_DEPTH: u32 = 11;

/// Thread counts from `PLIES_THREADS` (comma-separated), default 1 and 2.
fn thread_counts() -> Vec<usize> {
    let text = std::env::var("PLIES_THREADS").unwrap_or_else(|_| "1,2".to_string());
    text.split(',')
        .map(|word| {
            word.trim()
                .parse()
                .ok()
                .filter(|&n| n >= 1)
                .unwrap_or_else(|| panic!("bad PLIES_THREADS '{text}': expected e.g. 1,2"))
        })
        .collect()
}

/// The depth from `PLIES_THREADS_DEPTH`.
fn depth() -> u32 {
    match std::env::var("PLIES_THREADS_DEPTH") {
        Ok(text) => text
            .trim()
            .parse()
            .ok()
            .filter(|&d| d >= 1)
            .unwrap_or_else(|| panic!("bad PLIES_THREADS_DEPTH '{text}': expected a depth >= 1")),
        Err(_) => DEFAULT_DEPTH,
    }
}

/// A fresh full searcher with `threads` threads.
fn searcher(threads: usize) -> Box<dyn Searcher<Onitama>> {
    let mut searcher = SearcherSpec::default()
        .build::<Onitama, _>(PstEvaluator::default())
        .expect("a 16 MB table");
    searcher.set_threads(threads).expect("a valid thread count");
    searcher
}

/// Searches every deal to `depth` with `searchers` (one each); checks the work and returns the
/// total nodes and the main thread's.
fn run(
    deals: &[Onitama],
    searchers: Vec<Box<dyn Searcher<Onitama>>>,
    depth: u32,
    expected: Option<u64>,
) -> (u64, u64) {
    let limits = SearchLimits::depth(depth);
    let mut total = 0;
    let mut main = 0;
    for (deal, mut searcher) in deals.iter().zip(searchers) {
        let result = searcher.search(black_box(deal), &limits);
        assert_eq!(
            result.depth,
            depth,
            "depth not completed on {}",
            deal.format_position()
        );
        let mut moves = Vec::new();
        deal.generate_moves(&mut moves);
        assert!(moves.contains(&result.best_move.expect("a move")));
        total += result.stats.nodes;
        main += result
            .stats
            .thread_nodes
            .first()
            .copied()
            .unwrap_or(result.stats.nodes);
    }
    if let Some(expected) = expected {
        assert_eq!(
            total, expected,
            "the 1-thread search is no longer deterministic"
        );
    }
    (total, main)
}

fn bench_threads(c: &mut Criterion) {
    let deals: Vec<Onitama> = BENCH_DEALS
        .iter()
        .map(|text| Onitama::parse_position(text).expect("bench deal parses"))
        .collect();
    let depth = depth();
    let fresh = |threads| deals.iter().map(|_| searcher(threads)).collect::<Vec<_>>();
    let (signature, _) = run(&deals, fresh(1), depth, None);
    let mut group = c.benchmark_group(format!("onitama_threads_depth{depth}"));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(10));
    for threads in thread_counts() {
        let expected = (threads == 1).then_some(signature);
        let mut nodes = Vec::new();
        let mut seconds = Vec::new();
        group.bench_function(format!("threads{threads}"), |b| {
            b.iter_batched(
                || fresh(threads),
                |searchers| {
                    let start = Instant::now();
                    nodes.push(run(&deals, searchers, depth, expected));
                    seconds.push(start.elapsed().as_secs_f64());
                },
                BatchSize::PerIteration,
            );
        });
        let runs = nodes.len().max(1) as f64;
        let mean = nodes.iter().map(|n: &(u64, u64)| n.0).sum::<u64>() as f64 / runs;
        let main = nodes.iter().map(|n| n.1).sum::<u64>() as f64 / runs;
        let time = seconds.iter().sum::<f64>() / runs;
        println!(
            "threads {threads}: {} deals to depth {depth}, mean {time:.3} s per run ({} runs), \
             mean {mean:.0} nodes over all threads, main thread {main:.0} = {:.2} of the \
             1-thread nodes",
            deals.len(),
            nodes.len(),
            main / signature as f64
        );
    }
    group.finish();
}

criterion_group!(benches, bench_threads);
criterion_main!(benches);
