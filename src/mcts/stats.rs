//! MCTS-specific counters of one search (the generic ones also go to
//! [`crate::search::SearchStats`]).
//!
//! Key invariant: `nodes` counts every position made by `Game::play` (tree descents, playout
//! plies and the look-ahead of heavy playouts), the same meaning as `SearchStats::nodes`, so the
//! node limit of [`crate::search::SearchLimits`] means the same for MCTS as for alpha-beta.

use crate::search::SearchStats;

/// Counters of one MCTS search (summed over the trees of a parallel search).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MctsStats {
    /// Iterations (select, expand, playout, backpropagate) completed.
    pub iterations: u64,
    /// Playouts started (iterations that ended on a proven node need none).
    pub playouts: u64,
    /// Plies played inside playouts.
    pub playout_plies: u64,
    /// Positions made (tree descents, playout plies, heavy-playout look-ahead).
    pub nodes: u64,
    /// Leaves scored: playouts plus finished positions met in the tree.
    pub leaves: u64,
    /// Nodes allocated in the tree(s) at the end.
    pub tree_nodes: usize,
    /// Visits the root had at the start, kept from the previous search (tree reuse).
    pub reused_visits: u64,
    /// Times a leaf was not expanded because the node budget was reached.
    pub budget_hits: u64,
    /// The deepest tree ply a descent reached (playouts not included).
    pub seldepth: u32,
    /// Tree nodes proven by endgame tables ([`crate::search::Searcher::set_endgame_tables`]).
    pub endgame_hits: u64,
}

impl MctsStats {
    /// These counters as a search's statistics, `elapsed` after the search started.
    pub(crate) fn search_stats(&self, elapsed: std::time::Duration) -> SearchStats {
        SearchStats {
            nodes: self.nodes,
            leaves: self.leaves,
            seldepth: self.seldepth,
            elapsed,
            endgame_hits: self.endgame_hits,
            ..SearchStats::default()
        }
    }

    /// Adds the counters of another tree (maxima for depth).
    pub fn merge(&mut self, other: &MctsStats) {
        self.iterations += other.iterations;
        self.playouts += other.playouts;
        self.playout_plies += other.playout_plies;
        self.nodes += other.nodes;
        self.leaves += other.leaves;
        self.tree_nodes += other.tree_nodes;
        self.reused_visits += other.reused_visits;
        self.budget_hits += other.budget_hits;
        self.endgame_hits += other.endgame_hits;
        self.seldepth = self.seldepth.max(other.seldepth);
    }
}
