//! How an Onitama position looks on a graphical board ([`plies_view::View`]): the 5x5 board
//! with red (rank 1) at the bottom, the temples marked, the pieces, and the five cards as move
//! grids in three panels (blue's hand, red's hand, the side card).
//!
//! Ids: squares by their names (`a1` .. `e5`), cards `card:<name>` (`card:monkey`), and, only
//! when the side to move must pass, a button `pass`. A move is clicked card, piece, square
//! (`["card:tiger", "a5", "a3"]`); a pass is card then `pass` (`["card:ox", "pass"]`).
//!
//! Key invariant: the click path of a move spells its notation (`<card> <from>-<to>` or
//! `<card> pass`), so distinct moves have distinct paths; a pass path (2 clicks) is never a
//! prefix of a step path, because passes are legal only when no step is.

use plies::{Game, Notation, Side};
use plies_view::{Cell, Grid, Item, Label, Panel, Picture, Piece as Drawn, Shape, View};

use crate::card::Card;
use crate::moves::Move;
use crate::square::Square;
use crate::state::{Onitama, Piece};

/// Room for the coordinates around the board, in squares.
const MARGIN: f32 = 0.7;
/// The id of the pass button.
const PASS: &str = "pass";

/// The centre of `square` in the picture: files left to right, rank 1 at the bottom.
fn centre(square: Square) -> (f32, f32) {
    let x = MARGIN + f32::from(square.file()) + 0.5;
    let y = MARGIN + f32::from(4 - square.rank()) + 0.5;
    (x, y)
}

/// The click id of `card`.
fn card_id(card: Card) -> String {
    format!("card:{}", card.name())
}

/// `name` with its first letter in upper case.
fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

/// A card as a panel item: its name and its moves as the holder sees them (up is forward).
fn card_item(card: Card) -> Item {
    Item {
        id: card_id(card),
        text: capitalised(card.name()),
        grid: Some(Grid {
            size: 5,
            marks: card.spec().offsets.to_vec(),
        }),
    }
}

impl View for Onitama {
    fn picture(&self) -> Picture {
        let cells = Square::all()
            .map(|square| {
                let (x, y) = centre(square);
                let kind = match square {
                    Square::C1 => "temple-first",
                    Square::C5 => "temple-second",
                    _ => "light",
                };
                Cell {
                    id: square.to_string(),
                    x,
                    y,
                    size: 1.0,
                    shape: Shape::Square,
                    kind: kind.to_string(),
                    text: None,
                }
            })
            .collect();
        let pieces = Square::all()
            .filter_map(|square| {
                let (side, piece) = self.piece_at(square)?;
                let kind = match piece {
                    Piece::Student => "student",
                    Piece::Master => "master",
                };
                Some(Drawn {
                    cell: square.to_string(),
                    side,
                    kind: kind.to_string(),
                })
            })
            .collect();
        let mut labels = Vec::with_capacity(10);
        for i in 0..5u8 {
            let (x, _) = centre(Square::from_coords(i32::from(i), 0).expect("on the board"));
            let (_, y) = centre(Square::from_coords(0, i32::from(i)).expect("on the board"));
            labels.push(Label {
                x,
                y: MARGIN + 5.0 + MARGIN / 2.0,
                text: char::from(b'a' + i).to_string(),
            });
            labels.push(Label {
                x: MARGIN / 2.0,
                y,
                text: (i + 1).to_string(),
            });
        }
        let hand = |side: Side| Panel {
            title: format!("{}'s cards", capitalised(&Onitama::side_name(side))),
            side: Some(side),
            items: self.hand(side).into_iter().map(card_item).collect(),
        };
        let mut panels = vec![
            hand(Side::Second),
            hand(Side::First),
            Panel {
                title: "Side card".to_string(),
                side: None,
                items: vec![card_item(self.side_card())],
            },
        ];
        if self.move_count_is_pass() {
            panels.push(Panel {
                title: "No piece can move: choose a card to give away, then pass".to_string(),
                side: Some(self.side_to_move()),
                items: vec![Item {
                    id: PASS.to_string(),
                    text: "Pass".to_string(),
                    grid: None,
                }],
            });
        }
        Picture {
            width: 5.0 + 2.0 * MARGIN,
            height: 5.0 + 2.0 * MARGIN,
            cells,
            lines: Vec::new(),
            pieces,
            labels,
            panels,
            ..Picture::default()
        }
    }

    fn clicks(&self, mv: Move) -> Vec<String> {
        match (mv.from(), mv.to()) {
            (Some(from), Some(to)) => vec![card_id(mv.card()), from.to_string(), to.to_string()],
            _ => vec![card_id(mv.card()), PASS.to_string()],
        }
    }
}

#[cfg(test)]
mod tests;
