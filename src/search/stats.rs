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
