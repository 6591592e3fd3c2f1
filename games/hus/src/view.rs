//! How a Hus position looks on a graphical board ([`plies_view::View`]): the 4x16 pits as the
//! players face each other (player 0's two rows at the bottom, player 1's at the top, as the
//! terminal board draws them), each pit's seed count as its text and its pit number (the
//! number a move uses, from its owner's view) as a label beside it, a line between the two
//! halves, and a panel per player with its seed total.
//!
//! Ids: `p<player>-<pit>` (`p0-14`, `p1-31`). A move is one click, the mover's pit: `["p0-14"]`.
//!
//! Key invariant: ids are unique per (player, pit) and a move's path is the mover's own pit,
//! one pit per move, so paths are distinct single clicks.

use plies::{Game, Notation, Side};
use plies_view::{Cell, Label, Line, Panel, Picture, Shape, View};

use crate::state::{Hus, PITS, Pit};

/// Pits per row.
const COLUMNS: usize = PITS / 2;
/// The width of the drawing: a unit per pit and half a unit either side.
const WIDTH: f32 = COLUMNS as f32 + 1.0;
/// Where the two halves meet.
const MIDDLE: f32 = 3.3;

/// The click id of `side`'s pit `pit`.
fn pit_id(side: Side, pit: usize) -> String {
    format!("p{}-{pit}", side.index())
}

/// The centre of `side`'s pit `pit` (from its owner's view) and where its number is written.
/// Player 0's outer row (0..15) runs left to right along the bottom, its inner row (16..31)
/// back right to left above it; player 1's rows are the same turned half round, so inner pit
/// `i` of one player faces inner pit `47 - i` of the other in the same column.
fn place(side: Side, pit: usize) -> (f32, f32, f32) {
    let outer = pit < COLUMNS;
    let column = if outer { pit } else { PITS - 1 - pit };
    let (column, pit_y, label_y) = match (side, outer) {
        (Side::First, true) => (column, 5.4, 6.2),
        (Side::First, false) => (column, 4.4, 3.6),
        (Side::Second, true) => (COLUMNS - 1 - column, 1.2, 0.4),
        (Side::Second, false) => (COLUMNS - 1 - column, 2.2, 3.0),
    };
    (column as f32 + 1.0, pit_y, label_y)
}

/// `name` with its first letter in upper case.
fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

impl View for Hus {
    fn picture(&self) -> Picture {
        let mut cells = Vec::with_capacity(2 * PITS);
        let mut labels = Vec::with_capacity(2 * PITS);
        for side in Side::BOTH {
            for pit in 0..PITS {
                let (x, y, label_y) = place(side, pit);
                cells.push(Cell {
                    id: pit_id(side, pit),
                    x,
                    y,
                    size: 0.85,
                    shape: Shape::Circle,
                    kind: "pit".to_string(),
                    text: Some(self.seeds(side, pit).to_string()),
                });
                labels.push(Label {
                    x,
                    y: label_y,
                    text: pit.to_string(),
                });
            }
        }
        let panels = Side::BOTH
            .into_iter()
            .rev()
            .map(|side| Panel {
                title: format!(
                    "{}: {} seeds",
                    capitalised(&Hus::side_name(side)),
                    self.total(side)
                ),
                side: Some(side),
                items: Vec::new(),
            })
            .chain([Panel {
                title: format!("Round {}", self.round()),
                side: None,
                items: Vec::new(),
            }])
            .collect();
        Picture {
            width: WIDTH,
            height: 6.6,
            cells,
            lines: vec![Line {
                from: (0.3, MIDDLE),
                to: (WIDTH - 0.3, MIDDLE),
            }],
            pieces: Vec::new(),
            labels,
            panels,
            ..Picture::default()
        }
    }

    fn clicks(&self, mv: Pit) -> Vec<String> {
        vec![pit_id(self.side_to_move(), usize::from(mv.0))]
    }
}

#[cfg(test)]
mod tests;
