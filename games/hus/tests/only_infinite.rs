//! The infinite-move policy's second half (crate docs): a position whose side to move has pits
//! with 2+ seeds but only infinite moves is over, as a draw, with no move to play. The real
//! positions of docs/rules/hus.md have one infinite move among many, so this file finds a position
//! whose only candidate move never ends, by brute force over a small family of seed layouts,
//! proves that move endless with its own sowing reference (the sowing state repeats exactly),
//! and checks the crate: no legal move, the move text refused, the outcome a draw, and the
//! searchers answering with no move.
//!
//! Key invariant: the position and the endlessness come from this file's reference sowing
//! (written from docs/rules/hus.md, with no capture possible), never from the crate under test.

use std::collections::HashSet;

use plies::mcts::{Mcts, MctsConfig};
use plies::search::AlphaBeta;
use plies::search::{SearchLimits, Searcher};
use plies::{Game, Notation, Outcome, Score, Side};
use plies_hus::{Hus, HusEvaluator, MAX_LAPS};

/// How a relay sowing from one pit goes when no capture can happen.
#[derive(Debug, PartialEq, Eq)]
enum Sowing {
    /// It ends after this many laps (relays).
    Ends(usize),
    /// The row and the pit being sown return exactly to an earlier state after this many laps:
    /// the sowing repeats forever.
    Cycles(usize),
}

/// Reference relay sowing of `pit` in `row` (docs/rules/hus.md, captures impossible): scoop, sow one
/// seed per pit forward; the move ends when the last seed falls into an empty pit, otherwise
/// that pit is scooped and sown on. Stops when a state repeats (or after `limit` laps, which
/// the callers never reach).
fn reference_sowing(row: [u8; 32], pit: usize, limit: usize) -> Sowing {
    let mut row = row;
    let mut seen = HashSet::new();
    let mut hand = std::mem::take(&mut row[pit]);
    let mut pos = pit;
    for laps in 0..limit {
        while hand > 0 {
            pos = (pos + 1) % 32;
            row[pos] += 1;
            hand -= 1;
        }
        if row[pos] == 1 {
            return Sowing::Ends(laps);
        }
        if !seen.insert((row, pos)) {
            return Sowing::Cycles(laps);
        }
        hand = std::mem::take(&mut row[pos]);
    }
    panic!("no end and no repeat in {limit} laps");
}

/// The family searched: pit 0 holds `n` seeds, every odd pit 1, every other pit 0, so pit 0 is
/// the only pit with 2+ seeds.
fn layout(n: u8) -> [u8; 32] {
    let mut row = [0u8; 32];
    row[0] = n;
    for pit in (1..32).step_by(2) {
        row[pit] = 1;
    }
    row
}

/// The smallest `n` whose layout's only move never ends.
fn smallest_endless() -> u8 {
    (2..=20)
        .find(|&n| matches!(reference_sowing(layout(n), 0, 1_000_000), Sowing::Cycles(_)))
        .expect("an endless layout with at most 20 seeds in pit 0")
}

/// `row` for `side` to move in round `round`; the opponent's seeds all on its outer row (pits
/// 0..15), so its inner row is empty and no capture can happen whatever the round.
fn position(row: [u8; 32], side: Side, round: u16) -> Hus {
    let mut other = [0u8; 32];
    let rest = 96 - row.iter().map(|&s| usize::from(s)).sum::<usize>();
    for seed in 0..rest {
        other[seed % 16] += 1;
    }
    let rows = match side {
        Side::First => [row, other],
        Side::Second => [other, row],
    };
    Hus::from_parts(rows, side, round).unwrap()
}

#[test]
fn a_position_with_only_an_endless_move_is_a_draw_without_moves() {
    let n = smallest_endless();
    assert!(
        matches!(
            reference_sowing(layout(n - 1), 0, 1_000_000),
            Sowing::Ends(_)
        ),
        "the layout below it ends"
    );
    let Sowing::Cycles(period) = reference_sowing(layout(n), 0, 1_000_000) else {
        unreachable!()
    };
    assert!(
        period > MAX_LAPS as usize,
        "endless, so past the 200-lap guard"
    );
    for side in Side::BOTH {
        for round in [0, 40] {
            let state = position(layout(n), side, round);
            let what = state.format_position();
            assert_eq!(
                state.candidate_pits().collect::<Vec<_>>(),
                vec![0],
                "{what}"
            );
            assert!(state.is_infinite(0), "{what}");
            let mut moves = Vec::new();
            state.generate_moves(&mut moves);
            assert!(moves.is_empty(), "{what}: {moves:?}");
            assert_eq!(state.outcome(), Some(Outcome::Draw), "{what}");
            let err = state.parse_move("0").unwrap_err();
            assert!(
                err.reason.contains("over") || err.reason.contains("infinite"),
                "{what}: {err}"
            );
            // Position text keeps it a draw.
            let back = Hus::parse_position(&what).unwrap();
            assert_eq!(back.outcome(), Some(Outcome::Draw));
            // The searchers see a finished game: no move, a draw.
            let alphabeta =
                AlphaBeta::new(HusEvaluator::default()).search(&state, &SearchLimits::depth(3));
            assert_eq!(alphabeta.best_move, None, "{what}");
            assert_eq!(alphabeta.score, Score::DRAW, "{what}: {alphabeta:?}");
            let mcts = Mcts::new(HusEvaluator::default(), MctsConfig::iterations(100))
                .search(&state, &SearchLimits::default());
            assert_eq!(mcts.best_move, None, "{what}");
            assert_eq!(mcts.score, Score::DRAW, "{what}: {mcts:?}");
        }
    }
}

#[test]
fn the_same_layout_with_a_finite_move_is_not_over() {
    // The layout one seed below ends; the crate must agree it is a legal move and play it.
    let n = smallest_endless() - 1;
    let Sowing::Ends(laps) = reference_sowing(layout(n), 0, 1_000_000) else {
        unreachable!()
    };
    assert!(laps <= MAX_LAPS as usize);
    let state = position(layout(n), Side::First, 40);
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    assert_eq!(state.outcome(), None);
    assert_eq!(state.format_move(moves[0]), "0");
}
