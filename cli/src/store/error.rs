//! [`StoreError`]: every way opening, reading or writing the position store fails.
//!
//! Key invariant: a [`StoreError`] displays as exactly one line naming the store (its file, or
//! its server's URL without the password) and what is wrong with it, whatever SQLite,
//! PostgreSQL or the system said.

use std::fmt;
use std::io;
use std::path::PathBuf;

use super::sql::BackendError;
use crate::text::one_line;

/// Why the position store could not be used. Displays as one line naming the store: `path` is
/// its file, or for PostgreSQL its URL without the password.
#[derive(Debug)]
pub(crate) enum StoreError {
    /// `--store off` (or `PLIES_STORE=off`) for a command that needs the store.
    Off,
    /// No store was named and the platform has no per-user data directory.
    NoDataDirectory,
    /// The path exists and is not a regular file.
    NotAFile {
        /// The store's path.
        path: PathBuf,
        /// What it is instead (`a directory`).
        kind: &'static str,
    },
    /// The file is not an SQLite database (its first bytes are not SQLite's header).
    NotSqlite {
        /// The store's path.
        path: PathBuf,
    },
    /// The file is an SQLite database of another application (another `application_id`, or
    /// tables but no plies marker), or the PostgreSQL database's schema holds tables but no
    /// plies marker.
    Foreign {
        /// The store's path.
        path: PathBuf,
        /// What it is: `an SQLite database`, `a PostgreSQL database`.
        kind: &'static str,
    },
    /// A `postgres://` URL that does not read.
    BadUrl {
        /// The URL, without its password.
        url: String,
        /// What the client said.
        reason: String,
    },
    /// The store was made by a newer plies: its schema version is past the ones known here.
    Newer {
        /// The store's path.
        path: PathBuf,
        /// Its schema version.
        version: i64,
        /// The newest this plies knows.
        known: i64,
    },
    /// `store prune` removed every analysis and the store still takes more than asked.
    TooSmall {
        /// The store's path.
        path: PathBuf,
        /// Its size now, in bytes.
        size: u64,
        /// The size asked for, in bytes.
        max: u64,
    },
    /// SQLite found the file damaged (a corrupt page, a header that lies).
    Damaged {
        /// The store's path.
        path: PathBuf,
        /// What SQLite said.
        reason: String,
    },
    /// An SQLite operation failed for another reason (locked past the busy timeout, disk
    /// full, read-only file).
    Sqlite {
        /// The store's path.
        path: PathBuf,
        /// What was being done: `open`, `read`, `write`, `prune`.
        action: &'static str,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// PostgreSQL, or the connection to its server, failed: the server does not answer in
    /// time, refuses the login, or refused a statement.
    Postgres {
        /// The URL, without its password.
        path: PathBuf,
        /// What was being done: `connect to`, `read`, `write`, `prune`.
        action: &'static str,
        /// The client's error.
        source: postgres::Error,
    },
    /// The PostgreSQL server took the connection but did not finish the login in time (a
    /// port that accepts and never answers, a server stuck).
    NoAnswer {
        /// The URL, without its password.
        path: PathBuf,
        /// How long the connection waited, in seconds.
        seconds: u64,
    },
    /// The system refused a file operation (reading the header, making the directory).
    Io {
        /// The path.
        path: PathBuf,
        /// What was being done.
        action: &'static str,
        /// The system's error.
        source: io::Error,
    },
}

impl StoreError {
    /// The error of SQLite's `source` while doing `action` on the store at `path`: a damaged
    /// file is told apart from every other failure.
    pub(crate) fn sqlite(
        path: &std::path::Path,
        action: &'static str,
        source: rusqlite::Error,
    ) -> StoreError {
        use rusqlite::ErrorCode;
        match source.sqlite_error_code() {
            Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => StoreError::Damaged {
                path: path.to_path_buf(),
                reason: source.to_string(),
            },
            _ => StoreError::Sqlite {
                path: path.to_path_buf(),
                action,
                source,
            },
        }
    }
}

impl StoreError {
    /// The error of a backend's `source` while doing `action` on the store `path`: SQLite's
    /// ([`StoreError::sqlite`]), PostgreSQL's, or a value plies never writes (damage).
    pub(crate) fn backend(
        path: &std::path::Path,
        action: &'static str,
        source: BackendError,
    ) -> StoreError {
        match source {
            BackendError::Sqlite(e) => StoreError::sqlite(path, action, e),
            BackendError::Postgres(e) => StoreError::Postgres {
                path: path.to_path_buf(),
                action,
                source: e,
            },
            BackendError::Cell(reason) => StoreError::Damaged {
                path: path.to_path_buf(),
                reason,
            },
        }
    }

    /// Whether the database said another writer is in the way, so that the same work may
    /// succeed when tried again: SQLite's busy or locked, PostgreSQL's serialization failure
    /// or deadlock.
    pub(crate) fn is_busy(&self) -> bool {
        use rusqlite::ErrorCode;
        match self {
            StoreError::Sqlite { source, .. } => matches!(
                source.sqlite_error_code(),
                Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
            ),
            StoreError::Postgres { source, .. } => {
                use postgres::error::SqlState;
                source.code().is_some_and(|code| {
                    *code == SqlState::T_R_SERIALIZATION_FAILURE
                        || *code == SqlState::T_R_DEADLOCK_DETECTED
                })
            }
            _ => false,
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            StoreError::Off => "the position store is off (--store off or PLIES_STORE=off): \
                 name a store file with --store PATH"
                .to_string(),
            StoreError::NoDataDirectory => "the position store: this system has no user data \
                 directory; name a store file with --store PATH (or --store off)"
                .to_string(),
            StoreError::NotAFile { path, kind } => {
                format!("store {} is not a regular file ({kind})", path.display())
            }
            StoreError::NotSqlite { path } => format!(
                "store {} is not an SQLite database: refused (name another file with --store, \
                 or --store off)",
                path.display()
            ),
            StoreError::Foreign { path, kind } => format!(
                "store {} is {kind} of another application: refused (name another store with \
                 --store, or --store off)",
                path.display()
            ),
            StoreError::BadUrl { url, reason } => format!(
                "store {url} is not a PostgreSQL URL plies reads ({reason}): expected \
                 postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
            ),
            StoreError::Newer {
                path,
                version,
                known,
            } => format!(
                "store {} has schema version {version}, newer than this plies knows ({known}): \
                 refused",
                path.display()
            ),
            StoreError::TooSmall { path, size, max } => format!(
                "store {} takes {size} bytes with no analysis left, more than the {max} asked",
                path.display()
            ),
            StoreError::Damaged { path, reason } => format!(
                "store {} is damaged ({reason}): refused (name another file with --store, or \
                 --store off)",
                path.display()
            ),
            StoreError::Sqlite {
                path,
                action,
                source,
            } => format!("cannot {action} store {}: {source}", path.display()),
            StoreError::Postgres {
                path,
                action,
                source,
            } => format!(
                "cannot {action} store {}: {}",
                path.display(),
                postgres_text(source)
            ),
            StoreError::NoAnswer { path, seconds } => format!(
                "cannot connect to store {}: the server did not answer within {seconds} s",
                path.display()
            ),
            StoreError::Io {
                path,
                action,
                source,
            } => format!("cannot {action} {}: {source}", path.display()),
        };
        f.write_str(&one_line(&text))
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::Sqlite { source, .. } => Some(source),
            StoreError::Postgres { source, .. } => Some(source),
            StoreError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<StoreError> for crate::error::CliError {
    fn from(err: StoreError) -> crate::error::CliError {
        crate::error::CliError::Invalid(err.to_string())
    }
}

/// PostgreSQL's error in words: the server's message (`FATAL: password authentication failed
/// ...`) where it sent one, else the client's (`error connecting to server: ...`).
fn postgres_text(error: &postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => format!("{}: {}", db.severity(), db.message()),
        None => error.to_string(),
    }
}
