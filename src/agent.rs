//! Move choosers behind one interface: the [`Agent`] trait, a searcher-backed agent
//! ([`SearchAgent`]) and a uniformly random one ([`RandomAgent`]), so the arena can play anything
//! against anything.
//!
//! Key invariants:
//! - an agent is asked for a move whenever `state.side_to_move()` is its side, so games whose
//!   side to move does not alternate (extra turns) need nothing special;
//! - [`Agent::choose`] returns a legal move of the given position, or `None` only when the
//!   position is over (the arena treats anything else as a forfeit);
//! - with a depth or node budget and a fixed seed, an agent's moves depend only on the positions
//!   it was shown since [`Agent::new_game`] — not on earlier games or on the worker thread
//!   (unless it searches with several threads or ponders: both depend on timing).

use crate::eval::Score;
use crate::game::{Game, GameHistory};
use crate::rng::SplitMix64;
use crate::search::{Ponderer, SearchLimits, Searcher};

/// A chosen move with what the agent knows about it (zeros/`None` where it knows nothing).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Choice<M> {
    /// The move to play.
    pub mv: M,
    /// The agent's value of the position for the side to move, if it has one.
    pub score: Option<Score>,
    /// The depth of the search that chose the move (0 for agents that do not search).
    pub depth: u32,
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
            depth: 0,
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

    /// The move to play in `state` (whose side to move is this agent's side) within `budget`;
    /// `None` only when `state` is over. `history` is the game up to `state` (see
    /// [`GameHistory`]): a searching agent passes it on to its searcher, which needs it for a
    /// game with a repetition rule, whatever limits it searches within.
    fn choose(
        &mut self,
        state: &G,
        history: &GameHistory,
        budget: &SearchLimits,
    ) -> Option<Choice<G::Move>>;
}

impl<G: Game, A: Agent<G> + ?Sized> Agent<G> for Box<A> {
    fn name(&self) -> String {
        (**self).name()
    }

    fn new_game(&mut self, seed: u64) {
        (**self).new_game(seed);
    }

    fn choose(
        &mut self,
        state: &G,
        history: &GameHistory,
        budget: &SearchLimits,
    ) -> Option<Choice<G::Move>> {
        (**self).choose(state, history, budget)
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
    ) -> Option<Choice<G::Move>> {
        // Its own limits replace the budget; the game history is searched with either.
        let limits = self.limits.as_ref().unwrap_or(budget);
        let result = self.searcher.search_in(state, history, limits);
        if self.ponder
            && result.best_move.is_some()
            && result.pv.first() == result.best_move.as_ref()
        {
            self.searcher.ponder(state, &result.pv);
        }
        result.best_move.map(|mv| Choice {
            mv,
            score: Some(result.score),
            depth: result.depth,
            nodes: result.stats.nodes,
        })
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
    ) -> Option<Choice<G::Move>> {
        // Not a search node loop: one allocation per move is fine here.
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        Some(Choice::bare(moves[self.rng.below(moves.len())]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Side;
    use crate::search::Minimax;
    use crate::testing::{PileDifference, TwoPiles};

    #[test]
    fn random_agent_plays_legal_moves_and_repeats_for_a_seed() {
        let start = TwoPiles::new(9, 7, Side::First);
        let play = |seed: u64| {
            let mut agent = RandomAgent::new(5);
            Agent::<TwoPiles>::new_game(&mut agent, seed);
            let mut state = start.clone();
            let mut line = Vec::new();
            while state.outcome().is_none() {
                let mut legal = Vec::new();
                state.generate_moves(&mut legal);
                let choice = agent
                    .choose(&state, &GameHistory::default(), &SearchLimits::default())
                    .unwrap();
                assert!(legal.contains(&choice.mv));
                line.push(choice.mv);
                state = state.play(choice.mv);
            }
            assert!(
                agent
                    .choose(&state, &GameHistory::default(), &SearchLimits::default())
                    .is_none()
            );
            line
        };
        assert_eq!(play(1), play(1));
        let lines: Vec<_> = (0..8).map(play).collect();
        assert!(lines.iter().any(|line| *line != lines[0]), "seeds matter");
    }

    #[test]
    fn search_agent_finds_the_win_and_reports_its_search() {
        // 0 and 2 stones: taking both wins at once.
        let state = TwoPiles::new(0, 2, Side::Second);
        let mut agent = SearchAgent::new(Box::new(Minimax::new(PileDifference)));
        Agent::<TwoPiles>::new_game(&mut agent, 0);
        let choice = agent
            .choose(&state, &GameHistory::default(), &SearchLimits::depth(2))
            .unwrap();
        assert_eq!(choice.mv, crate::testing::Take { pile: 1, count: 2 });
        assert_eq!(choice.score, Some(Score::win_in(1)));
        assert_eq!(choice.depth, 2);
        assert!(choice.nodes >= 2);
        assert_eq!(agent.name(), "minimax");
    }

    #[test]
    fn fixed_limits_override_the_budget() {
        let state = TwoPiles::new(6, 6, Side::First);
        let mut fixed = SearchAgent::with_limits(
            Box::new(Minimax::new(PileDifference)),
            SearchLimits::depth(1),
        )
        .named("d1");
        let choice = fixed
            .choose(&state, &GameHistory::default(), &SearchLimits::depth(3))
            .unwrap();
        assert_eq!(choice.depth, 1);
        assert_eq!(choice.nodes, 6, "depth 1 makes each of the 6 children once");
        assert_eq!(Agent::<TwoPiles>::name(&fixed), "d1");
    }

    /// Two pondering agents play twenty moves of the endless graph at depth 5: every move is
    /// legal and at least that deep, and the agents ponder whenever their line predicts a reply.
    #[test]
    fn pondering_agents_play_legal_moves() {
        use crate::harness::HashEvaluator;
        use crate::search::maze::Maze;
        use crate::search::{PonderOutcome, Pvs, PvsConfig};
        let agent = |seed| {
            let config = PvsConfig {
                tt_mb: 1,
                ..PvsConfig::full()
            };
            SearchAgent::new(Box::new(Pvs::new(HashEvaluator::new(seed, 9), config))).pondering()
        };
        let mut agents = [agent(1), agent(2)];
        let mut state = Maze::new(17, 1 << 40, 0);
        let mut outcomes = Vec::new();
        for agent in &mut agents {
            Agent::<Maze>::new_game(agent, 0);
        }
        for _ in 0..20 {
            let side = state.side_to_move().index();
            let choice = agents[side]
                .choose(&state, &GameHistory::default(), &SearchLimits::depth(5))
                .unwrap();
            outcomes.push(agents[side].ponderer().last_outcome());
            let mut legal = Vec::new();
            state.generate_moves(&mut legal);
            assert!(legal.contains(&choice.mv));
            assert!(choice.depth >= 5);
            state = state.play(choice.mv);
        }
        // Each agent's first move is an ordinary search; later ones continue or replace a
        // pondering search.
        assert!(outcomes.contains(&PonderOutcome::Idle));
        assert!(
            outcomes
                .iter()
                .any(|o| matches!(o, PonderOutcome::Hit | PonderOutcome::Miss))
        );
        assert!(agents.iter_mut().any(|a| a.ponderer().is_pondering()));
    }
}
