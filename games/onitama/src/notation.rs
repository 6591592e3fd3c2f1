//! Onitama text: positions, moves and a board picture for people ([`plies::Notation`]).
//!
//! Position: `<rank5>/<rank4>/<rank3>/<rank2>/<rank1> <to-move> <red1>,<red2> <blue1>,<blue2>
//! <side>`, ranks from 5 down to 1 and files a to e, `r`/`R` a red student/master, `b`/`B` a blue
//! student/master, digits 1–5 runs of empty squares; `<to-move>` is `r` or `b`; red's cards,
//! then blue's, then the side card, in lower case. Example (the start position):
//! `bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon`.
//!
//! Move: `<card> <from>-<to>` (`tiger a5-a3`), pass: `<card> pass`. Sea Snake is written
//! `seasnake` (`sea-snake` and `sea_snake` are read too). Input is case-insensitive. As one word
//! (engine protocols such as UGI read a move as one token) a move is `tiger:a5-a3`, read too.
//!
//! Key invariants: formatting writes hands lower card id first, so
//! `parse_position(format_position(p)) == p` and `parse_move(format_move(m)) == m`; every
//! rejection names the offending token and never panics.

use std::fmt::Write;

use plies::{Notation, NotationError, Side};

use crate::card::Card;
use crate::moves::Move;
use crate::square::Square;
use crate::state::{BLUE_TEMPLE, Onitama, Piece, RED_TEMPLE};

/// The start position: the deal red Monkey, Crane; blue Tiger, Crab; side Dragon (red stamp,
/// red moves first).
pub const START_POSITION: &str = "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon";

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "red",
        Side::Second => "blue",
    }
}

fn parse_card(token: &str) -> Result<Card, NotationError> {
    Card::parse(token).ok_or_else(|| NotationError::new(token, "unknown card name"))
}

fn parse_hand(token: &str) -> Result<[Card; 2], NotationError> {
    let names: Vec<&str> = token.split(',').collect();
    let [first, second] = names[..] else {
        return Err(NotationError::new(
            token,
            "expected two card names separated by a comma",
        ));
    };
    Ok([parse_card(first)?, parse_card(second)?])
}

/// Reads the board field into (all pieces, masters) per side.
fn parse_board(token: &str) -> Result<([u32; 2], [u32; 2]), NotationError> {
    let ranks: Vec<&str> = token.split('/').collect();
    if ranks.len() != 5 {
        return Err(NotationError::new(
            token,
            format!("expected 5 ranks separated by '/', found {}", ranks.len()),
        ));
    }
    let mut pieces = [0u32; 2];
    let mut masters = [0u32; 2];
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = 4 - row;
        let mut file = 0usize;
        for c in rank_text.chars() {
            if let Some(run) = c.to_digit(10).filter(|d| (1..=5).contains(d)) {
                file += run as usize;
                continue;
            }
            let (side, is_master) = match c {
                'r' => (0, false),
                'R' => (0, true),
                'b' => (1, false),
                'B' => (1, true),
                _ => {
                    return Err(NotationError::new(
                        *rank_text,
                        format!("'{c}' is not r, R, b, B or a digit 1-5"),
                    ));
                }
            };
            if file < 5 {
                let bit = 1 << (rank * 5 + file);
                pieces[side] |= bit;
                if is_master {
                    masters[side] |= bit;
                }
            }
            file += 1;
        }
        if file != 5 {
            return Err(NotationError::new(
                *rank_text,
                format!("rank {} covers {file} squares, expected 5", rank + 1),
            ));
        }
    }
    for side in Side::BOTH {
        let i = side.index();
        let name = side_name(side);
        let count = masters[i].count_ones();
        if count > 1 {
            return Err(NotationError::new(
                token,
                format!("{name} has {count} masters, expected 1 (0 only once captured)"),
            ));
        }
        let students = (pieces[i] & !masters[i]).count_ones();
        if students > 4 {
            return Err(NotationError::new(
                token,
                format!("{name} has {students} students, at most 4 allowed"),
            ));
        }
    }
    let red_won = masters[1] == 0 || masters[0] & BLUE_TEMPLE != 0;
    let blue_won = masters[0] == 0 || masters[1] & RED_TEMPLE != 0;
    if red_won && blue_won {
        return Err(NotationError::new(
            token,
            "both sides have won (a master missing or on the enemy temple on both sides)",
        ));
    }
    Ok((pieces, masters))
}

impl Notation for Onitama {
    /// `red` (moves first) or `blue`.
    fn side_name(side: Side) -> String {
        side_name(side).to_string()
    }

    fn start_position() -> Onitama {
        Onitama::parse_position(START_POSITION).expect("the start position parses")
    }

    fn parse_position(text: &str) -> Result<Onitama, NotationError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, to_move, red, blue, side] = fields[..] else {
            return Err(NotationError::new(
                text.trim(),
                format!(
                    "expected 5 fields '<board> <r|b> <red1>,<red2> <blue1>,<blue2> <side>', \
                     found {}",
                    fields.len()
                ),
            ));
        };
        let (pieces, masters) = parse_board(board)?;
        let to_move = match to_move.to_ascii_lowercase().as_str() {
            "r" => Side::First,
            "b" => Side::Second,
            _ => {
                return Err(NotationError::new(
                    to_move,
                    "expected the side to move, 'r' or 'b'",
                ));
            }
        };
        let hands = [parse_hand(red)?, parse_hand(blue)?];
        let side_card = parse_card(side)?;
        Onitama::from_parts(pieces, masters, hands, side_card, to_move)
    }

    fn format_position(&self) -> String {
        let mut text = String::with_capacity(64);
        for rank in (0..5).rev() {
            let mut empty = 0;
            for file in 0..5 {
                let square = Square::from_coords(file, rank).expect("on the board");
                let symbol = match self.piece_at(square) {
                    None => {
                        empty += 1;
                        continue;
                    }
                    Some((Side::First, Piece::Student)) => 'r',
                    Some((Side::First, Piece::Master)) => 'R',
                    Some((Side::Second, Piece::Student)) => 'b',
                    Some((Side::Second, Piece::Master)) => 'B',
                };
                if empty > 0 {
                    let _ = write!(text, "{empty}");
                    empty = 0;
                }
                text.push(symbol);
            }
            if empty > 0 {
                let _ = write!(text, "{empty}");
            }
            if rank > 0 {
                text.push('/');
            }
        }
        let to_move = if self.to_move() == Side::First {
            'r'
        } else {
            'b'
        };
        let [r1, r2] = self.hand(Side::First);
        let [b1, b2] = self.hand(Side::Second);
        let _ = write!(text, " {to_move} {r1},{r2} {b1},{b2} {}", self.side_card());
        text
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        // `monkey a1-b2`, or as one word `monkey:a1-b2` (engine protocols).
        let words: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ':')
            .filter(|w| !w.is_empty())
            .collect();
        let [card_word, action] = words[..] else {
            return Err(NotationError::new(
                text.trim(),
                "expected '<card> <from>-<to>' or '<card> pass' (or one word, '<card>:<from>-<to>')",
            ));
        };
        let card = parse_card(card_word)?;
        let me = self.to_move();
        let name = side_name(me);
        if self.is_over() {
            return Err(NotationError::new(text.trim(), "the game is over"));
        }
        let hand = self.hand(me);
        if !hand.contains(&card) {
            return Err(NotationError::new(
                card_word,
                format!(
                    "not in {name}'s hand ({name} holds {}, {})",
                    hand[0], hand[1]
                ),
            ));
        }
        let mv = if action.eq_ignore_ascii_case("pass") {
            Move::pass(card)
        } else {
            let Some((from_text, to_text)) = action.split_once('-') else {
                return Err(NotationError::new(
                    action,
                    "expected '<from>-<to>' (like a1-a2) or 'pass'",
                ));
            };
            let square = |t: &str| {
                Square::parse(t).ok_or_else(|| NotationError::new(t, "expected a square a1..e5"))
            };
            let (from, to) = (square(from_text)?, square(to_text)?);
            if !self.pieces(me).contains(from) {
                return Err(NotationError::new(
                    from_text,
                    format!("no {name} piece on {from}"),
                ));
            }
            if !card.targets(me, from).contains(to) {
                return Err(NotationError::new(
                    action,
                    format!("{card} does not move a {name} piece from {from} to {to}"),
                ));
            }
            if self.pieces(me).contains(to) {
                return Err(NotationError::new(
                    to_text,
                    format!("{to} holds a {name} piece"),
                ));
            }
            Move::new(card, from, to)
        };
        let mut legal = Vec::with_capacity(crate::movegen::MAX_MOVES);
        self.legal_moves(&mut legal);
        if legal.contains(&mv) {
            Ok(mv)
        } else {
            Err(NotationError::new(
                action,
                "passing is only legal when no piece can move",
            ))
        }
    }

    fn format_move(&self, mv: Move) -> String {
        match (mv.from(), mv.to()) {
            (Some(from), Some(to)) => format!("{} {from}-{to}", mv.card()),
            _ => format!("{} pass", mv.card()),
        }
    }

    fn words_per_move(&self) -> usize {
        2
    }

    /// The board (rank 5 on top, `+` marks an empty temple), then each hand and the side card
    /// with their moves drawn as they apply on the board: `o` is a piece on c3, `x` where it
    /// can go (blue's cards are seen turned round, as blue plays them).
    fn display_board(&self) -> String {
        let mut out = String::new();
        cards_block(&mut out, "blue", &self.hand(Side::Second), Side::Second);
        for rank in (0..5).rev() {
            let _ = write!(out, "  {} |", rank + 1);
            for file in 0..5 {
                let square = Square::from_coords(file, rank).expect("on the board");
                let symbol = match self.piece_at(square) {
                    None if square == Square::C1 || square == Square::C5 => '+',
                    None => '.',
                    Some((Side::First, Piece::Student)) => 'r',
                    Some((Side::First, Piece::Master)) => 'R',
                    Some((Side::Second, Piece::Student)) => 'b',
                    Some((Side::Second, Piece::Master)) => 'B',
                };
                let _ = write!(out, " {symbol}");
            }
            out.push('\n');
        }
        out.push_str("      a b c d e\n");
        cards_block(&mut out, "red", &self.hand(Side::First), Side::First);
        // The side card is drawn for the player who will take it: the side to move.
        cards_block(&mut out, "side", &[self.side_card()], self.to_move());
        let _ = match self.winner() {
            Some(side) => writeln!(out, "  {} wins", side_name(side)),
            None => writeln!(out, "  {} to move", side_name(self.to_move())),
        };
        out
    }
}

/// Card names with their move patterns side by side, as seen on the board by `holder`.
fn cards_block(out: &mut String, label: &str, cards: &[Card], holder: Side) {
    let _ = write!(out, "  {label:<5}");
    for card in cards {
        let _ = write!(out, " {:<11}", card.name());
    }
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    out.push('\n');
    for rank in (0..5).rev() {
        out.push_str("       ");
        for card in cards {
            let targets = card.targets(holder, Square::C3);
            for file in 0..5 {
                let square = Square::from_coords(file, rank).expect("on the board");
                let symbol = if square == Square::C3 {
                    'o'
                } else if targets.contains(square) {
                    'x'
                } else {
                    '.'
                };
                let _ = write!(out, "{symbol} ");
            }
            out.push_str("  ");
        }
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
        out.push('\n');
    }
}
