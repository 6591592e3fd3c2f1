//! `arena` through the command line on the toy game: game lines, the table and the JSON line,
//! repeatability at any concurrency, one-line errors, resuming from a results file.

use crate::error::CliError;
use crate::test_support::{last_json, results_json, run_invalid, run_ok, run_usage, run_with};

#[test]
fn a_match_prints_each_game_and_the_table() {
    let out = run_ok("arena --engine alphabeta --engine random --openings 3 --depth 4 --json");
    assert_eq!(
        out.lines().filter(|l| l.starts_with('[')).count(),
        6,
        "{out}"
    );
    assert!(out.contains("[6/6]"), "{out}");
    assert!(out.contains("Elo [95% interval]"), "{out}");
    let json = last_json(&out);
    assert_eq!(json["games"], 6);
    assert_eq!(json["engines"][0]["name"], "alphabeta");
    let wins = json["engines"][0]["wins"].as_u64().unwrap();
    let losses = json["engines"][1]["losses"].as_u64().unwrap();
    assert_eq!(wins, losses);
}

#[test]
fn fixed_depth_matches_repeat_and_concurrency_does_not_matter() {
    let args = "arena -e pvs -e alphabeta:depth=2 -e random --games 4 --depth 3 --json";
    let games = |out: &str| -> Vec<String> {
        let mut lines: Vec<String> = out
            .lines()
            .filter(|l| l.starts_with('['))
            .map(|l| l.split_once(']').unwrap().1.to_string())
            .collect();
        lines.sort();
        lines
    };
    let one = run_ok(&format!("{args} --concurrency 1"));
    let two = run_ok(&format!("{args} --concurrency 2"));
    assert_eq!(games(&one), games(&two));
    assert_eq!(results_json(&one), results_json(&two));
    assert!(one.contains("pairings"), "a round robin of three: {one}");
}

#[test]
fn bad_engines_and_limits_are_one_line_errors() {
    assert!(run_invalid("arena -e pvs -e nonsense --depth 2").contains("nonsense"));
    assert!(run_invalid("arena -e pvs -e pvs:depth --depth 2").contains("pvs:depth"));
    assert!(run_invalid("arena -e pvs -e pvs:speed=3 --depth 2").contains("speed"));
    assert!(run_invalid("arena -e pvs --depth 2").contains("two"));
    assert!(run_invalid("arena -e pvs -e random:depth=2 --depth 2").contains("random"));
    assert!(run_usage("arena -e pvs -e random --time 0").contains("--time"));
    for count in ["0", "10000000000", "18446744073709551615", "200001"] {
        let err = run_usage(&format!("arena -e pvs -e random --depth 2 --games {count}"));
        assert!(
            err.contains("--games") && err.contains("1..=200000"),
            "{err}"
        );
        let err = run_usage(&format!(
            "arena -e pvs -e random --depth 2 --openings {count}"
        ));
        assert!(err.contains("--openings"), "{err}");
    }
    // The searcher's own options, with `:` or `,`, typed once: no text glued back.
    assert!(run_invalid("arena -e pvs -e pvs:tt=x --depth 2").contains("'tt=x'"));
    let err = run_invalid("arena -e pvs -e alphabeta:lmr=off --depth 2");
    assert!(err.contains("valid for alphabeta"), "{err}");
    assert!(run_usage("arena -e pvs -e random --depth 2 --concurrency 0").contains("concurrency"));
}

#[test]
fn clocks_and_external_engines_are_checked_before_the_first_game() {
    for (tc, word) in [
        ("0+1", "more than 0"),
        ("x", "'x' is not seconds"),
        ("10+y", "'y' is not seconds"),
        ("-1", "is not seconds"),
        ("1e9", "is not seconds"),
    ] {
        let err = run_usage(&format!("arena -e pvs -e random --tc {tc}"));
        assert!(err.contains(word) && err.contains("--tc"), "{tc}: {err}");
    }
    let err = run_with("arena -e pvs -e random --tc 1 --time 5", "").unwrap_err();
    assert!(
        matches!(err, CliError::Usage(_)) && err.to_string().contains("--time"),
        "{err}"
    );
    let err = run_invalid("arena -e pvs -e ugi:/no/such/engine --depth 1");
    assert!(err.contains("cannot start '/no/such/engine'"), "{err}");
    let err = run_invalid("arena -e pvs -e ugi:restart=never:x --depth 1");
    assert!(err.contains("restart=game or restart=move"), "{err}");
    // A clock alone is a limit; the header shows it.
    let out = run_ok("arena -e random -e random --tc 1+0.01 --openings 1");
    assert!(out.contains("| clock 1+0.01 |"), "{out}");
    assert!(out.contains("lost on time 0"), "{out}");
}

#[test]
fn a_results_file_resumes_without_repeating_games() {
    let path = std::env::temp_dir().join(format!("plies-cli-arena-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let file = path.display();
    let full = run_ok(&format!(
        "arena -e alphabeta -e random --openings 3 --depth 3 --results {file} --json"
    ));
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 6);
    // Keep only the first two games, as if the run had been killed, and resume.
    let kept: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, kept).unwrap();
    let resumed = run_ok(&format!(
        "arena -e alphabeta -e random --openings 3 --depth 3 --results {file} --json"
    ));
    assert!(resumed.contains("2 already played"), "{resumed}");
    assert_eq!(resumed.lines().filter(|l| l.starts_with('[')).count(), 4);
    assert_eq!(results_json(&full), results_json(&resumed));
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 6);
    // Another match cannot resume from this file.
    let err = run_invalid(&format!(
        "arena -e pvs -e random --openings 3 --depth 3 --results {file}"
    ));
    assert!(err.contains("cannot resume"), "{err}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn an_sprt_stops_a_decided_match_early() {
    // Alpha-beta at depth 6 against a random mover is decided long before 40 games.
    let out = run_ok(
        "arena -e alphabeta -e random --openings 20 --depth 6 --concurrency 1 --sprt 0,50 --json",
    );
    let json = last_json(&out);
    let games = json["games"].as_u64().unwrap();
    assert!(games < 40, "{out}");
    assert_eq!(json["sprt"]["verdict"], "H1 accepted", "{out}");
    assert_eq!(
        json["sprt"]["decided_after"], games,
        "one worker: no game after the verdict"
    );
    assert!(json["sprt"]["llr"].as_f64().unwrap() >= 2.94);
    assert!(out.contains("SPRT elo0 0 elo1 50"), "{out}");
    assert!(out.contains("LLR "), "{out}");
    // Bad tests are refused before any game.
    assert!(run_usage("arena -e pvs -e random --depth 2 --sprt 5").contains("ELO0,ELO1"));
    assert!(run_usage("arena -e pvs -e random --depth 2 --sprt 20,0").contains("below"));
    assert!(run_usage("arena -e pvs -e random --depth 2 --sprt 0,x").contains("'x'"));
    let three = run_invalid("arena -e pvs -e random -e alphabeta --depth 2 --sprt 0,20");
    assert!(three.contains("two engines"), "{three}");
}

#[test]
fn file_plies_walk_on_from_each_file_position() {
    let dir = std::env::temp_dir();
    let id = std::process::id();
    let path = dir.join(format!("plies-cli-fileplies-{id}.txt"));
    std::fs::write(&path, "# two deals\n9 9 1\n8 7 2\n").unwrap();
    let results = dir.join(format!("plies-cli-fileplies-{id}.jsonl"));
    // The distinct opening positions of a match, from its results file.
    let openings = |extra: &str| -> Vec<String> {
        let _ = std::fs::remove_file(&results);
        run_ok(&format!(
            "arena -e pvs -e random --depth 2 --openings-file {} --results {} {extra}",
            path.display(),
            results.display()
        ));
        let text = std::fs::read_to_string(&results).unwrap();
        let mut seen: Vec<String> = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .map(|v| v["opening_position"].as_str().unwrap().to_string())
            .collect();
        seen.sort();
        seen.dedup();
        seen
    };
    // Without --file-plies: the file's two positions, whatever --games asks.
    assert_eq!(openings("--games 8"), ["8 7 2", "9 9 1"]);
    // With it: --games / 2 openings, each two takes on from a file position (18 or 15 stones
    // less 2 to 18), different walks.
    let walked = openings("--games 12 --file-plies 2 --seed 4");
    assert!(walked.len() >= 4, "{walked:?}");
    for opening in &walked {
        let stones: Vec<u32> = opening.split(' ').map(|n| n.parse().unwrap()).collect();
        let total = stones[0] + stones[1];
        assert!(
            total <= 16 && !walked.contains(&"9 9 1".to_string()),
            "{walked:?}"
        );
    }
    assert_eq!(openings("--games 12 --file-plies 2 --seed 4"), walked);
    match crate::test_support::run_with("arena -e pvs -e random --depth 2 --file-plies 2", "") {
        Err(crate::CliError::Usage(text)) => assert!(text.contains("--openings-file"), "{text}"),
        other => panic!("--file-plies without a file: {other:?}"),
    }
    std::fs::remove_file(&path).unwrap();
    let _ = std::fs::remove_file(&results);
}
