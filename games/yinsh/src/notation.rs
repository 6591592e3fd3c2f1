//! Yinsh text.
//!
//! Moves (GIPF style, one decision each, case-insensitive): `e3` places a ring, `h7-g7` moves a
//! ring, `xf3-f7` removes the row between those end markers (either end first), `xe10` removes
//! a ring, `pass` passes.
//!
//! Positions: `<board> <side> <phase> <removed> <passes> <variant>`:
//! - board: the 11 columns A..K separated by `/`, each its points from the lowest row up, one
//!   character each: `.` empty, `W`/`B` a white/black ring, `w`/`b` a white/black marker;
//! - side to move `w` or `b`;
//! - phase `place`, `move`, or in a removal `row:w`/`row:b`/`ring:w`/`ring:b`, the colour after
//!   the colon being whose ring move is being resolved;
//! - rings removed `<white>-<black>`; consecutive passes `0`..`2`; `normal` or `blitz`.
//!
//! Key invariant: `parse_position(format_position(p)) == p`; errors name the offending token.

use plies::{
    Game, Notation, NotationError, RecordFormat, RecordTree, Side, read_plain_record,
    write_plain_record,
};

use crate::board::{CELLS, COLUMNS, cell_at, cell_name, column_range, parse_cell, step};
use crate::rows::EMPTY;
use crate::sgf::{read_sgf, read_sgf_tree, write_sgf, write_sgf_tree};
use crate::state::{Move, Phase, Yinsh};

const SYMBOLS: [char; 5] = ['.', 'W', 'B', 'w', 'b'];

fn side_letter(side: Side) -> char {
    match side {
        Side::First => 'w',
        Side::Second => 'b',
    }
}

fn parse_side(token: &str) -> Result<Side, NotationError> {
    match token.to_ascii_lowercase().as_str() {
        "w" => Ok(Side::First),
        "b" => Ok(Side::Second),
        _ => Err(NotationError::new(token, "expected a side, w or b")),
    }
}

fn cell(token: &str) -> Result<usize, NotationError> {
    parse_cell(token)
        .ok_or_else(|| NotationError::new(token, "expected a point such as e5 (a2..k10)"))
}

/// The positive direction (`0..3`) and distance from `a` to `b` along a line, if any.
fn line_between(a: usize, b: usize) -> Option<(usize, usize)> {
    for dir in 0..3 {
        let mut at = a;
        let mut distance = 0;
        while let Some(n) = step(at, dir) {
            distance += 1;
            if n == b {
                return Some((dir, distance));
            }
            at = n;
        }
    }
    None
}

impl Yinsh {
    fn parse_move_text(&self, token: &str) -> Result<Move, NotationError> {
        self.parse_move_parts(token).map_err(|e| {
            if e.token.is_empty() {
                NotationError::new(token, e.reason)
            } else {
                e
            }
        })
    }

    fn parse_move_parts(&self, token: &str) -> Result<Move, NotationError> {
        let lower = token.to_ascii_lowercase();
        if lower == "pass" {
            return Ok(Move::Pass);
        }
        if let Some(rest) = lower.strip_prefix('x') {
            if let Some((a, b)) = rest.split_once('-') {
                let (a, b) = (cell(a)?, cell(b)?);
                let (start, dir) = match (line_between(a, b), line_between(b, a)) {
                    (Some((dir, 4)), _) => (a, dir),
                    (_, Some((dir, 4))) => (b, dir),
                    _ => {
                        return Err(NotationError::new(
                            token,
                            "a row's two ends must be five points apart on a line",
                        ));
                    }
                };
                return Ok(Move::Row(start as u8, dir as u8));
            }
            return Ok(Move::RemoveRing(cell(rest)? as u8));
        }
        if let Some((a, b)) = lower.split_once('-') {
            return Ok(Move::Ring(cell(a)? as u8, cell(b)? as u8));
        }
        Ok(Move::Place(cell(&lower)? as u8))
    }
}

impl Notation for Yinsh {
    /// `white` (moves first) or `black`.
    fn side_name(side: Side) -> String {
        match side {
            Side::First => "white",
            Side::Second => "black",
        }
        .to_string()
    }

    fn start_position() -> Yinsh {
        Yinsh::new(false)
    }

    fn parse_position(text: &str) -> Result<Yinsh, NotationError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() != 6 {
            return Err(NotationError::new(
                text.trim(),
                "expected '<board> <side> <phase> <removed w-b> <passes> <normal|blitz>'",
            ));
        }
        let columns: Vec<&str> = words[0].split('/').collect();
        if columns.len() != COLUMNS {
            return Err(NotationError::new(
                words[0],
                "the board needs 11 columns a..k separated by '/'",
            ));
        }
        let mut cells = [EMPTY; CELLS];
        for (column, text) in columns.iter().enumerate() {
            let (low, high) = column_range(column);
            if text.chars().count() != high - low + 1 {
                return Err(NotationError::new(
                    *text,
                    format!(
                        "column {} needs {} points",
                        (b'a' + column as u8) as char,
                        high - low + 1
                    ),
                ));
            }
            for (row, ch) in (low..=high).zip(text.chars()) {
                let content = SYMBOLS.iter().position(|&s| s == ch).ok_or_else(|| {
                    NotationError::new(ch.to_string(), "expected one of . W B w b")
                })?;
                cells[cell_at(column, row).expect("on the board")] = content as u8;
            }
        }
        let side = parse_side(words[1])?;
        let phase_word = words[2].to_ascii_lowercase();
        let (phase, mover) = match phase_word.split_once(':') {
            None if phase_word == "place" => (Phase::Place, side),
            None if phase_word == "move" => (Phase::Move, side),
            Some(("row", m)) => (Phase::RemoveRow, parse_side(m)?),
            Some(("ring", m)) => (Phase::RemoveRing, parse_side(m)?),
            _ => {
                return Err(NotationError::new(
                    words[2],
                    "expected place, move, row:w|b or ring:w|b",
                ));
            }
        };
        let removed = words[3]
            .split_once('-')
            .and_then(|(w, b)| Some([w.parse::<u8>().ok()?, b.parse::<u8>().ok()?]))
            .ok_or_else(|| {
                NotationError::new(words[3], "expected rings removed as <white>-<black>")
            })?;
        let passes = words[4]
            .parse::<u8>()
            .map_err(|_| NotationError::new(words[4], "expected consecutive passes 0..2"))?;
        let blitz = match words[5].to_ascii_lowercase().as_str() {
            "normal" => false,
            "blitz" => true,
            _ => return Err(NotationError::new(words[5], "expected normal or blitz")),
        };
        Yinsh::from_parts(cells, side, phase, mover, removed, passes, blitz)
            .map_err(|e| NotationError::new(text.trim(), e))
    }

    fn format_position(&self) -> String {
        let mut board = Vec::with_capacity(COLUMNS);
        for column in 0..COLUMNS {
            let (low, high) = column_range(column);
            board.push(
                (low..=high)
                    .map(|row| {
                        SYMBOLS[usize::from(self.cell(cell_at(column, row).expect("on board")))]
                    })
                    .collect::<String>(),
            );
        }
        let phase = match self.phase() {
            Phase::Place => "place".to_string(),
            Phase::Move => "move".to_string(),
            Phase::RemoveRow => format!("row:{}", side_letter(self.mover)),
            Phase::RemoveRing => format!("ring:{}", side_letter(self.mover)),
        };
        format!(
            "{} {} {phase} {}-{} {} {}",
            board.join("/"),
            side_letter(self.side_to_move()),
            self.removed(Side::First),
            self.removed(Side::Second),
            self.passes,
            if self.is_blitz() { "blitz" } else { "normal" }
        )
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        let token = text.trim();
        if token.is_empty() {
            return Err(NotationError::new(token, "expected a move"));
        }
        let mv = self.parse_move_text(token)?;
        let mut legal = Vec::new();
        self.generate_moves(&mut legal);
        if legal.contains(&mv) {
            Ok(mv)
        } else if legal.is_empty() {
            Err(NotationError::new(token, "the game is over"))
        } else {
            let example = self.format_move(legal[0]);
            Err(NotationError::new(
                token,
                format!(
                    "not a legal move here ({:?} phase; e.g. {example})",
                    self.phase()
                ),
            ))
        }
    }

    fn format_move(&self, mv: Move) -> String {
        match mv {
            Move::Place(c) => cell_name(usize::from(c)),
            Move::Ring(a, b) => format!(
                "{}-{}",
                cell_name(usize::from(a)),
                cell_name(usize::from(b))
            ),
            Move::Row(start, dir) => {
                let mut end = usize::from(start);
                for _ in 0..4 {
                    end = step(end, usize::from(dir)).expect("a row on the board");
                }
                format!("x{}-{}", cell_name(usize::from(start)), cell_name(end))
            }
            Move::RemoveRing(c) => format!("x{}", cell_name(usize::from(c))),
            Move::Pass => "pass".to_string(),
        }
    }

    /// boardspace.net's SGF records (`GM[24]`), as [`read_sgf`] reads them.
    fn record_format() -> RecordFormat {
        RecordFormat {
            name: "boardspace SGF",
            extension: "sgf",
        }
    }

    /// SGF for a game from the empty board; from any other position (SGF records always
    /// start empty) the plain format.
    fn write_record(&self, moves: &[Move]) -> String {
        if self.format_position() == Yinsh::start_position().format_position() {
            write_sgf(moves)
        } else {
            write_plain_record(self, moves)
        }
    }

    /// SGF (text with `GM[`), or the plain format.
    fn read_record(text: &str) -> Result<(Yinsh, Vec<Move>), NotationError> {
        if text.contains("GM[") {
            Ok((Yinsh::start_position(), read_sgf(text)?.moves))
        } else {
            read_plain_record(text)
        }
    }

    /// SGF with its variations for a tree from the empty board ([`write_sgf_tree`]); from any
    /// other position the plain format of its main line.
    fn write_record_tree(&self, tree: &RecordTree<Move>) -> String {
        if self.format_position() == Yinsh::start_position().format_position() {
            write_sgf_tree(tree)
        } else {
            write_plain_record(self, &tree.main_line())
        }
    }

    /// SGF (text with `GM[`) with its variations ([`read_sgf_tree`]), or the plain format as a
    /// tree of one line.
    fn read_record_tree(text: &str) -> Result<(Yinsh, RecordTree<Move>), NotationError> {
        if text.contains("GM[") {
            Ok((Yinsh::start_position(), read_sgf_tree(text)?))
        } else {
            let (start, moves) = read_plain_record(text)?;
            Ok((start, RecordTree::from_line(&moves)))
        }
    }

    /// The board as drawn on the real one (lines of all three directions straight), every
    /// point written as its content and its row number (`.5` an empty E5, `W5` a white ring
    /// there), above the column letter; so `e5` is the point marked 5 above the letter E.
    fn display_board(&self) -> String {
        // Picture rows are constant `2·row − column`; column `c` starts at character `4·c`.
        let mut out = String::new();
        let letters: String = (0..COLUMNS)
            .map(|c| format!("{:<4}", (b'A' + c as u8) as char))
            .collect();
        for level in (-9..=21).rev() {
            let mut line = String::new();
            for column in 0..COLUMNS {
                let twice = level + column as i32;
                let cell = (twice > 0 && twice % 2 == 0)
                    .then(|| cell_at(column, (twice / 2) as usize))
                    .flatten();
                match cell {
                    Some(c) => line.push_str(&format!(
                        "{}{:<3}",
                        SYMBOLS[usize::from(self.cell(c))],
                        twice / 2
                    )),
                    None => line.push_str("    "),
                }
            }
            if !line.trim().is_empty() {
                out.push_str(line.trim_end());
                out.push('\n');
            }
        }
        out.push_str(letters.trim_end());
        out.push_str(&format!(
            "\nW/B rings, w/b markers, . empty; the number after a point is its row (.5 above E is e5)\n{} markers left; removed w {} b {}; {} to play ({:?})",
            crate::state::MARKERS - self.markers_on_board(),
            self.removed(Side::First),
            self.removed(Side::Second),
            if self.side_to_move() == Side::First { "white" } else { "black" },
            self.phase()
        ));
        out
    }
}
