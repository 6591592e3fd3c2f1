//! The store's SQLite file: opening it (refusing a file that is not a plies store), creating
//! and migrating its schema, and every read and write of its rows.
//!
//! Key invariants: nothing is written to a file before it is known to be a new file or a
//! plies store (its `application_id` is [`APPLICATION_ID`] and it has the marker table), so a
//! foreign database is never touched; the schema is changed only by [`MIGRATIONS`], in order,
//! each under one write transaction, and `PRAGMA user_version` says how many ran; every write
//! is one transaction (WAL mode, a busy timeout of [`BUSY_TIMEOUT`]), so a killed writer
//! loses at most the write it had not committed and concurrent writers wait for each other.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::error::StoreError;
use super::games::{GameRow, MoveCount, MoverResult, PlayedMove, result_text};
use super::record::{Analysis, Bound, score_of, score_parts};

/// The `PRAGMA application_id` of a plies store: `plie` in ASCII. A database with another id
/// belongs to another application and is refused.
pub(crate) const APPLICATION_ID: i32 = 0x706c_6965;

/// How long a write waits for another process's write to finish before failing.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The table whose presence (beside the application id) marks a plies store; it holds
/// `key`/`value` facts about the store (who created it).
const MARKER_TABLE: &str = "plies_store";

/// The schema, as ordered steps: step `n` (from 1) takes a store from version `n - 1` to `n`.
/// A step is never changed once released; a new schema is a new step at the end.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: the marker table and the analyses, one row per position and searcher family.
    "CREATE TABLE plies_store (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) STRICT;
     INSERT INTO plies_store (key, value) VALUES ('created_by', 'plies');
     CREATE TABLE analyses (
         game TEXT NOT NULL,
         variant TEXT NOT NULL,
         position TEXT NOT NULL,
         family TEXT NOT NULL,
         depth INTEGER NOT NULL CHECK (depth >= 1),
         score_kind TEXT NOT NULL CHECK (score_kind IN ('cp', 'win_in', 'loss_in')),
         score INTEGER NOT NULL,
         bound TEXT NOT NULL CHECK (bound IN ('exact', 'lower', 'upper')),
         best TEXT NOT NULL,
         pv TEXT NOT NULL,
         nodes INTEGER NOT NULL CHECK (nodes >= 0),
         engine TEXT NOT NULL,
         version TEXT NOT NULL,
         searcher TEXT NOT NULL,
         written INTEGER NOT NULL,
         PRIMARY KEY (game, variant, position, family)
     ) STRICT;
     CREATE INDEX analyses_by_worth ON analyses (depth, written);",
    // 2: finished games, and the explorer's index of them: per game, each position it passed
    // (the first time) with the move played there and the result from the mover's view.
    "CREATE TABLE games (
         id INTEGER PRIMARY KEY,
         game TEXT NOT NULL,
         variant TEXT NOT NULL,
         start TEXT NOT NULL,
         first TEXT NOT NULL,
         second TEXT NOT NULL,
         settings TEXT NOT NULL,
         result TEXT NOT NULL CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
         termination TEXT NOT NULL,
         moves TEXT NOT NULL,
         plies INTEGER NOT NULL CHECK (plies >= 0),
         source TEXT NOT NULL,
         played INTEGER NOT NULL
     ) STRICT;
     CREATE TABLE game_moves (
         game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
         ply INTEGER NOT NULL CHECK (ply >= 0),
         game TEXT NOT NULL,
         variant TEXT NOT NULL,
         position TEXT NOT NULL,
         move TEXT NOT NULL,
         mover_result TEXT NOT NULL CHECK (mover_result IN ('win', 'draw', 'loss')),
         PRIMARY KEY (game_id, ply)
     ) STRICT;
     CREATE INDEX game_moves_by_position ON game_moves (game, variant, position, move);",
];

/// The schema version this plies writes: the number of [`MIGRATIONS`].
pub(crate) fn schema_version() -> i64 {
    MIGRATIONS.len() as i64
}

/// The first 16 bytes of every SQLite database file.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// What became of a write ([`Store::put`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Put {
    /// The analysis is stored (there was none of its key, or a shallower or as deep and older
    /// one, which it replaced).
    Written,
    /// The store already holds a deeper analysis of the key (or as deep and newer): kept.
    Kept,
    /// The store's files are at or over the size limit: nothing was written.
    OverLimit {
        /// The store's size in bytes (the database and its write-ahead log).
        size: u64,
    },
}

/// Counts of the store ([`Store::stats`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Stats {
    /// Analyses of each game, by game name.
    pub games: Vec<(String, u64)>,
    /// Distinct positions of the game asked about.
    pub positions: u64,
    /// The store's size in bytes (database and write-ahead log).
    pub size: u64,
}

/// What [`Store::prune`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pruned {
    /// Analyses removed.
    pub removed: u64,
    /// Analyses left.
    pub left: u64,
    /// The size before, in bytes.
    pub before: u64,
    /// The size after, in bytes.
    pub after: u64,
}

/// An open plies store.
pub(crate) struct Store {
    connection: Connection,
    path: PathBuf,
    /// Writes are skipped once the files hold this many bytes.
    limit: u64,
}

impl Store {
    /// Opens the store at `path`, creating it (and its schema) when the file does not exist or
    /// is empty, migrating an older schema, and refusing anything that is not a plies store:
    /// a path that is not a regular file, a file without SQLite's header, an SQLite database
    /// of another application, a damaged one, one of a newer schema. Writes are skipped once
    /// the files hold `limit` bytes.
    pub(crate) fn open(path: &Path, limit: u64) -> Result<Store, StoreError> {
        retrying(|| Store::open_once(path, limit))
    }

    /// One try of [`Store::open`].
    fn open_once(path: &Path, limit: u64) -> Result<Store, StoreError> {
        check_file(path)?;
        let sqlite = |action| move |e| StoreError::sqlite(path, action, e);
        let connection = Connection::open(path).map_err(sqlite("open"))?;
        connection
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(sqlite("open"))?;
        let store = Store {
            connection,
            path: path.to_path_buf(),
            limit,
        };
        // Read-only looks first: a foreign database is refused before anything is written.
        // One read transaction, so that the looks see one state of the file (not a store half
        // way through its creation by another process: tables but no id yet).
        let (id, version, marked, tables) = {
            let read = rusqlite::Transaction::new_unchecked(
                &store.connection,
                TransactionBehavior::Deferred,
            )
            .map_err(sqlite("read"))?;
            let identity = store.identity()?;
            read.commit().map_err(sqlite("read"))?;
            identity
        };
        let new = id == 0 && tables == 0;
        if !new && (id != APPLICATION_ID || !marked) {
            return Err(StoreError::Foreign {
                path: path.to_path_buf(),
            });
        }
        if version > schema_version() {
            return Err(StoreError::Newer {
                path: path.to_path_buf(),
                version,
                known: schema_version(),
            });
        }
        let mode: String = store
            .connection
            .pragma_query_value(None, "journal_mode", |row| row.get(0))
            .map_err(sqlite("open"))?;
        if !mode.eq_ignore_ascii_case("wal") {
            store
                .connection
                .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0))
                .map_err(sqlite("open"))?;
        }
        // In WAL mode NORMAL loses no committed write when a process dies (only a power loss
        // may lose the last few), and spares a sync per commit.
        store
            .connection
            .pragma_update(None, "synchronous", "NORMAL")
            .map_err(sqlite("open"))?;
        if new || version < schema_version() {
            store.migrate()?;
        }
        Ok(store)
    }

    /// The store's file.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The application id, the schema version, whether the marker table is there and how many
    /// tables there are.
    fn identity(&self) -> Result<(i32, i64, bool, i64), StoreError> {
        let read = |e| StoreError::sqlite(&self.path, "read", e);
        let id: i32 = self
            .connection
            .pragma_query_value(None, "application_id", |row| row.get(0))
            .map_err(read)?;
        let version: i64 = self
            .connection
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(read)?;
        let (tables, marked): (i64, i64) = self
            .connection
            .query_row(
                "SELECT count(*), count(*) FILTER (WHERE name = ?1) FROM sqlite_schema \
                 WHERE type = 'table'",
                [MARKER_TABLE],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .map_err(read)?;
        Ok((id, version, marked == 1, tables))
    }

    /// Runs the migrations the store has not run, under one write transaction that first looks
    /// again (another process may have created or migrated the store meanwhile).
    fn migrate(&self) -> Result<(), StoreError> {
        let write = |e| StoreError::sqlite(&self.path, "create", e);
        let transaction =
            rusqlite::Transaction::new_unchecked(&self.connection, TransactionBehavior::Immediate)
                .map_err(write)?;
        let (id, version, marked, tables) = self.identity()?;
        if !(id == 0 && tables == 0) && (id != APPLICATION_ID || !marked) {
            return Err(StoreError::Foreign {
                path: self.path.clone(),
            });
        }
        for (done, step) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
            transaction.execute_batch(step).map_err(write)?;
            transaction
                .pragma_update(None, "user_version", done as i64 + 1)
                .map_err(write)?;
        }
        transaction
            .pragma_update(None, "application_id", APPLICATION_ID)
            .map_err(write)?;
        transaction.commit().map_err(write)
    }

    /// The bytes the store takes: the database file and its write-ahead log.
    pub(crate) fn size(&self) -> u64 {
        let len = |path: &Path| fs::metadata(path).map_or(0, |m| m.len());
        len(&self.path) + len(&wal_path(&self.path))
    }

    /// The size limit writes keep to, in bytes.
    pub(crate) fn limit(&self) -> u64 {
        self.limit
    }

    /// The analysis of `position` of `game` (under `variant`) by the searcher family `family`.
    pub(crate) fn get(
        &self,
        game: &str,
        variant: &str,
        position: &str,
        family: &str,
    ) -> Result<Option<Analysis>, StoreError> {
        retrying(|| self.get_once(game, variant, position, family))
    }

    /// One try of [`Store::get`].
    fn get_once(
        &self,
        game: &str,
        variant: &str,
        position: &str,
        family: &str,
    ) -> Result<Option<Analysis>, StoreError> {
        let mut statement = self
            .connection
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM analyses \
                 WHERE game = ?1 AND variant = ?2 AND position = ?3 AND family = ?4"
            ))
            .map_err(|e| StoreError::sqlite(&self.path, "read", e))?;
        statement
            .query_row(params![game, variant, position, family], |row| {
                analysis_of(row)
            })
            .optional()
            .map_err(|e| StoreError::sqlite(&self.path, "read", e))?
            .transpose()
            .map_err(|reason| StoreError::Damaged {
                path: self.path.clone(),
                reason,
            })
    }

    /// Writes `analysis` in a transaction of its own, unless the store holds a better one of
    /// its key (deeper, or as deep and newer) or is at its size limit.
    pub(crate) fn put(&mut self, analysis: &Analysis) -> Result<Put, StoreError> {
        let size = self.size();
        if size >= self.limit {
            return Ok(Put::OverLimit { size });
        }
        retrying(|| self.put_once(analysis))
    }

    /// One try of [`Store::put`]'s transaction.
    fn put_once(&self, analysis: &Analysis) -> Result<Put, StoreError> {
        let write = |e| StoreError::sqlite(&self.path, "write", e);
        let transaction =
            rusqlite::Transaction::new_unchecked(&self.connection, TransactionBehavior::Immediate)
                .map_err(write)?;
        let changed = upsert(&transaction, analysis).map_err(write)?;
        transaction.commit().map_err(write)?;
        Ok(if changed { Put::Written } else { Put::Kept })
    }

    /// Writes every analysis of `analyses` in one transaction (all or none), each kept by the
    /// rule of [`Store::put`]; returns how many were written. The size limit is the caller's
    /// to check ([`Store::size`], [`Store::limit`]).
    pub(crate) fn put_all(&mut self, analyses: &[Analysis]) -> Result<u64, StoreError> {
        let write = |e| StoreError::sqlite(&self.path, "write", e);
        let transaction = self
            .connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(write)?;
        let mut written = 0;
        for analysis in analyses {
            if upsert(&transaction, analysis).map_err(write)? {
                written += 1;
            }
        }
        transaction.commit().map_err(write)?;
        Ok(written)
    }

    /// Every analysis of `game`, ordered by variant, position and family.
    pub(crate) fn all(&self, game: &str) -> Result<Vec<Analysis>, StoreError> {
        let read = |e| StoreError::sqlite(&self.path, "read", e);
        let mut statement = self
            .connection
            .prepare(&format!(
                "SELECT {COLUMNS} FROM analyses WHERE game = ?1 \
                 ORDER BY variant, position, family"
            ))
            .map_err(read)?;
        let rows = statement
            .query_map([game], analysis_of)
            .map_err(read)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(read)?;
        rows.into_iter()
            .collect::<Result<Vec<_>, String>>()
            .map_err(|reason| StoreError::Damaged {
                path: self.path.clone(),
                reason,
            })
    }

    /// The number of analyses of each game, and of positions of `game`.
    pub(crate) fn stats(&self, game: &str) -> Result<Stats, StoreError> {
        let read = |e| StoreError::sqlite(&self.path, "read", e);
        let mut statement = self
            .connection
            .prepare("SELECT game, count(*) FROM analyses GROUP BY game ORDER BY game")
            .map_err(read)?;
        let games = statement
            .query_map([], |row| Ok((row.get(0)?, row.get::<_, i64>(1)? as u64)))
            .map_err(read)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(read)?;
        let positions: i64 = self
            .connection
            .query_row(
                "SELECT count(DISTINCT variant || char(10) || position) FROM analyses \
                 WHERE game = ?1",
                [game],
                |row| row.get(0),
            )
            .map_err(read)?;
        Ok(Stats {
            games,
            positions: positions as u64,
            size: self.size(),
        })
    }

    /// SQLite's integrity check of the whole file: `ok`, or what is wrong (it reads every page).
    pub(crate) fn check(&self) -> Result<String, StoreError> {
        let read = |e| StoreError::sqlite(&self.path, "check", e);
        let mut statement = self
            .connection
            .prepare("PRAGMA integrity_check")
            .map_err(read)?;
        let lines = statement
            .query_map([], |row| row.get::<_, String>(0))
            .map_err(read)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(read)?;
        Ok(lines.join("; "))
    }

    /// Removes analyses, shallowest first (the oldest first among as deep), until the store's
    /// files hold at most `max` bytes, compacting the file after each round; stops with every
    /// analysis removed when even the empty store is larger.
    pub(crate) fn prune(&mut self, max: u64) -> Result<Pruned, StoreError> {
        let fail = |e| StoreError::sqlite(&self.path, "prune", e);
        self.compact()?;
        let before = self.size();
        let mut removed = 0;
        loop {
            let rows = self.count()?;
            let size = self.size();
            if size <= max || rows == 0 {
                return Ok(Pruned {
                    removed,
                    left: rows,
                    before,
                    after: size,
                });
            }
            // Bytes per row of the pages in use; aim a little under the limit, and remove at
            // least a 64th of the rows a round, so that the rounds are few.
            let (pages, free, page_size): (i64, i64, i64) = self
                .connection
                .query_row(
                    "SELECT * FROM pragma_page_count(), pragma_freelist_count(), \
                     pragma_page_size()",
                    [],
                    |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
                )
                .map_err(fail)?;
            let used = ((pages - free).max(1) * page_size) as u64;
            let per_row = (used / rows).max(1);
            let keep = (max.saturating_mul(9) / 10 / per_row).min(rows - rows.div_ceil(64));
            let remove = rows - keep;
            let transaction = self
                .connection
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(fail)?;
            transaction
                .execute(
                    "DELETE FROM analyses WHERE rowid IN (SELECT rowid FROM analyses \
                     ORDER BY depth, written LIMIT ?1)",
                    [remove as i64],
                )
                .map_err(fail)?;
            transaction.commit().map_err(fail)?;
            removed += remove;
            self.compact()?;
        }
    }

    /// Writes the finished game `game` and the explorer's rows of it (`moves`: the positions it
    /// passed, each once, with the move played there) in one transaction, unless the store is
    /// at its size limit; returns the game's row id, or `None` when over the limit.
    pub(crate) fn put_game(
        &mut self,
        game: &GameRow,
        moves: &[PlayedMove],
    ) -> Result<Option<i64>, StoreError> {
        if self.size() >= self.limit {
            return Ok(None);
        }
        retrying(|| self.put_game_once(game, moves)).map(Some)
    }

    /// One try of [`Store::put_game`]'s transaction.
    fn put_game_once(&self, game: &GameRow, moves: &[PlayedMove]) -> Result<i64, StoreError> {
        let write = |e| StoreError::sqlite(&self.path, "write", e);
        let transaction =
            rusqlite::Transaction::new_unchecked(&self.connection, TransactionBehavior::Immediate)
                .map_err(write)?;
        transaction
            .execute(
                "INSERT INTO games (game, variant, start, first, second, settings, result, \
                 termination, moves, plies, source, played) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                params![
                    game.game,
                    game.variant,
                    game.start,
                    game.players[0],
                    game.players[1],
                    game.settings,
                    result_text(game.result),
                    game.termination,
                    game.moves.join(" "),
                    game.moves.len() as i64,
                    game.source,
                    game.played,
                ],
            )
            .map_err(write)?;
        let id = transaction.last_insert_rowid();
        {
            let mut statement = transaction
                .prepare_cached(
                    "INSERT INTO game_moves (game_id, ply, game, variant, position, move, \
                     mover_result) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                )
                .map_err(write)?;
            for played in moves {
                statement
                    .execute(params![
                        id,
                        i64::from(played.ply),
                        game.game,
                        game.variant,
                        played.position,
                        played.played,
                        played.result.as_str(),
                    ])
                    .map_err(write)?;
            }
        }
        transaction.commit().map_err(write)?;
        Ok(id)
    }

    /// The moves recorded games played at `position` of `game` (under `variant`), each with its
    /// count and results from the mover's view, the most played first (then by move text), at
    /// most `limit` of them. A row with a result plies does not write is refused as damaged.
    pub(crate) fn explore(
        &self,
        game: &str,
        variant: &str,
        position: &str,
        limit: usize,
    ) -> Result<Vec<MoveCount>, StoreError> {
        let read = |e| StoreError::sqlite(&self.path, "read", e);
        let mut statement = self
            .connection
            .prepare_cached(
                "SELECT move, count(*), \
                     count(*) FILTER (WHERE mover_result = 'win'), \
                     count(*) FILTER (WHERE mover_result = 'draw'), \
                     count(*) FILTER (WHERE mover_result = 'loss') \
                 FROM game_moves WHERE game = ?1 AND variant = ?2 AND position = ?3 \
                 GROUP BY move ORDER BY count(*) DESC, move LIMIT ?4",
            )
            .map_err(read)?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = statement
            .query_map(params![game, variant, position, limit], |row| {
                let count = |i| row.get::<_, i64>(i).map(|n| n.max(0) as u64);
                Ok(MoveCount {
                    played: row.get(0)?,
                    games: count(1)?,
                    wins: count(2)?,
                    draws: count(3)?,
                    losses: count(4)?,
                })
            })
            .map_err(read)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(read)?;
        if let Some(bad) = rows
            .iter()
            .find(|count| count.wins + count.draws + count.losses != count.games)
        {
            return Err(StoreError::Damaged {
                path: self.path.clone(),
                reason: format!(
                    "a game move '{}' of position '{}' has a result plies does not write",
                    plies::excerpt(&bad.played),
                    plies::excerpt(position)
                ),
            });
        }
        Ok(rows)
    }

    /// The number of recorded games of `game`.
    pub(crate) fn game_count(&self, game: &str) -> Result<u64, StoreError> {
        self.connection
            .query_row(
                "SELECT count(*) FROM games WHERE game = ?1",
                [game],
                |row| row.get::<_, i64>(0),
            )
            .map(|n| n.max(0) as u64)
            .map_err(|e| StoreError::sqlite(&self.path, "read", e))
    }

    /// Every recorded game of `game`, oldest first. A row with values plies does not write (a
    /// result, a ply count that disagrees with its moves) is refused as damaged.
    pub(crate) fn games(&self, game: &str) -> Result<Vec<GameRow>, StoreError> {
        let read = |e| StoreError::sqlite(&self.path, "read", e);
        let mut statement = self
            .connection
            .prepare(
                "SELECT id, game, variant, start, first, second, settings, result, \
                 termination, moves, plies, source, played FROM games WHERE game = ?1 \
                 ORDER BY id",
            )
            .map_err(read)?;
        let rows = statement
            .query_map([game], |row| {
                let id: i64 = row.get(0)?;
                let result: String = row.get(7)?;
                let moves: String = row.get(9)?;
                let plies: i64 = row.get(10)?;
                let moves: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
                let (Some(result), true) = (
                    MoverResult::game_result(&result),
                    plies == moves.len() as i64,
                ) else {
                    return Ok(Err(format!(
                        "game {id} holds values plies does not write (result '{}', {plies} \
                         plies)",
                        plies::excerpt(&result)
                    )));
                };
                Ok(Ok(GameRow {
                    game: row.get(1)?,
                    variant: row.get(2)?,
                    start: row.get(3)?,
                    players: [row.get(4)?, row.get(5)?],
                    settings: row.get(6)?,
                    result,
                    termination: row.get(8)?,
                    moves,
                    source: row.get(11)?,
                    played: row.get(12)?,
                }))
            })
            .map_err(read)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(read)?;
        rows.into_iter()
            .collect::<Result<Vec<_>, String>>()
            .map_err(|reason| StoreError::Damaged {
                path: self.path.clone(),
                reason,
            })
    }

    /// The number of analyses.
    fn count(&self) -> Result<u64, StoreError> {
        self.connection
            .query_row("SELECT count(*) FROM analyses", [], |row| {
                row.get::<_, i64>(0)
            })
            .map(|n| n as u64)
            .map_err(|e| StoreError::sqlite(&self.path, "read", e))
    }

    /// Rewrites the file without its free pages and empties the write-ahead log into it.
    fn compact(&self) -> Result<(), StoreError> {
        let fail = |e| StoreError::sqlite(&self.path, "compact", e);
        self.connection.execute_batch("VACUUM").map_err(fail)?;
        self.connection
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .map_err(fail)
    }
}

/// Runs `attempt` again while SQLite says the database is busy or locked, for at most
/// [`BUSY_TIMEOUT`]: SQLite answers some of those at once, without waiting in its busy handler
/// (a connection opening while the last one closes and checkpoints, a reader meeting a WAL
/// being recovered).
fn retrying<T>(mut attempt: impl FnMut() -> Result<T, StoreError>) -> Result<T, StoreError> {
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    let mut pause = Duration::from_millis(1);
    loop {
        match attempt() {
            Err(err) if err.is_busy() && std::time::Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            other => return other,
        }
    }
}

/// The columns of an analysis, in the order [`analysis_of`] reads them.
const COLUMNS: &str = "game, variant, position, family, depth, score_kind, score, bound, best, \
                       pv, nodes, engine, version, searcher, written";

/// The analysis of a row of [`COLUMNS`]; a value no plies writes (the file was changed by
/// hand, or damaged) is the inner error.
fn analysis_of(row: &rusqlite::Row<'_>) -> rusqlite::Result<Result<Analysis, String>> {
    let depth: i64 = row.get(4)?;
    let kind: String = row.get(5)?;
    let value: i64 = row.get(6)?;
    let bound: String = row.get(7)?;
    let nodes: i64 = row.get(10)?;
    let position: String = row.get(2)?;
    let (Some(score), Some(bound), Ok(depth), Ok(nodes)) = (
        score_of(&kind, value),
        Bound::parse(&bound),
        u32::try_from(depth),
        u64::try_from(nodes),
    ) else {
        return Ok(Err(format!(
            "a row of position '{}' holds values plies does not write",
            plies::excerpt(&position)
        )));
    };
    Ok(Ok(Analysis {
        game: row.get(0)?,
        variant: row.get(1)?,
        position,
        family: row.get(3)?,
        depth,
        score,
        bound,
        best: row.get(8)?,
        pv: row.get(9)?,
        nodes,
        engine: row.get(11)?,
        version: row.get(12)?,
        searcher: row.get(13)?,
        written: row.get(14)?,
    }))
}

/// Inserts `analysis`, or replaces the row of its key when that one is shallower (or as deep
/// and not newer); returns whether a row was written.
fn upsert(connection: &Connection, analysis: &Analysis) -> rusqlite::Result<bool> {
    let (kind, value) = score_parts(analysis.score);
    let mut statement = connection.prepare_cached(&format!(
        "INSERT INTO analyses ({COLUMNS}) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15) \
         ON CONFLICT (game, variant, position, family) DO UPDATE SET \
             depth = excluded.depth, score_kind = excluded.score_kind, score = excluded.score, \
             bound = excluded.bound, best = excluded.best, pv = excluded.pv, \
             nodes = excluded.nodes, engine = excluded.engine, version = excluded.version, \
             searcher = excluded.searcher, written = excluded.written \
         WHERE excluded.depth > analyses.depth \
            OR (excluded.depth = analyses.depth AND excluded.written >= analyses.written)"
    ))?;
    let changed = statement.execute(params![
        analysis.game,
        analysis.variant,
        analysis.position,
        analysis.family,
        i64::from(analysis.depth),
        kind,
        value,
        analysis.bound.as_str(),
        analysis.best,
        analysis.pv,
        i64::try_from(analysis.nodes).unwrap_or(i64::MAX),
        analysis.engine,
        analysis.version,
        analysis.searcher,
        analysis.written,
    ])?;
    Ok(changed > 0)
}

/// The write-ahead log beside the database `path` (`store.sqlite-wal`).
fn wal_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push("-wal");
    PathBuf::from(name)
}

/// Checks what is at `path` before SQLite opens it: nothing (a new store), an empty file, or a
/// regular file that starts with SQLite's header.
fn check_file(path: &Path) -> Result<(), StoreError> {
    let io = |action| {
        move |source| StoreError::Io {
            path: path.to_path_buf(),
            action,
            source,
        }
    };
    let metadata = match fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io("open")(e)),
    };
    if !metadata.is_file() {
        return Err(StoreError::NotAFile {
            path: path.to_path_buf(),
            kind: if metadata.is_dir() {
                "a directory"
            } else {
                "not a plain file"
            },
        });
    }
    if metadata.len() == 0 {
        return Ok(());
    }
    let mut header = Vec::with_capacity(SQLITE_HEADER.len());
    fs::File::open(path)
        .and_then(|file| {
            file.take(SQLITE_HEADER.len() as u64)
                .read_to_end(&mut header)
        })
        .map_err(io("read"))?;
    if header != SQLITE_HEADER {
        return Err(StoreError::NotSqlite {
            path: path.to_path_buf(),
        });
    }
    Ok(())
}
