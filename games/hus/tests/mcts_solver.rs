//! The MCTS-solver on Hus: it proves a hand-made win in 3 (derived from the rules below) and
//! the matching loss in 2 of the side that must answer it, and the short wins alpha-beta finds
//! in positions near the end of seeded random games, each within a bounded number of
//! iterations, choosing a move alpha-beta also scores as winning.
//!
//! Key invariant: every expected result comes from the rules (the hand-made position) or from
//! `AlphaBeta` (the reference) at a depth that sees the whole win, never from MCTS.

use plies::harness::random_game;
use plies::mcts::{Mcts, MctsConfig};
use plies::rng::SplitMix64;
use plies::search::AlphaBeta;
use plies::search::{SearchLimits, Searcher};
use plies::{Game, Notation, Outcome, Score, Side};
use plies_hus::{Hus, HusEvaluator};

/// The alpha-beta score of `state` at `depth` (exact for wins within `depth` plies).
fn reference(state: &Hus, depth: u32) -> Score {
    AlphaBeta::new(HusEvaluator::default())
        .search(state, &SearchLimits::depth(depth))
        .score
}

/// The solver's result on `state` with at most `iterations` iterations, and the iterations used.
fn solve(state: &Hus, iterations: u64) -> (plies::search::SearchResult<plies_hus::Pit>, u64) {
    let mut mcts = Mcts::new(HusEvaluator::default(), MctsConfig::iterations(iterations));
    let result = mcts.search(state, &SearchLimits::default());
    (result, mcts.last_stats().iterations)
}

/// Checks the solver's answer against alpha-beta: a proven win no faster than alpha-beta's, a
/// move alpha-beta scores as winning too, a principal variation that ends in the reported win.
fn assert_proves(state: &Hus, iterations: u64, depth: u32) -> u64 {
    let text = state.format_position();
    let expected = reference(state, depth);
    assert!(expected.is_win(), "{text}: alpha-beta says {expected}");
    let (result, used) = solve(state, iterations);
    assert!(
        result.score.is_win(),
        "{text}: not proven in {used} iterations: {result:?}, alpha-beta {expected}"
    );
    assert!(
        result.score.plies_to_end() >= expected.plies_to_end(),
        "{text}"
    );
    assert!(used < iterations, "{text}: the proof must stop the search");
    let child = state.play(result.best_move.unwrap());
    let after = reference(&child, depth);
    let for_mover = if child.side_to_move() == state.side_to_move() {
        after
    } else {
        -after
    };
    assert!(for_mover.is_win(), "{text}: the chosen move does not win");
    let mut walk = state.clone();
    for &mv in &result.pv {
        walk = walk.play(mv);
    }
    assert_eq!(
        walk.outcome(),
        Some(Outcome::Win(state.side_to_move())),
        "{text}: {result:?}"
    );
    assert_eq!(result.score.plies_to_end(), Some(result.pv.len() as u32));
    used
}

/// Player 0 to move in round 10. Player 1 holds 10 seeds: 2 in outer pit 3, 1 in each of pits
/// 8..15, nothing else (pits 4, 5 and the inner pit 28 facing pit 3 are empty). Player 0 holds
/// the other 86: 3 in each of pits 0..23, 2 in each of pits 24..30.
fn forced_win() -> Hus {
    let mut p0 = [0u8; 32];
    p0[..24].fill(3);
    p0[24..31].fill(2);
    let mut p1 = [0u8; 32];
    p1[3] = 2;
    p1[8..16].fill(1);
    Hus::from_parts([p0, p1], Side::First, 10).unwrap()
}

#[test]
fn a_forced_win_in_three_is_proven() {
    // Derivation from the rules. Player 1's only pit with 2+ seeds is outer pit 3. A capture
    // takes an opponent's outer pit `end - 16` only together with its inner pit `47 - end`, and
    // only when that inner pit is non-empty: for pit 3 that is inner pit 28, which is empty, and
    // player 0 never sows into player 1's pits, so player 0's first move cannot take pit 3 and
    // cannot win at once. Player 1 then has exactly one move, pit 3: it sows pits 4 and 5, and 5
    // was empty, so the move ends with player 1 holding 1 seed or none in every pit. Whatever
    // player 0 plays next leaves player 1 without a pit of 2+: player 0 wins on ply 3.
    let state = forced_win();
    assert!(!reference(&state, 1).is_win(), "no win in 1");
    assert_eq!(reference(&state, 3), Score::win_in(3));
    let used = assert_proves(&state, 50_000, 3);
    eprintln!("win in 3 proven after {used} iterations");
    // After any first move, player 1 to move is lost in 2, and the solver proves it.
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    let reply = state.play(moves[0]);
    assert_eq!(reply.side_to_move(), Side::Second);
    let mut answers = Vec::new();
    reply.generate_moves(&mut answers);
    assert_eq!(answers.len(), 1, "pit 3 is player 1's only move");
    let (result, _) = solve(&reply, 50_000);
    assert_eq!(result.score, Score::loss_in(2), "{result:?}");
}

#[test]
fn short_wins_near_the_end_of_random_games_are_proven() {
    const DEPTH: u32 = 5;
    let mut rng = SplitMix64::new(424);
    let mut proven = [0usize; 2];
    let mut three_plies = 0;
    let mut longest = 0;
    for _ in 0..8 {
        let game = random_game(&Hus::start_position(), &mut rng, 1_000);
        // The last few positions before the end, where the short wins are.
        for state in game.iter().rev().skip(1).take(12) {
            let expected = reference(state, DEPTH);
            if !expected.is_win() {
                continue;
            }
            assert_proves(state, 100_000, DEPTH);
            proven[state.side_to_move().index()] += 1;
            longest = longest.max(expected.plies_to_end().unwrap());
            if expected.plies_to_end() >= Some(3) {
                three_plies += 1;
            }
        }
    }
    eprintln!(
        "proven: {} wins of player 0, {} of player 1, {three_plies} in three plies or more, \
         the longest in {longest}",
        proven[0], proven[1]
    );
    assert!(proven[0] + proven[1] >= 10, "{proven:?}");
    assert!(three_plies >= 2, "some wins take three plies or more");
    assert_eq!(longest, DEPTH, "some wins take five plies");
}
