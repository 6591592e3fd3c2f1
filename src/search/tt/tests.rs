//! Unit tests of the transposition table: packing round trips, ply-adjusted scores, the two
//! tiers, aging, exact-depth preference and resizing.

use super::*;

/// Hashes that land in bucket 0 of any table but differ in their check bits.
fn key(n: u64) -> u64 {
    n << CHECK_SHIFT
}

#[test]
fn store_then_probe_round_trips() {
    let tt = TranspositionTable::new(1);
    assert_eq!(tt.bucket_count(), 65_536);
    assert_eq!(tt.bytes(), 1 << 20);
    let h = 0xDEAD_BEEF_1234_5678;
    assert_eq!(tt.probe(h, 3, false), None);
    tt.store(h, 2, 3, Bound::Lower, Score::cp(-17), Some(9));
    let e = tt.probe(h, 3, false).expect("stored");
    assert_eq!((e.depth, e.bound, e.mv), (3, Bound::Lower, Some(9)));
    assert_eq!(e.score(5), Score::cp(-17));
    // A different check with the same bucket misses.
    assert_eq!(tt.probe(h ^ (1 << 60), 3, false), None);
    // Extremes of every field survive packing.
    tt.store(
        h,
        0,
        300,
        Bound::Upper,
        -Score::INFINITY,
        Some(MAX_MOVE_INDEX),
    );
    let e = tt.probe(h, 0, false).unwrap();
    assert_eq!((e.depth, e.bound, e.mv), (255, Bound::Upper, Some(65_534)));
    assert_eq!(e.score(0), -Score::INFINITY);
    // Too large a move index is not stored (nor mistaken for another).
    tt.store(
        h ^ 1,
        0,
        1,
        Bound::Exact,
        Score::cp(1),
        Some(MAX_MOVE_INDEX + 1),
    );
    assert_eq!(tt.probe(h ^ 1, 1, false).unwrap().mv, None);
}

#[test]
fn decisive_scores_are_ply_adjusted() {
    let tt = TranspositionTable::with_buckets(4);
    // Found at ply 3: a win 7 plies from the root is 4 plies from this node.
    tt.store(key(1), 3, 5, Bound::Exact, Score::win_in(7), None);
    let e = tt.probe(key(1), 5, true).unwrap();
    assert_eq!(e.score(3), Score::win_in(7));
    assert_eq!(e.score(1), Score::win_in(5));
    tt.store(key(2) + 1, 4, 5, Bound::Upper, Score::loss_in(6), None);
    assert_eq!(
        tt.probe(key(2) + 1, 5, true).unwrap().score(0),
        Score::loss_in(2)
    );
}

#[test]
fn two_tiers_keep_deep_and_recent() {
    let tt = TranspositionTable::with_buckets(4);
    tt.store(key(1), 0, 6, Bound::Exact, Score::cp(1), Some(1));
    // Shallower, other position: goes to the always-replace slot, the deep one stays.
    tt.store(key(2), 0, 2, Bound::Exact, Score::cp(2), Some(2));
    assert_eq!(tt.probe(key(1), 6, false).unwrap().mv, Some(1));
    assert_eq!(tt.probe(key(2), 2, false).unwrap().mv, Some(2));
    // Another shallow one replaces the always-replace slot only.
    tt.store(key(3), 0, 1, Bound::Exact, Score::cp(3), Some(3));
    assert_eq!(tt.probe(key(2), 2, false), None);
    assert_eq!(tt.probe(key(1), 6, false).unwrap().mv, Some(1));
    // A deeper one takes the depth slot and pushes the old deep entry down.
    tt.store(key(4), 0, 7, Bound::Exact, Score::cp(4), Some(4));
    assert_eq!(tt.probe(key(4), 7, false).unwrap().mv, Some(4));
    assert_eq!(tt.probe(key(1), 6, false).unwrap().mv, Some(1));
    assert_eq!(tt.probe(key(3), 1, false), None);
    // Other buckets of the cluster are untouched.
    assert_eq!(tt.probe(key(4) + 1, 7, false), None);
}

#[test]
fn old_generations_give_way() {
    let tt = TranspositionTable::with_buckets(4);
    tt.store(key(1), 0, 9, Bound::Exact, Score::cp(1), Some(1));
    assert_eq!(tt.fill(), 1.0 / 8.0);
    tt.new_search();
    assert_eq!(tt.fill(), 0.0);
    tt.store(key(2), 0, 1, Bound::Exact, Score::cp(2), Some(2));
    assert_eq!(tt.probe(key(2), 1, false).unwrap().depth, 1);
    assert_eq!(tt.fill(), 1.0 / 8.0);
    assert_eq!(tt.fill_by_depth(), [0.0, 1.0 / 8.0]);
    tt.clear();
    assert_eq!(tt.probe(key(2), 1, false), None);
    assert_eq!(tt.probe(key(1), 9, false), None);
}

#[test]
fn probe_prefers_exact_depth_when_asked() {
    let tt = TranspositionTable::with_buckets(4);
    tt.store(key(1), 0, 5, Bound::Exact, Score::cp(50), Some(5));
    tt.store(key(1), 0, 3, Bound::Exact, Score::cp(30), None);
    assert_eq!(tt.probe(key(1), 3, true).unwrap().score(0), Score::cp(30));
    assert_eq!(tt.probe(key(1), 3, false).unwrap().score(0), Score::cp(50));
    assert_eq!(tt.probe(key(1), 4, true).unwrap().depth, 5);
    // The shallow entry kept the move of the deep one for ordering.
    assert_eq!(tt.probe(key(1), 3, true).unwrap().mv, Some(5));
    // Same position, deeper result: overwrites the depth slot in place, keeping the move.
    tt.store(key(1), 0, 6, Bound::Lower, Score::cp(60), None);
    let e = tt.probe(key(1), 6, true).unwrap();
    assert_eq!((e.depth, e.mv), (6, Some(5)));
}

#[test]
fn resize_keeps_entries() {
    let mut tt = TranspositionTable::new(1);
    let hashes: Vec<u64> = (1..=2000u64)
        .map(|i| crate::rng::SplitMix64::step(i).1)
        .collect();
    for (i, &h) in hashes.iter().enumerate() {
        tt.store(h, 0, 3, Bound::Exact, Score::cp(i as i32), Some(i));
    }
    let all_found = |tt: &TranspositionTable| {
        hashes.iter().enumerate().all(|(i, &h)| {
            tt.probe(h, 3, true)
                .is_some_and(|e| e.mv == Some(i as u16) && e.score(0) == Score::cp(i as i32))
        })
    };
    assert!(all_found(&tt));
    tt.resize(4);
    assert_eq!(tt.bucket_count(), 4 * 65_536);
    assert!(all_found(&tt));
    tt.resize(1);
    assert!(all_found(&tt));
    // Shrinking to one cluster keeps at most 8 of them, each still right.
    tt.resize(0);
    assert_eq!(tt.bucket_count(), 4);
    let kept = hashes
        .iter()
        .enumerate()
        .filter(|&(i, &h)| tt.probe(h, 3, true).is_some_and(|e| e.mv == Some(i as u16)))
        .count();
    assert_eq!(kept, 8);
}

#[test]
fn clusters_start_on_cache_lines_and_stay_inside_the_allocation() {
    for buckets in [4, 64, 1 << 12] {
        let tt = TranspositionTable::with_buckets(buckets);
        assert_eq!(tt.bucket(0).as_ptr() as usize % 64, 0, "{buckets} buckets");
        // Bucket 4 starts the second cluster: one cache line further.
        if buckets > 4 {
            assert_eq!(tt.bucket(4).as_ptr() as usize % 64, 0);
        }
        // The last bucket is in range (the spare cluster covers the alignment shift).
        assert_eq!(tt.bucket(buckets - 1).len(), 2);
        assert_eq!(tt.used_slots().len(), buckets * 2);
        assert!(
            tt.used_slots()
                .iter()
                .all(|slot| slot.load(Ordering::Relaxed) == 0)
        );
    }
}
