//! The settings of an MCTS search, with documented defaults.
//!
//! Key invariant: every field has a meaning independent of the game; the defaults are a
//! reasonable start for any game plies plays (a playout cut-off keeps games that can cycle
//! finite, the node budget keeps memory bounded).

/// How an [`super::Mcts`] searches.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// The UCT exploration constant `c` in `mean + c * sqrt(ln N / n)`, rewards being 0..=1.
    /// Default 1.0.
    pub exploration: f64,
    /// Plies a playout may play before it is cut off and scored by the evaluator (0 = score
    /// every new leaf by the evaluator at once). Default 40.
    pub playout_cutoff: u32,
    /// The logistic scale, in evaluator units, that maps a score to a win probability
    /// ([`super::win_probability`]) and the root's win rate back to a score. Default 200.
    pub eval_scale: f64,
    /// The node budget of each tree: once the arena holds this many nodes, no node is expanded
    /// any more (the search goes on with playouts from the leaves it has), so memory stays
    /// bounded (roughly 40–60 bytes a node). The root is always expanded. Default 1 000 000.
    pub max_nodes: usize,
    /// Threads searching at once, by root parallelism: each thread grows its own tree from its
    /// own seed; the root statistics are summed at the end (no locking; the trees repeat each
    /// other's work). Default 1.
    pub threads: usize,
    /// The seed of the random generators (tree `t` uses a seed derived from it and `t`).
    pub seed: u64,
    /// Keep the subtree of the new root between searches when it is found in the old tree.
    /// Default true.
    pub reuse_tree: bool,
    /// Iterations a search runs when its limits give neither nodes, time nor a stop flag (a
    /// depth limit alone does not bound MCTS). Default 10 000.
    pub default_iterations: u64,
    /// An iteration limit applied on top of the search limits, per tree (each thread's tree
    /// runs this many). Default none.
    pub max_iterations: Option<u64>,
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            exploration: 1.0,
            playout_cutoff: 40,
            eval_scale: 200.0,
            max_nodes: 1_000_000,
            threads: 1,
            seed: 0x5EED_0F7E_E5ED,
            reuse_tree: true,
            default_iterations: 10_000,
            max_iterations: None,
        }
    }
}

impl MctsConfig {
    /// The default configuration with exactly `iterations` iterations per search (per tree).
    #[must_use]
    pub fn iterations(iterations: u64) -> MctsConfig {
        MctsConfig {
            max_iterations: Some(iterations),
            ..MctsConfig::default()
        }
    }

    /// The same configuration searching with `threads` threads (see [`MctsConfig::threads`]).
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> MctsConfig {
        self.threads = threads;
        self
    }

    /// The same configuration with another seed.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> MctsConfig {
        self.seed = seed;
        self
    }
}
