//! The files commands read and write: bounded reads of regular files ([`read_text`]), exclusive
//! advisory locks of what a run writes ([`lock`], [`DirLock`]), and writes that replace a
//! regular file atomically ([`write_atomic`]).
//!
//! Key invariants: an input is opened only after its metadata says it is a regular file no
//! larger than the limit of its kind, and is read through `take(limit + 1)`, so a FIFO never
//! blocks a reader and a device or a growing file never makes one read without end; an atomic
//! write renames only over a regular file (or where nothing is): through a symbolic link it
//! writes the link's target, and a device or FIFO is written directly, never replaced.

use std::fmt;
use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

/// One mebibyte, the unit of the limits below.
const MB: u64 = 1 << 20;
/// The largest weights file read (`--weights`, UGI `Weights`, the arena's `weights=`): a few
/// thousand `name value` lines are well under this.
pub(crate) const WEIGHTS_LIMIT: u64 = 4 * MB;
/// The largest openings file read (`--openings-file`): a million positions of ordinary games.
pub(crate) const OPENINGS_LIMIT: u64 = 64 * MB;
/// The largest labelled positions file read (`tune texel --positions`).
pub(crate) const POSITIONS_LIMIT: u64 = 512 * MB;
/// The largest results or journal file read (`arena --results`, a tuning run's games files and
/// journal): millions of games.
pub(crate) const RESULTS_LIMIT: u64 = 1024 * MB;
/// The largest settings file read (a tuning run's `tune.json` and `state.json`, which may hold
/// an openings file's positions).
pub(crate) const SETTINGS_LIMIT: u64 = 128 * MB;

/// Why a file could not be read, written or locked. Displays as one line naming the file.
#[derive(Debug)]
pub(crate) enum FileError {
    /// The path is not a regular file: `kind` says what it is (a directory, a FIFO, ...).
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        kind: &'static str,
    },
    /// The file is larger than the limit of its kind.
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
    /// The file does not hold UTF-8 text.
    NotText {
        /// The file.
        path: PathBuf,
    },
    /// Another process holds the file's lock.
    Locked {
        /// The locked file (or directory).
        path: PathBuf,
        /// The holder's process id, when the lock file names it.
        holder: Option<u32>,
    },
    /// The system refused an operation.
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done: `read`, `write`, `open`, `lock`.
        action: &'static str,
        /// The system's error.
        source: io::Error,
    },
}

impl FileError {
    /// Whether the file does not exist (callers that treat a missing file as empty ask).
    pub(crate) fn is_not_found(&self) -> bool {
        matches!(self, FileError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound)
    }

    fn io(path: &Path, action: &'static str, source: io::Error) -> FileError {
        FileError::Io {
            path: path.to_path_buf(),
            action,
            source,
        }
    }
}

impl FileError {
    /// The error with the file called `what` (`weights file`, `results file`): one line such as
    /// `weights file w.txt is not a regular file (a FIFO)`.
    pub(crate) fn of(&self, what: &str) -> String {
        Named(self, what).to_string()
    }
}

/// A [`FileError`] whose file is called by a name of its kind (empty: by its path alone).
struct Named<'a>(&'a FileError, &'a str);

impl fmt::Display for Named<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Named(error, what) = *self;
        let name = |path: &Path| {
            if what.is_empty() {
                path.display().to_string()
            } else {
                format!("{what} {}", path.display())
            }
        };
        match error {
            FileError::NotRegular { path, kind } => {
                write!(f, "{} is not a regular file ({kind})", name(path))
            }
            FileError::TooLarge { path, limit } => {
                write!(f, "{} is larger than {}", name(path), size_text(*limit))
            }
            FileError::NotText { path } => write!(f, "{} is not UTF-8 text", name(path)),
            FileError::Locked { path, holder } => match holder {
                Some(pid) => write!(
                    f,
                    "{} is locked by another process (pid {pid}): one writer at a time",
                    name(path)
                ),
                None => write!(
                    f,
                    "{} is locked by another process: one writer at a time",
                    name(path)
                ),
            },
            FileError::Io {
                path,
                action,
                source,
            } => write!(f, "cannot {action} {}: {source}", name(path)),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Named(self, "").fmt(f)
    }
}

impl std::error::Error for FileError {}

/// A limit as text: whole mebibytes as `N MB`, anything else in bytes.
fn size_text(bytes: u64) -> String {
    if bytes >= MB && bytes.is_multiple_of(MB) {
        format!("{} MB", bytes / MB)
    } else {
        format!("{bytes} bytes")
    }
}

/// What a file that is not a regular file is, in words.
fn kind_of(metadata: &Metadata) -> &'static str {
    let kind = metadata.file_type();
    if kind.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "not a plain file"
}

/// Checks that `metadata` (of `path`) is of a regular file of at most `limit` bytes.
fn check_input(path: &Path, metadata: &Metadata, limit: u64) -> Result<(), FileError> {
    if !metadata.is_file() {
        return Err(FileError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(metadata),
        });
    }
    if metadata.len() > limit {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(())
}

/// The bytes of `file` (of `path`) from where it stands, at most `limit` of them.
fn read_bounded(file: &mut File, path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::io(path, "read", e))?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

/// The bytes of the regular file `path`, refused if it is anything else (checked before it is
/// opened, so a FIFO never blocks) or larger than `limit` bytes.
pub(crate) fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let metadata = fs::metadata(path).map_err(|e| FileError::io(path, "read", e))?;
    check_input(path, &metadata, limit)?;
    let mut file = File::open(path).map_err(|e| FileError::io(path, "read", e))?;
    // The path may have been replaced between the two looks: check what was opened.
    let opened = file
        .metadata()
        .map_err(|e| FileError::io(path, "read", e))?;
    check_input(path, &opened, limit)?;
    read_bounded(&mut file, path, limit)
}

/// The text of the regular file `path`: as [`read_bytes`], and UTF-8.
pub(crate) fn read_text(path: &Path, limit: u64) -> Result<String, FileError> {
    String::from_utf8(read_bytes(path, limit)?).map_err(|_| FileError::NotText {
        path: path.to_path_buf(),
    })
}

/// The text of `path` as [`read_text`], or `None` when it does not exist.
pub(crate) fn read_text_if_exists(path: &Path, limit: u64) -> Result<Option<String>, FileError> {
    match read_text(path, limit) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.is_not_found() => Ok(None),
        Err(e) => Err(e),
    }
}

/// An append-only file opened for a whole run under an exclusive lock: its bytes so far, and
/// the open file (writes go to its end; the lock lasts until it is dropped).
pub(crate) struct LockedAppend {
    /// The open file, locked.
    pub file: File,
    /// What it held when opened (at most `limit` bytes).
    pub bytes: Vec<u8>,
}

/// Opens (creating it if needed) the regular file `path` to append to it, takes its exclusive
/// lock (refusing at once when another process holds it) and reads what it holds, at most
/// `limit` bytes. A path that exists and is not a regular file is refused before it is opened.
pub(crate) fn open_locked_append(path: &Path, limit: u64) -> Result<LockedAppend, FileError> {
    match fs::metadata(path) {
        Ok(metadata) => check_input(path, &metadata, limit)?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(FileError::io(path, "open", e)),
    }
    let mut file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .map_err(|e| FileError::io(path, "open", e))?;
    let opened = file
        .metadata()
        .map_err(|e| FileError::io(path, "open", e))?;
    check_input(path, &opened, limit)?;
    lock(&file, path, None)?;
    file.rewind().map_err(|e| FileError::io(path, "read", e))?;
    let bytes = read_bounded(&mut file, path, limit)?;
    Ok(LockedAppend { file, bytes })
}

/// Takes the exclusive advisory lock of `file` (at `path`), or fails at once naming `path` and
/// `holder`, when another open file holds it. The lock lasts as long as `file` is open.
pub(crate) fn lock(file: &File, path: &Path, holder: Option<u32>) -> Result<(), FileError> {
    // Called through the trait: `File::try_lock` of the standard library is newer than the
    // workspace's minimum Rust version.
    match fs4::FileExt::try_lock(file) {
        Ok(()) => Ok(()),
        Err(fs4::TryLockError::WouldBlock) => Err(FileError::Locked {
            path: path.to_path_buf(),
            holder,
        }),
        Err(fs4::TryLockError::Error(e)) => Err(FileError::io(path, "lock", e)),
    }
}

/// The name of the lock file a [`DirLock`] keeps in its directory.
pub(crate) const LOCK_FILE: &str = "lock";

/// A directory's exclusive lock: the lock of a file in it that names the holding process. The
/// lock lasts until this is dropped (or the process ends).
#[derive(Debug)]
pub(crate) struct DirLock {
    _file: File,
}

impl DirLock {
    /// Takes the lock of `dir` (which must exist), refusing at once when another process holds
    /// it, with its process id.
    pub(crate) fn take(dir: &Path) -> Result<DirLock, FileError> {
        let path = dir.join(LOCK_FILE);
        if let Ok(metadata) = fs::symlink_metadata(&path)
            && !metadata.is_file()
        {
            return Err(FileError::NotRegular {
                path,
                kind: kind_of(&metadata),
            });
        }
        // Not truncated on open: that would erase the holder's pid before the lock is tried.
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| FileError::io(&path, "open", e))?;
        if let Err(e) = lock(&file, &path, None) {
            let holder = read_bounded(&mut file, &path, 64)
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
                .and_then(|text| text.trim().parse().ok());
            return Err(match e {
                FileError::Locked { .. } => FileError::Locked {
                    path: dir.to_path_buf(),
                    holder,
                },
                other => other,
            });
        }
        let write = |file: &mut File| -> io::Result<()> {
            file.set_len(0)?;
            file.rewind()?;
            writeln!(file, "{}", std::process::id())?;
            file.flush()
        };
        write(&mut file).map_err(|e| FileError::io(&path, "write", e))?;
        Ok(DirLock { _file: file })
    }
}

/// The most symbolic links followed to find what a path names (as the kernel's own limit).
const MAX_LINKS: usize = 40;

/// What `path` names after following its symbolic links (the last path may not exist).
fn resolve_links(path: &Path) -> Result<PathBuf, FileError> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target =
                    fs::read_link(&current).map_err(|e| FileError::io(path, "write", e))?;
                current = match current.parent() {
                    Some(parent) if target.is_relative() => parent.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(FileError::io(
        path,
        "write",
        io::Error::other("too many levels of symbolic links"),
    ))
}

/// Writes `bytes` to `path`. A regular file (or a new one) is replaced atomically: written to a
/// temporary file beside it, flushed to disk, then renamed over it, so a reader sees the old or
/// the new content, never a mix. Through a symbolic link the link's target is written (the link
/// stays); a device or FIFO is written directly and never replaced; anything else (a directory,
/// a socket) is refused.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let target = resolve_links(path)?;
    let not_regular = |kind| FileError::NotRegular {
        path: path.to_path_buf(),
        kind,
    };
    match fs::metadata(&target) {
        Ok(metadata) if metadata.is_file() => {}
        Ok(metadata) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::FileTypeExt;
                let kind = metadata.file_type();
                if kind.is_fifo() || kind.is_char_device() || kind.is_block_device() {
                    let write = || -> io::Result<()> {
                        let mut file = OpenOptions::new().write(true).open(&target)?;
                        file.write_all(bytes)?;
                        file.flush()
                    };
                    return write().map_err(|e| FileError::io(path, "write", e));
                }
            }
            return Err(not_regular(kind_of(&metadata)));
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(FileError::io(path, "write", e)),
    }
    // Unique per process, so that two writers never share a temporary file.
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    let temporary = target.with_file_name(name);
    let write = || -> io::Result<()> {
        let mut file = File::create(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temporary, &target)
    };
    write().map_err(|e| {
        // Leave nothing behind when the rename (or the write) failed.
        let _ = fs::remove_file(&temporary);
        FileError::io(path, "write", e)
    })
}

#[cfg(test)]
mod tests;
