//! Unit tests of `crate::harness::picker` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;
use crate::harness::perft::{PerftConvention, perft};
use crate::testing::TwoPiles;

#[test]
fn picker_perft_equals_plain_perft_on_the_toy_game() {
    let state = TwoPiles::new(5, 4, Side::First);
    for depth in 1..=5 {
        for salt in [0, 1, 2, 3, 99] {
            assert_eq!(
                picker_perft(&state, depth, salt),
                Ok(perft(&state, depth, PerftConvention::Leaf)),
                "depth {depth} salt {salt}"
            );
        }
    }
}
