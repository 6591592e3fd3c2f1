//! Tests of the consistency check itself: it passes correct searchers (minimax, the ladders with
//! several threads) and catches a wrong one with a readable report.

use super::*;
use crate::game::Side;
use crate::harness::random::random_playout_positions;
use crate::testing::{PileDifference, TwoPiles};

fn positions() -> Vec<TwoPiles> {
    random_playout_positions(&TwoPiles::new(9, 8, Side::First), 5, 30, 12)
}

#[test]
fn minimax_agrees_with_itself() {
    let mut searchers: Vec<(String, Box<dyn Searcher<TwoPiles>>)> = vec![
        ("minimax".into(), Box::new(Minimax::new(PileDifference))),
        (
            "minimax-hash".into(),
            Box::new(Minimax::new(HashEvaluator::new(1, 2))),
        ),
    ];
    let mut with_finished = positions();
    with_finished.push(TwoPiles::new(0, 0, Side::Second));
    let report = check_consistency(&with_finished, 1..=4, &PileDifference, &mut searchers[..1])
        .expect("minimax is consistent");
    assert_eq!(report.positions, 31);
    assert_eq!(report.finished, 1);
    assert_eq!(report.searches, 31 * 4 * 2);
    assert_eq!(report.nodes.len(), 2);
    check_consistency(
        &positions(),
        1..=4,
        &HashEvaluator::new(1, 2),
        &mut searchers[1..],
    )
    .expect("minimax is consistent with the hash evaluator");
}

#[test]
fn a_different_evaluator_is_caught() {
    let mut searchers: Vec<(String, Box<dyn Searcher<TwoPiles>>)> =
        vec![("wrong-eval".into(), Box::new(Minimax::new(PileDifference)))];
    let failure = check_consistency(
        &positions(),
        1..=3,
        &HashEvaluator::new(7, 3),
        &mut searchers,
    )
    .unwrap_err();
    let text = failure.to_string();
    assert!(text.contains("wrong-eval"), "{text}");
    assert!(text.contains("depth"), "{text}");
    assert!(text.contains("position: "), "{text}");
}

/// Several threads pass the check like one, on the toy game and on a random game graph
/// full of transpositions, with and without quiescence.
#[test]
fn threaded_ladders_agree_with_minimax() {
    use crate::testing::Maze;
    let evaluator = HashEvaluator::new(4, 3);
    for threads in [2, 3] {
        let mut searchers = threaded_searchers(&evaluator, threads, false);
        assert!(searchers[0].0.ends_with(&format!("threads={threads}")));
        check_consistency(&positions(), 1..=5, &evaluator, &mut searchers)
            .unwrap_or_else(|f| panic!("{f}"));
        let mazes: Vec<Maze> = (0..6).map(|i| Maze::new(i * 101 + 3, 400, 12)).collect();
        let mut searchers = threaded_searchers(&evaluator, threads, false);
        check_consistency(&mazes, 1..=5, &evaluator, &mut searchers)
            .unwrap_or_else(|f| panic!("{f}"));
        let options = ConsistencyOptions {
            quiescence: true,
            ..ConsistencyOptions::default()
        };
        let mut searchers = threaded_searchers(&evaluator, threads, true);
        check_consistency_with(&mazes, 1..=4, &evaluator, &mut searchers, options)
            .unwrap_or_else(|f| panic!("{f}"));
    }
}

#[test]
fn hash_evaluator_ties_and_stays_in_range() {
    let evaluator = HashEvaluator::new(3, 2);
    let values: Vec<i32> = positions()
        .iter()
        .map(|p| Evaluator::<TwoPiles>::evaluate(&evaluator, p).raw())
        .collect();
    assert!(values.iter().all(|v| (-2..=2).contains(v)));
    let distinct: std::collections::HashSet<_> = values.iter().collect();
    assert!(distinct.len() > 1 && distinct.len() <= 5);
    let flat = HashEvaluator::new(3, 0);
    assert!(
        positions()
            .iter()
            .all(|p| Evaluator::<TwoPiles>::evaluate(&flat, p) == Score::DRAW)
    );
}
