//! Unit tests of `crate::search::minimax` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;
use crate::game::Side;
use crate::testing::{PileDifference, TwoPiles};

/// Solves the two-piles game by brute force over (piles, side to move), independently of the
/// searcher: a position is won for the mover if some move wins at once or leads to a position
/// lost for whoever moves there (or won, when the mover keeps the turn).
fn solved_win(a: u8, b: u8) -> bool {
    // With extra turns the side to move after a move is known from the move alone.
    if a + b == 0 {
        unreachable!()
    }
    for (pile, size) in [(0, a), (1, b)] {
        for count in 1..=size.min(3) {
            let (na, nb) = if pile == 0 {
                (a - count, b)
            } else {
                (a, b - count)
            };
            if na + nb == 0 {
                return true;
            }
            let extra = count == 2 && (if pile == 0 { na } else { nb }) > 0;
            let child_mover_wins = solved_win(na, nb);
            if extra == child_mover_wins {
                return true;
            }
        }
    }
    false
}

#[test]
fn solves_two_piles_exactly() {
    for a in 0..6u8 {
        for b in 0..6u8 {
            if a + b == 0 {
                continue;
            }
            let state = TwoPiles::new(a, b, Side::First);
            let result = Minimax::new(PileDifference).search(&state, &SearchLimits::depth(12));
            assert!(result.score.is_decisive(), "{a} {b}: {}", result.score);
            assert_eq!(result.score.is_win(), solved_win(a, b), "piles {a} {b}");
            // The PV replays legally and its length is the distance to the end.
            let mut s = state.clone();
            for &mv in &result.pv {
                s = s.play(mv);
            }
            assert!(s.outcome().is_some());
            assert_eq!(result.score.plies_to_end(), Some(result.pv.len() as u32));
        }
    }
}

#[test]
fn counts_nodes_like_perft() {
    // perft(2) from (2,1): moves a1,a2,b1 -> children (1,1), (0,1)+extra? a2 empties pile a
    // so no extra turn; (2,0). Each child's move count summed.
    let state = TwoPiles::new(2, 1, Side::First);
    let result = Minimax::new(PileDifference).search(&state, &SearchLimits::depth(2));
    // children: (1,1): a1,b1 = 2 ; (0,1): b1 = 1 ; (2,0): a1,a2 = 2  -> 3 + 5
    assert_eq!(result.stats.nodes, 8);
}

#[test]
fn root_values_agree_with_search() {
    let state = TwoPiles::new(5, 4, Side::Second);
    let mm = Minimax::new(PileDifference);
    let values = mm.root_values(&state, 5);
    let best = values.iter().map(|&(_, v)| v).max().unwrap();
    let result = Minimax::new(PileDifference).search(&state, &SearchLimits::depth(5));
    assert_eq!(best, result.score);
    assert!(
        values
            .iter()
            .any(|&(m, v)| v == best && Some(m) == result.best_move)
    );
}

#[test]
fn node_limit_stops_early() {
    let state = TwoPiles::new(9, 9, Side::First);
    let result = Minimax::new(PileDifference).search(&state, &SearchLimits::nodes(50));
    assert!(result.stats.nodes <= 50);
    assert_eq!(result.depth, 0);
}
