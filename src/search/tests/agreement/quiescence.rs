//! Agreement tests of the quiescence ladder: every rung equals minimax-with-quiescence on the
//! toy games, quiescence changes values somewhere, and PVS counts its quiescence positions.

use super::*;

/// Every rung of the quiescence ladder agrees with minimax-with-quiescence on every
/// `(state, depth)` (value and best move; the PV ends at the horizon, where the reference goes
/// on into quiescence, so it is only checked to replay legally).
fn check_all_quiescence<G: Game + std::fmt::Debug, E: Evaluator<G> + Copy + 'static>(
    cases: &[(G, u32)],
    eval: E,
) {
    let mut searchers: Vec<Box<dyn Searcher<G>>> = PvsConfig::quiescence_ladder()
        .into_iter()
        .map(|(_, config)| Box::new(Pvs::new(eval, config)) as Box<dyn Searcher<G>>)
        .collect();
    let reference = Minimax::with_quiescence(eval);
    for (state, depth) in cases {
        let values = reference.root_values(state, *depth);
        for searcher in &mut searchers {
            let result = searcher.search(state, &SearchLimits::depth(*depth));
            if let Some(what) = disagreement(state, *depth, &eval, &values, &result, false) {
                panic!("{} at {state:?} depth {depth}: {what}", searcher.name());
            }
        }
    }
}

#[test]
fn quiescence_ladder_agrees_with_minimax_with_quiescence() {
    check_all_quiescence(&pile_cases(6, 1..=7), Piles);
    check_all_quiescence(&pile_cases(6, 1..=7), HashEval);
    check_all_quiescence(&graph_cases(64, 9, 1..=6), HashEval);
    check_all_quiescence(&graph_cases(1000, 4, 1..=5), WideEval);
    for seed in 100..115 {
        let cases: Vec<(Graph, u32)> = graph_cases(200, 1, 1..=6)
            .into_iter()
            .map(|(state, depth)| (Graph { seed, ..state }, depth))
            .filter(|(state, _)| state.outcome().is_none())
            .collect();
        check_all_quiescence(&cases, WideEval);
    }
}

#[test]
fn quiescence_changes_values_and_counts_qnodes() {
    // The quiescence reference differs from plain minimax somewhere (or the test above could
    // not tell the two apart), and PVS counts its quiescence positions.
    let plain = Minimax::new(WideEval);
    let with_q = Minimax::with_quiescence(WideEval);
    let differ = graph_cases(1000, 4, 1..=3).iter().any(|(state, depth)| {
        plain.root_values(state, *depth) != with_q.root_values(state, *depth)
    });
    assert!(differ);
    let state = open_root(5000, 3);
    let mut pvs = Pvs::new(WideEval, PvsConfig::full());
    let result = pvs.search(&state, &SearchLimits::depth(6));
    let s = &result.stats;
    assert!(s.qnodes > 0 && s.qnodes < s.nodes, "{s:?}");
    assert!(s.best_move_nodes >= s.best_move_first && s.best_move_first > 0);
    assert!(!s.tt_probes_by_depth.is_empty());
    assert_eq!(s.tt_probes_by_depth.iter().sum::<u64>(), s.tt_probes);
    assert_eq!(s.branching_factors().len(), 5);
}
