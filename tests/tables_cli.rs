//! Endgame tables through the command line, as a user meets them: `analyze` and `play` with
//! `--tables N|off` and `--tables-dir`, the arena's per-engine `tables=`, the UGI engine's
//! `Tables` option, and the one-line errors of bad values.
//!
//! Also the tables cache: a first `analyze` answers without waiting for the build and leaves
//! the files, the second reads them; a directory that cannot be made. (Two processes building
//! a key once, and the platform's cache directory, need child processes: they are in
//! `process-tests/tests/tables_cache.rs`.)
//!
//! Key invariant: every command runs through `plies_cli::run` with string arguments, exactly as
//! from a terminal; expected scores come from a search without tables. No test writes into the
//! user's cache: each gives a directory of its own (`--tables-dir`).

use std::path::{Path, PathBuf};

use plies_cli::{CliError, EndgameTables, GameCli, evaluator, run, tunable_evaluator};
use plies_onitama::tables::{build_for, deal_key, files_for};
use plies_onitama::{Onitama, PstEvaluator};
use plies_view::View;

/// Three pieces: red's master and one student against blue's master.
const ENDGAME: &str = "5/2B2/5/1R3/2r2 r monkey,crane tiger,crab dragon";

fn onitama() -> GameCli<Onitama> {
    GameCli {
        endgame_tables: Some(EndgameTables {
            default_pieces: 3,
            pieces: (2, 10),
            key: deal_key,
            build: build_for,
            files: files_for,
            sets: None,
        }),
        ..GameCli::new("onitama", tunable_evaluator(PstEvaluator::default()))
    }
}

/// An empty directory for the test `name` (removed by [`TempDir`]'s drop).
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("plies-tables-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }

    fn text(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary path")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The directory of the deal of [`ENDGAME`] in a tables directory.
const DEAL_DIR: &str = "tiger-crab-monkey-crane-dragon";

/// The table files in `dir`, sorted.
fn table_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.retain(|f| f.extension().is_some_and(|e| e == "tb"));
    files.sort();
    files
}

fn run_on<G: View>(spec: &GameCli<G>, args: &[&str], input: &[u8]) -> Result<String, CliError> {
    let argv = std::iter::once(spec.name.to_string()).chain(args.iter().map(|a| a.to_string()));
    let mut out = Vec::new();
    let mut reader = input;
    run(spec, argv, &mut reader, &mut out)?;
    Ok(String::from_utf8(out).expect("UTF-8 output"))
}

/// The `score ...` part of analyze's `best` line.
fn best_score(out: &str) -> String {
    let line = out
        .lines()
        .find(|l| l.starts_with("best "))
        .expect("a best line");
    let score = line.split(" score ").nth(1).expect("a score");
    score.split(" depth ").next().expect("a score").to_string()
}

#[test]
fn analyze_says_what_the_tables_know() {
    let spec = onitama();
    let dir = TempDir::new("know");
    let with = run_on(
        &spec,
        &[
            "analyze",
            "--position",
            ENDGAME,
            "--depth",
            "8",
            "--json",
            "--tables-wait",
            "--tables-dir",
            dir.text(),
        ],
        b"",
    )
    .unwrap();
    assert!(
        with.contains("tables: 3 pieces for tiger,crab,monkey,crane,dragon"),
        "{with}"
    );
    assert!(
        with.contains("tables: this position is a loss in 4 plies (for red"),
        "{with}"
    );
    assert!(with.contains("positions scored from them"), "{with}");
    let without = run_on(
        &spec,
        &[
            "analyze",
            "--position",
            ENDGAME,
            "--depth",
            "8",
            "--tables",
            "off",
            "--json",
        ],
        b"",
    )
    .unwrap();
    assert!(!without.contains("tables:"), "{without}");
    assert!(without.contains("\"table_hits\":0"), "{without}");
    // The search alone finds the same value.
    assert_eq!(best_score(&with), "loss in 4 for red");
    assert_eq!(best_score(&without), best_score(&with));
    // MCTS proves it through the tables too.
    let mcts = run_on(
        &spec,
        &[
            "analyze",
            "--position",
            ENDGAME,
            "--nodes",
            "5000",
            "--searcher",
            "mcts",
            "--tables-wait",
            "--tables-dir",
            dir.text(),
        ],
        b"",
    )
    .unwrap();
    assert_eq!(best_score(&mcts), "loss in 4 for red");
}

#[test]
fn bad_table_options_are_one_line_errors() {
    let spec = onitama();
    for (value, word) in [("11", "from 2 to 10"), ("x", "'x'"), ("1", "from 2 to 10")] {
        let err = run_on(
            &spec,
            &[
                "analyze",
                "--position",
                ENDGAME,
                "--depth",
                "2",
                "--tables",
                value,
            ],
            b"",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("--tables") && err.contains(word), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // A cache limit is a size: bytes, or with K, M, G or T.
    let err = run_on(
        &spec,
        &["analyze", "--depth", "2", "--tables-cache-limit", "1.5G"],
        b"",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("--tables-cache-limit") && err.contains("bad size '1.5G'"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // A searcher that cannot use tables is refused, not run without them.
    let err = run_on(
        &spec,
        &[
            "analyze",
            "--position",
            ENDGAME,
            "--depth",
            "2",
            "--searcher",
            "minimax",
        ],
        b"",
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("does not use endgame tables"), "{err}");
    // A game without tables: off is fine, anything else is refused.
    let kalah = GameCli::new("kalah", evaluator(plies_kalah::StoreDifference::default()));
    assert!(run_on(&kalah, &["analyze", "--depth", "2", "--tables", "off"], b"").is_ok());
    let err = run_on(&kalah, &["analyze", "--depth", "2", "--tables", "4"], b"")
        .unwrap_err()
        .to_string();
    assert!(err.contains("no endgame tables"), "{err}");
    // The arena: per engine, checked before the first game.
    for (engine, word) in [
        ("minimax:tables=3", "give it tables=off"),
        ("random:tables=3", "random takes no"),
        ("pvs:tables=12", "from 2 to 10"),
    ] {
        let err = run_on(
            &spec,
            &[
                "arena", "-e", "pvs", "-e", engine, "--depth", "1", "--games", "2",
            ],
            b"",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains(word), "{engine}: {err}");
    }
}

#[test]
fn the_arena_plays_with_and_without_tables() {
    let spec = onitama();
    let dir = TempDir::new("arena");
    let out = run_on(
        &spec,
        &[
            "arena",
            "-e",
            "pvs:tables=3",
            "-e",
            "pvs:tables=off",
            "-e",
            "mcts:tables=3:nodes=2000",
            "--depth",
            "2",
            "--games",
            "6",
            "--no-progress",
            "--tables-wait",
            "--tables-dir",
            dir.text(),
        ],
        b"",
    )
    .unwrap();
    // A round robin of three engines: 3 openings, both colours, three pairings.
    assert!(out.contains("18 games: "), "{out}");
    assert!(out.contains("forfeits 0"), "{out}");
}

#[test]
fn the_tables_directory_is_written_read_and_mended() {
    let temp = TempDir::new("mended");
    let dir_text = temp.text();
    let spec = onitama();
    let args = [
        "analyze",
        "--position",
        ENDGAME,
        "--depth",
        "4",
        "--tables-dir",
        dir_text,
    ];
    let first = run_on(&spec, &args, b"").unwrap();
    assert!(!first.contains("read from the directory"), "{first}");
    let files = table_files(&temp.0.join(DEAL_DIR));
    // 0+0, 0+1 and 1+0 students.
    assert_eq!(files.len(), 3, "{files:?}");
    let second = run_on(&spec, &args, b"").unwrap();
    assert!(second.contains("(3 read from the directory)"), "{second}");
    assert_eq!(best_score(&first), best_score(&second));
    // A damaged file is reported, built again and written whole.
    let victim = files
        .iter()
        .find(|f| f.to_string_lossy().ends_with("1v0.tb"))
        .unwrap();
    let bytes = std::fs::read(victim).unwrap();
    std::fs::write(victim, &bytes[..bytes.len() / 2]).unwrap();
    let third = run_on(&spec, &args, b"").unwrap();
    assert!(
        third.contains("cut short") && third.contains("building it again"),
        "{third}"
    );
    assert_eq!(best_score(&third), best_score(&first));
    assert_eq!(std::fs::read(victim).unwrap(), bytes);
}

#[test]
fn the_ugi_engine_builds_tables_for_its_position() {
    let spec = onitama();
    let input = format!(
        "ugi\nsetoption name Tables value 99\nsetoption name Tables value 3\n\
         position fen {ENDGAME}\nisready\nsetoption name Tables value off\n\
         position startpos\nisready\nquit\n"
    );
    let dir = TempDir::new("ugi");
    let out = run_on(
        &spec,
        &["ugi", "--tables-dir", dir.text()],
        input.as_bytes(),
    )
    .unwrap();
    assert!(
        out.contains("option name Tables type string default 3"),
        "{out}"
    );
    assert!(out.contains("option name TablesDir type string"), "{out}");
    assert!(out.contains("info string error bad Tables '99'"), "{out}");
    // The tables are built in the background (`quit` does not wait for them): the build and
    // its use are checked by a host that waits, in `cli/src/ugi/tests.rs`.
    assert_eq!(out.matches("readyok").count(), 2, "{out}");
}

/// The JSON line `analyze --json` ends with.
fn last_json(out: &str) -> serde_json::Value {
    let line = out
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .expect("a JSON line");
    serde_json::from_str(line).expect("JSON")
}

/// A first `analyze` of a deal searches at once without its tables (none scored from them),
/// builds them meanwhile and finishes the build after its answer, leaving the files; the
/// second reads them (no build) and searches with them.
#[test]
fn analyze_answers_at_once_and_leaves_the_tables_for_the_next() {
    let spec = onitama();
    let dir = TempDir::new("next");
    let args = [
        "analyze",
        "--position",
        ENDGAME,
        "--depth",
        "8",
        "--json",
        "--tables-dir",
        dir.text(),
    ];
    let first = run_on(&spec, &args, b"").unwrap();
    assert!(first.contains("in the background"), "{first}");
    assert_eq!(last_json(&first)["table_hits"], 0, "{first}");
    assert!(!first.contains("this position is"), "{first}");
    // The build ends after the answer.
    let answer = first.find("\nbest ").expect("an answer");
    let built = first
        .find("tables: 3 pieces for tiger,crab,monkey,crane,dragon")
        .expect("the build's line");
    assert!(answer < built, "{first}");
    assert!(!first.contains("read from the directory"), "{first}");
    assert_eq!(table_files(&dir.0.join(DEAL_DIR)).len(), 3, "{first}");
    assert!(dir.0.join(DEAL_DIR).join("used").is_file());
    let second = run_on(&spec, &args, b"").unwrap();
    assert!(second.contains("(3 read from the directory)"), "{second}");
    assert!(!second.contains("in the background"), "{second}");
    assert!(!second.contains("finishing"), "{second}");
    assert!(
        second.contains("tables: this position is a loss in 4 plies"),
        "{second}"
    );
    assert!(
        last_json(&second)["table_hits"].as_u64().unwrap() > 0,
        "{second}"
    );
    assert_eq!(best_score(&first), best_score(&second));
}

/// A tables directory that cannot be made (a path through a regular file) is said in one
/// line, and the command answers all the same.
#[test]
fn a_tables_directory_that_cannot_be_made_is_one_line() {
    let spec = onitama();
    let dir = TempDir::new("unmakeable");
    let file = dir.0.join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let under = file.join("tables");
    let out = run_on(
        &spec,
        &[
            "analyze",
            "--position",
            ENDGAME,
            "--depth",
            "4",
            "--tables-dir",
            under.to_str().unwrap(),
        ],
        b"",
    )
    .unwrap();
    let said: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("cannot use the tables cache"))
        .collect();
    assert_eq!(said.len(), 1, "{out}");
    assert!(said[0].starts_with("tables: "), "{out}");
    assert!(out.contains("\nbest "), "{out}");
    assert!(file.is_file());
}
