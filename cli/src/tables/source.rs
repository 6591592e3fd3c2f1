//! [`TableSource`]: a command's endgame tables, a key at a time, read from the machine's cache
//! ([`super::cache`]) or built on a thread of their own, and handed out without waiting.
//!
//! Key invariants: asking for tables never waits for a build ([`TableSource::snapshot`] gives
//! what is ready, reading a key's files at once only when every one of them is in the cache;
//! [`TableSource::wait`] is the one call that blocks, for `--tables-wait` and for `analyze`
//! after its answer). A key is built by at most one thread of a source, and by at most one
//! process of the machine (the key directory's lock): a source that finds the lock taken goes
//! on without those tables and looks again when next asked. A search is given what was ready
//! at its start, so tables never appear in the middle of a search. A source with an upgrade
//! (`--tables 4,6`) builds the larger tables only once the smaller are ready, and hands out the
//! larger from the first search that starts after they are ready
//! ([`TableSource::label`] tells a user which it has).

use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use plies::Game;
use plies::solve::Probe;

use super::cache::{BuildLock, ByteSize, CacheError, ReadLock, TablesCache, default_root};
use crate::endgame::EndgameTables;

/// What a source tells as it goes (the command decides how to show it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Note {
    /// A line of progress or a warning (a file not written, a cache not usable).
    Line(String),
    /// A build made on a thread of its own is done: its key's tables are ready for the next
    /// search.
    Ready(String),
    /// A key's tables cannot be had (said once; not tried again by this source): why.
    Failed(String),
}

/// Where a source's notes go.
pub(crate) type NoteSink = Arc<dyn Fn(Note) + Send + Sync>;

/// Tables and where their key stands.
enum Entry<G: Game> {
    Ready(Arc<dyn Probe<G>>),
    /// Read or built by a thread of this source.
    Building,
    Failed(String),
}

/// The keys a source knows, most recently used last.
struct Keys<G: Game> {
    entries: Vec<(String, Entry<G>)>,
    /// Keys found locked by another process (said once each).
    told_locked: Vec<String>,
    /// The cache could not be used (said once; later builds keep their tables in memory).
    cache_failed: bool,
}

/// What a source shares with its threads.
struct Shared<G: Game> {
    keys: Mutex<Keys<G>>,
    /// Signalled when a thread's key is ready or failed.
    changed: Condvar,
    /// Notes kept for [`TableSource::take_notes`] when no sink was given.
    notes: Mutex<Vec<Note>>,
    /// Held by a thread while it builds: the builds of a source run one at a time.
    build_turn: Mutex<()>,
}

/// How many keys' tables a source keeps in memory (the arena's workers may play several deals
/// at once), and how many failed keys it remembers.
const KEPT: usize = 4;
const FAILED_KEPT: usize = 16;

/// How long [`TableSource::wait`] sleeps before looking again at a key another process builds.
const LOCKED_POLL: Duration = Duration::from_millis(100);

/// Cached tables whose files hold more than this are read on a thread of their own even for a
/// search about to start: reading them (Onitama's 6 pieces: 767 MB, about a second) would hold
/// that search, and a host waiting for its move, too long. Smaller ones (4 pieces: 19 MB) are
/// read at once, so the first search has them.
const READ_AT_ONCE: u64 = 64 << 20;

/// Tables a key at a time, shared by every searcher of a command (see the module docs).
pub(crate) struct TableSource<G: Game> {
    tables: Option<EndgameTables<G>>,
    /// The most pieces; 0 for off.
    pieces: u8,
    /// The game's name: its directory in the default cache.
    game: &'static str,
    /// The directory given instead of the default cache, if any.
    dir: Option<PathBuf>,
    limit: ByteSize,
    /// Where the tables are kept; `None` without a cache (the platform has none).
    cache: Option<TablesCache>,
    threads: usize,
    /// `--tables-wait`: the command waits for the tables before searching.
    wait: bool,
    sink: Option<NoteSink>,
    shared: Arc<Shared<G>>,
    /// Larger tables of the same keys, built once these are ready (`--tables 4,6`).
    upgrade: Option<Box<TableSource<G>>>,
}

/// The settings of a source (what [`TableSource::with`] takes).
pub(crate) struct SourceSettings {
    /// The most pieces; 0 for off.
    pub pieces: u8,
    /// The game's name.
    pub game: &'static str,
    /// A directory of key directories instead of the default cache.
    pub dir: Option<PathBuf>,
    /// What the cache may hold before the least recently used keys are removed.
    pub limit: ByteSize,
    /// Threads to build with.
    pub threads: usize,
    /// Wait for the tables before searching.
    pub wait: bool,
}

impl<G: Game> TableSource<G> {
    /// A source of `tables` with `settings`.
    pub(crate) fn with(tables: Option<EndgameTables<G>>, settings: SourceSettings) -> Self {
        let SourceSettings {
            pieces,
            game,
            dir,
            limit,
            threads,
            wait,
        } = settings;
        let pieces = if tables.is_some() { pieces } else { 0 };
        let root = dir.clone().or_else(|| default_root(game));
        let source = TableSource {
            tables,
            pieces,
            game,
            dir,
            limit,
            cache: root.map(|root| TablesCache::new(root, limit)),
            threads: threads.max(1),
            wait,
            sink: None,
            upgrade: None,
            shared: Arc::new(Shared {
                keys: Mutex::new(Keys {
                    entries: Vec::new(),
                    told_locked: Vec::new(),
                    cache_failed: false,
                }),
                changed: Condvar::new(),
                notes: Mutex::new(Vec::new()),
                build_turn: Mutex::new(()),
            }),
        };
        if source.cache.is_none() && pieces > 0 {
            source.note(Note::Line(
                "no cache directory on this platform: tables are built for each process".into(),
            ));
        }
        source
    }

    fn settings(&self) -> SourceSettings {
        SourceSettings {
            pieces: self.pieces,
            game: self.game,
            dir: self.dir.clone(),
            limit: self.limit,
            threads: self.threads,
            wait: self.wait,
        }
    }

    /// The same source with its notes given to `sink` as they come, instead of kept.
    pub(crate) fn with_sink(mut self, sink: NoteSink) -> Self {
        let kept = std::mem::take(&mut *lock(&self.shared.notes));
        for note in kept {
            sink(note);
        }
        self.upgrade = self
            .upgrade
            .take()
            .map(|upgrade| Box::new(upgrade.with_sink(Arc::clone(&sink))));
        self.sink = Some(sink);
        self
    }

    /// The same source, and once its tables of a key are ready, tables of `pieces` pieces of
    /// that key built or read in the background, handed out from then on (no upgrade when
    /// `pieces` is not more than this source's, or when off).
    pub(crate) fn with_upgrade(mut self, pieces: u8) -> Self {
        if self.pieces == 0 || pieces <= self.pieces {
            return self;
        }
        let settings = SourceSettings {
            pieces,
            wait: false,
            ..self.settings()
        };
        self.upgrade = Some(Box::new(self.renewed(settings)));
        self
    }

    /// The pieces of the upgrade, if any.
    pub(crate) fn upgrade_pieces(&self) -> Option<u8> {
        self.upgrade.as_ref().map(|upgrade| upgrade.pieces)
    }

    /// The key of `state`'s tables and, when the upgrade's tables are ready, their pieces
    /// (`key@6`): what a user compares to see that better tables came. `None` when off.
    pub(crate) fn label(&self, state: &G) -> Option<String> {
        let key = self.key(state)?;
        Some(match &self.upgrade {
            Some(upgrade) if upgrade.ready(state).is_some() => format!("{key}@{}", upgrade.pieces),
            _ => key,
        })
    }

    /// The same source with another piece count (the tables in memory are dropped; the
    /// upgrade is kept when the count is this source's).
    pub(crate) fn with_pieces(&self, pieces: u8) -> Self {
        let settings = SourceSettings {
            pieces,
            ..self.settings()
        };
        let source = self.renewed(settings);
        match self.upgrade_pieces() {
            Some(upgrade) if pieces == self.pieces => source.with_upgrade(upgrade),
            _ => source,
        }
    }

    /// The same source with another directory (`None`: the default cache), its upgrade kept.
    pub(crate) fn with_dir(&self, dir: Option<PathBuf>) -> Self {
        let settings = SourceSettings {
            dir,
            ..self.settings()
        };
        let source = self.renewed(settings);
        match self.upgrade_pieces() {
            Some(pieces) => source.with_upgrade(pieces),
            None => source,
        }
    }

    fn renewed(&self, settings: SourceSettings) -> Self {
        let source = TableSource::with(self.tables, settings);
        match &self.sink {
            Some(sink) => source.with_sink(Arc::clone(sink)),
            None => source,
        }
    }

    /// The most pieces, 0 when off.
    pub(crate) fn pieces(&self) -> u8 {
        self.pieces
    }

    /// Whether the command waits for the tables before searching (`--tables-wait`).
    pub(crate) fn waits(&self) -> bool {
        self.wait
    }

    /// The key of `state`'s tables, `None` when off.
    pub(crate) fn key(&self, state: &G) -> Option<String> {
        let tables = self.tables.as_ref()?;
        (self.pieces > 0).then(|| (tables.key)(state))
    }

    /// The notes kept so far (none when a sink takes them).
    pub(crate) fn take_notes(&self) -> Vec<Note> {
        std::mem::take(&mut *lock(&self.shared.notes))
    }

    fn note(&self, note: Note) {
        tell(self.sink.as_ref(), &self.shared, note);
    }

    /// The tables of `state` if they are in memory (the upgrade's when ready); never reads or
    /// builds.
    pub(crate) fn ready(&self, state: &G) -> Option<Arc<dyn Probe<G>>> {
        if let Some(upgrade) = &self.upgrade
            && let Some(probe) = upgrade.ready(state)
        {
            return Some(probe);
        }
        let key = self.key(state)?;
        let mut keys = lock(&self.shared.keys);
        let i = keys.entries.iter().position(|(k, _)| *k == key)?;
        let entry = keys.entries.remove(i);
        let probe = match &entry.1 {
            Entry::Ready(probe) => Some(Arc::clone(probe)),
            _ => None,
        };
        keys.entries.push(entry);
        probe
    }

    /// Whether a thread of this source is reading or building `state`'s tables.
    pub(crate) fn is_building(&self, state: &G) -> bool {
        let Some(key) = self.key(state) else {
            return false;
        };
        let keys = lock(&self.shared.keys);
        keys.entries
            .iter()
            .any(|(k, e)| *k == key && matches!(e, Entry::Building))
    }

    /// Why `state`'s tables cannot be had, if they were tried and failed.
    pub(crate) fn failure(&self, state: &G) -> Option<String> {
        let key = self.key(state)?;
        let keys = lock(&self.shared.keys);
        keys.entries.iter().find_map(|(k, e)| match e {
            Entry::Failed(why) if *k == key => Some(why.clone()),
            _ => None,
        })
    }

    /// The tables of `state` ready now, for a search about to start (`None` when off, or not
    /// ready). Tables not in memory are read at once when every file of them is in the cache
    /// and they hold at most [`READ_AT_ONCE`] bytes; otherwise they are read or built on a
    /// thread of their own, and a later call gets them. Never waits for a build.
    pub(crate) fn snapshot(&self, state: &G) -> Option<Arc<dyn Probe<G>>> {
        self.now(state, READ_AT_ONCE)
    }

    /// [`Self::snapshot`] reading cached tables at once whatever their size: for a command that
    /// prints one answer (`analyze`, `play`), where nobody times the first search.
    pub(crate) fn snapshot_whole(&self, state: &G) -> Option<Arc<dyn Probe<G>>> {
        self.now(state, u64::MAX)
    }

    /// [`Self::snapshot`] with cached tables of at most `at_once` bytes read at once.
    fn now(&self, state: &G, at_once: u64) -> Option<Arc<dyn Probe<G>>> {
        if let Some(upgrade) = &self.upgrade
            && let Some(probe) = upgrade.ready(state)
        {
            return Some(probe);
        }
        let probe = self.fetch(state, Some(at_once));
        if probe.is_some()
            && let Some(upgrade) = &self.upgrade
        {
            upgrade.request(state);
        }
        probe
    }

    /// Starts reading or building the tables of `state` on a thread of their own, unless they
    /// are ready, on their way, or failed. Reads nothing on the caller's thread.
    pub(crate) fn request(&self, state: &G) {
        if self.fetch(state, None).is_some()
            && let Some(upgrade) = &self.upgrade
        {
            upgrade.request(state);
        }
    }

    /// The tables of `state`, waiting for them to be read or built (by this process or
    /// another); `Ok(None)` when off.
    ///
    /// # Errors
    /// Why they cannot be had, one line.
    pub(crate) fn wait(&self, state: &G) -> Result<Option<Arc<dyn Probe<G>>>, String> {
        let Some(key) = self.key(state) else {
            return Ok(None);
        };
        loop {
            if let Some(probe) = self.snapshot(state) {
                return Ok(Some(probe));
            }
            let keys = lock(&self.shared.keys);
            match keys.entries.iter().find(|(k, _)| *k == key).map(|(_, e)| e) {
                Some(Entry::Failed(why)) => return Err(why.clone()),
                Some(Entry::Building) => {
                    let _ = self
                        .shared
                        .changed
                        .wait_timeout(keys, LOCKED_POLL)
                        .unwrap_or_else(PoisonError::into_inner);
                }
                Some(Entry::Ready(_)) => {}
                // Another process builds them: look again in a while.
                None => {
                    drop(keys);
                    std::thread::sleep(LOCKED_POLL);
                }
            }
        }
    }

    /// [`Self::snapshot`] (`now`: a key whose files are all cached and hold at most that many
    /// bytes is read on this thread) or [`Self::request`] (`None`).
    fn fetch(&self, state: &G, now: Option<u64>) -> Option<Arc<dyn Probe<G>>> {
        let tables = self.tables?;
        let key = self.key(state)?;
        {
            let mut keys = lock(&self.shared.keys);
            if let Some(i) = keys.entries.iter().position(|(k, _)| *k == key) {
                let entry = keys.entries.remove(i);
                let probe = match &entry.1 {
                    Entry::Ready(probe) => Some(Arc::clone(probe)),
                    Entry::Building | Entry::Failed(_) => None,
                };
                keys.entries.push(entry);
                return probe;
            }
            // Claimed before anything is read: one thread of this source per key.
            keys.entries.push((key.clone(), Entry::Building));
        }
        let job = Job {
            tables,
            pieces: self.pieces,
            threads: self.threads,
            cache: self.usable_cache(),
            sink: self.sink.clone(),
            shared: Arc::clone(&self.shared),
        };
        let mut dir = job.key_dir(&key);
        // The bytes of the key's files when every one is in the cache.
        let cached_bytes = dir.as_deref().and_then(|dir| {
            let names = (tables.files)(state, self.pieces);
            if names.is_empty() {
                return None;
            }
            names
                .iter()
                .map(|name| {
                    std::fs::metadata(dir.join(name))
                        .ok()
                        .filter(std::fs::Metadata::is_file)
                        .map(|m| m.len())
                })
                .sum::<Option<u64>>()
        });
        let cached = cached_bytes.is_some();
        // What the thread holds: a shared lock to read, the exclusive one to build (taken
        // here, so that a key another process builds is given up at once, without a thread).
        let held = match (&job.cache, &dir) {
            (Some(cache), Some(path)) => {
                let locked = if cached {
                    cache.lock_read(path).map(|_lock| Held::Read { _lock })
                } else {
                    cache.lock_build(path).map(|_lock| Held::Build { _lock })
                };
                match locked {
                    Ok(held) => Some(held),
                    Err(CacheError::Locked { holder }) => {
                        job.give_up_locked(&key, holder);
                        return None;
                    }
                    Err(why) => {
                        self.note(Note::Line(format!(
                            "{why}; the tables are kept in memory only"
                        )));
                        dir = None;
                        None
                    }
                }
            }
            _ => None,
        };
        let reading = matches!(held, Some(Held::Read { .. }));
        if let Some(at_once) = now
            && reading
            && cached_bytes.is_some_and(|bytes| bytes <= at_once)
        {
            job.run(state, &key, dir, held, false);
            return self.ready(state);
        }
        if reading {
            if now.is_some() {
                self.note(Note::Line(format!(
                    "reading {} pieces for {key} in the background; searches go without them \
                     until they are ready",
                    self.pieces
                )));
            }
        } else {
            let meanwhile = if self.wait {
                "waiting for them"
            } else {
                "searches go without them until they are ready"
            };
            self.note(Note::Line(format!(
                "building {} pieces for {key} in the background; {meanwhile}",
                self.pieces
            )));
        }
        let state = state.clone();
        let thread_key = key.clone();
        let started = std::thread::Builder::new()
            .name("tables".into())
            .spawn(move || job.run(&state, &thread_key, dir, held, true));
        if let Err(why) = started {
            finish(
                &self.shared,
                self.sink.as_ref(),
                &key,
                Err(format!("no thread to build them: {why}")),
                false,
            );
        }
        None
    }

    /// The cache, unless it was found unusable.
    fn usable_cache(&self) -> Option<TablesCache> {
        if lock(&self.shared.keys).cache_failed {
            return None;
        }
        self.cache.clone()
    }
}

/// The lock a reading or a building holds on its key directory.
enum Held {
    Read { _lock: ReadLock },
    Build { _lock: BuildLock },
}

/// The reading or building of one key's tables, on the caller's thread or one of its own.
struct Job<G: Game> {
    tables: EndgameTables<G>,
    pieces: u8,
    threads: usize,
    cache: Option<TablesCache>,
    sink: Option<NoteSink>,
    shared: Arc<Shared<G>>,
}

impl<G: Game> Job<G> {
    fn note(&self, note: Note) {
        tell(self.sink.as_ref(), &self.shared, note);
    }

    /// The directory of `key` in the cache, made if needed; `None` without a cache, or when
    /// it cannot be made (said once: the tables are then kept in memory only).
    fn key_dir(&self, key: &str) -> Option<PathBuf> {
        let cache = self.cache.as_ref()?;
        match cache.key_dir(key) {
            Ok(dir) => Some(dir),
            Err(why) => {
                let first = !std::mem::replace(&mut lock(&self.shared.keys).cache_failed, true);
                if first {
                    self.note(Note::Line(format!(
                        "{why}; the tables are kept in memory only"
                    )));
                }
                None
            }
        }
    }

    /// Reads or builds `key`'s tables for `state` (reads when `held` is a read lock: every
    /// file is in `dir`), and records the result (`on_thread`: said ready when done). The
    /// key directory's lock is held until the files are read or written.
    fn run(&self, state: &G, key: &str, dir: Option<PathBuf>, held: Option<Held>, on_thread: bool) {
        let building = !matches!(held, Some(Held::Read { .. }));
        // A build waits for the one in progress (each takes all the threads it is given).
        let _turn = building.then(|| lock(&self.shared.build_turn));
        let sink = self.sink.clone();
        let shared = Arc::clone(&self.shared);
        let mut log = |line: &str| tell(sink.as_ref(), &shared, Note::Line(line.to_string()));
        let result =
            (self.tables.build)(state, self.pieces, dir.as_deref(), self.threads, &mut log);
        drop(held);
        if let (Some(cache), Some(path), Ok(_)) = (&self.cache, &dir, &result) {
            cache.touch(path);
            if building {
                for removed in cache.evict(path) {
                    self.note(Note::Line(format!(
                        "removed {} from the cache (least recently used; the cache holds at \
                         most {})",
                        removed.display(),
                        cache.limit()
                    )));
                }
            }
        }
        finish(&self.shared, self.sink.as_ref(), key, result, on_thread);
    }

    /// Drops the claim on `key` (another process builds it), saying so once.
    fn give_up_locked(&self, key: &str, holder: Option<u32>) {
        let first = {
            let mut keys = lock(&self.shared.keys);
            keys.entries.retain(|(k, _)| k != key);
            let first = !keys.told_locked.iter().any(|k| k == key);
            if first {
                keys.told_locked.push(key.to_string());
            }
            first
        };
        self.shared.changed.notify_all();
        if first {
            let who = CacheError::Locked { holder };
            self.note(Note::Line(format!(
                "{key}: {who}; going on without them, looking again at the next search"
            )));
        }
    }
}

/// Records the end of `key`'s reading or building and wakes the waiters; a failure (and a
/// background build's success, when `say_ready`) is noted.
fn finish<G: Game>(
    shared: &Shared<G>,
    sink: Option<&NoteSink>,
    key: &str,
    result: Result<Arc<dyn Probe<G>>, String>,
    say_ready: bool,
) {
    let note = {
        let mut keys = lock(&shared.keys);
        keys.entries.retain(|(k, _)| k != key);
        keys.told_locked.retain(|k| k != key);
        match result {
            Ok(probe) => {
                keys.entries.push((key.to_string(), Entry::Ready(probe)));
                let ready = |e: &(String, Entry<G>)| matches!(e.1, Entry::Ready(_));
                if keys.entries.iter().filter(|e| ready(e)).count() > KEPT
                    && let Some(i) = keys.entries.iter().position(ready)
                {
                    keys.entries.remove(i);
                }
                say_ready.then(|| Note::Ready(key.to_string()))
            }
            Err(why) => {
                let failed = |e: &(String, Entry<G>)| matches!(e.1, Entry::Failed(_));
                if keys.entries.iter().filter(|e| failed(e)).count() >= FAILED_KEPT
                    && let Some(i) = keys.entries.iter().position(failed)
                {
                    keys.entries.remove(i);
                }
                keys.entries
                    .push((key.to_string(), Entry::Failed(why.clone())));
                Some(Note::Failed(why))
            }
        }
    };
    // Told before the waiters wake, so that they find it among the notes.
    if let Some(note) = note {
        tell(sink, shared, note);
    }
    shared.changed.notify_all();
}

/// Gives `note` to `sink`, or keeps it for [`TableSource::take_notes`].
fn tell<G: Game>(sink: Option<&NoteSink>, shared: &Shared<G>, note: Note) {
    match sink {
        Some(sink) => sink(note),
        None => lock(&shared.notes).push(note),
    }
}

/// Locks `mutex`, whatever a panicking holder left.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
