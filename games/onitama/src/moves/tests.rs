//! Unit tests of `moves` in `plies-onitama`, a child module so they reach its private items.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use super::*;

#[test]
fn packing_round_trips_and_indices_are_distinct() {
    let mut seen = vec![false; Move::INDEX_BOUND];
    for card in Card::all() {
        for from in Square::all() {
            for to in Square::all() {
                let mv = Move::new(card, from, to);
                assert_eq!(
                    (mv.card(), mv.from(), mv.to()),
                    (card, Some(from), Some(to))
                );
                assert!(!mv.is_pass());
                assert!(!seen[mv.index()]);
                seen[mv.index()] = true;
            }
        }
        let pass = Move::pass(card);
        assert!(pass.is_pass());
        assert_eq!((pass.card(), pass.from(), pass.to()), (card, None, None));
        assert!(!seen[pass.index()]);
        seen[pass.index()] = true;
    }
    assert!(seen.iter().all(|&s| s));
}
