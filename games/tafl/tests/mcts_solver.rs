//! The MCTS-solver on Brandub (7x7 tafl, weak king, corner escape): it proves a hand-made king
//! fork (a win in 3 for the defenders, derived from the rules below) and the short wins
//! alpha-beta finds in positions along seeded random games, for either side, each within a
//! bounded number of iterations, choosing a move alpha-beta also scores as winning.
//!
//! Key invariant: every expected result comes from the rules (the fork) or from `AlphaBeta`
//! (the reference) at a depth that sees the whole win, never from MCTS.

use plies::harness::random_playout_positions;
use plies::mcts::{Mcts, MctsConfig};
use plies::search::AlphaBeta;
use plies::search::{SearchLimits, Searcher};
use plies::{Game, Notation, Outcome, Score, Side};
use plies_tafl::{Tafl, TaflEvaluator};

/// The alpha-beta score of `state` at `depth` (exact for wins within `depth` plies).
fn reference(state: &Tafl, depth: u32) -> Score {
    AlphaBeta::new(TaflEvaluator::default())
        .search(state, &SearchLimits::depth(depth))
        .score
}

/// Runs the solver on `state` with at most `iterations` iterations and checks its answer
/// against alpha-beta: a proven win no faster than alpha-beta's, a move alpha-beta scores as
/// winning too, and a principal variation that ends in the reported win.
fn assert_proves(state: &Tafl, iterations: u64, depth: u32) -> u64 {
    let text = state.format_position();
    let expected = reference(state, depth);
    assert!(expected.is_win(), "{text}: alpha-beta says {expected}");
    let mut mcts = Mcts::new(TaflEvaluator::default(), MctsConfig::iterations(iterations));
    let result = mcts.search(state, &SearchLimits::default());
    let used = mcts.last_stats().iterations;
    assert!(
        result.score.is_win(),
        "{text}: not proven in {used} iterations: {result:?}, alpha-beta {expected}"
    );
    assert!(
        result.score.plies_to_end() >= expected.plies_to_end(),
        "{text}"
    );
    assert!(used < iterations, "{text}: the proof must stop the search");
    let child = state.play(result.best_move.unwrap());
    let after = reference(&child, depth);
    let for_mover = if child.side_to_move() == state.side_to_move() {
        after
    } else {
        -after
    };
    assert!(for_mover.is_win(), "{text}: the chosen move does not win");
    let mut walk = *state;
    for &mv in &result.pv {
        walk = walk.play(mv);
    }
    assert_eq!(
        walk.outcome(),
        Some(Outcome::Win(state.side_to_move())),
        "{text}: {result:?}"
    );
    assert_eq!(result.score.plies_to_end(), Some(result.pv.len() as u32));
    used
}

#[test]
fn the_king_fork_is_proven_a_win_in_three() {
    // Brandub, defenders to move: king d3, attackers b5 and f5, nothing else. No corner is on
    // the king's rank or file, so no win in 1. Kd3-d1 (d2 empty) puts the king on the first
    // rank with c1 b1 free towards a1 and e1 f1 free towards g1. One attacker move can block
    // one side only (b5-b1 or f5-f1; neither reaches c1 or e1), and none can capture a king
    // on d1 (no attacker next to it), so the king reaches the other corner: a win in 3 plies.
    // (Records list rank 1 first.)
    let state = Tafl::parse_position("brandub /7/7/3K3/7/1t3t1/7/7/ d").unwrap();
    assert_eq!(state.side_to_move(), Side::Second);
    assert!(!reference(&state, 1).is_win(), "no win in 1");
    assert_eq!(reference(&state, 3), Score::win_in(3));
    let used = assert_proves(&state, 100_000, 3);
    eprintln!("king fork proven after {used} iterations");
}

#[test]
fn short_wins_of_random_positions_are_proven() {
    const DEPTH: u32 = 3;
    let start = Tafl::parse_position("brandub").unwrap();
    let mut proven = [0usize; 2];
    let mut longest = 0;
    for state in random_playout_positions(&start, 5, 120, 80) {
        let expected = reference(&state, DEPTH);
        if !expected.is_win() {
            continue;
        }
        assert_proves(&state, 200_000, DEPTH);
        proven[state.side_to_move().index()] += 1;
        longest = longest.max(expected.plies_to_end().unwrap());
    }
    eprintln!(
        "proven: {} attackers' wins, {} defenders' wins",
        proven[0], proven[1]
    );
    assert!(proven[0] >= 3 && proven[1] >= 3, "{proven:?}");
    assert_eq!(longest, DEPTH, "some wins take three plies");
}
