//! Every standard searcher configuration (alpha-beta, the PVS ladder) against plain minimax on
//! random Kalah positions, depths 1..=4, with the game's evaluator and with the pseudo-random
//! hash evaluator; extra turns make this the check that scores are negated only when the side
//! to move changes.
//!
//! Key invariant: the expected values come from `Minimax::root_values`, never from the
//! searchers under test.

use plies::harness::random_playout_positions_with_finished;
use plies::harness::standard_searchers;
use plies::harness::{HashEvaluator, check_consistency, random_playout_positions};
use plies::{Game, Notation};
use plies_kalah::{Kalah, StoreDifference};

fn positions() -> Vec<Kalah> {
    let mut positions = random_playout_positions(&Kalah::start_position(), 1, 40, 60);
    // Small boards reach endgames with forced wins and losses within the search depth.
    let small = Kalah::new(4, 2).unwrap();
    positions.extend(random_playout_positions(&small, 2, 30, 40));
    // A few finished positions: every searcher must return no move there.
    positions.extend(
        random_playout_positions_with_finished(&small, 3, 20, 60)
            .into_iter()
            .filter(|p| p.outcome().is_some())
            .take(3),
    );
    positions
}

#[test]
fn searchers_match_minimax_with_the_store_evaluator() {
    let evaluator = StoreDifference::default();
    let report = check_consistency(
        &positions(),
        1..=4,
        &evaluator,
        &mut standard_searchers(&evaluator),
    )
    .unwrap_or_else(|f| panic!("{f}"));
    println!("kalah, store difference: {report}");
    assert!(report.finished > 0);
}

#[test]
fn searchers_match_minimax_with_the_hash_evaluator() {
    for seed in [1, 2] {
        let evaluator = HashEvaluator::new(seed, 3);
        let report = check_consistency(
            &positions(),
            1..=4,
            &evaluator,
            &mut standard_searchers(&evaluator),
        )
        .unwrap_or_else(|f| panic!("{f}"));
        println!("kalah, hash evaluator {seed}: {report}");
    }
}

#[test]
fn decisive_scores_are_exact_in_endgames() {
    // Deeper searches on a tiny board, where most values are forced wins or losses.
    let start = Kalah::new(3, 2).unwrap();
    let positions = random_playout_positions(&start, 4, 30, 20);
    let evaluator = StoreDifference::default();
    let report = check_consistency(
        &positions,
        1..=7,
        &evaluator,
        &mut standard_searchers(&evaluator),
    )
    .unwrap_or_else(|f| panic!("{f}"));
    println!("kalah(3,2) endgames: {report}");
}
