//! The store's SQLite backend: checking a file before SQLite opens it, creating and migrating
//! the schema in it, its size, compaction and integrity check, and carrying the store's
//! statements ([`super::sql::Sql`]) to the connection.
//!
//! Key invariants: nothing is written to a file before it is known to be a new file or a
//! plies store (its `application_id` is [`APPLICATION_ID`] and it has the marker table), so a
//! foreign database is never touched; the schema is changed only by [`MIGRATIONS`], in order,
//! each under one write transaction, and `PRAGMA user_version` says how many ran; every write
//! is one `IMMEDIATE` transaction (WAL mode, a busy timeout of [`BUSY_TIMEOUT`]), so a killed
//! writer loses at most the write it had not committed and concurrent writers wait for each
//! other.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, TransactionBehavior};

use super::error::StoreError;
use super::sql::{BackendError, Cell, Row, Sql, Value};

/// The `PRAGMA application_id` of a plies store: `plie` in ASCII. A database with another id
/// belongs to another application and is refused.
pub(crate) const APPLICATION_ID: i32 = 0x706c_6965;

/// How long a write waits for another process's write to finish before failing.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The table whose presence (beside the application id) marks a plies store; it holds
/// `key`/`value` facts about the store (who created it).
pub(crate) const MARKER_TABLE: &str = "plies_store";

/// The schema, as ordered steps: step `n` (from 1) takes a store from version `n - 1` to `n`.
/// A step is never changed once released; a new schema is a new step at the end, here and in
/// PostgreSQL's ([`super::postgres::MIGRATIONS`]).
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

/// The first 16 bytes of every SQLite database file.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// What an open store file is: a new one (no tables, no id) or a plies store of a version.
pub(crate) enum Opened {
    /// A new store: nothing in the file yet.
    New,
    /// A plies store of this schema version.
    Version(i64),
}

/// An open SQLite store file.
pub(crate) struct SqliteDb {
    connection: Connection,
    path: PathBuf,
}

impl SqliteDb {
    /// Opens the file at `path` and says what it is, refusing a path that is not a regular
    /// file, a file without SQLite's header and an SQLite database of another application;
    /// WAL mode is set only on a file that is new or a plies store.
    pub(crate) fn open(path: &Path) -> Result<(SqliteDb, Opened), StoreError> {
        check_file(path)?;
        let sqlite = |action| move |e| StoreError::sqlite(path, action, e);
        let connection = Connection::open(path).map_err(sqlite("open"))?;
        connection
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(sqlite("open"))?;
        let db = SqliteDb {
            connection,
            path: path.to_path_buf(),
        };
        // Read-only looks first: a foreign database is refused before anything is written.
        // One read transaction, so that the looks see one state of the file (not a store half
        // way through its creation by another process: tables but no id yet).
        let (id, version, marked, tables) = {
            let read =
                rusqlite::Transaction::new_unchecked(&db.connection, TransactionBehavior::Deferred)
                    .map_err(sqlite("read"))?;
            let identity = db.identity()?;
            read.commit().map_err(sqlite("read"))?;
            identity
        };
        let new = id == 0 && tables == 0;
        if !new && (id != APPLICATION_ID || !marked) {
            return Err(db.foreign());
        }
        let mode: String = db
            .connection
            .pragma_query_value(None, "journal_mode", |row| row.get(0))
            .map_err(sqlite("open"))?;
        if !mode.eq_ignore_ascii_case("wal") {
            db.connection
                .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0))
                .map_err(sqlite("open"))?;
        }
        // In WAL mode NORMAL loses no committed write when a process dies (only a power loss
        // may lose the last few), and spares a sync per commit.
        db.connection
            .pragma_update(None, "synchronous", "NORMAL")
            .map_err(sqlite("open"))?;
        Ok((
            db,
            if new {
                Opened::New
            } else {
                Opened::Version(version)
            },
        ))
    }

    /// The refusal of this file as another application's.
    fn foreign(&self) -> StoreError {
        StoreError::Foreign {
            path: self.path.clone(),
            kind: "an SQLite database",
        }
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
    pub(crate) fn migrate(&self) -> Result<(), StoreError> {
        let write = |e| StoreError::sqlite(&self.path, "create", e);
        let transaction =
            rusqlite::Transaction::new_unchecked(&self.connection, TransactionBehavior::Immediate)
                .map_err(write)?;
        let (id, version, marked, tables) = self.identity()?;
        if !(id == 0 && tables == 0) && (id != APPLICATION_ID || !marked) {
            return Err(self.foreign());
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

    /// Runs `f` on the connection, outside an explicit transaction (each statement reads one
    /// state of the file).
    pub(crate) fn read<T>(
        &self,
        f: &mut dyn FnMut(&mut dyn Sql) -> Result<T, BackendError>,
    ) -> Result<T, BackendError> {
        f(&mut On(&self.connection))
    }

    /// Runs `f` in one `IMMEDIATE` transaction (the write lock taken at once), committed when
    /// `f` succeeds and rolled back when it fails.
    pub(crate) fn write<T>(
        &self,
        f: &mut dyn FnMut(&mut dyn Sql) -> Result<T, BackendError>,
    ) -> Result<T, BackendError> {
        let transaction =
            rusqlite::Transaction::new_unchecked(&self.connection, TransactionBehavior::Immediate)?;
        let value = f(&mut On(&transaction))?;
        transaction.commit()?;
        Ok(value)
    }

    /// Rewrites the file without its free pages and empties the write-ahead log into it.
    pub(crate) fn compact(&self) -> Result<(), BackendError> {
        self.connection.execute_batch("VACUUM")?;
        self.connection
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }

    /// SQLite's integrity check of the whole file: `ok`, or what is wrong (it reads every page).
    pub(crate) fn check(&self) -> Result<String, BackendError> {
        let mut statement = self.connection.prepare("PRAGMA integrity_check")?;
        let lines = statement
            .query_map([], |row| row.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(lines.join("; "))
    }
}

/// The store's statements on an SQLite connection (or a transaction, which derefs to one),
/// each prepared once and cached by the connection.
struct On<'a>(&'a Connection);

impl Sql for On<'_> {
    fn execute(&mut self, sql: &str, params: &[Value<'_>]) -> Result<u64, BackendError> {
        let mut statement = self.0.prepare_cached(sql)?;
        let changed = statement.execute(rusqlite::params_from_iter(params.iter()))?;
        Ok(changed as u64)
    }

    fn query(&mut self, sql: &str, params: &[Value<'_>]) -> Result<Vec<Row>, BackendError> {
        let mut statement = self.0.prepare_cached(sql)?;
        let columns = statement.column_count();
        let mut rows = statement.query(rusqlite::params_from_iter(params.iter()))?;
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            let mut cells = Vec::with_capacity(columns);
            for index in 0..columns {
                cells.push(match row.get_ref(index)? {
                    ValueRef::Null => Cell::Null,
                    ValueRef::Integer(n) => Cell::Int(n),
                    ValueRef::Text(bytes) => Cell::Text(String::from_utf8_lossy(bytes).into()),
                    ValueRef::Real(_) | ValueRef::Blob(_) => {
                        return Err(BackendError::Cell(format!(
                            "column {index} holds a value of a type plies never writes"
                        )));
                    }
                });
            }
            out.push(cells);
        }
        Ok(out)
    }
}

impl rusqlite::ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Text(text) => ToSqlOutput::Borrowed(ValueRef::Text(text.as_bytes())),
            Value::Int(n) => ToSqlOutput::Owned(rusqlite::types::Value::Integer(*n)),
        })
    }
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
