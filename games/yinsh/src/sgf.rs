//! Reading and writing boardspace.net Yinsh records (SGF with `GM[24]`).
//!
//! Each move node is `; P0[<seq> <command>]` or `; P1[...]` (P0 is White). Commands read here:
//! `place wr G 11` / `place br …` (ring placement), `place w K 8` followed by `drop board K 9`
//! (a human ring move: marker into the ring on K8, ring to K9), `move G 9 F 9` (a robot ring
//! move), `remove w D 5 H 5` (a row by its end points), `remove wr F 8` (a ring), `pass`; `Done`
//! and `Start`, the players' `id "name"` and the closing `time 0:01:29` carry no decision and are
//! skipped; `Resign` ends the record. Real records (`tests/boardspace_records.rs`) replay to
//! their recorded result.
//!
//! [`write_sgf`] writes the same commands (ring moves as `move`, each player's turn closed by
//! `Done`), so `read_sgf(&write_sgf(moves))` gives `moves` back.
//!
//! Key invariant: every decision read is checked for legality in the position reached; the
//! first bad or illegal command gives an error naming it.

use plies::{Game, Notation, NotationError, Side};

use crate::state::{Move, Yinsh};

/// A record read from SGF: the moves in order and the position after the last one.
#[derive(Clone, Debug)]
pub struct SgfGame {
    /// Every decision of the record.
    pub moves: Vec<Move>,
    /// The position after them.
    pub position: Yinsh,
    /// Did the record end with a resignation?
    pub resigned: bool,
}

fn point(letter: &str, number: &str, command: &str) -> Result<String, NotationError> {
    if letter.len() != 1 || number.parse::<u8>().is_err() {
        return Err(NotationError::new(
            command,
            "expected a point as '<letter> <number>'",
        ));
    }
    Ok(format!("{}{}", letter.to_ascii_lowercase(), number))
}

/// The property values of every `P0[…]` and `P1[…]` node, in order.
fn move_values(text: &str) -> Vec<&str> {
    let mut values = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find('[') {
        let name = rest[..at].trim_end();
        let name = name
            .rsplit(|c: char| c == ';' || c.is_whitespace())
            .next()
            .unwrap_or("");
        let Some(end) = rest[at..].find(']') else {
            break;
        };
        if name == "P0" || name == "P1" {
            values.push(&rest[at + 1..at + end]);
        }
        rest = &rest[at + end + 1..];
    }
    values
}

/// Reads a boardspace Yinsh record from the empty board (normal rules).
pub fn read_sgf(text: &str) -> Result<SgfGame, NotationError> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if !compact.contains("GM[24]") {
        return Err(NotationError::new(
            "GM",
            "not a Yinsh record (GM[24] missing)",
        ));
    }
    let mut position = Yinsh::start_position();
    let mut moves = Vec::new();
    let mut resigned = false;
    let mut picked: Option<String> = None;
    for value in move_values(text) {
        let mut words: Vec<&str> = value.split_whitespace().collect();
        if words
            .first()
            .is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()))
        {
            words.remove(0);
        }
        let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
        let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
        let text = match lower.as_slice() {
            // `P0[id "name"]` (players, in the header) and `P0[time 0:02:16]` (the clocks, in
            // the last node) are not decisions.
            [] | ["done"] | ["start", ..] | ["id", ..] | ["time", ..] => continue,
            ["resign"] => {
                resigned = true;
                break;
            }
            ["pass"] => "pass".to_string(),
            ["place", "wr" | "br", l, n] => point(l, n, value)?,
            ["place", "w" | "b", l, n] => {
                picked = Some(point(l, n, value)?);
                continue;
            }
            ["drop", "board", l, n] => {
                let from = picked
                    .take()
                    .ok_or_else(|| NotationError::new(value, "a drop without a marker placed"))?;
                format!("{from}-{}", point(l, n, value)?)
            }
            ["move", a, b, c, d] => format!("{}-{}", point(a, b, value)?, point(c, d, value)?),
            ["remove", "w" | "b", a, b, c, d] => {
                format!("x{}-{}", point(a, b, value)?, point(c, d, value)?)
            }
            ["remove", "wr" | "br", l, n] => format!("x{}", point(l, n, value)?),
            _ => return Err(NotationError::new(value, "not a Yinsh record command")),
        };
        let mv = position.parse_move(&text).map_err(|e| NotationError {
            token: value.to_string(),
            reason: format!("move {} ('{text}'): {}", moves.len() + 1, e.reason),
        })?;
        position = position.play(mv);
        moves.push(mv);
    }
    Ok(SgfGame {
        moves,
        position,
        resigned,
    })
}

/// `g11` as boardspace writes a point: `G 11`.
fn spaced(cell: &str) -> String {
    let (letter, number) = cell.split_at(1);
    format!("{} {number}", letter.to_ascii_uppercase())
}

/// Writes a game from the empty board (normal rules) as a boardspace record: White is `P0`,
/// every decision a node numbered in order, a `Done` node where the turn passes to the other
/// player (or the game ends).
#[must_use]
pub fn write_sgf(moves: &[Move]) -> String {
    let mut text = String::from("(;\nGM[24]VV[2]\nSU[Yinsh]\n; P0[0 Start White]\n");
    let mut state = Yinsh::start_position();
    let mut number = 1;
    for &mv in moves {
        let side = state.side_to_move();
        let (player, colour) = match side {
            Side::First => ("P0", 'w'),
            Side::Second => ("P1", 'b'),
        };
        let written = state.format_move(mv);
        let cells: Vec<String> = written
            .trim_start_matches('x')
            .split('-')
            .map(spaced)
            .collect();
        let command = match mv {
            Move::Place(_) => format!("place {colour}r {}", cells[0]),
            Move::Ring(..) => format!("move {} {}", cells[0], cells[1]),
            Move::Row(..) => format!("remove {colour} {} {}", cells[0], cells[1]),
            Move::RemoveRing(_) => format!("remove {colour}r {}", cells[0]),
            Move::Pass => "pass".to_string(),
        };
        text += &format!("; {player}[{number} {command}]\n");
        number += 1;
        state = state.play(mv);
        if state.outcome().is_some() || state.side_to_move() != side {
            text += &format!("; {player}[{number} Done ]\n");
            number += 1;
        }
    }
    text.push_str(")\n");
    text
}
