//! One arena game between two agents: [`play_game`].
//!
//! Key invariants: the agent asked for a move is always the one whose side is
//! `state.side_to_move()` (so extra turns just ask the same agent again); every returned move is
//! checked against the legal moves, and an illegal move or a missing one loses the game
//! ([`Termination::Forfeit`]) instead of panicking; a game that reaches `max_plies` moves without
//! an outcome is a draw ([`Termination::PlyCap`]); the agents get the game's history with their
//! budget, and a position the game's repetition rule ends ([`Game::repetition_outcome`]) ends the
//! game with that outcome ([`Termination::Rules`]). With a clock ([`GameSpec::clock`]) every move
//! is charged its measured time, a side that takes more than it has left loses
//! ([`Termination::OutOfTime`]) whatever it answered, and the agent to move is given the clock
//! and the time manager's budget from it ([`Clock::budget`]).

use std::time::Instant;

use crate::arena::record::{GameRecord, GameResult, SideStats, Termination};
use plies::Notation;
use plies::Score;
use plies::agent::{Agent, AgentError};
use plies::search::{Clock, SearchLimits};
use plies::{Game, GameHistory, Side};

/// How to write positions and moves into records; [`TextHooks::notation`] for games with a
/// [`Notation`], `None` in [`GameSpec`] for games without (records then hold no text).
pub struct TextHooks<G: Game> {
    /// Writes a position.
    pub position: fn(&G) -> String,
    /// Writes a legal move of a position.
    pub mv: fn(&G, G::Move) -> String,
}

impl<G: Game> Clone for TextHooks<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for TextHooks<G> {}

impl<G: Notation> TextHooks<G> {
    /// The game's own notation.
    #[must_use]
    pub fn notation() -> TextHooks<G> {
        TextHooks {
            position: |state| state.format_position(),
            mv: |state, mv| state.format_move(mv),
        }
    }
}

/// Which game to play: its place in the schedule, the opening and who plays which colour.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct GameTask {
    /// The game's place in the schedule (becomes [`GameRecord::id`]).
    pub id: usize,
    /// Index into the run's openings.
    pub opening: usize,
    /// Engine indices playing `[Side::First, Side::Second]`.
    pub engines: [usize; 2],
}

/// The rules every game of a run shares.
pub struct GameSpec<'a, G: Game> {
    /// The per-move budget given to both agents.
    pub limits: &'a SearchLimits,
    /// Both sides' clocks at the start of the game (a `base+increment` time control), or `None`
    /// for per-move limits only.
    pub clock: Option<Clock>,
    /// The draw rule: after this many moves without an outcome the game is drawn.
    pub max_plies: u32,
    /// Text for records, if the game has a notation.
    pub text: Option<TextHooks<G>>,
}

/// Plays `task` from `opening` with `agents[0]` as [`Side::First`] and `agents[1]` as
/// [`Side::Second`], calling [`Agent::new_game`] on both with `game_seed` first, then
/// [`Agent::prepare`] with the opening (before any clock runs).
/// `names` are the engines' names for the record.
pub fn play_game<G: Game>(
    task: GameTask,
    opening: &G,
    agents: [&mut dyn Agent<G>; 2],
    names: [String; 2],
    spec: &GameSpec<'_, G>,
    game_seed: u64,
) -> GameRecord {
    let [first, second] = agents;
    let mut agents = [first, second];
    for agent in &mut agents {
        agent.new_game(game_seed);
        agent.prepare(opening);
    }
    let mut state = opening.clone();
    let mut history = GameHistory::new(&state);
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    let mut stats = [SideStats::default(); 2];
    let mut plies = 0u32;
    let mut clock = spec.clock;
    let (result, termination) = loop {
        if let Some(outcome) = state.outcome() {
            break (GameResult::from_outcome(outcome), Termination::Rules);
        }
        if plies >= spec.max_plies {
            break (GameResult::Draw, Termination::PlyCap);
        }
        let side = state.side_to_move();
        let timed;
        let limits = match &clock {
            Some(clock) => {
                timed = SearchLimits {
                    time: Some(clock.budget(side)),
                    clock: Some(*clock),
                    ..spec.limits.clone()
                };
                &timed
            }
            None => spec.limits,
        };
        let started = Instant::now();
        let choice = agents[side.index()].choose(&state, &history, limits);
        let used = started.elapsed();
        let side_stats = &mut stats[side.index()];
        let seconds = used.as_secs_f64();
        side_stats.seconds += seconds;
        side_stats.max_seconds = side_stats.max_seconds.max(seconds);
        if let Some(clock) = &mut clock {
            let left = clock.remaining[side.index()];
            if !clock.charge(side, used) {
                break (
                    GameResult::win_for(side.opponent()),
                    Termination::OutOfTime {
                        side: side.into(),
                        used_ms: used.as_millis() as u64,
                        left_ms: left.as_millis() as u64,
                    },
                );
            }
        }
        let choice = match choice {
            Ok(choice) => choice,
            Err(AgentError::GameOver) => {
                break forfeit(side, "no move while legal moves remain".to_string());
            }
            Err(e) => break forfeit(side, e.to_string()),
        };
        legal.clear();
        state.generate_moves(&mut legal);
        if !legal.contains(&choice.mv) {
            break forfeit(side, format!("illegal move {:?}", choice.mv));
        }
        side_stats.moves += 1;
        if !choice.score.is_some_and(Score::is_decisive) {
            side_stats.open_moves += 1;
            side_stats.open_seconds += seconds;
        }
        side_stats.nodes += choice.nodes;
        side_stats.depth_sum += u64::from(choice.depth);
        if let Some(text) = &spec.text {
            moves.push((text.mv)(&state, choice.mv));
        }
        for agent in &mut agents {
            agent.observe(&state, choice.mv);
        }
        state = state.play(choice.mv);
        plies += 1;
        if let Some(outcome) = history.play(side, &state) {
            break (GameResult::from_outcome(outcome), Termination::Rules);
        }
    };
    GameRecord {
        id: task.id,
        opening: task.opening,
        opening_position: spec.text.as_ref().map(|text| (text.position)(opening)),
        engines: task.engines,
        names,
        result,
        termination,
        plies,
        moves,
        stats,
    }
}

fn forfeit(side: Side, reason: String) -> (GameResult, Termination) {
    (
        GameResult::win_for(side.opponent()),
        Termination::Forfeit {
            side: side.into(),
            reason,
        },
    )
}

#[cfg(test)]
mod tests {
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
}
