//! Unit tests of `state` in `plies-hus`, a child module so they reach its private items.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use super::*;

#[test]
fn worked_capture_of_the_rules() {
    // Seed 1, ply 3: P0 plays pit 18 holding 3, round 1.
    let mut mine = [0u8; PITS];
    let mut theirs = [0u8; PITS];
    // Before: pits 18..26 hold 3,0,3,3,0,3,1,1,0 (from the rules' final row and the sowing).
    mine[18..=26].copy_from_slice(&[3, 0, 3, 3, 0, 3, 1, 1, 0]);
    theirs[5] = 2;
    theirs[26] = 1;
    let sown = sow(&mut mine, &mut theirs, 18, true).expect("finite");
    assert_eq!(sown.captured, 3);
    assert_eq!(&mine[18..=26], &[0, 1, 4, 4, 1, 4, 0, 2, 1]);
    assert_eq!((theirs[5], theirs[26]), (0, 0));
}

#[test]
fn no_capture_in_round_zero() {
    let mut mine = [0u8; PITS];
    let mut theirs = [0u8; PITS];
    mine[18] = 3;
    mine[21] = 3;
    theirs[26] = 1;
    let sown = sow(&mut mine, &mut theirs, 18, false).expect("finite");
    assert_eq!(sown.captured, 0);
    assert_eq!(theirs[26], 1);
}

#[test]
fn start_has_24_moves_and_96_seeds() {
    let start = Hus::start();
    let mut moves = Vec::new();
    start.generate_moves(&mut moves);
    assert_eq!(moves.len(), 24);
    assert_eq!(start.total(Side::First) + start.total(Side::Second), 96);
    assert_eq!(start.hash(), start.hash_from_scratch());
}
