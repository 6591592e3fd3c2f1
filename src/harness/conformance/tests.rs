//! Unit tests of `crate::harness::conformance` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;
use crate::game::Side;
use crate::testing::TwoPiles;

#[test]
fn the_toy_game_conforms() {
    let starts = [
        TwoPiles::new(7, 5, Side::First),
        TwoPiles::new(3, 9, Side::Second),
    ];
    let report = check_conformance(&starts, 1, 20, 40).expect("TwoPiles conforms");
    assert_eq!(report.games, 40);
    assert!(report.finished_games > 0);
    assert!(report.positions > 40);
    assert!(report.moves >= report.positions);
    assert_eq!(report.max_moves, 6);
}

#[test]
fn a_broken_hash_is_caught() {
    // A position whose stored hash was never set: the incremental hash is wrong.
    let mut state = TwoPiles::new(4, 4, Side::First);
    state.piles[0] = 5;
    let failure = check_conformance(&[state], 1, 1, 5).unwrap_err();
    assert_eq!(failure.check, Check::Hash);
    assert!(failure.to_string().contains("5 4 1"), "{failure}");
}
