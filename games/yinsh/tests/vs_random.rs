//! Sanity of the evaluator's direction: a shallow engine (PVS, depth 2, [`YinshEvaluator`])
//! beats the core's uniform `RandomAgent` in every game, normal and Blitz, taking each colour.
//!
//! Key invariant: a draw or a loss fails the test; the opening placements are the random
//! agent's and the engine's own (no book).

use plies::agent::{Agent, RandomAgent, SearchAgent};
use plies::search::SearchLimits;
use plies::search::{Pvs, PvsConfig};
use plies::{Game, Outcome, Side};
use plies_yinsh::{Yinsh, YinshEvaluator};

fn play(start: &Yinsh, engine_side: Side, seed: u64) -> Option<Outcome> {
    let pvs = Pvs::new(
        YinshEvaluator::default(),
        PvsConfig {
            tt_mb: 2,
            ..PvsConfig::full()
        },
    );
    let mut engine = SearchAgent::new(Box::new(pvs));
    let mut random = RandomAgent::new(24);
    Agent::<Yinsh>::new_game(&mut engine, seed);
    Agent::<Yinsh>::new_game(&mut random, seed);
    let limits = SearchLimits::depth(2);
    let mut state = start.clone();
    let mut history = plies::GameHistory::new(&state);
    while state.outcome().is_none() {
        let choice = if state.side_to_move() == engine_side {
            engine.choose(&state, &history, &limits)
        } else {
            random.choose(&state, &history, &limits)
        };
        state = state.play(choice.expect("a legal move").mv);
        history.push(&state);
    }
    state.outcome()
}

#[test]
fn shallow_engine_beats_random() {
    let games = if cfg!(debug_assertions) { 2 } else { 10 };
    for blitz in [false, true] {
        for game in 0..games {
            let side = if game % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            let outcome = play(&Yinsh::new(blitz), side, game);
            assert_eq!(
                outcome,
                Some(Outcome::Win(side)),
                "blitz {blitz}, game {game}"
            );
        }
    }
}
