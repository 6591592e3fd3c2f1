//! How results are written for people: scores, lines of moves, outcomes, rates, and any text
//! made one line ([`one_line`]) before it is shown.
//!
//! Key invariant: a score is never shown without a completed search behind it (`none`
//! otherwise), and side names come from the game ([`Notation::side_name`]).

use plies::Notation;
use plies::{Outcome, Side};

/// `text` on one line: control characters (newlines, tabs, escapes) written as Rust escapes
/// (`\n`), so an error quoting the user's input stays one line whatever the input held.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Each move of `line` formatted in the position it is played from.
pub(crate) fn move_texts<G: Notation>(state: &G, line: &[G::Move]) -> Vec<String> {
    let mut state = state.clone();
    line.iter()
        .map(|&mv| {
            let text = state.format_move(mv);
            state = state.play(mv);
            text
        })
        .collect()
}
/// The game's name for `side` ([`Notation::side_name`]).
pub(crate) fn side_name<G: Notation>(side: Side) -> String {
    G::side_name(side)
}

/// `red won` or `draw`, in the game's side names.
pub(crate) fn outcome_text<G: Notation>(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(side) => format!("{} won", side_name::<G>(side)),
        Outcome::Draw => "draw".to_string(),
    }
}

/// A score with whose view it is from: `+35 for red`, or `none`.
pub(crate) fn score_for<G: Notation>(score: Option<plies::Score>, side: Side) -> String {
    match score {
        Some(score) => format!("{score} for {}", side_name::<G>(side)),
        None => "none".to_string(),
    }
}

/// Positions per second, 0 when no time was measured.
pub(crate) fn rate(nodes: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    }
}

/// `arg` as a shell word: as is when it holds only safe characters, otherwise single-quoted.
pub(crate) fn shell_word(arg: &str) -> String {
    let safe = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./,:=+@%".contains(c));
    if safe {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}
