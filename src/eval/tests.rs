//! Unit tests of `crate::eval` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;
use crate::game::Side;

#[test]
fn decisive_scores_order_by_distance() {
    assert!(Score::win_in(1) > Score::win_in(3));
    assert!(Score::loss_in(3) > Score::loss_in(1));
    assert!(Score::win_in(Score::MAX_PLY) > Score::MAX_EVAL);
    assert!(Score::loss_in(Score::MAX_PLY) < -Score::MAX_EVAL);
    assert!(Score::INFINITY > Score::win_in(0));
    assert_eq!(-Score::win_in(4), Score::loss_in(4));
}

#[test]
fn classification_and_distance() {
    assert!(Score::win_in(7).is_win());
    assert!(!Score::win_in(7).is_loss());
    assert!(Score::loss_in(2).is_loss());
    assert!(!Score::MAX_EVAL.is_decisive());
    assert!(!(-Score::MAX_EVAL).is_decisive());
    assert_eq!(Score::win_in(7).plies_to_end(), Some(7));
    assert_eq!(Score::loss_in(2).plies_to_end(), Some(2));
    assert_eq!(Score::cp(12).plies_to_end(), None);
}

#[test]
fn clamps_heuristics() {
    assert_eq!(Score::cp(1_000_000), Score::MAX_EVAL);
    assert_eq!(Score::cp(-1_000_000), -Score::MAX_EVAL);
    assert_eq!(Score::cp(-5).raw(), -5);
}

#[test]
fn tt_round_trip_keeps_distance_from_each_node() {
    // A win found 9 plies from the root, stored at ply 4: 5 plies from that node.
    let stored = Score::win_in(9).to_tt(4);
    assert_eq!(stored, Score::win_in(5));
    // Read back at ply 2 (another path to the same node): a win in 7 from the root.
    assert_eq!(stored.from_tt(2), Score::win_in(7));
    let stored = Score::loss_in(6).to_tt(6);
    assert_eq!(stored, Score::loss_in(0));
    assert_eq!(stored.from_tt(1), Score::loss_in(1));
    assert_eq!(Score::cp(40).to_tt(3), Score::cp(40));
}

#[test]
fn terminal_values() {
    let won = Outcome::Win(Side::First);
    assert_eq!(Score::terminal(won, Side::First, 3), Score::win_in(3));
    assert_eq!(Score::terminal(won, Side::Second, 3), Score::loss_in(3));
    assert_eq!(Score::terminal(Outcome::Draw, Side::Second, 3), Score::DRAW);
}

#[test]
fn fits_i16() {
    assert!(Score::INFINITY.raw() <= i32::from(i16::MAX));
    assert!((-Score::INFINITY).raw() >= i32::from(i16::MIN));
}

#[test]
fn display() {
    assert_eq!(Score::cp(35).to_string(), "+35");
    assert_eq!(Score::cp(-35).to_string(), "-35");
    assert_eq!(Score::DRAW.to_string(), "0");
    assert_eq!(Score::win_in(5).to_string(), "win in 5");
    assert_eq!(Score::loss_in(4).to_string(), "loss in 4");
}
