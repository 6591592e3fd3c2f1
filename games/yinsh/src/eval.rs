//! The Yinsh evaluator, from the side to move's view: rings removed (dominant), markers on the
//! board, ring mobility, and row threats (lines of five with four of one's markers and none of
//! the opponent's).
//!
//! The weights are tunable ([`plies::Tunable`]): four integers named after the fields.
//!
//! Key invariant: values stay well inside `±Score::MAX_EVAL`, and swapping colours negates.

use plies::{Evaluator, Game, Score, Side};

use crate::board::window_masks;
use crate::rows::marker;
use crate::state::Yinsh;

plies::tunable_weights! {
    /// Weighted sum of rings removed, markers, mobility and row threats; every field is a
    /// weight ([`plies::Tunable`]), named after the field, in declaration order.
    pub struct YinshEvaluator {
        /// Per ring removed.
        pub ring: i32 = 1000,
        /// Per marker on the board.
        pub marker: i32 = 10,
        /// Per legal ring move.
        pub mobility: i32 = 1,
        /// Per line of five holding four own markers and no opposing one.
        pub threat: i32 = 25,
    }
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

impl YinshEvaluator {
    fn side_value(&self, state: &Yinsh, side: Side) -> i32 {
        let own = state.cells_with(marker(side));
        let other = state.cells_with(marker(side.opponent()));
        let threats = window_masks()
            .iter()
            .filter(|&&w| (own & w).count_ones() == 4 && other & w == 0)
            .count() as i32;
        self.ring * i32::from(state.removed(side))
            + self.marker * own.count_ones() as i32
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

#[cfg(test)]
mod tests;
