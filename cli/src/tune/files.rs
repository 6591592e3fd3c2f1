//! The files of a tuning run, all in its directory:
//! - `tune.json` ([`TuneConfig`]): the settings, written once by `tune init`;
//! - `state.json` ([`TuneState`]): the iteration to play and the weights, replaced atomically
//!   (written to a temporary file, then renamed) by each `tune merge`;
//! - `games-K-of-N.jsonl`: the games shard `K` of `N` played ([`GameLine`], one JSON line per
//!   game, appended and flushed as each game ends);
//! - `journal.jsonl`: the merged results, iteration by iteration in game order, with the
//!   weights each iteration ended with ([`JournalLine`]);
//! - `weights.txt`: the current weights as a weights file ([`plies::weights`]), rewritten by
//!   each merge, with the command that produced them;
//! - `lock`: locked by the `tune run` or `tune merge` writing the run (it holds its pid); each
//!   games file is also locked by the process appending to it.
//!
//! Key invariants: a kill at any moment leaves complete JSON lines plus at most one partial
//! last line in a games file (dropped when read), and either the old or the new `state.json`,
//! never a mix; every command reads the games of all shard files, so the games of an iteration
//! are found whichever shards played them; one process at a time writes a run (its `lock`),
//! and one a games file.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use plies::spec::SearcherSpec;
use serde::{Deserialize, Serialize};

use super::error::{SettingError, TuneError};
use super::spsa::Gains;
use crate::files::{self, DirLock, LockedAppend, RESULTS_LIMIT, SETTINGS_LIMIT};

/// The most games of an iteration, and of a check match: SPSA and check games then never share
/// an opening, and their sum fits a `u32`.
pub(crate) const MAX_GAMES: u32 = 1_000_000;

/// A searcher spec in a run's files: its text ([`SearcherSpec`]'s `Display`), read back with
/// its `FromStr`, so a file holds what `--searcher` takes.
mod spec_text {
    use plies::spec::SearcherSpec;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(spec: &SearcherSpec, out: S) -> Result<S::Ok, S::Error> {
        out.collect_str(spec)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        input: D,
    ) -> Result<SearcherSpec, D::Error> {
        let text = String::deserialize(input)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The settings of a tuning run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct TuneConfig {
    /// The game's program name (a run is refused by another game's binary).
    pub game: String,
    /// The command that created the run, for the weights file's header.
    pub command: String,
    /// The searcher both sides use (written as its spec text).
    #[serde(with = "spec_text")]
    pub searcher: SearcherSpec,
    /// Per-move depth limit.
    pub depth: Option<u32>,
    /// Per-move node limit.
    pub nodes: Option<u64>,
    /// Per-move time limit in milliseconds (games are then not reproducible).
    pub time_ms: Option<u64>,
    /// Games of an iteration (plus against minus), an even number: openings times two colours.
    pub games: u32,
    /// Play a check match of the current weights against the start every this many iterations
    /// (0: never).
    pub check_every: u32,
    /// Games of a check match (even).
    pub check_games: u32,
    /// A game reaching this many plies is a draw.
    pub max_plies: u32,
    /// The run's seed: perturbations and openings.
    pub seed: u64,
    /// Random plies from the start position to make an opening.
    pub opening_plies: u32,
    /// The start position, in the game's notation.
    pub start: String,
    /// Openings to cycle through instead of random ones (position texts), if any.
    pub openings: Vec<String>,
    /// The weights' names.
    pub names: Vec<String>,
    /// The weights at the start.
    pub initial: Vec<i32>,
    /// The SPSA gains.
    pub gains: Gains,
}

impl TuneConfig {
    /// The settings `tune init` accepts: checked when it creates a run and whenever a run's
    /// file is read back. Errors name the `init` option of the field.
    pub(crate) fn check(&self) -> Result<(), SettingError> {
        let n = self.names.len();
        if n == 0 || self.initial.len() != n || self.gains.c_end.len() != n {
            return Err(SettingError::Lengths {
                names: n,
                initial: self.initial.len(),
                perturbations: self.gains.c_end.len(),
            });
        }
        plies::weights::check_range(&self.names, &self.initial).map_err(SettingError::Range)?;
        let max = f64::from(plies::weights::MAX_WEIGHT);
        // 0 marks a weight left alone (`--fixed`).
        if let Some(c) = self
            .gains
            .c_end
            .iter()
            .find(|c| !(**c >= 0.0 && **c <= max))
        {
            return Err(SettingError::CEnd(*c));
        }
        if self.gains.c_end.iter().all(|&c| c == 0.0) {
            return Err(SettingError::AllFixed);
        }
        if !(self.gains.r_end > 0.0 && self.gains.r_end <= 1.0) {
            return Err(SettingError::REnd(self.gains.r_end));
        }
        if self.gains.iterations == 0 {
            return Err(SettingError::NoIterations);
        }
        if self.max_plies == 0 {
            return Err(SettingError::NoMaxPlies);
        }
        if self.games == 0 || !self.games.is_multiple_of(2) || self.games > MAX_GAMES {
            return Err(SettingError::Games {
                games: self.games,
                max: MAX_GAMES,
            });
        }
        if !self.check_games.is_multiple_of(2) || self.check_games > MAX_GAMES {
            return Err(SettingError::CheckGames {
                games: self.check_games,
                max: MAX_GAMES,
            });
        }
        if self.depth.is_none() && self.nodes.is_none() && self.time_ms.is_none() {
            return Err(SettingError::NoLimit);
        }
        let max_depth = plies::Score::MAX_PLY - 1;
        if self.depth.is_some_and(|d| d == 0 || d > max_depth)
            || self.nodes == Some(0)
            || self.time_ms == Some(0)
        {
            return Err(SettingError::LimitRange);
        }
        Ok(())
    }

    /// Games of iteration `k`: the SPSA games, then the check match if one is due.
    pub(crate) fn games_of(&self, k: u32) -> u32 {
        self.games
            + if self.check_due(k) {
                self.check_games
            } else {
                0
            }
    }

    /// Whether iteration `k` ends with a check match (every `check_every` iterations, and at
    /// the last one).
    pub(crate) fn check_due(&self, k: u32) -> bool {
        self.check_every > 0
            && self.check_games > 0
            && ((k + 1).is_multiple_of(self.check_every) || k + 1 == self.gains.iterations)
    }
}

/// Where a run stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct TuneState {
    /// The iteration to play next (equal to the run's iterations when it is finished).
    pub iteration: u32,
    /// The weights, unrounded.
    pub theta: Vec<f64>,
    /// Games merged so far.
    pub games: u64,
    /// The last check match: the iteration, and wins, draws, losses of the tuned weights.
    pub last_check: Option<Check>,
}

/// A check match's result.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Check {
    /// The iteration it ended.
    pub iteration: u32,
    /// Wins of the weights tuned so far against the start.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
}

/// One played game of an iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct GameLine {
    /// The iteration.
    pub iteration: u32,
    /// The game's number in the iteration.
    pub game: u32,
    /// Points of the plus side (or, in a check game, of the tuned weights): 1, 0.5 or 0.
    pub points: f64,
    /// Plies played.
    pub plies: u32,
    /// How it ended (`rules`, `ply-cap`, `forfeit`).
    pub termination: String,
}

/// One merged iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct JournalLine {
    /// The iteration.
    pub iteration: u32,
    /// Its games, in game order.
    pub games: Vec<GameLine>,
    /// Points of plus minus points of minus over its SPSA games.
    pub difference: f64,
    /// The weights after it, rounded.
    pub weights: Vec<i32>,
}

/// The paths of a run's files.
#[derive(Clone, Debug)]
pub(crate) struct RunDir {
    dir: PathBuf,
}

impl RunDir {
    /// The run in `dir`.
    pub(crate) fn new(dir: &Path) -> RunDir {
        RunDir {
            dir: dir.to_path_buf(),
        }
    }

    /// The directory.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// `tune.json`.
    pub(crate) fn config_path(&self) -> PathBuf {
        self.dir.join("tune.json")
    }

    /// `state.json`.
    pub(crate) fn state_path(&self) -> PathBuf {
        self.dir.join("state.json")
    }

    /// `journal.jsonl`.
    pub(crate) fn journal_path(&self) -> PathBuf {
        self.dir.join("journal.jsonl")
    }

    /// `weights.txt`.
    pub(crate) fn weights_path(&self) -> PathBuf {
        self.dir.join("weights.txt")
    }

    /// The games file of shard `k` of `n`.
    pub(crate) fn shard_path(&self, k: u32, n: u32) -> PathBuf {
        self.dir.join(format!("games-{k}-of-{n}.jsonl"))
    }

    /// Takes the run's exclusive lock (the file `lock` in its directory, holding the pid of the
    /// process that has it), held until the returned value is dropped: a second `tune run` or
    /// `tune merge` of the directory is refused at once, naming the holder.
    pub(crate) fn lock(&self) -> Result<DirLock, TuneError> {
        DirLock::take(&self.dir).map_err(|error| TuneError::File {
            what: "tuning run",
            error,
        })
    }

    /// Reads `tune.json` and checks it holds what `tune init` would have accepted.
    pub(crate) fn read_config(&self) -> Result<TuneConfig, TuneError> {
        let config: TuneConfig = read_json(&self.config_path()).map_err(|e| {
            if self.config_path().exists() {
                e
            } else {
                TuneError::NoRun(self.dir.clone())
            }
        })?;
        config.check().map_err(|error| TuneError::Settings {
            path: self.config_path(),
            error,
        })?;
        Ok(config)
    }

    /// Reads `state.json`, checked against the run's settings.
    pub(crate) fn read_state(&self, config: &TuneConfig) -> Result<TuneState, TuneError> {
        let state: TuneState = read_json(&self.state_path())?;
        let bad = |why: String| TuneError::Damaged {
            path: self.state_path(),
            why,
        };
        if state.theta.len() != config.names.len() {
            return Err(bad(format!(
                "{} weights for the {} of tune.json",
                state.theta.len(),
                config.names.len()
            )));
        }
        if let Some(i) = state.theta.iter().position(|v| !v.is_finite()) {
            return Err(bad(format!("weight {} is not a number", config.names[i])));
        }
        if state.iteration > config.gains.iterations {
            return Err(bad(format!(
                "iteration {} of a run of {}",
                state.iteration, config.gains.iterations
            )));
        }
        if let Some(check) = state.last_check
            && check.iteration >= config.gains.iterations
        {
            return Err(bad(format!(
                "a check match at iteration {} of a run of {}",
                check.iteration, config.gains.iterations
            )));
        }
        Ok(state)
    }

    /// The games of iteration `k` found in every games file, by game number.
    pub(crate) fn games_of(&self, k: u32) -> Result<BTreeMap<u32, GameLine>, TuneError> {
        let mut games = BTreeMap::new();
        for path in self.shard_files()? {
            for line in read_lines::<GameLine>(&path)? {
                if line.iteration == k {
                    games.entry(line.game).or_insert(line);
                }
            }
        }
        Ok(games)
    }

    /// Whether any games file exists (false when the directory does not).
    pub(crate) fn has_games(&self) -> Result<bool, TuneError> {
        if !self.dir.exists() {
            return Ok(false);
        }
        Ok(!self.shard_files()?.is_empty())
    }

    /// The games files in the directory, in name order.
    fn shard_files(&self) -> Result<Vec<PathBuf>, TuneError> {
        let entries = fs::read_dir(&self.dir).map_err(|error| TuneError::List {
            dir: self.dir.clone(),
            error,
        })?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| {
                path.file_name()
                    .and_then(|name| name.to_str())
                    .is_some_and(|name| name.starts_with("games-") && name.ends_with(".jsonl"))
            })
            .collect();
        paths.sort();
        Ok(paths)
    }

    /// The merged iterations.
    pub(crate) fn journal(&self) -> Result<Vec<JournalLine>, TuneError> {
        read_lines(&self.journal_path())
    }
}

/// A value from a JSON file (a regular file of at most [`SETTINGS_LIMIT`] bytes).
pub(crate) fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, TuneError> {
    let text = files::read_text(path, SETTINGS_LIMIT).map_err(TuneError::file)?;
    serde_json::from_str(&text).map_err(|error| TuneError::Json {
        path: path.to_path_buf(),
        line: None,
        error,
    })
}

/// Writes `value` as JSON to `path` atomically (see [`write_atomic`]).
pub(crate) fn write_json_atomic<T: Serialize>(path: &Path, value: &T) -> Result<(), TuneError> {
    let text = serde_json::to_string_pretty(value).expect("tuning files serialize");
    write_atomic(path, &(text + "\n"))
}

/// Writes `text` to `path` atomically ([`files::write_atomic`]: a regular file is replaced by
/// a temporary file renamed over it; a link's target is written; a device is written directly).
pub(crate) fn write_atomic(path: &Path, text: &str) -> Result<(), TuneError> {
    files::write_atomic(path, text.as_bytes()).map_err(TuneError::file)
}

/// The complete JSON lines of `path` (none if it does not exist); a partial last line (a write
/// cut off by a kill) is ignored, any other bad line is an error naming it. The file must be a
/// regular file of at most [`RESULTS_LIMIT`] bytes.
pub(crate) fn read_lines<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<T>, TuneError> {
    let Some(text) = files::read_text_if_exists(path, RESULTS_LIMIT).map_err(TuneError::file)?
    else {
        return Ok(Vec::new());
    };
    let complete = text.rfind('\n').map_or(0, |end| end + 1);
    text[..complete]
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(number, line)| {
            serde_json::from_str(line).map_err(|error| TuneError::Json {
                path: path.to_path_buf(),
                line: Some(number + 1),
                error,
            })
        })
        .collect()
}

/// An append-only JSON-lines file, held under its exclusive lock while open (a second writer
/// is refused); a partial last line left by a kill is cut off when opened.
pub(crate) struct LineFile {
    file: File,
    path: PathBuf,
}

impl LineFile {
    /// Opens `path` for appending, creating it, takes its lock and drops a partial last line.
    pub(crate) fn open(path: &Path) -> Result<LineFile, TuneError> {
        let LockedAppend { file, bytes: text } =
            files::open_locked_append(path, RESULTS_LIMIT).map_err(TuneError::file)?;
        let complete = text
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |end| end + 1);
        if complete < text.len() {
            file.set_len(complete as u64)
                .map_err(|error| TuneError::Write {
                    path: path.to_path_buf(),
                    error,
                })?;
        }
        Ok(LineFile {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Appends `value` as one JSON line with a single write, and flushes it.
    pub(crate) fn append<T: Serialize>(&mut self, value: &T) -> Result<(), TuneError> {
        let mut line = serde_json::to_string(value).expect("tuning lines serialize");
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|error| TuneError::Write {
                path: self.path.clone(),
                error,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::OpenOptions;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("plies-tune-files-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn game(iteration: u32, game: u32) -> GameLine {
        GameLine {
            iteration,
            game,
            points: 0.5,
            plies: 10,
            termination: "rules".into(),
        }
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_the_file_goes_on() {
        let dir = temp_dir("torn");
        let run = RunDir::new(&dir);
        let path = run.shard_path(0, 2);
        let mut file = LineFile::open(&path).unwrap();
        file.append(&game(0, 0)).unwrap();
        drop(file);
        // A kill in the middle of the second write.
        let mut raw = OpenOptions::new().append(true).open(&path).unwrap();
        raw.write_all(b"{\"iteration\":0,\"ga").unwrap();
        drop(raw);
        assert_eq!(read_lines::<GameLine>(&path).unwrap(), vec![game(0, 0)]);
        let mut file = LineFile::open(&path).unwrap();
        file.append(&game(0, 2)).unwrap();
        LineFile::open(&run.shard_path(1, 2))
            .unwrap()
            .append(&game(0, 1))
            .unwrap();
        let found: Vec<u32> = run.games_of(0).unwrap().into_keys().collect();
        assert_eq!(found, vec![0, 1, 2]);
        assert!(run.games_of(1).unwrap().is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_line_is_an_error_naming_it() {
        let dir = temp_dir("damaged");
        let path = dir.join("games-0-of-1.jsonl");
        fs::write(&path, "{\"iteration\":0,\"game\":0,\"points\":1.0,\"plies\":3,\"termination\":\"rules\"}\nnonsense\n").unwrap();
        let err = read_lines::<GameLine>(&path).unwrap_err();
        assert!(
            matches!(err, TuneError::Json { line: Some(2), .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("line 2"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn atomic_writes_replace_the_whole_file() {
        let dir = temp_dir("atomic");
        let path = dir.join("state.json");
        let state = TuneState {
            iteration: 3,
            theta: vec![1.5, -2.0],
            games: 12,
            last_check: None,
        };
        write_json_atomic(&path, &state).unwrap();
        assert_eq!(read_json::<TuneState>(&path).unwrap(), state);
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            1,
            "only state.json is left"
        );
        // A path that is a directory: an error, and no temporary file left.
        let taken = dir.join("taken");
        fs::create_dir_all(&taken).unwrap();
        let err = write_atomic(&taken, "x").unwrap_err();
        assert!(matches!(err, TuneError::File { .. }), "{err:?}");
        assert!(
            err.to_string()
                .contains("is not a regular file (a directory)"),
            "{err}"
        );
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            2,
            "no temporary file is left"
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
