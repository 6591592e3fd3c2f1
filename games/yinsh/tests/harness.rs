//! Yinsh through the shared harness: the conformance suite on random games to their end (normal
//! and Blitz, from the empty board and from the two openings of docs/rules/yinsh.md), and every
//! standard searcher against plain minimax with the game's evaluator and the hash evaluator.
//!
//! Key invariant: expected values come from `Minimax::root_values` inside the harness.

use plies::harness::standard_searchers;
use plies::harness::{
    HashEvaluator, check_conformance, check_consistency, random_playout_positions,
};
use plies::rng::SplitMix64;
use plies::{Evaluator, Game, Notation};
use plies_yinsh::{Phase, Yinsh, YinshEvaluator};

const OPENING_1: &str = "g2 c6 f2 d4 e1 e4 h3 a4 d1 f6";
const OPENING_2: &str = "g2 e7 g3 e2 g4 g7 g5 e4 g6 c6";

fn starts() -> Vec<Yinsh> {
    let empty = Yinsh::start_position();
    vec![
        empty.clone(),
        Yinsh::new(true),
        empty.play_line(OPENING_1).unwrap(),
        empty.play_line(OPENING_2).unwrap(),
    ]
}

#[test]
fn yinsh_conforms() {
    let games = if cfg!(debug_assertions) { 2 } else { 25 };
    let report = check_conformance(&starts(), 24, games, 400).unwrap_or_else(|f| panic!("{f}"));
    println!("yinsh conformance: {report}");
    assert!(report.finished_games > 0);
}

fn check<E: Evaluator<Yinsh> + Clone + 'static>(name: &str, evaluator: &E, seed: u64) {
    let per_start = if cfg!(debug_assertions) { 1 } else { 8 };
    // Positions from deep in random games (rows and removals happen there) and from the
    // openings.
    let positions: Vec<Yinsh> = starts()
        .iter()
        .enumerate()
        .flat_map(|(i, s)| random_playout_positions(s, seed + i as u64, per_start, 80))
        .chain(around_rows(seed, per_start))
        .collect();
    let depth = if cfg!(debug_assertions) { 2 } else { 3 };
    let report = check_consistency(
        &positions,
        1..=depth,
        evaluator,
        &mut standard_searchers(evaluator),
    )
    .unwrap_or_else(|f| panic!("{f}"));
    println!("yinsh, {name}, depths 1..={depth}: {report}");
}

#[test]
fn searchers_match_minimax_with_the_yinsh_evaluator() {
    check("yinsh evaluator", &YinshEvaluator::default(), 7);
}

#[test]
fn searchers_match_minimax_with_the_hash_evaluator() {
    check("hash evaluator", &HashEvaluator::new(11, 3), 70);
}

/// Positions near row removals, from seeded random games: the position two decisions before a
/// row is to be removed, and the removal positions themselves (rows, rings, the opponent's).
fn around_rows(seed: u64, count: usize) -> Vec<Yinsh> {
    let mut rng = SplitMix64::new(seed);
    let mut found = Vec::new();
    let mut moves = Vec::new();
    while found.len() < count {
        let mut line = vec![Yinsh::start_position()];
        loop {
            let state = line.last().unwrap();
            moves.clear();
            state.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let next = state.play(moves[rng.below(moves.len())]);
            if next.phase() == Phase::RemoveRow && line.len() >= 2 {
                found.push(line[line.len() - 2].clone());
                found.push(next.clone());
                break;
            }
            line.push(next);
        }
    }
    found
}
