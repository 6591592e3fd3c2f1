//! Unit tests of `zobrist` in `plies-onitama`, a child module so they reach its private items.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use super::*;

#[test]
fn keys_are_distinct_and_all_used() {
    let mut keys = Vec::new();
    for side in 0..2 {
        for kind in 0..2 {
            for square in 0..25 {
                keys.push(piece_key(side, kind, square));
            }
        }
    }
    for card in 0..32 {
        for holder in 0..3 {
            keys.push(card_key(card, holder));
        }
    }
    keys.push(blue_to_move_key());
    let mut sorted = RAW.to_vec();
    sorted.sort_unstable();
    keys.sort_unstable();
    assert_eq!(keys, sorted);
    keys.dedup();
    assert_eq!(keys.len(), RAW.len());
    assert!(keys.iter().all(|&k| k != 0));
}
