//! A tournament killed with SIGKILL and resumed ends with exactly the games of an uninterrupted
//! run: a real `arena` process (the command line on Kalah, the tutorial game) is killed several
//! times while it writes its results file, each time after some games were journaled, and rerun
//! with the same arguments until it finishes; its records must equal, game for game (opening,
//! colours, engines, result, termination, moves, node counts), those of a run never killed, with
//! no game missing and none twice. A torn last line (a write cut in the middle) is dropped and
//! that game played again, never read as a record or left in the file.
//!
//! Key invariant: the expected records come from an uninterrupted run of the same command, and
//! the kill point depends on the file's content (polled), never on a sleep, so a loaded machine
//! only changes where the run is killed, not whether the test passes. The child process is this
//! package's helper binary running Kalah's command line (`plies-test-child kalah arena ...`).
#![cfg(unix)]

use std::collections::BTreeMap;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The helper binary this package builds for its tests.
const CHILD: &str = env!("CARGO_BIN_EXE_plies-test-child");

/// The match: a round robin of three engines (search, MCTS, random) with node limits, two games
/// at a time; 3 pairings x 6 openings x 2 colours = 36 games. MCTS's 50,000 nodes make the
/// match last long enough (about half a second on a quiet machine, against 0.03 s with 1,500)
/// that a kill seldom comes after its end even when the polling test thread waits for a core.
const MATCH: &str = "arena -e alphabeta:depth=3 -e mcts -e random --nodes 50000 --openings 6 \
                     --opening-plies 3 --seed 17 --max-plies 200 --concurrency 2 --json";
const GAMES: usize = 36;

/// The arena command with `--results path`, started as a child process.
fn spawn(path: &Path) -> std::process::Child {
    let mut args: Vec<String> = MATCH.split_whitespace().map(String::from).collect();
    args.push("--results".into());
    args.push(path.display().to_string());
    Command::new(CHILD)
        .arg("kalah")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arena child starts")
}

/// Runs the arena to the end; returns its standard output.
fn run_to_end(path: &Path) -> String {
    let output = spawn(path).wait_with_output().expect("the child ends");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "arena failed: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// Complete lines (ending in a newline) of the results file.
fn complete_lines(path: &Path) -> usize {
    std::fs::read(path).map_or(0, |bytes| bytes.iter().filter(|&&b| b == b'\n').count())
}

/// Starts the arena and kills it with SIGKILL once the file holds at least `target` complete
/// lines. Returns `false` when the run ended by itself first (a starved test thread), in which
/// case nothing was killed.
fn run_and_kill(path: &Path, target: usize) -> bool {
    let mut child = spawn(path);
    let start = Instant::now();
    loop {
        if complete_lines(path) >= target {
            // `Child::kill` sends SIGKILL on Unix.
            let _ = child.kill();
            let status = child.wait().expect("the child is reaped");
            return match status.signal() {
                Some(9) => true,
                None if status.success() => false,
                other => panic!("the arena ended with {status:?} (signal {other:?})"),
            };
        }
        if let Some(status) = child.try_wait().expect("the child can be polled") {
            assert!(status.success(), "the arena failed: {status:?}");
            return false;
        }
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "no progress in ten minutes"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The records of a results file by game id, every field that a replay must reproduce (the
/// time a side spent is left out: it is the one field that differs from run to run). Panics on
/// a line that is not a record, a game recorded twice, or an incomplete last line unless
/// `allow_torn` (a file just killed may end in one; a finished run must not).
fn records(path: &Path, allow_torn: bool) -> BTreeMap<u64, Value> {
    let mut text = std::fs::read_to_string(path).expect("the results file");
    if allow_torn {
        text.truncate(text.rfind('\n').map_or(0, |end| end + 1));
    }
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "a torn line was left in the file"
    );
    let mut by_id = BTreeMap::new();
    for line in text.lines() {
        let mut record: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not a record ({e}): {line}"));
        // Clock readings differ from run to run even when the games are the same.
        for side in record["stats"].as_array_mut().expect("stats per side") {
            let side = side.as_object_mut().expect("side stats");
            for clock in ["seconds", "max_seconds", "open_seconds"] {
                side.remove(clock)
                    .unwrap_or_else(|| panic!("{clock} is recorded"));
            }
        }
        let id = record["id"].as_u64().expect("an id");
        assert!(
            by_id.insert(id, record).is_none(),
            "game {id} recorded twice"
        );
    }
    by_id
}

fn temp(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "plies-arena-resume-{}-{name}.jsonl",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path
}

/// The JSON summary (last line) of an arena's output.
/// The JSON summary without its clock readings (time per move varies from run to run).
fn summary(out: &str) -> Value {
    let mut json: Value =
        serde_json::from_str(out.lines().last().expect("output")).expect("a JSON summary");
    for engine in json["engines"].as_array_mut().expect("engines") {
        let engine = engine.as_object_mut().expect("an engine line");
        for clock in ["mean_ms", "mean_open_ms", "max_ms"] {
            engine
                .remove(clock)
                .unwrap_or_else(|| panic!("{clock} is reported"));
        }
    }
    json
}

#[test]
fn killed_runs_resume_to_exactly_the_uninterrupted_games() {
    let reference_path = temp("reference");
    let reference_out = run_to_end(&reference_path);
    let reference = records(&reference_path, false);
    assert_eq!(
        reference.keys().copied().collect::<Vec<_>>(),
        (0..GAMES as u64).collect::<Vec<_>>(),
        "every scheduled game once"
    );
    assert!(
        reference
            .values()
            .any(|r| r["result"] != reference[&0]["result"]),
        "a match where every game ends alike proves little"
    );

    let path = temp("killed");
    let mut kills = 0;
    let mut torn = false;
    // Kill after a few more games each time, three times; a run that finishes before it is
    // killed (a starved test thread) is simply started again on a fresh file.
    for attempt in 0..20 {
        if kills == 3 {
            break;
        }
        let before = complete_lines(&path);
        if run_and_kill(&path, before + 3) {
            kills += 1;
            let after = complete_lines(&path);
            assert!(after >= before + 3 && after <= GAMES, "{after} lines");
            // The journal must hold only whole, distinct records of the schedule at every kill.
            let partial = records(&path, true);
            for (id, record) in &partial {
                assert_eq!(record, &reference[id], "game {id} after kill {kills}");
            }
            let missing = reference.keys().find(|id| !partial.contains_key(id));
            if let (false, Some(missing)) = (torn, missing) {
                // Simulate a write cut by the kill: half of the next missing game's line.
                let line = serde_json::to_string(&reference[missing]).unwrap();
                let mut bytes = std::fs::read(&path).unwrap();
                bytes.extend_from_slice(&line.as_bytes()[..line.len() / 2]);
                std::fs::write(&path, bytes).unwrap();
                torn = true;
            }
        } else {
            eprintln!("attempt {attempt}: the run finished before the kill; starting over");
            let _ = std::fs::remove_file(&path);
            kills = 0;
            torn = false;
        }
    }
    assert_eq!(kills, 3, "could not kill a run in the middle");
    assert!(torn, "a torn line was resumed from");
    let resumed_out = run_to_end(&path);
    assert!(
        resumed_out.contains("already played"),
        "the last run resumed: {resumed_out}"
    );
    let resumed = records(&path, false);
    assert_eq!(resumed.len(), GAMES);
    for (id, record) in &reference {
        assert_eq!(Some(record), resumed.get(id), "game {id}");
    }
    // The table and summary count every game once, as the uninterrupted run's do.
    assert_eq!(summary(&resumed_out), summary(&reference_out));
    let _ = std::fs::remove_file(&reference_path);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_torn_last_line_is_played_again_and_never_kept() {
    let reference_path = temp("torn-reference");
    let reference_out = run_to_end(&reference_path);
    let text = std::fs::read_to_string(&reference_path).unwrap();
    // Cut the file in the middle of its 11th line, as a kill during that write would.
    let lines: Vec<&str> = text.lines().collect();
    let cut_line = lines[10];
    let mut torn: String = lines[..10].iter().map(|l| format!("{l}\n")).collect();
    torn.push_str(&cut_line[..cut_line.len() / 3]);
    let path = temp("torn");
    std::fs::write(&path, &torn).unwrap();
    let out = run_to_end(&path);
    assert!(out.contains("(10 already played)"), "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with('[')).count(),
        GAMES - 10,
        "the torn game is played again with the other missing ones: {out}"
    );
    assert_eq!(records(&path, false), records(&reference_path, false));
    assert_eq!(summary(&out), summary(&reference_out));
    let _ = std::fs::remove_file(&reference_path);
    let _ = std::fs::remove_file(&path);
}
