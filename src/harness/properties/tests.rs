//! Unit tests of `crate::harness::properties` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;
use crate::game::Side;
use crate::testing::{Take, TwoPiles};

#[test]
fn properties_hold_on_the_toy_game() {
    let start = TwoPiles::new(9, 7, Side::First);
    for seed in 0..40u64 {
        let picks: Vec<u8> = (0..seed as usize % 17)
            .map(|i| (seed as u8) ^ (i as u8).wrapping_mul(37))
            .collect();
        assert!(property_hash_consistent(&start, &picks));
        assert!(property_outcome_iff_no_moves(&start, &picks));
        assert!(property_notation_round_trip(&start, &picks));
        let mut searcher = Minimax::new(HashEvaluator::new(seed, 3));
        assert!(property_search_matches_minimax(
            &start,
            seed,
            &picks,
            &mut searcher,
            3
        ));
    }
}

#[test]
fn a_searcher_with_another_evaluator_fails_the_property() {
    let start = TwoPiles::new(9, 7, Side::First);
    let failures = (0..20u64)
        .filter(|&seed| {
            let mut searcher = Minimax::new(HashEvaluator::new(seed + 1, 3));
            !property_search_matches_minimax(&start, seed, &[seed as u8], &mut searcher, 2)
        })
        .count();
    assert!(failures > 0);
}

/// Claims a win in one ply with minimax's move, whatever the position.
struct Boaster(Minimax<HashEvaluator>);

impl Searcher<TwoPiles> for Boaster {
    fn name(&self) -> String {
        "boaster".into()
    }
    fn search_with(
        &mut self,
        state: &TwoPiles,
        history: &crate::game::GameHistory,
        limits: &SearchLimits,
        on_iteration: &mut dyn FnMut(&crate::search::Iteration<Take>),
    ) -> crate::search::SearchResult<Take> {
        let mut result = self.0.search_with(state, history, limits, on_iteration);
        result.score = Score::win_in(1);
        result
    }
}

#[test]
fn soundness_catches_false_wins_and_passes_minimax() {
    let start = TwoPiles::new(9, 7, Side::First);
    let evaluator = HashEvaluator::new(1, 3);
    let mut honest = Minimax::new(evaluator);
    let mut boaster = Boaster(Minimax::new(evaluator));
    for picks in [&[][..], &[1, 2], &[5, 5, 5]] {
        assert!(property_search_is_sound(
            &start,
            picks,
            &mut honest,
            &evaluator,
            3,
            6
        ));
        assert!(!property_search_is_sound(
            &start,
            picks,
            &mut boaster,
            &evaluator,
            3,
            6
        ));
    }
}
