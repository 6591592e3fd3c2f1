//! [`TaflEvaluator`]: a weighted sum of switchable terms — material, the king's distance to
//! escape, piece-square tables generated from the board geometry, the king's mobility, the
//! attackers pressing on him and his open routes to escape squares. Named presets
//! ([`TaflEvaluator::by_name`]) switch terms off to measure each in the arena.
//!
//! The weights are tunable ([`plies::Tunable`]): nine integers named after the fields.
//!
//! Key invariant: the score is from the side to move's view and symmetric: swapping the sides'
//! roles negates it; a zero weight switches its term off entirely. Cheap on purpose (one pass
//! over the pieces).

use plies::bits::set_bits;
use plies::{Evaluator, Score, Side};

use crate::board::Piece;
use crate::rules::NONE;
use crate::state::Tafl;

plies::tunable_weights! {
    /// Weights of [`TaflEvaluator`], in centipawn-like units for the defenders; the defaults are
    /// the `full` preset. Every field is a weight ([`plies::Tunable`]), named after the field, in
    /// declaration order.
    pub struct TaflEvaluator {
        /// Value of one attacker taflman.
        pub attacker: i32 = 100,
        /// Value of one defender taflman.
        pub defender: i32 = 180,
        /// Bonus per empty square the king can reach in one move.
        pub king_mobility: i32 = 12,
        /// Penalty per attacker next to the king.
        pub king_pressure: i32 = 60,
        /// Bonus per step the king is closer to his nearest escape square (Manhattan distance).
        pub king_progress: i32 = 15,
        /// Piece-square term for the attackers: bonus per attacker on a square 2 or 3 steps
        /// from an escape square (where it blocks the king's approach without being caught
        /// against a hostile corner), from the board geometry.
        pub attacker_guard: i32 = 20,
        /// Piece-square term for the defenders: penalty per defender on the board edge (where
        /// shieldwalls and the edge catch them).
        pub defender_edge: i32 = 15,
        /// Bonus per escape square the king can reach in one move (two routes usually win).
        pub king_routes: i32 = 150,
        /// Bonus per square (not itself an escape) the king can reach in one move from which he
        /// would see an escape square: a threat he can make next move, two of them a fork.
        pub king_threats: i32 = 40,
    }
}

/// The names [`TaflEvaluator::by_name`] accepts, simplest first.
pub const EVALUATOR_NAMES: &[&str] = &["material", "distance", "classic", "pst", "full", "brandub"];

/// The weights of the `brandub` preset: the `full` evaluator tuned for Brandub by SPSA, as a
/// weights file ([`plies::weights`]) whose header records the tuning run and the match that
/// measured it. Read when the preset is made.
pub const BRANDUB_WEIGHTS: &str = include_str!("../weights/brandub.txt");

impl TaflEvaluator {
    /// Material only: `distance` without the king's distance to escape.
    #[must_use]
    pub fn material() -> TaflEvaluator {
        TaflEvaluator {
            king_progress: 0,
            ..TaflEvaluator::distance()
        }
    }

    /// Material and the king's distance to escape: `classic` without king mobility and
    /// pressure.
    #[must_use]
    pub fn distance() -> TaflEvaluator {
        TaflEvaluator {
            king_mobility: 0,
            king_pressure: 0,
            ..TaflEvaluator::classic()
        }
    }

    /// The first evaluator of this crate: material, distance, king mobility and pressure
    /// (`pst` without the piece-square tables).
    #[must_use]
    pub fn classic() -> TaflEvaluator {
        TaflEvaluator {
            attacker_guard: 0,
            defender_edge: 0,
            ..TaflEvaluator::pst()
        }
    }

    /// `classic` plus the piece-square tables (`full` without the escape routes and threats).
    #[must_use]
    pub fn pst() -> TaflEvaluator {
        TaflEvaluator {
            king_routes: 0,
            king_threats: 0,
            ..TaflEvaluator::full()
        }
    }

    /// Every term (the default weights): `pst` plus the king's escape routes and the escape
    /// threats he can make.
    #[must_use]
    pub fn full() -> TaflEvaluator {
        TaflEvaluator::default()
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

    /// The squares (escapes excepted) the king on `k` reaches in one move from which he would
    /// see an escape square (the board as it is: his own square still counts as occupied).
    /// With corner escapes only squares on the edge can see a corner.
    fn king_threats(&self, state: &Tafl, k: usize) -> i32 {
        let r = state.rules;
        let mut threats = 0;
        state.for_each_target(k, Piece::King, |to| {
            if !state.escaped(to) && (r.edge_escape || r.is_edge(to)) && state.sees_escape_from(to)
            {
                threats += 1;
            }
            true
        });
        threats
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
        if self.king_threats != 0 {
            value += self.king_threats * self.king_threats(state, k);
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

#[cfg(test)]
mod tests;
