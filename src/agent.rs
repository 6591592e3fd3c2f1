//! Move choosers behind one interface: the [`Agent`] trait, a searcher-backed agent
//! ([`SearchAgent`]) and a uniformly random one ([`RandomAgent`]), so the arena can play anything
//! against anything.
//!
//! Key invariants:
//! - an agent is asked for a move whenever `state.side_to_move()` is its side, so games whose
//!   side to move does not alternate (extra turns) need nothing special;
//! - [`Agent::choose`] returns a legal move of the given position, or an [`AgentError`] saying
//!   why it has none ([`AgentError::GameOver`] only when the position is over; the arena treats
//!   any other error, or an illegal move, as a forfeit with the error as its reason);
//! - with a depth or node budget and a fixed seed, an agent's moves depend only on the positions
//!   it was shown since [`Agent::new_game`] — not on earlier games or on the worker thread
//!   (unless it searches with several threads or ponders: both depend on timing).
//!
//! Agents that drive another engine's process (the arena's UGI and OTEP agents) share its
//! lifecycle through [`process::EngineProcess`].

use crate::eval::Score;
use crate::game::{Game, GameHistory};
use crate::rng::SplitMix64;
use crate::search::{Ponderer, SearchLimits, Searcher, SearcherError};

pub mod process;

/// A chosen move with what the agent knows about it (zeros/`None` where it knows nothing).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Choice<M> {
    /// The move to play.
    pub mv: M,
    /// The agent's value of the position for the side to move, if it has one.
    pub score: Option<Score>,
    /// The depth of the search that chose the move; `None` for agents that do not search by
    /// depth (MCTS, see [`Searcher::searches_by_depth`]; random movers, humans).
    pub depth: Option<u32>,
    /// Positions made to choose the move (0 for agents that do not search).
    pub nodes: u64,
}

impl<M> Choice<M> {
    /// A bare move with no search information.
    #[must_use]
    pub fn bare(mv: M) -> Choice<M> {
        Choice {
            mv,
            score: None,
            depth: None,
            nodes: 0,
        }
    }
}

/// Anything that picks moves in a game of `G`: a searcher, MCTS, a random mover, a human.
///
/// The per-move budget is an argument of [`Agent::choose`] so that the arena gives both sides of
/// a match the same limit; an agent may ignore it (random) or override it with its own
/// ([`SearchAgent::with_limits`]).
pub trait Agent<G: Game>: Send {
    /// A short name for tables and game records.
    fn name(&self) -> String;

    /// A new game is about to start. `seed` is derived by the arena from the match seed and the
    /// game's number, so an agent with randomness that reseeds from it plays each game the same
    /// way whichever worker plays it. Agents that learn during a game forget it here.
    fn new_game(&mut self, seed: u64) {
        let _ = seed;
    }

    /// The game starts from `start` (told after [`Agent::new_game`], before any move and outside
    /// the move clocks). An agent that prepares for a position does it here: endgame tables for
    /// Onitama's five cards, say. The default does nothing.
    fn prepare(&mut self, start: &G) {
        let _ = start;
    }

    /// The move to play in `state` (whose side to move is this agent's side) within `budget`.
    /// `history` is the game up to `state` (see [`GameHistory`]): a searching agent passes it
    /// on to its searcher, which needs it for a game with a repetition rule, whatever limits it
    /// searches within.
    ///
    /// # Errors
    /// [`AgentError::GameOver`] when `state` is over; agents that can fail (an external engine
    /// process that crashed, hung or answered garbage) say what happened, and the arena records
    /// it as the forfeit's reason.
    fn choose(
        &mut self,
        state: &G,
        history: &GameHistory,
        budget: &SearchLimits,
    ) -> Result<Choice<G::Move>, AgentError>;

    /// A move was played in the current game: `mv` in `before`, by either side (told to both
    /// agents of a game, after the mover's [`Agent::choose`]). Agents that need the moves
    /// themselves rather than the positions (an external engine is sent the start position and
    /// the moves since) keep them; the default ignores it.
    fn observe(&mut self, before: &G, mv: G::Move) {
        let _ = (before, mv);
    }
}

/// Why an [`Agent`] gave no move.
#[derive(Debug)]
pub enum AgentError {
    /// The position is over: there is no move to choose.
    GameOver,
    /// The agent's searcher refused a setting (endgame tables it does not use, say).
    Searcher(SearcherError),
    /// The agent failed: an external engine that crashed, hung or answered garbage, with what
    /// happened.
    Failed(Box<dyn std::error::Error + Send + Sync>),
}

impl std::fmt::Display for AgentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AgentError::GameOver => f.write_str("the game is over: there is no move to choose"),
            AgentError::Searcher(e) => write!(f, "{e}"),
            AgentError::Failed(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AgentError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AgentError::GameOver => None,
            AgentError::Searcher(e) => Some(e),
            AgentError::Failed(e) => Some(e.as_ref()),
        }
    }
}

impl From<SearcherError> for AgentError {
    fn from(e: SearcherError) -> AgentError {
        AgentError::Searcher(e)
    }
}

impl<G: Game, A: Agent<G> + ?Sized> Agent<G> for Box<A> {
    fn name(&self) -> String {
        (**self).name()
    }

    fn new_game(&mut self, seed: u64) {
        (**self).new_game(seed);
    }

    fn prepare(&mut self, start: &G) {
        (**self).prepare(start);
    }

    fn choose(
        &mut self,
        state: &G,
        history: &GameHistory,
        budget: &SearchLimits,
    ) -> Result<Choice<G::Move>, AgentError> {
        (**self).choose(state, history, budget)
    }

    fn observe(&mut self, before: &G, mv: G::Move) {
        (**self).observe(before, mv);
    }
}

/// An agent that plays the best move of a [`Searcher`]. Its tables persist from move to move
/// within a game and are cleared ([`Searcher::clear`]) at each [`Agent::new_game`].
///
/// With [`SearchAgent::pondering`] it also thinks on the opponent's time ([`Ponderer`]): after
/// each move it searches the position its principal variation expects next, and keeps that
/// search when the opponent plays the expected reply.
pub struct SearchAgent<G: Game> {
    searcher: Ponderer<G>,
    name: String,
    limits: Option<SearchLimits>,
    ponder: bool,
}

impl<G: Game> SearchAgent<G> {
    /// An agent that searches within the budget the arena gives each move.
    #[must_use]
    pub fn new(searcher: Box<dyn Searcher<G>>) -> SearchAgent<G> {
        let name = searcher.name();
        SearchAgent {
            searcher: Ponderer::new(searcher),
            name,
            limits: None,
            ponder: false,
        }
    }

    /// An agent that always searches within `limits`, whatever budget it is given (for matches
    /// at unequal limits, e.g. depth 3 against depth 5).
    #[must_use]
    pub fn with_limits(searcher: Box<dyn Searcher<G>>, limits: SearchLimits) -> SearchAgent<G> {
        SearchAgent {
            limits: Some(limits),
            ..SearchAgent::new(searcher)
        }
    }

    /// The same agent under another name (the default is the searcher's name).
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> SearchAgent<G> {
        self.name = name.into();
        self
    }

    /// The same agent, thinking on the opponent's time (see the type's docs). Its background
    /// search runs between its moves, so it competes for the processor with whatever else runs.
    #[must_use]
    pub fn pondering(mut self) -> SearchAgent<G> {
        self.ponder = true;
        self
    }

    /// The ponderer around the searcher (its last outcome, or to stop it).
    pub fn ponderer(&mut self) -> &mut Ponderer<G> {
        &mut self.searcher
    }
}

impl<G: Game> Agent<G> for SearchAgent<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, _seed: u64) {
        self.searcher.clear();
    }

    fn choose(
        &mut self,
        state: &G,
        history: &GameHistory,
        budget: &SearchLimits,
    ) -> Result<Choice<G::Move>, AgentError> {
        // Its own limits replace the budget; the game history is searched with either.
        let limits = self.limits.as_ref().unwrap_or(budget);
        let result = self.searcher.search_in(state, history, limits);
        let by_depth = self.searcher.searcher().searches_by_depth();
        if self.ponder
            && result.best_move.is_some()
            && result.pv.first() == result.best_move.as_ref()
        {
            self.searcher.ponder(state, &result.pv);
        }
        result
            .best_move
            .map(|mv| Choice {
                mv,
                score: Some(result.score),
                depth: by_depth.then_some(result.depth),
                nodes: result.stats.nodes,
            })
            .ok_or(AgentError::GameOver)
    }
}

/// An agent that plays a uniformly random legal move, from a [`SplitMix64`] reseeded at each
/// new game with `seed ^ game_seed`.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    seed: u64,
    rng: SplitMix64,
    name: String,
}

impl RandomAgent {
    /// A random agent with its own `seed` (two random agents with different seeds play
    /// differently in the same game).
    #[must_use]
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            seed,
            rng: SplitMix64::new(seed),
            name: "random".to_string(),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = SplitMix64::new(self.seed ^ seed);
    }

    fn choose(
        &mut self,
        state: &G,
        _history: &GameHistory,
        _budget: &SearchLimits,
    ) -> Result<Choice<G::Move>, AgentError> {
        // Not a search node loop: one allocation per move is fine here.
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        if moves.is_empty() {
            return Err(AgentError::GameOver);
        }
        Ok(Choice::bare(moves[self.rng.below(moves.len())]))
    }
}

#[cfg(test)]
mod tests;
