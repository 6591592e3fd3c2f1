//! Iterative deepening: search depth 1, 2, 3… until a limit says stop, and answer with the last
//! iteration that completed; and the time manager deciding whether another iteration is worth
//! starting ([`should_start`]) and where the search must stop ([`hard_limits`]).
//!
//! Key invariants:
//! - the result is that of the last *completed* iteration (the searcher may override its move
//!   with one an interrupted iteration already proved better, see [`crate::search::pvs`]);
//! - without a time limit or stop flag the sequence of iterations, and so every node count, is
//!   deterministic: the time manager only ever reads the clock when there is a time limit;
//! - deepening ends early once an iteration proves the root a win or a loss ([`is_proven`]):
//!   always without a depth limit (time, nodes, stop flag, nothing), and under one when the
//!   limits ask for it (`SearchLimits::stop_when_proven`, which analysis sets); without the
//!   flag a depth-limited search reaches exactly the depth asked;
//! - time limits: the search's *hard* limit is the budget
//!   minus a small safety margin ([`hard_margin`]); the search aborts there (the clock is read
//!   every 256 positions), so it never answers later than the budget. Between iterations, the
//!   next one starts while the time used is below the *soft* limit (a share of the hard limit
//!   that grows when the best root move changed in the last iterations, see [`soft_share`]), or
//!   when it is predicted to finish before the hard limit. An iteration started late and cut by
//!   the hard limit is not wasted: its completed first root move is the previous best move
//!   searched deeper, and a root move it already proved better is played;
//! - predictions: the next iteration's time is the last one's times the growth from the one
//!   before (clamped to `MIN_GROWTH..=MAX_GROWTH`; `DEFAULT_GROWTH` after a single iteration).

use std::fmt::Debug;
use std::time::Duration;

use crate::eval::Score;
use crate::search::limits::LimitWatch;
use crate::search::limits::SearchLimits;
use crate::search::searcher::{Iteration, Pv};
use crate::search::stats::SearchStats;

/// Predicted growth of an iteration's time over the last one, when only one is known.
const DEFAULT_GROWTH: f64 = 4.0;
/// Bounds of the predicted growth (measured growth is noisy for tiny iterations).
const MIN_GROWTH: f64 = 1.5;
/// See [`MIN_GROWTH`].
const MAX_GROWTH: f64 = 10.0;
/// Iterations shorter than this are assumed to take this long (timer noise).
const MIN_ITERATION_SECS: f64 = 1e-4;

/// Share of the hard limit below which a new iteration always starts when the best root move
/// did not change in the last two iterations.
const SOFT_SHARE: f64 = 0.9;
/// What each change of the best root move in the last two iterations adds to [`SOFT_SHARE`].
const SOFT_SHARE_PER_CHANGE: f64 = 0.05;
/// The largest safety margin between the budget and the hard limit.
const MAX_HARD_MARGIN: Duration = Duration::from_millis(10);

/// The margin the time manager keeps between a time budget and the moment the search must
/// stop (for unwinding the search and answering): a fiftieth of the budget, at most 10 ms.
#[must_use]
pub fn hard_margin(budget: Duration) -> Duration {
    (budget / 50).min(MAX_HARD_MARGIN)
}

/// The soft limit as a share of the hard limit, after `changes` (0..=2) changes of the best
/// root move in the last two iterations: an unstable best move earns more time.
#[must_use]
pub fn soft_share(changes: u32) -> f64 {
    (SOFT_SHARE + SOFT_SHARE_PER_CHANGE * f64::from(changes)).min(1.0)
}

/// Should the next iteration start, `elapsed` seconds into a search whose hard time limit is
/// `limit` seconds, given the times of the completed iterations and the changes of the best move
/// in the last two of them? Below the soft limit always; past it only when the next iteration is
/// predicted to finish before the hard limit.
#[must_use]
pub fn should_start(elapsed: f64, limit: f64, times: &[f64], changes: u32) -> bool {
    let predicted_end = elapsed + predict_next(times);
    elapsed < limit && (elapsed < limit * soft_share(changes) || predicted_end <= limit)
}

/// `limits` with the time limit the search stops at: the budget minus [`hard_margin`]
/// (unchanged without a time limit).
#[must_use]
pub fn hard_limits(limits: &SearchLimits) -> SearchLimits {
    let mut hard = limits.clone();
    hard.time = limits.time.map(|budget| budget - hard_margin(budget));
    hard
}

/// The predicted time of the next iteration from the times of the completed ones.
fn predict_next(times: &[f64]) -> f64 {
    match times {
        [] => 0.0,
        [last] => last.max(MIN_ITERATION_SECS) * DEFAULT_GROWTH,
        [.., before, last] => {
            let last = last.max(MIN_ITERATION_SECS);
            let growth = (last / before.max(MIN_ITERATION_SECS)).clamp(MIN_GROWTH, MAX_GROWTH);
            last * growth
        }
    }
}

/// Does a completed iteration's root `score` end deepening (under the limits that allow it)?
/// Yes for a win or a loss: the search backed it up from finished positions over every reply
/// of the losing side, so the result is proven and no deeper iteration turns it into anything
/// else. Only its distance could still shrink, and only when the mate lies beyond the iteration's
/// nominal depth (found through threat extensions or quiescence): deepening on for that would
/// cost each deeper iteration in full for a shorter win of the same game, so it stops at once.
#[must_use]
pub fn is_proven(score: Score) -> bool {
    score.is_decisive()
}

/// A fixed-depth root search that [`deepen`] can drive.
pub trait DepthSearch<M> {
    /// Searches the root `depth` plies deep; `None` if a limit interrupted the search. The
    /// searcher remembers the best move of the last completed iteration and tries it first.
    fn search_depth(&mut self, depth: u32) -> Option<Score>;
    /// The principal variation of the last completed [`DepthSearch::search_depth`].
    fn pv(&self) -> &[M];
    /// Statistics of the whole search so far (`nodes_per_depth` is filled by [`deepen`]).
    fn stats(&self) -> SearchStats;
    /// The limits being watched.
    fn watch(&self) -> &LimitWatch;
    /// The depth the last successful [`DepthSearch::search_depth`]`(depth)` completed: `depth`,
    /// unless the search took over an iteration at least as deep that another thread completed
    /// meanwhile (deepening then goes on from there).
    fn completed_depth(&self, depth: u32) -> u32 {
        depth
    }
}

/// Runs iterations `first..=last` (or a single one at `last` if `first == last`), calling
/// `on_iteration` and emitting a `tracing` event after each completed one. Returns the last
/// completed iteration, if any. `stop_when_proven` ends deepening once the score is proven
/// ([`is_proven`]); under a time limit [`should_start`] decides whether the next iteration
/// starts (the search's watch holds the hard limit itself).
pub fn deepen<M: Copy + Debug + PartialEq, S: DepthSearch<M>>(
    search: &mut S,
    first: u32,
    last: u32,
    stop_when_proven: bool,
    on_iteration: &mut dyn FnMut(&Iteration<M>),
) -> Option<Iteration<M>> {
    let mut completed: Option<Iteration<M>> = None;
    let mut nodes_per_depth = Vec::new();
    let mut nodes_before = 0;
    let mut times = Vec::new();
    // Did the best root move change from the iteration before, for the last two iterations?
    let mut changed = [false; 2];
    let mut next = first;
    while next <= last {
        if let (Some(_), Some(limit)) = (&completed, search.watch().time_limit()) {
            let elapsed = search.watch().elapsed().as_secs_f64();
            let changes = u32::from(changed[0]) + u32::from(changed[1]);
            if !should_start(elapsed, limit.as_secs_f64(), &times, changes) {
                break;
            }
        }
        let started = search.watch().elapsed();
        let Some(score) = search.search_depth(next) else {
            break;
        };
        let depth = search.completed_depth(next).clamp(next, last);
        next = depth + 1;
        times.push((search.watch().elapsed() - started).as_secs_f64());
        let mut stats = search.stats();
        nodes_per_depth.resize(depth as usize - 1, 0);
        nodes_per_depth.push(stats.nodes - nodes_before);
        nodes_before = stats.nodes;
        stats.nodes_per_depth.clone_from(&nodes_per_depth);
        let iteration = Iteration {
            depth,
            seldepth: stats.seldepth,
            score,
            pv: Pv::from_slice(search.pv()),
            stats,
        };
        tracing::debug!(
            depth,
            score = %iteration.score,
            nodes = iteration.stats.nodes,
            pv_len = iteration.pv.len(),
            "iteration complete"
        );
        on_iteration(&iteration);
        let previous = completed.as_ref().and_then(|it| it.pv.first());
        changed = [
            changed[1],
            previous.is_some() && previous != iteration.pv.first(),
        ];
        completed = Some(iteration);
        if stop_when_proven && is_proven(score) {
            break;
        }
    }
    completed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake search: depth d scores d, is interrupted at `fail_at`, proves a win at `win_at`.
    struct Fake {
        watch: LimitWatch,
        nodes: u64,
        fail_at: u32,
        win_at: u32,
        /// A search asked for this depth completes two deeper (taken over from another thread).
        jump_at: u32,
        /// The plies of the proven result from `win_at` on (0: `win_at` itself).
        proof_plies: u32,
        /// The proven result is a loss, not a win.
        losing: bool,
        pv: Vec<u32>,
    }

    impl DepthSearch<u32> for Fake {
        fn search_depth(&mut self, depth: u32) -> Option<Score> {
            self.nodes += u64::from(depth) * 10;
            if depth == self.fail_at {
                return None;
            }
            self.pv = (0..depth).collect();
            let plies = if self.proof_plies > 0 {
                self.proof_plies
            } else {
                self.win_at
            };
            Some(if depth >= self.win_at && self.losing {
                Score::loss_in(plies)
            } else if depth >= self.win_at {
                Score::win_in(plies)
            } else {
                Score::cp(depth as i32)
            })
        }
        fn pv(&self) -> &[u32] {
            &self.pv
        }
        fn stats(&self) -> SearchStats {
            SearchStats {
                nodes: self.nodes,
                ..SearchStats::default()
            }
        }
        fn watch(&self) -> &LimitWatch {
            &self.watch
        }
        fn completed_depth(&self, depth: u32) -> u32 {
            if depth == self.jump_at {
                depth + 2
            } else {
                depth
            }
        }
    }

    fn fake(fail_at: u32, win_at: u32) -> Fake {
        Fake {
            watch: LimitWatch::new(&SearchLimits::default()),
            nodes: 0,
            fail_at,
            win_at,
            jump_at: 0,
            proof_plies: 0,
            losing: false,
            pv: Vec::new(),
        }
    }

    #[test]
    fn keeps_last_completed_iteration() {
        let mut seen = Vec::new();
        let it = deepen(&mut fake(4, 99), 1, 9, false, &mut |i| seen.push(i.depth)).unwrap();
        assert_eq!(seen, [1, 2, 3]);
        assert_eq!((it.depth, it.score, it.pv.len()), (3, Score::cp(3), 3));
        assert_eq!(it.stats.nodes_per_depth, [10, 20, 30]);
        assert!(deepen(&mut fake(1, 99), 1, 9, false, &mut |_| {}).is_none());
    }

    #[test]
    fn a_taken_over_iteration_skips_depths() {
        let mut search = fake(99, 99);
        search.jump_at = 3;
        let mut seen = Vec::new();
        let it = deepen(&mut search, 1, 9, false, &mut |i| seen.push(i.depth)).unwrap();
        assert_eq!(seen, [1, 2, 5, 6, 7, 8, 9]);
        assert_eq!(it.depth, 9);
        // The skipped depths count no nodes of their own.
        assert_eq!(it.stats.nodes_per_depth[..5], [10, 20, 0, 0, 30]);
        // A jump past the last depth stops at it.
        let mut search = fake(99, 99);
        search.jump_at = 8;
        let it = deepen(&mut search, 1, 9, false, &mut |_| {}).unwrap();
        assert_eq!(it.depth, 9);
    }

    #[test]
    fn predicts_from_growth() {
        assert_eq!(predict_next(&[]), 0.0);
        assert!((predict_next(&[0.01]) - 0.04).abs() < 1e-12);
        assert!((predict_next(&[0.01, 0.03]) - 0.09).abs() < 1e-12);
        // Growth is clamped both ways.
        assert!((predict_next(&[0.01, 0.011]) - 0.011 * MIN_GROWTH).abs() < 1e-12);
        assert!((predict_next(&[0.001, 0.1]) - 0.1 * MAX_GROWTH).abs() < 1e-12);
    }

    #[test]
    fn single_depth_and_proof_stop() {
        let it = deepen(&mut fake(99, 99), 5, 5, false, &mut |_| {}).unwrap();
        assert_eq!(it.stats.nodes_per_depth, [0, 0, 0, 0, 50]);
        let it = deepen(&mut fake(99, 3), 1, 9, true, &mut |_| {}).unwrap();
        assert_eq!(it.depth, 3);
        let it = deepen(&mut fake(99, 3), 1, 9, false, &mut |_| {}).unwrap();
        assert_eq!(it.depth, 9);
    }

    #[test]
    fn a_proof_beyond_the_nominal_depth_ends_deepening_too() {
        // From depth 3 on the fake proves a win in 8 plies, further than the iteration's depth
        // (as threat extensions find them): deepening stops there when asked to.
        let mut search = fake(99, 3);
        search.proof_plies = 8;
        let mut seen = Vec::new();
        let it = deepen(&mut search, 1, 30, true, &mut |i| seen.push(i.depth)).unwrap();
        assert_eq!(seen, [1, 2, 3]);
        assert_eq!(it.score, Score::win_in(8));
        // Not asked (a fixed depth for the consistency checks): every depth is searched.
        let mut search = fake(99, 3);
        search.proof_plies = 8;
        let it = deepen(&mut search, 1, 12, false, &mut |_| {}).unwrap();
        assert_eq!((it.depth, it.score), (12, Score::win_in(8)));
        // A loss ends it the same way.
        let mut search = fake(99, 2);
        search.proof_plies = 9;
        search.losing = true;
        let it = deepen(&mut search, 1, 30, true, &mut |_| {}).unwrap();
        assert_eq!((it.depth, it.score), (2, Score::loss_in(9)));
    }

    #[test]
    fn below_the_soft_limit_an_iteration_starts_even_if_it_cannot_finish() {
        // 0.5 s into a 1 s limit, the last iteration took 0.3 s after 0.1 s: the next one
        // (0.9 s predicted) cannot finish. Below the soft limit it starts anyway (the hard
        // limit cuts it, its partial result counts).
        let times = [0.1, 0.3];
        assert!(soft_share(0) > 0.5);
        assert!(should_start(0.5, 1.0, &times, 0));
        // Past the soft limit it starts only an iteration predicted to finish in time.
        let late = soft_share(0) + 0.01;
        assert!(!should_start(late, 1.0, &times, 0));
        assert!(should_start(late, 1.0, &[0.01, 0.02], 0));
        // Never at or after the limit.
        assert!(!should_start(1.0, 1.0, &[0.0, 0.0], 2));
    }

    #[test]
    fn an_unstable_best_move_stretches_the_soft_limit() {
        assert!((soft_share(0) - SOFT_SHARE).abs() < 1e-12);
        assert!(soft_share(1) > soft_share(0));
        assert!(soft_share(2) > soft_share(1));
        assert!(soft_share(2) <= 1.0);
        // Between the stable and the unstable soft limits, with a next iteration that cannot
        // finish: only a best move that changed lately earns it.
        let times = [0.1, 0.4];
        let between = (soft_share(0) + soft_share(1)) / 2.0;
        assert!(!should_start(between, 1.0, &times, 0));
        assert!(should_start(between, 1.0, &times, 1));
        let later = (soft_share(1) + soft_share(2)) / 2.0;
        assert!(!should_start(later, 1.0, &times, 1));
        assert!(should_start(later, 1.0, &times, 2));
    }

    #[test]
    fn the_hard_limit_keeps_a_margin() {
        assert_eq!(
            hard_margin(Duration::from_millis(100)),
            Duration::from_millis(2)
        );
        assert_eq!(hard_margin(Duration::from_secs(10)), MAX_HARD_MARGIN);
        let limits = SearchLimits::time(Duration::from_millis(100));
        let hard = hard_limits(&limits);
        assert_eq!(hard.time, Some(Duration::from_millis(98)));
        // Other limits pass unchanged.
        let depth = hard_limits(&SearchLimits::depth(7));
        assert_eq!((depth.depth, depth.time), (Some(7), None));
    }

    /// Best moves of the fake per depth: changes at depths 3 and 4.
    struct Wobbly {
        inner: Fake,
    }

    impl DepthSearch<u32> for Wobbly {
        fn search_depth(&mut self, depth: u32) -> Option<Score> {
            let score = self.inner.search_depth(depth);
            self.inner.pv = vec![match depth {
                3 => 7,
                4.. => 8,
                _ => 1,
            }];
            score
        }
        fn pv(&self) -> &[u32] {
            &self.inner.pv
        }
        fn stats(&self) -> SearchStats {
            self.inner.stats()
        }
        fn watch(&self) -> &LimitWatch {
            &self.inner.watch
        }
    }

    #[test]
    fn deepening_without_a_time_limit_ignores_the_clock_and_tracks_best_moves() {
        // Depth-only: every iteration runs (deterministic).
        let mut search = Wobbly {
            inner: fake(99, 99),
        };
        let mut best = Vec::new();
        let it = deepen(&mut search, 1, 6, true, &mut |i| best.push(i.pv[0])).unwrap();
        assert_eq!(it.depth, 6);
        assert_eq!(best, [1, 1, 7, 8, 8, 8]);
    }
}
