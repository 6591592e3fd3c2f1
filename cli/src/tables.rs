//! Endgame tables on the command line: `--tables N|off` and `--tables-dir DIR` for `analyze`,
//! `play`, the arena (also per engine, `tables=N|off`) and the UGI engine (also the `Tables`
//! and `TablesDir` options). A game that has tables says how to build them for a position
//! ([`EndgameTables`]); the command line builds them when a game starts, or reads them from the
//! directory, and hands them to the searcher.
//!
//! Key invariant: tables are built once per key ([`EndgameTables::key`]: Onitama's deal) while
//! they are in use, and shared by every searcher that asks ([`TableSource`]); one build runs at
//! a time, and looking up tables already built never waits for a build
//! ([`TableSource::cached`]: the UGI engine builds on a thread of its own and searches without
//! tables until they are there). A searcher that cannot use tables is refused with a line
//! saying so, never run without them silently.

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use clap::Args;
use plies::agent::{Agent, Choice, SearchAgent};
use plies::search::{SearchLimits, Searcher};
use plies::solve::Probe;
use plies::{Game, GameHistory, Notation};

use crate::error::CliError;
use crate::game_cli::GameCli;

/// Builds a game's tables: for the position, the most pieces, a cache directory, threads, and
/// where to tell progress (one line at a time). An error is one line.
pub type TableBuilder<G> = fn(
    position: &G,
    pieces: u8,
    dir: Option<&std::path::Path>,
    threads: usize,
    log: &mut dyn FnMut(&str),
) -> Result<Arc<dyn Probe<G>>, String>;

/// What a game with endgame tables gives the command line ([`GameCli::endgame_tables`]).
pub struct EndgameTables<G: Game> {
    /// The piece count used when `--tables` is not given (what builds in a second or two).
    pub default_pieces: u8,
    /// The fewest and the most pieces `--tables` accepts.
    pub pieces: (u8, u8),
    /// What tables built for a position serve: positions with the same key (Onitama: the
    /// deal) share them.
    pub key: fn(&G) -> String,
    /// Builds the tables for a position's key.
    pub build: TableBuilder<G>,
}

impl<G: Game> Clone for EndgameTables<G> {
    fn clone(&self) -> EndgameTables<G> {
        *self
    }
}

impl<G: Game> Copy for EndgameTables<G> {}

/// The table options of `analyze`, `play`, `arena` and `ugi`.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct TablesArgs {
    /// Endgame tables for the game's position, up to N pieces, or `off` (default: on, with the
    /// game's usual N, for a game that has tables).
    #[arg(long, value_name = "N|off")]
    pub tables: Option<String>,
    /// Read the tables from this directory when they are there; write them there once built.
    #[arg(long, value_name = "DIR")]
    pub tables_dir: Option<PathBuf>,
}

/// Reads a `--tables` value: `off` (0) or a piece count in the game's range. `what` names the
/// option in the error.
pub(crate) fn parse_pieces<G: Game>(
    tables: Option<&EndgameTables<G>>,
    text: &str,
    what: &str,
) -> Result<u8, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("off") || text == "0" {
        return Ok(0);
    }
    let Some(tables) = tables else {
        return Err(format!(
            "bad {what} '{text}': this game has no endgame tables"
        ));
    };
    let (low, high) = tables.pieces;
    match text.parse::<u8>() {
        Ok(n) if (low..=high).contains(&n) => Ok(n),
        _ => Err(format!(
            "bad {what} '{text}': expected off or a piece count from {low} to {high}"
        )),
    }
}

/// Tables a key at a time, built on demand and shared (see the module docs).
pub(crate) struct TableSource<G: Game> {
    tables: Option<EndgameTables<G>>,
    /// The most pieces; 0 for off.
    pieces: u8,
    dir: Option<PathBuf>,
    threads: usize,
    /// The tables in use, most recent last (a few keys: the arena's workers may play
    /// different deals at once). Locked only to look up or insert, never while building.
    built: Mutex<Vec<Keyed<G>>>,
    /// Held while building: another worker wanting tables waits for the build in progress
    /// (they may be the ones it wants), and builds never run side by side.
    building: Mutex<()>,
}

/// Tables and the key they serve.
type Keyed<G> = (String, Arc<dyn Probe<G>>);

/// How many keys' tables a source keeps.
const KEPT: usize = 4;

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
        let pieces = match &args.tables {
            Some(text) => parse_pieces(spec.endgame_tables.as_ref(), text, "--tables")
                .map_err(CliError::Invalid)?,
            None => spec.endgame_tables.map_or(0, |t| t.default_pieces),
        };
        if args.tables_dir.is_some() && spec.endgame_tables.is_none() {
            return Err(CliError::Invalid(
                "bad --tables-dir: this game has no endgame tables".into(),
            ));
        }
        Ok(TableSource::with(
            spec.endgame_tables,
            pieces,
            args.tables_dir.clone(),
            threads,
        ))
    }

    /// A source of `pieces` pieces (0: off).
    pub(crate) fn with(
        tables: Option<EndgameTables<G>>,
        pieces: u8,
        dir: Option<PathBuf>,
        threads: usize,
    ) -> TableSource<G> {
        TableSource {
            tables,
            pieces: if tables.is_some() { pieces } else { 0 },
            dir,
            threads: threads.max(1),
            built: Mutex::new(Vec::new()),
            building: Mutex::new(()),
        }
    }

    /// The most pieces, 0 when off.
    pub(crate) fn pieces(&self) -> u8 {
        self.pieces
    }

    /// The same source with another piece count (the tables built so far are dropped).
    pub(crate) fn with_pieces(&self, pieces: u8) -> TableSource<G> {
        TableSource::with(self.tables, pieces, self.dir.clone(), self.threads)
    }

    /// The same source with another cache directory.
    pub(crate) fn with_dir(&self, dir: Option<PathBuf>) -> TableSource<G> {
        TableSource::with(self.tables, self.pieces, dir, self.threads)
    }

    /// The key of `state`'s tables, `None` when off.
    pub(crate) fn key(&self, state: &G) -> Option<String> {
        let tables = self.tables.as_ref()?;
        (self.pieces > 0).then(|| (tables.key)(state))
    }

    /// The tables for `state` (built now if they are not at hand), `None` when off.
    ///
    /// # Errors
    /// The game's build error, one line.
    pub(crate) fn tables_for(
        &self,
        state: &G,
        log: &mut dyn FnMut(&str),
    ) -> Result<Option<Arc<dyn Probe<G>>>, String> {
        self.build_if(state, &|| true, log)
    }

    /// The tables for `state` if they are built already, `None` otherwise (or when off). Never
    /// waits for a build in progress.
    pub(crate) fn cached(&self, state: &G) -> Option<Arc<dyn Probe<G>>> {
        let key = self.key(state)?;
        let mut built = self.built.lock().unwrap_or_else(|e| e.into_inner());
        let i = built.iter().position(|(k, _)| *k == key)?;
        let entry = built.remove(i);
        let probe = Arc::clone(&entry.1);
        built.push(entry);
        Some(probe)
    }

    /// [`Self::tables_for`], but the build (once its turn comes) is made only while `wanted()`
    /// says so: `Ok(None)` when the tables are no longer wanted (or when off).
    ///
    /// # Errors
    /// The game's build error, one line.
    pub(crate) fn build_if(
        &self,
        state: &G,
        wanted: &dyn Fn() -> bool,
        log: &mut dyn FnMut(&str),
    ) -> Result<Option<Arc<dyn Probe<G>>>, String> {
        let (Some(tables), Some(key)) = (self.tables.as_ref(), self.key(state)) else {
            return Ok(None);
        };
        // Held while building: another worker wanting the same tables waits for them.
        let _building = self.building.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(probe) = self.cached(state) {
            return Ok(Some(probe));
        }
        if !wanted() {
            return Ok(None);
        }
        let probe = (tables.build)(state, self.pieces, self.dir.as_deref(), self.threads, log)?;
        let mut built = self.built.lock().unwrap_or_else(|e| e.into_inner());
        if built.len() >= KEPT {
            built.remove(0);
        }
        built.push((key, Arc::clone(&probe)));
        Ok(Some(probe))
    }
}

/// The tables of `state` for a command that prints (`analyze`, `play`), given to `searcher`:
/// progress lines and a build that failed are printed as `tables: ...` (the search then goes
/// on without tables); a searcher that cannot use them is an error. Returns the tables given.
///
/// # Errors
/// The searcher refuses tables, or the output fails.
pub(crate) fn equip_command<G: Game>(
    source: &TableSource<G>,
    searcher: &mut dyn Searcher<G>,
    state: &G,
    output: &mut dyn Write,
) -> Result<Option<Arc<dyn Probe<G>>>, CliError> {
    let mut failure = None;
    let probe = source.tables_for(state, &mut |line| {
        if failure.is_none() {
            failure = writeln!(output, "tables: {line}").err();
        }
    });
    if let Some(err) = failure {
        return Err(err.into());
    }
    let probe = match probe {
        Ok(probe) => probe,
        Err(why) => {
            writeln!(output, "tables: not used: {why}")?;
            None
        }
    };
    if let Some(probe) = &probe {
        searcher
            .set_endgame_tables(Some(Arc::clone(probe)))
            .map_err(|e| {
                CliError::Invalid(format!(
                    "{e}: give --tables off, or a searcher that uses them"
                ))
            })?;
    }
    Ok(probe)
}

/// A [`SearchAgent`] that gets its tables from a shared source when a game starts (outside the
/// move's clock) and whenever a position has other tables.
pub(crate) struct TablesAgent<G: Game> {
    inner: SearchAgent<G>,
    source: Arc<TableSource<G>>,
    /// The key of the tables the searcher has.
    key: Option<String>,
    /// Why the tables could not be had, given as the failure of the move.
    failure: Option<String>,
}

impl<G: Game> TablesAgent<G> {
    pub(crate) fn new(inner: SearchAgent<G>, source: Arc<TableSource<G>>) -> TablesAgent<G> {
        TablesAgent {
            inner,
            source,
            key: None,
            failure: None,
        }
    }

    /// Gives the searcher the tables of `state` if it has not got them. Tables that cannot be
    /// built (too long a distance, too little memory) leave it without tables, with a warning
    /// in the log; a searcher refusing them (checked before the first game) fails the move.
    fn equip(&mut self, state: &G) -> bool {
        let key = self.source.key(state);
        if key.is_none() || key == self.key {
            return true;
        }
        self.key = key;
        let probe = match self.source.tables_for(state, &mut |_| {}) {
            Ok(probe) => probe,
            Err(why) => {
                tracing::warn!("endgame tables not used: {why}");
                None
            }
        };
        let searcher = self.inner.ponderer().searcher();
        match searcher.set_endgame_tables(probe) {
            Ok(()) => true,
            Err(why) => {
                self.failure = Some(why);
                false
            }
        }
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
        self.equip(start);
    }

    fn choose(
        &mut self,
        state: &G,
        history: &GameHistory,
        budget: &SearchLimits,
    ) -> Option<Choice<G::Move>> {
        self.failure = None;
        if !self.equip(state) {
            return None;
        }
        self.inner.choose(state, history, budget)
    }

    fn observe(&mut self, before: &G, mv: G::Move) {
        self.inner.observe(before, mv);
    }

    fn failure(&mut self) -> Option<String> {
        self.failure.take()
    }
}
