//! Text for moves and positions: the [`Notation`] trait and its error type.
//!
//! Key invariants every game's notation keeps (checked by the conformance suite):
//! `parse_move(format_move(m)) == m` for every legal move and
//! `parse_position(format_position(p))` is the same position (same hash, same moves);
//! parsing is case-insensitive where the game's notation allows it, and bad text gives a
//! [`NotationError`] naming the offending token, never a panic.

use std::fmt;

use crate::game::Game;

/// Why a piece of move or position text was rejected: the token at fault and what is wrong
/// with it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NotationError {
    /// The offending token, as written (may be empty when text is missing).
    pub token: String,
    /// What is wrong with it, e.g. "expected a square a1..e5".
    pub reason: String,
}

impl NotationError {
    /// An error about `token`.
    pub fn new(token: impl Into<String>, reason: impl Into<String>) -> NotationError {
        NotationError {
            token: token.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.token.is_empty() {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "'{}': {}", excerpt(&self.token), self.reason)
        }
    }
}

impl std::error::Error for NotationError {}

/// The most characters of user input an error message quotes ([`excerpt`]).
pub const EXCERPT_CHARS: usize = 80;

/// `text` as an error message quotes it: at most [`EXCERPT_CHARS`] characters, the cut marked
/// with `...`, so a pasted megabyte does not come back as a megabyte of error.
#[must_use]
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

/// Reading and writing a game's moves and positions.
pub trait Notation: Game {
    /// The usual starting position (for games with several, a sensible default).
    fn start_position() -> Self;

    /// Reads a position.
    fn parse_position(text: &str) -> Result<Self, NotationError>;

    /// Writes this position; [`Notation::parse_position`] reads it back exactly.
    fn format_position(&self) -> String;

    /// Reads a move and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, NotationError>;

    /// Writes a legal move of this position.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Plays a whitespace-separated list of moves from this position, naming the first one that
    /// does not parse or is illegal.
    fn play_line(&self, line: &str) -> Result<Self, NotationError> {
        let mut state = self.clone();
        for (number, text) in split_moves(self, line).into_iter().enumerate() {
            let mv = state.parse_move(&text).map_err(|e| NotationError {
                token: e.token,
                reason: format!("move {} ('{}'): {}", number + 1, text, e.reason),
            })?;
            state = state.play(mv);
        }
        Ok(state)
    }

    /// How many whitespace-separated words one move takes in this game's notation (Onitama:
    /// `tiger a5-a3` is two). Used by [`Notation::play_line`] to split a list of moves.
    fn words_per_move(&self) -> usize {
        1
    }

    /// The name of `side` in this game's own words (Onitama: `red`, tafl: `attackers`), for
    /// people: game-over lines and whose view a score is from. The default is `first player` /
    /// `second player`.
    fn side_name(side: crate::game::Side) -> String {
        match side {
            crate::game::Side::First => "first player".to_string(),
            crate::game::Side::Second => "second player".to_string(),
        }
    }

    /// A picture of the position for people (the terminal `play` command draws it after each
    /// move). The default is the position text.
    fn display_board(&self) -> String {
        self.format_position()
    }

    /// Writes a sequence of moves played from this position, separated by spaces.
    fn format_line(&self, moves: &[Self::Move]) -> String {
        let mut state = self.clone();
        let mut parts = Vec::with_capacity(moves.len());
        for &mv in moves {
            parts.push(state.format_move(mv));
            state = state.play(mv);
        }
        parts.join(" ")
    }
}

fn split_moves<G: Notation>(state: &G, line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let per = state.words_per_move().max(1);
    words.chunks(per).map(|chunk| chunk.join(" ")).collect()
}
