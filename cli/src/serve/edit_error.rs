//! Why a change to a served game's move tree is refused: [`EditError`], one enum for the tree
//! ([`super::tree::MoveTree`]) and the session ([`super::session::Session`]) above it.
//!
//! Key invariant: each error displays as the one line the page shows (`bad moves: ...`,
//! `bad node 3: ...`), so a caller can match on the kind and a person reads the same words.

use std::fmt;

/// Why a move, a line, a tree of moves or a change of the node shown is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// No node of that id in this game (ids are the tree's node ids).
    NoSuchNode(usize),
    /// The start cannot be changed so; `action` is what was asked (`promoted`, `deleted`).
    Start {
        /// The start's id.
        id: usize,
        /// What cannot be done to it.
        action: &'static str,
    },
    /// A move (its text) would be played after the game ended (the outcome, in words).
    AfterEnd {
        /// The move, in the game's notation.
        mv: String,
        /// How the game ended, in words.
        outcome: String,
    },
    /// The game is over where a move was to be read (the outcome, in words).
    Over(String),
    /// The game was already over where a move was to be played (the outcome, in words).
    AlreadyOver(String),
    /// A move does not parse or is illegal: what the game's notation said.
    BadMove(String),
    /// A line of moves does not parse: what the game's notation said.
    BadLine(String),
    /// A tree of moves opens a parenthesis it does not close.
    Unclosed,
    /// A `)` at this character (counted from 1) closes nothing.
    ClosesNothing(usize),
    /// A variation at this character (counted from 1) comes before any move.
    VariationFirst(usize),
    /// The variation at this character (counted from 1) is empty.
    EmptyVariation(usize),
    /// There is no move to take back.
    NothingToUndo,
    /// A ply beyond the current line.
    BadPly {
        /// The ply asked for.
        ply: usize,
        /// The moves the line has.
        moves: usize,
    },
    /// A tree of moves is refused; `from` is the character (counted from 1) of the stretch
    /// that is, 0 for the first.
    Moves {
        /// Where the stretch refused starts, 0 for the text's start.
        from: usize,
        /// Why.
        error: Box<EditError>,
    },
    /// The move of this number (from 1) of several is refused.
    Numbered {
        /// The move's number, from 1.
        number: usize,
        /// Why.
        error: Box<EditError>,
    },
    /// A line of moves to follow is refused.
    Line(Box<EditError>),
    /// A record's tree is refused.
    Record(Box<EditError>),
}

impl EditError {
    /// `self` for the move of `number` (from 1) of several.
    pub(super) fn numbered(self, number: usize) -> EditError {
        EditError::Numbered {
            number,
            error: Box::new(self),
        }
    }
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::NoSuchNode(id) => write!(f, "bad node {id}: no such node in this game"),
            EditError::Start { id, action } => {
                write!(f, "bad node {id}: the start cannot be {action}")
            }
            EditError::AfterEnd { mv, outcome } => {
                write!(f, "'{mv}' comes after the game is over ({outcome})")
            }
            EditError::Over(outcome) => write!(f, "the game is over ({outcome})"),
            EditError::AlreadyOver(outcome) => write!(f, "the game is already over ({outcome})"),
            EditError::BadMove(why) => write!(f, "bad move: {why}"),
            EditError::BadLine(why) => f.write_str(why),
            EditError::Unclosed => f.write_str("unbalanced parenthesis (a '(' is not closed)"),
            EditError::ClosesNothing(character) => write!(
                f,
                "unbalanced parenthesis (the ')' at character {character} closes nothing)"
            ),
            EditError::VariationFirst(character) => {
                write!(f, "a variation before any move (character {character})")
            }
            EditError::EmptyVariation(character) => {
                write!(f, "an empty variation (character {character})")
            }
            EditError::NothingToUndo => f.write_str("no move to take back"),
            EditError::BadPly { ply, moves } => {
                write!(f, "bad ply {ply}: the line has {moves} moves")
            }
            EditError::Moves { from: 0, error } => write!(f, "bad moves: {error}"),
            EditError::Moves { from, error } => {
                write!(f, "bad moves (from character {from}): {error}")
            }
            EditError::Numbered { number, error } => write!(f, "move {number}: {error}"),
            EditError::Line(error) => write!(f, "bad line: {error}"),
            EditError::Record(error) => write!(f, "bad record: {error}"),
        }
    }
}

impl std::error::Error for EditError {}
