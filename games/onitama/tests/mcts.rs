//! MCTS on Onitama: the MCTS-solver proves the forced win of
//! `bbBbb/5/5/5/rrRrr r tiger,rabbit rooster,cobra elephant`, agreeing with alpha-beta (the
//! reference) on who wins and choosing a move alpha-beta also scores as a win; and MCTS plays
//! legal, deterministic moves from the start position.
//!
//! Key invariant: the expected results come from `AlphaBeta` at a depth that sees the win, never
//! from MCTS.

use plies::mcts::{Mcts, MctsConfig};
use plies::search::AlphaBeta;
use plies::search::{SearchLimits, Searcher};
use plies::{Game, Notation};
use plies_onitama::{Onitama, PstEvaluator};

const FORCED_WIN: &str = "bbBbb/5/5/5/rrRrr r tiger,rabbit rooster,cobra elephant";

#[test]
fn the_solver_proves_the_forced_win() {
    let state = Onitama::parse_position(FORCED_WIN).unwrap();
    let reference = AlphaBeta::new(PstEvaluator::default()).search(&state, &SearchLimits::depth(7));
    assert!(reference.score.is_win(), "{reference:?}");
    let mut mcts = Mcts::new(PstEvaluator::default(), MctsConfig::iterations(2_000_000));
    let result = mcts.search(&state, &SearchLimits::default());
    let stats = mcts.last_stats();
    eprintln!(
        "mcts: {} after {} iterations, {} nodes, {:?}; alpha-beta: {}",
        result.score, stats.iterations, stats.nodes, result.stats.elapsed, reference.score
    );
    assert!(result.score.is_win(), "not proven: {result:?} {stats:?}");
    // The proven line may be slower than the fastest win, never faster.
    assert!(result.score.plies_to_end() >= reference.score.plies_to_end());
    // The chosen move wins according to alpha-beta too.
    let child = state.play(result.best_move.unwrap());
    let depth = reference.score.plies_to_end().unwrap();
    let reply = AlphaBeta::new(PstEvaluator::default()).search(&child, &SearchLimits::depth(depth));
    let for_mover = if child.side_to_move() == state.side_to_move() {
        reply.score
    } else {
        -reply.score
    };
    assert!(for_mover.is_win(), "{reply:?}");
}

#[test]
fn the_proven_line_ends_in_the_win_it_reports() {
    let state = Onitama::parse_position(FORCED_WIN).unwrap();
    let mut mcts = Mcts::new(PstEvaluator::default(), MctsConfig::iterations(2_000_000));
    let result = mcts.search(&state, &SearchLimits::default());
    let mut walk = state;
    for &mv in &result.pv {
        walk = walk.play(mv);
    }
    assert_eq!(
        walk.outcome(),
        Some(plies::Outcome::Win(state.side_to_move()))
    );
    assert_eq!(result.score.plies_to_end(), Some(result.pv.len() as u32));
}

#[test]
fn one_thread_and_a_node_limit_repeat_exactly() {
    let state = Onitama::start_position();
    let run = || {
        let mut mcts = Mcts::new(PstEvaluator::default(), MctsConfig::default().with_seed(9));
        let first = mcts.search(&state, &SearchLimits::nodes(30_000));
        let next = state.play(first.best_move.unwrap());
        let second = mcts.search(&next, &SearchLimits::nodes(30_000));
        (
            first.best_move,
            first.score,
            first.stats.nodes,
            second.best_move,
            second.stats.nodes,
            mcts.last_stats().clone(),
        )
    };
    let a = run();
    assert_eq!(a, run());
    assert!(
        a.5.reused_visits > 0,
        "the second search reuses the first tree"
    );
}
