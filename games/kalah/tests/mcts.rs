//! MCTS on Kalah (the tutorial game, crate `plies-kalah` in `games/kalah`), whose extra turns keep the same side
//! to move: the solver proves the short wins alpha-beta finds in random positions (and picks a
//! move alpha-beta scores as winning), the proofs go through extra turns, and MCTS crushes a
//! random mover.
//!
//! Key invariant: the expected results come from `AlphaBeta` (the reference) and from the
//! rules, never from MCTS.

use plies::harness::random_playout_positions;
use plies::mcts::{Mcts, MctsConfig};
use plies::rng::SplitMix64;
use plies::search::AlphaBeta;
use plies::search::{SearchLimits, Searcher};
use plies::{Game, Notation, Outcome, Side};
use plies_kalah::{Kalah, StoreDifference};

/// The alpha-beta score of `state` at `depth`.
fn reference(state: &Kalah, depth: u32) -> plies::Score {
    AlphaBeta::new(StoreDifference::default())
        .search(state, &SearchLimits::depth(depth))
        .score
}

#[test]
fn the_solver_proves_short_wins_through_extra_turns() {
    const DEPTH: u32 = 5;
    let positions = random_playout_positions(&Kalah::start_position(), 11, 400, 60);
    let mut proven = 0;
    let mut extra_turn_lines = 0;
    for state in positions {
        let expected = reference(&state, DEPTH);
        if !expected.is_win() {
            continue;
        }
        let mut mcts = Mcts::new(StoreDifference::default(), MctsConfig::iterations(200_000));
        let result = mcts.search(&state, &SearchLimits::default());
        let text = state.format_position();
        assert!(
            result.score.is_win(),
            "{text}: {result:?}, alpha-beta {expected}"
        );
        assert!(
            result.score.plies_to_end() >= expected.plies_to_end(),
            "{text}"
        );
        let child = state.play(result.best_move.unwrap());
        let after = reference(&child, DEPTH);
        let for_mover = if child.side_to_move() == state.side_to_move() {
            after
        } else {
            -after
        };
        assert!(for_mover.is_win(), "{text}: the chosen move does not win");
        // Does the proven line contain an extra turn (the same side moving twice in a row)?
        let mut walk = state.clone();
        for &mv in &result.pv {
            let next = walk.play(mv);
            if next.outcome().is_none() && next.side_to_move() == walk.side_to_move() {
                extra_turn_lines += 1;
                break;
            }
            walk = next;
        }
        proven += 1;
    }
    eprintln!("{proven} short wins proven, {extra_turn_lines} through an extra turn");
    assert!(proven >= 10, "only {proven} positions with a short win");
    assert!(extra_turn_lines >= 1);
}

#[test]
fn a_hand_made_extra_turn_win() {
    // South to move with pits e = 2, f = 1 (f next to the store), stores 22 each, North one
    // seed in f. South plays f (store 23, extra turn), e (f = 1, store 24, extra turn), f (store
    // 25, extra turn) and its row is empty: the game ends, North sweeps its seed, 25 to 23.
    // Three plies in a row by the same side, a win in 3.
    let state = Kalah::parse_position("0,0,0,0,2,1|22 0,0,0,0,0,1|22 s").unwrap();
    assert!(reference(&state, 6).is_win(), "the rules say South wins");
    let mut mcts = Mcts::new(StoreDifference::default(), MctsConfig::iterations(10_000));
    let result = mcts.search(&state, &SearchLimits::default());
    assert!(result.score.is_win(), "{result:?}");
    // The reported line is a proof: played out, South wins, at the reported distance.
    let mut walk = state.clone();
    for &mv in &result.pv {
        walk = walk.play(mv);
    }
    assert_eq!(
        walk.outcome(),
        Some(Outcome::Win(Side::First)),
        "{result:?}"
    );
    assert_eq!(result.score.plies_to_end(), Some(result.pv.len() as u32));
}

#[test]
fn mcts_beats_a_random_mover() {
    let mut rng = SplitMix64::new(3);
    let mut wins = 0;
    let games = 6;
    for game in 0..games {
        let mcts_side = if game % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let mut mcts = Mcts::new(
            StoreDifference::default(),
            MctsConfig::iterations(2_000).with_seed(game),
        );
        let mut state = Kalah::start_position();
        let mut moves = Vec::new();
        while state.outcome().is_none() {
            let mv = if state.side_to_move() == mcts_side {
                mcts.search(&state, &SearchLimits::default())
                    .best_move
                    .unwrap()
            } else {
                moves.clear();
                state.generate_moves(&mut moves);
                moves[rng.below(moves.len())]
            };
            state = state.play(mv);
        }
        if state.outcome() == Some(Outcome::Win(mcts_side)) {
            wins += 1;
        }
    }
    assert_eq!(wins, games, "MCTS won only {wins} of {games}");
}
