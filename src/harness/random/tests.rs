//! Unit tests of `crate::harness::random` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;
use crate::game::Side;
use crate::testing::TwoPiles;

#[test]
fn playout_positions_are_unfinished_and_reproducible() {
    let start = TwoPiles::new(7, 6, Side::First);
    let a = random_playout_positions(&start, 3, 200, 20);
    let b = random_playout_positions(&start, 3, 200, 20);
    assert_eq!(a, b);
    assert_eq!(a.len(), 200);
    assert!(a.iter().all(|p| p.outcome().is_none()));
    // Games of up to 20 plies from 13 stones reach a variety of positions.
    let distinct: std::collections::HashSet<_> = a.iter().map(|p| p.hash()).collect();
    assert!(distinct.len() > 10, "only {} distinct", distinct.len());
    assert_ne!(a, random_playout_positions(&start, 4, 200, 20));
}

#[test]
fn finished_positions_only_when_asked() {
    let start = TwoPiles::new(2, 1, Side::First);
    let with = random_playout_positions_with_finished(&start, 9, 100, 10);
    assert!(with.iter().any(|p| p.outcome().is_some()));
    let finished = TwoPiles::new(0, 0, Side::First);
    assert!(random_playout_positions(&finished, 1, 5, 5).is_empty());
}

#[test]
fn picks_select_moves_modulo_the_move_count() {
    let start = TwoPiles::new(2, 1, Side::First);
    // Moves at the start: a1 a2 b1. Pick 4 % 3 = 1 -> a2 (empties pile a, no extra turn).
    let (positions, moves) = play_picks(&start, &[4, 0, 0, 0, 0]);
    assert_eq!(moves[0].pile, 0);
    assert_eq!(moves[0].count, 2);
    assert_eq!(positions.len(), moves.len() + 1);
    // Then only b1 remains and the game ends after it: the other picks are unused.
    assert_eq!(moves.len(), 2);
    assert!(positions.last().unwrap().outcome().is_some());
}
