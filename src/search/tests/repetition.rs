//! Repetition tests on the [`Cycle`] toy game: with a game history, minimax (with and without
//! quiescence), alpha-beta and every value-exact PVS rung (one and two threads) agree; the
//! history changes values (so the agreement is about something); the strength configuration
//! and MCTS seek a winning repetition and avoid a losing one only when they know the history;
//! a game without the rule searches exactly as without a history.

use crate::eval::Score;
use crate::game::{Game, GameHistory, Side};
use crate::harness::HashEvaluator;
use crate::mcts::{Mcts, MctsConfig};
use crate::rng::SplitMix64;
use crate::search::alphabeta::AlphaBeta;
use crate::search::config::PvsConfig;
use crate::search::limits::SearchLimits;
use crate::search::minimax::Minimax;
use crate::search::pvs::Pvs;
use crate::search::searcher::Searcher;
use crate::testing::{Cycle, CycleRule};

const RULES: [CycleRule; 4] = [
    CycleRule::Draw,
    CycleRule::MoverLoses,
    CycleRule::MoverWins,
    CycleRule::FirstWins,
];

/// A position reached by a seeded random walk of at most `plies` moves from a start node of a
/// `nodes`-node graph, and the history before it; the walk stops before the game would end.
fn walk(nodes: u64, seed: u64, rule: CycleRule, plies: usize) -> (Cycle, GameHistory) {
    let mut rng = SplitMix64::new(seed);
    let mut state = Cycle::new(seed, nodes, seed / 3, rule);
    let mut history = GameHistory::new(&state);
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        state.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
        let next = state.play(mv);
        let mut trial = history.clone();
        if trial.play(state.side_to_move(), &next).is_some() || next.outcome().is_some() {
            break;
        }
        history = trial;
        state = next;
    }
    (state, history)
}

/// The best of `values` and whether `result` has that score with one of its moves.
fn agrees(values: &[(u8, Score)], score: Score, best_move: Option<u8>) -> bool {
    let best = values.iter().map(|&(_, v)| v).max().expect("moves");
    score == best
        && values
            .iter()
            .any(|&(m, v)| v == best && Some(m) == best_move)
}

#[test]
fn every_exact_searcher_agrees_with_minimax_given_the_history() {
    let eval = HashEvaluator::new(7, 3);
    for rule in RULES {
        let mut exact: Vec<(String, Box<dyn Searcher<Cycle>>)> =
            vec![("alphabeta".into(), Box::new(AlphaBeta::new(eval)))];
        for (name, config) in PvsConfig::consistency_ladder() {
            exact.push((name.into(), Box::new(Pvs::new(eval, config))));
        }
        let (_, top) = *PvsConfig::consistency_ladder().last().unwrap();
        exact.push((
            "top+t2".into(),
            Box::new(Pvs::new(eval, top.with_threads(2))),
        ));
        let mut quiet: Vec<(String, Box<dyn Searcher<Cycle>>)> = PvsConfig::quiescence_ladder()
            .into_iter()
            .map(|(name, config)| {
                (
                    name.to_string(),
                    Box::new(Pvs::new(eval, config)) as Box<dyn Searcher<Cycle>>,
                )
            })
            .collect();
        let mut changed = 0;
        for seed in 0..8u64 {
            let (root, history) = walk(6 + seed % 3, seed * 31 + 5, rule, 4 + seed as usize % 6);
            if root.outcome().is_some() {
                continue;
            }
            for depth in 1..=6 {
                let limits = SearchLimits::depth(depth);
                let values = Minimax::new(eval).root_values_in(&root, &history, depth);
                let blind = Minimax::new(eval).root_values(&root, depth);
                changed += usize::from(values != blind);
                for (name, searcher) in &mut exact {
                    let result = searcher.search_in(&root, &history, &limits);
                    assert!(
                        agrees(&values, result.score, result.best_move),
                        "{rule:?} seed {seed} depth {depth} {name}: {:?} {:?} vs {values:?}",
                        result.score,
                        result.best_move
                    );
                }
                let q_values =
                    Minimax::with_quiescence(eval).root_values_in(&root, &history, depth);
                let result = Minimax::with_quiescence(eval).search_in(&root, &history, &limits);
                assert!(agrees(&q_values, result.score, result.best_move));
                for (name, searcher) in &mut quiet {
                    let result = searcher.search_in(&root, &history, &limits);
                    assert!(
                        agrees(&q_values, result.score, result.best_move),
                        "{rule:?} seed {seed} depth {depth} {name}: {:?} vs {q_values:?}",
                        result.score
                    );
                }
            }
        }
        // The history must matter in a good share of the cases, or this proves nothing.
        assert!(
            changed >= 5,
            "{rule:?}: history changed only {changed} searches"
        );
    }
}

/// A position with history where some root move repeats a position for the third time, and
/// that move (the first such).
fn repeating_root(rule: CycleRule) -> (Cycle, GameHistory, u8) {
    for seed in 0..500u64 {
        let (root, history) = walk(5, seed, rule, 12);
        let mut moves = Vec::new();
        root.generate_moves(&mut moves);
        if moves.len() < 2 {
            continue;
        }
        let repeating: Vec<u8> = moves
            .iter()
            .copied()
            .filter(|&mv| {
                let child = root.play(mv);
                let count = history
                    .before(&root)
                    .iter()
                    .filter(|&&h| h == child.hash())
                    .count();
                count == 2 && child.outcome().is_none()
            })
            .collect();
        if repeating.len() == 1 {
            return (root, history, repeating[0]);
        }
    }
    panic!("no repeating root for {rule:?}");
}

#[test]
fn the_strength_search_seeks_a_winning_repetition_only_with_the_history() {
    let eval = HashEvaluator::new(3, 50);
    let (root, history, mv) = repeating_root(CycleRule::MoverWins);
    let mut pvs = Pvs::new(eval, PvsConfig::full());
    let seen = pvs.search_in(&root, &history, &SearchLimits::depth(5));
    assert_eq!(seen.best_move, Some(mv));
    assert_eq!(seen.score, Score::win_in(1));
    pvs.clear();
    let blind = pvs.search(&root, &SearchLimits::depth(5));
    assert_ne!(blind.score, Score::win_in(1));
}

#[test]
fn the_strength_search_avoids_a_losing_repetition_only_with_the_history() {
    let eval = HashEvaluator::new(3, 50);
    let (root, history, mv) = repeating_root(CycleRule::MoverLoses);
    let mut pvs = Pvs::new(eval, PvsConfig::full());
    let values = Minimax::new(eval).root_values_in(&root, &history, 1);
    assert!(
        values
            .iter()
            .any(|&(m, v)| m == mv && v == Score::loss_in(1))
    );
    let seen = pvs.search_in(&root, &history, &SearchLimits::depth(5));
    assert_ne!(seen.best_move, Some(mv));
    // Without the history the same search may well play it: its depth-1 value is the
    // evaluation, not a loss.
    let blind = Minimax::new(eval).root_values(&root, 1);
    assert!(
        blind
            .iter()
            .all(|&(_, v)| !v.is_decisive() || v != Score::loss_in(1))
    );
}

#[test]
fn mcts_proves_a_winning_repetition_only_with_the_history() {
    let eval = HashEvaluator::new(3, 50);
    let (root, history, mv) = repeating_root(CycleRule::FirstWins);
    let winner = Side::First;
    let mut mcts = Mcts::new(eval, MctsConfig::default());
    let seen = mcts.search_in(&root, &history, &SearchLimits::nodes(20_000));
    if root.side_to_move() == winner {
        assert_eq!(seen.best_move, Some(mv));
        assert_eq!(seen.score, Score::win_in(1));
    } else {
        assert_ne!(seen.best_move, Some(mv));
    }
    mcts.clear();
    let blind = mcts.search(&root, &SearchLimits::nodes(20_000));
    assert_ne!(blind.score, Score::win_in(1));
}

#[test]
fn a_game_without_the_rule_searches_the_same_with_a_history() {
    let eval = HashEvaluator::new(1, 5);
    let (with_rule, history, _) = repeating_root(CycleRule::MoverLoses);
    let without = Cycle {
        rule: CycleRule::Ignore,
        ..with_rule.clone()
    };
    for config in [PvsConfig::full(), PvsConfig::plain()] {
        let plain = Pvs::new(eval, config).search(&without, &SearchLimits::depth(6));
        let given = Pvs::new(eval, config).search_in(&without, &history, &SearchLimits::depth(6));
        assert_eq!(plain.stats.nodes, given.stats.nodes);
        assert_eq!(
            (plain.score, plain.best_move),
            (given.score, given.best_move)
        );
    }
    // The same position and history with the rule on: the history matters.
    let plain = Pvs::new(eval, PvsConfig::full()).search(&with_rule, &SearchLimits::depth(6));
    let given =
        Pvs::new(eval, PvsConfig::full()).search_in(&with_rule, &history, &SearchLimits::depth(6));
    assert_ne!(plain.stats.nodes, given.stats.nodes);
}
