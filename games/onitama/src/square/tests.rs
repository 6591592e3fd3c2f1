//! Unit tests of `square` in `plies-onitama`, a child module so they reach its private items.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use super::*;

#[test]
fn names_and_mapping() {
    assert_eq!(Square::parse("a1").map(Square::index), Some(0));
    assert_eq!(Square::parse("E1").map(Square::index), Some(4));
    assert_eq!(Square::parse("a2").map(Square::index), Some(5));
    assert_eq!(Square::parse("c3"), Some(Square::C3));
    assert_eq!(Square::parse("e5").map(Square::index), Some(24));
    for bad in ["", "a", "a0", "a6", "f1", "a11", "1a"] {
        assert_eq!(Square::parse(bad), None, "{bad}");
    }
    for sq in Square::all() {
        assert_eq!(Square::parse(&sq.to_string()), Some(sq));
    }
    assert_eq!(Square::C1.flip(), Square::C5);
    assert_eq!(Square::C1.to_string(), "c1");
}
