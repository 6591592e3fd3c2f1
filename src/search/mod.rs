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
//!   game's history ([`SearchLimits::history`]) and along the searched line, and scores a
//!   position the rule ends as finished ([`repetition`]); games without the rule pay nothing;
//! - no heap allocation in the node loop: move buffers are kept per ply and reused.

pub mod alphabeta;
pub mod config;
pub(crate) mod heuristics;
pub(crate) mod iterative;
pub(crate) mod limits;
pub mod minimax;
pub(crate) mod ordering;
pub mod ponder;
pub mod pvs;
pub mod repetition;
pub mod stats;
pub(crate) mod tt;

#[cfg(test)]
mod agreement_tests;
#[cfg(test)]
pub(crate) mod maze;
#[cfg(test)]
mod repetition_tests;

pub use alphabeta::AlphaBeta;
pub use iterative::TimePolicy;
pub use limits::SearchLimits;
pub use minimax::Minimax;
pub use ponder::{PonderOutcome, Ponderer};
pub use pvs::{MAX_THREADS, Pvs, PvsConfig};
pub use repetition::Repetitions;
pub use stats::SearchStats;
pub use tt::SharedTable;

use crate::eval::Score;
use crate::game::Game;

/// What one completed iteration of a search found (one line of an analysis report).
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    /// The nominal depth of the iteration, in plies.
    pub depth: u32,
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// The root value for the side to move.
    pub score: Score,
    /// The principal variation, best move first.
    pub pv: Vec<M>,
    /// Statistics of the whole search so far.
    pub stats: SearchStats,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the root position is over.
    pub best_move: Option<M>,
    /// The root value for the side to move (of the last completed iteration).
    pub score: Score,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<M>,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// Statistics of the whole search.
    pub stats: SearchStats,
}

impl<M> SearchResult<M> {
    /// The answer for a root position whose game is over: no move, the terminal score from the
    /// side to move's view, nothing searched.
    #[must_use]
    pub fn game_over(outcome: crate::game::Outcome, to_move: crate::game::Side) -> SearchResult<M> {
        SearchResult {
            best_move: None,
            score: Score::terminal(outcome, to_move, 0),
            pv: Vec::new(),
            depth: 0,
            stats: SearchStats::default(),
        }
    }

    /// The score, or `None` when the search was stopped before it completed any iteration
    /// (`depth` 0 with a move to play): `score` is then a placeholder (a fallback evaluation or
    /// a sentinel such as `-Score::INFINITY`), not a value to show anyone.
    #[must_use]
    pub fn known_score(&self) -> Option<Score> {
        (self.depth > 0 || self.best_move.is_none()).then_some(self.score)
    }
}

/// Anything that picks a move by searching: give a position and limits, get the best move, its
/// score, the principal variation and statistics.
pub trait Searcher<G: Game>: Send {
    /// A short name for reports, e.g. `pvs+tt+killers`.
    fn name(&self) -> String;

    /// Searches `state` within `limits`, calling `on_iteration` after each completed iteration
    /// (searchers without iterative deepening call it once). When a limit interrupts an
    /// iteration, the result is that of the last completed one (or, if none completed, the best
    /// move found so far).
    fn search_with(
        &mut self,
        state: &G,
        limits: &SearchLimits,
        on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move>;

    /// [`Searcher::search_with`] without a per-iteration callback.
    fn search(&mut self, state: &G, limits: &SearchLimits) -> SearchResult<G::Move> {
        self.search_with(state, limits, &mut |_| {})
    }

    /// Forgets everything learnt so far (tables, history): the next search starts cold, as a
    /// new game would.
    fn clear(&mut self) {}

    /// Searches with `threads` threads from the next search on (1, the default, is the
    /// deterministic search). A searcher that cannot use more than one refuses any other count
    /// with a message saying so (the default).
    fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        if threads == 1 {
            Ok(())
        } else {
            Err(format!("{} searches with one thread only", self.name()))
        }
    }
}
