//! Iterative deepening: search depth 1, 2, 3… until a limit says stop, and answer with the last
//! iteration that completed.
//!
//! Key invariants:
//! - the result is always that of a *completed* iteration (an interrupted one is thrown away,
//!   even if it had already found a better root move: simpler to reason about, and exact);
//! - without a time limit or stop flag the sequence of iterations, and so every node count, is
//!   deterministic; with a time limit an iteration is started only if it is predicted to finish:
//!   its time is estimated as the last iteration's times the growth from the one before
//!   (clamped to `MIN_GROWTH..=MAX_GROWTH`; `DEFAULT_GROWTH` after a single iteration), and it
//!   must fit in the time left. The search itself stops at the limit (the clock is read every
//!   256 positions), so a wrong prediction costs time, never the limit;
//! - without a depth limit, deepening ends early once the root score is a win or loss whose
//!   distance the last iteration saw in full (deeper iterations cannot change it).

use std::fmt::Debug;

use crate::eval::Score;
use crate::search::limits::LimitWatch;
use crate::search::{Iteration, SearchStats};

/// The deepest iteration when no depth limit is given.
pub const MAX_DEPTH: u32 = 120;

/// Predicted growth of an iteration's time over the last one, when only one is known.
const DEFAULT_GROWTH: f64 = 4.0;
/// Bounds of the predicted growth (measured growth is noisy for tiny iterations).
const MIN_GROWTH: f64 = 1.5;
/// See [`MIN_GROWTH`].
const MAX_GROWTH: f64 = 10.0;
/// Iterations shorter than this are assumed to take this long (timer noise).
const MIN_ITERATION_SECS: f64 = 1e-4;

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
    /// The longest win or loss an iteration of `depth` sees in full, so that deepening can stop
    /// once the score is decisive within it: `depth` by default; a search whose horizon nodes
    /// still find immediate wins (quiescence) sees `depth + 1`.
    fn proof_horizon(&self, depth: u32) -> u32 {
        depth
    }
    /// The depth the last successful [`DepthSearch::search_depth`]`(depth)` completed: `depth`,
    /// unless the search took over an iteration at least as deep that another thread completed
    /// meanwhile (deepening then goes on from there).
    fn completed_depth(&self, depth: u32) -> u32 {
        depth
    }
}

/// Runs iterations `first..=last` (or a single one at `last` if `first == last`), calling
/// `on_iteration` and emitting a `tracing` event after each completed one. Returns the last
/// completed iteration, if any. `stop_when_proven` ends deepening once the score is decisive and
/// fully seen.
pub fn deepen<M: Copy + Debug, S: DepthSearch<M>>(
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
    let mut next = first;
    while next <= last {
        if completed.is_some()
            && search
                .watch()
                .remaining()
                .is_some_and(|left| left.as_secs_f64() < predict_next(&times))
        {
            break;
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
            pv: search.pv().to_vec(),
            stats,
        };
        tracing::info!(
            depth,
            score = %iteration.score,
            nodes = iteration.stats.nodes,
            pv_len = iteration.pv.len(),
            "iteration complete"
        );
        on_iteration(&iteration);
        let horizon = search.proof_horizon(depth);
        let proven = score.plies_to_end().is_some_and(|plies| plies <= horizon);
        completed = Some(iteration);
        if stop_when_proven && proven {
            break;
        }
    }
    completed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchLimits;

    /// A fake search: depth d scores d, is interrupted at `fail_at`, proves a win at `win_at`.
    struct Fake {
        watch: LimitWatch,
        nodes: u64,
        fail_at: u32,
        win_at: u32,
        /// A search asked for this depth completes two deeper (taken over from another thread).
        jump_at: u32,
        pv: Vec<u32>,
    }

    impl DepthSearch<u32> for Fake {
        fn search_depth(&mut self, depth: u32) -> Option<Score> {
            self.nodes += u64::from(depth) * 10;
            if depth == self.fail_at {
                return None;
            }
            self.pv = (0..depth).collect();
            Some(if depth >= self.win_at {
                Score::win_in(self.win_at)
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
}
