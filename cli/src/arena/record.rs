//! What one arena game leaves behind: a [`GameRecord`], serde-serializable so that results can
//! be written as JSON lines as they happen and read back to resume a run.
//!
//! Key invariants: a record names its engines both by schedule index and by name, and its
//! `id` is the game's place in the schedule, so a set of records says exactly which games are
//! done; a record holds no game-specific types (moves and positions are text), so one reader
//! serves every game.

use serde::{Deserialize, Serialize};

use crate::arena::elo::Wdl;
use plies::{Outcome, Side};

/// How a game ended, by colour.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum GameResult {
    /// The engine playing [`Side::First`] won.
    FirstWins,
    /// The engine playing [`Side::Second`] won.
    SecondWins,
    /// Nobody won (by the rules, or by the ply cap).
    Draw,
}

impl GameResult {
    /// The result of a game the rules ended with `outcome`.
    #[must_use]
    pub const fn from_outcome(outcome: Outcome) -> GameResult {
        match outcome {
            Outcome::Win(Side::First) => GameResult::FirstWins,
            Outcome::Win(Side::Second) => GameResult::SecondWins,
            Outcome::Draw => GameResult::Draw,
        }
    }

    /// A win for `side`.
    #[must_use]
    pub const fn win_for(side: Side) -> GameResult {
        GameResult::from_outcome(Outcome::Win(side))
    }

    /// Points scored by `side`: 1, ½ or 0.
    #[must_use]
    pub fn points_for(self, side: Side) -> f64 {
        match (self, side) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::FirstWins, Side::First) | (GameResult::SecondWins, Side::Second) => 1.0,
            _ => 0.0,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2` (first player's score first).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::FirstWins => "1-0",
            GameResult::SecondWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

/// Why a game ended.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Termination {
    /// The rules ended it ([`plies::Game::outcome`]).
    Rules,
    /// It reached the match's ply cap: a draw (the arena's draw rule, for games such as Onitama
    /// that have none of their own).
    PlyCap,
    /// The side to move returned a move that is not legal there, or none at all while moves
    /// remained; it loses.
    Forfeit {
        /// The side that forfeited.
        side: SideName,
        /// What went wrong.
        reason: String,
    },
    /// The side to move took more time than its clock had left (a clock time control); it
    /// loses, whatever it answered.
    OutOfTime {
        /// The side that lost on time.
        side: SideName,
        /// The time it took for its move, in milliseconds.
        used_ms: u64,
        /// The time its clock had left before the move, in milliseconds.
        left_ms: u64,
    },
}

impl Termination {
    /// How the game ended, in words: `rules`, `ply cap`, `First forfeits: <reason>`,
    /// `Second lost on time (1012 ms used, 1000 ms left)`.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Termination::Rules => "rules".to_string(),
            Termination::PlyCap => "ply cap".to_string(),
            Termination::Forfeit { side, reason } => format!("{side:?} forfeits: {reason}"),
            Termination::OutOfTime {
                side,
                used_ms,
                left_ms,
            } => format!("{side:?} lost on time ({used_ms} ms used, {left_ms} ms left)"),
        }
    }
}

/// [`Side`] in a serializable form (the core's `Side` stays free of serde).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum SideName {
    /// [`Side::First`].
    First,
    /// [`Side::Second`].
    Second,
}

impl From<Side> for SideName {
    fn from(side: Side) -> SideName {
        match side {
            Side::First => SideName::First,
            Side::Second => SideName::Second,
        }
    }
}

/// What one side did in one game, summed over its moves.
#[derive(Copy, Clone, PartialEq, Debug, Default, Serialize, Deserialize)]
pub struct SideStats {
    /// Moves made (with extra turns, one side may make more than the other).
    pub moves: u32,
    /// Positions made by its searches.
    pub nodes: u64,
    /// Sum of the depths its searches reached, over the moves chosen by a depth (divide by
    /// `moves - depthless_moves` for the mean).
    pub depth_sum: u64,
    /// Moves chosen without a search depth (MCTS, random movers, an external engine that sent
    /// none): left out of the mean depth. 0 in records written before it was kept.
    #[serde(default)]
    pub depthless_moves: u32,
    /// Seconds spent choosing moves.
    pub seconds: f64,
    /// The longest time spent choosing one move, in seconds (0 in records written before it
    /// was kept).
    #[serde(default)]
    pub max_seconds: f64,
    /// Moves chosen without a proven win or loss in sight: the moves where the time manager
    /// decided how long to think (a proven result ends a search at once). 0 in records written
    /// before it was kept.
    #[serde(default)]
    pub open_moves: u32,
    /// Seconds spent on the [`SideStats::open_moves`].
    #[serde(default)]
    pub open_seconds: f64,
}

impl SideStats {
    /// Mean search depth per move chosen by a depth, or `None` when no move was (MCTS).
    #[must_use]
    pub fn mean_depth(&self) -> Option<f64> {
        let by_depth = self.moves.saturating_sub(self.depthless_moves);
        (by_depth > 0).then(|| self.depth_sum as f64 / f64::from(by_depth))
    }

    /// Mean time per move, in milliseconds.
    #[must_use]
    pub fn mean_ms(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            1e3 * self.seconds / f64::from(self.moves)
        }
    }

    /// Mean time per open move (see [`SideStats::open_moves`]), in milliseconds.
    #[must_use]
    pub fn mean_open_ms(&self) -> f64 {
        if self.open_moves == 0 {
            0.0
        } else {
            1e3 * self.open_seconds / f64::from(self.open_moves)
        }
    }
}

/// One finished arena game.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's place in the schedule (unique within a run).
    pub id: usize,
    /// Index of the opening in the run's list of openings.
    pub opening: usize,
    /// The opening position as text, when the game has a notation.
    pub opening_position: Option<String>,
    /// Engine indices (in the run's engine list) playing `[Side::First, Side::Second]`.
    pub engines: [usize; 2],
    /// Engine names playing `[Side::First, Side::Second]`.
    pub names: [String; 2],
    /// How it ended, by colour.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// Moves played (extra turns count as moves).
    pub plies: u32,
    /// The moves in the game's notation (empty when the game has none).
    pub moves: Vec<String>,
    /// Per-side statistics, `[Side::First, Side::Second]`.
    pub stats: [SideStats; 2],
}

impl GameRecord {
    /// The side engine `engine` played in this game, if it played.
    #[must_use]
    pub fn side_of(&self, engine: usize) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|side| self.engines[side.index()] == engine)
    }

    /// The game as a win, draw or loss of engine `engine` (all zero if it did not play).
    #[must_use]
    pub fn wdl_for(&self, engine: usize) -> Wdl {
        match self
            .side_of(engine)
            .map(|side| self.result.points_for(side))
        {
            Some(1.0) => Wdl::new(1, 0, 0),
            Some(0.0) => Wdl::new(0, 0, 1),
            Some(_) => Wdl::new(0, 1, 0),
            None => Wdl::default(),
        }
    }

    /// One JSON line (no newline).
    #[must_use]
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("a game record always serializes")
    }

    /// Reads a record written by [`GameRecord::to_json_line`].
    ///
    /// # Errors
    /// The line is not a game record ([`RecordError`], quoting it).
    pub fn from_json_line(line: &str) -> Result<GameRecord, RecordError> {
        serde_json::from_str(line).map_err(|e| RecordError {
            line: line.to_string(),
            why: e.to_string(),
        })
    }
}

/// A line that is not a [`GameRecord`]: the line and serde's reason. Displays as one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The line read.
    pub line: String,
    /// Why it is not a record.
    pub why: String,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bad game record '{}': {}", self.line, self.why)
    }
}

impl std::error::Error for RecordError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> GameRecord {
        GameRecord {
            id: 3,
            opening: 1,
            opening_position: Some("7 5 1".into()),
            engines: [1, 0],
            names: ["b".into(), "a".into()],
            result: GameResult::SecondWins,
            termination: Termination::Forfeit {
                side: SideName::First,
                reason: "illegal move".into(),
            },
            plies: 2,
            moves: vec!["a2".into(), "b1".into()],
            stats: [SideStats::default(); 2],
        }
    }

    #[test]
    fn wdl_follows_the_engine_not_the_colour() {
        let r = record();
        assert_eq!(r.side_of(0), Some(Side::Second));
        assert_eq!(r.wdl_for(0), Wdl::new(1, 0, 0));
        assert_eq!(r.wdl_for(1), Wdl::new(0, 0, 1));
        assert_eq!(r.wdl_for(2), Wdl::default());
        let draw = GameRecord {
            result: GameResult::Draw,
            ..r
        };
        assert_eq!(draw.wdl_for(1), Wdl::new(0, 1, 0));
    }

    #[test]
    fn json_line_round_trip() {
        let r = record();
        let line = r.to_json_line();
        assert!(!line.contains('\n'));
        assert_eq!(GameRecord::from_json_line(&line).unwrap(), r);
        let err = GameRecord::from_json_line("{\"id\": 1}")
            .unwrap_err()
            .to_string();
        assert!(err.contains("bad game record"), "{err}");
    }
}
