//! Every standard searcher configuration against plain minimax on random positions of Brandub,
//! Tablut, Copenhagen and Alea Evangelii, with the tafl evaluator and the pseudo-random hash
//! evaluator. Depths are small because tafl branches widely (40 to 300 moves a position).
//!
//! Key invariant: the expected values come from `Minimax::root_values`, never from the
//! searchers under test. Runtime: well under a minute in `cargo test --release`.

use plies::Evaluator;
use plies::harness::standard_searchers;
use plies::harness::{HashEvaluator, check_consistency, random_playout_positions};
use plies_tafl::{Tafl, TaflEvaluator, start_of};

fn release() -> bool {
    !cfg!(debug_assertions)
}

fn positions(variant: &str, seed: u64, count: usize) -> Vec<Tafl> {
    let start = start_of(variant).unwrap();
    random_playout_positions(&start, seed, count, 80)
}

fn check<E: Evaluator<Tafl> + Clone + 'static>(name: &str, evaluator: &E, seed: u64) {
    let cases: [(&str, usize, u32); 4] = [
        (
            "brandub",
            if release() { 30 } else { 2 },
            if release() { 3 } else { 2 },
        ),
        ("tablut", if release() { 12 } else { 1 }, 2),
        ("copenhagen", if release() { 12 } else { 1 }, 2),
        ("alea_evangelii", if release() { 4 } else { 1 }, 2),
    ];
    for (variant, count, depth) in cases {
        let positions = positions(variant, seed, count);
        let report = check_consistency(
            &positions,
            1..=depth,
            evaluator,
            &mut standard_searchers(evaluator),
        )
        .unwrap_or_else(|f| panic!("{variant}, {name}: {f}"));
        println!("{variant}, {name}, depths 1..={depth}: {report}");
    }
}

#[test]
fn searchers_match_minimax_with_the_tafl_evaluator() {
    check("tafl evaluator", &TaflEvaluator::default(), 10);
}

#[test]
fn searchers_match_minimax_with_the_hash_evaluator() {
    check("hash evaluator", &HashEvaluator::new(9, 3), 20);
}
