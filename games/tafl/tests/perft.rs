//! Perft from the built-in start positions against docs/rules/tafl.md (numbers computed with
//! OpenTafl's move generator; independent of this crate).
//!
//! Key invariant: the expected numbers are copied from docs/rules/tafl.md.

use plies::harness::{PerftConvention, perft};
use plies_tafl::start_of;

fn check(variant: &str, expected: &[u64]) {
    let start = start_of(variant).unwrap();
    for (i, &want) in expected.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(
            perft(&start, depth, PerftConvention::Leaf),
            want,
            "{variant} perft {depth}"
        );
    }
}

#[test]
fn brandub_perft() {
    let deep = !cfg!(debug_assertions);
    if deep {
        check("brandub", &[40, 960, 39_512, 1_007_392]);
    } else {
        check("brandub", &[40, 960, 39_512]);
    }
}

#[test]
fn tablut_perft() {
    check("tablut", &[80, 4_400, 353_200]);
}

#[test]
fn copenhagen_perft() {
    if cfg!(debug_assertions) {
        check("copenhagen", &[116, 6_788]);
    } else {
        check("copenhagen", &[116, 6_788, 806_344]);
    }
}
