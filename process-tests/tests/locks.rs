//! One writer at a time: a second `arena` on the results file a running arena writes, and a
//! second `tune run` on the directory of a running one, are refused at once with a line naming
//! what is locked, while the first goes on to the end and writes every game exactly once.
//!
//! Key invariant: the second writer always meets the first still running, never slept for.
//! The first arena's UGI engine answers no `go` before a gate file exists, so the arena holds
//! its results file, mid-game, until the second has been refused; the first tuning run's
//! standard output is a full pipe, so it holds its directory at its last line until the test
//! reads the pipe, and its second writer is started once it has written a game. The children are this package's
//! helper binary running the game's command line (`plies-test-child kalah ...`) or a scripted
//! engine (`plies-test-child ugi-engine ...`).
#![cfg(unix)]

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use plies_cli::run;
use serde_json::Value;

/// The helper binary this package builds for its tests.
const CHILD: &str = env!("CARGO_BIN_EXE_plies-test-child");

/// The arena, with a gated UGI engine as a fourth engine (`-e ugi:...` after it):
/// 6 pairings x 3 openings x 2 colours = 36 games.
const ARENA: &str = "arena -e alphabeta:depth=3 -e mcts -e random --nodes 1500 --openings 3 \
                     --opening-plies 3 --seed 17 --max-plies 200 --concurrency 2";
const ARENA_GAMES: usize = 36;

/// The tuning run: 4 iterations of 8 games at depth 2, and a check match of 8 games at the end.
const INIT: &str = "tune init --depth 2 --iterations 4 --games 8 --seed 5 --opening-plies 2 \
                    --max-plies 120 --c-end 6 --r-end 0.05";
const TUNE_GAMES: usize = 40;

/// How long a refused writer may take, start-up of a debug build on a loaded machine included.
const REFUSED_WITHIN: Duration = Duration::from_secs(20);

/// Runs the command line (`game` then its arguments) of the game named first, in process.
fn run_line(
    words: Vec<String>,
    output: &mut (dyn std::io::Write + Send),
) -> Result<(), plies_cli::CliError> {
    if words[0] == "kalah" {
        run(
            &plies_process_tests::kalah(),
            words,
            &mut std::io::empty(),
            output,
        )
    } else {
        run(
            &plies_process_tests::onitama(),
            words,
            &mut std::io::empty(),
            output,
        )
    }
}

/// Starts `line` (game first) as a child process.
fn spawn(line: &[String]) -> Child {
    Command::new(CHILD)
        .args(line)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the child starts")
}

/// The words of `text` with `extra` after them, game `game` first.
fn line(game: &str, text: &str, extra: &[&str]) -> Vec<String> {
    std::iter::once(game)
        .chain(text.split_whitespace())
        .chain(extra.iter().copied())
        .map(String::from)
        .collect()
}

/// Waits until `holds` says the first writer holds its lock.
fn wait_until_held(first: &mut Child, holds: &dyn Fn() -> bool) {
    let start = Instant::now();
    while !holds() {
        assert!(
            first.try_wait().expect("the child").is_none(),
            "the first writer ended before it held its lock"
        );
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the first writer never held its lock"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `line` as a second writer: it must fail within [`REFUSED_WITHIN`]; returns its stderr.
fn refused(line: &[String]) -> String {
    let start = Instant::now();
    let output = spawn(line).wait_with_output().expect("the child ends");
    let elapsed = start.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(elapsed < REFUSED_WITHIN, "refused only after {elapsed:?}");
    stderr
}

/// A pipe's writing end that is full (the default 64 KiB of a Linux pipe), and what empties it:
/// a call that starts a thread reading the pipe to its end, which returns what followed the
/// filler. Every write to the pipe blocks until then.
fn full_pipe() -> (std::io::PipeWriter, impl FnOnce() -> JoinHandle<String>) {
    const FILLER: usize = 64 * 1024;
    let (mut reader, writer) = std::io::pipe().expect("a pipe");
    let mut filler = writer.try_clone().expect("a second writer");
    let written = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&written);
    // Writes of one page: each one returns only once it is all in the pipe.
    let fill = std::thread::spawn(move || {
        for _ in 0..FILLER / 4096 {
            filler
                .write_all(&[b'.'; 4096])
                .expect("the filler is written");
            count.fetch_add(4096, Ordering::SeqCst);
        }
    });
    let start = Instant::now();
    while written.load(Ordering::SeqCst) < FILLER {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the pipe holds less than {FILLER} bytes"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    fill.join().expect("the filler thread");
    let drain = move || {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            reader.read_to_end(&mut text).expect("the pipe is read");
            String::from_utf8_lossy(&text[FILLER..]).into_owned()
        })
    };
    (writer, drain)
}

fn temp(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("plies-locks-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    let _ = std::fs::remove_file(&path);
    path
}

/// The JSON lines of `path` (none if it is missing); a partial last line is left out.
fn json_lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let complete = text.rfind('\n').map_or(0, |end| end + 1);
    text[..complete]
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn a_second_arena_on_one_results_file_is_refused_and_every_game_is_recorded_once() {
    let results = temp("results.jsonl");
    let log = temp("engine.log");
    let gate = temp("gate");
    let shown = results.display().to_string();
    let engine = format!(
        "ugi:timeout=300:{CHILD} ugi-engine first {} {}",
        log.display(),
        gate.display()
    );
    let arena = line("kalah", ARENA, &["-e", &engine, "--results", &shown]);
    let mut first = spawn(&arena);
    // The arena sends `go` only once its results file is open and locked; the engine then
    // waits for the gate, so the arena is mid-game until the gate opens.
    wait_until_held(&mut first, &|| {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .any(|l| l.starts_with("go"))
    });
    let stderr = refused(&arena);
    assert_eq!(
        stderr.trim(),
        format!("error: results file {shown} is locked by another process: one writer at a time")
    );
    std::fs::write(&gate, b"").expect("the gate opens");
    let status = first.wait().expect("the first arena ends");
    assert!(status.success(), "the first arena failed: {status}");
    let mut ids = BTreeMap::new();
    for record in json_lines(&results) {
        *ids.entry(record["id"].as_u64().expect("an id"))
            .or_insert(0) += 1;
    }
    assert_eq!(ids.len(), ARENA_GAMES, "{ids:?}");
    assert!(
        ids.values().all(|&n| n == 1),
        "a game recorded twice: {ids:?}"
    );
    for path in [&results, &log, &gate] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn a_second_tune_run_on_one_directory_is_refused_and_every_game_is_played_once() {
    let dir = temp("tune");
    let shown = dir.display().to_string();
    let mut out = Vec::new();
    run_line(line("onitama", INIT, &["--dir", &shown]), &mut out).expect("tune init");
    let games = || -> Vec<Value> {
        std::fs::read_dir(&dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| {
                        p.file_name()
                            .is_some_and(|n| n.to_string_lossy().starts_with("games-"))
                    })
                    .flat_map(|p| json_lines(&p))
                    .collect()
            })
            .unwrap_or_default()
    };
    // `tune run` writes its standard output only at its end, with its lock still held: with
    // that output a full pipe, the run cannot end before the test reads the pipe.
    let (stdout, drain) = full_pipe();
    let mut first = Command::new(CHILD)
        .args(line("onitama", "tune run", &["--dir", &shown]))
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .expect("the child starts");
    wait_until_held(&mut first, &|| !games().is_empty());
    let stderr = refused(&line("onitama", "tune run", &["--dir", &shown]));
    let pid = first.id();
    assert_eq!(
        stderr.trim(),
        format!(
            "error: tuning run {shown} is locked by another process (pid {pid}): one writer at \
             a time"
        )
    );
    // A merge would write the state the run is writing: refused the same way.
    let stderr = refused(&line("onitama", "tune merge", &["--dir", &shown]));
    assert!(stderr.contains(&format!("(pid {pid})")), "{stderr}");
    let printed = drain();
    let status = first.wait().expect("the first run ends");
    let printed = printed.join().expect("the pipe is read");
    assert!(printed.contains("weights: "), "{printed}");
    assert!(status.success(), "the first run failed: {status}");
    let mut seen = BTreeMap::new();
    for game in games() {
        let key = (
            game["iteration"].as_u64().unwrap(),
            game["game"].as_u64().unwrap(),
        );
        *seen.entry(key).or_insert(0) += 1;
    }
    assert_eq!(seen.len(), TUNE_GAMES, "{seen:?}");
    assert!(
        seen.values().all(|&n| n == 1),
        "a game played twice: {seen:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
