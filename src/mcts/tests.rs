//! Unit tests of [`super::Mcts`] on the toy game `TwoPiles` (extra turns included): the solver
//! agrees with plain minimax, determinism for a seed, tree reuse, the node budget.
//!
//! Key invariant: every expected value comes from [`crate::search::Minimax`] (the reference),
//! never from MCTS itself.

use super::*;
use crate::game::{Game, Side};
use crate::search::limits::SearchLimits;
use crate::search::minimax::Minimax;
use crate::search::searcher::Searcher;
use crate::testing::{PileDifference, TwoPiles};

fn exact_values(state: &TwoPiles) -> Vec<(crate::testing::Take, crate::eval::Score)> {
    let depth = u32::from(state.piles[0]) + u32::from(state.piles[1]) + 1;
    Minimax::new(PileDifference).root_values(state, depth)
}

#[test]
fn solver_agrees_with_minimax_on_every_small_two_piles_position() {
    for a in 0..=6u8 {
        for b in 0..=6u8 {
            for side in Side::BOTH {
                let state = TwoPiles::new(a, b, side);
                if state.outcome().is_some() {
                    continue;
                }
                let values = exact_values(&state);
                let best = values.iter().map(|&(_, v)| v).max().unwrap();
                let mut mcts = Mcts::new(PileDifference, MctsConfig::iterations(50_000));
                let result = mcts.search(&state, &SearchLimits::default());
                let what = format!("piles {a} {b} {side:?}: {result:?}");
                assert!(result.score.is_decisive(), "not proven: {what}");
                assert_eq!(result.score.is_win(), best.is_win(), "{what}");
                let mv = result.best_move.unwrap();
                let value = values.iter().find(|&&(m, _)| m == mv).unwrap().1;
                assert_eq!(
                    value.is_win(),
                    best.is_win(),
                    "a losing move chosen: {what}"
                );
                if best.is_win() {
                    // The proof found may be slower than the fastest win, never faster.
                    let found = result.score.plies_to_end().unwrap();
                    assert!(found >= best.plies_to_end().unwrap(), "{what}");
                }
            }
        }
    }
}

#[test]
fn an_extra_turn_win_is_proven_at_the_right_distance() {
    // Piles (3, 0): a2 leaves one stone and keeps the move, then a1 wins: 2 plies; a3 wins in 1.
    // Piles (4, 0), First to move: a2 (extra turn) then a2 wins = 2 plies, and it is the only
    // win (a1 and a3 leave 3 and 1 for Second, who takes them all).
    let state = TwoPiles::new(4, 0, Side::First);
    let mut mcts = Mcts::new(PileDifference, MctsConfig::iterations(1_000));
    let result = mcts.search(&state, &SearchLimits::default());
    assert_eq!(result.score, crate::eval::Score::win_in(2));
    assert_eq!(result.best_move.map(|m| (m.pile, m.count)), Some((0, 2)));
    assert_eq!(result.pv.len(), 2);
    assert!(
        mcts.last_stats().iterations < 1_000,
        "a proven root stops the search"
    );
}

#[test]
fn same_seed_same_search_other_seed_other_playouts() {
    let state = TwoPiles::new(15, 14, Side::First);
    let run = |seed: u64| {
        let mut mcts = Mcts::new(
            PileDifference,
            MctsConfig::iterations(3_000).with_seed(seed),
        );
        let result = mcts.search(&state, &SearchLimits::default());
        (
            result.best_move,
            result.score,
            result.stats.nodes,
            mcts.root_children(),
        )
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7).3, run(8).3);
    // The node limit is deterministic too.
    let nodes = |seed: u64| {
        let mut mcts = Mcts::new(PileDifference, MctsConfig::default().with_seed(seed));
        let result = mcts.search(&state, &SearchLimits::nodes(20_000));
        assert!(result.stats.nodes >= 20_000);
        (result.best_move, result.stats.nodes)
    };
    assert_eq!(nodes(3), nodes(3));
}

#[test]
fn tree_reuse_keeps_the_visits_of_the_new_root() {
    let state = TwoPiles::new(15, 15, Side::First);
    let mut mcts = Mcts::new(PileDifference, MctsConfig::iterations(4_000));
    let first = mcts.search(&state, &SearchLimits::default());
    let mv = first.best_move.unwrap();
    let visits = mcts
        .root_children()
        .iter()
        .find(|c| c.mv == mv)
        .unwrap()
        .visits;
    assert!(visits > 100);
    // Two plies later: find the grandchild's visits through the PV of the first search.
    let next = state.play(mv);
    let second = mcts.search(&next, &SearchLimits::default());
    assert_eq!(mcts.last_stats().reused_visits, visits);
    let reply = second.best_move.unwrap();
    let reply_visits = mcts
        .root_children()
        .iter()
        .find(|c| c.mv == reply)
        .unwrap()
        .visits;
    let _ = mcts.search(&next.play(reply), &SearchLimits::default());
    assert_eq!(mcts.last_stats().reused_visits, reply_visits);
    // Without reuse, every search starts from nothing.
    let config = MctsConfig {
        reuse_tree: false,
        ..MctsConfig::iterations(1_000)
    };
    let mut fresh = Mcts::new(PileDifference, config);
    fresh.search(&state, &SearchLimits::default());
    fresh.search(&next, &SearchLimits::default());
    assert_eq!(fresh.last_stats().reused_visits, 0);
    // An unrelated position starts a fresh tree as well.
    mcts.search(&TwoPiles::new(3, 9, Side::Second), &SearchLimits::default());
    assert_eq!(mcts.last_stats().reused_visits, 0);
}

#[test]
fn the_node_budget_bounds_the_tree() {
    let state = TwoPiles::new(15, 15, Side::First);
    let config = MctsConfig {
        max_nodes: 200,
        ..MctsConfig::iterations(5_000)
    };
    let mut mcts = Mcts::new(PileDifference, config);
    let result = mcts.search(&state, &SearchLimits::default());
    assert!(result.best_move.is_some());
    let stats = mcts.last_stats();
    assert!(stats.tree_nodes <= 200, "{stats:?}");
    assert!(stats.budget_hits > 0);
    assert_eq!(stats.iterations, 5_000);
}

#[test]
fn threads_merge_their_root_visits() {
    let state = TwoPiles::new(12, 13, Side::First);
    let config = MctsConfig {
        threads: 2,
        ..MctsConfig::iterations(1_000)
    };
    let mut mcts = Mcts::new(PileDifference, config);
    let result = mcts.search(&state, &SearchLimits::default());
    assert!(result.best_move.is_some());
    assert_eq!(mcts.last_stats().iterations, 2_000);
    let visits: u64 = mcts.root_children().iter().map(|c| c.visits).sum();
    assert_eq!(visits, 2_000);
}

#[test]
fn set_threads_sets_the_worker_count_and_checks_it() {
    let state = TwoPiles::new(12, 13, Side::First);
    let mut mcts = Mcts::new(PileDifference, MctsConfig::iterations(500));
    assert!(mcts.set_threads(0).is_err());
    assert!(mcts.set_threads(crate::search::MAX_THREADS + 1).is_err());
    mcts.set_threads(2).unwrap();
    let result = mcts.search(&state, &SearchLimits::default());
    assert!(result.best_move.is_some());
    assert_eq!(mcts.last_stats().iterations, 1_000);
}

#[test]
fn heavy_playouts_and_a_cut_off_still_solve() {
    let state = TwoPiles::new(5, 3, Side::Second);
    let values = exact_values(&state);
    let best = values.iter().map(|&(_, v)| v).max().unwrap();
    let config = MctsConfig {
        playout_cutoff: 2,
        ..MctsConfig::iterations(50_000)
    };
    for policy in [
        HeavyPlayout::softmax(5.0),
        HeavyPlayout::epsilon_greedy(0.2),
    ] {
        let mut mcts = Mcts::new(PileDifference, config.clone()).with_policy(policy);
        assert!(mcts.name().starts_with("mcts-heavy"));
        let result = mcts.search(&state, &SearchLimits::default());
        assert_eq!(result.score.is_win(), best.is_win(), "{result:?}");
        assert!(result.score.is_decisive());
    }
}

#[test]
fn limits_stop_the_search_and_a_finished_root_has_no_move() {
    let state = TwoPiles::new(15, 15, Side::First);
    let mut mcts = Mcts::new(PileDifference, MctsConfig::default());
    let result = mcts.search(&state, &SearchLimits::nodes(5_000));
    let nodes = result.stats.nodes;
    assert!((5_000..5_000 + 100).contains(&nodes), "{nodes}");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let result = mcts.search(&state, &SearchLimits::default().with_stop(stop));
    assert_eq!(mcts.last_stats().iterations, 0);
    assert!(result.best_move.is_some(), "an answer even without time");
    let over = TwoPiles::new(0, 0, Side::First);
    assert_eq!(mcts.search(&over, &SearchLimits::default()).best_move, None);
}
