//! The tactics suite (`games/tafl/suite/escapes.txt`, king escapes and captures from real
//! Copenhagen games and self-play): its file reads, a small part of its proofs re-checked by the
//! exhaustive rules-only prover, and the full searcher finding exactly the proven result at
//! the proof's depth, while a plain alpha-beta search one ply shorter cannot (so the positions
//! are not decided sooner than the proof says). The whole suite is searched by `benches/tafl_suite.rs`
//! and the `tafl suite` command.
//!
//! Key invariant: the reference result of a position is its proof, found by the exhaustive
//! search over every move ([`plies_tafl::suite::prove`]), never by the searcher under test.

use plies::search::{SearchLimits, Searcher};
use plies::spec::SearcherSpec;
use plies::{Game, Score};
use plies_tafl::TaflEvaluator;
use plies_tafl::suite::{Answer, Proof, Tactic, judge, parse_suite, prove};

const SUITE: &str = include_str!("../suite/escapes.txt");

/// Positions of each proof checked here (the fast part of the suite).
const PER_PROOF: usize = 2;

/// Proofs longer than this are left to the bench (their re-check takes seconds).
const MAX_CHECKED_PLIES: u32 = 5;

fn suite() -> Vec<Tactic> {
    parse_suite(SUITE).expect("the suite file reads")
}

/// The first [`PER_PROOF`] positions of each proof up to [`MAX_CHECKED_PLIES`].
fn sample() -> Vec<Tactic> {
    let mut taken: Vec<(Proof, usize)> = Vec::new();
    let mut sample = Vec::new();
    for tactic in suite() {
        let n = match tactic.proof {
            Proof::Win(n) | Proof::Loss(n) => n,
        };
        if n > MAX_CHECKED_PLIES {
            continue;
        }
        let count = match taken.iter_mut().find(|(p, _)| *p == tactic.proof) {
            Some((_, count)) => count,
            None => {
                taken.push((tactic.proof, 0));
                &mut taken.last_mut().expect("just pushed").1
            }
        };
        if *count < PER_PROOF {
            *count += 1;
            sample.push(tactic);
        }
    }
    sample
}

fn search(spec: &str, tactic: &Tactic, depth: u32) -> Option<Score> {
    let spec: SearcherSpec = spec.parse().expect("a searcher spec");
    let mut searcher: Box<dyn Searcher<_>> =
        spec.build(TaflEvaluator::default()).expect("a small table");
    searcher
        .search(&tactic.position, &SearchLimits::depth(depth))
        .known_score()
}

#[test]
fn the_suite_holds_wins_and_losses_of_both_sides() {
    let tactics = suite();
    assert!(tactics.len() >= 400, "{} positions", tactics.len());
    for proof in [Proof::Win(3), Proof::Win(5), Proof::Loss(2), Proof::Loss(4)] {
        let of_proof: Vec<&Tactic> = tactics.iter().filter(|t| t.proof == proof).collect();
        assert!(
            of_proof.len() >= 50,
            "{proof}: {} positions",
            of_proof.len()
        );
        let attackers = of_proof
            .iter()
            .filter(|t| {
                let mover_wins = matches!(proof, Proof::Win(_));
                (t.position.side_to_move() == plies::Side::First) == mover_wins
            })
            .count();
        assert!(
            attackers > 0 && attackers < of_proof.len(),
            "{proof}: the attackers win {attackers} of {}",
            of_proof.len()
        );
    }
}

#[test]
fn proofs_of_the_sample_hold_and_are_shortest() {
    for tactic in sample() {
        let (Proof::Win(n) | Proof::Loss(n)) = tactic.proof;
        let found = prove(&tactic.position, n + 1, 50_000_000).expect("within the budget");
        assert_eq!(found, Some(tactic.proof), "{}", tactic.line());
    }
}

#[test]
fn the_full_searcher_finds_the_proven_result_at_its_depth() {
    for tactic in sample() {
        let (Proof::Win(n) | Proof::Loss(n)) = tactic.proof;
        let score = search("pvs", &tactic, n);
        assert_eq!(score, Some(tactic.proof.score()), "{}", tactic.line());
        assert_eq!(judge(tactic.proof, score), Answer::Solved);
    }
}

#[test]
fn one_ply_short_the_sample_is_not_decided() {
    // A plain alpha-beta search (no quiescence, no extension) sees only lines of its depth:
    // a result shorter than the proof would contradict it.
    for tactic in sample() {
        let (Proof::Win(n) | Proof::Loss(n)) = tactic.proof;
        let score = search("alphabeta", &tactic, n - 1);
        assert_eq!(
            judge(tactic.proof, score),
            Answer::Missed,
            "{}",
            tactic.line()
        );
    }
}

#[test]
fn judging_tells_solved_missed_and_wrong() {
    let win = Proof::Win(3);
    assert_eq!(judge(win, Some(Score::win_in(3))), Answer::Solved);
    assert_eq!(judge(win, Some(Score::win_in(7))), Answer::Solved);
    assert_eq!(judge(win, Some(Score::win_in(1))), Answer::Wrong);
    assert_eq!(judge(win, Some(Score::loss_in(4))), Answer::Wrong);
    assert_eq!(judge(win, Some(Score::cp(900))), Answer::Missed);
    assert_eq!(judge(win, None), Answer::Missed);
    let loss = Proof::Loss(4);
    assert_eq!(judge(loss, Some(Score::loss_in(4))), Answer::Solved);
    assert_eq!(judge(loss, Some(Score::loss_in(2))), Answer::Wrong);
    assert_eq!(judge(loss, Some(Score::win_in(5))), Answer::Wrong);
    assert_eq!(judge(loss, Some(Score::cp(-900))), Answer::Missed);
}

#[test]
fn bad_suite_lines_are_named() {
    let position = suite()[0].text.clone();
    let cases = [
        (
            "copenhagen | win 3".to_string(),
            "expected `POSITION | PROOF | SOURCE`",
        ),
        ("nowhere /x/ a | win 3 | s".to_string(), "suite line 2"),
        (
            format!("{position} | draw 3 | s"),
            "expected `win N` or `loss N`",
        ),
        (format!("{position} | win 4 | s"), "odd number of plies"),
        (format!("{position} | loss 3 | s"), "odd number of plies"),
        ("copenhagen | win x | s".to_string(), "is not a ply count"),
    ];
    for (line, expected) in cases {
        let text = format!("# a comment\n{line}\n");
        let error = parse_suite(&text).expect_err(&line).to_string();
        assert!(error.contains("suite line 2"), "{error}");
        assert!(error.contains(expected), "{line}: {error}");
    }
}
