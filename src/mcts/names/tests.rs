//! Unit tests of `crate::mcts::names` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;
use crate::testing::{PileDifference, TwoPiles};

#[test]
fn every_name_builds_and_others_do_not() {
    for name in MCTS_NAMES {
        let searcher = mcts_by_name::<TwoPiles, _>(name, PileDifference).unwrap();
        assert_eq!(
            searcher.name().starts_with("mcts-heavy"),
            name == "mcts-heavy"
        );
    }
    assert!(mcts_by_name::<TwoPiles, _>("pvs", PileDifference).is_none());
}
