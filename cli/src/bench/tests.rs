//! Tests of `bench`: the quick bench, the ladder and proofs, and the signature checks (a changed
//! node count must be reported and fail the command).

use super::super::test_support::{last_json, run_invalid, run_ok, run_usage, spec};
use crate::{CliError, GameCli, run};
use plies::harness::{BenchProof, BenchSignature, BenchSuite};

/// Runs `args` with the toy game and `suite`.
fn run_suite(suite: &BenchSuite, args: &str) -> Result<String, CliError> {
    let mut argv = vec!["twopiles".to_string()];
    argv.extend(args.split_whitespace().map(str::to_string));
    let mut out = Vec::new();
    let spec = GameCli {
        bench: *suite,
        ..spec()
    };
    let result = run(&spec, argv, &mut &b""[..], &mut out);
    let text = String::from_utf8(out).expect("utf-8 output");
    result.map(|()| text)
}

/// The total of the quick bench at `depth`, checked against nothing.
fn quick_total(depth: u32) -> u64 {
    let out = run_ok(&format!("bench --depth {depth} --json"));
    last_json(&out)["nodes"].as_u64().expect("a node total")
}

#[test]
fn benches_every_position_and_totals() {
    let out = run_ok("bench --json");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("position  1:") && lines[1].starts_with("position  2:"));
    let per_position: u64 = lines[..2]
        .iter()
        .map(|l| l.split_whitespace().nth(2).unwrap().parse::<u64>().unwrap())
        .sum();
    let json = last_json(&out);
    assert_eq!(json["nodes"].as_u64(), Some(per_position));
    assert_eq!(json["depth"], 5);
    assert_eq!(json["signature"], "unchecked");
    assert!(json["seconds"].as_f64().is_some() && json["nodes_per_second"].is_number());
    assert!(out.contains(&format!("total nodes {per_position}")));
}

#[test]
fn deterministic_signature() {
    assert_eq!(quick_total(5), quick_total(5));
}

#[test]
fn one_position_and_depth() {
    let out = run_ok("bench --position \"3 3 1\" --depth 2 --json");
    assert_eq!(out.lines().filter(|l| l.starts_with("position")).count(), 1);
    assert_eq!(last_json(&out)["depth"], 2);
    assert!(run_usage("bench --depth 0").contains("--depth"));
    assert!(run_usage("bench --depths 3,0").contains("--depth"));
}

#[test]
fn signature_mismatch_is_reported_and_fails() {
    let actual = quick_total(4);
    let right: &'static [BenchSignature] = Box::leak(Box::new([BenchSignature {
        depth: 4,
        nodes: actual,
    }]));
    let wrong: &'static [BenchSignature] = Box::leak(Box::new([BenchSignature {
        depth: 4,
        nodes: actual + 1,
    }]));
    let good = BenchSuite::new().signatures(right);
    let out = run_suite(&good, "bench --depth 4 --json").expect("matching signature");
    assert_eq!(last_json(&out)["signature"], "ok");
    assert!(out.contains("signature ok"));

    let bad = BenchSuite::new().signatures(wrong);
    let err = run_suite(&bad, "bench --depth 4").expect_err("a mismatch must fail");
    let text = err.to_string();
    assert!(matches!(err, CliError::Invalid(_)), "{text}");
    assert!(
        text.contains("signature mismatch") && text.contains(&format!("expected {}", actual + 1)),
        "{text}"
    );
    // The ladder checks the same totals at its rungs.
    let err = run_suite(&bad, "bench --depths 2,4").expect_err("a mismatch must fail");
    assert!(err.to_string().contains("depth 4 total"), "{err}");
    // Positions the game did not choose are never checked.
    let out = run_suite(&bad, "bench --depth 4 --moves a1 --json").expect("unchecked");
    assert_eq!(last_json(&out)["signature"], "unchecked");
}

#[test]
fn ladder_rungs_equal_separate_searches() {
    let out = run_ok("bench --depths 5,3 --json");
    let json = last_json(&out);
    let ladder = json["ladder"].as_array().expect("ladder");
    assert_eq!(ladder.len(), 2);
    assert_eq!(ladder[0]["depth"], 3);
    assert_eq!(ladder[1]["depth"], 5);
    assert_eq!(ladder[0]["nodes"].as_u64(), Some(quick_total(3)));
    assert_eq!(ladder[1]["nodes"].as_u64(), Some(quick_total(5)));
    assert_eq!(json["nodes"], ladder[1]["nodes"]);
    assert_eq!(json["proofs"].as_array().map(Vec::len), Some(0));
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with("position") && l.contains("depth"))
            .count(),
        4
    );
}

#[test]
fn full_bench_proves_positions() {
    // Six stones: every line ends within six moves, so a search well below the cap proves it.
    const PROOFS: &[BenchProof] = &[BenchProof::new("3 3 1", 20)];
    let suite = BenchSuite::new().ladder(&[2, 4]).proofs(PROOFS);
    let out = run_suite(&suite, "bench --full --json").expect("full bench");
    let json = last_json(&out);
    assert_eq!(json["ladder"].as_array().map(Vec::len), Some(2));
    let proof = &json["proofs"][0];
    assert_eq!(proof["proven"], true, "{out}");
    assert!(proof["depth"].as_u64().unwrap() < 20, "{out}");
    let score = proof["score"].as_str().unwrap();
    assert!(score.contains("win") || score.contains("loss"), "{score}");
    // Its recorded count is checked like the ladder's.
    let nodes = proof["nodes"].as_u64().unwrap();
    let wrong: &'static [BenchProof] = Box::leak(Box::new([PROOFS[0].nodes(nodes + 7)]));
    let err = run_suite(&suite.proofs(wrong), "bench --full").expect_err("a mismatch must fail");
    assert!(err.to_string().contains("proof 1"), "{err}");
    let right: &'static [BenchProof] = Box::leak(Box::new([PROOFS[0].nodes(nodes)]));
    assert!(run_suite(&suite.proofs(right), "bench --full").is_ok());
    // Without --full, --depths skips the proofs.
    let out = run_suite(&suite, "bench --depths 2 --json").expect("ladder only");
    assert_eq!(last_json(&out)["proofs"].as_array().map(Vec::len), Some(0));
}

#[test]
fn threads_search_unchecked_and_bad_counts_are_errors() {
    let actual = quick_total(4);
    let wrong: &'static [BenchSignature] = Box::leak(Box::new([BenchSignature {
        depth: 4,
        nodes: actual + 1,
    }]));
    let suite = BenchSuite::new().signatures(wrong);
    // One thread checks (and fails on) the wrong signature; two threads check nothing.
    assert!(run_suite(&suite, "bench --depth 4 --threads 1").is_err());
    let out = run_suite(&suite, "bench --depth 4 --threads 2 --json").expect("unchecked run");
    assert_eq!(last_json(&out)["signature"], "unchecked");
    assert!(last_json(&out)["nodes"].as_u64().unwrap() > 0);
    assert!(run_invalid("bench --threads 0").contains("--threads 0"));
}
