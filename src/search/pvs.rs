//! Principal variation search: fail-soft alpha-beta that searches the first move of a node with
//! the full window and the others with a null window, re-searching those that fail high; plus a
//! lock-free transposition table ([`crate::search::tt`]), a staged move picker with killers and
//! history ([`crate::search::ordering`]), quiescence search, mate-distance pruning, late-move
//! reductions, threat extensions and iterative deepening with time management
//! ([`crate::search::iterative`]), each switchable by [`PvsConfig`].
//!
//! Key invariants:
//! - a child with the same side to move (extra turn) gets the window unchanged and its value is
//!   not negated; otherwise `(-beta, -alpha)` and negation;
//! - with `tt_exact_depth` (and without late-move reductions and threat extensions, which change
//!   the tree) the root value equals plain minimax's at the same depth (with `quiescence`:
//!   minimax-with-quiescence's) and the best move is one of its best: a table entry cuts only
//!   when it was searched to exactly the remaining depth. Without it, deeper entries cut too:
//!   stronger and cheaper, but no longer the fixed-depth value. Mate-distance pruning keeps the
//!   value exact (it only narrows windows to values no node can exceed);
//! - quiescence nodes never touch the table, killers or history, so they are value-exact by
//!   construction: fail-soft alpha-beta over the same tree the reference searches (a node with
//!   an immediate win returns `win_in(ply + 1)` at once, the value that win has anyway);
//! - the table never cuts at a PV node (open window), so the principal variation stays whole;
//! - repetition (a game with a repetition rule, history from the [`crate::game::GameHistory`] given to the search): a
//!   position the rule ends is scored as finished ([`crate::search::repetition`]), in quiescence
//!   too. Such a value depends on the path, so a node whose subtree met one stores nothing in the
//!   table; and in a value-exact search (`tt_exact_depth`) the table never cuts for such a game
//!   (its entries only order moves), because a value stored along one path may be wrong along
//!   another whose earlier positions its subtree repeats. A strength search does cut with
//!   path-free entries (the usual graph-history compromise);
//! - when a limit interrupts an iteration, the answer is the last completed iteration's, unless
//!   the interrupted one had already proved another root move better (it raised alpha after
//!   the first move, which is the previous best): that move is played, with its value and a
//!   one-move PV;
//! - `nodes` counts every [`Game::play`] (quiescence included, root excluded);
//! - nothing is allocated in the node loop: move, score and PV buffers are per-ply stacks built
//!   when the search starts.

use std::sync::Arc;

use crate::eval::Evaluator;
use crate::game::Game;
use crate::search::config::PvsConfig;
use crate::search::tt::{SharedTable, TableAllocError};
use crate::solve::Probe;
use thread::MoveHistory;

pub use root::MAX_THREADS;

mod busy;
mod iteration;
mod parallel;
mod quiescence;
mod root;
mod thread;

#[cfg(test)]
mod tests;

/// The principal variation searcher for game `G` with evaluator `E`.
pub struct Pvs<G: Game, E> {
    evaluator: E,
    config: PvsConfig,
    tt: Option<Arc<SharedTable>>,
    /// The main thread's move history (killers and history).
    ordering: MoveHistory<G::Move>,
    /// The helper threads' move histories, kept from search to search ([`PvsConfig::threads`] - 1 of
    /// them once a search with threads has run).
    helpers: Vec<MoveHistory<G::Move>>,
    /// Endgame tables, when set ([`Searcher::set_endgame_tables`]).
    endgame: Option<Arc<dyn Probe<G>>>,
}

impl<G: Game, E: Evaluator<G>> Pvs<G, E> {
    /// A searcher with `config`; allocates its transposition table now.
    ///
    /// # Panics
    /// The allocator refuses the table; [`Pvs::try_new`] returns that as an error instead.
    pub fn new(evaluator: E, config: PvsConfig) -> Pvs<G, E> {
        Self::try_new(evaluator, config).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Pvs::new`], or the error of a transposition table the system cannot allocate.
    ///
    /// # Errors
    /// The allocator refuses the table's memory.
    pub fn try_new(evaluator: E, config: PvsConfig) -> Result<Pvs<G, E>, TableAllocError> {
        let tt = match config.tt_mb {
            0 => None,
            mb => Some(Arc::new(SharedTable::try_new(mb)?)),
        };
        Ok(Pvs {
            evaluator,
            config,
            tt,
            ordering: MoveHistory::new(),
            helpers: Vec::new(),
            endgame: None,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &PvsConfig {
        &self.config
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// Changes the table size to `megabytes` MB, keeping what it holds (0 drops the table; a
    /// searcher without a table gets a fresh one). Call it between searches; to resize during
    /// a search, use the handle of [`Pvs::tt`].
    pub fn resize_tt(&mut self, megabytes: usize) {
        self.config.tt_mb = megabytes;
        match (&self.tt, megabytes) {
            (_, 0) => self.tt = None,
            (Some(tt), mb) => tt.resize(mb),
            (None, mb) => self.tt = Some(Arc::new(SharedTable::new(mb))),
        }
    }

    /// A handle on the transposition table (none without one), for resizing it from another
    /// thread while a search runs: [`SharedTable::resize`] keeps the entries, and every thread
    /// of the search moves to the new table at its next iteration. ([`PvsConfig::tt_mb`] in
    /// [`Pvs::config`] keeps the size set through the searcher; a handle taken before
    /// [`Pvs::resize_tt`] drops the table, with 0, no longer reaches the searcher's later one.)
    #[must_use]
    pub fn tt(&self) -> Option<Arc<SharedTable>> {
        self.tt.clone()
    }
}
