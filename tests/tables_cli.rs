//! Endgame tables through the command line, as a user meets them: `analyze` and `play` with
//! `--tables N|off` and `--tables-dir`, the arena's per-engine `tables=`, the UGI engine's
//! `Tables` option, and the one-line errors of bad values.
//!
//! Key invariant: every command runs through `plies_cli::run` with string arguments, exactly as
//! from a terminal; expected scores come from a search without tables.

use plies_cli::{CliError, EndgameTables, GameCli, evaluator, run, tunable_evaluator};
use plies_onitama::tables::{build_for, deal_key};
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
        }),
        ..GameCli::new("onitama", tunable_evaluator(PstEvaluator::default()))
    }
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
    let with = run_on(
        &spec,
        &["analyze", "--position", ENDGAME, "--depth", "8", "--json"],
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
    let dir = std::env::temp_dir().join(format!("plies-tables-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.to_str().expect("a UTF-8 temporary path");
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
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
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
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_ugi_engine_builds_tables_for_its_position() {
    let spec = onitama();
    let input = format!(
        "ugi\nsetoption name Tables value 99\nsetoption name Tables value 3\n\
         position fen {ENDGAME}\nisready\nsetoption name Tables value off\n\
         position startpos\nisready\nquit\n"
    );
    let out = run_on(&spec, &["ugi"], input.as_bytes()).unwrap();
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
