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
        match choice.depth {
            Some(depth) => side_stats.depth_sum += u64::from(depth),
            None => side_stats.depthless_moves += 1,
        }
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
mod tests;
