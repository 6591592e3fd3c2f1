//! [`SearcherSpec`]: the one registry of searcher names. A spec is a base name with options,
//! `NAME[:key=value,...]` (e.g. `pvs`, `pvs:quiescence=off`, `mcts:threads=4`,
//! `pvs+tt+killers`); it parses from and prints to that text and builds the searcher for any
//! game and any concrete evaluator type, so the type is erased once, at the engine
//! (`Box<dyn Searcher<G>>`), and never at the evaluator of every leaf.
//!
//! Key invariants: `spec.to_string().parse() == Ok(spec)` for every spec; every option key is
//! one row of one table (its families, how it prints, how it is set), which printing, parsing,
//! the typed setters and the errors all read; every name and option accepted by
//! [`SearcherSpec::from_str`] builds a searcher (all checks happen when parsing, so
//! [`SearcherSpec::build`] fails only when the system refuses a table's memory); an unknown
//! name or option is a [`SpecError`] listing the valid ones.

use std::fmt;
use std::str::FromStr;

use crate::eval::Evaluator;
use crate::game::Game;
use crate::mcts::{HeavyPlayout, Mcts, MctsConfig};
use crate::search::config::{PVS_KEYS, parse_number, parse_switch, switch};
use crate::search::{AlphaBeta, MAX_THREADS, Minimax, Pvs, PvsConfig, Searcher, TableAllocError};

/// The softmax temperature of heavy MCTS playouts (`mcts-heavy`), in evaluator units.
pub const HEAVY_TEMPERATURE: f64 = 100.0;

/// The playout cut-off of heavy MCTS playouts, in plies (heavy plies cost a position and an
/// evaluation per legal move, so their playouts are kept short).
pub const HEAVY_CUTOFF: u32 = 8;

pub use crate::search::config::MAX_TT_MB;

/// A searcher and its settings, by name: what the command line's `--searcher`, the arena's
/// `--engine`, the tuner and the fuzzer take.
///
/// Base names: `minimax`, `minimax+q` (with quiescence), `alphabeta`, `pvs` (everything on,
/// [`PvsConfig::full`]), `pvs-plain` ([`PvsConfig::plain`]), the rungs of
/// [`PvsConfig::consistency_ladder`] and [`PvsConfig::quiescence_ladder`] (e.g. `pvs+tt`),
/// `mcts` (light playouts) and `mcts-heavy` (softmax playouts over the evaluator, cut off after
/// [`HEAVY_CUTOFF`] plies). Names are case-insensitive.
///
/// Options (`:key=value`, separated by `,` or `:`; switches take `on`/`off`):
/// - `pvs`: `null-window`, `tt` (MB, 0 = none), `tt-min-depth` (`auto` or plies), `tt-exact`,
///   `killers`, `history`, `deepening`, `quiescence`, `mdp`, `lmr`, `ext`, `ext-depth`,
///   `threads` (the [`PvsConfig`] fields);
/// - `minimax`: `quiescence`; `mcts`: `playout` (`light` or `heavy`), `threads`;
/// - every searcher takes `threads=1`; only `pvs` and `mcts` take more.
///
/// ```
/// use plies::spec::SearcherSpec;
///
/// let spec: SearcherSpec = "PVS:Quiescence=off".parse().unwrap();
/// assert_eq!(spec.to_string(), "pvs:quiescence=off");
/// assert_eq!("pvs:quiescence=off".parse::<SearcherSpec>(), Ok(spec));
/// assert!("mtdf".parse::<SearcherSpec>().unwrap_err().to_string().contains("alphabeta"));
/// let spec = SearcherSpec::default().with_tt_mb(64).unwrap().with_threads(2).unwrap();
/// assert_eq!(spec.to_string(), "pvs:tt=64,threads=2");
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

/// One name a user can type: the text and the spec it stands for.
struct Base {
    name: &'static str,
    spec: SearcherSpec,
}

/// Every base name, in the order the error for an unknown name lists them.
fn bases() -> Vec<Base> {
    let base = |name, spec| Base { name, spec };
    let mut list = vec![
        base("minimax", SearcherSpec::Minimax { quiescence: false }),
        base("minimax+q", SearcherSpec::Minimax { quiescence: true }),
        base("alphabeta", SearcherSpec::AlphaBeta),
    ];
    // `pvs`, `pvs-plain` and the ladders' rungs, as [`PvsConfig`] prints them.
    let mut named = PvsConfig::named().into_iter();
    list.extend(
        named
            .by_ref()
            .take(2)
            .map(|(name, config)| base(name, SearcherSpec::Pvs(config))),
    );
    for heavy in [false, true] {
        let name = if heavy { "mcts-heavy" } else { "mcts" };
        list.push(base(name, SearcherSpec::Mcts { heavy, threads: 1 }));
    }
    list.extend(named.map(|(name, config)| base(name, SearcherSpec::Pvs(config))));
    list
}

/// What is wrong with a searcher spec (its text, or a typed setting).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// A base name that is none of [`SearcherSpec::names`].
    UnknownSearcher {
        /// The name as given (cut short when long).
        name: String,
    },
    /// An option written without `=`.
    NotKeyValue {
        /// The option as given.
        part: String,
    },
    /// A key this searcher does not take.
    UnknownKey {
        /// The searcher's family ([`SearcherSpec::family`]).
        family: &'static str,
        /// The key as given.
        key: String,
    },
    /// A value the key does not take.
    BadValue {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// What the key takes (`on or off`, `1..=256`, ...).
        expected: String,
    },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::UnknownSearcher { name } => write!(
                f,
                "unknown searcher '{}' (valid: {}; options as NAME:key=value,...)",
                crate::notation::excerpt(name),
                SearcherSpec::names().join(", ")
            ),
            SpecError::NotKeyValue { part } => write!(
                f,
                "searcher option '{}' is not key=value",
                crate::notation::excerpt(part)
            ),
            SpecError::UnknownKey { family, key } => {
                let keys = family_keys(family);
                write!(
                    f,
                    "searcher option '{}': unknown option (valid for {family}: {})",
                    crate::notation::excerpt(key),
                    keys.join(", ")
                )
            }
            SpecError::BadValue {
                key,
                value,
                expected,
            } => write!(
                f,
                "searcher option '{}={}': {expected}",
                crate::notation::excerpt(key),
                crate::notation::excerpt(value)
            ),
        }
    }
}

impl std::error::Error for SpecError {}

/// `playout`: `light` or `heavy` (true).
fn parse_playout(value: &str) -> Result<bool, String> {
    match value {
        "light" => Ok(false),
        "heavy" => Ok(true),
        _ => Err("expected light or heavy".into()),
    }
}

/// One option key: the families that take it, how its value prints and how it is set. Every
/// key is one row, here ([`KEYS`]) or, for `pvs`, of [`PVS_KEYS`] beside [`PvsConfig`];
/// printing, parsing, error messages and the typed setters all go through them.
struct Key {
    name: &'static str,
    families: &'static [&'static str],
    /// The value as text; `None` for a searcher of another family.
    get: fn(&SearcherSpec) -> Option<String>,
    /// Sets the value from text; `None` for a searcher of another family, else what the key
    /// expects when the text is not a value of it.
    set: fn(&mut SearcherSpec, &str) -> Option<Result<(), String>>,
}

/// The option keys of the families other than `pvs` (whose keys are [`PVS_KEYS`]), and
/// `threads`, which every family takes; in print order.
const KEYS: &[Key] = &[
    Key {
        name: "quiescence",
        families: &["minimax"],
        get: |spec| match spec {
            SearcherSpec::Minimax { quiescence } => Some(switch(*quiescence)),
            _ => None,
        },
        set: |spec, text| match spec {
            SearcherSpec::Minimax { quiescence } => {
                Some(parse_switch(text).map(|on| *quiescence = on))
            }
            _ => None,
        },
    },
    Key {
        name: "playout",
        families: &["mcts"],
        get: |spec| match spec {
            SearcherSpec::Mcts { heavy, .. } => {
                Some(if *heavy { "heavy" } else { "light" }.to_string())
            }
            _ => None,
        },
        set: |spec, text| match spec {
            SearcherSpec::Mcts { heavy, .. } => Some(parse_playout(text).map(|h| *heavy = h)),
            _ => None,
        },
    },
    Key {
        name: "threads",
        families: &["minimax", "alphabeta", "pvs", "mcts"],
        get: |spec| Some(spec.threads().to_string()),
        set: |spec, text| {
            Some(
                parse_number(text, 1..=MAX_THREADS)
                    .and_then(|n| spec.set_threads(n).map_err(|e| e.expected())),
            )
        },
    },
];

/// The names of the keys `family` takes, in print order.
fn family_keys(family: &str) -> Vec<&'static str> {
    let pvs = PVS_KEYS.iter().filter(|_| family == "pvs").map(|k| k.name);
    let others = KEYS
        .iter()
        .filter(|k| k.families.contains(&family))
        .map(|k| k.name);
    pvs.chain(others).collect()
}

impl SpecError {
    /// What a [`SpecError::BadValue`] expected (the whole message otherwise).
    fn expected(self) -> String {
        match self {
            SpecError::BadValue { expected, .. } => expected,
            other => other.to_string(),
        }
    }
}

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

    /// The option keys this searcher takes, in print order.
    #[must_use]
    pub fn keys(&self) -> Vec<&'static str> {
        family_keys(self.family())
    }

    /// Sets option `key` to `value`, as `NAME:key=value` would (keys case-insensitive).
    ///
    /// # Errors
    /// The searcher does not take `key`, or `value` is not a value of it.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SpecError> {
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim().to_ascii_lowercase();
        let family = self.family();
        let unknown = || SpecError::UnknownKey {
            family,
            key: key.clone(),
        };
        let bad = |expected| SpecError::BadValue {
            key: key.clone(),
            value: value.clone(),
            expected,
        };
        if let SearcherSpec::Pvs(config) = self
            && let Some(entry) = PVS_KEYS.iter().find(|k| k.name == key)
        {
            return (entry.set)(config, &value).map_err(bad);
        }
        let Some(entry) = KEYS.iter().find(|k| k.name == key) else {
            return Err(unknown());
        };
        match (entry.set)(self, &value) {
            None => Err(unknown()),
            Some(Ok(())) => Ok(()),
            Some(Err(expected)) => Err(bad(expected)),
        }
    }

    /// The value of option `key` as text; `None` when the searcher does not take it.
    fn value(&self, key: &str) -> Option<String> {
        if let SearcherSpec::Pvs(config) = self
            && let Some(entry) = PVS_KEYS.iter().find(|k| k.name == key)
        {
            return Some((entry.get)(config));
        }
        KEYS.iter()
            .find(|k| k.name == key)
            .and_then(|k| (k.get)(self))
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
    pub fn set_threads(&mut self, threads: usize) -> Result<(), SpecError> {
        let bad = |expected: String| SpecError::BadValue {
            key: "threads".into(),
            value: threads.to_string(),
            expected,
        };
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(bad(format!("expected 1..={MAX_THREADS}")));
        }
        match self {
            SearcherSpec::Pvs(config) => config.threads = threads,
            SearcherSpec::Mcts { threads: own, .. } => *own = threads,
            _ if threads == 1 => {}
            _ => {
                return Err(bad(format!(
                    "{} searches with one thread only",
                    self.family()
                )));
            }
        }
        Ok(())
    }

    /// This spec with `threads` threads ([`SearcherSpec::set_threads`]).
    ///
    /// # Errors
    /// As [`SearcherSpec::set_threads`].
    pub fn with_threads(mut self, threads: usize) -> Result<SearcherSpec, SpecError> {
        self.set_threads(threads)?;
        Ok(self)
    }

    /// The transposition table's size in MB (0: none, as for the searchers without one).
    #[must_use]
    pub fn tt_mb(&self) -> usize {
        match self {
            SearcherSpec::Pvs(config) => config.tt_mb,
            _ => 0,
        }
    }

    /// This spec with a transposition table of `megabytes` MB (0..=[`MAX_TT_MB`]; 0: none).
    ///
    /// # Errors
    /// The size is out of range, or the searcher has no transposition table (only `pvs` has).
    pub fn with_tt_mb(mut self, megabytes: usize) -> Result<SearcherSpec, SpecError> {
        self.set("tt", &megabytes.to_string())?;
        Ok(self)
    }

    /// Whether a depth limit applies: MCTS grows a tree by playouts and has no search depth.
    #[must_use]
    pub fn has_depth(&self) -> bool {
        !matches!(self, SearcherSpec::Mcts { .. })
    }

    /// The searcher, with `evaluator` as its concrete evaluator type (no dynamic dispatch per
    /// evaluation; only the searcher is behind a `Box<dyn Searcher<G>>`).
    ///
    /// # Errors
    /// The system refuses the memory of the transposition table (an application should also
    /// hold [`SearcherSpec::tt_mb`] to a limit of its own: an operating system that overcommits
    /// grants tables it cannot back).
    pub fn build<G: Game, E: Evaluator<G> + 'static>(
        &self,
        evaluator: E,
    ) -> Result<Box<dyn Searcher<G>>, TableAllocError> {
        Ok(match *self {
            SearcherSpec::Minimax { quiescence: false } => Box::new(Minimax::new(evaluator)),
            SearcherSpec::Minimax { quiescence: true } => {
                Box::new(Minimax::with_quiescence(evaluator))
            }
            SearcherSpec::AlphaBeta => Box::new(AlphaBeta::new(evaluator)),
            SearcherSpec::Pvs(config) => Box::new(Pvs::try_new(evaluator, config)?),
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
        })
    }

    /// The options whose values differ from `base`'s (same family), as `key=value`.
    fn differences(&self, base: &SearcherSpec) -> Vec<String> {
        self.keys()
            .into_iter()
            .filter_map(|key| {
                let value = self.value(key)?;
                (base.value(key)? != value).then(|| format!("{key}={value}"))
            })
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
        if let SearcherSpec::Pvs(config) = self {
            return config.fmt(f); // the same choice among the same names
        }
        let (name, options) = bases()
            .into_iter()
            .filter(|base| base.spec.family() == self.family())
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
    type Err = SpecError;

    /// `NAME[:key=value,...]` (case-insensitive; options separated by `,` or `:`).
    fn from_str(text: &str) -> Result<SearcherSpec, SpecError> {
        let lower = text.trim().to_ascii_lowercase();
        let (name, options) = match lower.split_once(':') {
            Some((name, options)) => (name.trim(), Some(options)),
            None => (lower.as_str(), None),
        };
        let Some(base) = bases().into_iter().find(|base| base.name == name) else {
            return Err(SpecError::UnknownSearcher { name: name.into() });
        };
        let mut spec = base.spec;
        for part in options.into_iter().flat_map(|o| o.split([',', ':'])) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| SpecError::NotKeyValue { part: part.into() })?;
            spec.set(key, value)?;
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

    /// Every key of every family sets through the one table and prints back: each value a
    /// key prints parses to the same spec, and keys of other families are refused by name.
    #[test]
    fn every_key_sets_and_prints_through_the_table() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..500 {
            let spec = random_spec(&mut rng);
            let all = PVS_KEYS
                .iter()
                .map(|k| k.name)
                .chain(KEYS.iter().map(|k| k.name));
            for name in all {
                if spec.keys().contains(&name) {
                    let value = spec.value(name).unwrap();
                    let mut copy = random_spec(&mut rng);
                    while copy.family() != spec.family() {
                        copy = random_spec(&mut rng);
                    }
                    copy.set(name, &value).unwrap();
                    assert_eq!(copy.value(name), Some(value), "{name}");
                } else {
                    assert_eq!(spec.value(name), None, "{name}");
                    let error = spec.clone().set(name, "1").unwrap_err();
                    assert!(matches!(error, SpecError::UnknownKey { .. }), "{error}");
                }
            }
        }
    }

    #[test]
    fn typed_setters() {
        let spec = SearcherSpec::default().with_tt_mb(64).unwrap();
        assert_eq!(spec.tt_mb(), 64);
        assert_eq!(spec.clone().with_threads(3).unwrap().threads(), 3);
        assert!(spec.clone().with_tt_mb(MAX_TT_MB + 1).is_err());
        assert!(spec.with_threads(0).is_err());
        let mcts: SearcherSpec = "mcts".parse().unwrap();
        assert_eq!(mcts.tt_mb(), 0);
        let error = mcts.clone().with_tt_mb(16).unwrap_err();
        assert!(error.to_string().contains("valid for mcts"), "{error}");
        assert_eq!(mcts.with_threads(4).unwrap().to_string(), "mcts:threads=4");
        assert!(SearcherSpec::AlphaBeta.with_threads(2).is_err());
    }

    #[test]
    fn every_name_round_trips_and_builds() {
        for name in SearcherSpec::names() {
            let spec: SearcherSpec = name.parse().unwrap();
            assert_eq!(spec.to_string().parse::<SearcherSpec>(), Ok(spec.clone()));
            let searcher = spec.build::<TwoPiles, _>(PileDifference).unwrap();
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
        // The aliases of old experiments are gone (docs/experiments.md).
        for gone in ["pvs-noq", "pvs-noext", "pvs-ext"] {
            assert!(gone.parse::<SearcherSpec>().is_err(), "{gone}");
        }
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
            ("pvs:nosuch=1", &["'nosuch'", "killers"]),
            ("pvs:killers=maybe", &["'killers=maybe'", "on or off"]),
            ("pvs:threads=0", &["1..=256"]),
            ("minimax:threads=2", &["one thread"]),
            ("alphabeta:quiescence=on", &["valid for alphabeta: threads"]),
            ("mcts:playout=medium", &["light or heavy"]),
        ] {
            let error = text.parse::<SearcherSpec>().unwrap_err().to_string();
            for word in words {
                assert!(error.contains(word), "{text}: {error}");
            }
        }
        assert!("alphabeta:threads=1".parse::<SearcherSpec>().is_ok());
        let long = format!("{}x", "a".repeat(500));
        let error = long.parse::<SearcherSpec>().unwrap_err().to_string();
        assert!(
            error.contains(&format!("'{}...'", "a".repeat(80))),
            "{error}"
        );
    }
}
