//! Unit tests of `crate::mcts::playout` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;
use crate::testing::{PileDifference, TwoPiles};

#[test]
fn logistic_mapping_and_its_inverse() {
    assert!((win_probability(Score::DRAW, 200.0) - 0.5).abs() < 1e-12);
    let p = win_probability(Score::cp(200), 200.0);
    assert!((p - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-12);
    assert!((win_probability(Score::cp(-200), 200.0) - (1.0 - p)).abs() < 1e-12);
    assert_eq!(score_of_probability(p, 200.0), Score::cp(200));
    assert_eq!(score_of_probability(1.0, 100.0), Score::cp(691));
}

#[test]
fn heavy_takes_a_win_and_greedy_takes_the_best() {
    let state = TwoPiles::new(2, 0, Side::First);
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    let mut rng = SplitMix64::new(1);
    let mut scores = Vec::new();
    let mut context = PlayoutContext {
        rng: &mut rng,
        evaluator: &PileDifference,
        scores: &mut scores,
        made: 0,
    };
    let pick = HeavyPlayout::epsilon_greedy(0.0).choose(&state, &moves, &mut context);
    assert_eq!(moves[pick].count, 2, "emptying both piles wins");
    // Piles (5, 1), First to move. The evaluator scores a - b for First: after b1 (5, 0)
    // Second to move sees -5, which is +5 for First, the best of all moves.
    let state = TwoPiles::new(5, 1, Side::First);
    moves.clear();
    state.generate_moves(&mut moves);
    let pick = HeavyPlayout::epsilon_greedy(0.0).choose(&state, &moves, &mut context);
    assert_eq!((moves[pick].pile, moves[pick].count), (1, 1));
    assert!(context.made >= 4);
    // A tiny temperature is greedy too.
    let pick = HeavyPlayout::softmax(1e-6).choose(&state, &moves, &mut context);
    assert_eq!((moves[pick].pile, moves[pick].count), (1, 1));
}
