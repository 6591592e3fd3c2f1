//! Finished games in the store, and the opening explorer built from them: the arena (and any
//! other host that finishes games) records each one as a [`GameRow`] ([`record`]); the
//! explorer ([`explore`]) answers, for a position, the moves played there with their counts
//! and results.
//!
//! Results are counted **from the mover's view**: for each move, how many of the games that
//! played it the side that played it won, drew and lost (so one rule serves games with extra
//! turns and without colours).
//!
//! Key invariants: a game is written whole or not at all (the game and its explorer rows in one
//! transaction), and only after its moves were replayed from its start position through the
//! game's notation, so every explorer row is a legal move of a position the game reached;
//! positions are keyed as the analyses are (the game's own position text under the game's
//! name as the variant), so transpositions merge; a game counts once per position (a position
//! it passed twice is counted at its first visit), so the counts of the moves of the start
//! position sum to the games recorded from it; the explorer reads each move back in the
//! position, and a row that no longer reads is refused as damaged, never shown.

use plies::{Notation, Outcome, Side};

use super::{Store, StoreError};

/// One finished game as the store keeps it: text only, so one table serves every game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GameRow {
    /// The game's name (the program's name: `kalah`).
    pub game: String,
    /// The rules or variant, as analyses have it: the game's name (a game whose variants
    /// change the rules writes them into its position text).
    pub variant: String,
    /// The position the game started from, in the game's notation.
    pub start: String,
    /// The players of `[Side::First, Side::Second]`: engine specs or names.
    pub players: [String; 2],
    /// The settings it was played under: the time control, depth or nodes per move, the cap.
    pub settings: String,
    /// How it ended.
    pub result: Outcome,
    /// Why it ended, in words (`rules`, `ply cap`).
    pub termination: String,
    /// The moves, in the game's notation.
    pub moves: Vec<String>,
    /// Who recorded it: `arena`, `page`.
    pub source: String,
    /// When it ended: milliseconds since the Unix epoch.
    pub played: i64,
}

/// A game's result from the view of the side that moved: win, draw or loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MoverResult {
    /// The mover won the game.
    Win,
    /// The game was drawn.
    Draw,
    /// The mover lost the game.
    Loss,
}

impl MoverResult {
    /// The result of a game that ended with `outcome`, for `mover`.
    pub(crate) fn of(outcome: Outcome, mover: Side) -> MoverResult {
        match outcome {
            Outcome::Draw => MoverResult::Draw,
            Outcome::Win(side) if side == mover => MoverResult::Win,
            Outcome::Win(_) => MoverResult::Loss,
        }
    }

    /// The word stored.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            MoverResult::Win => "win",
            MoverResult::Draw => "draw",
            MoverResult::Loss => "loss",
        }
    }

    /// The outcome a stored game result (`1-0`, `0-1`, `1/2-1/2`) names.
    pub(crate) fn game_result(text: &str) -> Option<Outcome> {
        match text {
            "1-0" => Some(Outcome::Win(Side::First)),
            "0-1" => Some(Outcome::Win(Side::Second)),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }
}

/// `1-0`, `0-1` or `1/2-1/2`: a game's result as stored (the first player's score first).
pub(crate) fn result_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Side::First) => "1-0",
        Outcome::Win(Side::Second) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

/// `row` as one JSON object (`store export --games`): game, variant, start, first, second,
/// settings, result (`1-0`, `0-1`, `1/2-1/2`), termination, moves (an array of move texts),
/// source, played (milliseconds since the Unix epoch).
pub(crate) fn game_json(row: &GameRow) -> serde_json::Value {
    serde_json::json!({
        "game": row.game,
        "variant": row.variant,
        "start": row.start,
        "first": row.players[0],
        "second": row.players[1],
        "settings": row.settings,
        "result": result_text(row.result),
        "termination": row.termination,
        "moves": row.moves,
        "source": row.source,
        "played": row.played,
    })
}

/// One explorer row of a game: the move played at a position, and how the game ended for the
/// side that played it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PlayedMove {
    /// The move's place in the game, from 0.
    pub ply: u32,
    /// The position, in the game's notation.
    pub position: String,
    /// The move played there, in the game's notation.
    pub played: String,
    /// The game's result for the side that played it.
    pub result: MoverResult,
}

/// A move of the explorer: how many recorded games played it, and how they ended for the side
/// that played it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MoveCount {
    /// The move, in the game's notation.
    pub played: String,
    /// The games that played it here.
    pub games: u64,
    /// Of those, the games its player won.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost.
    pub losses: u64,
}

impl MoveCount {
    /// The mover's score in these games, 0 to 1 (a draw half a point).
    pub(crate) fn score(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64
        }
    }
}

/// Why a game could not be recorded: its text does not replay in its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum GameReplayError {
    /// The start position does not read.
    Start {
        /// The game's reason.
        reason: String,
    },
    /// A move does not read (or is not legal) where it was played.
    Move {
        /// Its place in the game, from 0.
        ply: usize,
        /// The move's text.
        text: String,
        /// The game's reason.
        reason: String,
    },
}

impl std::fmt::Display for GameReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameReplayError::Start { reason } => {
                write!(f, "its start position does not read: {reason}")
            }
            GameReplayError::Move { ply, text, reason } => write!(
                f,
                "its move {} '{}' does not read: {reason}",
                ply + 1,
                plies::excerpt(text)
            ),
        }
    }
}

impl std::error::Error for GameReplayError {}

/// The explorer rows of `row`: its moves replayed from its start in the game `G`, each
/// position once (at its first visit) with the move played there and the result for the side
/// to move there.
pub(crate) fn played_moves<G: Notation>(row: &GameRow) -> Result<Vec<PlayedMove>, GameReplayError> {
    let mut state = G::parse_position(&row.start).map_err(|e| GameReplayError::Start {
        reason: crate::text::one_line(&e.to_string()),
    })?;
    let mut seen = std::collections::HashSet::new();
    let mut rows = Vec::with_capacity(row.moves.len());
    for (ply, text) in row.moves.iter().enumerate() {
        let played = state.parse_move(text).map_err(|e| GameReplayError::Move {
            ply,
            text: text.clone(),
            reason: crate::text::one_line(&e.to_string()),
        })?;
        let position = state.format_position();
        let mover = state.side_to_move();
        if seen.insert(position.clone()) {
            rows.push(PlayedMove {
                ply: u32::try_from(ply).unwrap_or(u32::MAX),
                position,
                played: state.format_move(played),
                result: MoverResult::of(row.result, mover),
            });
        }
        state = state.play(played);
    }
    Ok(rows)
}

/// What became of a game to record ([`record`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Recorded {
    /// Stored, with this row id.
    Stored(i64),
    /// The store's files are at or over the size limit: nothing was written.
    OverLimit {
        /// The store's size in bytes.
        size: u64,
    },
}

/// Why a game was not recorded ([`record`]).
#[derive(Debug)]
pub(crate) enum RecordGameError {
    /// Its text does not replay in its game.
    Replay(GameReplayError),
    /// The store failed.
    Store(StoreError),
}

impl std::fmt::Display for RecordGameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordGameError::Replay(err) => write!(f, "the game was not recorded: {err}"),
            RecordGameError::Store(err) => write!(f, "the game was not recorded: {err}"),
        }
    }
}

impl std::error::Error for RecordGameError {}

/// Replays `row` in the game `G` and writes it and its explorer rows to `store` (one
/// transaction), unless the store is at its size limit.
pub(crate) fn record<G: Notation>(
    store: &mut Store,
    row: &GameRow,
) -> Result<Recorded, RecordGameError> {
    let moves = played_moves::<G>(row).map_err(RecordGameError::Replay)?;
    match store
        .put_game(row, &moves)
        .map_err(RecordGameError::Store)?
    {
        Some(id) => Ok(Recorded::Stored(id)),
        None => Ok(Recorded::OverLimit { size: store.size() }),
    }
}

/// The most moves the explorer lists for one position.
pub(crate) const MAX_EXPLORED: usize = 1000;

/// The explorer's answer for `state` of the game `game` (the program's name): the moves played
/// there in recorded games with their counts and results from the mover's view, the most
/// played first, at most [`MAX_EXPLORED`]. A stored move that does not read in the position
/// is refused as damaged.
pub(crate) fn explore<G: Notation>(
    store: &Store,
    game: &str,
    state: &G,
) -> Result<Vec<MoveCount>, StoreError> {
    let position = state.format_position();
    let counts = store.explore(game, game, &position, MAX_EXPLORED)?;
    for count in &counts {
        if state.parse_move(&count.played).is_err() {
            return Err(StoreError::Damaged {
                path: store.path().to_path_buf(),
                reason: format!(
                    "a recorded move '{}' is not a move of position '{}'",
                    plies::excerpt(&count.played),
                    plies::excerpt(&position)
                ),
            });
        }
    }
    Ok(counts)
}
