//! Unit tests of `eval` in `plies-hus`, a child module so they reach its private items.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use super::*;

#[test]
fn the_shipped_tuned_weights_load_and_differ_from_the_defaults() {
    let tuned = HusEvaluator::tuned();
    assert_ne!(tuned, HusEvaluator::default());
    let values = plies::weights::parse_weights(TUNED_WEIGHTS, &tuned.parameter_names()).unwrap();
    assert_eq!(values, tuned.parameters());
    assert!(TUNED_WEIGHTS.contains("# produced by: hus tune init"));
}
use plies::{Notation, Tunable};

#[test]
fn start_is_balanced() {
    let start = Hus::start();
    assert_eq!(HusEvaluator::default().evaluate(&start), Score::DRAW);
}

#[test]
fn swapping_sides_keeps_the_value() {
    let text_a = "2,3,4,2,1,0,5,1,9,1,9,0,1,2,1,2,3,2,1,0,1,0,3,15,1,0,6,1,4,1,2,1 \
                  0,0,0,1,1,2,0,0,1,0,3,2,0,0,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 0 26";
    let a = Hus::parse_position(text_a).unwrap();
    let b = Hus::from_parts([a.rows()[1], a.rows()[0]], Side::Second, 26).unwrap();
    let e = HusEvaluator::default();
    assert_eq!(e.evaluate(&a), e.evaluate(&b));
    assert!(SeedDifference.evaluate(&a).raw() > 0);
}
