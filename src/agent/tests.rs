//! Unit tests of `crate::agent` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

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
        let over = agent.choose(&state, &GameHistory::default(), &SearchLimits::default());
        assert!(matches!(over, Err(AgentError::GameOver)), "{over:?}");
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
    assert_eq!(choice.depth, Some(2));
    assert!(choice.nodes >= 2);
    assert_eq!(agent.name(), "minimax");
    // A finished position has no move: the error says so.
    let over = TwoPiles::new(0, 0, Side::First);
    let err = agent
        .choose(&over, &GameHistory::default(), &SearchLimits::depth(2))
        .unwrap_err();
    assert!(matches!(err, AgentError::GameOver), "{err}");
    assert!(err.to_string().contains("over"), "{err}");
}

/// MCTS does not search by depth: its choice carries no depth (its `depth` is the length of
/// its principal variation), and minimax's does.
#[test]
fn an_mcts_choice_has_no_depth() {
    let state = TwoPiles::new(5, 4, Side::First);
    let mcts = crate::mcts::Mcts::new(PileDifference, crate::mcts::MctsConfig::iterations(200));
    assert!(!Searcher::<TwoPiles>::searches_by_depth(&mcts));
    let mut agent = SearchAgent::new(Box::new(mcts));
    let choice = agent
        .choose(&state, &GameHistory::default(), &SearchLimits::nodes(200))
        .unwrap();
    assert_eq!(choice.depth, None);
    assert!(choice.nodes > 0);
    let minimax = Minimax::new(PileDifference);
    assert!(Searcher::<TwoPiles>::searches_by_depth(&minimax));
    assert!(!Searcher::<TwoPiles>::has_transposition_table(&minimax));
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
    assert_eq!(choice.depth, Some(1));
    assert_eq!(choice.nodes, 6, "depth 1 makes each of the 6 children once");
    assert_eq!(Agent::<TwoPiles>::name(&fixed), "d1");
}

/// Two pondering agents play twenty moves of the endless graph at depth 5: every move is
/// legal and at least that deep, and the agents ponder whenever their line predicts a reply.
#[test]
fn pondering_agents_play_legal_moves() {
    use crate::harness::HashEvaluator;
    use crate::search::{PonderOutcome, Pvs, PvsConfig};
    use crate::testing::Maze;
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
    let mut pondered = false;
    for agent in &mut agents {
        Agent::<Maze>::new_game(agent, 0);
    }
    for _ in 0..20 {
        let side = state.side_to_move().index();
        let choice = agents[side]
            .choose(&state, &GameHistory::default(), &SearchLimits::depth(5))
            .unwrap();
        outcomes.push(agents[side].ponderer().last_outcome());
        pondered |= agents[side].ponderer().is_pondering();
        let mut legal = Vec::new();
        state.generate_moves(&mut legal);
        assert!(legal.contains(&choice.mv));
        assert!(choice.depth.is_some_and(|d| d >= 5));
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
    // Some move was followed by a background search on the expected reply (not necessarily
    // the last: a line whose end is proven leaves nothing to ponder).
    assert!(pondered);
}
