//! Opening positions for matches: positions reached from a start by a few seeded random moves.
//!
//! Key invariants: the same start, seed, count and plies give the same openings on every
//! platform; no opening is finished, and no two openings are the same position (same hash and
//! side to move) as long as enough distinct ones exist.

use plies::Game;
use plies::rng::SplitMix64;

/// Up to `count` distinct, unfinished positions, each reached from `start` by `plies` uniformly
/// random legal moves drawn from a generator seeded with `seed`. Walks that end the game early,
/// and repeats of an earlier opening, are dropped and retried; after `64 · count` tries the list
/// is returned as it is (shorter, when `start` has few distinct positions at that distance).
/// With `plies == 0` the only opening is `start` itself (if unfinished).
#[must_use]
pub fn random_openings<G: Game>(start: &G, seed: u64, count: usize, plies: u32) -> Vec<G> {
    let mut rng = SplitMix64::new(seed);
    let mut openings: Vec<G> = Vec::with_capacity(count);
    let mut moves = Vec::new();
    let tries = count.saturating_mul(64).max(1);
    for _ in 0..tries {
        if openings.len() >= count {
            break;
        }
        let mut state = start.clone();
        let mut finished = false;
        for _ in 0..plies {
            moves.clear();
            state.generate_moves(&mut moves);
            if moves.is_empty() {
                finished = true;
                break;
            }
            state = state.play(moves[rng.below(moves.len())]);
        }
        if finished || state.outcome().is_some() {
            continue;
        }
        let repeat = openings
            .iter()
            .any(|o| o.hash() == state.hash() && o.side_to_move() == state.side_to_move());
        if !repeat {
            openings.push(state);
        }
    }
    openings
}

#[cfg(test)]
mod tests {
    use super::*;
    use plies::Side;
    use plies::testing::TwoPiles;

    #[test]
    fn openings_are_distinct_unfinished_and_reproducible() {
        let start = TwoPiles::new(12, 12, Side::First);
        let a = random_openings(&start, 7, 10, 3);
        assert_eq!(a.len(), 10);
        assert_eq!(a, random_openings(&start, 7, 10, 3));
        assert_ne!(a, random_openings(&start, 8, 10, 3));
        for (i, x) in a.iter().enumerate() {
            assert!(x.outcome().is_none());
            // 3 random moves take 3..=9 stones in all.
            let taken = 24 - u32::from(x.piles[0]) - u32::from(x.piles[1]);
            assert!((3..=9).contains(&taken), "{x:?}");
            assert!(a[..i].iter().all(|y| y != x), "duplicate {x:?}");
        }
    }

    #[test]
    fn few_positions_give_a_short_list() {
        // From 1 1, one move reaches 0 1 or 1 0 (unfinished), each with the other side to move.
        let start = TwoPiles::new(1, 1, Side::First);
        let openings = random_openings(&start, 3, 10, 1);
        assert_eq!(openings.len(), 2);
        assert_eq!(random_openings(&start, 3, 10, 0), vec![start.clone()]);
        // Two moves from 1 1 always finish the game.
        assert!(random_openings(&start, 3, 10, 2).is_empty());
    }
}
