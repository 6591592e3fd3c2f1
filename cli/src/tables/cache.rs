//! The endgame tables cache of a machine: one directory per game (by default the platform's
//! user cache directory, `<cache>/plies/tables/<game>/`), holding a directory per key
//! (`<key>/`: Onitama's deal) with the game's table files, a `lock` and a `used` file.
//!
//! Key invariants: a key's files are written only by the process holding the exclusive lock of
//! its `lock` file, and read only under a shared one (so a build never races a load, and
//! eviction never removes what another process reads or writes); a lock is only ever tried,
//! never waited for. Eviction removes only directories this cache made (their `used` file
//! says so), whole, oldest used first, never one whose lock it cannot take, never the one in
//! use, and only while the total is over the limit.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::SystemTime;

use crate::files::{DirLock, FileError, LOCK_FILE};

/// The file whose modification time says when a key's tables were last loaded or built.
const USED_FILE: &str = "used";
/// The first line of a `used` file: what marks a directory as this cache's (only such
/// directories are ever evicted).
const USED_MARK: &str = "plies endgame tables";

/// A size in bytes, written as a number with an optional `K`, `M`, `G` or `T` (powers of
/// 1024), e.g. `16G`; shown in the largest unit it is a whole number of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ByteSize(pub u64);

impl ByteSize {
    /// The default `--tables-cache-limit`: 16 GiB (about four deals of 6-piece Onitama tables,
    /// or hundreds at 4 pieces).
    pub(crate) const DEFAULT_CACHE_LIMIT: ByteSize = ByteSize(16 << 30);
}

impl Default for ByteSize {
    fn default() -> ByteSize {
        ByteSize::DEFAULT_CACHE_LIMIT
    }
}

/// The suffixes of [`ByteSize`], largest first, with their shifts.
const UNITS: [(char, u32); 4] = [('T', 40), ('G', 30), ('M', 20), ('K', 10)];

/// Why a text is not a [`ByteSize`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ByteSizeError(String);

impl fmt::Display for ByteSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad size '{}': expected bytes, or a number with K, M, G or T (16G)",
            plies::excerpt(&self.0)
        )
    }
}

impl std::error::Error for ByteSizeError {}

impl FromStr for ByteSize {
    type Err = ByteSizeError;

    fn from_str(text: &str) -> Result<ByteSize, ByteSizeError> {
        let bad = || ByteSizeError(text.to_string());
        let trimmed = text.trim();
        let (digits, shift) = match trimmed.chars().last().map(|c| c.to_ascii_uppercase()) {
            Some(last) if last.is_ascii_alphabetic() => {
                let (_, shift) = UNITS.iter().find(|(c, _)| *c == last).ok_or_else(bad)?;
                (&trimmed[..trimmed.len() - 1], *shift)
            }
            _ => (trimmed, 0),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let number: u64 = digits.parse().map_err(|_| bad())?;
        number.checked_mul(1 << shift).map(ByteSize).ok_or_else(bad)
    }
}

impl fmt::Display for ByteSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (unit, shift) in UNITS {
            if self.0 > 0 && self.0.trailing_zeros() >= shift {
                return write!(f, "{}{unit}", self.0 >> shift);
            }
        }
        write!(f, "{}", self.0)
    }
}

/// The platform's cache directory for one game's tables: `<user cache>/plies/tables/<game>`,
/// or `None` when the platform has none (no home directory).
pub(crate) fn default_root(game: &str) -> Option<PathBuf> {
    #[cfg(test)]
    {
        // Unit tests never write into the user's cache, nor share one (a key locked by one
        // test's endless build would hold up another's): a directory of its own for each
        // source, under one per test process emptied when first used.
        static ROOT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let root = ROOT.get_or_init(|| {
            let temp = std::env::temp_dir();
            // Those of earlier test processes, once an hour old, go too.
            for entry in fs::read_dir(&temp).into_iter().flatten().flatten() {
                let old = entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age.as_secs() > 3600);
                if old
                    && entry
                        .file_name()
                        .to_string_lossy()
                        .starts_with("plies-test-cache-")
                {
                    let _ = fs::remove_dir_all(entry.path());
                }
            }
            let root = temp.join(format!("plies-test-cache-{}", std::process::id()));
            let _ = fs::remove_dir_all(&root);
            root
        });
        let next = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Some(root.join(next.to_string()).join(dir_name(game)))
    }
    #[cfg(not(test))]
    {
        let dirs = directories::ProjectDirs::from("", "", "plies")?;
        Some(dirs.cache_dir().join("tables").join(dir_name(game)))
    }
}

/// `text` as one directory name: letters, digits, `_` and `.` kept (lower case), anything else
/// a `-` (Onitama's deal `tiger,crab,monkey,crane,dragon` is `tiger-crab-monkey-crane-dragon`).
pub(crate) fn dir_name(text: &str) -> String {
    let name: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    if name.is_empty() || name.chars().all(|c| c == '-') {
        "default".to_string()
    } else {
        name
    }
}

/// Why a key's directory cannot be used.
#[derive(Debug)]
pub(crate) enum CacheError {
    /// Another process holds the key's lock (it builds the tables, or evicts them).
    Locked {
        /// Its process id, when the lock file names it.
        holder: Option<u32>,
    },
    /// The directory cannot be made, or its lock cannot be opened.
    Unusable {
        /// The directory.
        dir: PathBuf,
        /// Why, in one line.
        why: String,
    },
}

impl fmt::Display for CacheError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CacheError::Locked { holder: Some(pid) } => {
                write!(f, "another process (pid {pid}) is building them")
            }
            CacheError::Locked { holder: None } => write!(f, "another process is building them"),
            CacheError::Unusable { dir, why } => {
                write!(f, "cannot use the tables cache {}: {why}", dir.display())
            }
        }
    }
}

impl std::error::Error for CacheError {}

/// A game's tables cache: a directory of key directories, and the most they may hold.
#[derive(Clone, Debug)]
pub(crate) struct TablesCache {
    root: PathBuf,
    limit: u64,
}

/// The exclusive lock of a key directory, held while its tables are built.
pub(crate) struct BuildLock {
    _lock: DirLock,
}

/// A shared lock of a key directory, held while its tables are read.
pub(crate) struct ReadLock {
    _file: File,
}

impl TablesCache {
    /// The cache in `root` (made when first used), evicted down to `limit` bytes.
    pub(crate) fn new(root: PathBuf, limit: ByteSize) -> TablesCache {
        TablesCache {
            root,
            limit: limit.0,
        }
    }

    /// The most bytes the cache keeps after a build.
    pub(crate) fn limit(&self) -> ByteSize {
        ByteSize(self.limit)
    }

    /// The directory of `key`'s tables (made if needed).
    ///
    /// # Errors
    /// It cannot be made (a path through a regular file, no permission).
    pub(crate) fn key_dir(&self, key: &str) -> Result<PathBuf, CacheError> {
        let dir = self.root.join(dir_name(key));
        fs::create_dir_all(&dir).map_err(|e| CacheError::Unusable {
            dir: self.root.clone(),
            why: e.to_string(),
        })?;
        Ok(dir)
    }

    /// Takes the exclusive lock of the key directory `dir` (refused at once when another
    /// process holds it), then removes what an interrupted build left: `*.part` files.
    ///
    /// # Errors
    /// The lock is held elsewhere, or cannot be had.
    pub(crate) fn lock_build(&self, dir: &Path) -> Result<BuildLock, CacheError> {
        let lock = DirLock::take(dir).map_err(|e| match e {
            FileError::Locked { holder, .. } => CacheError::Locked { holder },
            other => CacheError::Unusable {
                dir: dir.to_path_buf(),
                why: other.to_string(),
            },
        })?;
        // With the lock, a `.part` file is no build's work in progress: garbage.
        if let Ok(entries) = fs::read_dir(dir) {
            for entry in entries.flatten() {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "part")
                    && entry.file_type().is_ok_and(|t| t.is_file())
                {
                    let _ = fs::remove_file(path);
                }
            }
        }
        Ok(BuildLock { _lock: lock })
    }

    /// Takes a shared lock of the key directory `dir` to read its tables.
    ///
    /// # Errors
    /// A build (or an eviction) holds the exclusive lock, or the lock cannot be had.
    pub(crate) fn lock_read(&self, dir: &Path) -> Result<ReadLock, CacheError> {
        let path = dir.join(LOCK_FILE);
        let unusable = |why: String| CacheError::Unusable {
            dir: dir.to_path_buf(),
            why,
        };
        if let Ok(metadata) = fs::symlink_metadata(&path)
            && !metadata.is_file()
        {
            return Err(unusable(format!(
                "{} is not a regular file",
                path.display()
            )));
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| unusable(e.to_string()))?;
        match fs4::FileExt::try_lock_shared(&file) {
            Ok(()) => Ok(ReadLock { _file: file }),
            Err(fs4::TryLockError::WouldBlock) => Err(CacheError::Locked { holder: None }),
            Err(fs4::TryLockError::Error(e)) => Err(unusable(e.to_string())),
        }
    }

    /// Marks the key directory `dir` used now (its `used` file, made if needed).
    pub(crate) fn touch(&self, dir: &Path) {
        let path = dir.join(USED_FILE);
        let touch = || -> std::io::Result<()> {
            if fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
                return Ok(()); // never written through: this is not a directory we made
            }
            let mut file = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)?;
            if file.metadata()?.len() == 0 {
                writeln!(file, "{USED_MARK}: the modification time is the last use")?;
            }
            file.set_modified(SystemTime::now())
        };
        if let Err(e) = touch() {
            tracing::warn!("cannot mark {} used: {e}", path.display());
        }
    }

    /// Removes whole key directories, oldest used first, while the cache holds more than its
    /// limit: never `keep` (the one in use), never one whose lock another process holds, and
    /// only directories this cache made. Returns the directories removed.
    pub(crate) fn evict(&self, keep: &Path) -> Vec<PathBuf> {
        let Ok(entries) = fs::read_dir(&self.root) else {
            return Vec::new();
        };
        let mut dirs: Vec<(SystemTime, u64, PathBuf)> = Vec::new();
        let mut total = 0u64;
        for entry in entries.flatten() {
            let path = entry.path();
            if !entry.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let Some(used) = used_time(&path) else {
                continue; // not ours: never counted, never removed
            };
            let size = dir_size(&path);
            total = total.saturating_add(size);
            if path != keep {
                dirs.push((used, size, path));
            }
        }
        dirs.sort();
        let mut removed = Vec::new();
        for (_, size, dir) in dirs {
            if total <= self.limit {
                break;
            }
            // A directory being built or read is skipped (its lock is held elsewhere).
            let Ok(lock) = self.lock_build(&dir) else {
                continue;
            };
            if remove_key_dir(&dir, lock) {
                total = total.saturating_sub(size);
                removed.push(dir);
            }
        }
        removed
    }
}

/// When the key directory `dir` was last used, if it is one this cache made.
fn used_time(dir: &Path) -> Option<SystemTime> {
    let path = dir.join(USED_FILE);
    let metadata = fs::symlink_metadata(&path).ok()?;
    if !metadata.is_file() || metadata.len() > 256 {
        return None;
    }
    let text = fs::read_to_string(&path).ok()?;
    if !text.starts_with(USED_MARK) {
        return None;
    }
    metadata.modified().ok()
}

/// The bytes of the regular files directly in `dir`.
fn dir_size(dir: &Path) -> u64 {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(std::fs::Metadata::is_file)
        .map(|m| m.len())
        .sum()
}

/// Removes the key directory `dir` whose lock is `lock`: its files first (the lock file last,
/// once released), then the directory. False when something stayed.
fn remove_key_dir(dir: &Path, lock: BuildLock) -> bool {
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.file_name().is_some_and(|n| n == LOCK_FILE) {
            continue;
        }
        // Only files: a directory inside is not ours to remove (the key directory stays).
        if entry.file_type().is_ok_and(|t| t.is_dir()) || fs::remove_file(&path).is_err() {
            return false;
        }
    }
    drop(lock);
    let _ = fs::remove_file(dir.join(LOCK_FILE));
    fs::remove_dir(dir).is_ok()
}
