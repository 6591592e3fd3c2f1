//! [`PvsConfig`]: which parts of the principal variation search are switched on, the named
//! configurations (full strength, the value-exact ladders), and the option keys a searcher
//! spec sets them with, one row per field (`pvs:tt=64,lmr=off`); a configuration prints as
//! that spec, the one name a searcher has.
//!
//! Key invariant: every rung of [`PvsConfig::consistency_ladder`] gives plain minimax's root value
//! at the same depth ([`crate::search::Minimax`]), and every rung of
//! [`PvsConfig::quiescence_ladder`] gives minimax-with-quiescence's
//! ([`crate::search::Minimax::with_quiescence`]); the agreement tests and the consistency harness
//! check both.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use crate::eval::Score;

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
    /// Search threads (Lazy SMP sharing the table, [`crate::search::Pvs`]); 1 keeps the search
    /// deterministic. More threads are value-exact in the ladders too, but their node counts
    /// and, among equal moves, their choice depend on timing.
    pub threads: usize,
}

/// `on` or `off`.
pub(crate) fn switch(on: bool) -> String {
    if on { "on" } else { "off" }.to_string()
}

/// A switch's value: `on`/`off` (also `true`/`false`, `yes`/`no`, `1`/`0`).
pub(crate) fn parse_switch(value: &str) -> Result<bool, String> {
    match value {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err("expected on or off".into()),
    }
}

/// A whole number in `range`.
pub(crate) fn parse_number<T>(value: &str, range: RangeInclusive<T>) -> Result<T, String>
where
    T: FromStr + PartialOrd + fmt::Display,
{
    value
        .parse::<T>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| format!("expected {}..={}", range.start(), range.end()))
}

/// `tt-min-depth`: `auto` or a depth.
fn parse_min_depth(value: &str) -> Result<Option<u32>, String> {
    match value {
        "auto" => Ok(None),
        _ => parse_number(value, 1..=Score::MAX_PLY)
            .map(Some)
            .map_err(|e| format!("{e} or auto")),
    }
}

/// The largest transposition table a configuration may ask for, in MB.
pub const MAX_TT_MB: usize = 65_536;

/// One option key of a PVS configuration as a searcher spec writes it (`pvs:tt=64`): its
/// name, how its value prints and how it is set from text (the error says what it expects).
pub(crate) struct PvsKey {
    pub(crate) name: &'static str,
    pub(crate) get: fn(&PvsConfig) -> String,
    pub(crate) set: fn(&mut PvsConfig, &str) -> Result<(), String>,
}

/// A [`PvsConfig`] field as a key: `key!(name, field, print, parse)`.
macro_rules! key {
    ($name:literal, $field:ident, $print:expr, $parse:expr) => {
        PvsKey {
            name: $name,
            get: |c| ($print)(c.$field),
            set: |c, text| ($parse)(text).map(|value| c.$field = value),
        }
    };
}

/// Every option key of [`PvsConfig`] but `threads` (a key every searcher family shares, kept
/// with the others in `plies::spec`), in print order.
pub(crate) const PVS_KEYS: &[PvsKey] = &[
    key!("null-window", pvs, switch, parse_switch),
    key!("tt", tt_mb, |mb: usize| mb.to_string(), |v| parse_number(
        v,
        0..=MAX_TT_MB
    )),
    key!(
        "tt-min-depth",
        tt_min_depth,
        |d: Option<u32>| d.map_or_else(|| "auto".to_string(), |d| d.to_string()),
        parse_min_depth
    ),
    key!("tt-exact", tt_exact_depth, switch, parse_switch),
    key!("killers", killers, switch, parse_switch),
    key!("history", history, switch, parse_switch),
    key!("deepening", iterative_deepening, switch, parse_switch),
    key!("quiescence", quiescence, switch, parse_switch),
    key!("mdp", mate_distance_pruning, switch, parse_switch),
    key!("lmr", late_move_reductions, switch, parse_switch),
    key!("ext", threat_extensions, switch, parse_switch),
    key!("ext-depth", extension_depth, |d: u32| d.to_string(), |v| {
        parse_number(v, 0..=Score::MAX_PLY)
    }),
];

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
            threads: 1,
        }
    }

    /// Plain PVS: table, killers, history and deepening, without quiescence, mate-distance
    /// pruning, late-move reductions and threat extensions (the baseline the full engine is
    /// compared with).
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

    /// The configurations with names of their own, which [`fmt::Display`] writes: `pvs`
    /// ([`PvsConfig::full`]), `pvs-plain` ([`PvsConfig::plain`]) and the rungs of both ladders
    /// (the consistency ladder's first rung is printed through its nearest neighbour, as `pvs`
    /// names the full search).
    #[must_use]
    pub fn named() -> Vec<(&'static str, PvsConfig)> {
        let mut list = vec![
            ("pvs", PvsConfig::full()),
            ("pvs-plain", PvsConfig::plain()),
        ];
        list.extend(
            PvsConfig::consistency_ladder()
                .into_iter()
                .chain(PvsConfig::quiescence_ladder())
                .filter(|(name, _)| *name != "pvs"),
        );
        list
    }

    /// The options whose values differ from `base`'s, as `key=value` in [`PVS_KEYS`] order
    /// (`threads` last).
    pub(crate) fn differences(&self, base: &PvsConfig) -> Vec<String> {
        let mut options: Vec<String> = PVS_KEYS
            .iter()
            .filter_map(|key| {
                let value = (key.get)(self);
                ((key.get)(base) != value).then(|| format!("{}={value}", key.name))
            })
            .collect();
        if self.threads != base.threads {
            options.push(format!("threads={}", self.threads));
        }
        options
    }
}

impl fmt::Display for PvsConfig {
    /// The configuration as a searcher spec (`plies::spec::SearcherSpec` reads it back): the
    /// named configuration ([`PvsConfig::named`]) with the fewest differing options (the first
    /// on a tie), then those options: `pvs`, `pvs:threads=2`, `pvs+tt+killers`,
    /// `pvs-plain:tt=64`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, options) = PvsConfig::named()
            .into_iter()
            .map(|(name, base)| (name, self.differences(&base)))
            .min_by_key(|(_, options)| options.len())
            .expect("there are named configurations");
        if options.is_empty() {
            write!(f, "{name}")
        } else {
            write!(f, "{name}:{}", options.join(","))
        }
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
