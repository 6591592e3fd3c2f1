//! Unit tests of `crate::search::tt::shared` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;
use crate::eval::Score;
use crate::search::tt::Bound;

fn hash(n: u64) -> u64 {
    n.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (n << 40)
}

#[test]
fn resizing_keeps_entries_and_old_snapshots_stay_usable() {
    let shared = SharedTable::new(1);
    let before = shared.snapshot();
    for n in 0..1000 {
        before.store(hash(n), 0, 3, Bound::Exact, Score::cp(n as i32), None);
    }
    shared.resize(4);
    let after = shared.snapshot();
    assert_eq!(after.bytes(), 4 << 20);
    assert_eq!(shared.bytes(), 4 << 20);
    assert!(!Arc::ptr_eq(&before, &after));
    for n in 0..1000 {
        let entry = after.probe(hash(n), 3, false).expect("kept");
        assert_eq!(entry.score(0), Score::cp(n as i32));
    }
    // The old snapshot still answers (a search finishing its iteration on it).
    assert!(before.probe(hash(7), 3, false).is_some());
    // Shrinking keeps what fits: the depth-preferred slots of 1,000 entries in 1 MB.
    shared.resize(1);
    let small = shared.snapshot();
    assert_eq!(small.bytes(), 1 << 20);
    let kept = (0..1000)
        .filter(|&n| small.probe(hash(n), 3, false).is_some())
        .count();
    assert!(kept > 990, "{kept}");
}

#[test]
fn clearing_empties_the_table_and_keeps_its_size() {
    let shared = SharedTable::new(2);
    let table = shared.snapshot();
    table.new_search();
    for n in 0..100 {
        table.store(hash(n), 0, 3, Bound::Exact, Score::cp(1), None);
    }
    shared.clear();
    let cleared = shared.snapshot();
    assert_eq!(cleared.bytes(), 2 << 20);
    assert_eq!(cleared.generation(), 0);
    assert!((0..100).all(|n| cleared.probe(hash(n), 3, false).is_none()));
}

#[test]
fn same_size_resize_keeps_the_table() {
    let shared = SharedTable::new(2);
    let before = shared.snapshot();
    shared.resize(2);
    assert!(Arc::ptr_eq(&before, &shared.snapshot()));
}

#[test]
fn resizing_from_another_thread_while_one_stores() {
    let shared = Arc::new(SharedTable::new(1));
    let writer = {
        let shared = Arc::clone(&shared);
        std::thread::spawn(move || {
            for round in 0..50u64 {
                let table = shared.snapshot();
                for n in 0..200 {
                    table.store(hash(round * 200 + n), 0, 2, Bound::Lower, Score::DRAW, None);
                }
            }
        })
    };
    for megabytes in [2, 1, 4, 2] {
        shared.resize(megabytes);
    }
    writer.join().expect("writer");
    assert_eq!(shared.bytes(), 2 << 20);
    // Whatever the timing, every entry found is one the writer stored, whole.
    let table = shared.snapshot();
    let mut found = 0;
    for n in 0..50 * 200 {
        if let Some(entry) = table.probe(hash(n), 2, false) {
            assert_eq!((entry.depth, entry.bound), (2, Bound::Lower));
            assert_eq!(entry.score(0), Score::DRAW);
            found += 1;
        }
    }
    assert!(found > 0);
}
