//! Unit tests of `crate::testing::maze` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;
use crate::harness::{PerftConvention, perft};

#[test]
fn round_trips_and_has_every_kind_of_node() {
    let start = Maze::new(3, 500, 20);
    let text = start.format_position();
    assert_eq!(Maze::parse_position(&text).unwrap(), start);
    assert!(Maze::parse_position("1 2").is_err());
    assert!(start.parse_move("9").is_err());
    let mut seen = [0; 3];
    for node in 0..500 {
        match Maze::new(node, 500, 20).outcome() {
            None => seen[0] += 1,
            Some(Outcome::Draw) => seen[1] += 1,
            Some(Outcome::Win(_)) => seen[2] += 1,
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    assert!(perft(&Maze::start_position(), 4, PerftConvention::Leaf) > 100);
}
