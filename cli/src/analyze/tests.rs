use super::*;
use crate::error::CliError;
use crate::test_support::{last_json, run_invalid, run_ok, run_usage, run_with};

#[test]
fn prints_iterations_summary_and_json() {
    let out = run_ok("analyze --position \"7 5 1\" --depth 4 --searcher minimax --json");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[1].contains("depth") && lines[1].contains("pv"),
        "{out}"
    );
    assert!(
        lines.iter().any(|l| l.trim_start().starts_with("4/")),
        "{out}"
    );
    assert!(
        out.contains("nodes/s") && out.contains("branching factor"),
        "{out}"
    );
    let json = last_json(&out);
    assert_eq!(json["depth"], 4);
    assert!(json["score"]["cp"].is_i64(), "{json}");
    let pv: Vec<&str> = json["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(pv.len(), 4);
    assert_eq!(json["best"], pv[0]);
    assert!(json["nodes"].as_u64().unwrap() > 0);
    assert!(json["seconds"].as_f64().is_some());
}

/// The transposition table's figures come only from a searcher that has one: pvs, not
/// minimax, alphabeta or MCTS (whose zeros would read as an empty table).
#[test]
fn only_a_searcher_with_a_table_reports_its_fill() {
    for (searcher, has_tt) in [
        ("pvs", true),
        ("minimax", false),
        ("alphabeta", false),
        ("pvs:tt=0", false),
    ] {
        let out = run_ok(&format!(
            "analyze --position \"7 5 1\" --depth 3 --searcher {searcher}"
        ));
        let tt_lines = out.lines().filter(|l| l.starts_with("tt fill ")).count();
        assert_eq!(tt_lines, usize::from(has_tt), "{searcher}: {out}");
        assert!(out.contains("branching factor"), "{searcher}: {out}");
    }
    let out = run_ok("analyze --position \"7 5 1\" --nodes 200 --searcher mcts");
    assert!(!out.contains("tt fill"), "mcts: {out}");
}

/// From (1,1) the mover loses in 2 whatever it does: one stone each side.
#[test]
fn decisive_scores_in_json() {
    let out = run_ok("analyze --position \"1 1 1\" --depth 3 --json");
    assert_eq!(last_json(&out)["score"], json!({ "loss_in": 2 }));
    // (0,2): take both stones and win at once.
    let out = run_ok("analyze --position \"0 2 2\" --depth 2 --json");
    let json = last_json(&out);
    assert_eq!(json["score"], json!({ "win_in": 1 }));
    assert_eq!(json["best"], "b2");
}

/// Two threads find the same forced win as one (a value-exact fact at any thread count).
#[test]
fn threads_find_the_same_win() {
    let out = run_ok("analyze --position \"0 2 2\" --depth 4 --threads 2 --json");
    assert!(out.starts_with("pvs:threads=2 "), "{out}");
    assert!(out.contains("threads 2: main "), "{out}");
    let json = last_json(&out);
    assert_eq!(json["score"], json!({ "win_in": 1 }));
    assert_eq!(json["best"], "b2");
}

/// The spec's `threads=` and `--threads` are one setting: either gives the same search
/// (it once searched with one thread when only the spec said two).
#[test]
fn threads_from_the_spec_or_the_flag_are_the_same_search() {
    let by_spec = run_ok("analyze --position \"0 2 2\" --depth 4 --searcher pvs:threads=2");
    let by_flag = run_ok("analyze --position \"0 2 2\" --depth 4 --threads 2");
    let both =
        run_ok("analyze --position \"0 2 2\" --depth 4 --searcher pvs:threads=2 --threads 2");
    for out in [&by_spec, &by_flag, &both] {
        assert!(out.contains("threads 2: main "), "{out}");
    }
    let one = run_ok("analyze --position \"0 2 2\" --depth 4");
    assert!(!one.contains("threads 2"), "{one}");
}

/// A table larger than the machine allows is an error naming the limit, never an abort.
#[test]
fn tables_past_the_machine_are_refused() {
    let max = crate::memory::max_tt_mb();
    if max < plies::spec::MAX_TT_MB {
        let err = run_invalid(&format!(
            "analyze --depth 2 --searcher pvs:tt={}",
            plies::spec::MAX_TT_MB
        ));
        assert!(err.contains(&format!("{max} MB")), "{err}");
    }
}

/// `--multipv 3`: three root moves, best first, each line printed and in the JSON; the
/// first line is the answer itself. Only pvs takes it.
#[test]
fn several_lines_are_reported() {
    let out = run_ok("analyze --position \"7 5 1\" --depth 4 --multipv 3 --json");
    let json = last_json(&out);
    let lines = json["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0]["pv"], json["pv"], "{out}");
    assert_eq!(lines[0]["score"], json["score"], "{out}");
    let firsts: Vec<&Value> = lines.iter().map(|l| &l["pv"][0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert!(
        out.contains("     #2 ") && out.contains("     #3 "),
        "{out}"
    );
    let one = last_json(&run_ok("analyze --position \"7 5 1\" --depth 4 --json"));
    assert!(one.get("lines").is_none());
    assert_eq!(one["pv"], json["pv"]);
    let err = run_invalid("analyze --depth 2 --multipv 2 --searcher minimax");
    assert!(err.contains("only pvs"), "{err}");
    assert!(run_usage("analyze --depth 2 --multipv 0").contains("--multipv"));
}

#[test]
fn node_limit_and_moves() {
    let out = run_ok("analyze --moves \"a1\" --nodes 100 --searcher minimax --json");
    assert!(last_json(&out)["nodes"].as_u64().unwrap() <= 100);
}

#[test]
fn bad_arguments() {
    assert!(run_usage("analyze --depth 0").contains("'0' for '--depth"));
    assert!(run_usage("analyze --time 0").contains("'0' for '--time"));
    assert!(run_usage("analyze --depth 2 --searcher nosuch").contains("nosuch"));
    assert!(run_usage("analyze --depth 2 --searcher pvs:tt=x").contains("'tt=x'"));
    assert!(run_usage("analyze --depth 2 --threads 0").contains("--threads"));
    assert!(run_usage("analyze --depth 2 --threads 999").contains("1..=256"));
    assert!(run_invalid("analyze --depth 2 --searcher minimax --threads 2").contains("one"));
    let err = run_invalid("analyze --depth 2 --searcher pvs:threads=2 --threads 3");
    assert!(err.contains("disagree"), "{err}");
    assert!(run_invalid("analyze --position \"0 0 1\" --depth 2").contains("over"));
    assert!(matches!(run_with("analyze", ""), Err(CliError::Usage(_))));
    assert!(matches!(
        run_with("analyze --depth -3", ""),
        Err(CliError::Usage(_))
    ));
}

/// A search stopped before its first iteration completes has no score: `none` in the text
/// and `null` in JSON, never the searcher's sentinel (`-Score::INFINITY`, cp -32001).
#[test]
fn an_unfinished_search_reports_no_score() {
    for searcher in ["alphabeta", "minimax", "pvs"] {
        let out = run_ok(&format!(
            "analyze --position \"7 7 1\" --depth 30 --nodes 5 --searcher {searcher} --json"
        ));
        let json = last_json(&out);
        assert_eq!(json["depth"], 0, "{searcher}: {out}");
        assert!(json["score"].is_null(), "{searcher}: {out}");
        assert!(json["best"].is_string(), "{searcher}: {out}");
        assert!(out.contains(" score none depth 0"), "{searcher}: {out}");
        assert!(!out.contains("32001"), "{searcher}: {out}");
    }
}

/// An error quoting input with a newline stays one line (found by fuzzing: positions are
/// echoed in errors).
#[test]
fn errors_quoting_newlines_stay_one_line() {
    // run_invalid and run_usage check the error is one line.
    let err = run_usage("analyze --depth 2 --searcher \"no\nsuch\"");
    assert!(err.contains("unknown searcher 'no"), "{err}");
    let err = run_invalid("analyze --position \"no\nsuch\" --depth 2");
    assert!(err.contains("no\\nsuch"), "{err}");
    assert_eq!(crate::text::one_line("a\tb\r\nc é"), "a\\tb\\r\\nc é");
}

/// MCTS has no search depth: `--depth` with it is refused rather than ignored.
#[test]
fn mcts_refuses_a_depth() {
    let err = run_invalid("analyze --depth 3 --searcher mcts");
    assert!(err.contains("--depth") && err.contains("mcts"), "{err}");
    let err = run_invalid("analyze --depth 3 --nodes 100 --searcher MCTS-heavy");
    assert!(err.contains("mcts-heavy"), "{err}");
    let out = run_ok("analyze --nodes 200 --searcher mcts --json");
    assert!(last_json(&out)["score"].is_object(), "{out}");
}

#[test]
fn score_shapes() {
    assert_eq!(score_json(Score::cp(-12)), json!({ "cp": -12 }));
    assert_eq!(score_json(Score::win_in(3)), json!({ "win_in": 3 }));
    assert_eq!(score_json(Score::loss_in(4)), json!({ "loss_in": 4 }));
}
