//! Searchers: one interface ([`Searcher`]) over plain minimax (the reference every optimisation
//! is checked against), alpha-beta, and principal variation search with its transposition table,
//! move ordering, iterative deepening and threads (Lazy SMP, [`PvsConfig::threads`] /
//! [`Searcher::set_threads`]); plus [`Ponderer`], which lets any searcher think on the
//! opponent's time.
//!
//! Key invariants:
//! - scores are from the side to move's view and are negated only when the side to move changes
//!   from a position to its child (extra turns keep the sign);
//! - `nodes` counts positions made by [`crate::Game::play`] during the search (the root excluded,
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
pub use limits::{Clock, SearchLimits, SearchProgress};
pub use minimax::{Minimax, QUIESCENCE_EVASION_PLIES, QUIESCENCE_PLIES};
pub use ponder::{PonderOutcome, Ponderer};
pub use pvs::{MAX_THREADS, Pvs};
pub use searcher::{Iteration, PV_INLINE, Pv, RootLine, SearchResult, Searcher, SearcherError};
pub use stats::SearchStats;
pub use tt::{SharedTable, TableAllocError};
