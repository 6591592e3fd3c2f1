//! [`TaflEvaluator`]: a weighted sum of switchable terms — material, the king's distance to
//! escape, piece-square tables generated from the board geometry, the king's mobility, the
//! attackers pressing on him and his open routes to escape squares. Named presets
//! ([`TaflEvaluator::by_name`]) switch terms off to measure each in the arena.
//!
//! The weights are tunable ([`plies::Tunable`]): eight integers named after the fields.
//!
//! Key invariant: the score is from the side to move's view and symmetric: swapping the sides'
//! roles negates it; a zero weight switches its term off entirely. Cheap on purpose (one pass
//! over the pieces).

use plies::bits::set_bits;
use plies::{Evaluator, Score, Side, Tunable};

use crate::board::Piece;
use crate::rules::NONE;
use crate::state::Tafl;

/// Weights of [`TaflEvaluator`], in centipawn-like units for the defenders.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TaflEvaluator {
    /// Value of one attacker taflman.
    pub attacker: i32,
    /// Value of one defender taflman.
    pub defender: i32,
    /// Bonus per empty square the king can reach in one move.
    pub king_mobility: i32,
    /// Penalty per attacker next to the king.
    pub king_pressure: i32,
    /// Bonus per step the king is closer to his nearest escape square (Manhattan distance).
    pub king_progress: i32,
    /// Piece-square term for the attackers: bonus per attacker on a square 2 or 3 steps
    /// from an escape square (where it blocks the king's approach without being caught
    /// against a hostile corner), from the board geometry.
    pub attacker_guard: i32,
    /// Piece-square term for the defenders: penalty per defender on the board edge (where
    /// shieldwalls and the edge catch them).
    pub defender_edge: i32,
    /// Bonus per escape square the king can reach in one move (two routes usually win).
    pub king_routes: i32,
}

/// The names [`TaflEvaluator::by_name`] accepts, simplest first.
pub const EVALUATOR_NAMES: &[&str] = &["material", "distance", "classic", "pst", "full", "brandub"];

/// The weights of the `brandub` preset: the `full` evaluator tuned for Brandub by SPSA, as a
/// weights file ([`plies::weights`]) whose header records the tuning run and the match that
/// measured it. Read when the preset is made.
pub const BRANDUB_WEIGHTS: &str = include_str!("../weights/brandub.txt");

impl Default for TaflEvaluator {
    /// The `full` preset.
    fn default() -> TaflEvaluator {
        TaflEvaluator::full()
    }
}

impl TaflEvaluator {
    /// Material only.
    #[must_use]
    pub fn material() -> TaflEvaluator {
        TaflEvaluator {
            attacker: 100,
            defender: 180,
            king_mobility: 0,
            king_pressure: 0,
            king_progress: 0,
            attacker_guard: 0,
            defender_edge: 0,
            king_routes: 0,
        }
    }

    /// Material and the king's distance to escape.
    #[must_use]
    pub fn distance() -> TaflEvaluator {
        TaflEvaluator {
            king_progress: 15,
            ..TaflEvaluator::material()
        }
    }

    /// The first evaluator of this crate: material, distance, king mobility and pressure.
    #[must_use]
    pub fn classic() -> TaflEvaluator {
        TaflEvaluator {
            king_mobility: 12,
            king_pressure: 60,
            ..TaflEvaluator::distance()
        }
    }

    /// `classic` plus the piece-square tables.
    #[must_use]
    pub fn pst() -> TaflEvaluator {
        TaflEvaluator {
            attacker_guard: 20,
            defender_edge: 15,
            ..TaflEvaluator::classic()
        }
    }

    /// Every term: `pst` plus the king's escape routes.
    #[must_use]
    pub fn full() -> TaflEvaluator {
        TaflEvaluator {
            king_routes: 150,
            ..TaflEvaluator::pst()
        }
    }

    /// `full` with the weights tuned for Brandub ([`BRANDUB_WEIGHTS`]).
    #[must_use]
    pub fn brandub() -> TaflEvaluator {
        plies::weights::shipped(TaflEvaluator::full(), BRANDUB_WEIGHTS)
    }

    /// The preset called `name` (one of [`EVALUATOR_NAMES`]).
    pub fn by_name(name: &str) -> Result<TaflEvaluator, String> {
        match name.to_ascii_lowercase().as_str() {
            "material" => Ok(TaflEvaluator::material()),
            "distance" => Ok(TaflEvaluator::distance()),
            "classic" => Ok(TaflEvaluator::classic()),
            "pst" => Ok(TaflEvaluator::pst()),
            "full" => Ok(TaflEvaluator::full()),
            "brandub" => Ok(TaflEvaluator::brandub()),
            _ => Err(format!(
                "unknown evaluator '{name}'; known: {}",
                EVALUATOR_NAMES.join(", ")
            )),
        }
    }

    /// The score for the defenders.
    fn defenders_view(&self, state: &Tafl) -> i32 {
        let r = state.rules;
        let dim = r.dim;
        let king = state.king();
        let king_on_board = i32::from(king != NONE);
        let mut value = (i32::from(state.counts[1]) - king_on_board) * self.defender
            - i32::from(state.counts[0]) * self.attacker;
        let rows = &state.board.rows;
        if self.attacker_guard != 0 {
            let mut guards = 0;
            for (rank, &row) in rows[0].iter().enumerate().take(dim) {
                for f in set_bits(row) {
                    let f = f as usize;
                    let d = r.escape_distance[rank * dim + f];
                    guards += i32::from(d == 2 || d == 3);
                }
            }
            value -= self.attacker_guard * guards;
        }
        if self.defender_edge != 0 {
            let mut on_edge = 0;
            for (rank, &row) in rows[1].iter().enumerate().take(dim) {
                on_edge += (row & r.edge_rows[rank]).count_ones() as i32;
            }
            if king != NONE && r.is_edge(king as usize) {
                on_edge -= 1;
            }
            value -= self.defender_edge * on_edge;
        }
        if king == NONE {
            return value;
        }
        let k = king as usize;
        if self.king_progress != 0 {
            let distance = i32::from(r.escape_distance[k]);
            value += self.king_progress * (2 * (dim as i32 - 1) - distance).max(0);
        }
        if self.king_mobility != 0 || self.king_pressure != 0 {
            for d in 0..4 {
                let mut s = r.neighbours[k][d];
                if s != NONE && state.piece_at(s as usize) == Piece::Attacker {
                    value -= self.king_pressure;
                }
                if self.king_mobility != 0 {
                    while s != NONE && state.piece_at(s as usize) == Piece::Empty {
                        value += self.king_mobility;
                        s = r.neighbours[s as usize][d];
                    }
                }
            }
        }
        if self.king_routes != 0 {
            let mut routes = 0;
            state.for_each_target(k, Piece::King, |to| {
                routes += i32::from(state.escaped(to));
                true
            });
            value += self.king_routes * routes;
        }
        value
    }
}

impl Evaluator<Tafl> for TaflEvaluator {
    fn evaluate(&self, state: &Tafl) -> Score {
        let value = self.defenders_view(state);
        Score::cp(if state.side == Side::Second {
            value
        } else {
            -value
        })
    }
}

/// The names of [`TaflEvaluator`]'s weights, in the order of [`Tunable::parameters`].
const PARAMETER_NAMES: [&str; 8] = [
    "attacker",
    "defender",
    "king_mobility",
    "king_pressure",
    "king_progress",
    "attacker_guard",
    "defender_edge",
    "king_routes",
];

/// Every field is a weight, named after the field, in declaration order (8 weights):
/// `attacker`, `defender`, `king_mobility`, `king_pressure`, `king_progress`,
/// `attacker_guard`, `defender_edge`, `king_routes`. Nothing is precomputed from them.
impl Tunable for TaflEvaluator {
    fn parameter_names(&self) -> Vec<String> {
        PARAMETER_NAMES
            .iter()
            .map(|&name| name.to_string())
            .collect()
    }

    fn parameters(&self) -> Vec<i32> {
        // Destructured without `..`, so a new field cannot be forgotten here.
        let TaflEvaluator {
            attacker,
            defender,
            king_mobility,
            king_pressure,
            king_progress,
            attacker_guard,
            defender_edge,
            king_routes,
        } = *self;
        vec![
            attacker,
            defender,
            king_mobility,
            king_pressure,
            king_progress,
            attacker_guard,
            defender_edge,
            king_routes,
        ]
    }

    fn set_parameters(&mut self, values: &[i32]) -> Result<(), String> {
        match *values {
            [
                attacker,
                defender,
                king_mobility,
                king_pressure,
                king_progress,
                attacker_guard,
                defender_edge,
                king_routes,
            ] => {
                *self = TaflEvaluator {
                    attacker,
                    defender,
                    king_mobility,
                    king_pressure,
                    king_progress,
                    attacker_guard,
                    defender_edge,
                    king_routes,
                };
                Ok(())
            }
            _ => Err(format!(
                "TaflEvaluator has {} weights, got {}",
                PARAMETER_NAMES.len(),
                values.len()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::start_of;
    use plies::rng::SplitMix64;
    use plies::{Game, Notation};

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
        assert_eq!(names.len(), 8);
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
                e.king_routes
            ]
        );
        assert_eq!(values, vec![100, 180, 12, 60, 15, 20, 15, 150]);
        // Distinct values land in the field of the same name.
        let mut set = e;
        set.set_parameters(&[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        let expected = TaflEvaluator {
            attacker: 1,
            defender: 2,
            king_mobility: 3,
            king_pressure: 4,
            king_progress: 5,
            attacker_guard: 6,
            defender_edge: 7,
            king_routes: 8,
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
                "king_routes"
            ]
        );
    }

    #[test]
    fn tunable_wrong_length_changes_nothing() {
        let original = TaflEvaluator::pst();
        let mut e = original;
        for len in [0, 1, 7, 9, 16] {
            let values: Vec<i32> = (0..len).map(|i| i + 1).collect();
            let err = e.set_parameters(&values).unwrap_err();
            assert!(err.contains('8') && err.contains(&len.to_string()), "{err}");
            assert_eq!(e, original);
        }
        let valid = vec![7; 8];
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
}
