//! Running the workers of one search until its budget is spent: root parallelism (each worker
//! on its own tree), with the progress reports of the main worker.
//!
//! Key invariants:
//! - a worker checks the budget between iterations only, so every iteration it starts is
//!   finished and counted (a node limit may be passed by one iteration per worker);
//! - an iteration limit applies to each tree;
//! - a proven root stops every worker: the first to see it raises the shared `proven` flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::config::MctsConfig;
use super::playout::{PlayoutPolicy, score_of_probability};

use super::selection::{most_visited_child, pv_line};
use super::stats::MctsStats;
use super::tree::Tree;
use super::worker::Worker;
use crate::eval::{Evaluator, Score};
use crate::game::Game;
use crate::search::Pv;
use crate::search::limits::SearchLimits;
use crate::solve::Probe;

/// Iterations of the first progress report of the main worker; the next ones come at each
/// doubling.
const FIRST_REPORT: u64 = 1024;

/// When a worker must stop.
pub(super) struct Budget<'a> {
    /// The iteration limit of each tree.
    pub iterations: Option<u64>,
    /// The node limit of each worker.
    pub nodes: Option<u64>,
    /// When the search must end.
    pub deadline: Option<Instant>,
    /// The search limits (for the stop flag).
    pub limits: &'a SearchLimits,
    /// Raised once a worker has seen its root proven.
    pub proven: &'a AtomicBool,
}

impl Budget<'_> {
    /// Must a worker with counters `stats` stop (its root proven or not)?
    pub fn is_spent(&self, stats: &MctsStats, root_proven: bool) -> bool {
        if root_proven {
            self.proven.store(true, Ordering::Relaxed);
            return true;
        }
        if self.nodes.is_some_and(|n| stats.nodes >= n)
            || self.proven.load(Ordering::Relaxed)
            || self.limits.is_stop_raised()
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            return true;
        }
        self.iterations.is_some_and(|n| stats.iterations >= n)
    }
}

/// What a search runs with, shared by its workers.
pub(super) struct Setting<'a, G: Game> {
    /// The root position.
    pub state: &'a G,
    /// The settings.
    pub config: &'a MctsConfig,
    /// Scores cut-off playouts.
    pub evaluator: &'a dyn Evaluator<G>,
    /// Picks playout moves.
    pub policy: &'a dyn PlayoutPolicy<G>,
    /// Endgame tables: a tree node they hold is proven with their value.
    pub tables: Option<&'a dyn Probe<G>>,
}

impl<G: Game> Clone for Setting<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Setting<'_, G> {}

/// Runs `worker` on its own tree until `budget` is spent, calling `report` with its counters
/// and tree at 1024, 2048, 4096… iterations.
pub(super) fn run_root<G: Game>(
    worker: &mut Worker<G>,
    setting: Setting<'_, G>,
    budget: &Budget<'_>,
    mut report: impl FnMut(&MctsStats, &Tree<G::Move>),
) {
    let Setting {
        state,
        config,
        evaluator,
        policy,
        tables,
    } = setting;
    let mut next_report = FIRST_REPORT;
    while !budget.is_spent(&worker.stats, worker.tree.node(0).proof.is_some()) {
        worker.iterate(state, config, evaluator, policy, tables);
        if worker.stats.iterations == next_report {
            next_report *= 2;
            report(&worker.stats, &worker.tree);
        }
    }
}

/// The best move, score and line of one tree as it stands, for progress reports during a
/// search (the final answer merges the trees of root parallelism).
pub(super) fn snapshot<M: Copy>(tree: &Tree<M>, eval_scale: f64) -> (Option<M>, Score, Pv<M>) {
    match most_visited_child(tree, 0) {
        Some(child) => {
            let side = tree.node(0).side;
            let node = tree.node(child);
            let score = node
                .proof_for(side)
                .unwrap_or_else(|| score_of_probability(node.mean(), eval_scale));
            (node.mv, score, pv_line(tree, child))
        }
        None => (None, Score::DRAW, Pv::new()),
    }
}
