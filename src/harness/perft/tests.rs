//! Unit tests of `crate::harness::perft` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;
use crate::game::Side;
use crate::testing::TwoPiles;

/// Independent brute force over the piles themselves (not through `Game`): a move takes 1–3
/// from a pile; emptying both piles ends the game; extra turns do not change the count.
fn brute(piles: [u8; 2], depth: u32, convention: PerftConvention, is_root: bool) -> u64 {
    let over = piles == [0, 0];
    if depth == 0 {
        return 1;
    }
    if over {
        return match convention {
            PerftConvention::Leaf if !is_root => 1,
            _ => 0,
        };
    }
    let mut total = 0;
    for p in 0..2 {
        for c in 1..=3u8 {
            if c <= piles[p] {
                let mut next = piles;
                next[p] -= c;
                total += brute(next, depth - 1, convention, false);
            }
        }
    }
    total
}

#[test]
fn matches_brute_force_in_both_conventions() {
    for a in 0..6u8 {
        for b in 0..5u8 {
            for depth in 0..7 {
                for convention in [PerftConvention::Leaf, PerftConvention::Stop] {
                    let state = TwoPiles::new(a, b, Side::First);
                    assert_eq!(
                        perft(&state, depth, convention),
                        brute([a, b], depth, convention, true),
                        "piles ({a}, {b}) depth {depth} {convention}"
                    );
                }
            }
        }
    }
}

#[test]
fn conventions_differ_when_games_end_early() {
    let state = TwoPiles::new(1, 1, Side::First);
    // Depth 3: both lines end after two plies, so stop counts nothing and leaf counts 2.
    assert_eq!(perft(&state, 3, PerftConvention::Stop), 0);
    assert_eq!(perft(&state, 3, PerftConvention::Leaf), 2);
}

#[test]
fn divide_adds_up() {
    let state = TwoPiles::new(5, 4, Side::Second);
    for convention in [PerftConvention::Leaf, PerftConvention::Stop] {
        for depth in 1..6 {
            let parts = perft_divide(&state, depth, convention);
            assert_eq!(parts.len(), 6);
            let sum: u64 = parts.iter().map(|&(_, n)| n).sum();
            assert_eq!(sum, perft(&state, depth, convention));
        }
    }
}

#[test]
fn convention_text() {
    for c in [PerftConvention::Leaf, PerftConvention::Stop] {
        assert_eq!(c.to_string().parse::<PerftConvention>(), Ok(c));
    }
    assert_eq!("LEAF".parse(), Ok(PerftConvention::Leaf));
    let err = "leaves".parse::<PerftConvention>().unwrap_err();
    assert_eq!(err.text, "leaves");
    assert!(err.to_string().contains("'leaves'"), "{err}");
}

fn file_for(a: u8, b: u8, depths: &[u32], convention: PerftConvention) -> String {
    let mut text = format!("# generated\nconvention {convention}\nposition {a} {b} 1\n");
    for &d in depths {
        let n = brute([a, b], d, convention, true);
        text.push_str(&format!("perft {d} {n}\n"));
    }
    text
}

#[test]
fn file_runner_passes_and_skips() {
    let mut text = file_for(4, 3, &[1, 2, 3, 4], PerftConvention::Leaf);
    text.push_str("\n\n");
    text.push_str(&file_for(2, 2, &[1, 2, 5], PerftConvention::Stop));
    let report = run_perft_file::<TwoPiles>(&text, u64::MAX).unwrap();
    assert_eq!(report.passed, 7);
    assert!(report.skipped.is_empty());
    let capped = run_perft_file::<TwoPiles>(&text, 40).unwrap();
    assert_eq!(capped.passed + capped.skipped.len(), 7);
    assert!(!capped.skipped.is_empty());
    assert!(capped.nodes < report.nodes);
}

#[test]
fn file_runner_reports_mismatch_with_line() {
    let wrong = brute([3, 3], 2, PerftConvention::Stop, true) + 1;
    let text = format!("position 3 3 1\nperft 1 6\nperft 2 {wrong}\n");
    let err = run_perft_file::<TwoPiles>(&text, u64::MAX).unwrap_err();
    assert_eq!(err.line, 3);
    assert!(err.reason.contains(&format!("expected {wrong}")), "{err}");
    assert!(err.reason.contains("depth 2"), "{err}");
    assert!(err.to_string().contains("line 3"), "{err}");
}

#[test]
fn file_runner_rejects_malformed_lines() {
    let cases = [
        ("perft 1 6", 1, "before any position"),
        ("position 3 3 9", 1, "'9'"),
        ("position 3 3 1\nperft x 6", 2, "'x'"),
        ("position 3 3 1\nperft 1", 2, "perft <depth> <nodes>"),
        ("position 3 3 1\nperft 1 many", 2, "'many'"),
        ("convention deep", 1, "'deep'"),
        ("# ok\nbogus 1", 2, "'bogus'"),
    ];
    for (text, line, needle) in cases {
        let err = run_perft_file::<TwoPiles>(text, u64::MAX).unwrap_err();
        assert_eq!(err.line, line, "{text}");
        assert!(err.to_string().contains(needle), "{text}: {err}");
    }
}
