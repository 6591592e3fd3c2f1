//! Unit tests of `crate::search::pvs::busy` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;

#[test]
fn marks_and_unmarks() {
    let busy = Busy::new();
    let (a, b) = (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321);
    assert!(!busy.contains(a));
    busy.enter(a);
    assert!(busy.contains(a) && !busy.contains(b));
    // Leaving another position of the same slot leaves the mark alone.
    let same_slot = a ^ 1;
    busy.leave(same_slot);
    assert!(busy.contains(a));
    busy.leave(a);
    assert!(!busy.contains(a));
}
