//! [`Mcts`]: the Monte-Carlo tree searcher behind the [`Searcher`] interface, with root
//! parallelism (independent trees merged at the root), tree reuse and the solver's answers.
//!
//! Key invariants:
//! - limits: `SearchLimits::nodes` bounds the positions made (tree descents plus playout plies,
//!   the same count as [`SearchStats::nodes`]), checked between iterations, so a search may pass
//!   it by one iteration; `time` and `stop` are checked between iterations too; `depth` does not
//!   bound MCTS (with no other limit, [`MctsConfig::default_iterations`] apply);
//! - one thread and a node or iteration limit give the same move, score and node count for the
//!   same seed and the same sequence of searches (tree reuse included);
//! - a proven root ends the search at once and is reported as `Score::win_in(n)` /
//!   `Score::loss_in(n)` (`n` plies from the root along the proof) or a draw.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::config::MctsConfig;
use super::parallel::{Budget, Setting, run_root, snapshot};
use super::playout::{LightPlayout, PlayoutPolicy, score_of_probability};
use super::selection::pv_line;
use super::stats::MctsStats;
use super::tree::Tree;
use super::worker::Worker;
use crate::eval::{Evaluator, Score};
use crate::game::{Game, GameHistory};
use crate::rng::SplitMix64;
use crate::search::limits::SearchLimits;
use crate::search::searcher::{Iteration, Pv, SearchResult, Searcher, SearcherError};
use crate::search::stats::SearchStats;
use crate::solve::Probe;

/// What the search knows about one root move (merged over the trees).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RootChild<M> {
    /// The move.
    pub mv: M,
    /// Playouts through it.
    pub visits: u64,
    /// Their mean reward (0..=1) for the side to move at the root.
    pub mean: f64,
    /// Its proven value for the side to move at the root, distance counted from the root.
    pub proof: Option<Score>,
}

/// Monte-Carlo tree search (UCT with an MCTS-solver) over any [`Game`], scoring cut-off
/// playouts with an [`Evaluator`].
pub struct Mcts<G: Game, E> {
    evaluator: E,
    config: MctsConfig,
    policy: Arc<dyn PlayoutPolicy<G>>,
    pub(super) workers: Vec<Worker<G>>,
    last: MctsStats,
    /// Endgame tables, when set ([`Searcher::set_endgame_tables`]).
    endgame: Option<Arc<dyn Probe<G>>>,
}

impl<G: Game, E: Evaluator<G>> Mcts<G, E> {
    /// An MCTS with light (uniform random) playouts.
    #[must_use]
    pub fn new(evaluator: E, config: MctsConfig) -> Mcts<G, E> {
        Mcts {
            evaluator,
            config,
            policy: Arc::new(LightPlayout),
            workers: Vec::new(),
            last: MctsStats::default(),
            endgame: None,
        }
    }

    /// The same searcher with another playout policy (e.g. [`super::HeavyPlayout`] or a game's
    /// own).
    #[must_use]
    pub fn with_policy(mut self, policy: impl PlayoutPolicy<G> + 'static) -> Mcts<G, E> {
        self.policy = Arc::new(policy);
        self
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// The MCTS counters of the last search.
    #[must_use]
    pub fn last_stats(&self) -> &MctsStats {
        &self.last
    }

    /// The root moves of the last search with their merged statistics, in tree order.
    #[must_use]
    pub fn root_children(&self) -> Vec<RootChild<G::Move>> {
        let Some(first) = self.workers.first() else {
            return Vec::new();
        };
        let side = first.tree.node(0).side;
        first
            .tree
            .children(0)
            .enumerate()
            .map(|(k, child)| {
                let mut visits = 0u64;
                let mut value = 0.0;
                let mut proof = None;
                for worker in &self.workers {
                    let Some(index) = worker.tree.children(0).nth(k) else {
                        continue;
                    };
                    let node = worker.tree.node(index);
                    visits += u64::from(node.visits);
                    value += node.value;
                    proof = proof.or(node.proof_for(side));
                }
                RootChild {
                    mv: first.tree.node(child).mv.expect("a child has a move"),
                    visits,
                    mean: if visits == 0 {
                        0.5
                    } else {
                        value / visits as f64
                    },
                    proof,
                }
            })
            .collect()
    }

    /// The seed of tree `index`.
    fn seed(&self, index: usize) -> u64 {
        SplitMix64::step(self.config.seed ^ (index as u64).wrapping_mul(0xA076_1D64_78BD_642F)).1
    }

    /// Best move, score and principal variation from the trees as they are.
    fn answer(&self) -> (Option<G::Move>, Score, Pv<G::Move>) {
        let proving = self.workers.iter().find(|w| w.tree.node(0).proof.is_some());
        if let Some(worker) = proving {
            let tree = &worker.tree;
            let root = tree.node(0);
            let proof = root.proof.expect("proven");
            let child = tree
                .children(0)
                .find(|&c| tree.node(c).proof_for(root.side) == Some(proof))
                .expect("a proof comes from a child");
            return (tree.node(child).mv, proof, pv_line(tree, child));
        }
        let children = self.root_children();
        let safe = |c: &RootChild<G::Move>| !c.proof.is_some_and(|s| s.is_loss());
        let any_safe = children.iter().any(safe);
        let best = children
            .iter()
            .enumerate()
            .filter(|(_, c)| !any_safe || safe(c))
            .max_by(|(ka, a), (kb, b)| {
                (a.visits, a.mean)
                    .partial_cmp(&(b.visits, b.mean))
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(kb.cmp(ka))
            });
        let Some((k, best)) = best else {
            return (None, Score::DRAW, Pv::new());
        };
        let tree = &self.workers[0].tree;
        let child = tree
            .children(0)
            .nth(k)
            .expect("same root moves in every tree");
        let score = best
            .proof
            .unwrap_or_else(|| score_of_probability(best.mean, self.config.eval_scale));
        (Some(best.mv), score, pv_line(tree, child))
    }
}

impl<G: Game, E: Evaluator<G>> Mcts<G, E> {
    fn search_stats(&self, start: Instant) -> SearchStats {
        self.last.search_stats(start.elapsed())
    }
}

/// The iteration a search reports: its line and score, its depth the line's length (a tree has
/// no search depth).
fn iteration<M: Copy>(score: Score, pv: Pv<M>, stats: SearchStats) -> Iteration<M> {
    Iteration {
        depth: pv.len() as u32,
        seldepth: stats.seldepth,
        score,
        pv,
        more_lines: Vec::new(),
        stats,
    }
}

impl<G: Game, E: Evaluator<G>> Searcher<G> for Mcts<G, E> {
    fn name(&self) -> String {
        let policy = self.policy.name();
        if policy == "light" {
            "mcts".to_string()
        } else {
            format!("mcts-{policy}")
        }
    }

    fn supports_endgame_tables(&self) -> bool {
        true
    }

    /// A tree has no search depth: its `depth` is the principal variation's length.
    fn searches_by_depth(&self) -> bool {
        false
    }

    /// Tree nodes the tables hold are proven with their exact value (the solver takes them up
    /// the tree as it does finished games).
    fn set_endgame_tables(
        &mut self,
        tables: Option<Arc<dyn Probe<G>>>,
    ) -> Result<(), SearcherError> {
        self.endgame = tables;
        Ok(())
    }

    /// Sets the thread count (root parallelism: a tree per thread, [`MctsConfig::threads`]).
    fn set_threads(&mut self, threads: usize) -> Result<(), SearcherError> {
        if !(1..=crate::search::MAX_THREADS).contains(&threads) {
            return Err(SearcherError::Threads {
                threads,
                max: crate::search::MAX_THREADS,
            });
        }
        self.config.threads = threads;
        Ok(())
    }

    fn search_with(
        &mut self,
        state: &G,
        history: &GameHistory,
        limits: &SearchLimits,
        on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        if let Some(outcome) = state.outcome() {
            return SearchResult::game_over(outcome, state.side_to_move());
        }
        let threads = self.config.threads.max(1);
        if self.workers.len() != threads {
            self.workers = (0..threads).map(|t| Worker::new(self.seed(t))).collect();
        }
        for worker in &mut self.workers {
            worker.track_repetitions(state, history.before(state));
            worker.prepare(state, self.config.reuse_tree, self.config.max_nodes);
        }
        let unbounded = limits.nodes.is_none() && limits.time.is_none() && limits.stop.is_none();
        let proven = AtomicBool::new(false);
        let budget = Budget {
            iterations: self
                .config
                .max_iterations
                .or(unbounded.then_some(self.config.default_iterations)),
            nodes: limits.nodes.map(|n| n.div_ceil(threads as u64)),
            deadline: limits.time.map(|t| start + t),
            limits,
            proven: &proven,
        };
        let Mcts {
            evaluator,
            config,
            policy,
            workers,
            endgame,
            ..
        } = self;
        // The tables' values ignore a repetition rule: not used in such a game.
        let tables = endgame.as_deref().filter(|_| !state.has_repetition_rule());
        let (config, evaluator): (&MctsConfig, &dyn Evaluator<G>) = (config, evaluator);
        let setting = Setting {
            state,
            config,
            evaluator,
            policy: policy.as_ref(),
            tables,
        };
        let (main, others) = workers.split_at_mut(1);
        let main = &mut main[0];
        let mut report = |stats: &MctsStats, tree: &Tree<G::Move>| {
            let (_, score, pv) = snapshot(tree, config.eval_scale);
            on_iteration(&iteration(score, pv, stats.search_stats(start.elapsed())));
        };
        std::thread::scope(|scope| {
            let budget = &budget;
            for worker in others.iter_mut() {
                scope.spawn(move || run_root(worker, setting, budget, |_, _| {}));
            }
            run_root(main, setting, budget, &mut report);
        });
        let mut total = MctsStats::default();
        for worker in &self.workers {
            total.merge(&worker.stats);
        }
        self.last = total;
        let (best_move, score, pv) = self.answer();
        let last = iteration(score, pv, self.search_stats(start));
        on_iteration(&last);
        SearchResult {
            best_move,
            score,
            depth: last.depth,
            pv: last.pv,
            stats: last.stats,
        }
    }

    fn clear(&mut self) {
        self.workers.clear();
        self.last = MctsStats::default();
    }
}
