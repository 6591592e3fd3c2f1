//! [`SearcherSpec`]: the one registry of searcher names. A spec is a base name with options,
//! `NAME[:key=value,...]` (e.g. `pvs`, `pvs:quiescence=off`, `mcts:threads=4`,
//! `pvs+tt+killers`); it parses from and prints to that text and builds the searcher for any
//! game and any concrete evaluator type, so the type is erased once, at the engine
//! (`Box<dyn Searcher<G>>`), and never at the evaluator of every leaf.
//!
//! Key invariants: `spec.to_string().parse() == Ok(spec)` for every spec; every name and option
//! accepted by [`SearcherSpec::from_str`] builds a searcher (all checks happen when parsing, so
//! [`SearcherSpec::build`] cannot fail); an unknown name or option is an error listing the
//! valid ones.

use std::fmt;
use std::str::FromStr;

use crate::eval::Evaluator;
use crate::game::Game;
use crate::mcts::{HeavyPlayout, Mcts, MctsConfig};
use crate::search::{AlphaBeta, MAX_THREADS, Minimax, Pvs, PvsConfig, Searcher};

/// The softmax temperature of heavy MCTS playouts (`mcts-heavy`), in evaluator units.
pub const HEAVY_TEMPERATURE: f64 = 100.0;

/// The playout cut-off of heavy MCTS playouts, in plies (heavy plies cost a position and an
/// evaluation per legal move, so their playouts are kept short).
pub const HEAVY_CUTOFF: u32 = 8;

/// The largest transposition table a spec may ask for, in MB.
pub const MAX_TT_MB: usize = 65_536;

/// A searcher and its settings, by name: what the command line's `--searcher`, the arena's
/// `--engine`, the tuner and the fuzzer take.
///
/// Base names: `minimax`, `minimax+q` (with quiescence), `alphabeta`, `pvs` (everything on,
/// [`PvsConfig::full`]), `pvs-plain` ([`PvsConfig::plain`]), the rungs of
/// [`PvsConfig::consistency_ladder`] and [`PvsConfig::quiescence_ladder`] (e.g. `pvs+tt`),
/// `mcts` (light playouts) and `mcts-heavy` (softmax playouts over the evaluator, cut off after
/// [`HEAVY_CUTOFF`] plies). `pvs-noq`, `pvs-noext` and `pvs-ext` are kept as aliases of
/// `pvs:quiescence=off`, `pvs:ext=off` and `pvs:ext=on`. Names are case-insensitive.
///
/// Options (`:key=value`, separated by `,` or `:`; switches take `on`/`off`):
/// - `pvs`: `null-window`, `tt` (MB, 0 = none), `tt-min-depth` (`auto` or plies), `tt-exact`,
///   `killers`, `history`, `deepening`, `quiescence`, `mdp`, `lmr`, `ext`, `ext-depth`,
///   `aspiration`, `threads` (the [`PvsConfig`] fields);
/// - `minimax`: `quiescence`; `mcts`: `playout` (`light` or `heavy`), `threads`;
/// - every searcher takes `threads=1`; only `pvs` and `mcts` take more.
///
/// ```
/// use plies::spec::SearcherSpec;
///
/// let spec: SearcherSpec = "PVS-noq".parse().unwrap();
/// assert_eq!(spec.to_string(), "pvs:quiescence=off");
/// assert_eq!("pvs:quiescence=off".parse::<SearcherSpec>(), Ok(spec));
/// assert!("mtdf".parse::<SearcherSpec>().unwrap_err().contains("alphabeta"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum SearcherSpec {
    /// Plain minimax ([`Minimax`]), the reference; with quiescence search if set.
    Minimax {
        /// Quiescence search at the horizon ([`Minimax::with_quiescence`]).
        quiescence: bool,
    },
    /// Alpha-beta ([`AlphaBeta`]).
    AlphaBeta,
    /// Principal variation search ([`Pvs`]) with this configuration (threads included).
    Pvs(PvsConfig),
    /// Monte-Carlo tree search ([`Mcts`]).
    Mcts {
        /// Softmax playouts over the evaluator ([`HeavyPlayout::softmax`] at
        /// [`HEAVY_TEMPERATURE`], cut off after [`HEAVY_CUTOFF`] plies) instead of light
        /// (uniformly random) ones.
        heavy: bool,
        /// Search threads.
        threads: usize,
    },
}

impl Default for SearcherSpec {
    /// `pvs`: the full principal variation search.
    fn default() -> SearcherSpec {
        SearcherSpec::Pvs(PvsConfig::full())
    }
}

/// One name a user can type: the text, the spec it stands for, and whether [`fmt::Display`]
/// may print it (aliases are only read).
struct Base {
    name: &'static str,
    spec: SearcherSpec,
    shown: bool,
}

/// Every base name, in the order the error for an unknown name lists them.
fn bases() -> Vec<Base> {
    let full = PvsConfig::full();
    let base = |name, spec, shown| Base { name, spec, shown };
    let mut list = vec![
        base("minimax", SearcherSpec::Minimax { quiescence: false }, true),
        base(
            "minimax+q",
            SearcherSpec::Minimax { quiescence: true },
            true,
        ),
        base("alphabeta", SearcherSpec::AlphaBeta, true),
        base("pvs", SearcherSpec::Pvs(full), true),
        base("pvs-plain", SearcherSpec::Pvs(PvsConfig::plain()), true),
        base(
            "pvs-noq",
            SearcherSpec::Pvs(PvsConfig {
                quiescence: false,
                ..full
            }),
            false,
        ),
        base(
            "pvs-noext",
            SearcherSpec::Pvs(PvsConfig {
                threat_extensions: false,
                ..full
            }),
            false,
        ),
        base(
            "pvs-ext",
            SearcherSpec::Pvs(PvsConfig {
                threat_extensions: true,
                ..full
            }),
            false,
        ),
        base(
            "mcts",
            SearcherSpec::Mcts {
                heavy: false,
                threads: 1,
            },
            true,
        ),
        base(
            "mcts-heavy",
            SearcherSpec::Mcts {
                heavy: true,
                threads: 1,
            },
            true,
        ),
    ];
    for (name, config) in PvsConfig::consistency_ladder()
        .into_iter()
        .chain(PvsConfig::quiescence_ladder())
    {
        // `pvs` names the full configuration; the ladder's first rung is `pvs:...` in print.
        if name != "pvs" {
            list.push(base(name, SearcherSpec::Pvs(config), true));
        }
    }
    list
}

/// `on` or `off`.
fn switch(on: bool) -> String {
    if on { "on" } else { "off" }.to_string()
}

/// A switch's value: `on`/`off` (also `true`/`false`, `yes`/`no`, `1`/`0`).
fn parse_switch(value: &str) -> Result<bool, String> {
    match value {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err("expected on or off".into()),
    }
}

/// A whole number in `range`.
fn parse_number<T>(value: &str, range: std::ops::RangeInclusive<T>) -> Result<T, String>
where
    T: FromStr + PartialOrd + fmt::Display,
{
    value
        .parse::<T>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| format!("expected {}..={}", range.start(), range.end()))
}

/// The option keys of each family, in print order.
const PVS_KEYS: [&str; 14] = [
    "null-window",
    "tt",
    "tt-min-depth",
    "tt-exact",
    "killers",
    "history",
    "deepening",
    "quiescence",
    "mdp",
    "lmr",
    "ext",
    "ext-depth",
    "aspiration",
    "threads",
];
const MINIMAX_KEYS: [&str; 1] = ["quiescence"];
const MCTS_KEYS: [&str; 2] = ["playout", "threads"];

impl SearcherSpec {
    /// The base name of the family (`minimax`, `alphabeta`, `pvs` or `mcts`).
    #[must_use]
    pub fn family(&self) -> &'static str {
        match self {
            SearcherSpec::Minimax { .. } => "minimax",
            SearcherSpec::AlphaBeta => "alphabeta",
            SearcherSpec::Pvs(_) => "pvs",
            SearcherSpec::Mcts { .. } => "mcts",
        }
    }

    /// The option keys this searcher takes (`threads` aside for the one-thread searchers).
    fn keys(&self) -> &'static [&'static str] {
        match self {
            SearcherSpec::Minimax { .. } => &MINIMAX_KEYS,
            SearcherSpec::AlphaBeta => &[],
            SearcherSpec::Pvs(_) => &PVS_KEYS,
            SearcherSpec::Mcts { .. } => &MCTS_KEYS,
        }
    }

    /// The value of option `key` as text (`key` one of [`Self::keys`]).
    fn option(&self, key: &str) -> String {
        match self {
            SearcherSpec::Minimax { quiescence } => switch(*quiescence),
            SearcherSpec::AlphaBeta => String::new(),
            SearcherSpec::Mcts { heavy, threads } => match key {
                "playout" => if *heavy { "heavy" } else { "light" }.to_string(),
                _ => threads.to_string(),
            },
            SearcherSpec::Pvs(c) => match key {
                "null-window" => switch(c.pvs),
                "tt" => c.tt_mb.to_string(),
                "tt-min-depth" => c
                    .tt_min_depth
                    .map_or_else(|| "auto".to_string(), |d| d.to_string()),
                "tt-exact" => switch(c.tt_exact_depth),
                "killers" => switch(c.killers),
                "history" => switch(c.history),
                "deepening" => switch(c.iterative_deepening),
                "quiescence" => switch(c.quiescence),
                "mdp" => switch(c.mate_distance_pruning),
                "lmr" => switch(c.late_move_reductions),
                "ext" => switch(c.threat_extensions),
                "ext-depth" => c.extension_depth.to_string(),
                "aspiration" => switch(c.aspiration),
                _ => c.threads.to_string(),
            },
        }
    }

    /// Sets option `key` to `value`, or says why not (the message does not repeat the key).
    fn set_option(&mut self, key: &str, value: &str) -> Result<(), String> {
        if key == "threads" {
            let threads = parse_number(value, 1..=MAX_THREADS)?;
            return self.set_threads(threads);
        }
        match self {
            SearcherSpec::Minimax { quiescence } if key == "quiescence" => {
                *quiescence = parse_switch(value)?;
            }
            SearcherSpec::Mcts { heavy, .. } if key == "playout" => {
                *heavy = match value {
                    "light" => false,
                    "heavy" => true,
                    _ => return Err("expected light or heavy".into()),
                };
            }
            SearcherSpec::Pvs(c) => match key {
                "null-window" => c.pvs = parse_switch(value)?,
                "tt" => c.tt_mb = parse_number(value, 0..=MAX_TT_MB)?,
                "tt-min-depth" => {
                    c.tt_min_depth = match value {
                        "auto" => None,
                        _ => Some(
                            parse_number(value, 1..=crate::eval::Score::MAX_PLY)
                                .map_err(|e| format!("{e} or auto"))?,
                        ),
                    }
                }
                "tt-exact" => c.tt_exact_depth = parse_switch(value)?,
                "killers" => c.killers = parse_switch(value)?,
                "history" => c.history = parse_switch(value)?,
                "deepening" => c.iterative_deepening = parse_switch(value)?,
                "quiescence" => c.quiescence = parse_switch(value)?,
                "mdp" => c.mate_distance_pruning = parse_switch(value)?,
                "lmr" => c.late_move_reductions = parse_switch(value)?,
                "ext" => c.threat_extensions = parse_switch(value)?,
                "ext-depth" => {
                    c.extension_depth = parse_number(value, 0..=crate::eval::Score::MAX_PLY)?
                }
                "aspiration" => c.aspiration = parse_switch(value)?,
                _ => return Err(self.unknown_key()),
            },
            _ => return Err(self.unknown_key()),
        }
        Ok(())
    }

    /// The error for a key this searcher does not take.
    fn unknown_key(&self) -> String {
        let mut keys: Vec<&str> = self.keys().to_vec();
        if !keys.contains(&"threads") {
            keys.push("threads");
        }
        format!(
            "unknown option (valid for {}: {})",
            self.family(),
            keys.join(", ")
        )
    }

    /// The search threads (1 for the one-thread searchers).
    #[must_use]
    pub fn threads(&self) -> usize {
        match self {
            SearcherSpec::Pvs(config) => config.threads,
            SearcherSpec::Mcts { threads, .. } => *threads,
            _ => 1,
        }
    }

    /// Searches with `threads` threads (1..=[`MAX_THREADS`]; minimax and alphabeta take only 1).
    ///
    /// # Errors
    /// The count is out of range or the searcher searches with one thread only.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(format!("expected 1..={MAX_THREADS} threads, not {threads}"));
        }
        match self {
            SearcherSpec::Pvs(config) => config.threads = threads,
            SearcherSpec::Mcts { threads: own, .. } => *own = threads,
            _ if threads == 1 => {}
            _ => return Err(format!("{} searches with one thread only", self.family())),
        }
        Ok(())
    }

    /// Whether a depth limit applies: MCTS grows a tree by playouts and has no search depth.
    #[must_use]
    pub fn has_depth(&self) -> bool {
        !matches!(self, SearcherSpec::Mcts { .. })
    }

    /// The searcher, with `evaluator` as its concrete evaluator type (no dynamic dispatch per
    /// evaluation; only the searcher is behind a `Box<dyn Searcher<G>>`).
    #[must_use]
    pub fn build<G: Game, E: Evaluator<G> + 'static>(&self, evaluator: E) -> Box<dyn Searcher<G>> {
        match *self {
            SearcherSpec::Minimax { quiescence: false } => Box::new(Minimax::new(evaluator)),
            SearcherSpec::Minimax { quiescence: true } => {
                Box::new(Minimax::with_quiescence(evaluator))
            }
            SearcherSpec::AlphaBeta => Box::new(AlphaBeta::new(evaluator)),
            SearcherSpec::Pvs(config) => Box::new(Pvs::new(evaluator, config)),
            SearcherSpec::Mcts { heavy, threads } => {
                let light = MctsConfig {
                    threads,
                    ..MctsConfig::default()
                };
                if heavy {
                    let config = MctsConfig {
                        playout_cutoff: HEAVY_CUTOFF,
                        ..light
                    };
                    let policy = HeavyPlayout::softmax(HEAVY_TEMPERATURE);
                    Box::new(Mcts::new(evaluator, config).with_policy(policy))
                } else {
                    Box::new(Mcts::new(evaluator, light))
                }
            }
        }
    }

    /// The options whose values differ from `base`'s (same family), as `key=value`.
    fn differences(&self, base: &SearcherSpec) -> Vec<String> {
        self.keys()
            .iter()
            .filter(|key| self.option(key) != base.option(key))
            .map(|key| format!("{key}={}", self.option(key)))
            .collect()
    }

    /// The valid base names, for error messages.
    #[must_use]
    pub fn names() -> Vec<&'static str> {
        bases().into_iter().map(|base| base.name).collect()
    }
}

impl fmt::Display for SearcherSpec {
    /// The shortest text that parses back to this spec: the printable base name of the same
    /// family with the fewest differing options (the first on a tie), then those options.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, options) = bases()
            .into_iter()
            .filter(|base| base.shown && base.spec.family() == self.family())
            .map(|base| (base.name, self.differences(&base.spec)))
            .min_by_key(|(_, options)| options.len())
            .expect("every family has a printable base");
        if options.is_empty() {
            write!(f, "{name}")
        } else {
            write!(f, "{name}:{}", options.join(","))
        }
    }
}

impl FromStr for SearcherSpec {
    type Err = String;

    /// `NAME[:key=value,...]` (case-insensitive; options separated by `,` or `:`).
    fn from_str(text: &str) -> Result<SearcherSpec, String> {
        let lower = text.trim().to_ascii_lowercase();
        let (name, options) = match lower.split_once(':') {
            Some((name, options)) => (name.trim(), Some(options)),
            None => (lower.as_str(), None),
        };
        let list = bases();
        let Some(base) = list.iter().find(|base| base.name == name) else {
            let names: Vec<&str> = list.iter().map(|base| base.name).collect();
            return Err(format!(
                "unknown searcher '{}' (valid: {}; options as NAME:key=value,...)",
                crate::notation::excerpt(name),
                names.join(", ")
            ));
        };
        let mut spec = base.spec.clone();
        for part in options.into_iter().flat_map(|o| o.split([',', ':'])) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let (key, value) = part.split_once('=').ok_or_else(|| {
                format!(
                    "searcher option '{}' is not key=value",
                    crate::notation::excerpt(part)
                )
            })?;
            spec.set_option(key.trim(), value.trim()).map_err(|e| {
                format!("searcher option '{}': {e}", crate::notation::excerpt(part))
            })?;
        }
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::testing::{PileDifference, TwoPiles};

    /// A random spec: any family, any value of every option.
    fn random_spec(rng: &mut SplitMix64) -> SearcherSpec {
        let coin = |rng: &mut SplitMix64| rng.below(2) == 1;
        match rng.below(4) {
            0 => SearcherSpec::Minimax {
                quiescence: coin(rng),
            },
            1 => SearcherSpec::AlphaBeta,
            2 => SearcherSpec::Mcts {
                heavy: coin(rng),
                threads: 1 + rng.below(MAX_THREADS),
            },
            _ => SearcherSpec::Pvs(PvsConfig {
                pvs: coin(rng),
                tt_mb: [0, 1, 4, 16, 64, MAX_TT_MB][rng.below(6)],
                tt_min_depth: [None, Some(1), Some(2), Some(7)][rng.below(4)],
                tt_exact_depth: coin(rng),
                killers: coin(rng),
                history: coin(rng),
                iterative_deepening: coin(rng),
                quiescence: coin(rng),
                mate_distance_pruning: coin(rng),
                threat_extensions: coin(rng),
                extension_depth: rng.below(9) as u32,
                late_move_reductions: coin(rng),
                aspiration: coin(rng),
                threads: 1 + rng.below(MAX_THREADS),
            }),
        }
    }

    #[test]
    fn random_specs_round_trip() {
        let mut rng = SplitMix64::new(18);
        for _ in 0..5_000 {
            let spec = random_spec(&mut rng);
            let text = spec.to_string();
            assert_eq!(text.parse::<SearcherSpec>(), Ok(spec.clone()), "{text}");
            // Upper case and `:` separators read the same.
            let shouted = text.to_ascii_uppercase().replace(',', ":");
            assert_eq!(shouted.parse::<SearcherSpec>(), Ok(spec), "{shouted}");
        }
    }

    #[test]
    fn every_name_round_trips_and_builds() {
        for name in SearcherSpec::names() {
            let spec: SearcherSpec = name.parse().unwrap();
            assert_eq!(spec.to_string().parse::<SearcherSpec>(), Ok(spec.clone()));
            let searcher = spec.build::<TwoPiles, _>(PileDifference);
            assert!(
                searcher.name().starts_with(spec.family())
                    || (spec.family() == "alphabeta" && searcher.name() == "alphabeta"),
                "{name}: {}",
                searcher.name()
            );
        }
    }

    #[test]
    fn names_mean_what_they_say() {
        let full = PvsConfig::full();
        let cases = [
            ("pvs", SearcherSpec::Pvs(full)),
            ("pvs", SearcherSpec::default()),
            (
                "pvs:quiescence=off",
                SearcherSpec::Pvs(PvsConfig {
                    quiescence: false,
                    ..full
                }),
            ),
            (
                "pvs:ext-depth=1,threads=3",
                SearcherSpec::Pvs(PvsConfig {
                    extension_depth: 1,
                    threads: 3,
                    ..full
                }),
            ),
            ("minimax+q", SearcherSpec::Minimax { quiescence: true }),
            (
                "mcts-heavy",
                SearcherSpec::Mcts {
                    heavy: true,
                    threads: 1,
                },
            ),
            (
                "mcts:threads=2",
                SearcherSpec::Mcts {
                    heavy: false,
                    threads: 2,
                },
            ),
        ];
        for (text, spec) in cases {
            assert_eq!(spec.to_string(), text);
            assert_eq!(text.parse::<SearcherSpec>(), Ok(spec));
        }
        assert_eq!(
            "pvs-noq".parse::<SearcherSpec>().unwrap().to_string(),
            "pvs:quiescence=off"
        );
        assert_eq!(
            "pvs-noext".parse::<SearcherSpec>().unwrap().to_string(),
            "pvs:ext=off"
        );
        for (name, config) in PvsConfig::consistency_ladder().into_iter().skip(1) {
            assert_eq!(name.parse::<SearcherSpec>(), Ok(SearcherSpec::Pvs(config)));
        }
        assert_eq!(
            "pvs+tt+killers"
                .parse::<SearcherSpec>()
                .unwrap()
                .to_string(),
            "pvs+tt+killers"
        );
    }

    #[test]
    fn bad_text_is_named() {
        for (text, words) in [
            ("mtdf", &["'mtdf'", "minimax", "pvs+tt", "mcts-heavy"][..]),
            ("pvs-oldtime", &["'pvs-oldtime'"]),
            ("pvs-ext1", &["'pvs-ext1'"]),
            ("pvs:tt", &["'tt'", "key=value"]),
            ("pvs:nosuch=1", &["'nosuch=1'", "killers"]),
            ("pvs:killers=maybe", &["'killers=maybe'", "on or off"]),
            ("pvs:threads=0", &["1..=256"]),
            ("minimax:threads=2", &["one thread"]),
            ("alphabeta:quiescence=on", &["valid for alphabeta: threads"]),
            ("mcts:playout=medium", &["light or heavy"]),
        ] {
            let error = text.parse::<SearcherSpec>().unwrap_err();
            for word in words {
                assert!(error.contains(word), "{text}: {error}");
            }
        }
        assert!("alphabeta:threads=1".parse::<SearcherSpec>().is_ok());
        let long = format!("{}x", "a".repeat(500));
        let error = long.parse::<SearcherSpec>().unwrap_err();
        assert!(
            error.contains(&format!("'{}...'", "a".repeat(80))),
            "{error}"
        );
    }
}
