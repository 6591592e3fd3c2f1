//! Unit tests of `board` in `plies-yinsh`, a child module so they reach its private items.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use super::*;

#[test]
fn board_shape() {
    assert_eq!(parse_cell("a1"), None);
    assert_eq!(parse_cell("a2"), Some(0));
    assert_eq!(parse_cell("K10"), Some(CELLS - 1));
    assert_eq!(parse_cell("k11"), None);
    assert_eq!(parse_cell("e"), None);
    for cell in 0..CELLS {
        assert_eq!(parse_cell(&cell_name(cell)), Some(cell));
        for d in 0..6 {
            if let Some(n) = step(cell, d) {
                assert_eq!(step(n, (d + 3) % 6), Some(cell));
            }
        }
    }
    // The centre E5... F6 has all six neighbours; A2 (a corner point) has few.
    let f6 = parse_cell("f6").unwrap();
    assert!((0..6).all(|d| step(f6, d).is_some()));
    assert!(!windows().is_empty());
}
