//! Unit tests of `state` in `plies-yinsh`, a child module so they reach its private items:
//! the per-content cell sets follow the cell array.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use super::*;
use plies::rng::SplitMix64;

#[test]
fn the_content_sets_follow_the_cells_along_random_games() {
    let mut rng = SplitMix64::new(5);
    let mut moves = Vec::new();
    let mut checked = 0;
    for blitz in [false, true, false] {
        let mut state = Yinsh::new(blitz);
        while state.outcome().is_none() {
            for content in 0..5u8 {
                let expected = (0..CELLS)
                    .filter(|&c| state.cell(c) == content)
                    .fold(0u128, |set, c| set | 1 << c);
                assert_eq!(state.cells_with(content), expected, "content {content}");
            }
            checked += 1;
            moves.clear();
            state.generate_moves(&mut moves);
            state = state.play(moves[rng.below(moves.len())]);
        }
    }
    assert!(checked > 100, "{checked} positions");
    assert_eq!(Yinsh::new(false).cells_with(5), 0);
}
