//! [`GameRecord`]: a game played from a start position with threefold repetition applied per
//! `tfr`, and OpenTafl game records (.otg) read and written.
//!
//! Key invariant: a position occurrence is (board, side to move), counted from the start
//! position on; when a move makes some position occur the third time the rules' repetition
//! rule decides the game at once (the last position then reports that outcome and has no
//! moves). The rule is the game's [`Game::repetition_outcome`], the one the searches apply, and
//! the counting is the core's [`GameHistory`], the history the searches are given.

use std::fmt;

use plies::{Game, GameHistory, Notation, NotationError, Side};

use crate::state::{Tafl, TaflMove};

/// Why a record could not be read or a move not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// 1-based ply of the offending move (0 for the header).
    pub ply: usize,
    /// What went wrong.
    pub error: NotationError,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ply {}: {}", self.ply, self.error)
    }
}

impl std::error::Error for RecordError {}

/// A game: start position, moves, the positions after each, and their history (which counts
/// the repetitions).
#[derive(Clone, Debug)]
pub struct GameRecord {
    positions: Vec<Tafl>,
    moves: Vec<TaflMove>,
    history: GameHistory,
    /// Set when a threefold repetition ended the game.
    repetition_ended: bool,
}

impl GameRecord {
    /// A record starting at `start`.
    #[must_use]
    pub fn new(start: Tafl) -> GameRecord {
        GameRecord {
            history: GameHistory::new(&start),
            positions: vec![start],
            moves: Vec::new(),
            repetition_ended: false,
        }
    }

    /// The current position (with a repetition outcome applied, if any).
    #[must_use]
    pub fn current(&self) -> &Tafl {
        self.positions
            .last()
            .expect("a record has a start position")
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Tafl {
        &self.positions[0]
    }

    /// The positions from the start to the current one: one more than the moves.
    #[must_use]
    pub fn positions(&self) -> &[Tafl] {
        &self.positions
    }

    /// The moves played.
    #[must_use]
    pub fn moves(&self) -> &[TaflMove] {
        &self.moves
    }

    /// Whether the game ended by threefold repetition.
    #[must_use]
    pub fn ended_by_repetition(&self) -> bool {
        self.repetition_ended
    }

    /// The game's positions up to the current one: the history a search of the current
    /// position is given ([`plies::search::Searcher::search_in`]) to know repetition.
    #[must_use]
    pub fn history(&self) -> &GameHistory {
        &self.history
    }

    /// How often the current position has occurred so far.
    #[must_use]
    pub fn occurrences(&self) -> u32 {
        self.history.occurrences(self.current().hash())
    }

    /// Plays a legal move of the current position, applying the repetition rule.
    pub fn play(&mut self, mv: TaflMove) {
        let before = *self.current();
        let mut next = before.play(mv);
        // The rule lives in one place: the game's repetition hook, which searches use too.
        if let Some(outcome) = self.history.play(before.side_to_move(), &next) {
            next = next.with_outcome(outcome);
            self.repetition_ended = true;
        }
        self.moves.push(mv);
        self.positions.push(next);
    }

    /// Parses and plays one move in OTN, naming it on error.
    pub fn play_text(&mut self, text: &str) -> Result<TaflMove, RecordError> {
        let ply = self.moves.len() + 1;
        let mv = self
            .current()
            .parse_move(text)
            .map_err(|error| RecordError { ply, error })?;
        self.play(mv);
        Ok(mv)
    }

    /// Writes an OpenTafl game record (.otg): tags, the rules string of the start position,
    /// then numbered turns of full OTN moves.
    #[must_use]
    pub fn to_otg(&self, tags: &[(&str, &str)]) -> String {
        let mut s = String::new();
        for (k, v) in tags {
            s += &format!("[{k}:{v}]\n");
        }
        let start = self.start();
        s += &start.rules().to_otn(start.board());
        s.push('\n');
        if start.side_to_move() == Side::Second {
            s += "turn:d\n";
        }
        let mut state = *start;
        for (i, chunk) in self.moves.chunks(2).enumerate() {
            s += &format!("{}.", i + 1);
            for &mv in chunk {
                s.push(' ');
                s += &state.format_move_full(mv);
                state = state.play(mv);
            }
            s.push('\n');
        }
        s
    }

    /// Reads an .otg record (tags in `[...]` lines, the rules string, optional `turn:d`, then
    /// `N. move move` lines; `---` resigns and ends reading).
    pub fn from_otg(text: &str) -> Result<GameRecord, RecordError> {
        let header = |error| RecordError { ply: 0, error };
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        let rules_line = lines
            .by_ref()
            .find(|l| !l.starts_with('['))
            .ok_or_else(|| header(NotationError::new("", "missing rules string")))?;
        let mut start = Tafl::parse(rules_line).map_err(header)?;
        let mut record: Option<GameRecord> = None;
        for line in lines {
            if line == "turn:d" && record.is_none() {
                start = Tafl::new(start.rules(), *start.board(), Side::Second);
                continue;
            }
            let rec = record.get_or_insert_with(|| GameRecord::new(start));
            for word in line.split_whitespace() {
                if word.ends_with('.') && word[..word.len() - 1].bytes().all(|b| b.is_ascii_digit())
                {
                    continue;
                }
                if word == "---" {
                    return Ok(rec.clone());
                }
                rec.play_text(word)?;
            }
        }
        Ok(record.unwrap_or_else(|| GameRecord::new(start)))
    }
}
