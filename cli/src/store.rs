//! The position store: analyses that outlive the process, in an SQLite file (by default
//! `store.sqlite` in the user's data directory, `~/.local/share/plies/` on Linux) or on a
//! PostgreSQL server (`--store postgres://...`), behind one interface ([`Store`]). `analyze`
//! writes each result and answers from it a position already stored at least as deep
//! ([`lookup`]); the `store` command counts, exports, imports and prunes it ([`command`]).
//! docs/store.md has the rules for users.
//!
//! One analysis is kept per game, variant, position and searcher family: the deepest (as
//! deep: the newest). The core library knows nothing of it: only this application layer
//! depends on SQLite and PostgreSQL.
//!
//! Key invariants: a file or database that is not a plies store (not SQLite, another
//! application's database, damaged, of a newer schema) is refused with one line
//! ([`StoreError`]) and never written; every write is a transaction of its own (SQLite in WAL
//! mode), so concurrent writers and
//! killed processes leave every committed analysis readable; a write is skipped (said on
//! stderr) while the store's files hold `--store-limit` bytes or more. [`crate::run`] opens
//! no store for `analyze` unless one is named (`--store`, `PLIES_STORE`); the program
//! ([`crate::main`]) uses the data directory's by default.

pub(crate) mod command;
mod db;
mod error;
pub(crate) mod games;
pub(crate) mod lookup;
mod postgres;
mod record;
pub(crate) mod recorder;
pub(crate) mod shared;
mod sql;
mod sqlite;

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;

use crate::tables::ByteSize;

pub(crate) use db::Store;
pub(crate) use error::StoreError;

/// The default `--store-limit`: 1 GiB (millions of analyses).
pub(crate) const DEFAULT_LIMIT: &str = "1G";

/// The store's file name in the user's data directory.
const FILE_NAME: &str = "store.sqlite";

/// Whether `analyze` without `--store` uses the data directory's store: set by
/// [`crate::main`] (the program), not by [`crate::run`] (tests and programs embedding the
/// command line), so that no test writes into the user's store.
static DATA_DIRECTORY_BY_DEFAULT: AtomicBool = AtomicBool::new(false);

/// Makes `analyze` use the store in the user's data directory when no `--store` is given (the
/// program's default).
pub(crate) fn use_data_directory_by_default() {
    DATA_DIRECTORY_BY_DEFAULT.store(true, Ordering::Relaxed);
}

/// Where the store is: a file, a PostgreSQL server, or `off`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum StoreLocation {
    /// No store.
    Off,
    /// The SQLite file at this path.
    File(PathBuf),
    /// The PostgreSQL database at this URL (`postgres://` or `postgresql://`).
    Postgres(String),
}

/// Why a `--store` value is not a location: a URL of a scheme other than PostgreSQL's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StoreLocationError(String);

impl fmt::Display for StoreLocationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is a URL plies does not know: expected a path, postgres://... or off",
            postgres::redacted(&plies::excerpt(&self.0))
        )
    }
}

impl std::error::Error for StoreLocationError {}

impl FromStr for StoreLocation {
    type Err = StoreLocationError;

    /// `off` (any case), a `postgres://` or `postgresql://` URL, or a path; a URL of another
    /// scheme is refused.
    fn from_str(text: &str) -> Result<StoreLocation, StoreLocationError> {
        let lower = text.trim().to_ascii_lowercase();
        if lower == "off" {
            Ok(StoreLocation::Off)
        } else if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
            Ok(StoreLocation::Postgres(text.trim().to_string()))
        } else if text.contains("://") {
            Err(StoreLocationError(text.to_string()))
        } else {
            Ok(StoreLocation::File(PathBuf::from(text)))
        }
    }
}

impl fmt::Display for StoreLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreLocation::Off => f.write_str("off"),
            StoreLocation::File(path) => write!(f, "{}", path.display()),
            StoreLocation::Postgres(url) => f.write_str(&postgres::redacted(url)),
        }
    }
}

/// The store options of `analyze` and `store`.
#[derive(Args, Debug, Clone)]
pub(crate) struct StoreArgs {
    /// The position store: an SQLite file of analyses, a PostgreSQL database
    /// (`postgres://USER@HOST/DB`), or `off`. Default: `store.sqlite` in the user's data
    /// directory (`~/.local/share/plies/` on Linux).
    #[arg(long, value_name = "PATH|URL|off", env = "PLIES_STORE",
          value_parser = clap::value_parser!(StoreLocation))]
    pub store: Option<StoreLocation>,
    /// The most the store may take: a write is skipped (with a warning) while its files hold
    /// this much, and `store prune` brings it under. Bytes, or with K, M, G or T (powers of
    /// 1024).
    #[arg(long, value_name = "SIZE", default_value = DEFAULT_LIMIT,
          value_parser = clap::value_parser!(ByteSize))]
    pub store_limit: ByteSize,
}

impl StoreArgs {
    /// The store `analyze` uses (a file or a server, never `off`): the one named, the data
    /// directory's when the program runs without `--store` ([`use_data_directory_by_default`]),
    /// or none.
    pub(crate) fn analyze_location(&self) -> Result<Option<StoreLocation>, StoreError> {
        match &self.store {
            Some(StoreLocation::Off) => Ok(None),
            Some(location) => Ok(Some(location.clone())),
            None if DATA_DIRECTORY_BY_DEFAULT.load(Ordering::Relaxed) => {
                default_path().map(|path| Some(StoreLocation::File(path)))
            }
            None => Ok(None),
        }
    }

    /// Opens the store `analyze` uses ([`StoreArgs::analyze_location`]), or none.
    pub(crate) fn open_for_analysis(&self) -> Result<Option<Store>, StoreError> {
        match self.analyze_location()? {
            Some(location) => Store::open_location(&location, self.store_limit.0).map(Some),
            None => Ok(None),
        }
    }

    /// Opens the store a long-running host (the page, the UGI engine) uses for the game
    /// `game`: the one named, the data directory's when the program runs without `--store`,
    /// or none.
    pub(crate) fn open_shared(
        &self,
        game: &'static str,
    ) -> Result<Option<shared::SharedStore>, StoreError> {
        Ok(self
            .open_for_analysis()?
            .map(|store| shared::SharedStore::new(store, game)))
    }

    /// Opens the store the `store` command works on: the one named, or the data directory's;
    /// `off` is an error.
    pub(crate) fn open_named(&self) -> Result<Store, StoreError> {
        match &self.store {
            Some(location) => Store::open_location(location, self.store_limit.0),
            None => Store::open(&default_path()?, self.store_limit.0),
        }
    }
}

/// `store.sqlite` in the user's data directory, the directory made if needed.
fn default_path() -> Result<PathBuf, StoreError> {
    let dirs =
        directories::ProjectDirs::from("", "", "plies").ok_or(StoreError::NoDataDirectory)?;
    let dir = dirs.data_dir();
    std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
        path: dir.to_path_buf(),
        action: "make the directory",
        source,
    })?;
    Ok(dir.join(FILE_NAME))
}

/// Which evaluator a search used, as far as the store tells searches apart: the game's
/// default, a preset (`--eval NAME`), or weights from a file (`--weights`), whose analyses
/// are neither read nor written (the file may change under the same name).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum EvaluatorKind {
    /// The game's default evaluator.
    #[default]
    Default,
    /// A preset that is not the default, by name.
    Preset(String),
    /// Weights from a file.
    Weights,
}

impl EvaluatorKind {
    /// The evaluator of a command line with `--eval` `eval` and `--weights` given or not.
    pub(crate) fn of<G: plies::Notation>(
        presets: &[crate::game_cli::EvaluatorPreset<G>],
        eval: Option<&str>,
        weights: bool,
    ) -> EvaluatorKind {
        if weights {
            return EvaluatorKind::Weights;
        }
        let preset = eval.and_then(|name| {
            presets
                .iter()
                .find(|preset| preset.name.eq_ignore_ascii_case(name))
        });
        match preset {
            Some(preset) if !preset.is_default => {
                EvaluatorKind::Preset(preset.name.to_ascii_lowercase())
            }
            _ => EvaluatorKind::Default,
        }
    }
}

/// Milliseconds since the Unix epoch, now.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A time in milliseconds since the Unix epoch as `2026-11-27 22:01:05 UTC`.
pub(crate) fn utc_text(ms: i64) -> String {
    let seconds = ms.div_euclid(1000);
    let (days, of_day) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    // The civil date of a day count: years of 400 (146,097 days) counted from 0000-03-01, so
    // that the leap day ends each year.
    let shifted = days + 719_468;
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
}

#[cfg(test)]
mod tests;
