//! The tuner's two promises, on real Onitama games at depth 2:
//! - sharding: four `tune play --shard K/4` processes per iteration (run at once, as a job
//!   array's tasks would) followed by `tune merge` give exactly the games, journal and weights
//!   of one unsharded `tune run`;
//! - resuming: a `tune run` process killed with SIGKILL several times, each time after some
//!   games were written, and rerun until it finishes, ends with the same journal and weights as
//!   a run never killed, with every game written before a kill still in its file, unchanged,
//!   and no game played twice.
//!
//! Key invariant: the expected values come from an uninterrupted unsharded run of the same
//! settings (depth-limited games are reproducible), never from numbers written here; kill
//! points are chosen by polling the games file, not by sleeping. The child process is this
//! package's helper binary running Onitama's command line (`plies-test-child onitama tune ...`).
#![cfg(unix)]

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use plies_cli::{GameCli, run};
use plies_onitama::{Onitama, PstEvaluator};
use serde_json::Value;

/// The helper binary this package builds for its tests.
const CHILD: &str = env!("CARGO_BIN_EXE_plies-test-child");

/// The run: 6 iterations of 8 games at depth 2, a check match of 4 games every 3 iterations.
const INIT: &str = "tune init --depth 2 --iterations 6 --games 8 --check-every 3 \
                    --check-games 4 --seed 5 --opening-plies 2 --max-plies 120 --c-end 6 \
                    --r-end 0.05";
/// Games of the whole run: 6 x 8 + 2 checks x 4.
const GAMES: usize = 56;

fn spec() -> GameCli<Onitama> {
    plies_process_tests::onitama()
}

/// Runs the command line in process; panics on failure.
fn tune(args: &str, dir: &Path) -> String {
    let argv = std::iter::once("onitama".to_string())
        .chain(args.split_whitespace().map(String::from))
        .chain(["--dir".to_string(), dir.display().to_string()]);
    let mut output = Vec::new();
    if let Err(err) = run(&spec(), argv, &mut std::io::empty(), &mut output) {
        panic!("`{args}` failed: {err}");
    }
    String::from_utf8(output).expect("text output")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("plies-tune-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// What two runs must share: the merged journal, the weights file's values and the state.
fn outcome(dir: &Path) -> (String, Vec<String>, Value) {
    let journal = std::fs::read_to_string(dir.join("journal.jsonl")).expect("a journal");
    let weights = std::fs::read_to_string(dir.join("weights.txt"))
        .expect("a weights file")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(String::from)
        .collect();
    let state: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("state.json")).expect("a state"))
            .expect("JSON");
    (journal, weights, state)
}

/// The reference: one unsharded run, uninterrupted, in its own directory `name` (tests run at
/// once). Checks it is a real run: every game
/// journaled once, and the weights moved.
fn reference(name: &str) -> (String, Vec<String>, Value) {
    let dir = temp(name);
    tune(INIT, &dir);
    tune("tune run", &dir);
    let result = outcome(&dir);
    let games: usize = result
        .0
        .lines()
        .map(|line| {
            let line: Value = serde_json::from_str(line).expect("a journal line");
            line["games"].as_array().expect("games").len()
        })
        .sum();
    assert_eq!(games, GAMES, "every game of the run journaled once");
    assert_eq!(result.2["iteration"], 6);
    let initial: Vec<String> = plies::weights::format_weights(
        &plies::Tunable::parameter_names(&PstEvaluator::default()),
        &plies::Tunable::parameters(&PstEvaluator::default()),
        "",
    )
    .lines()
    .map(String::from)
    .collect();
    assert_ne!(result.1, initial, "six iterations moved some weight");
    std::fs::remove_dir_all(&dir).unwrap();
    result
}

#[test]
fn four_shards_and_a_merge_equal_one_unsharded_run() {
    let expected = reference("reference-for-shards");
    let dir = temp("sharded");
    tune(INIT, &dir);
    let header = |dir: &Path| -> String {
        std::fs::read_to_string(dir.join("weights.txt"))
            .expect("a weights file")
            .lines()
            .filter(|line| line.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    // A new run may go either way: the file names both.
    let fresh = header(&dir);
    assert!(
        fresh.contains("tune run --dir") && fresh.contains("tune merge --dir"),
        "{fresh}"
    );
    for iteration in 0..6 {
        // The four tasks of a job array, at once.
        std::thread::scope(|scope| {
            for k in 0..4 {
                let dir = &dir;
                scope.spawn(move || tune(&format!("tune play --shard {k}/4"), dir));
            }
        });
        let merged = tune("tune merge", &dir);
        assert!(
            merged.contains(&format!("iteration {}/6", iteration + 1)),
            "{merged}"
        );
        // Only weights whose rounded value changed are listed as moved.
        let moved = merged
            .lines()
            .find_map(|line| line.strip_prefix("moved most: "))
            .expect("a moved-most line");
        if moved != "none yet" {
            for entry in moved.split(", ") {
                let values = entry.rsplit(' ').next().unwrap();
                let (from, to) = values.split_once("->").unwrap();
                assert_ne!(from, to, "{moved}");
            }
        }
        // A sharded run's next step is the next shards and merge, not `tune run`.
        let next = header(&dir);
        if iteration < 5 {
            assert!(
                next.contains("tune play --dir") && !next.contains("tune run"),
                "{next}"
            );
        } else {
            assert!(next.contains("the run is finished"), "{next}");
        }
    }
    // Each shard played its own games: files for all four.
    for k in 0..4u64 {
        let text = std::fs::read_to_string(dir.join(format!("games-{k}-of-4.jsonl"))).unwrap();
        assert!(!text.is_empty(), "shard {k} played nothing");
        for line in text.lines() {
            let game: Value = serde_json::from_str(line).unwrap();
            assert_eq!(game["game"].as_u64().unwrap() % 4, k, "{line}");
        }
    }
    assert_eq!(outcome(&dir), expected);
    // A merge before all shards played is refused and changes nothing.
    let early = temp("early");
    tune(INIT, &early);
    tune("tune play --shard 1/4", &early);
    let argv = ["onitama", "tune", "merge", "--dir"]
        .into_iter()
        .map(String::from)
        .chain([early.display().to_string()]);
    let err = run(&spec(), argv, &mut std::io::empty(), &mut Vec::new()).unwrap_err();
    assert!(
        err.to_string()
            .contains("6 of its 8 games are in no shard's games file"),
        "{err}"
    );
    assert!(!early.join("journal.jsonl").exists());
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&early).unwrap();
}

/// `tune run --dir dir` as a child process.
fn spawn(dir: &Path) -> std::process::Child {
    Command::new(CHILD)
        .args(["onitama", "tune", "run", "--dir"])
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tuning child starts")
}

/// The complete lines of the games file.
fn game_lines(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("games-0-of-1.jsonl")).unwrap_or_default();
    let complete = text.rfind('\n').map_or(0, |end| end + 1);
    text[..complete].lines().map(String::from).collect()
}

#[test]
fn a_run_killed_with_sigkill_resumes_with_nothing_lost() {
    let expected = reference("reference-for-kills");
    let dir = temp("killed");
    // A run that ends before its first two kills (a starved test thread: the whole run takes
    // well under a second) is started again on a fresh directory.
    let mut attempts = 0;
    let kept = loop {
        attempts += 1;
        let _ = std::fs::remove_dir_all(&dir);
        tune(INIT, &dir);
        let (kills, kept) = kill_at(&dir, &[5, 17, 30, 44]);
        if kills >= 2 {
            break kept;
        }
        eprintln!("attempt {attempts}: killed only {kills} times; starting over");
        assert!(
            attempts < 10,
            "the run was killed only {kills} times, {attempts} times"
        );
    };
    let status = spawn(&dir).wait().expect("the last run ends");
    assert!(status.success());
    let all = game_lines(&dir);
    assert_eq!(
        all[..kept.len()],
        kept[..],
        "a journaled game was lost or changed"
    );
    assert_eq!(all.len(), GAMES, "each game played once, none lost");
    assert_eq!(outcome(&dir), expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `tune run` on `dir` once per target, each killed with SIGKILL once the games file holds
/// that many games, until a run ends by itself; checks that no game written before a kill is
/// lost or changed. Returns the kills and the games written.
fn kill_at(dir: &Path, targets: &[usize]) -> (usize, Vec<String>) {
    let mut kills = 0;
    let mut kept: Vec<String> = Vec::new();
    for &target in targets {
        let mut child = spawn(dir);
        let start = Instant::now();
        let killed = loop {
            if game_lines(dir).len() >= target {
                let _ = child.kill(); // SIGKILL on Unix
                let status = child.wait().expect("the child is reaped");
                break match status.signal() {
                    Some(9) => true,
                    None if status.success() => false,
                    other => panic!("the run ended with {status:?} (signal {other:?})"),
                };
            }
            if let Some(status) = child.try_wait().expect("the child can be polled") {
                assert!(status.success(), "the run failed: {status:?}");
                break false;
            }
            assert!(start.elapsed() < Duration::from_secs(600), "no progress");
            std::thread::sleep(Duration::from_millis(1));
        };
        let now = game_lines(dir);
        // Every game written before this kill is still there, unchanged.
        assert_eq!(
            now[..kept.len()],
            kept[..],
            "a journaled game was lost or changed"
        );
        kept = now;
        if killed {
            kills += 1;
        } else {
            break;
        }
    }
    (kills, kept)
}

/// The command line in process: its output, or its error as text.
fn attempt(spec: &GameCli<Onitama>, args: &[&str]) -> Result<String, String> {
    let argv = std::iter::once("onitama")
        .chain(args.iter().copied())
        .map(String::from);
    let mut output = Vec::new();
    run(spec, argv, &mut std::io::empty(), &mut output)
        .map(|()| String::from_utf8(output).expect("text"))
        .map_err(|e| e.to_string())
}

#[test]
fn bad_tuning_input_is_a_one_line_error() {
    let dir = temp("bad-input");
    let d = dir.display().to_string();
    let onitama = spec();
    let expect_error = |args: &[&str], wanted: &str| {
        let err = attempt(&onitama, args).expect_err("an error");
        assert!(err.contains(wanted), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    };
    expect_error(&["tune", "run", "--dir", &d], "holds no tuning run");
    expect_error(
        &["tune", "init", "--dir", &d, "--depth", "2", "--games", "3"],
        "even number",
    );
    expect_error(
        &["tune", "init", "--dir", &d, "--depth", "0"],
        "invalid value '0' for '--depth <DEPTH>'",
    );
    expect_error(
        &["tune", "init", "--dir", &d, "--nodes", "9", "--r-end=-1"],
        "bad --r-end",
    );
    expect_error(
        &["tune", "init", "--dir", &d, "--nodes", "9", "--c-end", "0"],
        "bad --c-end 0",
    );
    expect_error(
        &[
            "tune", "init", "--dir", &d, "--nodes", "9", "--fixed", "nosuch*",
        ],
        "no weight \"nosuch*\"",
    );
    expect_error(
        &["tune", "init", "--dir", &d, "--nodes", "9", "--fixed", "*"],
        "every weight is fixed",
    );
    expect_error(
        &[
            "tune",
            "init",
            "--dir",
            &d,
            "--nodes",
            "9",
            "--searcher",
            "nope",
        ],
        "unknown searcher 'nope'",
    );
    let weights = dir.with_extension("weights.txt");
    std::fs::write(&weights, "student 100\nstudent_a1 oops\n").unwrap();
    let w = weights.display().to_string();
    expect_error(
        &["tune", "init", "--dir", &d, "--nodes", "9", "--weights", &w],
        "line 2: value of student_a1",
    );
    expect_error(
        &["analyze", "--depth", "1", "--weights", &w],
        "line 2: value of student_a1",
    );
    expect_error(
        &[
            "arena",
            "-e",
            "pvs",
            "-e",
            &format!("pvs:weights={w}.missing"),
            "--depth",
            "1",
        ],
        "cannot read weights file",
    );
    assert!(
        !dir.join("tune.json").exists(),
        "a refused init wrote nothing"
    );
    attempt(
        &onitama,
        &[
            "tune",
            "init",
            "--dir",
            &d,
            "--depth",
            "1",
            "--iterations",
            "1",
            "--games",
            "2",
        ],
    )
    .unwrap();
    expect_error(
        &["tune", "init", "--dir", &d, "--depth", "1"],
        "already holds a tuning run",
    );
    expect_error(
        &["tune", "play", "--dir", &d, "--shard", "4/4"],
        "invalid value '4/4' for '--shard <SHARD>': expected K/N with 0 <= K < N",
    );
    expect_error(
        &["tune", "play", "--dir", &d, "--shard", "x"],
        "invalid value 'x' for '--shard <SHARD>'",
    );
    expect_error(
        &["tune", "run", "--dir", &d, "--jobs", "0"],
        "invalid value '0' for '--jobs <JOBS>'",
    );
    // Damaged run files are refused with the file named, never a panic or an endless search.
    let config_path = dir.join("tune.json");
    let state_path = dir.join("state.json");
    let config_text = std::fs::read_to_string(&config_path).unwrap();
    let state_text = std::fs::read_to_string(&state_path).unwrap();
    let edit = |path: &Path, text: &str, edit: &dyn Fn(&mut Value)| {
        let mut json: Value = serde_json::from_str(text).unwrap();
        edit(&mut json);
        std::fs::write(path, json.to_string()).unwrap();
    };
    edit(&config_path, &config_text, &|j| j["depth"] = Value::Null);
    expect_error(&["tune", "play", "--dir", &d], "no per-move limit");
    edit(&config_path, &config_text, &|j| {
        j["initial"] = serde_json::json!([1, 2])
    });
    expect_error(&["tune", "status", "--dir", &d], "tune.json is damaged");
    std::fs::write(&config_path, &config_text).unwrap();
    edit(&state_path, &state_text, &|j| {
        j["theta"] = serde_json::json!([])
    });
    expect_error(
        &["tune", "merge", "--dir", &d],
        "0 weights for the 933 of tune.json",
    );
    edit(&state_path, &state_text, &|j| {
        j["last_check"] =
            serde_json::json!({"iteration": 4294967295u32, "wins": 0, "draws": 0, "losses": 0});
    });
    expect_error(
        &["tune", "status", "--dir", &d],
        "a check match at iteration 4294967295",
    );
    std::fs::write(&state_path, &state_text).unwrap();
    attempt(&onitama, &["tune", "status", "--dir", &d]).unwrap();
    // Weights beyond the bound are refused wherever they come from.
    let huge = dir.with_extension("huge.txt");
    let names = plies::Tunable::parameter_names(&PstEvaluator::default());
    let mut values = plies::Tunable::parameters(&PstEvaluator::default());
    values[0] = 2_000_000;
    std::fs::write(&huge, plies::weights::format_weights(&names, &values, "")).unwrap();
    expect_error(
        &[
            "analyze",
            "--depth",
            "1",
            "--weights",
            &huge.display().to_string(),
        ],
        "within ±100000",
    );
    std::fs::remove_file(&huge).unwrap();
    // A binary whose evaluator is not tunable has no tune command at all.
    let material = GameCli {
        evaluator: plies_cli::evaluator(plies_onitama::MaterialEvaluator),
        ..spec()
    };
    let err = attempt(&material, &["tune", "status", "--dir", &d]).unwrap_err();
    assert!(err.contains("has no tunable weights"), "{err}");
    let err = attempt(
        &material,
        &["tune", "init", "--dir", &format!("{d}-2"), "--depth", "1"],
    )
    .unwrap_err();
    assert!(err.contains("has no tunable weights"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_file(&weights).unwrap();
}

#[test]
fn a_weights_file_changes_what_every_command_searches_with() {
    let dir = temp("weights-flag");
    std::fs::create_dir_all(&dir).unwrap();
    let names = plies::Tunable::parameter_names(&PstEvaluator::default());
    let mut values = plies::Tunable::parameters(&PstEvaluator::default());
    let same = dir.join("same.txt");
    std::fs::write(
        &same,
        plies::weights::format_weights(&names, &values, "defaults"),
    )
    .unwrap();
    // Blue to move, a student behind: the student's value is the score's size.
    let position = "bbBb1/5/5/5/rrRrr b monkey,crane tiger,crab dragon";
    values[0] = 300;
    let heavy = dir.join("heavy.txt");
    std::fs::write(
        &heavy,
        plies::weights::format_weights(&names, &values, "student 300"),
    )
    .unwrap();
    let score = |weights: Option<&Path>| -> i64 {
        let mut args = vec!["analyze", "--depth", "1", "--json", "--position", position];
        let shown;
        if let Some(path) = weights {
            shown = path.display().to_string();
            args.extend(["--weights", shown.as_str()]);
        }
        let out = attempt(&spec(), &args).unwrap();
        let json: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        json["score"]["cp"].as_i64().expect("a centipawn score")
    };
    let default = score(None);
    assert_eq!(score(Some(&same)), default);
    assert!(
        score(Some(&heavy)) < default - 150,
        "{} vs {default}",
        score(Some(&heavy))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn texel_fits_weights_to_labelled_positions() {
    let dir = temp("texel");
    std::fs::create_dir_all(&dir).unwrap();
    let positions = dir.join("positions.txt");
    let p = positions.display().to_string();
    let out = attempt(
        &spec(),
        &[
            "tune",
            "positions",
            "--out",
            &p,
            "--games",
            "12",
            "--depth",
            "2",
            "--seed",
            "3",
        ],
    )
    .unwrap();
    let count: usize = out.split_whitespace().nth(2).unwrap().parse().unwrap();
    let text = std::fs::read_to_string(&positions).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), count);
    assert!(count > 12, "{out}");
    // Every line is a result and a quiet position that parses.
    for line in &lines {
        let (result, position) = line.split_once(' ').unwrap();
        assert!(["1", "0.5", "0"].contains(&result), "{line}");
        let state = <Onitama as plies::Notation>::parse_position(position).unwrap();
        assert!(plies::Game::outcome(&state).is_none());
    }
    let weights = dir.join("texel.txt");
    let w = weights.display().to_string();
    // Three passes with the scale fixed, writing to `out`, with `extra` options.
    let texel = |out: &str, extra: &[&str]| {
        let mut args = vec![
            "tune",
            "texel",
            "--positions",
            &p,
            "--out",
            out,
            "--passes",
            "3",
            "--fixed",
            "student",
        ];
        args.extend_from_slice(extra);
        attempt(&spec(), &args)
    };
    let out = texel(&w, &[]).unwrap();
    let errors: Vec<f64> = out
        .lines()
        .filter_map(|l| {
            l.rsplit_once("error ")
                .map(|(_, e)| e.trim().parse().unwrap())
        })
        .collect();
    assert_eq!(errors.len(), 4, "{out}");
    assert!(errors[3] < errors[0], "the fit improved: {out}");
    assert!(errors.windows(2).all(|w| w[1] <= w[0]), "{out}");
    // The weights file is a real one, the fixed weight kept, and it differs from the start.
    let file = std::fs::read_to_string(&weights).unwrap();
    let names = plies::Tunable::parameter_names(&PstEvaluator::default());
    let values = plies::weights::parse_weights(&file, &names).unwrap();
    assert_eq!(values[0], 100);
    let start = plies::Tunable::parameters(&PstEvaluator::default());
    assert_ne!(values, start);
    // --shrink 0.5: the same fit, written halfway from the start.
    let half = dir.join("half.txt");
    let h = half.display().to_string();
    texel(&h, &["--shrink", "0.5"]).unwrap();
    let halved =
        plies::weights::parse_weights(&std::fs::read_to_string(&half).unwrap(), &names).unwrap();
    for ((h, v), s) in halved.iter().zip(&values).zip(&start) {
        assert_eq!(*h, s + (0.5 * f64::from(v - s)).round() as i32);
    }
    assert_ne!(halved, values);
    assert!(
        texel(&h, &["--shrink", "0"])
            .unwrap_err()
            .contains("bad --shrink 0")
    );
    // A bad positions line is named.
    std::fs::write(
        &positions,
        "1 bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon\n2 x\n",
    )
    .unwrap();
    let err = attempt(&spec(), &["tune", "texel", "--positions", &p, "--out", &w]).unwrap_err();
    assert!(err.contains("line 2: result \"2\""), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A merge killed after writing the journal but before the state is redone: the rerun writes
/// no second journal line and ends in the same state. And `init` refuses a directory holding
/// an earlier run's games.
#[test]
fn a_merge_cut_before_its_state_is_redone_once() {
    let dir = temp("merge-redo");
    tune(
        "tune init --depth 1 --iterations 2 --games 4 --check-every 0",
        &dir,
    );
    tune("tune play", &dir);
    let before = std::fs::read_to_string(dir.join("state.json")).unwrap();
    tune("tune merge", &dir);
    let after = std::fs::read_to_string(dir.join("state.json")).unwrap();
    assert_ne!(before, after);
    // The kill: the journal has iteration 1, the state is still the one before it.
    std::fs::write(dir.join("state.json"), &before).unwrap();
    tune("tune merge", &dir);
    assert_eq!(
        std::fs::read_to_string(dir.join("state.json")).unwrap(),
        after
    );
    let journal = std::fs::read_to_string(dir.join("journal.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 1, "{journal}");
    // A new run may not start on top of these games.
    std::fs::remove_file(dir.join("tune.json")).unwrap();
    let d = dir.display().to_string();
    let err = attempt(&spec(), &["tune", "init", "--dir", &d, "--depth", "1"]).unwrap_err();
    assert!(err.contains("holds games of an earlier run"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The tuner records its games in a position store: `tune run --jobs 2` (its shards are child
/// processes, each writing to the store) and `tune positions`. The store holds exactly the
/// games played, each once, marked as the tuner's; the explorer's count for the start position
/// (every game starts there: no opening moves) equals them; the games files stay as they were.
#[test]
fn the_tuners_games_are_recorded_in_the_store() {
    let dir = temp("store");
    let store = dir.with_extension("sqlite");
    let _ = std::fs::remove_file(&store);
    let store_text = store.display().to_string();
    // Two iterations of four games, no check match: 8 games, all from the start position.
    tune(
        "tune init --depth 1 --iterations 2 --games 4 --check-every 0 --seed 3 \
         --opening-plies 0 --max-plies 60",
        &dir,
    );
    let status = Command::new(CHILD)
        .args(["onitama", "tune", "run", "--jobs", "2", "--dir"])
        .arg(&dir)
        .args(["--store", &store_text])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .expect("the tuning child runs");
    assert!(status.success(), "{status:?}");
    let lines = |name: &str| {
        std::fs::read_to_string(dir.join(name))
            .unwrap_or_default()
            .lines()
            .count()
    };
    assert_eq!(lines("games-0-of-2.jsonl") + lines("games-1-of-2.jsonl"), 8);
    let spec = spec();
    let json = |args: &[&str]| -> Value {
        let out = attempt(&spec, args).expect("the store command works");
        serde_json::from_str(out.lines().last().expect("a line")).expect("JSON")
    };
    let stats = json(&["store", "stats", "--store", &store_text, "--json"]);
    assert_eq!(stats["recorded_games"], 8, "{stats}");
    let explored = json(&["explore", "--store", &store_text, "--json"]);
    assert_eq!(explored["games"], 8, "{explored}");
    let export = attempt(
        &spec,
        &["store", "export", "--games", "--store", &store_text],
    )
    .expect("the export works");
    let mut iterations = std::collections::BTreeMap::<u64, usize>::new();
    for line in export.lines() {
        let game: Value = serde_json::from_str(line).expect("a JSON game");
        assert_eq!(game["source"], "tune", "{line}");
        let players = format!("{} | {}", game["first"], game["second"]);
        assert!(
            players.contains("plus") && players.contains("minus"),
            "{line}"
        );
        for k in [1, 2] {
            if players.contains(&format!("iteration {k}")) {
                *iterations.entry(k).or_default() += 1;
            }
        }
    }
    assert_eq!(
        iterations,
        [(1, 4), (2, 4)].into_iter().collect(),
        "{export}"
    );
    // `tune positions` adds its self-play games.
    let positions = dir.join("positions.txt");
    attempt(
        &spec,
        &[
            "tune",
            "positions",
            "--games",
            "3",
            "--depth",
            "1",
            "--opening-plies",
            "0",
            "--max-plies",
            "60",
            "--store",
            &store_text,
            "--out",
            positions.to_str().expect("a UTF-8 path"),
        ],
    )
    .expect("tune positions works");
    let stats = json(&["store", "stats", "--store", &store_text, "--json"]);
    assert_eq!(stats["recorded_games"], 11, "{stats}");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_file(&store).unwrap();
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{store_text}{suffix}"));
    }
}
