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
use crate::search::searcher::{Iteration, Pv, RootLine};
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
    /// The lines after the first of the last completed iteration (MultiPV); none by default.
    fn more_lines(&self) -> Vec<RootLine<M>> {
        Vec::new()
    }
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
            more_lines: search.more_lines(),
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
mod tests;
