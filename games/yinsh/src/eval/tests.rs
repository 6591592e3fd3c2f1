//! Unit tests of `eval` in `plies-yinsh`, a child module so they reach its private items.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use super::*;

#[test]
fn the_shipped_tuned_weights_load_and_differ_from_the_defaults() {
    let tuned = YinshEvaluator::tuned();
    assert_ne!(tuned, YinshEvaluator::default());
    let values = plies::weights::parse_weights(TUNED_WEIGHTS, &tuned.parameter_names()).unwrap();
    assert_eq!(values, tuned.parameters());
    assert!(TUNED_WEIGHTS.contains("# produced by: yinsh tune init"));
}
use crate::board::{COLUMNS, cell_at, column_range, parse_cell};
use plies::rng::SplitMix64;
use plies::{Notation, Tunable};

#[test]
fn colour_swap_keeps_the_value_and_markers_count() {
    // Opening 2 of docs/rules/yinsh.md after one ring move, and the same with colours swapped.
    let state = Yinsh::start_position()
        .play_line("g2 e7 g3 e2 g4 g7 g5 e4 g6 c6 g2-f2")
        .unwrap();
    let text = state.format_position();
    let (board, rest) = text.split_once(' ').unwrap();
    let swapped_board: String = board
        .chars()
        .map(|c| match c {
            'W' => 'B',
            'B' => 'W',
            'w' => 'b',
            'b' => 'w',
            other => other,
        })
        .collect();
    let swapped_rest = rest.replacen("b move", "w move", 1);
    let swapped = Yinsh::parse_position(&format!("{swapped_board} {swapped_rest}")).unwrap();
    let e = YinshEvaluator::default();
    assert_eq!(e.evaluate(&state), e.evaluate(&swapped));
    // Black to move, White has the only marker: Black is behind on markers.
    let markers_only = YinshEvaluator {
        ring: 0,
        marker: 10,
        mobility: 0,
        threat: 0,
    };
    assert_eq!(markers_only.evaluate(&state), Score::cp(-10));
}

const OPENING_1: &str = "g2 c6 f2 d4 e1 e4 h3 a4 d1 f6";
const OPENING_2: &str = "g2 e7 g3 e2 g4 g7 g5 e4 g6 c6";

/// Real positions: the empty board (normal and Blitz), the two openings of
/// docs/rules/yinsh.md, and every tenth position of a random game from each opening.
fn sample_positions() -> Vec<Yinsh> {
    let empty = Yinsh::start_position();
    let mut positions = vec![
        empty.clone(),
        Yinsh::new(true),
        empty.play_line(OPENING_1).unwrap(),
        empty.play_line(OPENING_2).unwrap(),
    ];
    let mut rng = SplitMix64::new(23);
    let mut moves = Vec::new();
    for start in 2..positions.len() {
        let mut state = positions[start].clone();
        for ply in 1..=60 {
            moves.clear();
            state.generate_moves(&mut moves);
            if moves.is_empty() || state.outcome().is_some() {
                break;
            }
            state = state.play(moves[rng.below(moves.len())]);
            if ply % 10 == 0 {
                positions.push(state.clone());
            }
        }
    }
    positions
}

/// A move-phase position from `(point, symbol)` pairs, every other point empty.
fn position(items: &[(&str, char)], tail: &str) -> Yinsh {
    let mut symbols = ['.'; crate::board::CELLS];
    for &(name, symbol) in items {
        symbols[parse_cell(name).unwrap()] = symbol;
    }
    let board: Vec<String> = (0..COLUMNS)
        .map(|column| {
            let (low, high) = column_range(column);
            (low..=high)
                .map(|row| symbols[cell_at(column, row).unwrap()])
                .collect()
        })
        .collect();
    Yinsh::parse_position(&format!("{} {tail}", board.join("/"))).unwrap()
}

#[test]
fn tunable_round_trip_keeps_every_evaluation() {
    let positions = sample_positions();
    assert!(positions.len() > 6);
    let original = YinshEvaluator::default();
    let mut copy = YinshEvaluator {
        ring: 0,
        marker: 0,
        mobility: 0,
        threat: 0,
    };
    copy.set_parameters(&original.parameters()).unwrap();
    assert_eq!(copy, original);
    assert_eq!(copy.parameters(), original.parameters());
    for state in &positions {
        assert_eq!(copy.evaluate(state), original.evaluate(state));
    }
}

#[test]
fn tunable_names_are_the_fields_in_order() {
    let e = YinshEvaluator::default();
    let names = e.parameter_names();
    let values = e.parameters();
    assert_eq!(names.len(), values.len());
    let unique: std::collections::HashSet<&String> = names.iter().collect();
    assert_eq!(unique.len(), names.len(), "duplicate names in {names:?}");
    assert_eq!(names, ["ring", "marker", "mobility", "threat"]);
    assert_eq!(values, vec![e.ring, e.marker, e.mobility, e.threat]);
    assert_eq!(values, vec![1000, 10, 1, 25]);
    let mut set = e;
    set.set_parameters(&[1, 2, 3, 4]).unwrap();
    assert_eq!(
        set,
        YinshEvaluator {
            ring: 1,
            marker: 2,
            mobility: 3,
            threat: 4,
        }
    );
}

#[test]
fn tunable_wrong_length_changes_nothing() {
    let original = YinshEvaluator::default();
    let mut e = original;
    for len in [0, 1, 3, 5, 8] {
        let values: Vec<i32> = (0..len).map(|i| i + 1).collect();
        let err = e.set_parameters(&values).unwrap_err();
        assert_eq!(
            err,
            plies::ParameterError::WrongCount {
                expected: 4,
                got: len as usize
            }
        );
        assert!(err.to_string().contains(&len.to_string()), "{err}");
        assert_eq!(e, original);
    }
}

#[test]
fn one_tuned_weight_moves_the_score_by_its_term() {
    // White (to move) has removed two rings and has markers e3..e6 in column e (e1..e10):
    // the lines e2-e6 and e3-e7 each hold four white markers and no black one, 2 threats.
    // Black has markers b1..b4 in column b (b1..b7), where only b1-b5 holds all four, 1
    // threat, and h5 and h7 apart: 6 markers to White's 4.
    let state = position(
        &[
            ("e3", 'w'),
            ("e4", 'w'),
            ("e5", 'w'),
            ("e6", 'w'),
            ("b1", 'b'),
            ("b2", 'b'),
            ("b3", 'b'),
            ("b4", 'b'),
            ("h5", 'b'),
            ("h7", 'b'),
            ("i11", 'W'),
            ("j11", 'W'),
            ("h11", 'W'),
            ("k7", 'B'),
            ("k8", 'B'),
            ("k9", 'B'),
            ("k10", 'B'),
            ("j10", 'B'),
        ],
        "w move 2-0 0 normal",
    );
    assert_eq!(state.side_to_move(), Side::First);
    let base = YinshEvaluator::default();
    let names = base.parameter_names();
    // Per unit of the weight, from White's view: threats 2 - 1, markers 4 - 6, rings
    // removed 2 - 0.
    for (name, per_unit) in [("threat", 1), ("marker", -2), ("ring", 2)] {
        let index = names.iter().position(|n| n == name).unwrap();
        let mut values = base.parameters();
        values[index] += 7;
        let mut tuned = base;
        tuned.set_parameters(&values).unwrap();
        assert_eq!(
            tuned.evaluate(&state).raw() - base.evaluate(&state).raw(),
            7 * per_unit,
            "{name}"
        );
    }
}
