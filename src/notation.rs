//! Text for moves and positions: the [`Notation`] trait and its error type, and game records
//! (a start position and the moves played from it) in the game's own record format or the
//! plain one every game has ([`write_plain_record`], [`read_plain_record`]).
//!
//! Key invariants every game's notation keeps (checked by the conformance suite):
//! `parse_move(format_move(m)) == m` for every legal move and
//! `parse_position(format_position(p))` is the same position (same hash, same moves);
//! parsing is case-insensitive where the game's notation allows it, and bad text gives a
//! [`NotationError`] naming the offending token, never a panic. A record written by
//! [`Notation::write_record`] is read back by [`Notation::read_record`] as the same start
//! position and moves; a tree of moves written by [`Notation::write_record_tree`] is read back
//! by [`Notation::read_record_tree`] as the same tree where the format has variations, as its
//! main line where it has not.

use std::fmt;

use crate::game::Game;

mod tree;

pub use tree::{RecordStep, RecordTree};

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

    /// This move as one word, for protocols that read a move as a single token (UGI): the move
    /// text with its spaces written as `:` (Onitama's `monkey a1-b2` is `monkey:a1-b2`). A game
    /// whose move text has spaces reads this form in [`Notation::parse_move`] too (the
    /// conformance check holds it to that).
    fn format_move_token(&self, mv: Self::Move) -> String {
        self.format_move(mv)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(":")
    }

    /// Reads a whitespace-separated list of moves played from this position (move numbers such
    /// as `12.` are skipped), naming the first one that does not parse or is illegal.
    fn parse_line(&self, line: &str) -> Result<Vec<Self::Move>, NotationError> {
        let words: Vec<&str> = line
            .split_whitespace()
            .filter(|w| !is_move_number(w))
            .collect();
        let mut state = self.clone();
        let mut moves = Vec::new();
        let mut at = 0;
        while at < words.len() {
            // A move in one word (`monkey:a1-b2`), or in the game's words per move.
            let (text, mv) = match state.parse_move(words[at]) {
                Ok(mv) => (words[at].to_string(), Ok(mv)),
                Err(_) if state.words_per_move() > 1 => {
                    let end = (at + state.words_per_move()).min(words.len());
                    let text = words[at..end].join(" ");
                    let mv = state.parse_move(&text);
                    (text, mv)
                }
                Err(e) => (words[at].to_string(), Err(e)),
            };
            let mv = mv.map_err(|e| NotationError {
                token: e.token,
                reason: format!(
                    "move {} ('{}'): {}",
                    moves.len() + 1,
                    excerpt(&text),
                    e.reason
                ),
            })?;
            at += text.split_whitespace().count();
            state = state.play(mv);
            moves.push(mv);
        }
        Ok(moves)
    }

    /// Plays a whitespace-separated list of moves from this position ([`Notation::parse_line`]).
    fn play_line(&self, line: &str) -> Result<Self, NotationError> {
        let moves = self.parse_line(line)?;
        Ok(moves
            .into_iter()
            .fold(self.clone(), |state, mv| state.play(mv)))
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

    /// The format of this game's records ([`Notation::write_record`]); the default is
    /// [`PLAIN_RECORD`].
    fn record_format() -> RecordFormat {
        PLAIN_RECORD
    }

    /// Writes a game played from this position, `moves` legal in turn, in the game's record
    /// format. The default is the plain format of [`write_plain_record`].
    fn write_record(&self, moves: &[Self::Move]) -> String {
        write_plain_record(self, moves)
    }

    /// Reads a record written by [`Notation::write_record`] (or by the tools whose format it
    /// is): the start position and the moves, each checked for legality in turn. The default
    /// reads the plain format ([`read_plain_record`]); games with a format of their own read
    /// the plain one too.
    fn read_record(text: &str) -> Result<(Self, Vec<Self::Move>), NotationError> {
        read_plain_record(text)
    }

    /// Writes a tree of moves played from this position (every move legal where it is played)
    /// in the game's record format: its variations too where the format has them. The default
    /// writes the main line with [`Notation::write_record`].
    fn write_record_tree(&self, tree: &RecordTree<Self::Move>) -> String {
        self.write_record(&tree.main_line())
    }

    /// Reads a record as a tree of moves: the start position and the tree, its variations too
    /// where the format has them, every move checked for legality where it is played. The
    /// default reads [`Notation::read_record`]'s line as a tree without variations.
    fn read_record_tree(text: &str) -> Result<(Self, RecordTree<Self::Move>), NotationError> {
        let (start, moves) = Self::read_record(text)?;
        Ok((start, RecordTree::from_line(&moves)))
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

/// A game record format: its name for people and its file name extension.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RecordFormat {
    /// What people call it (`OpenTafl game record`).
    pub name: &'static str,
    /// The extension of its files, without the dot (`otg`).
    pub extension: &'static str,
}

/// The plain record format every game reads and writes ([`write_plain_record`]).
pub const PLAIN_RECORD: RecordFormat = RecordFormat {
    name: "plies record",
    extension: "txt",
};

/// Writes a game in the plain record format: the line `position <position text>`, then one
/// move per line in the game's notation.
#[must_use]
pub fn write_plain_record<G: Notation>(start: &G, moves: &[G::Move]) -> String {
    let mut text = format!("position {}\n", start.format_position());
    let mut state = start.clone();
    for &mv in moves {
        text += &state.format_move(mv);
        text.push('\n');
        state = state.play(mv);
    }
    text
}

/// The most words of a line that [`read_plain_record`] tries as a position followed by moves
/// on the same line (tafl's longest position text, a full rules string, takes about 35).
pub const MAX_POSITION_WORDS: usize = 64;

/// The most bytes of a line that [`read_plain_record`] tries as a position followed by moves
/// on the same line (tafl's longest position text takes about 700).
pub const MAX_POSITION_BYTES: usize = 4096;

/// Reads a game in the plain record format, leniently: blank lines and lines starting with
/// `#` are skipped; the first line is the start position, after `position ` or bare (when it
/// reads as a position); without one the game starts at [`Notation::start_position`]. Every
/// other line holds one move or a line of moves (as [`Notation::play_line`] reads them; move
/// numbers such as `12.` are skipped). Errors name the line.
///
/// The first line may also hold the position and moves after it (`brandub d7-c7 d5-c5`): when
/// it reads neither as a position as a whole nor (bare) as moves from the start, the longest
/// run of its first words (at most [`MAX_POSITION_WORDS`] within [`MAX_POSITION_BYTES`]) that
/// reads as a position with the rest reading as moves from it is taken. When nothing fits, the
/// error is the moves' if their first move reads (the line is moves); else, when some first
/// words read as a position, the error of the moves after the longest such run; else
/// whichever error points farther into the line (the position's, tried on the line and on its
/// first words, or the moves'), and both in one message when they point at the same place.
pub fn read_plain_record<G: Notation>(text: &str) -> Result<(G, Vec<G::Move>), NotationError> {
    let on_line = |number: usize, e: NotationError| NotationError {
        token: e.token,
        reason: format!("line {number}: {}", e.reason),
    };
    let mut start: Option<G> = None;
    let mut state: Option<G> = None;
    let mut moves = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some(current) = state.as_mut() else {
            let (first, first_moves) = first_line::<G>(line).map_err(|e| on_line(number, e))?;
            let mut current = first.clone();
            for mv in first_moves {
                current = current.play(mv);
                moves.push(mv);
            }
            start = Some(first);
            state = Some(current);
            continue;
        };
        for mv in line_moves(current, line).map_err(|e| on_line(number, e))? {
            *current = current.play(mv);
            moves.push(mv);
        }
    }
    Ok((start.unwrap_or_else(G::start_position), moves))
}

/// The first line of a plain record: its start position and the moves on it (see
/// [`read_plain_record`] for the readings tried and the error chosen).
fn first_line<G: Notation>(line: &str) -> Result<(G, Vec<G::Move>), NotationError> {
    if let Some(rest) = line.strip_prefix("position ") {
        let whole = match G::parse_position(rest) {
            Ok(position) => return Ok((position, Vec::new())),
            Err(e) => e,
        };
        return match split_position::<G>(rest) {
            Split::Fits(position, moves) => Ok((position, moves)),
            Split::Misfit {
                moves_after: Some(e),
                ..
            } => Err(e),
            Split::Misfit { position_error, .. } => Err(farthest(rest, whole, position_error)),
        };
    }
    let whole = match G::parse_position(line) {
        Ok(position) => return Ok((position, Vec::new())),
        Err(e) => e,
    };
    let start = G::start_position();
    let from_start = match line_moves(&start, line) {
        Ok(moves) => return Ok((start, moves)),
        Err(e) => e,
    };
    let (moves_after, position_error) = match split_position::<G>(line) {
        Split::Fits(position, moves) => return Ok((position, moves)),
        Split::Misfit {
            moves_after,
            position_error,
        } => (moves_after, position_error),
    };
    if first_move_reads(&start, line) {
        return Err(from_start);
    }
    if let Some(e) = moves_after {
        return Err(e);
    }
    let position = farthest(line, whole, position_error);
    let at = |e: &NotationError| place(line, &e.token);
    Err(match at(&position).cmp(&at(&from_start)) {
        std::cmp::Ordering::Greater => position,
        std::cmp::Ordering::Less => from_start,
        std::cmp::Ordering::Equal => NotationError::new(
            "",
            format!("neither a position ({position}) nor moves from the start ({from_start})"),
        ),
    })
}

/// A line read as a position (some of its first words) and moves after it.
enum Split<G: Notation> {
    /// The first fit, longest position first.
    Fits(G, Vec<G::Move>),
    /// No fit.
    Misfit {
        /// The error of the moves after the longest run of first words that reads as a
        /// position, if any does.
        moves_after: Option<NotationError>,
        /// Of the runs of first words that do not read as a position, the error pointing
        /// farthest into the line (the longer run's on a tie), with where its token stands.
        position_error: Option<(usize, NotationError)>,
    },
}

/// Tries the runs of `line`'s first words as a position, longest first (at most
/// [`MAX_POSITION_WORDS`] words in the first [`MAX_POSITION_BYTES`] bytes, never every word),
/// with the rest as moves from it.
fn split_position<G: Notation>(line: &str) -> Split<G> {
    let line = line.trim();
    let ends: Vec<usize> = line
        .split_whitespace()
        .take(MAX_POSITION_WORDS)
        .map(|word| word.as_ptr() as usize - line.as_ptr() as usize + word.len())
        .take_while(|&end| end <= MAX_POSITION_BYTES && end < line.len())
        .collect();
    let mut moves_after = None;
    let mut position_error = None;
    for &end in ends.iter().rev() {
        let (prefix, rest) = line.split_at(end);
        match G::parse_position(prefix) {
            Ok(position) => match line_moves(&position, rest.trim()) {
                Ok(moves) => return Split::Fits(position, moves),
                Err(e) if moves_after.is_none() => {
                    moves_after = Some(NotationError {
                        token: e.token,
                        reason: format!("after the position '{}': {}", excerpt(prefix), e.reason),
                    });
                }
                Err(_) => {}
            },
            Err(e) => {
                // The token stands in the prefix, if anywhere: no search of a long line.
                if let Some(at) = place(prefix, &e.token)
                    && position_error.as_ref().is_none_or(|(best, _)| at > *best)
                {
                    position_error = Some((at, e));
                }
            }
        }
    }
    Split::Misfit {
        moves_after,
        position_error,
    }
}

/// Where in `line` the error's `token` first stands (`None` when it is empty or not there).
fn place(line: &str, token: &str) -> Option<usize> {
    (!token.is_empty()).then(|| line.find(token)).flatten()
}

/// Of `whole` (the error of `line` as a position) and the best of its first words' errors
/// (with where its token stands), the one whose token stands farther into the line; `whole`
/// on a tie.
fn farthest(
    line: &str,
    whole: NotationError,
    words: Option<(usize, NotationError)>,
) -> NotationError {
    match words {
        Some((at, e)) if Some(at) > place(line, &whole.token) => e,
        _ => whole,
    }
}

/// Whether the first move of `line` (its first word, or the game's words per move, move
/// numbers skipped) reads from `start`.
fn first_move_reads<G: Notation>(start: &G, line: &str) -> bool {
    let words: Vec<&str> = line
        .split_whitespace()
        .filter(|w| !is_move_number(w))
        .take(start.words_per_move().max(1))
        .collect();
    let Some(first) = words.first() else {
        return false;
    };
    start.parse_move(first).is_ok()
        || (words.len() > 1 && start.parse_move(&words.join(" ")).is_ok())
}

/// The moves of one line of a plain record, played from `state`: the whole line as one move,
/// or else a line of moves ([`Notation::parse_line`]).
fn line_moves<G: Notation>(state: &G, line: &str) -> Result<Vec<G::Move>, NotationError> {
    match state.parse_move(line) {
        Ok(mv) => Ok(vec![mv]),
        // One move's worth of words: its own error says most.
        Err(e) if line.split_whitespace().count() <= state.words_per_move() => Err(e),
        Err(_) => state.parse_line(line),
    }
}

/// `12.` (a move number in a record).
fn is_move_number(word: &str) -> bool {
    word.strip_suffix('.')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests;
