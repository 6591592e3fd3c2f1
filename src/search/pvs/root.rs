//! [`super::Pvs`] as a [`Searcher`]: prepares the tables, runs iterative deepening on one thread
//! (or on several, [`super::parallel`]) and turns the last completed iteration into the answer.
//!
//! Key invariants: with one thread (the default) the search is exactly the deterministic
//! single-threaded one, with no shared counters or extra threads; the answer is that of the
//! last completed iteration, unless the interrupted one had already proved another root move
//! better (see the module docs of [`super`]).

use super::Pvs;
use super::thread::ThreadSearch;
use crate::eval::{Evaluator, Score};
use crate::game::{Game, GameHistory};
use crate::search::iterative::{DepthSearch, deepen, hard_limits};
use crate::search::limits::LimitWatch;
use crate::search::limits::SearchLimits;
use crate::search::searcher::{Iteration, Pv, SearchResult, Searcher, SearcherError};
use crate::search::stack::MAX_DEPTH;
use crate::search::stats::SearchStats;
use crate::solve::Probe;
use std::sync::Arc;

/// The most threads one search may use.
pub const MAX_THREADS: usize = 256;

/// The first and last iteration depths for `limits`.
pub(super) fn depth_range(limits: &SearchLimits, iterative_deepening: bool) -> (u32, u32) {
    match (limits.depth, iterative_deepening) {
        (Some(depth), true) => (1, depth.clamp(1, MAX_DEPTH)),
        (Some(depth), false) => (depth.clamp(1, MAX_DEPTH), depth.clamp(1, MAX_DEPTH)),
        (None, true) => (1, MAX_DEPTH),
        (None, false) => (SearchLimits::DEFAULT_DEPTH, SearchLimits::DEFAULT_DEPTH),
    }
}

/// The answer from the last completed iteration (if any), the best root move of an interrupted
/// one (`partial`: move, value, and whether it was the first move searched) and the statistics.
pub(super) fn answer<G: Game, E: Evaluator<G>>(
    state: &G,
    evaluator: &E,
    completed: Option<Iteration<G::Move>>,
    partial: Option<(G::Move, Score, bool)>,
    unkept: &[G::Move],
    mut stats: SearchStats,
) -> SearchResult<G::Move> {
    // An interrupted iteration that already proved another root move better than the
    // previous best (it raised alpha after the first move) overrides it.
    match (completed, partial) {
        (Some(iteration), Some((mv, score, false))) => {
            stats.nodes_per_depth = iteration.stats.nodes_per_depth;
            SearchResult {
                best_move: Some(mv),
                score,
                pv: Pv::from_slice(&[mv]),
                depth: iteration.depth,
                stats,
            }
        }
        (Some(iteration), _) => {
            stats.nodes_per_depth = iteration.stats.nodes_per_depth;
            SearchResult {
                best_move: iteration.pv.first().copied(),
                score: iteration.score,
                pv: iteration.pv,
                depth: iteration.depth,
                stats,
            }
        }
        (None, partial) => {
            // Not even one iteration finished: the best root move seen, or any legal move that
            // keeps a win the tables give the root (`unkept`: those that do not).
            let mut moves = Vec::new();
            state.generate_moves(&mut moves);
            let any = moves
                .iter()
                .find(|mv| !unkept.contains(mv))
                .or(moves.first());
            SearchResult {
                best_move: partial.map(|(mv, _, _)| mv).or(any.copied()),
                score: partial.map_or_else(|| evaluator.evaluate(state), |p| p.1),
                pv: Pv::new(),
                depth: 0,
                stats,
            }
        }
    }
}

impl<G: Game, E: Evaluator<G>> Searcher<G> for Pvs<G, E> {
    fn name(&self) -> String {
        self.config.to_string()
    }

    fn has_transposition_table(&self) -> bool {
        self.tt.is_some()
    }

    fn search_with(
        &mut self,
        state: &G,
        history: &GameHistory,
        limits: &SearchLimits,
        on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        // The search stops at the policy's hard limit (the budget minus a safety margin).
        let limits = &hard_limits(limits);
        let watch = LimitWatch::new(limits);
        if let Some(outcome) = state.outcome() {
            return SearchResult::game_over(outcome, state.side_to_move());
        }
        // A new generation in the transposition table, aged history, fresh killers.
        if let Some(tt) = &self.tt {
            tt.new_search();
        }
        let bound = state.move_index_bound();
        self.ordering.prepare(bound);
        let (first, last) = depth_range(limits, self.config.iterative_deepening);
        // A proven win or loss seen in full ends deepening; before a depth limit only if asked.
        let stop_when_proven = limits.depth.is_none() || limits.stop_when_proven;
        if self.config.threads > 1 {
            return self.search_threads(
                (state, history.before(state)),
                limits,
                watch,
                (first, last),
                on_iteration,
            );
        }
        let mut run = ThreadSearch::new(
            state,
            &self.evaluator,
            self.config,
            self.tt.as_deref(),
            &mut self.ordering,
            watch,
            last,
        );
        run.iteration.multipv = limits.multipv;
        run.track_repetitions(history.before(state));
        run.use_endgame(self.endgame.as_deref());
        let completed = deepen(&mut run, first, last, stop_when_proven, on_iteration);
        let stats = run.stats();
        let partial = run.iteration.best.filter(|_| run.aborted);
        answer(
            state,
            &self.evaluator,
            completed,
            partial,
            &run.iteration.unkept,
            stats,
        )
    }

    fn supports_endgame_tables(&self) -> bool {
        true
    }

    fn set_endgame_tables(
        &mut self,
        tables: Option<Arc<dyn Probe<G>>>,
    ) -> Result<(), SearcherError> {
        self.endgame = tables;
        Ok(())
    }

    fn clear(&mut self) {
        if let Some(tt) = &self.tt {
            tt.clear();
        }
        self.ordering.clear();
        for helper in &mut self.helpers {
            helper.clear();
        }
    }

    fn set_threads(&mut self, threads: usize) -> Result<(), SearcherError> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(SearcherError::Threads {
                threads,
                max: MAX_THREADS,
            });
        }
        self.config.threads = threads;
        Ok(())
    }
}
