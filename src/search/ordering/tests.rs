//! Unit tests of `crate::search::ordering` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;
use crate::game::Side;
use crate::search::heuristics::HISTORY_MAX;
use crate::search::heuristics::Killers;
use crate::testing::{Take, TwoPiles};

fn order(
    state: &TwoPiles,
    tt: (Option<Take>, Option<usize>),
    killers: [Option<Take>; 2],
    history: Option<&History>,
) -> Vec<Take> {
    let (mut moves, mut scores) = (Vec::new(), Vec::new());
    let mut picker = MovePicker::new(tt.0, tt.1, killers);
    let mut out = Vec::new();
    while let Some(mv) = picker.next(state, &mut moves, &mut scores, history) {
        out.push(mv);
    }
    assert_eq!(picker.picked(), out.len());
    out
}

fn take(pile: u8, count: u8) -> Take {
    Take { pile, count }
}

#[test]
fn orders_tt_wins_captures_killers_history() {
    // (5, 1): moves a1 a2 a3 b1; a3 is a capture (3 stones), nothing wins.
    let state = TwoPiles::new(5, 1, Side::First);
    let mut history = History::new(state.move_index_bound());
    history.reward(Side::First, state.move_index(take(0, 2)), 3);
    assert_eq!(
        order(&state, (None, None), [None; 2], None),
        [take(0, 3), take(0, 1), take(0, 2), take(1, 1)]
    );
    let killers = [Some(take(0, 1)), Some(take(1, 3))];
    assert_eq!(
        order(&state, (Some(take(1, 1)), None), killers, Some(&history)),
        [take(1, 1), take(0, 3), take(0, 1), take(0, 2)]
    );
    // A table index that TwoPiles cannot look up is matched when its stage generates it and
    // goes first there.
    let index = Some(state.move_index(take(0, 2)));
    assert_eq!(
        order(&state, (None, index), killers, Some(&history)),
        [take(0, 3), take(0, 2), take(0, 1), take(1, 1)]
    );
    // A killer that is not legal here changes nothing; history then orders the quiets.
    assert_eq!(
        order(
            &state,
            (None, None),
            [Some(take(1, 3)), None],
            Some(&history)
        ),
        [take(0, 3), take(0, 2), take(0, 1), take(1, 1)]
    );
    // (0, 2): b2 wins, b1 is quiet.
    let state = TwoPiles::new(0, 2, Side::Second);
    assert_eq!(
        order(&state, (None, None), [None; 2], None),
        [take(1, 2), take(1, 1)]
    );
}

/// Picker perft: walking the tree with the picker (under all sorts of hints, legal or not)
/// visits exactly the nodes plain generation visits, and each node's moves come out exactly
/// once.
fn picker_perft(state: &TwoPiles, depth: u32, history: &History, salt: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut legal = Vec::new();
    state.generate_moves(&mut legal);
    let all = [
        take(0, 1),
        take(0, 2),
        take(0, 3),
        take(1, 1),
        take(1, 2),
        take(1, 3),
    ];
    let pick = |k: usize| (k % 7 < 6).then(|| all[k % 7 % 6]);
    let killers = [pick(salt), pick(salt / 7 + 3)];
    let tt_move = legal.get(salt % 5).copied();
    let tt_index = salt.is_multiple_of(3).then_some(salt % 9);
    let mut picker = MovePicker::new(tt_move, tt_index, killers);
    let (mut moves, mut scores) = (Vec::new(), Vec::new());
    let mut seen = Vec::new();
    let mut nodes = 0;
    while let Some(mv) = picker.next(state, &mut moves, &mut scores, Some(history)) {
        assert!(legal.contains(&mv) && !seen.contains(&mv), "{mv:?}");
        seen.push(mv);
        nodes += picker_perft(&state.play(mv), depth - 1, history, salt * 31 + seen.len());
    }
    assert_eq!(seen.len(), legal.len());
    nodes
}

fn plain_perft(state: &TwoPiles, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| plain_perft(&state.play(mv), depth - 1))
        .sum()
}

#[test]
fn picker_perft_hands_out_every_move_once() {
    let state = TwoPiles::new(7, 6, Side::First);
    let mut history = History::new(state.move_index_bound());
    for (i, index) in [3, 0, 5, 1].into_iter().enumerate() {
        history.reward(Side::First, index, i as u32 + 1);
        history.reward(Side::Second, 5 - index, i as u32 + 2);
    }
    for salt in 0..20 {
        assert_eq!(
            picker_perft(&state, 5, &history, salt),
            plain_perft(&state, 5)
        );
    }
    // The noisy picker hands out exactly the noisy moves, wins first.
    let state = TwoPiles::new(3, 2, Side::First);
    let mut picker = MovePicker::noisy();
    let (mut moves, mut scores) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    while let Some(mv) = picker.next(&state, &mut moves, &mut scores, None) {
        out.push(mv);
    }
    let mut noisy = Vec::new();
    state.generate_noisy_moves(&mut noisy);
    assert_eq!(out, noisy);
}

#[test]
fn insertion_sort_is_a_stable_descending_sort() {
    let mut rng = crate::rng::SplitMix64::new(7);
    for len in 0..40 {
        let scores: Vec<i32> = (0..len).map(|_| (rng.next_u64() % 5) as i32).collect();
        let mut moves: Vec<usize> = (0..len).collect();
        let mut sorted_scores = scores.clone();
        stable_sort_descending(&mut moves, &mut sorted_scores);
        let mut expected: Vec<usize> = (0..len).collect();
        expected.sort_by(|&a, &b| scores[b].cmp(&scores[a]));
        assert_eq!(moves, expected);
        assert!(
            moves
                .iter()
                .zip(&sorted_scores)
                .all(|(&m, &s)| scores[m] == s)
        );
    }
}

#[test]
fn killers_and_history_bookkeeping() {
    let mut killers = Killers::new(3);
    killers.record(1, 7u8);
    killers.record(1, 7u8);
    assert_eq!(killers.at(1), [Some(7), None]);
    killers.record(1, 8u8);
    assert_eq!(killers.at(1), [Some(8), Some(7)]);
    assert_eq!(killers.at(0), [None, None]);
    killers.clear();
    assert_eq!(killers.at(1), [None, None]);

    let mut history = History::new(4);
    history.reward(Side::Second, 3, 4);
    assert_eq!(history.score(Side::Second, 3), 16);
    assert_eq!(history.score(Side::First, 3), 0);
    history.age();
    assert_eq!(history.score(Side::Second, 3), 8);
    for _ in 0..100 {
        history.reward(Side::First, 0, 1000);
    }
    assert!(history.score(Side::First, 0) <= HISTORY_MAX);
    history.clear();
    assert_eq!(history.score(Side::Second, 3), 0);
}
