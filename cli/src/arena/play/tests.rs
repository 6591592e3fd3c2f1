use super::*;
use plies::agent::{Choice, RandomAgent};
use plies::testing::{Take, TwoPiles};

/// Always takes one stone from the first pile that has any (never an extra turn).
struct TakeOne;

impl Agent<TwoPiles> for TakeOne {
    fn name(&self) -> String {
        "one".into()
    }
    fn choose(
        &mut self,
        s: &TwoPiles,
        _: &GameHistory,
        _: &SearchLimits,
    ) -> Result<Choice<Take>, AgentError> {
        let pile = u8::from(s.piles[0] == 0);
        (s.piles[pile as usize] > 0)
            .then_some(Choice::bare(Take { pile, count: 1 }))
            .ok_or(AgentError::GameOver)
    }
}

/// Always takes two from the larger pile when it can (extra turns), else one.
struct TakeTwo;

impl Agent<TwoPiles> for TakeTwo {
    fn name(&self) -> String {
        "two".into()
    }
    fn choose(
        &mut self,
        s: &TwoPiles,
        _: &GameHistory,
        _: &SearchLimits,
    ) -> Result<Choice<Take>, AgentError> {
        let pile = u8::from(s.piles[1] > s.piles[0]);
        let count = if s.piles[pile as usize] >= 2 { 2 } else { 1 };
        Ok(Choice::bare(Take { pile, count }))
    }
}

/// Plays an illegal move.
struct Cheat;

impl Agent<TwoPiles> for Cheat {
    fn name(&self) -> String {
        "cheat".into()
    }
    fn choose(
        &mut self,
        _: &TwoPiles,
        _: &GameHistory,
        _: &SearchLimits,
    ) -> Result<Choice<Take>, AgentError> {
        Ok(Choice::bare(Take { pile: 0, count: 9 }))
    }
}

fn spec(limits: &SearchLimits, max_plies: u32) -> GameSpec<'_, TwoPiles> {
    GameSpec {
        limits,
        clock: None,
        max_plies,
        text: Some(TextHooks::notation()),
    }
}

const TASK: GameTask = GameTask {
    id: 0,
    opening: 0,
    engines: [0, 1],
};

fn names() -> [String; 2] {
    ["x".into(), "y".into()]
}

#[test]
fn extra_turns_ask_the_same_agent_again() {
    // Piles 4 3, First = TakeTwo: a2 -> 2 3 (extra turn), b2 -> 2 1 (extra turn), a2 -> 0 1
    // (the pile's last two: no extra turn); Second = TakeOne: b1 takes the last stone.
    let limits = SearchLimits::default();
    let record = play_game(
        TASK,
        &TwoPiles::new(4, 3, Side::First),
        [&mut TakeTwo, &mut TakeOne],
        names(),
        &spec(&limits, 100),
        0,
    );
    assert_eq!(record.moves, ["a2", "b2", "a2", "b1"]);
    assert_eq!(record.result, GameResult::SecondWins);
    assert_eq!(record.termination, Termination::Rules);
    assert_eq!(record.plies, 4);
    assert_eq!(record.stats[0].moves, 3);
    assert_eq!(record.stats[1].moves, 1);
    assert_eq!(record.opening_position.as_deref(), Some("4 3 1"));
}

#[test]
fn the_ply_cap_draws() {
    let limits = SearchLimits::default();
    let record = play_game(
        TASK,
        &TwoPiles::new(9, 9, Side::First),
        [&mut TakeOne, &mut TakeOne],
        names(),
        &spec(&limits, 5),
        0,
    );
    assert_eq!(record.plies, 5);
    assert_eq!(record.result, GameResult::Draw);
    assert_eq!(record.termination, Termination::PlyCap);
}

#[test]
fn an_illegal_move_forfeits() {
    let limits = SearchLimits::default();
    let mut random = RandomAgent::new(1);
    let record = play_game(
        TASK,
        &TwoPiles::new(5, 5, Side::Second),
        [&mut random, &mut Cheat],
        names(),
        &spec(&limits, 50),
        0,
    );
    assert_eq!(record.result, GameResult::FirstWins);
    assert_eq!(record.plies, 0);
    assert!(matches!(
        record.termination,
        Termination::Forfeit {
            side: crate::arena::record::SideName::Second,
            ..
        }
    ));
}

#[test]
fn a_finished_opening_ends_at_once() {
    let limits = SearchLimits::default();
    let mut over = TwoPiles::new(0, 1, Side::First);
    over = over.play(Take { pile: 1, count: 1 });
    let record = play_game(
        TASK,
        &over,
        [&mut TakeOne, &mut TakeOne],
        names(),
        &spec(&limits, 50),
        0,
    );
    assert_eq!(record.plies, 0);
    assert_eq!(record.result, GameResult::FirstWins);
}

/// Plays the first legal move, and checks that it is given the game's history.
struct FirstMove {
    seen: Vec<usize>,
}

impl Agent<plies::testing::Cycle> for FirstMove {
    fn name(&self) -> String {
        "first".into()
    }
    fn choose(
        &mut self,
        s: &plies::testing::Cycle,
        history: &GameHistory,
        _: &SearchLimits,
    ) -> Result<Choice<u8>, AgentError> {
        self.seen.push(history.before(s).len());
        let mut moves = Vec::new();
        s.generate_moves(&mut moves);
        moves
            .first()
            .map(|&mv| Choice::bare(mv))
            .ok_or(AgentError::GameOver)
    }
}

#[test]
fn a_repetition_ends_the_game_as_the_rule_says() {
    use plies::Outcome;
    use plies::testing::{Cycle, CycleRule};
    use std::collections::HashMap;
    let limits = SearchLimits::depth(1);
    let spec = GameSpec {
        limits: &limits,
        clock: None,
        max_plies: 200,
        text: None,
    };
    let mut checked = 0;
    for start in 0..40 {
        let opening = Cycle::new(start, 9, 4, CycleRule::MoverLoses);
        // The expected end, replayed independently: the third occurrence loses for its mover.
        let mut counts = HashMap::new();
        let mut state = opening.clone();
        counts.insert(state.hash(), 1);
        let mut expected = None;
        for ply in 1..=200u32 {
            let mut moves = Vec::new();
            state.generate_moves(&mut moves);
            let Some(&mv) = moves.first() else { break };
            let mover = state.side_to_move();
            state = state.play(mv);
            let count = counts.entry(state.hash()).or_insert(0);
            *count += 1;
            if state.outcome().is_some() {
                break;
            }
            if *count == 3 {
                expected = Some((Outcome::Win(mover.opponent()), ply));
                break;
            }
        }
        let Some((outcome, plies)) = expected else {
            continue;
        };
        let (mut a, mut b) = (FirstMove { seen: vec![] }, FirstMove { seen: vec![] });
        let record = play_game(TASK, &opening, [&mut a, &mut b], names(), &spec, 1);
        assert_eq!(
            record.result,
            GameResult::from_outcome(outcome),
            "start {start}"
        );
        assert_eq!(record.termination, Termination::Rules);
        assert_eq!(record.plies, plies);
        // Each agent saw the whole history before its move: 0, 2, 4… and 1, 3, 5…
        assert!(a.seen.iter().enumerate().all(|(i, &n)| n == 2 * i));
        assert!(b.seen.iter().enumerate().all(|(i, &n)| n == 2 * i + 1));
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} games ended by repetition");
}
