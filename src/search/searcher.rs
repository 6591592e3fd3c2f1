//! The one interface every searcher offers ([`Searcher`]) and what it answers: the
//! [`SearchResult`] of a search and the [`Iteration`]s it reports on the way.
//!
//! Key invariant: a search is given what it searches (a position and the game's history up to
//! it) apart from how long it may search ([`SearchLimits`]); the answer's move is legal in the
//! position, or `None` exactly when the position is over.

use std::sync::Arc;

use smallvec::SmallVec;

use crate::eval::Score;
use crate::game::{Game, GameHistory, Outcome, Side};
use crate::search::limits::SearchLimits;
use crate::search::stats::SearchStats;
use crate::solve::Probe;

/// Moves of a principal variation kept inline, without a heap allocation (a longer line spills
/// to the heap once).
pub const PV_INLINE: usize = 32;

/// A principal variation, best move first: a [`SmallVec`] holding [`PV_INLINE`] moves inline,
/// so that reporting an iteration or answering a search allocates nothing for the usual line.
pub type Pv<M> = SmallVec<[M; PV_INLINE]>;

/// One more line of a MultiPV search ([`SearchLimits::multipv`]): a root move other than the
/// ones before it, its value and its principal variation (that move first).
#[derive(Clone, Debug, PartialEq)]
pub struct RootLine<M> {
    /// The root value of this line for the side to move.
    pub score: Score,
    /// The line, its root move first.
    pub pv: Pv<M>,
}

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
    pub pv: Pv<M>,
    /// Statistics of the whole search so far.
    pub stats: SearchStats,
    /// The next best root moves with their values and lines, best first, when
    /// [`SearchLimits::multipv`] asks for more than one (only `pvs` reports them; each is a
    /// search of the root without the moves of the lines before it, so a line's value is
    /// exact for its depth like the first one's).
    pub more_lines: Vec<RootLine<M>>,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the root position is over.
    pub best_move: Option<M>,
    /// The root value for the side to move (of the last completed iteration).
    pub score: Score,
    /// The principal variation, starting with `best_move`.
    pub pv: Pv<M>,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// Statistics of the whole search.
    pub stats: SearchStats,
}

impl<M> SearchResult<M> {
    /// The answer for a root position whose game is over: no move, the terminal score from the
    /// side to move's view, nothing searched.
    #[must_use]
    pub fn game_over(outcome: Outcome, to_move: Side) -> SearchResult<M> {
        SearchResult {
            best_move: None,
            score: Score::terminal(outcome, to_move, 0),
            pv: Pv::new(),
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
    ///
    /// `history` is the game up to `state` (see [`GameHistory::before`]): a searcher of a game
    /// with a repetition rule counts each position's occurrences in it and along the searched
    /// line; games without the rule ignore it. What is searched (`state` in `history`) is apart
    /// from how long (`limits`).
    fn search_with(
        &mut self,
        state: &G,
        history: &GameHistory,
        limits: &SearchLimits,
        on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move>;

    /// [`Searcher::search_with`] in the game `history`, without a per-iteration callback.
    fn search_in(
        &mut self,
        state: &G,
        history: &GameHistory,
        limits: &SearchLimits,
    ) -> SearchResult<G::Move> {
        self.search_with(state, history, limits, &mut |_| {})
    }

    /// [`Searcher::search_with`] of `state` without a known past (no repetition counted before
    /// it) and without a per-iteration callback.
    fn search(&mut self, state: &G, limits: &SearchLimits) -> SearchResult<G::Move> {
        self.search_with(state, &GameHistory::default(), limits, &mut |_| {})
    }

    /// Forgets everything learnt so far (tables, history): the next search starts cold, as a
    /// new game would.
    fn clear(&mut self) {}

    /// Whether this searcher keeps a transposition table, so that the `tt_*` figures of
    /// [`SearchStats`] mean something (they are zeros otherwise). `false` by default.
    fn has_transposition_table(&self) -> bool {
        false
    }

    /// Whether this searcher searches by depth, so that [`SearchResult::depth`] is the depth
    /// of its last completed iteration. `true` by default; `false` for one whose `depth` is
    /// something else (MCTS: the length of its principal variation).
    fn searches_by_depth(&self) -> bool {
        true
    }

    /// Whether this searcher uses endgame tables ([`Searcher::set_endgame_tables`] accepts
    /// them): ask this before building or loading any. `false` by default.
    fn supports_endgame_tables(&self) -> bool {
        false
    }

    /// Uses endgame tables from the next search on: a position they hold is scored with its
    /// exact value instead of being searched (`None` stops using them). In a game with a
    /// repetition rule they are not used: their values ignore the rule.
    ///
    /// # Errors
    /// [`SearcherError::NoEndgameTables`] from a searcher that does not use them (the default;
    /// see [`Searcher::supports_endgame_tables`]).
    fn set_endgame_tables(
        &mut self,
        tables: Option<Arc<dyn Probe<G>>>,
    ) -> Result<(), SearcherError> {
        match tables {
            None => Ok(()),
            Some(_) => Err(SearcherError::NoEndgameTables {
                searcher: self.name(),
            }),
        }
    }

    /// Searches with `threads` threads from the next search on (1, the default, is the
    /// deterministic search).
    ///
    /// # Errors
    /// [`SearcherError::OneThread`] for any count but 1 from a searcher that searches with one
    /// thread only (the default); [`SearcherError::Threads`] for a count outside
    /// `1..=`[`crate::search::MAX_THREADS`].
    fn set_threads(&mut self, threads: usize) -> Result<(), SearcherError> {
        if threads == 1 {
            Ok(())
        } else {
            Err(SearcherError::OneThread {
                searcher: self.name(),
                threads,
            })
        }
    }
}

/// Why a searcher refused a setting ([`Searcher::set_endgame_tables`], [`Searcher::set_threads`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SearcherError {
    /// Endgame tables given to a searcher that does not use them.
    NoEndgameTables {
        /// The searcher's name.
        searcher: String,
    },
    /// More than one thread asked of a searcher that searches with one only.
    OneThread {
        /// The searcher's name.
        searcher: String,
        /// The count asked for.
        threads: usize,
    },
    /// A thread count outside `1..=max`.
    Threads {
        /// The count asked for.
        threads: usize,
        /// The most threads the searcher takes.
        max: usize,
    },
}

impl std::fmt::Display for SearcherError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearcherError::NoEndgameTables { searcher } => {
                write!(f, "{searcher} does not use endgame tables")
            }
            SearcherError::OneThread { searcher, threads } => {
                write!(f, "{searcher} searches with one thread only, not {threads}")
            }
            SearcherError::Threads { threads, max } => {
                write!(f, "expected 1..={max} threads, not {threads}")
            }
        }
    }
}

impl std::error::Error for SearcherError {}
