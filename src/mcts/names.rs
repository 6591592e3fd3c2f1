//! MCTS searchers by name, for the command line and the arena: `mcts` (light playouts) and
//! `mcts-heavy` (softmax heavy playouts), both with otherwise default settings.
//!
//! Key invariant: every name in [`MCTS_NAMES`] builds a searcher, and nothing else does.

use super::config::MctsConfig;
use super::playout::HeavyPlayout;
use super::search::Mcts;
use crate::eval::Evaluator;
use crate::game::Game;
use crate::search::searcher::Searcher;

/// The names [`mcts_by_name`] knows.
pub const MCTS_NAMES: [&str; 2] = ["mcts", "mcts-heavy"];

/// The softmax temperature of `mcts-heavy`, in evaluator units.
pub const HEAVY_TEMPERATURE: f64 = 100.0;

/// The playout cut-off of `mcts-heavy`, in plies (heavy plies cost a position and an
/// evaluation per legal move, so its playouts are kept short).
pub const HEAVY_CUTOFF: u32 = 8;

/// The MCTS searcher called `name` (`mcts`: light playouts, [`MctsConfig::default`]; `mcts-heavy`:
/// [`HeavyPlayout::softmax`] at temperature 100, cut off after 8 plies),
/// or `None` for any other name.
pub fn mcts_by_name<G: Game, E: Evaluator<G> + 'static>(
    name: &str,
    evaluator: E,
) -> Option<Box<dyn Searcher<G>>> {
    match name {
        "mcts" => Some(Box::new(Mcts::new(evaluator, MctsConfig::default()))),
        "mcts-heavy" => {
            let config = MctsConfig {
                playout_cutoff: HEAVY_CUTOFF,
                ..MctsConfig::default()
            };
            let heavy = HeavyPlayout::softmax(HEAVY_TEMPERATURE);
            Some(Box::new(Mcts::new(evaluator, config).with_policy(heavy)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
