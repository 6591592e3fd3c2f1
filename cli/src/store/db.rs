//! The store ([`Store`]) over either database: SQLite, a file ([`super::sqlite`]), or
//! PostgreSQL, a server ([`super::postgres`]). Every read and write of the store's rows is
//! written here once, in the SQL both read alike, through [`Sql`]; the backends differ only
//! in opening, the schema's types, size, compaction and checks.
//!
//! Key invariants: a store is used only once its backend has checked it is new or a plies
//! store, and then migrated it to [`schema_version`]; a store of a newer schema is refused;
//! every write is one transaction of its backend (retried while the database says another
//! writer is in the way), so a killed writer loses at most the write it had not committed and
//! concurrent writers wait for each other; a value no plies writes, read back, is damage,
//! never an answer.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::StoreLocation;
use super::error::StoreError;
use super::games::{GameRow, MoveCount, MoverResult, PlayedMove, result_text};
use super::postgres::PostgresDb;
use super::record::{Analysis, Bound, score_of, score_parts};
use super::sql::{BackendError, Cells, Sql, Value};
use super::sqlite::{BUSY_TIMEOUT, Opened, SqliteDb};

/// The explorer rows one `INSERT` writes at most (7 parameters each: 224, within SQLite's
/// and PostgreSQL's limits).
const MOVE_ROWS_PER_INSERT: usize = 32;

/// `INSERT INTO game_moves ...` of `rows` rows, parameters `?1` to `?(7 rows)` in row order.
fn insert_moves_sql(rows: usize) -> String {
    let values: Vec<String> = (0..rows)
        .map(|row| {
            let cells: Vec<String> = (1..=7).map(|i| format!("?{}", 7 * row + i)).collect();
            format!("({})", cells.join(", "))
        })
        .collect();
    format!(
        "INSERT INTO game_moves (game_id, ply, game, variant, position, move, mover_result) \
         VALUES {}",
        values.join(", ")
    )
}

#[cfg(test)]
pub(crate) use super::sqlite::{APPLICATION_ID, MIGRATIONS};

/// The schema version this plies writes: the number of migration steps (the same for both
/// backends).
pub(crate) fn schema_version() -> i64 {
    super::sqlite::MIGRATIONS.len() as i64
}

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

/// The database a store is in.
enum Backend {
    /// An SQLite file.
    Sqlite(SqliteDb),
    /// A PostgreSQL server's database (boxed: its client is large beside SQLite's).
    Postgres(Box<PostgresDb>),
}

/// An open plies store.
pub(crate) struct Store {
    backend: Backend,
    /// The file, or the server's URL without its password: what messages name.
    path: PathBuf,
    /// Writes are skipped once the store holds this many bytes.
    limit: u64,
}

impl Store {
    /// Opens the SQLite store at `path`, creating it (and its schema) when the file does not
    /// exist or is empty, migrating an older schema, and refusing anything that is not a plies
    /// store: a path that is not a regular file, a file without SQLite's header, an SQLite
    /// database of another application, a damaged one, one of a newer schema. Writes are
    /// skipped once the files hold `limit` bytes.
    pub(crate) fn open(path: &Path, limit: u64) -> Result<Store, StoreError> {
        retrying(|| {
            let (db, opened) = SqliteDb::open(path)?;
            Store {
                backend: Backend::Sqlite(db),
                path: path.to_path_buf(),
                limit,
            }
            .ready(opened)
        })
    }

    /// Connects to the PostgreSQL store at `url` (`postgres://` or `postgresql://`), creating
    /// its schema in an empty database (its current schema), migrating an older one, and
    /// refusing a URL that does not read, a server that does not answer or refuses the login,
    /// a database of another application and one of a newer schema.
    pub(crate) fn connect(url: &str, limit: u64) -> Result<Store, StoreError> {
        let (db, opened) = PostgresDb::connect(url)?;
        Store {
            path: db.name().to_path_buf(),
            backend: Backend::Postgres(Box::new(db)),
            limit,
        }
        .ready(opened)
    }

    /// Opens the store at `location`: a file or a server; `off` is [`StoreError::Off`].
    pub(crate) fn open_location(location: &StoreLocation, limit: u64) -> Result<Store, StoreError> {
        match location {
            StoreLocation::Off => Err(StoreError::Off),
            StoreLocation::File(path) => Store::open(path, limit),
            StoreLocation::Postgres(url) => Store::connect(url, limit),
        }
    }

    /// The store, once its schema is this plies's: migrated when new or older, refused when
    /// newer.
    fn ready(self, opened: Opened) -> Result<Store, StoreError> {
        let version = match opened {
            Opened::New => 0,
            Opened::Version(version) => version,
        };
        if version > schema_version() {
            return Err(StoreError::Newer {
                path: self.path.clone(),
                version,
                known: schema_version(),
            });
        }
        if version < schema_version() || matches!(opened, Opened::New) {
            match &self.backend {
                Backend::Sqlite(db) => db.migrate()?,
                Backend::Postgres(db) => db.migrate()?,
            }
        }
        Ok(self)
    }

    /// The store's file, or its server's URL without the password.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The bytes the store takes: the database file and its write-ahead log, or the tables on
    /// the server (0 when the server does not answer: the write that follows will say why).
    pub(crate) fn size(&self) -> u64 {
        match &self.backend {
            Backend::Sqlite(db) => db.size(),
            Backend::Postgres(db) => db.size().unwrap_or(0),
        }
    }

    /// The size limit writes keep to, in bytes.
    pub(crate) fn limit(&self) -> u64 {
        self.limit
    }

    /// Runs `f` on the connection (outside an explicit transaction), retried while the
    /// database says it is busy; `action` names it in an error.
    fn read<T>(
        &self,
        action: &'static str,
        f: impl FnMut(&mut dyn Sql) -> Result<T, BackendError>,
    ) -> Result<T, StoreError> {
        self.run(action, false, f)
    }

    /// Runs `f` in one write transaction, committed when it succeeds, retried while the
    /// database says another writer is in the way.
    fn write<T>(
        &self,
        action: &'static str,
        f: impl FnMut(&mut dyn Sql) -> Result<T, BackendError>,
    ) -> Result<T, StoreError> {
        self.run(action, true, f)
    }

    /// [`Self::read`] or, with `write`, [`Self::write`], on either backend.
    fn run<T>(
        &self,
        action: &'static str,
        write: bool,
        mut f: impl FnMut(&mut dyn Sql) -> Result<T, BackendError>,
    ) -> Result<T, StoreError> {
        retrying(|| {
            match (&self.backend, write) {
                (Backend::Sqlite(db), false) => db.read(&mut f),
                (Backend::Sqlite(db), true) => db.write(&mut f),
                (Backend::Postgres(db), false) => db.read(&mut f),
                (Backend::Postgres(db), true) => db.write(&mut f),
            }
            .map_err(|e| StoreError::backend(&self.path, action, e))
        })
    }

    /// The analysis of `position` of `game` (under `variant`) by the searcher family `family`.
    pub(crate) fn get(
        &self,
        game: &str,
        variant: &str,
        position: &str,
        family: &str,
    ) -> Result<Option<Analysis>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM analyses \
             WHERE game = ?1 AND variant = ?2 AND position = ?3 AND family = ?4"
        );
        let params = [game, variant, position, family].map(Value::Text);
        self.read("read", |db| {
            db.query_first(&sql, &params)?
                .map(|row| analysis_of(&row))
                .transpose()
        })
    }

    /// Writes `analysis` in a transaction of its own, unless the store holds a better one of
    /// its key (deeper, or as deep and newer) or is at its size limit.
    pub(crate) fn put(&mut self, analysis: &Analysis) -> Result<Put, StoreError> {
        let size = self.size();
        if size >= self.limit {
            return Ok(Put::OverLimit { size });
        }
        let changed = self.write("write", |db| upsert(db, analysis))?;
        Ok(if changed { Put::Written } else { Put::Kept })
    }

    /// Writes every analysis of `analyses` in one transaction (all or none), each kept by the
    /// rule of [`Store::put`]; returns how many were written. The size limit is the caller's
    /// to check ([`Store::size`], [`Store::limit`]).
    pub(crate) fn put_all(&mut self, analyses: &[Analysis]) -> Result<u64, StoreError> {
        self.write("write", |db| {
            let mut written = 0;
            for analysis in analyses {
                if upsert(db, analysis)? {
                    written += 1;
                }
            }
            Ok(written)
        })
    }

    /// Every analysis of `game`, ordered by variant, position and family.
    pub(crate) fn all(&self, game: &str) -> Result<Vec<Analysis>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM analyses WHERE game = ?1 ORDER BY variant, position, family"
        );
        self.read("read", |db| {
            db.query(&sql, &[Value::Text(game)])?
                .iter()
                .map(|row| analysis_of(row))
                .collect()
        })
    }

    /// The number of analyses of each game, and of positions of `game`.
    pub(crate) fn stats(&self, game: &str) -> Result<Stats, StoreError> {
        let (games, positions) = self.read("read", |db| {
            let games = db
                .query(
                    "SELECT game, count(*) FROM analyses GROUP BY game ORDER BY game",
                    &[],
                )?
                .iter()
                .map(|row| Ok((row.text(0)?, row.int(1)?.max(0) as u64)))
                .collect::<Result<Vec<_>, BackendError>>()?;
            let positions = db
                .query_first(
                    "SELECT count(*) FROM (SELECT DISTINCT variant, position FROM analyses \
                     WHERE game = ?1) AS distinct_positions",
                    &[Value::Text(game)],
                )?
                .map_or(Ok(0), |row| row.int(0))?;
            Ok((games, positions.max(0) as u64))
        })?;
        Ok(Stats {
            games,
            positions,
            size: self.size(),
        })
    }

    /// The database's own check of the whole store: `ok`, or what is wrong (SQLite's
    /// integrity check reads every page; on PostgreSQL every row of the store's tables is read).
    pub(crate) fn check(&self) -> Result<String, StoreError> {
        match &self.backend {
            Backend::Sqlite(db) => db.check(),
            Backend::Postgres(db) => db.check(),
        }
        .map_err(|e| StoreError::backend(&self.path, "check", e))
    }

    /// Removes analyses, shallowest first (the oldest first among as deep), until the store
    /// holds at most `max` bytes, compacting it after each round; stops with every analysis
    /// removed when even the empty store is larger.
    pub(crate) fn prune(&mut self, max: u64) -> Result<Pruned, StoreError> {
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
            // Bytes per row of the compacted store; aim a little under the limit, and remove
            // at least a 64th of the rows a round, so that the rounds are few.
            let per_row = (size / rows).max(1);
            let keep = (max.saturating_mul(9) / 10 / per_row).min(rows - rows.div_ceil(64));
            let remove = rows - keep;
            self.write("prune", |db| {
                db.execute(
                    "DELETE FROM analyses WHERE (game, variant, position, family) IN \
                     (SELECT game, variant, position, family FROM analyses \
                      ORDER BY depth, written LIMIT ?1)",
                    &[Value::Int(remove as i64)],
                )
            })?;
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
        // A JSON array: a game's move texts may hold spaces (Onitama's `tiger b5-b3`).
        let text = serde_json::to_string(&game.moves).expect("strings serialize");
        self.write("write", |db| {
            let id = db
                .query_first(
                    "INSERT INTO games (game, variant, start, first, second, settings, result, \
                     termination, moves, plies, source, played) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) RETURNING id",
                    &[
                        Value::Text(&game.game),
                        Value::Text(&game.variant),
                        Value::Text(&game.start),
                        Value::Text(&game.players[0]),
                        Value::Text(&game.players[1]),
                        Value::Text(&game.settings),
                        Value::Text(result_text(game.result)),
                        Value::Text(&game.termination),
                        Value::Text(&text),
                        Value::Int(game.moves.len() as i64),
                        Value::Text(&game.source),
                        Value::Int(game.played),
                    ],
                )?
                .unwrap_or_default()
                .int(0)?;
            // Rows in batches: one statement (one round trip to a server) per batch.
            for batch in moves.chunks(MOVE_ROWS_PER_INSERT) {
                let mut params = Vec::with_capacity(7 * batch.len());
                for played in batch {
                    params.extend([
                        Value::Int(id),
                        Value::Int(i64::from(played.ply)),
                        Value::Text(&game.game),
                        Value::Text(&game.variant),
                        Value::Text(&played.position),
                        Value::Text(&played.played),
                        Value::Text(played.result.as_str()),
                    ]);
                }
                db.execute(&insert_moves_sql(batch.len()), &params)?;
            }
            Ok(id)
        })
        .map(Some)
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
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self.read("read", |db| {
            db.query(
                "SELECT move, count(*), \
                     count(*) FILTER (WHERE mover_result = 'win'), \
                     count(*) FILTER (WHERE mover_result = 'draw'), \
                     count(*) FILTER (WHERE mover_result = 'loss') \
                 FROM game_moves WHERE game = ?1 AND variant = ?2 AND position = ?3 \
                 GROUP BY move ORDER BY count(*) DESC, move LIMIT ?4",
                &[
                    Value::Text(game),
                    Value::Text(variant),
                    Value::Text(position),
                    Value::Int(limit),
                ],
            )?
            .iter()
            .map(|row| {
                let count = |i| row.int(i).map(|n| n.max(0) as u64);
                Ok(MoveCount {
                    played: row.text(0)?,
                    games: count(1)?,
                    wins: count(2)?,
                    draws: count(3)?,
                    losses: count(4)?,
                })
            })
            .collect::<Result<Vec<_>, BackendError>>()
        })?;
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
        self.read("read", |db| {
            db.query_first(
                "SELECT count(*) FROM games WHERE game = ?1",
                &[Value::Text(game)],
            )?
            .map_or(Ok(0), |row| row.int(0))
        })
        .map(|n| n.max(0) as u64)
    }

    /// Every recorded game of `game`, oldest first. A row with values plies does not write (a
    /// result, a ply count that disagrees with its moves) is refused as damaged.
    pub(crate) fn games(&self, game: &str) -> Result<Vec<GameRow>, StoreError> {
        self.read("read", |db| {
            db.query(
                "SELECT id, game, variant, start, first, second, settings, result, \
                 termination, moves, plies, source, played FROM games WHERE game = ?1 \
                 ORDER BY id",
                &[Value::Text(game)],
            )?
            .iter()
            .map(|row| {
                let id = row.int(0)?;
                let result = row.text(7)?;
                let plies = row.int(10)?;
                let moves = stored_moves(&row.text(9)?);
                let (Some(outcome), Some(moves)) = (
                    MoverResult::game_result(&result),
                    moves.filter(|moves| plies == moves.len() as i64),
                ) else {
                    return Err(BackendError::Cell(format!(
                        "game {id} holds values plies does not write (result '{}', {plies} \
                         plies)",
                        plies::excerpt(&result)
                    )));
                };
                Ok(GameRow {
                    game: row.text(1)?,
                    variant: row.text(2)?,
                    start: row.text(3)?,
                    players: [row.text(4)?, row.text(5)?],
                    settings: row.text(6)?,
                    result: outcome,
                    termination: row.text(8)?,
                    moves,
                    source: row.text(11)?,
                    played: row.int(12)?,
                })
            })
            .collect()
        })
    }

    /// The number of analyses.
    fn count(&self) -> Result<u64, StoreError> {
        self.read("read", |db| {
            db.query_first("SELECT count(*) FROM analyses", &[])?
                .map_or(Ok(0), |row| row.int(0))
        })
        .map(|n| n.max(0) as u64)
    }

    /// Gives the space of removed rows back: SQLite rewrites the file without its free pages
    /// and empties the write-ahead log; PostgreSQL rewrites the analyses' table.
    fn compact(&self) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Sqlite(db) => db.compact(),
            Backend::Postgres(db) => db.compact(),
        }
        .map_err(|e| StoreError::backend(&self.path, "compact", e))
    }
}

/// Runs `attempt` again while the database says it is busy or locked (SQLite) or cancelled a
/// transaction for another's sake (PostgreSQL), for at most [`BUSY_TIMEOUT`]: SQLite answers
/// some of those at once, without waiting in its busy handler (a connection opening while the
/// last one closes and checkpoints, a reader meeting a WAL being recovered).
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

/// The analysis of a row of [`COLUMNS`]; a value no plies writes (the store was changed by
/// hand, or damaged) is [`BackendError::Cell`].
fn analysis_of(row: &[super::sql::Cell]) -> Result<Analysis, BackendError> {
    let depth = row.int(4)?;
    let kind = row.text(5)?;
    let value = row.int(6)?;
    let bound = row.text(7)?;
    let nodes = row.int(10)?;
    let position = row.text(2)?;
    let (Some(score), Some(bound), Ok(depth), Ok(nodes)) = (
        score_of(&kind, value),
        Bound::parse(&bound),
        u32::try_from(depth),
        u64::try_from(nodes),
    ) else {
        return Err(BackendError::Cell(format!(
            "a row of position '{}' holds values plies does not write",
            plies::excerpt(&position)
        )));
    };
    Ok(Analysis {
        game: row.text(0)?,
        variant: row.text(1)?,
        position,
        family: row.text(3)?,
        depth,
        score,
        bound,
        best: row.text(8)?,
        pv: row.text(9)?,
        nodes,
        engine: row.text(11)?,
        version: row.text(12)?,
        searcher: row.text(13)?,
        written: row.int(14)?,
    })
}

/// Inserts `analysis`, or replaces the row of its key when that one is shallower (or as deep
/// and not newer); returns whether a row was written. One statement in both databases: an
/// upsert whose update is conditional, so concurrent writers of one key keep the rule.
fn upsert(db: &mut dyn Sql, analysis: &Analysis) -> Result<bool, BackendError> {
    let (kind, value) = score_parts(analysis.score);
    let changed = db.execute(
        &format!(
            "INSERT INTO analyses ({COLUMNS}) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15) \
             ON CONFLICT (game, variant, position, family) DO UPDATE SET \
                 depth = excluded.depth, score_kind = excluded.score_kind, \
                 score = excluded.score, bound = excluded.bound, best = excluded.best, \
                 pv = excluded.pv, nodes = excluded.nodes, engine = excluded.engine, \
                 version = excluded.version, searcher = excluded.searcher, \
                 written = excluded.written \
             WHERE excluded.depth > analyses.depth \
                OR (excluded.depth = analyses.depth AND excluded.written >= analyses.written)"
        ),
        &[
            Value::Text(&analysis.game),
            Value::Text(&analysis.variant),
            Value::Text(&analysis.position),
            Value::Text(&analysis.family),
            Value::Int(i64::from(analysis.depth)),
            Value::Text(kind),
            Value::Int(value),
            Value::Text(analysis.bound.as_str()),
            Value::Text(&analysis.best),
            Value::Text(&analysis.pv),
            Value::Int(i64::try_from(analysis.nodes).unwrap_or(i64::MAX)),
            Value::Text(&analysis.engine),
            Value::Text(&analysis.version),
            Value::Text(&analysis.searcher),
            Value::Int(analysis.written),
        ],
    )?;
    Ok(changed > 0)
}

/// The moves of a game row's `moves` text: a JSON array of move texts, or (rows written before
/// moves could hold spaces) move texts separated by spaces; `None` when it is neither.
fn stored_moves(text: &str) -> Option<Vec<String>> {
    if text.trim_start().starts_with('[') {
        serde_json::from_str(text).ok()
    } else {
        Some(text.split_whitespace().map(str::to_string).collect())
    }
}
