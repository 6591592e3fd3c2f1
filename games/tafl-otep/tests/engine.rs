//! The OTEP engine line by line (hello, rules, play, move, opponent-move, analyze, errors) and
//! a short referee match of the engine against itself whose .otg records read back.
//!
//! Key invariant: the engine never panics and answers malformed lines with `error 0`.

use std::path::PathBuf;
use std::time::Duration;

use plies::{Game, Notation};
use plies_tafl::{GameRecord, variant};
use plies_tafl_otep::engine::OtepEngine;
use plies_tafl_otep::referee::{MatchConfig, Settle, run_match, summary};

#[test]
fn engine_answers_and_survives_bad_lines() {
    let mut e = OtepEngine::new(Duration::from_millis(30));
    let brandub = variant("brandub").unwrap().rules;
    assert!(e.handle(&format!("rules {brandub}")).is_empty());
    assert!(e.handle("side attackers").is_empty());
    let out = e.handle("play attackers");
    let mv = out
        .iter()
        .find_map(|l| l.strip_prefix("move "))
        .expect("a move");
    assert!(e.record().current().parse_move(mv).is_ok());
    e.handle("move /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"); // stale board: engine takes host's
    for bad in [
        "clock x",
        "play nobody",
        "rules dim:99",
        "opponent-move zz-a1",
        "analyze x",
    ] {
        let out = e.handle(bad);
        assert!(
            out.iter().all(|l| l.starts_with("error 0")),
            "{bad}: {out:?}"
        );
        assert!(!out.is_empty(), "{bad}");
    }
    let out = e.handle("some unknown command");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].starts_with("error 0 "), "{out:?}");
    let out = e.handle("analyze 1 0.05");
    assert!(out[0].starts_with("analysis 1 "), "{out:?}");
    e.handle("goodbye");
    assert!(e.finished());
}

#[test]
fn referee_match_completes_and_records_read_back() {
    let engine = format!("{} --move-time 20", env!("CARGO_BIN_EXE_tafl-otep"));
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tafl-referee");
    let config = MatchConfig {
        engines: [engine.clone(), engine],
        variants: vec![variant("brandub").unwrap().rules.to_string()],
        games_per_variant: 2,
        move_time: Duration::from_millis(300),
        grace: Duration::from_millis(3000),
        max_plies: 120,
        out_dir,
        // Our engine says nothing after its move: a short settle keeps the test quick.
        settle: Settle {
            quiet: Duration::from_millis(20),
            limit: Duration::from_secs(1),
        },
        retries: 0,
    };
    let results = run_match(&config).unwrap();
    println!("{}", summary(&results));
    assert_eq!(results.len(), 2);
    for r in &results {
        assert!(
            !r.reason.contains("said nothing in time") && !r.reason.contains("illegal"),
            "{r:?}"
        );
        let text = std::fs::read_to_string(&r.record_path).unwrap();
        let back = GameRecord::from_otg(&text).unwrap();
        assert_eq!(back.moves().len(), r.plies);
        if r.reason == "rules" {
            assert_eq!(back.current().outcome(), r.outcome);
        }
    }
}
