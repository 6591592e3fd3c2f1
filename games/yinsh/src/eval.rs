//! The Yinsh evaluator, from the side to move's view: rings removed (dominant), markers on the
//! board, ring mobility, and row threats (lines of five with four of one's markers and none of
//! the opponent's).
//!
//! The weights are tunable ([`plies::Tunable`]): four integers named after the fields.
//!
//! Key invariant: values stay well inside `±Score::MAX_EVAL`, and swapping colours negates.

use plies::{Evaluator, Game, Score, Side, Tunable};

use crate::board::windows;
use crate::rows::marker;
use crate::state::Yinsh;

/// Weighted sum of rings removed, markers, mobility and row threats.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct YinshEvaluator {
    /// Per ring removed.
    pub ring: i32,
    /// Per marker on the board.
    pub marker: i32,
    /// Per legal ring move.
    pub mobility: i32,
    /// Per line of five holding four own markers and no opposing one.
    pub threat: i32,
}

/// The weights of [`YinshEvaluator::tuned`]: a weights file ([`plies::weights`]) shipped with the
/// crate (`weights/yinsh.txt`), whose header records the tuning run that produced it and the match
/// that measured it. Read when `tuned` is called.
pub const TUNED_WEIGHTS: &str = include_str!("../weights/yinsh.txt");

impl YinshEvaluator {
    /// The default weights tuned by SPSA (`TUNED_WEIGHTS`); the yinsh bot plays with these.
    #[must_use]
    pub fn tuned() -> YinshEvaluator {
        plies::weights::shipped(YinshEvaluator::default(), TUNED_WEIGHTS)
    }
}

impl Default for YinshEvaluator {
    fn default() -> Self {
        YinshEvaluator {
            ring: 1000,
            marker: 10,
            mobility: 1,
            threat: 25,
        }
    }
}

impl YinshEvaluator {
    fn side_value(&self, state: &Yinsh, side: Side) -> i32 {
        let own = marker(side);
        let other = marker(side.opponent());
        let mut markers = 0;
        let mut threats = 0;
        for w in windows() {
            let mut mine = 0;
            let mut theirs = 0;
            for &c in w {
                let content = state.cell(usize::from(c));
                mine += i32::from(content == own);
                theirs += i32::from(content == other);
            }
            if mine == 4 && theirs == 0 {
                threats += 1;
            }
        }
        for cell in 0..crate::board::CELLS {
            markers += i32::from(state.cell(cell) == own);
        }
        self.ring * i32::from(state.removed(side))
            + self.marker * markers
            + self.mobility * state.ring_move_count(side) as i32
            + self.threat * threats
    }
}

impl Evaluator<Yinsh> for YinshEvaluator {
    fn evaluate(&self, state: &Yinsh) -> Score {
        let me = state.side_to_move();
        let value = self.side_value(state, me) - self.side_value(state, me.opponent());
        Score::cp(value)
    }
}

/// The names of [`YinshEvaluator`]'s weights, in the order of [`Tunable::parameters`].
const PARAMETER_NAMES: [&str; 4] = ["ring", "marker", "mobility", "threat"];

/// Every field is a weight, named after the field, in declaration order (4 weights): `ring`,
/// `marker`, `mobility`, `threat`. Nothing is precomputed from them.
impl Tunable for YinshEvaluator {
    fn parameter_names(&self) -> Vec<String> {
        PARAMETER_NAMES
            .iter()
            .map(|&name| name.to_string())
            .collect()
    }

    fn parameters(&self) -> Vec<i32> {
        // Destructured without `..`, so a new field cannot be forgotten here.
        let YinshEvaluator {
            ring,
            marker,
            mobility,
            threat,
        } = *self;
        vec![ring, marker, mobility, threat]
    }

    fn set_parameters(&mut self, values: &[i32]) -> Result<(), String> {
        match *values {
            [ring, marker, mobility, threat] => {
                *self = YinshEvaluator {
                    ring,
                    marker,
                    mobility,
                    threat,
                };
                Ok(())
            }
            _ => Err(format!(
                "YinshEvaluator has {} weights, got {}",
                PARAMETER_NAMES.len(),
                values.len()
            )),
        }
    }
}

#[cfg(test)]
mod tests;
