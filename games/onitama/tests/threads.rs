//! Lazy SMP on Onitama: the value-exact ladders with 2 and 3 threads against plain minimax (and
//! with quiescence against minimax with quiescence) on random positions, and the full searcher
//! with 2 threads answering soundly at depths where the threads overlap for a long time.
//!
//! Key invariant: nothing here depends on timing. The exact ladders must give minimax's value
//! whatever the threads' interleaving (the docs of `plies::harness::check_consistency` say
//! why); the full searcher's value depends on timing, so only what holds for every interleaving
//! is checked (the depth completed, a legal move and principal variation).

use plies::harness::{ConsistencyOptions, check_consistency_with, threaded_searchers};
use plies::harness::{HashEvaluator, check_consistency, random_playout_positions};
use plies::search::SearchLimits;
use plies::spec::SearcherSpec;
use plies::{Game, Notation};
use plies_onitama::{BENCH_DEALS, Onitama, PstEvaluator};

fn release() -> bool {
    !cfg!(debug_assertions)
}

fn positions(seed: u64, per_deal: usize) -> Vec<Onitama> {
    BENCH_DEALS[..4]
        .iter()
        .enumerate()
        .flat_map(|(i, deal)| {
            let start = Onitama::parse_position(deal).unwrap();
            random_playout_positions(&start, seed + i as u64, per_deal, 30)
        })
        .collect()
}

#[test]
fn threaded_ladders_match_minimax() {
    let evaluator = HashEvaluator::new(13, 3);
    let positions = positions(50, if release() { 10 } else { 2 });
    let depth = if release() { 5 } else { 4 };
    for threads in [2, 3] {
        let mut searchers = threaded_searchers(&evaluator, threads, false);
        let report = check_consistency(&positions, 1..=depth, &evaluator, &mut searchers)
            .unwrap_or_else(|f| panic!("{f}"));
        println!("onitama, {threads} threads, depths 1..={depth}: {report}");
    }
    let options = ConsistencyOptions {
        quiescence: true,
        ..ConsistencyOptions::default()
    };
    let pst = PstEvaluator::default();
    let mut searchers = threaded_searchers(&pst, 2, true);
    let report = check_consistency_with(&positions, 1..=3, &pst, &mut searchers, options)
        .unwrap_or_else(|f| panic!("{f}"));
    println!("onitama with quiescence, 2 threads, depths 1..=3: {report}");
}

fn legal_line(state: &Onitama, line: &[<Onitama as Game>::Move]) -> bool {
    let mut state = *state;
    for &mv in line {
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        if !moves.contains(&mv) {
            return false;
        }
        state = state.play(mv);
    }
    true
}

#[test]
fn full_searcher_with_threads_is_sound() {
    let depth = if release() { 9 } else { 5 };
    for deal in BENCH_DEALS {
        let state = Onitama::parse_position(deal).unwrap();
        let mut searcher = SearcherSpec::default()
            .build::<Onitama, _>(PstEvaluator::default())
            .expect("a 16 MB table");
        searcher.set_threads(2).unwrap();
        let result = searcher.search(&state, &SearchLimits::depth(depth));
        assert_eq!(result.depth, depth, "{deal}");
        assert_eq!(result.pv.first().copied(), result.best_move, "{deal}");
        assert!(legal_line(&state, &result.pv), "{deal}: {result:?}");
    }
}
