//! Unit tests of `eval` in `plies-tafl`, a child module so they reach its private items.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use super::*;
use crate::variants::start_of;
use plies::rng::SplitMix64;
use plies::{Game, Notation, Tunable};

#[test]
fn the_shipped_brandub_weights_load_and_differ_from_full() {
    let tuned = TaflEvaluator::brandub();
    assert_ne!(tuned.parameters(), TaflEvaluator::full().parameters());
    // Every weight is named in the file, in the evaluator's order.
    let names = tuned.parameter_names();
    let values = plies::weights::parse_weights(BRANDUB_WEIGHTS, &names).unwrap();
    assert_eq!(values, tuned.parameters());
    assert!(BRANDUB_WEIGHTS.contains("# produced by: tafl tune init"));
}

#[test]
fn presets_by_name_and_symmetry() {
    for name in EVALUATOR_NAMES {
        assert!(TaflEvaluator::by_name(name).is_ok());
    }
    assert!(
        TaflEvaluator::by_name("nope")
            .unwrap_err()
            .contains("material")
    );
    let start = start_of("brandub").unwrap();
    let flipped = Tafl::new(start.rules, start.board, Side::Second);
    let e = TaflEvaluator::full();
    assert_eq!(e.evaluate(&start), -e.evaluate(&flipped));
}

#[test]
fn open_routes_are_worth_more() {
    // Brandub (corner escape): the king on c7 sees both top corners a7 and g7; on c6 he
    // sees none. Only the routes term differs between the two positions.
    let two = Tafl::parse_position("brandub /3t3/7/7/7/7/7/2K4/ a").unwrap();
    let none = Tafl::parse_position("brandub /3t3/7/7/7/7/2K4/7/ a").unwrap();
    let e = TaflEvaluator {
        king_routes: 100,
        ..TaflEvaluator::material()
    };
    assert_eq!(
        e.evaluate(&none).raw() - e.evaluate(&two).raw(),
        200,
        "attackers to move: two routes cost them 200"
    );
}

#[test]
fn threats_the_king_can_make_next_move_count() {
    // Brandub (corner escape), king on c6, an attacker on d1. His one-move squares that see a
    // corner: c7 (a7 and g7), a6 (a7 and a1), g6 (g7 and g1) and c1 (a1; g1 is blocked by d1):
    // four. b6, d6, e6, f6 and c5..c2 are off the edge and see none.
    let state = Tafl::parse_position("brandub /3t3/7/7/7/7/2K4/7/ a").unwrap();
    let e = TaflEvaluator {
        king_threats: 10,
        ..TaflEvaluator::material()
    };
    assert_eq!(
        TaflEvaluator::material().evaluate(&state).raw() - e.evaluate(&state).raw(),
        40,
        "attackers to move: four threats cost them 40"
    );
    // At the start the king on d4 is boxed in by his own defenders: no threat.
    let start = start_of("brandub").unwrap();
    assert_eq!(
        e.evaluate(&start),
        TaflEvaluator::material().evaluate(&start)
    );
}

/// Real positions: three variants' starts, the two of `open_routes_are_worth_more`, and
/// every tenth position of a random game from each start.
fn sample_positions() -> Vec<Tafl> {
    let mut positions: Vec<Tafl> = ["brandub", "tablut", "copenhagen"]
        .iter()
        .map(|name| start_of(name).unwrap())
        .collect();
    positions.push(Tafl::parse_position("brandub /3t3/7/7/7/7/7/2K4/ a").unwrap());
    positions.push(Tafl::parse_position("brandub /3t3/7/7/7/7/2K4/7/ a").unwrap());
    let mut rng = SplitMix64::new(17);
    let mut moves = Vec::new();
    for start in positions.clone() {
        let mut state = start;
        for ply in 1..=40 {
            moves.clear();
            state.generate_moves(&mut moves);
            if moves.is_empty() || state.outcome().is_some() {
                break;
            }
            state = Game::play(&state, moves[rng.below(moves.len())]);
            if ply % 10 == 0 {
                positions.push(state);
            }
        }
    }
    positions
}

/// `e` with the weight called `name` raised by `delta`, through [`Tunable::set_parameters`].
fn nudged(e: &TaflEvaluator, name: &str, delta: i32) -> TaflEvaluator {
    let index = e
        .parameter_names()
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("no weight called {name}"));
    let mut values = e.parameters();
    values[index] += delta;
    let mut changed = *e;
    changed.set_parameters(&values).unwrap();
    changed
}

#[test]
fn tunable_round_trip_keeps_every_evaluation() {
    let positions = sample_positions();
    assert!(positions.len() > 5);
    for name in EVALUATOR_NAMES {
        let original = TaflEvaluator::by_name(name).unwrap();
        let mut copy = TaflEvaluator {
            attacker: -1,
            ..TaflEvaluator::material()
        };
        copy.set_parameters(&original.parameters()).unwrap();
        assert_eq!(copy, original, "{name}");
        assert_eq!(copy.parameters(), original.parameters(), "{name}");
        for state in &positions {
            assert_eq!(copy.evaluate(state), original.evaluate(state), "{name}");
        }
    }
}

#[test]
fn tunable_names_are_the_fields_in_order() {
    let e = TaflEvaluator::default();
    let names = e.parameter_names();
    let values = e.parameters();
    assert_eq!(names.len(), values.len());
    assert_eq!(names.len(), 9);
    let unique: std::collections::HashSet<&String> = names.iter().collect();
    assert_eq!(unique.len(), names.len(), "duplicate names in {names:?}");
    // The defaults (the `full` preset), field by field.
    assert_eq!(
        values,
        vec![
            e.attacker,
            e.defender,
            e.king_mobility,
            e.king_pressure,
            e.king_progress,
            e.attacker_guard,
            e.defender_edge,
            e.king_routes,
            e.king_threats
        ]
    );
    assert_eq!(values, vec![100, 180, 12, 60, 15, 20, 15, 150, 40]);
    // Distinct values land in the field of the same name.
    let mut set = e;
    set.set_parameters(&[1, 2, 3, 4, 5, 6, 7, 8, 9]).unwrap();
    let expected = TaflEvaluator {
        attacker: 1,
        defender: 2,
        king_mobility: 3,
        king_pressure: 4,
        king_progress: 5,
        attacker_guard: 6,
        defender_edge: 7,
        king_routes: 8,
        king_threats: 9,
    };
    assert_eq!(set, expected);
    assert_eq!(
        names,
        [
            "attacker",
            "defender",
            "king_mobility",
            "king_pressure",
            "king_progress",
            "attacker_guard",
            "defender_edge",
            "king_routes",
            "king_threats"
        ]
    );
}

#[test]
fn tunable_wrong_length_changes_nothing() {
    let original = TaflEvaluator::pst();
    let mut e = original;
    for len in [0, 1, 8, 10, 16] {
        let values: Vec<i32> = (0..len).map(|i| i + 1).collect();
        let err = e.set_parameters(&values).unwrap_err();
        assert_eq!(
            err,
            plies::ParameterError::WrongCount {
                expected: 9,
                got: len as usize
            }
        );
        assert!(err.to_string().contains(&len.to_string()), "{err}");
        assert_eq!(e, original);
    }
    let valid = vec![7; 9];
    e.set_parameters(&valid).unwrap();
    assert_eq!(e.parameters(), valid);
}

#[test]
fn one_tuned_weight_moves_the_score_by_its_term() {
    // Brandub start (corner escape), attackers to move, so the score is minus the
    // defenders' view. Attackers d7, d6, a4, b4, f4, g4, d2, d1: d7, a4, g4 and d1 are 3
    // steps from the nearest corner, d6, b4, f4 and d2 4 steps, so 4 guards. The king on
    // d4 is 6 steps from every corner: progress 2 * (7 - 1) - 6 = 6. No defender is on the
    // edge.
    let start = start_of("brandub").unwrap();
    assert_eq!(start.side, Side::First);
    // Defenders a6, g3, b1 on the edge and c5 inside; the king d4 is inside too.
    let edges = Tafl::parse_position("brandub /3t3/T6/2T4/3K3/6T/7/1T5/ a").unwrap();
    let base = TaflEvaluator::full();
    let cases = [
        (&start, "attacker_guard", 4),
        (&start, "king_progress", -6),
        (&start, "defender_edge", 0),
        (&edges, "defender_edge", 3),
    ];
    for (state, name, per_unit) in cases {
        let tuned = nudged(&base, name, 10);
        assert_ne!(tuned, base);
        assert_eq!(
            tuned.evaluate(state).raw() - base.evaluate(state).raw(),
            10 * per_unit,
            "{name} on {}",
            state.format_position()
        );
    }
}
