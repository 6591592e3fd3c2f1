//! Hus through the shared harness: the conformance suite on random games played to their end
//! (from the start and from the two real infinite-move positions), and every standard
//! searcher against plain minimax with the game's evaluator and the hash evaluator.
//!
//! Key invariant: expected values come from `Minimax::root_values` inside the harness, never
//! from the searchers under test.

use plies::harness::standard_searchers;
use plies::harness::{
    HashEvaluator, check_conformance, check_consistency, random_playout_positions,
};
use plies::{Evaluator, Notation};
use plies_hus::{Hus, HusEvaluator};

const REAL_1: &str = "1,0,1,0,0,0,0,0,0,0,0,3,2,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 \
                      7,1,7,4,3,0,3,0,4,8,2,3,2,0,5,4,1,2,4,3,2,3,0,1,0,2,1,0,13,0,2,1 1 84";
const REAL_2: &str = "2,3,4,2,1,0,5,1,9,1,9,0,1,2,1,2,3,2,1,0,1,0,3,15,1,0,6,1,4,1,2,1 \
                      0,0,0,1,1,2,0,0,1,0,3,2,0,0,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 0 26";

fn starts() -> Vec<Hus> {
    vec![
        Hus::start_position(),
        Hus::parse_position(REAL_1).unwrap(),
        Hus::parse_position(REAL_2).unwrap(),
    ]
}

#[test]
fn hus_conforms() {
    let games = if cfg!(debug_assertions) { 4 } else { 30 };
    let report = check_conformance(&starts(), 424, games, 600).unwrap_or_else(|f| panic!("{f}"));
    println!("hus conformance: {report}");
    assert!(report.finished_games > 0);
}

fn check<E: Evaluator<Hus> + Clone + 'static>(name: &str, evaluator: &E, seed: u64) {
    let per_start = if cfg!(debug_assertions) { 2 } else { 25 };
    let positions: Vec<Hus> = starts()
        .iter()
        .enumerate()
        .flat_map(|(i, s)| random_playout_positions(s, seed + i as u64, per_start, 120))
        .collect();
    let depth = if cfg!(debug_assertions) { 3 } else { 4 };
    let report = check_consistency(
        &positions,
        1..=depth,
        evaluator,
        &mut standard_searchers(evaluator),
    )
    .unwrap_or_else(|f| panic!("{f}"));
    println!("hus, {name}, depths 1..={depth}: {report}");
}

#[test]
fn searchers_match_minimax_with_the_hus_evaluator() {
    check("hus evaluator", &HusEvaluator::default(), 5);
}

#[test]
fn searchers_match_minimax_with_the_hash_evaluator() {
    check("hash evaluator", &HashEvaluator::new(3, 3), 50);
}
