//! Endgame tables on the command line: `--tables N|off`, `--tables-dir DIR`,
//! `--tables-cache-limit SIZE` and `--tables-wait` for `analyze`, `play`, the arena (also per
//! engine, `tables=N|off`), the UGI engine (also the `Tables` and `TablesDir` options) and
//! `serve`. A game that has tables says how to build them for a position ([`EndgameTables`]);
//! the command line reads them from the machine's cache ([`cache`]: by default the platform's
//! user cache directory), or builds them on a thread of their own and writes them there, and
//! hands them to the searchers ([`TableSource`]).
//!
//! Key invariant: no command waits for a build, unless told to (`--tables-wait`), and
//! `analyze` only after printing its answer: a search goes without the tables that are not
//! ready at its start, and the next search takes them. A key's tables are built once per
//! machine (the key directory's lock), kept until the cache is over its limit, and shared by
//! every searcher of a process. A searcher that cannot use tables is refused with a line
//! saying so, never run without them silently.

mod cache;
pub(crate) mod precompute;
mod source;

use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

use clap::Args;
use plies::agent::{Agent, AgentError, Choice, SearchAgent};
use plies::search::{SearchLimits, Searcher, SearcherError};
use plies::solve::Probe;
use plies::{Game, GameHistory, Notation};

use crate::endgame::EndgameTables;
use crate::error::CliError;
use crate::game_cli::GameCli;

pub(crate) use cache::ByteSize;
pub(crate) use source::{Note, NoteSink, SourceSettings, TableSource};

/// The table options of `analyze`, `play`, `arena`, `ugi` and `serve`.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct TablesArgs {
    /// Endgame tables for the game's position, up to N pieces, or `off` (default: on, with the
    /// game's usual N, for a game that has tables); `N,M`: N pieces at once and M, built or
    /// read in the background once N are ready, from the first search after they are.
    #[arg(long, value_name = "N|N,M|off", value_parser = clap::value_parser!(Layers))]
    pub tables: Option<Layers>,
    /// Keep the tables in this directory (a directory per key: Onitama's deal) instead of the
    /// user's cache directory (`~/.cache/plies/tables/<game>` on Linux).
    #[arg(long, value_name = "DIR", env = "PLIES_TABLES_DIR")]
    pub tables_dir: Option<PathBuf>,
    /// The most the tables directory may hold: after a build, the least recently used keys'
    /// tables are removed while it holds more. Bytes, or with K, M, G or T (powers of 1024).
    #[arg(long, value_name = "SIZE", default_value_t = ByteSize::DEFAULT_CACHE_LIMIT,
          value_parser = clap::value_parser!(ByteSize))]
    pub tables_cache_limit: ByteSize,
    /// Wait for the tables before searching (for reproducible runs): without it, a search
    /// goes without tables that are still being built, and the next search takes them.
    #[arg(long)]
    pub tables_wait: bool,
}

/// A tables setting as written (`--tables`, UGI's `Tables`): `off` (or 0), `N` pieces, or
/// `N,M`: N pieces at once and M (more) once they are ready. Its form is checked when it is
/// read; the piece counts against the game's range by [`Layers::checked`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layers {
    /// The pieces of the tables used at once (0: none).
    pub pieces: u8,
    /// The pieces of the tables to build next and use once ready, if any.
    pub upgrade: Option<u8>,
}

/// Why a tables setting does not read: the text, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LayersError {
    text: String,
    expected: &'static str,
}

impl fmt::Display for LayersError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}': expected {}",
            plies::excerpt(&self.text),
            self.expected
        )
    }
}

impl std::error::Error for LayersError {}

impl FromStr for Layers {
    type Err = LayersError;

    fn from_str(text: &str) -> Result<Layers, LayersError> {
        let error = |expected| LayersError {
            text: text.to_string(),
            expected,
        };
        let count = |part: &str| -> Result<u8, LayersError> {
            let part = part.trim();
            if part.eq_ignore_ascii_case("off") {
                return Ok(0);
            }
            part.parse::<u8>()
                .map_err(|_| error("off, a piece count N, or N,M"))
        };
        match text.split_once(',') {
            None => Ok(Layers {
                pieces: count(text)?,
                upgrade: None,
            }),
            Some((first, second)) => {
                let (pieces, upgrade) = (count(first)?, count(second)?);
                if pieces == 0 || upgrade <= pieces {
                    return Err(error("N,M with M more pieces than N"));
                }
                Ok(Layers {
                    pieces,
                    upgrade: Some(upgrade),
                })
            }
        }
    }
}

impl Layers {
    /// The setting with its piece counts checked against the game's `tables`: `off` always
    /// reads; a count needs tables and must be in their range. `what` names the option
    /// (`--tables`, `Tables`) in the error.
    pub(crate) fn checked<G: Game>(
        self,
        tables: Option<&EndgameTables<G>>,
        what: &str,
    ) -> Result<Layers, String> {
        for n in std::iter::once(self.pieces).chain(self.upgrade) {
            check_pieces(tables, n, what)?;
        }
        Ok(self)
    }
}

/// Checks a piece count of the setting `what`: 0 (off) always; another needs the game's tables
/// and their range.
fn check_pieces<G: Game>(
    tables: Option<&EndgameTables<G>>,
    n: u8,
    what: &str,
) -> Result<u8, String> {
    if n == 0 {
        return Ok(0);
    }
    let Some(tables) = tables else {
        return Err(format!("bad {what} '{n}': this game has no endgame tables"));
    };
    let (low, high) = tables.pieces;
    if (low..=high).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "bad {what} '{n}': expected off or a piece count from {low} to {high}"
        ))
    }
}

/// Reads a piece count of the engine option `tables=N|off` (named `what` in the error),
/// checked against the game's `tables`.
pub(crate) fn parse_pieces<G: Game>(
    tables: Option<&EndgameTables<G>>,
    text: &str,
    what: &str,
) -> Result<u8, String> {
    match text.parse::<Layers>() {
        Ok(Layers {
            pieces,
            upgrade: None,
        }) => check_pieces(tables, pieces, what),
        _ => Err(format!(
            "bad {what} '{}': expected off or a piece count",
            plies::excerpt(text)
        )),
    }
}

/// Reads a tables setting (`off`, `N`, `N,M`) named `what`, checked against the game's
/// `tables`.
pub(crate) fn parse_layers<G: Game>(
    tables: Option<&EndgameTables<G>>,
    text: &str,
    what: &str,
) -> Result<Layers, String> {
    text.parse::<Layers>()
        .map_err(|e| format!("bad {what} {e}"))?
        .checked(tables, what)
}

impl<G: Game> TableSource<G> {
    /// The source `args` ask for, with `threads` to build with.
    pub(crate) fn new(
        spec: &GameCli<G>,
        args: &TablesArgs,
        threads: usize,
    ) -> Result<TableSource<G>, CliError>
    where
        G: Notation,
    {
        let Layers { pieces, upgrade } = match args.tables {
            Some(layers) => layers
                .checked(spec.endgame_tables.as_ref(), "--tables")
                .map_err(CliError::Invalid)?,
            None => Layers {
                pieces: spec.endgame_tables.map_or(0, |t| t.default_pieces),
                upgrade: None,
            },
        };
        if args.tables_dir.is_some() && spec.endgame_tables.is_none() {
            return Err(CliError::Invalid(
                "bad --tables-dir: this game has no endgame tables".into(),
            ));
        }
        let source = TableSource::with(
            spec.endgame_tables,
            SourceSettings {
                pieces,
                game: spec.name,
                dir: args.tables_dir.clone(),
                limit: args.tables_cache_limit,
                threads,
                wait: args.tables_wait,
            },
        );
        Ok(match upgrade {
            Some(upgrade) => source.with_upgrade(upgrade),
            None => source,
        })
    }
}

/// A key's directory in the tables cache, locked for building until dropped
/// ([`lock_key_dir`]).
pub struct LockedKeyDir {
    path: PathBuf,
    _lock: cache::BuildLock,
}

impl LockedKeyDir {
    /// The directory, where the key's table files go.
    #[must_use]
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }
}

/// The directory of `key`'s tables of the game `game` in the tables cache every command
/// shares (under `dir`, as `--tables-dir DIR` puts it, or in the user's cache directory),
/// made if needed, marked used, and locked for building: for a game's own command that builds
/// tables into the cache (Onitama's `tables --cache`). Stale `.part` files are removed.
///
/// # Errors
/// The platform has no cache directory, the directory cannot be made, or another process
/// holds its lock; one line.
pub fn lock_key_dir(
    game: &str,
    dir: Option<&std::path::Path>,
    key: &str,
) -> Result<LockedKeyDir, KeyDirError> {
    let root = match dir {
        Some(dir) => dir.to_path_buf(),
        None => cache::default_root(game).ok_or(KeyDirError::NoCacheDir)?,
    };
    let cache = cache::TablesCache::new(root, ByteSize::DEFAULT_CACHE_LIMIT);
    let path = cache
        .key_dir(key)
        .map_err(|e| KeyDirError::Dir(e.to_string()))?;
    let lock = cache.lock_build(&path).map_err(|e| KeyDirError::Lock {
        key: key.to_string(),
        why: e.to_string(),
    })?;
    cache.touch(&path);
    Ok(LockedKeyDir { path, _lock: lock })
}

/// Why [`lock_key_dir`] gave no directory. Displays as one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyDirError {
    /// No `--tables-dir` and no cache directory on this platform.
    NoCacheDir,
    /// The key's directory cannot be made: why.
    Dir(String),
    /// The key's build lock cannot be taken (another process holds it): the key and why.
    Lock {
        /// The key.
        key: String,
        /// Why.
        why: String,
    },
}

impl std::fmt::Display for KeyDirError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyDirError::NoCacheDir => {
                f.write_str("no cache directory on this platform: give --tables-dir")
            }
            KeyDirError::Dir(why) => f.write_str(why),
            KeyDirError::Lock { key, why } => write!(f, "tables of {key}: {why}"),
        }
    }
}

impl std::error::Error for KeyDirError {}

/// Tables that hold nothing (the tests' stand-in for tables read or built).
#[cfg(test)]
pub(crate) struct NoTables;

#[cfg(test)]
impl<G: Game> Probe<G> for NoTables {
    fn probe(&self, _: &G) -> Option<plies::solve::TableValue> {
        None
    }
}

/// Refuses `searcher` when `source` has tables for `state` and it cannot use them (asked with
/// [`Searcher::supports_endgame_tables`], before any are ready).
///
/// # Errors
/// The searcher's refusal, with what to do about it.
pub(crate) fn check_searcher<G: Game>(
    source: &TableSource<G>,
    searcher: &mut dyn Searcher<G>,
    state: &G,
) -> Result<(), CliError> {
    if source.key(state).is_none() {
        return Ok(());
    }
    if searcher.supports_endgame_tables() {
        return Ok(());
    }
    let e = SearcherError::NoEndgameTables {
        searcher: searcher.name(),
    };
    Err(CliError::Invalid(format!(
        "{e}: give --tables off, or a searcher that uses them"
    )))
}

/// The tables of `state` for a command that prints (`analyze`, `play`): what is ready now,
/// cached ones read at once whatever their size (with `--tables-wait`, once read or built), the
/// notes so far printed as `tables: ...`.
///
/// # Errors
/// The output fails.
pub(crate) fn tables_now<G: Game>(
    source: &TableSource<G>,
    state: &G,
    output: &mut dyn Write,
) -> Result<Option<Arc<dyn Probe<G>>>, CliError> {
    let probe = if source.waits() {
        source.wait(state).unwrap_or(None)
    } else {
        source.snapshot_whole(state)
    };
    print_notes(source, output)?;
    Ok(probe)
}

/// Prints the notes `source` kept, each as a `tables: ...` line.
///
/// # Errors
/// The output fails.
pub(crate) fn print_notes<G: Game>(
    source: &TableSource<G>,
    output: &mut dyn Write,
) -> std::io::Result<()> {
    for note in source.take_notes() {
        match note {
            Note::Line(line) => writeln!(output, "tables: {line}")?,
            Note::Ready(key) => writeln!(output, "tables: {key} ready for the next search")?,
            Note::Failed(why) => writeln!(output, "tables: not used: {why}")?,
        }
    }
    Ok(())
}

/// Where the notes of a command that does not print go: the log.
pub(crate) fn log_sink() -> NoteSink {
    Arc::new(|note| match note {
        Note::Line(line) => tracing::info!("endgame tables: {line}"),
        Note::Ready(key) => tracing::info!("endgame tables: {key} ready"),
        Note::Failed(why) => tracing::warn!("endgame tables not used: {why}"),
    })
}

/// A [`SearchAgent`] that gets its tables from a shared source: when a game starts (outside
/// the move's clock), and at each move until they are ready.
pub(crate) struct TablesAgent<G: Game> {
    inner: SearchAgent<G>,
    source: Arc<TableSource<G>>,
    /// The key of the position last equipped.
    key: Option<String>,
    /// Whether the searcher has that key's tables.
    has: bool,
}

impl<G: Game> TablesAgent<G> {
    pub(crate) fn new(inner: SearchAgent<G>, source: Arc<TableSource<G>>) -> TablesAgent<G> {
        TablesAgent {
            inner,
            source,
            key: None,
            has: false,
        }
    }

    /// Gives the searcher the tables of `state` once they are ready (with `--tables-wait`,
    /// waiting for them): until then it searches without. Tables that cannot be had (too long
    /// a distance, too little memory) leave it without tables, with a warning in the log; a
    /// searcher refusing them (checked before the first game) fails the move.
    fn equip(&mut self, state: &G) -> Result<(), SearcherError> {
        // The key, and the upgrade's pieces once those tables are ready: a change is taken.
        let key = self.source.label(state);
        if key.is_none() {
            return Ok(());
        }
        if key == self.key && self.has {
            // The upgrade (if any) is built once these are there.
            self.source.request(state);
            return Ok(());
        }
        let changed = key != self.key;
        if changed {
            self.key = key;
            self.has = false;
        }
        let probe = if self.source.waits() {
            self.source.wait(state).unwrap_or(None)
        } else {
            self.source.snapshot(state)
        };
        // Still none: the searcher is left as it is (and its pondering goes on).
        if probe.is_none() && !changed {
            return Ok(());
        }
        self.has = probe.is_some();
        let searcher = self.inner.ponderer().searcher();
        searcher.set_endgame_tables(probe)
    }
}

impl<G: Game> Agent<G> for TablesAgent<G> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn new_game(&mut self, seed: u64) {
        self.inner.new_game(seed);
    }

    fn prepare(&mut self, start: &G) {
        // A refusal fails the first move, which equips again.
        let _ = self.equip(start);
    }

    fn choose(
        &mut self,
        state: &G,
        history: &GameHistory,
        budget: &SearchLimits,
    ) -> Result<Choice<G::Move>, AgentError> {
        self.equip(state)?;
        self.inner.choose(state, history, budget)
    }

    fn observe(&mut self, before: &G, mv: G::Move) {
        self.inner.observe(before, mv);
    }
}

#[cfg(test)]
mod tests;
