//! Search statistics: counts every searcher keeps, reported per iteration and at the end.
//!
//! Key invariant: `nodes` counts every position made by `Game::play` during the search (root
//! excluded, quiescence included) — the same number perft would count for a full-width tree.

use std::time::Duration;

/// Counters of one search. Fields a searcher does not use stay zero.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Positions made (root excluded, quiescence included).
    pub nodes: u64,
    /// Of those, positions made in quiescence search.
    pub qnodes: u64,
    /// Positions scored by the evaluator or as finished games.
    pub leaves: u64,
    /// Transposition-table probes.
    pub tt_probes: u64,
    /// Probes that found the position.
    pub tt_hits: u64,
    /// Probes whose entry alone answered the node (a cutoff without searching).
    pub tt_cutoffs: u64,
    /// Share of table slots in use at the end, 0.0..=1.0 (0 without a table).
    pub tt_fill: f64,
    /// Beta cutoffs.
    pub cutoffs: u64,
    /// Beta cutoffs made by the first move tried (a measure of move ordering).
    pub first_move_cutoffs: u64,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Wall-clock time spent.
    pub elapsed: Duration,
    /// Nodes searched by each completed iteration (index 0 = depth 1), for branching factors.
    pub nodes_per_depth: Vec<u64>,
    /// Table probes by remaining depth (index = depth).
    pub tt_probes_by_depth: Vec<u64>,
    /// Table hits by remaining depth (index = depth).
    pub tt_hits_by_depth: Vec<u64>,
    /// Share of table slots holding entries of this search, by stored depth (index = depth).
    pub tt_fill_by_depth: Vec<f64>,
    /// Full-width nodes whose search found a best move (one that raised alpha).
    pub best_move_nodes: u64,
    /// Of those, the nodes where the best move was the first one searched.
    pub best_move_first: u64,
    /// Moves searched with a late-move reduction first.
    pub reductions: u64,
    /// Positions scored from endgame tables instead of searched
    /// ([`crate::search::Searcher::set_endgame_tables`]).
    pub endgame_hits: u64,
    /// With several search threads, the nodes of each (main thread first; they sum to `nodes`);
    /// empty for a one-thread search. The main thread's share is a measure of the speed-up:
    /// it decides when the search ends.
    pub thread_nodes: Vec<u64>,
}

impl SearchStats {
    /// Positions per second.
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.nodes as f64 / secs
        } else {
            0.0
        }
    }

    /// Share of table probes that found their position, 0.0..=1.0.
    #[must_use]
    pub fn tt_hit_rate(&self) -> f64 {
        if self.tt_probes == 0 {
            0.0
        } else {
            self.tt_hits as f64 / self.tt_probes as f64
        }
    }

    /// How often the first move searched was the best one (of the nodes that found a best move),
    /// 0.0..=1.0: a measure of move ordering.
    #[must_use]
    pub fn best_move_hit_rate(&self) -> f64 {
        if self.best_move_nodes == 0 {
            0.0
        } else {
            self.best_move_first as f64 / self.best_move_nodes as f64
        }
    }

    /// Table hit rate by remaining depth (index = depth; 0.0 where nothing was probed).
    #[must_use]
    pub fn tt_hit_rate_by_depth(&self) -> Vec<f64> {
        self.tt_probes_by_depth
            .iter()
            .zip(&self.tt_hits_by_depth)
            .map(|(&probes, &hits)| {
                if probes == 0 {
                    0.0
                } else {
                    hits as f64 / probes as f64
                }
            })
            .collect()
    }

    /// The branching factor of each iteration: its nodes over those of the iteration before
    /// (index 0 = depth 2 over depth 1; `None` where the earlier count is zero).
    #[must_use]
    pub fn branching_factors(&self) -> Vec<Option<f64>> {
        self.nodes_per_depth
            .windows(2)
            .map(|pair| (pair[0] > 0).then(|| pair[1] as f64 / pair[0] as f64))
            .collect()
    }

    /// The effective branching factor: nodes of the last iteration over those of the one
    /// before, when there are two.
    #[must_use]
    pub fn branching_factor(&self) -> Option<f64> {
        let n = self.nodes_per_depth.len();
        if n < 2 || self.nodes_per_depth[n - 2] == 0 {
            return None;
        }
        Some(self.nodes_per_depth[n - 1] as f64 / self.nodes_per_depth[n - 2] as f64)
    }
}
