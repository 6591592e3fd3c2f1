//! Unit tests of `crate::rng` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;

#[test]
fn same_seed_same_sequence_and_const_agrees() {
    let mut a = SplitMix64::new(42);
    let mut b = SplitMix64::new(42);
    let keys: [u64; 8] = random_keys(42);
    for key in keys {
        let x = a.next_u64();
        assert_eq!(x, b.next_u64());
        assert_eq!(x, key);
    }
    assert_ne!(SplitMix64::new(1).next_u64(), SplitMix64::new(2).next_u64());
    // The mixing function is the first number of a generator seeded with its input.
    for x in [0, 1, 42, u64::MAX] {
        assert_eq!(SplitMix64::mix(x), SplitMix64::new(x).next_u64());
    }
    assert_ne!(SplitMix64::mix(1), SplitMix64::mix(2));
}

#[test]
fn below_stays_in_range_and_covers_it() {
    let mut rng = SplitMix64::new(7);
    let mut seen = [false; 5];
    for _ in 0..1000 {
        let x = rng.below(5);
        assert!(x < 5);
        seen[x] = true;
    }
    assert!(seen.iter().all(|&s| s));
    let u = rng.unit();
    assert!((0.0..1.0).contains(&u));
}
