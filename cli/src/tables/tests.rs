//! The tables cache and its source on the toy game, with builders that count what they do:
//! one build per key among sources that share a directory (its lock), cached files read
//! without a build, a cache that cannot be made, eviction order, and sizes as text.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime};

use plies::Side;
use plies::solve::Probe;
use plies::testing::TwoPiles;

use super::cache::{ByteSize, TablesCache};
use super::{NoTables, Note, SourceSettings, TableSource};
use crate::endgame::EndgameTables;

/// An empty directory of this test process named after `name`.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("plies-tables-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

fn state() -> TwoPiles {
    TwoPiles::new(3, 4, Side::First)
}

/// A source of `tables` keeping them in `dir`.
fn source(tables: EndgameTables<TwoPiles>, dir: PathBuf) -> TableSource<TwoPiles> {
    TableSource::with(
        Some(tables),
        SourceSettings {
            pieces: 2,
            game: "twopiles",
            dir: Some(dir),
            limit: ByteSize::DEFAULT_CACHE_LIMIT,
            threads: 1,
            wait: false,
        },
    )
}

static RACE_BUILDS: AtomicUsize = AtomicUsize::new(0);
static RACE_READS: AtomicUsize = AtomicUsize::new(0);
static RACE_GATE: AtomicBool = AtomicBool::new(false);

/// Reads `race.tb` from its directory when there; otherwise builds: waits for [`RACE_GATE`],
/// then writes the file (as a `.part`, renamed).
fn race_build(
    _: &TwoPiles,
    _: u8,
    dir: Option<&Path>,
    _: usize,
    log: &mut dyn FnMut(&str),
) -> Result<Arc<dyn Probe<TwoPiles>>, String> {
    let dir = dir.ok_or("no directory")?;
    let file = dir.join("race.tb");
    if file.is_file() {
        RACE_READS.fetch_add(1, Ordering::SeqCst);
        log("read from the directory");
        return Ok(Arc::new(NoTables));
    }
    RACE_BUILDS.fetch_add(1, Ordering::SeqCst);
    while !RACE_GATE.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let part = dir.join("race.tb.part");
    fs::write(&part, [7u8; 100]).map_err(|e| e.to_string())?;
    fs::rename(&part, &file).map_err(|e| e.to_string())?;
    log("built");
    Ok(Arc::new(NoTables))
}

fn race_tables() -> EndgameTables<TwoPiles> {
    EndgameTables {
        default_pieces: 2,
        pieces: (2, 4),
        key: |_| "race".to_string(),
        build: race_build,
        files: |_, _| vec!["race.tb".to_string()],
        sets: None,
    }
}

/// Polls `done` for up to a minute.
fn until(what: &str, done: &mut dyn FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(60), "never: {what}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Two sources sharing a directory (as two processes do) build a key once: the second finds
/// the key locked, goes on without tables and builds nothing; once the first is done, the
/// second's next search reads the files at once.
#[test]
fn a_key_is_built_once_among_sources() {
    let dir = temp_dir("race");
    let first = source(race_tables(), dir.clone());
    let second = source(race_tables(), dir.clone());
    assert!(first.snapshot(&state()).is_none());
    assert!(first.is_building(&state()));
    until("the first build starts", &mut || {
        RACE_BUILDS.load(Ordering::SeqCst) == 1
    });
    let mut notes = Vec::new();
    assert!(second.snapshot(&state()).is_none());
    until("the second source gives up", &mut || {
        notes.extend(second.take_notes());
        !second.is_building(&state())
    });
    notes.extend(second.take_notes());
    let locked = |notes: &[Note]| {
        notes
            .iter()
            .filter(|n| matches!(n, Note::Line(l) if l.contains("another process")))
            .count()
    };
    assert_eq!(locked(&notes), 1, "{notes:?}");
    // Asked again while the key is locked: still no build, and nothing said again.
    assert!(second.snapshot(&state()).is_none());
    until("the second source gives up again", &mut || {
        !second.is_building(&state())
    });
    assert_eq!(locked(&second.take_notes()), 0);
    assert_eq!(RACE_BUILDS.load(Ordering::SeqCst), 1);
    RACE_GATE.store(true, Ordering::SeqCst);
    assert!(first.wait(&state()).unwrap().is_some());
    assert!(
        first
            .take_notes()
            .iter()
            .any(|n| *n == Note::Ready("race".into())),
    );
    // The next search of the second source reads the files on its own thread, at once.
    assert!(second.snapshot(&state()).is_some());
    assert_eq!(RACE_BUILDS.load(Ordering::SeqCst), 1);
    assert_eq!(RACE_READS.load(Ordering::SeqCst), 1);
    let key_dir = dir.join("race");
    assert!(key_dir.join("used").is_file());
    assert!(!key_dir.join("race.tb.part").exists());
    let _ = fs::remove_dir_all(&dir);
}

static BIG_READS: AtomicUsize = AtomicUsize::new(0);
static BIG_READ_ON_TABLES_THREAD: AtomicBool = AtomicBool::new(false);

/// Reads `big.tb` (only noting which thread reads it), or fails when it is not there.
fn big_read(
    _: &TwoPiles,
    _: u8,
    dir: Option<&Path>,
    _: usize,
    _: &mut dyn FnMut(&str),
) -> Result<Arc<dyn Probe<TwoPiles>>, String> {
    if !dir.ok_or("no directory")?.join("big.tb").is_file() {
        return Err("not cached".into());
    }
    BIG_READS.fetch_add(1, Ordering::SeqCst);
    let thread = std::thread::current();
    BIG_READ_ON_TABLES_THREAD.store(thread.name() == Some("tables"), Ordering::SeqCst);
    Ok(Arc::new(NoTables))
}

/// Cached tables too big to read while a search waits (a host waiting for its move) are read
/// on a thread of their own; the search goes without them, and the next one has them.
#[test]
fn big_cached_tables_are_read_beside_the_search() {
    let dir = temp_dir("big");
    let key_dir = dir.join("big");
    fs::create_dir_all(&key_dir).unwrap();
    // A sparse file: its length counts, not its blocks.
    let file = fs::File::create(key_dir.join("big.tb")).unwrap();
    file.set_len(100 << 20).unwrap();
    drop(file);
    let tables = EndgameTables {
        default_pieces: 2,
        pieces: (2, 4),
        key: |_| "big".to_string(),
        build: big_read,
        files: |_, _| vec!["big.tb".to_string()],
        sets: None,
    };
    let big = source(tables, dir.clone());
    assert!(
        big.snapshot(&state()).is_none(),
        "not read on the search's thread"
    );
    until("the read ends", &mut || big.ready(&state()).is_some());
    assert!(big.snapshot(&state()).is_some());
    assert_eq!(BIG_READS.load(Ordering::SeqCst), 1);
    assert!(BIG_READ_ON_TABLES_THREAD.load(Ordering::SeqCst));
    // A command that prints one answer (analyze) reads them at once, on its own thread.
    let whole = source(tables, dir.clone());
    assert!(whole.snapshot_whole(&state()).is_some());
    assert_eq!(BIG_READS.load(Ordering::SeqCst), 2);
    assert!(!BIG_READ_ON_TABLES_THREAD.load(Ordering::SeqCst));
    let notes = big.take_notes();
    assert!(
        notes
            .iter()
            .any(|n| matches!(n, Note::Line(l) if l.contains("reading 2 pieces for big"))),
        "{notes:?}"
    );
    let _ = fs::remove_dir_all(&dir);
}

static MEMORY_BUILDS: AtomicUsize = AtomicUsize::new(0);

/// A build that needs no directory.
fn memory_build(
    _: &TwoPiles,
    _: u8,
    _: Option<&Path>,
    _: usize,
    _: &mut dyn FnMut(&str),
) -> Result<Arc<dyn Probe<TwoPiles>>, String> {
    MEMORY_BUILDS.fetch_add(1, Ordering::SeqCst);
    Ok(Arc::new(NoTables))
}

/// A cache directory that cannot be made (under a regular file) is said in one line, once,
/// and the tables are built in memory all the same.
#[test]
fn a_cache_that_cannot_be_made_is_said_once() {
    let dir = temp_dir("unmakeable");
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a-file");
    fs::write(&file, "not a directory").unwrap();
    let tables = EndgameTables {
        default_pieces: 2,
        pieces: (2, 4),
        key: |state: &TwoPiles| format!("piles{}", state.piles[0]),
        build: memory_build,
        files: |_, _| vec!["t.tb".to_string()],
        sets: None,
    };
    let source = source(tables, file.join("cache"));
    assert!(source.wait(&state()).unwrap().is_some());
    assert!(
        source
            .wait(&TwoPiles::new(5, 4, Side::First))
            .unwrap()
            .is_some()
    );
    let notes = source.take_notes();
    let said: Vec<&Note> = notes
        .iter()
        .filter(|n| matches!(n, Note::Line(l) if l.contains("cannot use the tables cache")))
        .collect();
    assert_eq!(said.len(), 1, "{notes:?}");
    assert!(
        format!("{said:?}").contains("kept in memory only"),
        "{notes:?}"
    );
    assert_eq!(MEMORY_BUILDS.load(Ordering::SeqCst), 2);
    let _ = fs::remove_dir_all(&dir);
}

/// Makes the key directory `name` of `cache` holding `bytes` bytes, last used `age` ago.
fn key_dir(cache: &TablesCache, name: &str, bytes: usize, age: Duration) -> PathBuf {
    let dir = cache.key_dir(name).unwrap();
    fs::write(dir.join("t.tb"), vec![0u8; bytes]).unwrap();
    cache.touch(&dir);
    fs::File::options()
        .write(true)
        .open(dir.join("used"))
        .unwrap()
        .set_modified(SystemTime::now() - age)
        .unwrap();
    dir
}

/// Eviction removes the least recently used key directories first, while the total is over
/// the limit; never a locked one, never the one in use, never a directory it did not make.
#[test]
fn eviction_removes_the_oldest_used_first_never_a_locked_one() {
    let root = temp_dir("evict");
    let minutes = |m: u64| Duration::from_secs(60 * m);
    let cache = TablesCache::new(root.clone(), ByteSize(2500));
    let a = key_dir(&cache, "a", 1000, minutes(40));
    let b = key_dir(&cache, "b", 1000, minutes(30));
    let c = key_dir(&cache, "c", 1000, minutes(20));
    let d = key_dir(&cache, "d", 1000, minutes(50));
    // Not the cache's: no `used` file (large, and never counted or removed).
    let foreign = root.join("foreign");
    fs::create_dir_all(&foreign).unwrap();
    fs::write(foreign.join("data"), vec![0u8; 10_000]).unwrap();
    // The oldest but one is read by another process (its shared lock).
    let reading = cache.lock_read(&a).unwrap();
    // In use: d, though the oldest of all.
    let removed = cache.evict(&d);
    assert_eq!(removed, vec![b.clone(), c.clone()]);
    assert!(a.is_dir() && d.is_dir() && foreign.join("data").is_file());
    assert!(!b.exists() && !c.exists());
    // Under the limit now: nothing more goes, even unlocked.
    drop(reading);
    assert!(cache.evict(&d).is_empty());
    // A lower limit takes a, and never d.
    let small = TablesCache::new(root.clone(), ByteSize(10));
    assert_eq!(small.evict(&d), vec![a.clone()]);
    assert!(d.is_dir() && foreign.is_dir());
    let _ = fs::remove_dir_all(&root);
}

#[test]
fn sizes_read_and_show_with_units() {
    for (text, bytes, shown) in [
        ("16G", 16u64 << 30, "16G"),
        ("16g", 16 << 30, "16G"),
        ("1024", 1024, "1K"),
        ("1500", 1500, "1500"),
        ("512M", 512 << 20, "512M"),
        ("2048K", 2 << 20, "2M"),
        ("3T", 3 << 40, "3T"),
        ("0", 0, "0"),
    ] {
        let size: ByteSize = text.parse().unwrap();
        assert_eq!(size.0, bytes, "{text}");
        assert_eq!(size.to_string(), shown, "{text}");
        assert_eq!(shown.parse::<ByteSize>().unwrap(), size, "{text}");
    }
    for bad in ["", "G", "1.5G", "-1", "12x", "99999999999T", "1 G"] {
        let err = bad.parse::<ByteSize>().unwrap_err().to_string();
        assert!(err.starts_with("bad size"), "{bad}: {err}");
    }
    assert_eq!(ByteSize::default().to_string(), "16G");
}

/// Builds of each piece count by [`layer_build`].
static LAYER_BUILDS: [AtomicUsize; 5] = [const { AtomicUsize::new(0) }; 5];

/// Writes `t<pieces>.tb` in its directory: tables of `pieces` pieces.
fn layer_build(
    _: &TwoPiles,
    pieces: u8,
    dir: Option<&Path>,
    _: usize,
    _: &mut dyn FnMut(&str),
) -> Result<Arc<dyn Probe<TwoPiles>>, String> {
    let dir = dir.ok_or("no directory")?;
    LAYER_BUILDS[usize::from(pieces)].fetch_add(1, Ordering::SeqCst);
    fs::write(dir.join(format!("t{pieces}.tb")), [pieces]).map_err(|e| e.to_string())?;
    Ok(Arc::new(NoTables))
}

/// `--tables 2,3`: the 3-piece tables are built only once the 2-piece ones are ready, and
/// handed out from the first search after they are; the label says which a user has.
#[test]
fn an_upgrade_follows_the_first_tables_and_is_handed_out_once_ready() {
    let tables = EndgameTables {
        default_pieces: 2,
        pieces: (2, 4),
        key: |_| "layers".to_string(),
        build: layer_build,
        files: |_, pieces| vec![format!("t{pieces}.tb")],
        sets: None,
    };
    let dir = temp_dir("layers");
    let layered = source(tables, dir.clone()).with_upgrade(3);
    assert_eq!(layered.upgrade_pieces(), Some(3));
    assert!(layered.snapshot(&state()).is_none());
    until("the first tables", &mut || {
        layered.ready(&state()).is_some()
    });
    assert_eq!(LAYER_BUILDS[3].load(Ordering::SeqCst), 0);
    assert_eq!(layered.label(&state()).as_deref(), Some("layers"));
    // This search gets the first tables, and the upgrade starts.
    let first = layered.snapshot(&state()).expect("the first tables");
    until("the upgrade", &mut || {
        layered.label(&state()).as_deref() == Some("layers@3")
    });
    let upgraded = layered.snapshot(&state()).expect("the upgrade");
    assert!(!Arc::ptr_eq(&first, &upgraded));
    assert_eq!(LAYER_BUILDS[2].load(Ordering::SeqCst), 1);
    assert_eq!(LAYER_BUILDS[3].load(Ordering::SeqCst), 1);
    assert!(dir.join("layers").join("t3.tb").is_file());
    // An upgrade of no more pieces is none.
    let same = source(tables, temp_dir("layers-same")).with_upgrade(2);
    assert_eq!(same.upgrade_pieces(), None);
    let _ = fs::remove_dir_all(&dir);
}

/// A tables setting reads `off`, `N` and `N,M` (M more than N, N not off), and its counts are
/// then checked against the game's range; a game without tables takes `off` only.
#[test]
fn tables_settings_read_their_form_then_the_games_range() {
    use super::{Layers, parse_layers, parse_pieces};
    let layers = |pieces, upgrade| Layers { pieces, upgrade };
    for (text, want) in [
        ("off", layers(0, None)),
        ("OFF", layers(0, None)),
        ("0", layers(0, None)),
        ("3", layers(3, None)),
        ("2,4", layers(2, Some(4))),
        (" 2 , 3 ", layers(2, Some(3))),
    ] {
        assert_eq!(text.parse::<Layers>(), Ok(want), "{text}");
    }
    for text in [
        "", "x", "-1", "256", "4,2", "3,3", "off,4", "0,4", "2,x", "2,4,6",
    ] {
        let err = text.parse::<Layers>().unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("'{text}': expected")),
            "{text}: {err}"
        );
    }
    let tables = race_tables();
    assert_eq!(
        parse_layers(Some(&tables), "2,4", "T"),
        Ok(layers(2, Some(4)))
    );
    let err = parse_layers(Some(&tables), "2,5", "T").unwrap_err();
    assert_eq!(err, "bad T '5': expected off or a piece count from 2 to 4");
    let err = parse_layers(Some(&tables), "1", "T").unwrap_err();
    assert_eq!(err, "bad T '1': expected off or a piece count from 2 to 4");
    let none: Option<&EndgameTables<TwoPiles>> = None;
    assert_eq!(parse_layers(none, "off", "T"), Ok(layers(0, None)));
    let err = parse_layers(none, "3", "T").unwrap_err();
    assert_eq!(err, "bad T '3': this game has no endgame tables");
    assert_eq!(parse_pieces(Some(&tables), "4", "tables"), Ok(4));
    assert!(parse_pieces(Some(&tables), "2,4", "tables").is_err());
}
