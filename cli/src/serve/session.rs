//! One game of the web page (a browser tab): the line of moves played from its start, the
//! position shown (the move list navigates), the engine's scores along the line, and the search
//! running on it, if any, whose iterations go to the tab's event stream.
//!
//! Key invariants: `positions[i]` is the position after the first `i` moves (`positions[0]` the
//! start) and `outcomes[i]` the repetition rule's verdict on it, so a position's result is
//! `positions[i].outcome()` or that verdict; at most one search runs per game; every change of
//! the line or of the position shown bumps `generation`, so an engine search that finishes
//! after the user moved on never plays its move into a position it did not search.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use plies::search::{Iteration, SearchResult};
use plies::{GameHistory, Notation, Outcome, Score, Side};
use plies_view::{View, side_key};
use serde_json::{Value, json};
use tokio::sync::broadcast;

use crate::text::{outcome_text, score_for};

/// Events buffered per game for a slow event-stream reader before the oldest are dropped.
const EVENT_BUFFER: usize = 256;

/// A search running on a game.
pub(super) struct Running {
    /// Raised to stop it.
    pub stop: Arc<AtomicBool>,
    /// `engine` (it plays its move when done) or `analysis`.
    pub kind: &'static str,
}

/// One game.
pub(super) struct Session<G: Notation> {
    positions: Vec<G>,
    moves: Vec<G::Move>,
    outcomes: Vec<Option<Outcome>>,
    /// The engine's last score of each position, from the first player's view (for the graph).
    scores: Vec<Option<Value>>,
    shown: usize,
    pub generation: u64,
    pub running: Option<Running>,
    events: broadcast::Sender<String>,
    pub touched: Instant,
}

impl<G: View> Session<G> {
    /// A game from `start`.
    pub fn new(start: G) -> Session<G> {
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        Session {
            positions: vec![start],
            moves: Vec::new(),
            outcomes: vec![None],
            scores: vec![None],
            shown: 0,
            generation: 0,
            running: None,
            events,
            touched: Instant::now(),
        }
    }

    /// The position shown.
    pub fn shown(&self) -> &G {
        &self.positions[self.shown]
    }

    /// The result of the position shown, if the game is over there.
    pub fn outcome(&self) -> Option<Outcome> {
        self.shown().outcome().or(self.outcomes[self.shown])
    }

    /// The positions before the one shown and it, for the repetition rule.
    pub fn history(&self) -> GameHistory {
        GameHistory::from_hashes(
            self.positions[..=self.shown]
                .iter()
                .map(plies::Game::hash)
                .collect(),
        )
    }

    fn changed(&mut self) {
        self.generation += 1;
        self.touched = Instant::now();
    }

    /// Plays `text` (a move in the game's notation) at the position shown; moves after it, if
    /// the list was navigated back, are dropped.
    ///
    /// # Errors
    /// The game is over there, or the move does not parse or is illegal (one line).
    pub fn play_text(&mut self, text: &str) -> Result<(), String> {
        let state = self.shown();
        if let Some(outcome) = self.outcome() {
            return Err(format!("the game is over ({})", outcome_text::<G>(outcome)));
        }
        let mv = state
            .parse_move(text.trim())
            .map_err(|e| format!("bad move: {e}"))?;
        self.play(mv);
        Ok(())
    }

    /// Plays `moves` (legal in turn) at the position shown, as a record loaded.
    ///
    /// # Errors
    /// A move comes after the game is over (a repetition can end a game the position alone
    /// does not show as over).
    pub fn play_all(&mut self, moves: &[G::Move]) -> Result<(), String> {
        for (number, &mv) in moves.iter().enumerate() {
            if let Some(outcome) = self.outcome() {
                return Err(format!(
                    "move {}: the game is already over ({})",
                    number + 1,
                    outcome_text::<G>(outcome)
                ));
            }
            self.play(mv);
        }
        Ok(())
    }

    /// The whole line (from the start, every move, whatever is shown) in the game's record
    /// format.
    pub fn record(&self) -> String {
        self.positions[0].write_record(&self.moves)
    }

    /// Plays the legal move `mv` at the position shown (see [`Session::play_text`]).
    pub fn play(&mut self, mv: G::Move) {
        let keep = self.shown + 1;
        self.positions.truncate(keep);
        self.outcomes.truncate(keep);
        self.scores.truncate(keep);
        self.moves.truncate(self.shown);
        let mover = self.shown().side_to_move();
        let after = self.shown().play(mv);
        let mut history = self.history();
        let outcome = history.play(mover, &after);
        self.positions.push(after);
        self.outcomes.push(outcome);
        self.scores.push(None);
        self.moves.push(mv);
        self.shown += 1;
        self.changed();
    }

    /// Takes back the last move of the line (and shows the end of the line).
    ///
    /// # Errors
    /// No move to take back.
    pub fn undo(&mut self) -> Result<(), String> {
        if self.moves.is_empty() {
            return Err("no move to take back".into());
        }
        self.moves.pop();
        self.positions.pop();
        self.outcomes.pop();
        self.scores.pop();
        self.shown = self.moves.len();
        self.changed();
        Ok(())
    }

    /// Shows the position after `ply` moves of the line.
    ///
    /// # Errors
    /// `ply` is beyond the line.
    pub fn goto(&mut self, ply: usize) -> Result<(), String> {
        if ply > self.moves.len() {
            return Err(format!(
                "bad ply {ply}: the line has {} moves",
                self.moves.len()
            ));
        }
        self.shown = ply;
        self.changed();
        Ok(())
    }

    /// Records `score` (from the view of the side to move at the position shown) for the graph.
    pub fn record_score(&mut self, at: usize, side: Side, score: Score) {
        if let Some(slot) = self.scores.get_mut(at) {
            *slot = Some(score_json::<G>(score, side));
        }
    }

    /// Index of the position shown.
    pub fn shown_ply(&self) -> usize {
        self.shown
    }

    /// A new receiver of the game's events.
    pub fn subscribe(&self) -> broadcast::Receiver<String> {
        self.events.subscribe()
    }

    /// The sender of the game's events (for a search thread).
    pub fn sender(&self) -> broadcast::Sender<String> {
        self.events.clone()
    }

    /// The game as the page reads it (see the API docs in [`super`]).
    pub fn to_json(&self, id: u64) -> Value {
        let state = self.shown();
        let mut moves = Vec::new();
        let outcome = self.outcome();
        if outcome.is_none() {
            state.generate_moves(&mut moves);
        }
        let legal: Vec<Value> = moves
            .iter()
            .map(|&mv| json!({"move": state.format_move(mv), "clicks": state.clicks(mv)}))
            .collect();
        let last = self
            .shown
            .checked_sub(1)
            .map(|i| self.positions[i].clicks(self.moves[i]))
            .unwrap_or_default();
        let texts: Vec<String> = self
            .moves
            .iter()
            .zip(&self.positions)
            .map(|(&mv, before)| before.format_move(mv))
            .collect();
        let side = state.side_to_move();
        json!({
            "id": id.to_string(),
            "position": state.format_position(),
            "start": self.positions[0].format_position(),
            "ply": self.shown,
            "moves": texts,
            "to_move": side_key(side),
            "to_move_name": G::side_name(side),
            "sides": {"first": G::side_name(Side::First), "second": G::side_name(Side::Second)},
            "outcome": outcome.map(|o| outcome_text::<G>(o)),
            "picture": state.picture(),
            "legal": legal,
            "last": last,
            "scores": self.scores,
            "searching": self.running.as_ref().map(|r| r.kind),
        })
    }
}

/// A score from `side`'s view as JSON for the page: `value` from the first player's view
/// (centipawn-like; a win or loss is near ±32,000, farther out for a shorter one) and `text`, the
/// words the terminal prints ("win in 19 for Blue").
pub(super) fn score_json<G: Notation>(score: Score, side: Side) -> Value {
    let mut value = i64::from(score.raw());
    if side == Side::Second {
        value = -value;
    }
    json!({
        "value": value,
        "decisive": score.is_decisive(),
        "text": score_for::<G>(Some(score), side),
    })
}

/// The event of one completed iteration, for the event stream.
pub(super) fn iteration_event<G: Notation>(state: &G, iteration: &Iteration<G::Move>) -> String {
    let side = state.side_to_move();
    let seconds = iteration.stats.elapsed.as_secs_f64();
    let nps = if seconds > 0.0 {
        (iteration.stats.nodes as f64 / seconds) as u64
    } else {
        0
    };
    let data = json!({
        "depth": iteration.depth,
        "seldepth": iteration.seldepth,
        "score": score_json::<G>(iteration.score, side),
        "pv": state.format_line(&iteration.pv),
        "nodes": iteration.stats.nodes,
        "nps": nps,
        "seconds": seconds,
    });
    let mut data = data;
    if !iteration.more_lines.is_empty() {
        // MultiPV: every line, the first being the iteration's own.
        let first = json!({ "score": data["score"].clone(), "pv": data["pv"].clone() });
        let others = iteration.more_lines.iter().map(|line| {
            json!({
                "score": score_json::<G>(line.score, side),
                "pv": state.format_line(&line.pv),
            })
        });
        data["lines"] = std::iter::once(first).chain(others).collect();
    }
    format!("iteration\n{data}")
}

/// The event of a finished search, for the event stream.
pub(super) fn done_event<G: Notation>(
    state: &G,
    kind: &str,
    result: &SearchResult<G::Move>,
) -> String {
    let side = state.side_to_move();
    let data = json!({
        "kind": kind,
        "best": result.best_move.map(|mv| state.format_move(mv)),
        "score": score_for::<G>(result.known_score(), side),
        "depth": result.depth,
        "pv": state.format_line(&result.pv),
        "nodes": result.stats.nodes,
    });
    format!("done\n{data}")
}
