//! [`EvaluatorFactory`]: how the command line makes engines. A game hands over its evaluator
//! once, as a concrete type; every searcher the command line, the arena and the tuner build is
//! then made for that type ([`SearcherSpec::build`]), so evaluations are direct calls and the
//! type is erased only at the engine, `Box<dyn Searcher<G>>`.
//!
//! Key invariant: the weights a factory uses as its own were checked when it was made, so
//! [`EvaluatorFactory::make`] cannot fail and [`EvaluatorFactory::searcher`] without weights
//! fails only on memory: a transposition table above this machine's limit
//! ([`crate::memory::check_tt`]) or one the system refuses, never by aborting.

use std::sync::Arc;
use std::time::Duration;

use plies::Game;
use plies::search::{SearchLimits, Searcher, TableAllocError};
use plies::spec::SearcherSpec;
use plies::{Evaluator, Tunable};

use crate::error::CliError;

/// One concrete evaluator type behind the factory.
trait Build<G: Game>: Send + Sync {
    /// A searcher of `spec` with a clone of the evaluator.
    fn searcher(&self, spec: &SearcherSpec) -> Result<Box<dyn Searcher<G>>, TableAllocError>;
    /// A clone of the evaluator, for work that only evaluates (the texel fit).
    fn evaluator(&self) -> Box<dyn Evaluator<G>>;
    /// The same evaluator with `weights` (tunable evaluators only).
    fn reweighted(&self, weights: &[i32]) -> Result<Arc<dyn Build<G>>, String>;
}

/// An evaluator without weights to set.
struct Fixed<E>(E);

impl<G: Game, E: Evaluator<G> + Clone + 'static> Build<G> for Fixed<E> {
    fn searcher(&self, spec: &SearcherSpec) -> Result<Box<dyn Searcher<G>>, TableAllocError> {
        spec.build::<G, E>(self.0.clone())
    }

    fn evaluator(&self) -> Box<dyn Evaluator<G>> {
        Box::new(self.0.clone())
    }

    fn reweighted(&self, _: &[i32]) -> Result<Arc<dyn Build<G>>, String> {
        Err("this game's evaluator has no tunable weights".into())
    }
}

/// A [`Tunable`] evaluator and the names of its weights.
struct Weighted<E> {
    evaluator: E,
    names: Arc<Vec<String>>,
}

impl<G: Game, E: Evaluator<G> + Tunable + Clone + 'static> Build<G> for Weighted<E> {
    fn searcher(&self, spec: &SearcherSpec) -> Result<Box<dyn Searcher<G>>, TableAllocError> {
        spec.build::<G, E>(self.evaluator.clone())
    }

    fn evaluator(&self) -> Box<dyn Evaluator<G>> {
        Box::new(self.evaluator.clone())
    }

    fn reweighted(&self, weights: &[i32]) -> Result<Arc<dyn Build<G>>, String> {
        plies::weights::check_range(&self.names, weights).map_err(|e| e.to_string())?;
        let mut evaluator = self.evaluator.clone();
        evaluator
            .set_parameters(weights)
            .map_err(|e| e.to_string())?;
        Ok(Arc::new(Weighted {
            evaluator,
            names: Arc::clone(&self.names),
        }))
    }
}

/// Makes engines (and, for work that only evaluates, evaluators) around a game's evaluator;
/// for a [`Tunable`] evaluator ([`tunable_evaluator`]) also with other weights, which is what
/// `--weights`, the arena's `weights=` and the tuner use.
pub struct EvaluatorFactory<G: Game> {
    /// The evaluator, with its concrete type.
    build: Arc<dyn Build<G>>,
    /// The weights' names and the values the factory uses, for a tunable evaluator.
    weights: Option<Arc<(Vec<String>, Vec<i32>)>>,
}

impl<G: Game> Clone for EvaluatorFactory<G> {
    fn clone(&self) -> Self {
        EvaluatorFactory {
            build: Arc::clone(&self.build),
            weights: self.weights.clone(),
        }
    }
}

impl<G: Game> EvaluatorFactory<G> {
    /// A searcher of `spec` with the factory's evaluator, or with it set to `weights` (in the
    /// order of [`Self::parameter_names`]).
    ///
    /// # Errors
    /// The spec's transposition table is larger than this machine allows (half its memory) or
    /// the system refuses its memory; with `weights`, also: the evaluator is not tunable, a
    /// weight is beyond [`plies::weights::MAX_WEIGHT`], or the evaluator refuses them (wrong
    /// count).
    pub fn searcher(
        &self,
        spec: &SearcherSpec,
        weights: Option<&[i32]>,
    ) -> Result<Box<dyn Searcher<G>>, EngineError> {
        crate::memory::check_tt(spec.tt_mb()).map_err(EngineError::Searcher)?;
        let searcher = match weights {
            None => self.build.searcher(spec),
            Some(weights) => self
                .build
                .reweighted(weights)
                .map_err(EngineError::Refused)?
                .searcher(spec),
        };
        searcher.map_err(|e| EngineError::Searcher(e.to_string()))
    }

    /// A fresh evaluator, for work that evaluates without searching (searchers come from
    /// [`Self::searcher`], which avoids a dynamic call per evaluation).
    #[must_use]
    pub fn make(&self) -> Box<dyn Evaluator<G>> {
        self.build.evaluator()
    }

    /// This factory with `weights` (in the order of [`Self::parameter_names`]) as its own.
    ///
    /// # Errors
    /// As [`Self::searcher`] with weights.
    pub fn with_weights(&self, weights: &[i32]) -> Result<EvaluatorFactory<G>, EngineError> {
        let names = self.parameter_names().ok_or(EngineError::NotTunable)?;
        Ok(EvaluatorFactory {
            build: self
                .build
                .reweighted(weights)
                .map_err(EngineError::Refused)?,
            weights: Some(Arc::new((names.to_vec(), weights.to_vec()))),
        })
    }

    /// The names of the evaluator's weights; `None` if it is not tunable.
    #[must_use]
    pub fn parameter_names(&self) -> Option<&[String]> {
        self.weights.as_deref().map(|(names, _)| names.as_slice())
    }

    /// The weights the factory uses; `None` if the evaluator is not tunable.
    #[must_use]
    pub fn parameters(&self) -> Option<&[i32]> {
        self.weights.as_deref().map(|(_, values)| values.as_slice())
    }

    /// This factory with the weights of the weights file at `path` as its own.
    ///
    /// # Errors
    /// The file cannot be read, is not a regular file or is larger than 4 MB, or as
    /// [`Self::with_weights_file`]; the message names the file.
    pub fn with_weights_path(
        &self,
        path: &std::path::Path,
    ) -> Result<EvaluatorFactory<G>, EngineError> {
        let text = crate::files::read_text(path, crate::files::WEIGHTS_LIMIT)
            .map_err(|e| EngineError::File(e.of("weights file")))?;
        self.with_weights_file(&text)
            .map_err(|e| EngineError::File(format!("weights file {}: {e}", path.display())))
    }

    /// This factory with the weights of a weights file ([`plies::weights`]) as its own.
    ///
    /// # Errors
    /// The evaluator is not tunable, or the file does not fit it (the message names the line).
    pub fn with_weights_file(&self, text: &str) -> Result<EvaluatorFactory<G>, EngineError> {
        let names = self.parameter_names().ok_or(EngineError::NotTunable)?;
        let values = plies::weights::parse_weights(text, names)
            .map_err(|e| EngineError::File(e.to_string()))?;
        self.with_weights(&values)
    }
}

/// Why an [`EvaluatorFactory`] gave no searcher or took no weights. Displays as one line (the
/// texts it carries are the evaluator's, the file reader's or the searcher's one-line reasons).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The game's evaluator has no tunable weights.
    NotTunable,
    /// The evaluator refuses the weights (a weight out of range, the wrong count): why.
    Refused(String),
    /// A weights file cannot be read or does not fit the evaluator: the file and why.
    File(String),
    /// The searcher cannot be built (its transposition table is too large, or the system
    /// refuses its memory): why.
    Searcher(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::NotTunable => f.write_str("this game's evaluator has no tunable weights"),
            EngineError::Refused(why) | EngineError::File(why) | EngineError::Searcher(why) => {
                f.write_str(why)
            }
        }
    }
}

impl std::error::Error for EngineError {}

impl From<EngineError> for CliError {
    /// An invalid argument (a weights file, a searcher spec), with the same one line.
    fn from(err: EngineError) -> CliError {
        CliError::Invalid(err.to_string())
    }
}

/// An [`EvaluatorFactory`] that clones `evaluator` each time.
pub fn evaluator<G, E>(evaluator: E) -> EvaluatorFactory<G>
where
    G: Game,
    E: Evaluator<G> + Clone + 'static,
{
    EvaluatorFactory {
        build: Arc::new(Fixed(evaluator)),
        weights: None,
    }
}

/// An [`EvaluatorFactory`] for a [`Tunable`] evaluator: clones of `evaluator`, or of it with other
/// weights.
pub fn tunable_evaluator<G, E>(evaluator: E) -> EvaluatorFactory<G>
where
    G: Game,
    E: Evaluator<G> + Tunable + Clone + 'static,
{
    let names = evaluator.parameter_names();
    let weights = (names.clone(), evaluator.parameters());
    EvaluatorFactory {
        build: Arc::new(Weighted {
            evaluator,
            names: Arc::new(names),
        }),
        weights: Some(Arc::new(weights)),
    }
}

/// The searcher of `spec`, with `threads` when `--threads` was given: the flag is the spec's
/// `threads=` key written apart, so given both, they must agree (one owner, never a silent
/// override); then built with the game's evaluator as its concrete type.
pub(crate) fn searcher<G: Game>(
    factory: &EvaluatorFactory<G>,
    spec: &SearcherSpec,
    threads: Option<usize>,
) -> Result<Box<dyn Searcher<G>>, CliError> {
    let spec = with_threads_flag(spec, threads)?;
    factory
        .searcher(&spec, None)
        .map_err(|e| CliError::Invalid(format!("bad --searcher {spec}: {e}")))
}

/// `spec` with the `--threads` count, if given (see [`searcher`]).
pub(crate) fn with_threads_flag(
    spec: &SearcherSpec,
    threads: Option<usize>,
) -> Result<SearcherSpec, CliError> {
    let Some(threads) = threads else {
        return Ok(spec.clone());
    };
    let spec_threads = spec.threads();
    if spec_threads != 1 && spec_threads != threads {
        return Err(CliError::Invalid(format!(
            "--threads {threads} and --searcher {spec} disagree: give the count once"
        )));
    }
    spec.clone()
        .with_threads(threads)
        .map_err(|e| CliError::Invalid(format!("bad --threads {threads}: {e}")))
}

/// The deepest search depth a command takes: one less than the deepest ply a score can record
/// (for clap's `range`).
pub(crate) const MAX_DEPTH: i64 = plies::Score::MAX_PLY as i64 - 1;

/// Checks a search depth: at least 1, at most the deepest ply a score can record.
pub(crate) fn check_depth(depth: u32) -> Result<u32, CliError> {
    let max = plies::Score::MAX_PLY - 1;
    if depth == 0 || depth > max {
        Err(CliError::Invalid(format!(
            "bad --depth {depth}: expected 1..={max}"
        )))
    } else {
        Ok(depth)
    }
}
/// Rejects a depth limit for an MCTS searcher: MCTS grows a tree by playouts and has no search
/// depth to stop at, so `--depth` would silently do nothing.
pub(crate) fn check_mcts_depth(
    spec: &SearcherSpec,
    limits: &plies::search::SearchLimits,
) -> Result<(), String> {
    match limits.depth {
        Some(depth) if !spec.has_depth() => Err(format!(
            "depth {depth} does not apply to {spec}: Monte-Carlo tree search has no search \
             depth; limit it with nodes or time instead"
        )),
        _ => Ok(()),
    }
}
/// The threads a search of `spec` with the `--threads` flag `threads` uses.
pub(crate) fn searcher_threads(spec: &SearcherSpec, threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| spec.threads())
}

/// Limits from optional depth, time and node values; `flag` prefixes the names in errors.
pub(crate) fn limits(
    depth: Option<u32>,
    time: Option<u64>,
    nodes: Option<u64>,
    flag: &str,
) -> Result<SearchLimits, CliError> {
    let mut limits = SearchLimits::default();
    if let Some(depth) = depth {
        limits.depth = Some(check_depth(depth)?);
    }
    if let Some(ms) = time {
        limits.time = Some(time_limit(ms, flag)?);
    }
    if let Some(nodes) = nodes {
        if nodes == 0 {
            return Err(CliError::Invalid(format!(
                "bad {flag}nodes 0: expected >= 1"
            )));
        }
        limits.nodes = Some(nodes);
    }
    Ok(limits)
}
/// `depth 4`, `100 ms`, `depth 6, 5000 nodes`.
pub(crate) fn describe(limits: &SearchLimits) -> String {
    let mut parts = Vec::new();
    if let Some(depth) = limits.depth {
        parts.push(format!("depth {depth}"));
    }
    if let Some(nodes) = limits.nodes {
        parts.push(format!("{nodes} nodes"));
    }
    if let Some(time) = limits.time {
        parts.push(format!("{} ms", time.as_millis()));
    }
    parts.join(", ")
}

/// The longest time limit a command searches for, in milliseconds (one day). A longer
/// `--time` (say `18446744073709551615`, which would not end in any lifetime) is cut to it,
/// as the OTEP engine caps its thinking time.
pub(crate) const MAX_TIME_MS: u64 = 86_400_000;

/// A `--time` of `ms` milliseconds as a duration, cut to [`MAX_TIME_MS`]; `flag` names the
/// option in the error for 0.
pub(crate) fn time_limit(ms: u64, flag: &str) -> Result<Duration, CliError> {
    if ms == 0 {
        return Err(CliError::Invalid(format!(
            "bad {flag}time 0: expected milliseconds >= 1"
        )));
    }
    Ok(Duration::from_millis(ms.min(MAX_TIME_MS)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::run_ok;

    /// `--time 18446744073709551615` would search for 584 million years: it is cut to a day,
    /// and the help says so.
    #[test]
    fn time_limits_are_capped_at_a_day() {
        let day = Duration::from_secs(24 * 60 * 60);
        assert_eq!(time_limit(u64::MAX, "--").unwrap(), day);
        assert_eq!(time_limit(86_400_001, "--").unwrap(), day);
        assert_eq!(
            time_limit(1_500, "--").unwrap(),
            Duration::from_millis(1_500)
        );
        assert!(time_limit(0, "--").is_err());
        let own = limits(None, Some(u64::MAX), None, "--engine x ").unwrap();
        assert_eq!(own.time, Some(day));
        for command in ["analyze", "play"] {
            let help = run_ok(&format!("{command} --help"));
            assert!(help.contains("86400000 (one day)"), "{help}");
        }
    }
}
