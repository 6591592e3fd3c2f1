//! Why a tuning run's files or settings are refused: [`TuneError`], and the settings `tune
//! init` refuses, [`SettingError`]. Each displays as one line naming the file or the option.
//!
//! Key invariant: a message says what was found and, for a setting, which `init` option sets
//! it, so a damaged file and a bad command line read alike.

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::error::CliError;
use crate::files::FileError;

/// Why a tuning run's file could not be read, written or trusted.
#[derive(Debug)]
pub(crate) enum TuneError {
    /// A file could not be read, written or locked; `what` names its kind (`tuning run` for
    /// the run's lock, empty for a file named by its path alone).
    File {
        /// The kind of file.
        what: &'static str,
        /// What went wrong.
        error: FileError,
    },
    /// The directory holds no tuning run (no `tune.json`).
    NoRun(PathBuf),
    /// A settings file holds settings `tune init` would refuse.
    Settings {
        /// The file.
        path: PathBuf,
        /// The setting refused.
        error: SettingError,
    },
    /// A file holds what the run's settings do not allow: the file and why.
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong, in words.
        why: String,
    },
    /// A JSON file or line cannot be read: the file, the line (for a lines file) and why.
    Json {
        /// The file.
        path: PathBuf,
        /// The line, counted from 1, or `None` for a whole-file JSON value.
        line: Option<usize>,
        /// What the JSON reader said.
        error: serde_json::Error,
    },
    /// The run's directory cannot be listed.
    List {
        /// The directory.
        dir: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// A file cannot be written (or its partial last line dropped).
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuneError::File { what, error } => f.write_str(&error.of(what)),
            TuneError::NoRun(dir) => write!(
                f,
                "{} holds no tuning run (no tune.json): start one with `tune init --dir {}`",
                dir.display(),
                dir.display()
            ),
            TuneError::Settings { path, error } => {
                write!(f, "{} is damaged: {error}", path.display())
            }
            TuneError::Damaged { path, why } => write!(f, "{} is damaged: {why}", path.display()),
            TuneError::Json {
                path,
                line: None,
                error,
            } => write!(f, "{} is damaged: {error}", path.display()),
            TuneError::Json {
                path,
                line: Some(line),
                error,
            } => write!(f, "{} line {line}: {error}", path.display()),
            TuneError::List { dir, error } => write!(f, "cannot list {}: {error}", dir.display()),
            TuneError::Write { path, error } => {
                write!(f, "cannot write {}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for TuneError {}

impl TuneError {
    /// A file error with the file named by its path alone.
    pub(crate) fn file(error: FileError) -> TuneError {
        TuneError::File { what: "", error }
    }
}

impl From<TuneError> for CliError {
    fn from(error: TuneError) -> CliError {
        CliError::Invalid(error.to_string())
    }
}

/// A setting of a tuning run that `tune init` refuses (and a run's `tune.json` must not hold).
#[derive(Debug)]
pub(crate) enum SettingError {
    /// The weight names, start values and perturbations differ in number.
    Lengths {
        /// Weight names.
        names: usize,
        /// Start values.
        initial: usize,
        /// Perturbations.
        perturbations: usize,
    },
    /// A start value out of the weights' range.
    Range(plies::ParameterError),
    /// A perturbation (`--c-end`) that is not a number in `[0, MAX_WEIGHT]`.
    CEnd(f64),
    /// Every weight is fixed (`--fixed`).
    AllFixed,
    /// The learning rate's end (`--r-end`) is not in `(0, 1]`.
    REnd(f64),
    /// No iterations.
    NoIterations,
    /// A game of no plies.
    NoMaxPlies,
    /// Games per iteration not an even number from 2 to `max`.
    Games {
        /// The games asked for.
        games: u32,
        /// The most games of an iteration.
        max: u32,
    },
    /// Check games not an even number up to `max`.
    CheckGames {
        /// The games asked for.
        games: u32,
        /// The most games of a check match.
        max: u32,
    },
    /// No per-move limit.
    NoLimit,
    /// A per-move limit out of range.
    LimitRange,
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::Lengths {
                names,
                initial,
                perturbations,
            } => write!(
                f,
                "{names} weight names, {initial} start values, {perturbations} perturbations"
            ),
            SettingError::Range(error) => write!(f, "{error}"),
            SettingError::CEnd(c) => write!(
                f,
                "bad --c-end {c}: expected a number in (0, {}]",
                plies::weights::MAX_WEIGHT
            ),
            SettingError::AllFixed => {
                f.write_str("bad --fixed: every weight is fixed, none left to tune")
            }
            SettingError::REnd(r) => write!(f, "bad --r-end {r}: expected a number in (0, 1]"),
            SettingError::NoIterations => f.write_str("bad --iterations 0: expected >= 1"),
            SettingError::NoMaxPlies => f.write_str("bad --max-plies 0: expected >= 1"),
            SettingError::Games { games, max } => write!(
                f,
                "bad --games {games}: expected an even number from 2 to {max} (each opening \
                 with both colours)"
            ),
            SettingError::CheckGames { games, max } => write!(
                f,
                "bad --check-games {games}: expected an even number up to {max}"
            ),
            SettingError::NoLimit => f.write_str("no per-move limit (--depth, --nodes or --time)"),
            SettingError::LimitRange => write!(
                f,
                "a per-move limit out of range (--depth 1..={}, --nodes and --time at least 1)",
                plies::Score::MAX_PLY - 1
            ),
        }
    }
}

impl std::error::Error for SettingError {}

impl From<SettingError> for CliError {
    fn from(error: SettingError) -> CliError {
        CliError::Invalid(error.to_string())
    }
}

/// A `--shard` that is not `K/N` with `0 <= K < N`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ShardError;

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected K/N with 0 <= K < N")
    }
}

impl std::error::Error for ShardError {}
