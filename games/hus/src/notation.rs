//! Hus text: a move is its pit index (`0`..`31`); a position is
//! `<player 0's 32 pits> <player 1's 32 pits> <side 0|1> <round>`, pits comma-separated; game
//! records are the course server's logs (`crate::log`).
//!
//! Key invariant: `parse_position(format_position(p)) == p` and `parse_move(format_move(m)) == m`;
//! bad text gives an error naming the token.

use plies::{
    Game, Notation, NotationError, RecordFormat, Side, read_plain_record, write_plain_record,
};

use crate::log::{is_log, read_log, write_log};
use crate::state::{Hus, PITS, Pit};

fn parse_row(token: &str, who: &str) -> Result<[u8; PITS], NotationError> {
    let mut row = [0u8; PITS];
    let parts: Vec<&str> = token.split(',').collect();
    if parts.len() != PITS {
        return Err(NotationError::new(
            token,
            format!(
                "{who}'s row needs {PITS} comma-separated seed counts, found {}",
                parts.len()
            ),
        ));
    }
    for (slot, part) in row.iter_mut().zip(parts) {
        *slot = part
            .trim()
            .parse::<u8>()
            .ok()
            .filter(|&s| usize::from(s) <= crate::state::SEEDS)
            .ok_or_else(|| {
                NotationError::new(part, format!("{who}'s row: expected a seed count 0..96"))
            })?;
    }
    Ok(row)
}

fn format_row(row: &[u8; PITS]) -> String {
    row.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

impl Notation for Hus {
    /// `player 0` (moves first) or `player 1`, as the position text numbers them.
    fn side_name(side: Side) -> String {
        format!("player {}", side.index())
    }

    fn start_position() -> Hus {
        Hus::start()
    }

    fn parse_position(text: &str) -> Result<Hus, NotationError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() != 4 {
            return Err(NotationError::new(
                text.trim(),
                "expected '<player 0 pits> <player 1 pits> <side 0|1> <round>'",
            ));
        }
        let first = parse_row(words[0], "player 0")?;
        let second = parse_row(words[1], "player 1")?;
        let side = match words[2] {
            "0" => Side::First,
            "1" => Side::Second,
            other => {
                return Err(NotationError::new(
                    other,
                    "expected the side to move, 0 or 1",
                ));
            }
        };
        let round = words[3]
            .parse::<u16>()
            .map_err(|_| NotationError::new(words[3], "expected the round counter, a number"))?;
        Hus::from_parts([first, second], side, round)
            .map_err(|e| NotationError::new(text.trim(), e))
    }

    fn format_position(&self) -> String {
        let side = match self.side_to_move() {
            Side::First => 0,
            Side::Second => 1,
        };
        format!(
            "{} {} {side} {}",
            format_row(&self.rows()[0]),
            format_row(&self.rows()[1]),
            self.round()
        )
    }

    fn parse_move(&self, text: &str) -> Result<Pit, NotationError> {
        let token = text.trim();
        let pit = token
            .parse::<u8>()
            .ok()
            .filter(|&p| usize::from(p) < PITS)
            .ok_or_else(|| NotationError::new(token, "expected a pit number 0..31"))?;
        let seeds = self.seeds(self.side_to_move(), usize::from(pit));
        if self.outcome().is_some() {
            return Err(NotationError::new(token, "the game is over"));
        }
        if seeds < 2 {
            return Err(NotationError::new(
                token,
                format!("pit {pit} holds {seeds} seed(s); a move needs 2 or more"),
            ));
        }
        if self.is_infinite(usize::from(pit)) {
            return Err(NotationError::new(
                token,
                "an infinite move (over 200 laps), illegal by this crate's policy",
            ));
        }
        Ok(Pit(pit))
    }

    fn format_move(&self, mv: Pit) -> String {
        mv.0.to_string()
    }

    /// The COMP 424 game server's logs (`logs/gameNNNNN.log`): `PIT <player> <pit>` lines.
    fn record_format() -> RecordFormat {
        RecordFormat {
            name: "COMP 424 server log",
            extension: "log",
        }
    }

    /// A server log for a game from the start; from any other position (a log cannot say
    /// where it starts) the plain format.
    fn write_record(&self, moves: &[Pit]) -> String {
        if self.format_position() == Hus::start().format_position() {
            write_log(moves)
        } else {
            write_plain_record(self, moves)
        }
    }

    /// A server log, or the plain format.
    fn read_record(text: &str) -> Result<(Hus, Vec<Pit>), NotationError> {
        if is_log(text) {
            Ok((Hus::start(), read_log(text)?))
        } else {
            read_plain_record(text)
        }
    }

    /// Four rows of 16 pits as the players face each other, player 1 on top; above and below
    /// each player's two rows, the pit numbers that player's moves use (its own pits 0-31:
    /// 0-15 the outer row left to right from its side, 16-31 the inner row back).
    fn display_board(&self) -> String {
        let [p0, p1] = self.rows();
        // Pit indices in screen order, left to right, for each printed row.
        let p1_outer: Vec<usize> = (0..16).rev().collect();
        let p1_inner: Vec<usize> = (16..32).collect();
        let p0_inner: Vec<usize> = (16..32).rev().collect();
        let p0_outer: Vec<usize> = (0..16).collect();
        let seeds = |row: &[u8; PITS], pits: &[usize]| {
            pits.iter()
                .map(|&i| format!("{:>3}", row[i]))
                .collect::<String>()
        };
        let numbers = |pits: &[usize]| pits.iter().map(|&i| format!("{i:>3}")).collect::<String>();
        let side = match self.side_to_move() {
            Side::First => 0,
            Side::Second => 1,
        };
        let mut out = String::new();
        out.push_str(&format!("   pit # {}\n", numbers(&p1_outer)));
        out.push_str(&format!("P1 outer {}\n", seeds(p1, &p1_outer)));
        out.push_str(&format!("P1 inner {}\n", seeds(p1, &p1_inner)));
        out.push_str(&format!("   pit # {}\n", numbers(&p1_inner)));
        out.push_str(&format!("         {}\n", " --".repeat(16)));
        out.push_str(&format!("   pit # {}\n", numbers(&p0_inner)));
        out.push_str(&format!("P0 inner {}\n", seeds(p0, &p0_inner)));
        out.push_str(&format!("P0 outer {}\n", seeds(p0, &p0_outer)));
        out.push_str(&format!("   pit # {}\n", numbers(&p0_outer)));
        out.push_str(&format!(
            "round {}, player {side} to move (a move is one of its pit numbers); seeds {} : {}",
            self.round(),
            self.total(Side::First),
            self.total(Side::Second)
        ));
        out
    }
}
