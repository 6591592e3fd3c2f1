//! OTN text for [`Tafl`]: positions (rules string + board + side), simple and full OTN moves,
//! and the [`plies::Notation`] implementation.
//!
//! Position text (what `--position` takes), one of:
//! - a full OTN rules string (`dim:... start:/.../`), optionally with the extension key
//!   `turn:a` / `turn:d` (side to move; default from `atkf`) before `start:`; without `turn:`
//!   the board is a start position and needs a king, with it (a written position) the board
//!   may be a finished game without one;
//! - a built-in variant name, optionally followed by a position record (rank 1 first) and
//!   `a` / `d` for the side to move: `brandub /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ d`.
//!
//! [`Notation::format_position`] writes the first form with every rule explicit, so a
//! position always carries its rules. Key invariant: `parse_position(format_position(p))` has
//! the same rules, board, side and outcome.

use plies::{Game, Notation, NotationError, Outcome, RecordFormat, Side, read_plain_record};

use crate::board::{Board, Piece, parse_square, square_name};
use crate::record::GameRecord;
use crate::rules::{Rules, intern};
use crate::state::{Tafl, TaflMove};
use crate::variants::{start_of, variant};

fn parse_side(text: &str) -> Result<Side, NotationError> {
    match text.to_ascii_lowercase().as_str() {
        "a" | "attackers" => Ok(Side::First),
        "d" | "defenders" => Ok(Side::Second),
        _ => Err(NotationError::new(
            text,
            "expected a side: a (attackers) or d (defenders)",
        )),
    }
}

impl Tafl {
    /// Reads position text (see the module docs).
    pub fn parse(text: &str) -> Result<Tafl, NotationError> {
        let text = text.trim();
        if text.starts_with("dim:") {
            let mut side = None;
            let mut rest = Vec::new();
            for token in text.split_whitespace() {
                if let Some(v) = token.strip_prefix("turn:") {
                    side = Some(parse_side(v)?);
                } else {
                    rest.push(token);
                }
            }
            // With `turn:` this is a written position, which may be a game the attackers won
            // by capturing the king; a plain rules string needs its king.
            let (rules, board) = if side.is_some() {
                Rules::parse_any_board(&rest.join(" "))?
            } else {
                Rules::parse(&rest.join(" "))?
            };
            let side = side.unwrap_or(if rules.attackers_first {
                Side::First
            } else {
                Side::Second
            });
            return Ok(Tafl::new(intern(rules), board, side));
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some(name) = words.first() else {
            return Err(NotationError::new("", "empty position"));
        };
        let start = start_of(name)?;
        let board = match words.get(1) {
            Some(record) => Board::parse(record, start.rules.dim, false)?,
            None => start.board,
        };
        let side = match words.get(2) {
            Some(s) => parse_side(s)?,
            None => start.side,
        };
        if let Some(extra) = words.get(3) {
            return Err(NotationError::new(
                *extra,
                "unexpected text after the side to move",
            ));
        }
        Ok(Tafl::new(start.rules, board, side))
    }

    /// The position as text: the OTN rules string with this board as `start:` and `turn:`.
    #[must_use]
    pub fn to_text(&self) -> String {
        let side = if self.side == Side::First { "a" } else { "d" };
        self.rules
            .to_otn(&self.board)
            .replacen(" start:", &format!(" turn:{side} start:"), 1)
    }

    /// The full OTN move record: `[K]from-to[xsq/sq...][++|--]` (`++` king captured, `--` king
    /// escaped or the defenders otherwise won).
    #[must_use]
    pub fn format_move_full(&self, mv: TaflMove) -> String {
        let dim = self.rules.dim;
        let mut s = String::new();
        if self.board.get(mv.from as usize) == Piece::King {
            s.push('K');
        }
        s += &self.format_move(mv);
        let captured = self.captured_by(mv);
        let mut first = true;
        for sq in &captured {
            if self.board.get(*sq) == Piece::King {
                continue;
            }
            s.push(if first { 'x' } else { '/' });
            first = false;
            s += &square_name(*sq, dim);
        }
        match self.play(mv).outcome() {
            Some(Outcome::Win(Side::First)) if self.side == Side::First => s += "++",
            Some(Outcome::Win(Side::Second)) if self.side == Side::Second => s += "--",
            _ => {}
        }
        s
    }

    /// Reads an OTN move (simple or full) into its squares; legality is not checked. Capture
    /// lists and info symbols are accepted and ignored.
    pub fn parse_move_squares(&self, text: &str) -> Result<(usize, usize), NotationError> {
        let dim = self.rules.dim;
        let t = text.trim();
        if t == "---" {
            return Err(NotationError::new(t, "a resignation, not a move"));
        }
        let b = t.as_bytes();
        let body = if b.len() >= 2 && b"tcnkmgTCNKMG".contains(&b[0]) && b[1].is_ascii_alphabetic()
        {
            &t[1..]
        } else {
            t
        };
        let split = body
            .find(['-', '^', '='])
            .ok_or_else(|| NotationError::new(t, "expected a move like a4-a1"))?;
        let (from_text, rest) = body.split_at(split);
        if !rest.starts_with('-') || rest.starts_with("-=") {
            return Err(NotationError::new(
                t,
                "jumps and berserk moves are not supported",
            ));
        }
        let rest = &rest[1..];
        let end = rest
            .char_indices()
            .skip(1)
            .find(|(_, c)| !c.is_ascii_digit())
            .map_or(rest.len(), |(i, _)| i);
        let (to_text, tail) = rest.split_at(end);
        let from = parse_square(from_text, dim).ok_or_else(|| {
            NotationError::new(from_text, format!("not a square of this {dim}x{dim} board"))
        })?;
        let to = parse_square(to_text, dim).ok_or_else(|| {
            NotationError::new(to_text, format!("not a square of this {dim}x{dim} board"))
        })?;
        if !(tail.is_empty() || tail.starts_with(['x', '+', '-'])) {
            return Err(NotationError::new(
                tail,
                "expected captures (xb2/c3) or + - ++ --",
            ));
        }
        Ok((from, to))
    }

    /// A text picture of the board, top rank first, with file letters and rank numbers, a
    /// legend of the symbols it uses (those of the variant's squares only) and where the king
    /// escapes.
    #[must_use]
    pub fn picture(&self) -> String {
        let dim = self.rules.dim;
        let mut s = String::new();
        for rank in (0..dim).rev() {
            s += &format!("{:>2} ", rank + 1);
            for file in 0..dim {
                let sq = rank * dim + file;
                let c = match self.board.get(sq) {
                    Piece::Attacker => 't',
                    Piece::Defender => 'T',
                    Piece::King => 'K',
                    Piece::Empty if self.rules.is_corner(sq) || self.rules.is_throne(sq) => '+',
                    Piece::Empty if self.rules.is_fortress(sq) => '*',
                    Piece::Empty => '.',
                };
                s.push(c);
                s.push(' ');
            }
            s.push('\n');
        }
        s += "   ";
        for file in 0..dim {
            s.push((b'a' + file as u8) as char);
            s.push(' ');
        }
        s += &format!(
            "\n{}\n{} to move",
            self.legend(),
            if self.side == Side::First {
                "attackers"
            } else {
                "defenders"
            }
        );
        s
    }

    /// The legend line of [`Tafl::picture`].
    fn legend(&self) -> String {
        let rules = self.rules;
        let mut entries = vec![
            "t attacker".to_string(),
            "T defender".to_string(),
            "K king".to_string(),
        ];
        let special: Vec<&str> = [
            (!rules.corners.is_empty(), "corner"),
            (!rules.thrones.is_empty(), "throne"),
        ]
        .into_iter()
        .filter_map(|(present, name)| present.then_some(name))
        .collect();
        if !special.is_empty() {
            entries.push(format!("+ {} (empty)", special.join(" or ")));
        }
        if !rules.attacker_forts.is_empty() || !rules.defender_forts.is_empty() {
            entries.push("* fortress (empty)".to_string());
        }
        entries.push(". empty".to_string());
        let escape = if rules.edge_escape {
            "any edge square"
        } else {
            "a corner"
        };
        format!("{}; the king escapes on {escape}", entries.join("  "))
    }
}

impl Notation for Tafl {
    /// `attackers` (move first) or `defenders`.
    fn side_name(side: Side) -> String {
        match side {
            Side::First => "attackers",
            Side::Second => "defenders",
        }
        .to_string()
    }

    /// Copenhagen (OpenTafl's rules string).
    fn start_position() -> Tafl {
        start_of("copenhagen").expect("the built-in Copenhagen rules string parses")
    }

    fn parse_position(text: &str) -> Result<Tafl, NotationError> {
        Tafl::parse(text)
    }

    fn format_position(&self) -> String {
        self.to_text()
    }

    fn parse_move(&self, text: &str) -> Result<TaflMove, NotationError> {
        let (from, to) = self.parse_move_squares(text)?;
        let mv = TaflMove {
            from: from as u16,
            to: to as u16,
        };
        if self.outcome.is_some() {
            return Err(NotationError::new(text, "the game is over"));
        }
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        if moves.contains(&mv) {
            Ok(mv)
        } else {
            Err(NotationError::new(text.trim(), "not a legal move here"))
        }
    }

    fn format_move(&self, mv: TaflMove) -> String {
        let dim = self.rules.dim;
        format!(
            "{}-{}",
            square_name(mv.from as usize, dim),
            square_name(mv.to as usize, dim)
        )
    }

    fn display_board(&self) -> String {
        self.picture()
    }

    /// OpenTafl's game records (.otg): tags, the rules string with the start position, then
    /// numbered turns of full OTN moves ([`GameRecord::to_otg`]).
    fn record_format() -> RecordFormat {
        RecordFormat {
            name: "OpenTafl game record",
            extension: "otg",
        }
    }

    fn write_record(&self, moves: &[TaflMove]) -> String {
        let mut record = GameRecord::new(*self);
        for &mv in moves {
            record.play(mv);
        }
        record.to_otg(&[])
    }

    /// An .otg record, or the plain format: when its first line is `position ...`, and when
    /// a text without tags (`[...]` lines) does not start with a position line as .otg does
    /// (moves from the start, or a position and moves on the first line: `brandub d7-c7`).
    fn read_record(text: &str) -> Result<(Tafl, Vec<TaflMove>), NotationError> {
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('['));
        if first.is_some_and(|l| l.starts_with("position ")) {
            return read_plain_record(text);
        }
        let tagged = text.lines().any(|l| l.trim_start().starts_with('['));
        let record = GameRecord::from_otg(text);
        if record.as_ref().is_err_and(|e| e.ply == 0) && !tagged {
            return read_plain_record(text);
        }
        let record = record.map_err(|e| NotationError {
            reason: if e.ply == 0 {
                format!("rules string: {}", e.error.reason)
            } else {
                format!("ply {}: {}", e.ply, e.error.reason)
            },
            token: e.error.token,
        })?;
        Ok((*record.start(), record.moves().to_vec()))
    }
}

/// Whether `name` is a built-in variant name (for callers choosing between names and rules).
#[must_use]
pub fn is_variant_name(name: &str) -> bool {
    variant(name).is_some()
}
