//! Hus game records in the log format of the COMP 424 game server (`boardgame.Server`, the
//! course's `logs/gameNNNNN.log`): `#` header lines, `START Player-<id> <name>` for each
//! player, one `PIT <player> <pit>` line per move, and a closing
//! `GAMEOVER [<reason> ]WINNER <id>|DRAW|UNDECIDED|CANCELLED <id>` line.
//!
//! Key invariant: every move read is the side to move's and legal in the position reached,
//! and a `GAMEOVER WINNER`/`DRAW` line without a reason (the rules ended the game) agrees with
//! the outcome the replayed moves reach; a reason (`TIMEOUT`, `ILLEGAL MOVE: ...`, ...) means
//! the server ended the game, so the record is taken as it stands.

use plies::{Game, Notation, NotationError, Outcome, Side};

use crate::state::{Hus, Pit};

/// Does `text` look like a server log (its first line that is not blank or `#` a `START`,
/// `PIT` or `GAMEOVER` line)?
pub(crate) fn is_log(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| {
            let word = l.split_whitespace().next().unwrap_or_default();
            matches!(word, "START" | "PIT" | "GAMEOVER")
        })
}

/// The log of a game played from the start: header, `START` lines, its moves, and the
/// `GAMEOVER` line if the game is over.
pub(crate) fn write_log(moves: &[Pit]) -> String {
    let mut text = String::from(
        "# Hus game record written by plies (COMP 424 server log format)\n\
         # Board class: hus.HusBoard\n\
         START Player-0 player-0\n\
         START Player-1 player-1\n",
    );
    let mut state = Hus::start();
    for &mv in moves {
        text += &format!("PIT {} {}\n", state.side_to_move().index(), mv.0);
        state = state.play(mv);
    }
    match state.outcome() {
        Some(Outcome::Win(side)) => text += &format!("GAMEOVER WINNER {}\n", side.index()),
        Some(Outcome::Draw) => text += "GAMEOVER DRAW\n",
        None => {}
    }
    text
}

/// Reads a server log: the moves from the start position.
pub(crate) fn read_log(text: &str) -> Result<Vec<Pit>, NotationError> {
    let mut state = Hus::start();
    let mut moves = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let at = |token: &str, reason: String| {
            NotationError::new(token, format!("line {}: {reason}", index + 1))
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            [first, ..] if first.starts_with('#') => {}
            // The players' names, and `NOTHING <id>` (an empty turn: not a move).
            ["START", ..] | ["NOTHING", _] => {}
            ["PIT", player, pit] => {
                let mover = state.side_to_move().index();
                if player.parse::<usize>().ok() != Some(mover) {
                    return Err(at(
                        line,
                        format!("a move of player {player}, but player {mover} is to move"),
                    ));
                }
                let mv = state
                    .parse_move(pit)
                    .map_err(|e| at(&e.token, format!("move {}: {}", moves.len() + 1, e.reason)))?;
                state = state.play(mv);
                moves.push(mv);
            }
            ["GAMEOVER", result @ ..] => {
                check_result(&state, result).map_err(|reason| at(line, reason))?;
                return Ok(moves);
            }
            _ => {
                return Err(at(
                    line,
                    "expected a log line: START, PIT <player> <pit> or GAMEOVER".to_string(),
                ));
            }
        }
    }
    Ok(moves)
}

/// Checks a `GAMEOVER` line's result words against the replayed game, when the rules (not a
/// timeout or an illegal move) ended it.
fn check_result(state: &Hus, result: &[&str]) -> Result<(), String> {
    let logged = match result {
        ["WINNER", id] => match *id {
            "0" => Outcome::Win(Side::First),
            "1" => Outcome::Win(Side::Second),
            _ => return Err(format!("no player {id}")),
        },
        ["DRAW"] => Outcome::Draw,
        // A reason before the result, UNDECIDED or CANCELLED: the server ended the game.
        _ => return Ok(()),
    };
    match state.outcome() {
        Some(outcome) if outcome == logged => Ok(()),
        Some(outcome) => Err(format!(
            "the log's result is {}, the moves end in {}",
            describe(logged),
            describe(outcome)
        )),
        None => Err(format!(
            "the log's result is {}, but the game is not over after its moves",
            describe(logged)
        )),
    }
}

fn describe(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(side) => format!("a win of player {}", side.index()),
        Outcome::Draw => "a draw".to_string(),
    }
}
