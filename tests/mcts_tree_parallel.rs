//! MCTS with tree parallelism (two threads on one tree, virtual loss) on Onitama: the solver
//! still proves the forced win of `bbBbb/5/5/5/rrRrr r tiger,rabbit rooster,cobra elephant`
//! (agreeing with alpha-beta, the reference, on who wins and on the move), the proven line
//! ends in that win, and a node-limited search from the start returns a legal move with the
//! node count summed over the threads.
//!
//! Key invariant: the expected results come from `AlphaBeta` and from the rules, never from
//! MCTS; nothing here depends on how the threads interleave.

use plies::mcts::{Mcts, MctsConfig, Parallel};
use plies::search::AlphaBeta;
use plies::search::{SearchLimits, Searcher};
use plies::{Game, Notation, Outcome};
use plies_onitama::{Onitama, PstEvaluator};

const FORCED_WIN: &str = "bbBbb/5/5/5/rrRrr r tiger,rabbit rooster,cobra elephant";

fn tree_parallel(iterations: u64) -> Mcts<Onitama, PstEvaluator> {
    let config = MctsConfig::iterations(iterations).with_threads(2, Parallel::Tree);
    Mcts::new(PstEvaluator::default(), config)
}

#[test]
fn two_threads_on_one_tree_prove_the_forced_win() {
    let state = Onitama::parse_position(FORCED_WIN).unwrap();
    let reference = AlphaBeta::new(PstEvaluator::default()).search(&state, &SearchLimits::depth(7));
    assert!(reference.score.is_win(), "{reference:?}");
    let mut mcts = tree_parallel(2_000_000);
    let result = mcts.search(&state, &SearchLimits::default());
    let stats = mcts.last_stats();
    eprintln!(
        "tree-parallel mcts: {} after {} iterations, {} nodes, {} tree nodes, {:?}",
        result.score, stats.iterations, stats.nodes, stats.tree_nodes, result.stats.elapsed
    );
    assert!(result.score.is_win(), "not proven: {result:?} {stats:?}");
    assert!(result.score.plies_to_end() >= reference.score.plies_to_end());
    assert!(
        stats.iterations < 2_000_000,
        "a proven root stops both threads"
    );
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
    // The reported line is a proof: played out, the side to move wins at the reported distance.
    let mut walk = state;
    for &mv in &result.pv {
        walk = walk.play(mv);
    }
    assert_eq!(walk.outcome(), Some(Outcome::Win(state.side_to_move())));
    assert_eq!(result.score.plies_to_end(), Some(result.pv.len() as u32));
}

#[test]
fn a_node_limited_search_sums_the_threads_nodes_and_plays_legally() {
    let state = Onitama::start_position();
    let mut mcts = Mcts::new(
        PstEvaluator::default(),
        MctsConfig::default().with_threads(2, Parallel::Tree),
    );
    let result = mcts.search(&state, &SearchLimits::nodes(40_000));
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    assert!(moves.contains(&result.best_move.unwrap()));
    let stats = mcts.last_stats();
    // Each thread stops once it has made its half of the nodes (checked between iterations).
    assert!(result.stats.nodes >= 40_000, "{stats:?}");
    assert_eq!(result.stats.nodes, stats.nodes);
    // One tree: every iteration is one visit of the root and of one root move.
    let visits: u64 = mcts.root_children().iter().map(|c| c.visits).sum();
    assert_eq!(visits, stats.iterations);
    assert!(stats.playouts <= stats.iterations);
}
