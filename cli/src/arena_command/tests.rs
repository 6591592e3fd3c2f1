//! `arena` through the command line on the toy game: game lines, the table and the JSON line,
//! repeatability at any concurrency, one-line errors, resuming from a results file.

use crate::test_support::{last_json, run_invalid, run_ok};

/// The last JSON line without its per-move timings (`mean_ms`, `max_ms`), which differ from run
/// to run: what a repeated match must reproduce.
fn results_json(out: &str) -> serde_json::Value {
    let mut json = last_json(out);
    for engine in json["engines"].as_array_mut().into_iter().flatten() {
        if let Some(fields) = engine.as_object_mut() {
            fields.remove("mean_ms");
            fields.remove("max_ms");
        }
    }
    json
}

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
    assert!(run_invalid("arena -e pvs -e random --time 0").contains("--time"));
    assert!(run_invalid("arena -e pvs -e random --depth 2 --games 0").contains("--games"));
    assert!(
        run_invalid("arena -e pvs -e random --depth 2 --concurrency 0").contains("concurrency")
    );
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
    assert!(run_invalid("arena -e pvs -e random --depth 2 --sprt 5").contains("ELO0,ELO1"));
    assert!(run_invalid("arena -e pvs -e random --depth 2 --sprt 20,0").contains("below"));
    assert!(run_invalid("arena -e pvs -e random --depth 2 --sprt 0,x").contains("'x'"));
    let three = run_invalid("arena -e pvs -e random -e alphabeta --depth 2 --sprt 0,20");
    assert!(three.contains("two engines"), "{three}");
}
