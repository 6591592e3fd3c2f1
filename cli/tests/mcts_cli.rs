//! `--searcher mcts` on the command line (analyze and play) and `--engine mcts` in the arena,
//! run on Kalah (the tutorial game) exactly as from a terminal.
//!
//! Key invariant: the commands go through `plies_cli::run` with string arguments, so the
//! argument parsing and the searcher-name lookup are tested together.

use plies_cli::{GameCli, evaluator, run};
use plies_kalah::{Kalah, StoreDifference};

fn run_kalah(args: &[&str]) -> Result<String, String> {
    let spec = GameCli::<Kalah> {
        bench_positions: &["4,4,4,4,4,4|0 4,4,4,4,4,4|0 s"],
        bench_depth: 4,
        ..GameCli::new("kalah", evaluator(StoreDifference::default()))
    };
    let argv = std::iter::once("kalah".to_string()).chain(args.iter().map(|a| a.to_string()));
    let mut out = Vec::new();
    run(&spec, argv, &mut "".as_bytes(), &mut out).map_err(|e| e.to_string())?;
    Ok(String::from_utf8(out).unwrap())
}

#[test]
fn analyze_with_mcts_reports_a_move_and_its_nodes() {
    let out = run_kalah(&[
        "analyze",
        "--searcher",
        "mcts",
        "--nodes",
        "20000",
        "--json",
    ])
    .unwrap();
    assert!(out.starts_with("mcts analyzing"), "{out}");
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert!(last["best"].is_string(), "{out}");
    assert!(last["nodes"].as_u64().unwrap() >= 20_000);
    let heavy = run_kalah(&["analyze", "--searcher", "MCTS-heavy", "--nodes", "5000"]).unwrap();
    assert!(heavy.starts_with("mcts-heavy"), "{heavy}");
}

#[test]
fn a_proven_win_is_reported_as_one() {
    // South plays f, e, f (three extra turns) and wins 25-23.
    let out = run_kalah(&[
        "analyze",
        "--position",
        "0,0,0,0,2,1|22 0,0,0,0,0,1|22 s",
        "--searcher",
        "mcts",
        "--time",
        "2000",
    ])
    .unwrap();
    assert!(out.contains("score win in"), "{out}");
}

#[test]
fn play_and_arena_accept_mcts() {
    let out = run_kalah(&[
        "play",
        "--human",
        "none",
        "--searcher",
        "mcts",
        "--time",
        "20",
        "--max-plies",
        "4",
    ])
    .unwrap();
    assert!(out.contains("game over"), "{out}");
    let out = run_kalah(&[
        "arena", "--engine", "mcts", "--engine", "random", "--games", "2", "--nodes", "3000",
    ])
    .unwrap();
    assert!(out.contains("mcts"), "{out}");
    let err = run_kalah(&["analyze", "--searcher", "mctz", "--nodes", "10"]).unwrap_err();
    assert!(err.contains("mctz") && err.contains("mcts"), "{err}");
}
