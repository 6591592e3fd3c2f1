//! Hus evaluators, from the side to move's view: [`SeedDifference`] (material),
//! [`Mobility`] (pits with 2+ seeds: a side without one has lost), [`CaptureThreats`] (the
//! largest capture a first lap could make) and [`HusEvaluator`], a weighted sum of the three.
//!
//! Key invariant: every value is within `±Score::MAX_EVAL` and symmetric: swapping the two rows
//! and the side to move gives the same value.

use plies::{Evaluator, Game, Score, Side};

use crate::state::{Hus, PITS};

/// My seeds minus the opponent's.
#[derive(Copy, Clone, Debug, Default)]
pub struct SeedDifference;

impl Evaluator<Hus> for SeedDifference {
    fn evaluate(&self, state: &Hus) -> Score {
        let me = state.side_to_move();
        Score::cp(state.total(me) as i32 - state.total(me.opponent()) as i32)
    }
}

/// My pits with 2+ seeds minus the opponent's.
#[derive(Copy, Clone, Debug, Default)]
pub struct Mobility;

impl Evaluator<Hus> for Mobility {
    fn evaluate(&self, state: &Hus) -> Score {
        let me = state.side_to_move();
        Score::cp(state.playable_pits(me) as i32 - state.playable_pits(me.opponent()) as i32)
    }
}

/// The largest number of seeds `side` could capture on the first lap of one move: the move's
/// last pit is an inner pit that already holds seeds and faces a non-empty opponent pit.
/// Relays are not followed, so this is a cheap estimate.
pub fn capture_threat(state: &Hus, side: Side) -> u32 {
    let mine = &state.rows()[side.index()];
    let theirs = &state.rows()[side.opponent().index()];
    let mut best = 0;
    for (pit, &seeds) in mine.iter().enumerate() {
        if seeds < 2 {
            continue;
        }
        let end = (pit + usize::from(seeds)) % PITS;
        if end >= 16 && end != pit && mine[end] > 0 && theirs[47 - end] > 0 {
            best = best.max(u32::from(theirs[47 - end]) + u32::from(theirs[end - 16]));
        }
    }
    best
}

/// My best first-lap capture minus the opponent's.
#[derive(Copy, Clone, Debug, Default)]
pub struct CaptureThreats;

impl Evaluator<Hus> for CaptureThreats {
    fn evaluate(&self, state: &Hus) -> Score {
        let me = state.side_to_move();
        Score::cp(capture_threat(state, me) as i32 - capture_threat(state, me.opponent()) as i32)
    }
}

plies::tunable_weights! {
    /// `seeds·SeedDifference + mobility·Mobility + threats·CaptureThreats`; every field is a
    /// weight ([`plies::Tunable`]), named after the field, in declaration order.
    pub struct HusEvaluator {
        /// Weight per seed of material.
        pub seeds: i32 = 10,
        /// Weight per playable pit.
        pub mobility: i32 = 3,
        /// Weight per seed of capture threat.
        pub threats: i32 = 4,
    }
}

/// The weights of [`HusEvaluator::tuned`]: a weights file ([`plies::weights`]) shipped with the
/// crate (`weights/hus.txt`), whose header records the tuning run that produced it and the match
/// that measured it. Read when `tuned` is called.
pub const TUNED_WEIGHTS: &str = include_str!("../weights/hus.txt");

impl HusEvaluator {
    /// The default weights tuned by SPSA (`TUNED_WEIGHTS`); the hus bot plays with these.
    #[must_use]
    pub fn tuned() -> HusEvaluator {
        plies::weights::shipped(HusEvaluator::default(), TUNED_WEIGHTS)
    }
}

impl Evaluator<Hus> for HusEvaluator {
    fn evaluate(&self, state: &Hus) -> Score {
        let seeds = SeedDifference.evaluate(state).raw();
        let mobility = Mobility.evaluate(state).raw();
        let threats = CaptureThreats.evaluate(state).raw();
        Score::cp(self.seeds * seeds + self.mobility * mobility + self.threats * threats)
    }
}

#[cfg(test)]
mod tests;
