//! Playout policies: how a simulation picks moves below the tree, and how a playout cut short
//! is scored.
//!
//! Key invariants:
//! - a policy returns an index into the move list it is given (never an illegal move);
//! - every position a policy makes to look ahead (heavy playouts play each move to score it) is
//!   counted in [`PlayoutContext::made`], so node counts stay honest;
//! - every random choice comes from the [`SplitMix64`] handed in, so a seed fixes the playouts.

use crate::eval::{Evaluator, Score};
use crate::game::{Game, MoveClass, Outcome, Side};
use crate::rng::SplitMix64;

/// What a policy may use besides the position: the search's random generator, its evaluator,
/// a scratch buffer and the count of positions made.
pub struct PlayoutContext<'a, G: Game> {
    /// The search's generator (one per tree).
    pub rng: &'a mut SplitMix64,
    /// The search's evaluator.
    pub evaluator: &'a dyn Evaluator<G>,
    /// A reusable buffer (e.g. one score per move); its content on entry is unspecified.
    pub scores: &'a mut Vec<f64>,
    /// Positions the policy made with [`Game::play`]; add to it for every one.
    pub made: u64,
}

/// Picks the moves of a playout. Game crates implement it for game knowledge (e.g. tafl: move
/// the king towards a corner when it can get closer).
pub trait PlayoutPolicy<G: Game>: Send + Sync {
    /// A short name for reports, e.g. `light`.
    fn name(&self) -> String;

    /// The index in `moves` (legal moves of `state`, never empty) of the move to play.
    fn choose(&self, state: &G, moves: &[G::Move], context: &mut PlayoutContext<'_, G>) -> usize;
}

/// Light playouts: every legal move equally likely.
#[derive(Copy, Clone, Debug, Default)]
pub struct LightPlayout;

impl<G: Game> PlayoutPolicy<G> for LightPlayout {
    fn name(&self) -> String {
        "light".to_string()
    }

    #[inline]
    fn choose(&self, _: &G, moves: &[G::Move], context: &mut PlayoutContext<'_, G>) -> usize {
        context.rng.below(moves.len())
    }
}

/// How a [`HeavyPlayout`] turns the evaluator's scores of the moves into a choice.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum HeavyMode {
    /// With probability `epsilon` a uniform move, otherwise the best-scored one.
    EpsilonGreedy {
        /// The share of random moves, 0..=1.
        epsilon: f64,
    },
    /// A move with probability proportional to `exp(score / temperature)`, scores in
    /// centipawn-like evaluator units (a smaller temperature plays closer to greedy).
    Softmax {
        /// In evaluator units, > 0.
        temperature: f64,
    },
}

/// Heavy playouts: each move is played and the position after it scored by the search's
/// evaluator (from the mover's view, so extra turns are scored right); a move that wins at once
/// is always taken. Costs one position and one evaluation per legal move per ply.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct HeavyPlayout {
    /// The choice rule.
    pub mode: HeavyMode,
}

impl HeavyPlayout {
    /// Epsilon-greedy heavy playouts.
    #[must_use]
    pub fn epsilon_greedy(epsilon: f64) -> HeavyPlayout {
        HeavyPlayout {
            mode: HeavyMode::EpsilonGreedy { epsilon },
        }
    }

    /// Softmax heavy playouts.
    #[must_use]
    pub fn softmax(temperature: f64) -> HeavyPlayout {
        HeavyPlayout {
            mode: HeavyMode::Softmax { temperature },
        }
    }
}

impl<G: Game> PlayoutPolicy<G> for HeavyPlayout {
    fn name(&self) -> String {
        match self.mode {
            HeavyMode::EpsilonGreedy { epsilon } => format!("heavy-eps{epsilon}"),
            HeavyMode::Softmax { temperature } => format!("heavy-softmax{temperature}"),
        }
    }

    fn choose(&self, state: &G, moves: &[G::Move], context: &mut PlayoutContext<'_, G>) -> usize {
        if let HeavyMode::EpsilonGreedy { epsilon } = self.mode
            && context.rng.unit() < epsilon
        {
            return context.rng.below(moves.len());
        }
        let mover = state.side_to_move();
        context.scores.clear();
        for (index, &mv) in moves.iter().enumerate() {
            if state.classify(mv) == MoveClass::Win {
                return index;
            }
            let child = state.play(mv);
            context.made += 1;
            let score = match child.outcome() {
                Some(outcome) => f64::from(Score::terminal(outcome, mover, 0).raw()),
                None => {
                    let value = f64::from(context.evaluator.evaluate(&child).raw());
                    if child.side_to_move() == mover {
                        value
                    } else {
                        -value
                    }
                }
            };
            context.scores.push(score);
        }
        let best = context
            .scores
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        match self.mode {
            HeavyMode::EpsilonGreedy { .. } => {
                context.scores.iter().position(|&s| s == best).unwrap_or(0)
            }
            HeavyMode::Softmax { temperature } => {
                let temperature = temperature.max(1e-9);
                let mut total = 0.0;
                for score in context.scores.iter_mut() {
                    *score = ((*score - best) / temperature).exp();
                    total += *score;
                }
                let mut pick = context.rng.unit() * total;
                for (index, &weight) in context.scores.iter().enumerate() {
                    if pick < weight {
                        return index;
                    }
                    pick -= weight;
                }
                moves.len() - 1
            }
        }
    }
}

/// The win probability of a heuristic score for the side it belongs to: the logistic
/// `1 / (1 + exp(-score / scale))`. With `scale` = 200, +200 is worth 73%, +400 88%.
#[inline]
#[must_use]
pub fn win_probability(score: Score, scale: f64) -> f64 {
    1.0 / (1.0 + (-f64::from(score.raw()) / scale).exp())
}

/// The inverse of [`win_probability`]: the heuristic score of a win probability (clamped to
/// 0.1%..99.9% so that it stays finite and well inside the heuristic range).
#[inline]
#[must_use]
pub fn score_of_probability(probability: f64, scale: f64) -> Score {
    let p = probability.clamp(0.001, 0.999);
    Score::cp((scale * (p / (1.0 - p)).ln()).round() as i32)
}

/// The reward of a finished game for `side`: 1 win, 0.5 draw, 0 loss.
#[inline]
#[must_use]
pub fn outcome_reward(outcome: Outcome, side: Side) -> f64 {
    match outcome {
        Outcome::Win(winner) if winner == side => 1.0,
        Outcome::Win(_) => 0.0,
        Outcome::Draw => 0.5,
    }
}

#[cfg(test)]
mod tests;
