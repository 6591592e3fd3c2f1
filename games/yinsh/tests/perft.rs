//! Yinsh perft against docs/rules/yinsh.md: the two openings (ten placements, then White to move)
//! to depth 4 (depth 4 only in release builds), and the empty board to depth 3.
//!
//! Key invariant: the expected numbers come from the rules document.

use plies::Notation;
use plies::harness::{PerftConvention, perft};
use plies_yinsh::Yinsh;

const OPENING_1: &str = "g2 c6 f2 d4 e1 e4 h3 a4 d1 f6";
const OPENING_2: &str = "g2 e7 g3 e2 g4 g7 g5 e4 g6 c6";

fn check(line: &str, expected: &[u64]) {
    let state = Yinsh::start_position().play_line(line).unwrap();
    let max = if cfg!(debug_assertions) {
        3
    } else {
        expected.len()
    };
    for (depth, &nodes) in (1..).zip(expected).take(max) {
        assert_eq!(
            perft(&state, depth, PerftConvention::Leaf),
            nodes,
            "{line} depth {depth}"
        );
    }
}

#[test]
fn opening_1() {
    check(OPENING_1, &[52, 3_704, 192_318, 13_229_621]);
}

#[test]
fn opening_2() {
    check(OPENING_2, &[53, 3_825, 198_328, 13_632_316]);
}

#[test]
fn empty_board() {
    check("", &[85, 7_140, 592_620]);
}
