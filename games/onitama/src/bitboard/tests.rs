//! Unit tests of `bitboard` in `plies-onitama`, a child module so they reach its private items.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use super::*;

#[test]
fn set_operations() {
    let c3 = Bitboard::from_square(Square::C3);
    let c1 = Bitboard::from_square(Square::C1);
    let both = c3 | c1;
    assert_eq!(both.count(), 2);
    assert!(both.contains(Square::C1));
    assert!(!both.contains(Square::C5));
    assert_eq!((!both).count(), 23);
    assert_eq!(both.first(), Some(Square::C1));
    assert_eq!(both.collect::<Vec<_>>(), vec![Square::C1, Square::C3]);
    assert_eq!(both ^ c1, c3);
    assert!((both & Bitboard::EMPTY).is_empty());
}
