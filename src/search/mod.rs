//! Searchers: one interface ([`Searcher`]) over plain minimax (the reference every optimisation
//! is checked against), alpha-beta, and principal variation search with its transposition table,
//! move ordering, iterative deepening and threads (Lazy SMP, [`PvsConfig::threads`] /
//! [`Searcher::set_threads`]); plus [`Ponderer`], which lets any searcher think on the
//! opponent's time.
//!
//! Key invariants:
//! - scores are from the side to move's view and are negated only when the side to move changes
//!   from a position to its child (extra turns keep the sign);
//! - `nodes` counts positions made by [`Game::play`] during the search (the root excluded,
//!   quiescence included), so it is a deterministic signature of a fixed-depth, one-thread search
//!   (with several threads it is their sum, which depends on timing);
//! - depth is counted in plies (moves), whoever makes them;
//! - for a game with a repetition rule every searcher counts each position's occurrences in the
//!   game's history (the [`crate::game::GameHistory`] given beside the position) and along the
//!   searched line, and scores a position the rule ends as finished (`repetition.rs`); games
//!   without the rule pay nothing;
//! - no heap allocation in the node loop: move buffers are kept per ply and reused.

pub(crate) mod alphabeta;
pub(crate) mod config;
pub(crate) mod heuristics;
pub(crate) mod iterative;
pub(crate) mod limits;
pub(crate) mod minimax;
pub(crate) mod ordering;
pub(crate) mod ponder;
pub(crate) mod pvs;
pub(crate) mod repetition;
pub(crate) mod searcher;
pub(crate) mod stack;
pub(crate) mod stats;
pub(crate) mod tt;

#[cfg(test)]
mod tests;

pub use alphabeta::AlphaBeta;
pub use config::PvsConfig;
pub use limits::SearchLimits;
pub use minimax::{Minimax, QUIESCENCE_PLIES};
pub use ponder::{PonderOutcome, Ponderer};
pub use pvs::{MAX_THREADS, Pvs};
pub use searcher::{Iteration, PV_INLINE, Pv, SearchResult, Searcher};
pub use stats::SearchStats;
pub use tt::SharedTable;

use crate::eval::Evaluator;
use crate::game::Game;

/// The plain names [`searcher_by_name`] knows (it also knows every rung name of
/// [`PvsConfig::consistency_ladder`] and [`PvsConfig::quiescence_ladder`], such as
/// `pvs+tt+killers` or `pvs+tt+q`).
pub const SEARCHER_NAMES: [&str; 9] = [
    "minimax",
    "minimax+q",
    "alphabeta",
    "pvs",
    "pvs-noq",
    "pvs-noext",
    "pvs-ext",
    "pvs-ext1",
    "pvs-plain",
];

/// A searcher by name: `minimax` ([`Minimax`]), `minimax+q` ([`Minimax::with_quiescence`]),
/// `alphabeta` ([`AlphaBeta`]), `pvs` ([`Pvs`] with [`PvsConfig::full`]), `pvs-noq` (the full
/// configuration without quiescence search, to measure what quiescence is worth), `pvs-noext` /
/// `pvs-ext` (the full configuration with threat extensions forced off / on, to measure what
/// they are worth whatever the default), `pvs-ext1` (the full configuration extending threats at
/// every node with a ply left, [`PvsConfig::extension_depth`] 1, to measure the depth limit),
/// `pvs-plain`
/// ([`PvsConfig::plain`]) or a rung of [`PvsConfig::consistency_ladder`] /
/// [`PvsConfig::quiescence_ladder`] (e.g. `pvs+tt`). An unknown name gives an error listing the
/// valid ones.
pub fn searcher_by_name<G: Game, E: Evaluator<G> + 'static>(
    name: &str,
    evaluator: E,
) -> Result<Box<dyn Searcher<G>>, String> {
    match name {
        "minimax" => return Ok(Box::new(Minimax::new(evaluator))),
        "minimax+q" => return Ok(Box::new(Minimax::with_quiescence(evaluator))),
        "alphabeta" => return Ok(Box::new(AlphaBeta::new(evaluator))),
        "pvs" => return Ok(Box::new(Pvs::new(evaluator, PvsConfig::full()))),
        "pvs-noq" => {
            let config = PvsConfig {
                quiescence: false,
                ..PvsConfig::full()
            };
            return Ok(Box::new(Pvs::new(evaluator, config)));
        }
        "pvs-noext" | "pvs-ext" => {
            let config = PvsConfig {
                threat_extensions: name == "pvs-ext",
                ..PvsConfig::full()
            };
            return Ok(Box::new(Pvs::new(evaluator, config)));
        }
        "pvs-ext1" => {
            let config = PvsConfig {
                threat_extensions: true,
                extension_depth: 1,
                ..PvsConfig::full()
            };
            return Ok(Box::new(Pvs::new(evaluator, config)));
        }
        "pvs-plain" => return Ok(Box::new(Pvs::new(evaluator, PvsConfig::plain()))),
        _ => {}
    }
    let mut ladder = PvsConfig::consistency_ladder();
    ladder.extend(PvsConfig::quiescence_ladder());
    if let Some(&(_, config)) = ladder.iter().find(|(rung, _)| *rung == name) {
        return Ok(Box::new(Pvs::new(evaluator, config)));
    }
    let rungs: Vec<&str> = ladder.iter().map(|&(rung, _)| rung).collect();
    Err(format!(
        "unknown searcher '{name}' (valid: {}; exact ladders: {})",
        SEARCHER_NAMES.join(", "),
        rungs.join(", ")
    ))
}
