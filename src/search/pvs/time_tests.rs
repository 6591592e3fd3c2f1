//! Tests of [`super::Pvs`]'s time management ([`crate::search::iterative::TimePolicy`]): a
//! time-limited search answers within its budget and spends at least the soft share of it; a
//! proven win ends deepening even under a depth limit. The timing checks hold on a loaded
//! machine: they bound the search from outside (a late wake-up only lengthens a search, and the
//! upper bound leaves room for it).

use std::time::{Duration, Instant};

use crate::eval::Score;
use crate::game::Side;
use crate::harness::HashEvaluator;
use crate::search::iterative::{TimePolicy, hard_margin, soft_share};
use crate::search::maze::Maze;
use crate::search::{Pvs, PvsConfig, SearchLimits, Searcher};
use crate::testing::{PileDifference, TwoPiles};

/// Generous slack for a loaded machine (the search itself polls the clock every 256 positions).
const SLACK: Duration = Duration::from_millis(40);

fn config(policy: TimePolicy) -> PvsConfig {
    PvsConfig {
        tt_mb: 1,
        time_policy: policy,
        ..PvsConfig::full()
    }
}

#[test]
fn a_timed_search_spends_its_budget_and_returns_within_it() {
    let budget = Duration::from_millis(120);
    let hard = budget - hard_margin(budget);
    let mut pvs = Pvs::new(HashEvaluator::new(5, 4), config(TimePolicy::Spend));
    // An endless graph: no proof ends deepening early, only the clock.
    for start in [7, 1234] {
        let state = Maze::new(start, 1 << 40, 0);
        let clock = Instant::now();
        let result = pvs.search(&state, &SearchLimits::time(budget));
        let used = clock.elapsed();
        assert!(result.best_move.is_some());
        assert!(used <= budget + SLACK, "{used:?}");
        // Deepening goes on at least until the soft limit (the stable share).
        let soft = hard.mul_f64(soft_share(0));
        assert!(used >= soft, "{used:?} < {soft:?}");
        // The watch in the answer saw the hard limit, not the budget.
        assert!(
            result.stats.elapsed <= hard + SLACK,
            "{:?}",
            result.stats.elapsed
        );
    }
}

#[test]
fn the_old_policy_stays_selectable() {
    let mut pvs = Pvs::new(HashEvaluator::new(5, 4), config(TimePolicy::Predict));
    assert!(pvs.name().ends_with("+oldtime"), "{}", pvs.name());
    let budget = Duration::from_millis(60);
    let clock = Instant::now();
    let result = pvs.search(&Maze::new(7, 1 << 40, 0), &SearchLimits::time(budget));
    assert!(result.best_move.is_some());
    assert!(clock.elapsed() <= budget + SLACK);
}

#[test]
fn a_proven_win_ends_deepening_under_a_depth_limit() {
    let mut proofs = 0;
    for (a, b) in [(3, 0), (5, 2), (6, 3), (9, 4)] {
        let state = TwoPiles::new(a, b, Side::First);
        let mut pvs = Pvs::new(PileDifference, config(TimePolicy::Spend));
        let mut depths = Vec::new();
        let mut scores: Vec<Score> = Vec::new();
        let result = pvs.search_with(&state, &SearchLimits::depth(30).until_proven(), &mut |it| {
            depths.push(it.depth);
            scores.push(it.score);
        });
        // The first iteration whose score is decisive within its horizon (+1: quiescence
        // finds immediate wins at the horizon) is the last one.
        let proved = scores
            .iter()
            .zip(&depths)
            .position(|(score, &depth)| score.plies_to_end().is_some_and(|p| p <= depth + 1));
        match proved {
            Some(index) => {
                proofs += 1;
                assert_eq!(depths.len(), index + 1, "{a}/{b}: {depths:?} {scores:?}");
                assert!(result.depth < 30);
                assert_eq!(result.score, scores[index]);
            }
            None => assert_eq!(result.depth, 30, "{a}/{b}"),
        }
    }
    assert!(proofs >= 2, "the positions should include proven ones");
}
