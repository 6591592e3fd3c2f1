//! Every standard searcher configuration against plain minimax on random Onitama positions,
//! depths 1..=4 on 250 positions and 1..=5 on 125 (plain minimax at depth 5 is the slow part;
//! debug builds use fewer positions and stop at depth 4), with the game's piece-square
//! evaluator and the pseudo-random hash evaluator.
//!
//! The quiescence ladder is checked the same way against minimax with the same quiescence
//! (`Minimax::with_quiescence`), depths 1..=3.
//!
//! Key invariant: the expected values come from `Minimax::root_values`, never from the
//! searchers under test. Runtime: keep it well under a minute in `cargo test --release`.

use plies::harness::{
    ConsistencyOptions, check_consistency_with, quiescence_searchers, standard_searchers,
};
use plies::harness::{HashEvaluator, check_consistency, random_playout_positions};
use plies::{Evaluator, Notation};
use plies_onitama::{Onitama, PstEvaluator};

fn starts() -> Vec<Onitama> {
    [
        "bbBbb/5/5/5/rrRrr b horse,elephant ox,boar crab",
        "bbBbb/5/5/5/rrRrr r rooster,tiger rabbit,cobra frog",
        "bbBbb/5/5/5/rrRrr r goose,dragon mantis,eel crane",
        "bbBbb/5/5/5/rrRrr b kirin,phoenix seasnake,fox giraffe",
    ]
    .iter()
    .map(|d| Onitama::parse_position(d).unwrap())
    .chain([Onitama::start_position()])
    .collect()
}

/// `per_start` random positions from each start, up to 40 plies in.
fn positions(seed: u64, per_start: usize) -> Vec<Onitama> {
    starts()
        .iter()
        .enumerate()
        .flat_map(|(i, s)| random_playout_positions(s, seed + i as u64, per_start, 40))
        .collect()
}

/// Whether this is an optimised build (the depth-5 tests are sized for one).
fn release() -> bool {
    !cfg!(debug_assertions)
}

fn check<E: Evaluator<Onitama> + Clone + 'static>(name: &str, evaluator: &E, seed: u64) {
    let shallow = positions(seed, if release() { 50 } else { 3 });
    let report = check_consistency(
        &shallow,
        1..=4,
        evaluator,
        &mut standard_searchers(evaluator),
    )
    .unwrap_or_else(|f| panic!("{f}"));
    println!("onitama, {name}, depths 1..=4: {report}");
    let deep = positions(seed + 100, if release() { 25 } else { 1 });
    let max_depth = if release() { 5 } else { 4 };
    let report = check_consistency(
        &deep,
        1..=max_depth,
        evaluator,
        &mut standard_searchers(evaluator),
    )
    .unwrap_or_else(|f| panic!("{f}"));
    println!("onitama, {name}, depths 1..={max_depth}: {report}");
}

#[test]
fn searchers_match_minimax_with_the_pst_evaluator() {
    check("pst evaluator", &PstEvaluator::default(), 10);
    // The bot's evaluator: the card tables in play.
    check("tuned pst evaluator", &PstEvaluator::tuned(), 10);
}

#[test]
fn searchers_match_minimax_with_the_hash_evaluator() {
    check("hash evaluator", &HashEvaluator::new(9, 3), 20);
}

/// Every rung of the quiescence ladder equals minimax with the same quiescence.
fn check_quiescence<E: Evaluator<Onitama> + Clone + 'static>(name: &str, evaluator: &E, seed: u64) {
    let positions = positions(seed, if release() { 30 } else { 2 });
    let options = ConsistencyOptions {
        quiescence: true,
        ..ConsistencyOptions::default()
    };
    let report = check_consistency_with(
        &positions,
        1..=3,
        evaluator,
        &mut quiescence_searchers(evaluator),
        options,
    )
    .unwrap_or_else(|f| panic!("{f}"));
    println!("onitama with quiescence, {name}, depths 1..=3: {report}");
}

#[test]
fn quiescence_searchers_match_minimax_with_quiescence() {
    check_quiescence("pst evaluator", &PstEvaluator::default(), 30);
    check_quiescence("tuned pst evaluator", &PstEvaluator::tuned(), 30);
    check_quiescence("hash evaluator", &HashEvaluator::new(11, 3), 40);
}
