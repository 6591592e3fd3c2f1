//! The position store on a real SQLite file, as a user meets it with Kalah (the tutorial
//! game): `analyze` answering from the store, several processes writing at once, a writer
//! killed with SIGKILL, damaged and foreign files, export and import, prune.
//!
//! Key invariant: every command runs through `plies_cli::run` with string arguments, exactly
//! as from a terminal; writer processes are this package's helper binary
//! (`plies-test-child store-writer`). Every test has a store file of its own in a temporary directory:
//! none touches the user's store.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use plies_cli::{GameCli, run};
use plies_kalah::Kalah;
use plies_process_tests::STORED;
use serde_json::Value;

/// The helper binary this package builds for its tests.
const CHILD: &str = env!("CARGO_BIN_EXE_plies-test-child");

fn kalah() -> GameCli<Kalah> {
    plies_process_tests::kalah()
}

/// Runs the Kalah command line with `args`; the output, or the error's line.
fn kalah_run(args: &[&str]) -> Result<String, String> {
    let argv = std::iter::once("kalah".to_string()).chain(args.iter().map(|a| a.to_string()));
    let mut out = Vec::new();
    run(&kalah(), argv, &mut std::io::empty(), &mut out).map_err(|e| e.to_string())?;
    Ok(String::from_utf8(out).expect("UTF-8 output"))
}

/// Runs `args` and expects success.
fn ok(args: &[&str]) -> String {
    kalah_run(args).unwrap_or_else(|e| panic!("{args:?} failed: {e}"))
}

/// Runs `args` and expects a one-line error; returns it.
fn refused(args: &[&str]) -> String {
    let err = kalah_run(args).expect_err("refused");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    err
}

/// The last line printed, as JSON.
fn last_json(out: &str) -> Value {
    serde_json::from_str(out.lines().last().expect("output")).expect("a JSON line")
}

/// An empty directory for the test `name`, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("plies-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }

    /// `name` in the directory, as text.
    fn file(&self, name: &str) -> String {
        self.0.join(name).to_str().expect("UTF-8 path").to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Kalah position number `n` (distinct for `n` below 1000; pit a never empty), as the
/// writers number them.
fn position(n: usize) -> String {
    plies_process_tests::kalah_position(n)
}

/// `analyze` of position `n` to `depth` with the store `store`, as JSON.
fn analyze(store: &str, n: usize, depth: u32) -> Value {
    let depth = depth.to_string();
    let position = position(n);
    let out = ok(&[
        "analyze",
        "--position",
        &position,
        "--depth",
        &depth,
        "--store",
        store,
        "--json",
    ]);
    last_json(&out)
}

/// The analyses of the store's export, one JSON value each.
fn exported(store: &str) -> Vec<Value> {
    ok(&["store", "export", "--store", store])
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// `store stats --check` as JSON.
fn stats(store: &str) -> Value {
    last_json(&ok(&[
        "store", "stats", "--check", "--json", "--store", store,
    ]))
}

/// Starts a writer of `count` positions from `first` into `store`: it analyzes each to depth 2
/// (a search, not a store hit, or it fails), printing [`STORED`] and the number after each.
fn spawn_writer(store: &str, first: usize, count: usize) -> Child {
    Command::new(CHILD)
        .args(["store-writer", store])
        .args([first, count].map(|n| n.to_string()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the writer starts")
}

/// The output of a writer, line by line.
fn reader(child: &mut Child) -> BufReader<ChildStdout> {
    BufReader::new(child.stdout.take().expect("piped stdout"))
}

/// The position numbers a writer said it stored, read until it ends (or, with `until`, until
/// it said so that many times).
fn stored_numbers(reader: &mut BufReader<ChildStdout>, until: Option<usize>) -> Vec<usize> {
    let mut numbers = Vec::new();
    for line in reader.lines() {
        let line = line.expect("the writer's output");
        if let Some(n) = line.strip_prefix(STORED) {
            numbers.push(n.trim().parse().expect("a number"));
            if until == Some(numbers.len()) {
                break;
            }
        }
    }
    numbers
}

/// The positions of an export.
fn positions_of(analyses: &[Value]) -> Vec<String> {
    let mut positions: Vec<String> = analyses
        .iter()
        .map(|a| a["position"].as_str().expect("a position").to_string())
        .collect();
    positions.sort();
    positions
}

/// A second `analyze` of a position answers from the store with the first one's result, said
/// so in the text and in the JSON; a deeper one searches, and then answers the shallower.
#[test]
fn a_second_analyze_answers_from_the_store() {
    let dir = TempDir::new("second");
    let store = dir.file("store.sqlite");
    let first = analyze(&store, 0, 6);
    assert_eq!(first["source"], "search");
    let second = analyze(&store, 0, 6);
    assert_eq!(second["source"], "store", "{second}");
    for key in ["depth", "score", "best", "pv", "nodes"] {
        assert_eq!(first[key], second[key], "{key}");
    }
    let text = ok(&[
        "analyze",
        "--position",
        &position(0),
        "--depth",
        "6",
        "--store",
        &store,
    ]);
    assert!(text.contains("from the store: depth 6 by kalah"), "{text}");
    assert!(text.contains("--no-store-read"), "{text}");
    assert_eq!(analyze(&store, 0, 7)["source"], "search");
    let shallower = analyze(&store, 0, 5);
    assert_eq!(shallower["source"], "store");
    assert_eq!(shallower["depth"], 7);
    let out = ok(&[
        "analyze",
        "--position",
        &position(0),
        "--depth",
        "5",
        "--store",
        &store,
        "--json",
        "--no-store-read",
    ]);
    assert_eq!(last_json(&out)["source"], "search");
    // The deeper analysis stays.
    let rows = exported(&store);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["depth"], 7);
}

/// A position stored at depth 20 comes back at once: the answer is the stored line (its node
/// count is the imported one, no search made it), well within the 50 ms in release.
#[test]
fn a_stored_depth_20_answer_comes_back_at_once() {
    let dir = TempDir::new("fast");
    let store = dir.file("store.sqlite");
    let lines = dir.file("deep.jsonl");
    let line = serde_json::json!({
        "game": "kalah", "variant": "kalah", "position": position(0), "family": "pvs",
        "depth": 20, "score": {"cp": 2}, "bound": "exact", "best": "a", "pv": "a b",
        "nodes": 987_654_321u64, "engine": "kalah", "version": "0.1.0", "searcher": "pvs",
        "written": 1_700_000_000_000i64,
    });
    std::fs::write(&lines, format!("{line}\n")).unwrap();
    let out = ok(&["store", "import", &lines, "--store", &store]);
    assert!(out.contains("imported 1 analyses"), "{out}");
    let started = Instant::now();
    let json = analyze(&store, 0, 20);
    let took = started.elapsed();
    assert_eq!(json["source"], "store", "{json}");
    assert_eq!(json["nodes"], 987_654_321u64);
    assert_eq!(json["pv"], serde_json::json!(["a", "b"]));
    assert_eq!(json["score"], serde_json::json!({"cp": 2}));
    // The stored node count above proves no search ran; this bound only catches a stall (the
    // tests run beside each other on a loaded machine; the release figure is in docs/store.md).
    assert!(took < Duration::from_secs(10), "{took:?}");
}

/// Four processes writing 50 analyses each at once leave a whole store with all 200.
#[test]
fn concurrent_writers_leave_every_row() {
    let dir = TempDir::new("concurrent");
    let store = dir.file("store.sqlite");
    let mut writers: Vec<Child> = (0..4).map(|k| spawn_writer(&store, k * 50, 50)).collect();
    let mut said = Vec::new();
    for writer in &mut writers {
        said.extend(stored_numbers(&mut reader(writer), None));
        let status = writer.wait().expect("the writer ends");
        assert!(status.success(), "a writer failed: {status}");
    }
    said.sort_unstable();
    assert_eq!(said, (0..200).collect::<Vec<_>>());
    let stats = stats(&store);
    assert_eq!(stats["check"], "ok", "{stats}");
    assert_eq!(stats["analyses"], 200, "{stats}");
    assert_eq!(stats["positions"], 200, "{stats}");
    let mut expected: Vec<String> = (0..200).map(position).collect();
    expected.sort();
    assert_eq!(positions_of(&exported(&store)), expected);
}

/// A writer killed with SIGKILL in the middle of its writes leaves a store that opens, passes
/// SQLite's integrity check and holds every analysis it said it had stored.
#[test]
fn a_killed_writer_loses_no_committed_row() {
    let dir = TempDir::new("killed");
    let store = dir.file("store.sqlite");
    let mut writer = spawn_writer(&store, 0, 1000);
    // The output stays open until the kill: the writer is killed, not stopped by a closed pipe.
    let mut output = reader(&mut writer);
    let said = stored_numbers(&mut output, Some(40));
    writer.kill().expect("SIGKILL");
    let status = writer.wait().expect("the writer ends");
    drop(output);
    assert!(!status.success(), "killed before its end: {status}");
    assert_eq!(said.len(), 40, "the writer stored 40 before the kill");
    let stats = stats(&store);
    assert_eq!(stats["check"], "ok", "{stats}");
    let held = positions_of(&exported(&store));
    for n in said {
        assert!(held.contains(&position(n)), "position {n} lost");
    }
    // And it takes writes again.
    assert_eq!(analyze(&store, 999, 2)["source"], "search");
    assert_eq!(analyze(&store, 999, 2)["source"], "store");
}

/// Random bytes, an SQLite file with a damaged body and another application's database are
/// each refused with one line, by `analyze` and by `store`; the foreign file is left as it was.
#[test]
fn damaged_and_foreign_files_are_refused() {
    let dir = TempDir::new("refused");
    let junk = dir.file("junk.sqlite");
    // A fixed stream of pseudo-random bytes.
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let bytes: Vec<u8> = (0..8192)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 56) as u8
        })
        .collect();
    std::fs::write(&junk, &bytes).unwrap();
    let analyze_args =
        |store: &str| ["analyze", "--depth", "2", "--store", store].map(String::from);
    let err = refused(&analyze_args(&junk).each_ref().map(String::as_str));
    assert!(err.contains("not an SQLite database"), "{err}");
    assert!(err.contains(&junk), "{err}");
    let err = refused(&["store", "stats", "--store", &junk]);
    assert!(err.contains("not an SQLite database"), "{err}");
    assert_eq!(std::fs::read(&junk).unwrap(), bytes);

    // SQLite's header, then damage: a store whose pages after the first are overwritten.
    let damaged = dir.file("damaged.sqlite");
    for n in 0..20 {
        analyze(&damaged, n, 1);
    }
    let mut content = std::fs::read(&damaged).unwrap();
    for byte in content.iter_mut().skip(100) {
        *byte = 0xa5;
    }
    std::fs::write(&damaged, &content).unwrap();
    let _ = std::fs::remove_file(format!("{damaged}-wal"));
    let _ = std::fs::remove_file(format!("{damaged}-shm"));
    let err = refused(&analyze_args(&damaged).each_ref().map(String::as_str));
    assert!(err.contains("is damaged"), "{err}");

    let foreign = dir.file("foreign.sqlite");
    let connection = rusqlite::Connection::open(&foreign).unwrap();
    connection
        .execute_batch("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine');")
        .unwrap();
    drop(connection);
    let before = std::fs::read(&foreign).unwrap();
    let err = refused(&analyze_args(&foreign).each_ref().map(String::as_str));
    assert!(err.contains("another application"), "{err}");
    let err = refused(&["store", "import", &junk, "--store", &foreign]);
    assert!(err.contains("line 1") || err.contains("UTF-8"), "{err}");
    let err = refused(&["store", "prune", "--store", &foreign]);
    assert!(err.contains("another application"), "{err}");
    assert_eq!(std::fs::read(&foreign).unwrap(), before, "left as it was");
    assert!(!Path::new(&format!("{foreign}-wal")).exists());
}

/// Export, import into an empty store, export again: the same analyses, line for line. A bad
/// line is named by its number and nothing of its file is imported.
#[test]
fn export_then_import_gives_equal_rows() {
    let dir = TempDir::new("export");
    let first = dir.file("first.sqlite");
    for n in 0..30 {
        analyze(&first, n, 1 + (n % 4) as u32);
    }
    let file = dir.file("analyses.jsonl");
    let out = ok(&["store", "export", &file, "--store", &first]);
    assert!(out.contains("exported 30 analyses of kalah"), "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 30);
    let second = dir.file("second.sqlite");
    let out = ok(&["store", "import", &file, "--store", &second]);
    assert!(out.contains("imported 30 analyses"), "{out}");
    assert_eq!(ok(&["store", "export", "--store", &second]), text);
    // Imported again: nothing newer, nothing written.
    let out = ok(&["store", "import", &file, "--store", &second]);
    assert!(out.contains("0 written"), "{out}");

    let mut lines: Vec<&str> = text.lines().collect();
    let bad = lines[4].replace("\"depth\":", "\"depth\":-");
    lines[4] = &bad;
    let broken = dir.file("broken.jsonl");
    std::fs::write(&broken, lines.join("\n")).unwrap();
    let third = dir.file("third.sqlite");
    let err = refused(&["store", "import", &broken, "--store", &third]);
    assert!(err.contains("line 5"), "{err}");
    let illegal = text
        .lines()
        .next()
        .unwrap()
        .replace("\"best\":\"", "\"best\":\"z");
    std::fs::write(&broken, illegal).unwrap();
    let err = refused(&["store", "import", &broken, "--store", &third]);
    assert!(err.contains("line 1") && err.contains("best"), "{err}");
    assert_eq!(stats(&third)["all"], 0);
}

/// `store prune --max-size` brings the file under the limit, removing the shallowest analyses
/// first; a write over `--store-limit` is skipped while the analysis is still printed.
#[test]
fn prune_brings_the_store_under_the_limit() {
    let dir = TempDir::new("prune");
    let store = dir.file("store.sqlite");
    let lines: Vec<String> = (0..900)
        .map(|n| {
            serde_json::json!({
                "game": "kalah", "variant": "kalah", "position": position(n), "family": "pvs",
                "depth": 1 + n % 30, "score": {"cp": n}, "bound": "exact", "best": "a",
                "pv": "a", "nodes": n, "engine": "kalah", "version": "0.1.0",
                "searcher": "pvs:tt=64,threads=2 with a long note to take room",
                "written": n,
            })
            .to_string()
        })
        .collect();
    let file = dir.file("many.jsonl");
    std::fs::write(&file, lines.join("\n")).unwrap();
    ok(&["store", "import", &file, "--store", &store]);
    let before = stats(&store)["size"].as_u64().unwrap();
    assert!(before > 100 << 10, "{before} bytes: too few to prune");
    let out = ok(&["store", "prune", "--max-size", "64K", "--store", &store]);
    assert!(out.contains("removed"), "{out}");
    let after = stats(&store);
    assert!(after["size"].as_u64().unwrap() <= 64 << 10, "{after}");
    assert_eq!(after["check"], "ok");
    let left = exported(&store);
    assert!(!left.is_empty() && left.len() < 900, "{}", left.len());
    // The deepest stayed: every analysis left is at least as deep as any removed.
    let depth = |a: &Value| a["depth"].as_u64().unwrap();
    let kept_min = left.iter().map(depth).min().unwrap();
    let kept: Vec<String> = positions_of(&left);
    let removed_max = (0..900)
        .filter(|&n| !kept.contains(&position(n)))
        .map(|n| 1 + (n % 30) as u64)
        .max()
        .unwrap();
    assert!(kept_min >= removed_max, "{kept_min} < {removed_max}");

    // A store at its limit takes no more, and analyze still answers.
    let size = stats(&store)["size"].as_u64().unwrap();
    let limit = (size / 1024).to_string() + "K";
    let out = ok(&[
        "analyze",
        "--position",
        &position(950),
        "--depth",
        "2",
        "--store",
        &store,
        "--store-limit",
        &limit,
        "--json",
    ]);
    assert_eq!(last_json(&out)["source"], "search");
    assert!(out.contains("best "), "{out}");
    assert!(
        !positions_of(&exported(&store)).contains(&position(950)),
        "written over the limit"
    );
}
