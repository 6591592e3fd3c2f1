//! The arena on Kalah (the tutorial game, crate `plies-kalah` in `games/kalah`), whose extra turns mean the side to
//! move does not alternate: the arena must keep asking the agent whose side is to move, however
//! many times in a row, and a searcher must still crush a random mover.

use std::sync::{Arc, Mutex};

use plies::agent::{Agent, Choice, RandomAgent, SearchAgent};
use plies::search::{AlphaBeta, SearchLimits};
use plies::{Game, Notation, Side};
use plies_cli::arena::{Arena, ArenaConfig, Engine, GameResult, Standings, random_openings};
use plies_kalah::{Kalah, StoreDifference};

/// Wraps an agent and logs every side it is asked to move for, per game.
struct SideLog<A> {
    inner: A,
    log: Arc<Mutex<Vec<Vec<Side>>>>,
    /// This agent's entry of the log for the current game.
    entry: usize,
}

impl<A: Agent<Kalah>> Agent<Kalah> for SideLog<A> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn new_game(&mut self, seed: u64) {
        let mut log = self.log.lock().unwrap();
        self.entry = log.len();
        log.push(Vec::new());
        drop(log);
        self.inner.new_game(seed);
    }

    fn choose(
        &mut self,
        state: &Kalah,
        history: &plies::GameHistory,
        budget: &SearchLimits,
    ) -> Result<Choice<plies_kalah::Sow>, plies::agent::AgentError> {
        let mut log = self.log.lock().unwrap();
        log[self.entry].push(state.side_to_move());
        self.inner.choose(state, history, budget)
    }
}

#[test]
fn extra_turns_ask_the_same_agent_and_search_beats_random() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let search_log = Arc::clone(&log);
    let random_log = Arc::clone(&log);
    let engines = vec![
        Engine::new("alphabeta", move || -> Box<dyn Agent<Kalah>> {
            Box::new(SideLog {
                inner: SearchAgent::new(Box::new(AlphaBeta::new(StoreDifference::default()))),
                log: Arc::clone(&search_log),
                entry: 0,
            })
        }),
        Engine::new("random", move || -> Box<dyn Agent<Kalah>> {
            Box::new(SideLog {
                inner: RandomAgent::new(3),
                log: Arc::clone(&random_log),
                entry: 0,
            })
        }),
    ];
    let openings = random_openings(&Kalah::start_position(), 21, 5, 2);
    assert_eq!(openings.len(), 5);
    let config = ArenaConfig {
        limits: SearchLimits::depth(3),
        max_plies: 400,
        ..ArenaConfig::default()
    };
    let arena = Arena::new(engines, openings, config).with_notation();
    let records = arena.run(&arena.head_to_head(), &[], &mut |_, _| {});
    assert_eq!(records.len(), 10);

    // Each agent only ever moved for one side per game (each game logs two lists).
    let log = log.lock().unwrap();
    assert_eq!(log.len(), 20);
    for sides in log.iter() {
        assert!(sides.windows(2).all(|w| w[0] == w[1]), "{sides:?}");
    }

    let mut runs_of_two = 0;
    for record in &records {
        // The moves replay from the opening, and the side to move really repeated somewhere.
        let mut state = Kalah::parse_position(record.opening_position.as_deref().unwrap()).unwrap();
        let mut previous = None;
        for text in &record.moves {
            let side = state.side_to_move();
            if previous == Some(side) {
                runs_of_two += 1;
            }
            previous = Some(side);
            state = state.play(state.parse_move(text).unwrap());
        }
        assert_eq!(
            record.stats[0].moves + record.stats[1].moves,
            record.plies,
            "every move counted for the side that made it"
        );
        if let Some(outcome) = state.outcome() {
            assert_eq!(GameResult::from_outcome(outcome), record.result);
        }
    }
    assert!(runs_of_two > 0, "no extra turn in ten Kalah games?");

    let standings = Standings::new(&arena.names(), &records);
    assert!(standings.engines[0].wdl.wins >= 9, "{}", standings.table());
}
