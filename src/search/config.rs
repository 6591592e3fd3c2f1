//! [`PvsConfig`]: which parts of the principal variation search are switched on, the named
//! configurations (full strength, the value-exact ladders) and their short names.
//!
//! Key invariant: every rung of [`PvsConfig::consistency_ladder`] gives plain minimax's root value
//! at the same depth ([`crate::search::Minimax`]), and every rung of
//! [`PvsConfig::quiescence_ladder`] gives minimax-with-quiescence's
//! ([`crate::search::Minimax::with_quiescence`]); the agreement tests and the consistency harness
//! check both.

/// Which parts of the search are switched on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PvsConfig {
    /// Null-window search of all but the first move (off: every move gets the full window).
    pub pvs: bool,
    /// Transposition-table size in MB; 0 = no table.
    pub tt_mb: usize,
    /// The table is probed and written only at nodes with at least this many plies left (1: at
    /// every node above the horizon); `None` takes the game's hint,
    /// [`crate::Game::table_min_depth`] (what the hints rest on: `docs/experiments.md`).
    pub tt_min_depth: Option<u32>,
    /// Take table cutoffs only from entries of exactly the remaining depth (value-exact against
    /// minimax); off: from entries at least that deep (stronger).
    pub tt_exact_depth: bool,
    /// Killer moves, two per ply.
    pub killers: bool,
    /// The history heuristic for quiet moves.
    pub history: bool,
    /// Search depths 1, 2, … up to the limit; off: search the depth limit directly.
    pub iterative_deepening: bool,
    /// Quiescence search at the horizon: stand pat or play noisy moves (captures and wins) until
    /// the position is quiet (value-exact against [`crate::search::Minimax::with_quiescence`]).
    pub quiescence: bool,
    /// Mate-distance pruning: a node `ply` plies deep cannot do better than a win in `ply + 1` or
    /// worse than a loss in `ply + 1`, so the window is narrowed to that (value-exact).
    pub mate_distance_pruning: bool,
    /// Threat extensions: a position whose side to move is threatened with an immediate loss
    /// ([`crate::Game::is_threatened`]) is searched one ply deeper (at most doubling the
    /// nominal depth along a line). Not value-exact (off in the ladders).
    pub threat_extensions: bool,
    /// Threat extensions are granted only at nodes with at least this many plies left (1, or 0:
    /// at every node inside the nominal depth with a ply left). Extensions near the horizon are
    /// the most numerous and the least useful (the default's measurements:
    /// `docs/experiments.md`).
    pub extension_depth: u32,
    /// Late-move reductions: at non-PV nodes at least 3 plies deep, plain quiet moves after the
    /// first three are searched one ply shallower with a null window first, and again at full
    /// depth only if they beat alpha. Not value-exact (off in the ladders).
    pub late_move_reductions: bool,
    /// Aspiration windows around the previous iteration's score (off by default: measured no
    /// better, see `docs/experiments.md`).
    pub aspiration: bool,
    /// Search threads (Lazy SMP sharing the table, [`crate::search::Pvs`]); 1 keeps the search
    /// deterministic. More threads are value-exact in the ladders too, but their node counts
    /// and, among equal moves, their choice depend on timing.
    pub threads: usize,
}

impl PvsConfig {
    /// Table size of the consistency ladders (small, so replacement gets exercised).
    const LADDER_TT_MB: usize = 4;

    /// Everything on, deeper table entries cut, 16 MB table (a larger table costs more time per
    /// position in cache and TLB misses than it saves in positions; measured in
    /// `docs/experiments.md`).
    #[must_use]
    pub fn full() -> PvsConfig {
        PvsConfig {
            pvs: true,
            tt_mb: 16,
            tt_min_depth: None,
            tt_exact_depth: false,
            killers: true,
            history: true,
            iterative_deepening: true,
            quiescence: true,
            mate_distance_pruning: true,
            late_move_reductions: true,
            threat_extensions: true,
            extension_depth: 4,
            aspiration: false,
            threads: 1,
        }
    }

    /// The core issue's plain PVS: table, killers, history and deepening, without quiescence,
    /// mate-distance pruning, late-move reductions and threat extensions (the baseline the full engine is compared with).
    #[must_use]
    pub fn plain() -> PvsConfig {
        PvsConfig {
            quiescence: false,
            mate_distance_pruning: false,
            late_move_reductions: false,
            threat_extensions: false,
            ..PvsConfig::full()
        }
    }

    /// The first rung of both ladders: null windows only.
    fn ladder_base(quiescence: bool) -> PvsConfig {
        PvsConfig {
            pvs: true,
            tt_mb: 0,
            tt_min_depth: Some(1),
            tt_exact_depth: true,
            killers: false,
            history: false,
            iterative_deepening: false,
            quiescence,
            mate_distance_pruning: false,
            late_move_reductions: false,
            threat_extensions: false,
            extension_depth: 4,
            aspiration: false,
            threads: 1,
        }
    }

    /// The cumulative rungs from `base`, named with `prefix`.
    fn ladder(
        base: PvsConfig,
        prefix: &'static [&'static str; 6],
    ) -> Vec<(&'static str, PvsConfig)> {
        let mut config = base;
        let mut ladder = vec![(prefix[0], config)];
        config.tt_mb = Self::LADDER_TT_MB;
        ladder.push((prefix[1], config));
        config.killers = true;
        ladder.push((prefix[2], config));
        config.history = true;
        ladder.push((prefix[3], config));
        config.iterative_deepening = true;
        ladder.push((prefix[4], config));
        config.mate_distance_pruning = true;
        ladder.push((prefix[5], config));
        ladder
    }

    /// The cumulative, value-exact ladder (each rung adds one part to the one before; all with
    /// `tt_exact_depth`): every rung must give plain minimax's value at the same depth.
    #[must_use]
    pub fn consistency_ladder() -> Vec<(&'static str, PvsConfig)> {
        Self::ladder(
            Self::ladder_base(false),
            &[
                "pvs",
                "pvs+tt",
                "pvs+tt+killers",
                "pvs+tt+killers+history",
                "pvs+tt+killers+history+id",
                "pvs+tt+killers+history+id+mdp",
            ],
        )
    }

    /// The same ladder with quiescence on: every rung must give
    /// [`crate::search::Minimax::with_quiescence`]'s value at the same depth.
    #[must_use]
    pub fn quiescence_ladder() -> Vec<(&'static str, PvsConfig)> {
        Self::ladder(
            Self::ladder_base(true),
            &[
                "pvs+q",
                "pvs+tt+q",
                "pvs+tt+killers+q",
                "pvs+tt+killers+history+q",
                "pvs+tt+killers+history+id+q",
                "pvs+tt+killers+history+id+mdp+q",
            ],
        )
    }

    /// The same configuration searching with `threads` threads.
    #[must_use]
    pub fn with_threads(self, threads: usize) -> PvsConfig {
        PvsConfig { threads, ..self }
    }

    /// A short name such as `pvs+tt+killers` (`ab` instead of `pvs` without null windows;
    /// `tt>=` for a table cutting with deeper entries; `+t2` and so on for more than one
    /// thread).
    #[must_use]
    pub fn name(&self) -> String {
        let mut name = String::from(if self.pvs { "pvs" } else { "ab" });
        if self.tt_mb > 0 {
            name.push_str(if self.tt_exact_depth { "+tt" } else { "+tt>=" });
        }
        for (on, part) in [
            (self.killers, "+killers"),
            (self.history, "+history"),
            (self.iterative_deepening, "+id"),
            (self.mate_distance_pruning, "+mdp"),
            (self.late_move_reductions, "+lmr"),
            (self.threat_extensions, "+ext"),
            (self.aspiration, "+asp"),
            (self.quiescence, "+q"),
        ] {
            if on {
                name.push_str(part);
            }
        }
        if self.threads > 1 {
            name.push_str(&format!("+t{}", self.threads));
        }
        name
    }
}

impl Default for PvsConfig {
    /// [`PvsConfig::full`].
    fn default() -> PvsConfig {
        PvsConfig::full()
    }
}

#[cfg(test)]
mod tests;
