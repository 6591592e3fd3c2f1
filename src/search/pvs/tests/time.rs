//! Tests of [`crate::search::Pvs`]'s time management ([`crate::search::iterative`]): a
//! time-limited search answers within its budget and spends at least the soft share of it; a
//! proven win ends deepening even under a depth limit. The timing checks hold on a loaded
//! machine: they bound the search from outside (a late wake-up only lengthens a search, and the
//! upper bound leaves room for it).

use std::time::{Duration, Instant};

use crate::eval::Score;
use crate::game::GameHistory;
use crate::game::Side;
use crate::harness::HashEvaluator;
use crate::search::config::PvsConfig;
use crate::search::iterative::{hard_margin, soft_share};
use crate::search::limits::SearchLimits;
use crate::search::pvs::Pvs;
use crate::search::searcher::Searcher;
use crate::testing::Maze;
use crate::testing::{PileDifference, TwoPiles};

/// Generous slack for a loaded machine (the search itself polls the clock every 256 positions).
const SLACK: Duration = Duration::from_millis(100);

fn config() -> PvsConfig {
    PvsConfig {
        tt_mb: 1,
        ..PvsConfig::full()
    }
}

#[test]
fn a_timed_search_spends_its_budget_and_returns_within_it() {
    let budget = Duration::from_millis(120);
    let hard = budget - hard_margin(budget);
    let mut pvs = Pvs::new(HashEvaluator::new(5, 4), config());
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
fn a_proven_win_ends_deepening_under_a_depth_limit() {
    let mut proofs = 0;
    for (a, b) in [(3, 0), (5, 2), (6, 3), (9, 4)] {
        let state = TwoPiles::new(a, b, Side::First);
        let mut pvs = Pvs::new(PileDifference, config());
        let mut depths = Vec::new();
        let mut scores: Vec<Score> = Vec::new();
        let result = pvs.search_with(
            &state,
            &GameHistory::default(),
            &SearchLimits::depth(30).until_proven(),
            &mut |it| {
                depths.push(it.depth);
                scores.push(it.score);
            },
        );
        // The first iteration whose score is decisive is the last one.
        let proved = scores.iter().position(|score| score.is_decisive());
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
