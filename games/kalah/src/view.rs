//! How a Kalah position looks on a graphical board ([`plies_view::View`]), written, like the
//! rest of the crate, against public methods only: North's row on top and South's below (as
//! `display_board` draws them), each pit with its seed count and its letter, North's store on
//! the left and South's on the right, both with their counts.
//!
//! Ids: `south-a` .. `south-f`, `north-a` .. `north-f` (the letters of the notation, counted
//! from each side's own left) and `south-store`, `north-store`. A move is one click, the
//! mover's pit: South's `c` is `["south-c"]`.
//!
//! Key invariant: every pit has its own id and a move's path is the one pit it sows, so paths
//! are distinct single clicks.

use plies::{Game, Notation, Side};
use plies_view::{Cell, Label, Picture, Shape, View};

use crate::{Kalah, Sow};

/// The centre of North's store; South's is as far from the right edge.
const STORE_X: f32 = 1.0;
/// The centre of the leftmost pit.
const FIRST_PIT_X: f32 = 2.5;

/// The id of `side`'s pit `pit` (0 = `a`).
fn pit_id(side: Side, pit: usize) -> String {
    format!(
        "{}-{}",
        Kalah::side_name(side),
        char::from(b'a' + pit as u8)
    )
}

/// The id of `side`'s store.
fn store_id(side: Side) -> String {
    format!("{}-store", Kalah::side_name(side))
}

impl View for Kalah {
    fn picture(&self) -> Picture {
        let pits = self.pits();
        let width = 2.0 * FIRST_PIT_X + (pits - 1) as f32;
        let mut cells = Vec::with_capacity(2 * pits + 2);
        let mut labels = Vec::with_capacity(2 * pits);
        for side in Side::BOTH {
            for pit in 0..pits {
                // South sows left to right along the bottom, North right to left on top.
                let (column, y, label_y) = match side {
                    Side::First => (pit, 2.4, 3.2),
                    Side::Second => (pits - 1 - pit, 1.2, 0.4),
                };
                let x = FIRST_PIT_X + column as f32;
                let letter = char::from(b'a' + pit as u8).to_string();
                cells.push(Cell {
                    id: pit_id(side, pit),
                    x,
                    y,
                    size: 0.9,
                    shape: Shape::Circle,
                    kind: "pit".to_string(),
                    text: Some(self.seeds(side, pit).to_string()),
                });
                labels.push(Label {
                    x,
                    y: label_y,
                    text: letter,
                });
            }
            let x = match side {
                Side::First => width - STORE_X,
                Side::Second => STORE_X,
            };
            cells.push(Cell {
                id: store_id(side),
                x,
                y: 1.8,
                size: 1.6,
                shape: Shape::Circle,
                kind: "store".to_string(),
                text: Some(self.store(side).to_string()),
            });
        }
        Picture {
            width,
            height: 3.6,
            cells,
            labels,
            ..Picture::default()
        }
    }

    fn clicks(&self, mv: Sow) -> Vec<String> {
        vec![pit_id(self.side_to_move(), usize::from(mv.0))]
    }
}

#[cfg(test)]
mod tests;
