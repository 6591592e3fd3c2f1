//! How a Yinsh position looks on a graphical board ([`plies_view::View`]): the 85 points
//! (`Shape::Point`) on the grid lines of the three directions, drawn as on the real board
//! (columns upright, a unit between neighbours), column letters under the columns and row
//! numbers at the left end of the rows, rings and markers as pieces, a panel per side with the
//! rings it has removed, and a panel saying what the side to move decides, holding the `pass`
//! button when passing is the move.
//!
//! Ids: points by their names (`a2` .. `k10`), and `pass`. Click paths: place a ring `[c]`,
//! move a ring `[from, to]`, remove a row `[start, end]` (its lower end first, as
//! [`crate::Move::Row`] names it, then the marker four points on), remove a ring `[c]`, pass
//! `["pass"]`.
//!
//! Variants ([`View::variants`]): `Yinsh` (three rings removed win) and `Yinsh Blitz` (one), the
//! empty board as the start; a position's variant is its Blitz flag.
//!
//! Key invariant: the legal moves of a position are all of one phase, so their paths all have
//! the same length (one click, or two), except a pass, which is alone; distinct moves have
//! distinct paths, so none is a prefix of another.

use plies::bits::set_bits;
use plies::{Game, Notation, Outcome, Side};
use plies_view::{Cell, Item, Label, Line, Panel, Picture, Piece, Shape, Variant, View};

use crate::board::{CELLS, COLUMNS, cell_at, cell_name, column_range, coords, step};
use crate::state::{Move, Phase, Yinsh};

/// Room for the coordinates around the points.
const MARGIN: f32 = 1.0;
/// The horizontal distance between two columns (the lines are a unit long).
const COLUMN_STEP: f32 = 0.866_025_4;
/// The highest `row - column / 2` on the board (G11, E10), the top of the drawing.
const TOP: f32 = 8.0;
/// The lowest `row - column / 2` on the board (E1, G2).
const BOTTOM: f32 = -1.0;
/// The id of the pass button.
const PASS: &str = "pass";

/// The centre of `cell`: column `c` upright at `c * COLUMN_STEP`, each row number half a unit
/// lower per column, so all three line directions are a unit per step.
fn centre(cell: usize) -> (f32, f32) {
    let (column, row) = coords(cell);
    let x = MARGIN + column as f32 * COLUMN_STEP;
    let y = MARGIN + TOP - (row as f32 - column as f32 / 2.0);
    (x, y)
}

/// `centre(cell)` moved `distance` units against direction `dir` (`0..3`).
fn before(cell: usize, dir: usize, distance: f32) -> (f32, f32) {
    let (x, y) = centre(cell);
    let (dx, dy) = match dir {
        0 => (0.0, -1.0),
        1 => (COLUMN_STEP, 0.5),
        _ => (COLUMN_STEP, -0.5),
    };
    (x - distance * dx, y - distance * dy)
}

/// `name` with its first letter in upper case.
fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

/// The board's grid: every maximal line of points along the three positive directions.
fn grid_lines() -> Vec<Line> {
    let mut lines = Vec::new();
    for dir in 0..3 {
        for start in 0..CELLS {
            if step(start, dir + 3).is_some() {
                continue;
            }
            let mut end = start;
            while let Some(next) = step(end, dir) {
                end = next;
            }
            if end != start {
                lines.push(Line {
                    from: centre(start),
                    to: centre(end),
                });
            }
        }
    }
    lines
}

/// The labels: column letters under the columns, row numbers left of each row's first point.
fn coordinates() -> Vec<Label> {
    let mut labels = Vec::new();
    for column in 0..COLUMNS {
        let (low, _) = column_range(column);
        let (x, y) = before(cell_at(column, low).expect("on the board"), 0, 0.7);
        labels.push(Label {
            x,
            y,
            text: char::from(b'a' + column as u8).to_string(),
        });
    }
    for row in 1..=11 {
        let first = (0..COLUMNS).find_map(|column| cell_at(column, row));
        let (x, y) = before(first.expect("every row has points"), 1, 0.7);
        labels.push(Label {
            x,
            y,
            text: row.to_string(),
        });
    }
    labels
}

impl Yinsh {
    /// What the side to move decides, for the status panel.
    fn status(&self, passing: bool) -> String {
        let name = |side| capitalised(&Yinsh::side_name(side));
        match self.outcome() {
            Some(Outcome::Win(side)) => return format!("{} wins", name(side)),
            Some(Outcome::Draw) => return "Draw".to_string(),
            None => {}
        }
        let who = name(self.side_to_move());
        let left = crate::state::MARKERS - self.markers_on_board();
        match self.phase() {
            Phase::Place => format!("{who}: place a ring"),
            Phase::Move if passing => {
                format!("{who}: no ring can move, pass ({left} markers left)")
            }
            Phase::Move => format!("{who}: move a ring ({left} markers left)"),
            Phase::RemoveRow => format!("{who}: remove a row (click its two ends)"),
            Phase::RemoveRing => format!("{who}: remove one of your rings"),
        }
    }
}

/// The name of the normal variant.
const NORMAL: &str = "Yinsh";
/// The name of the Blitz variant.
const BLITZ: &str = "Yinsh Blitz";

/// A variant's full rules: those of both, and how many rings removed win.
fn rules(wins: u8) -> String {
    let rings = if wins == 1 { "ring" } else { "rings" };
    [
        "Board: 85 points, a2 to k10, on lines of three directions; 5 rings a side and a pool of 51 markers, white on one face and black on the other.".to_string(),
        "Placement: White first, the players place their five rings one at a time on empty points.".to_string(),
        "Move: put a marker of your colour in one of your rings, then move that ring along a line over empty points; it may jump one unbroken group of markers, which flip, and stops on the first empty point after them. A ring never passes over a ring.".to_string(),
        "Rows: five markers of one colour in a line are a row; its owner removes those five (his choice on a longer run or crossing rows) and then one of his rings. The mover's rows go first, then the opponent's.".to_string(),
        format!("Win: the first to remove {wins} {rings} wins."),
        "When the 51 markers are all on the board at the start of a turn, the game ends: more rings removed wins, equal is a draw.".to_string(),
        "A side whose rings cannot move passes; two passes in a row end the game as if the markers had run out.".to_string(),
    ]
    .join("\n")
}

impl View for Yinsh {
    fn picture(&self) -> Picture {
        let cells = (0..CELLS)
            .map(|cell| {
                let (x, y) = centre(cell);
                Cell {
                    id: cell_name(cell),
                    x,
                    y,
                    size: 0.8,
                    shape: Shape::Point,
                    kind: "point".to_string(),
                    text: None,
                }
            })
            .collect();
        let mut pieces = Vec::new();
        for (content, side, kind) in [
            (1, Side::First, "ring"),
            (2, Side::Second, "ring"),
            (3, Side::First, "marker"),
            (4, Side::Second, "marker"),
        ] {
            for cell in set_bits(self.cells_with(content)) {
                pieces.push(Piece {
                    cell: cell_name(cell as usize),
                    side,
                    kind: kind.to_string(),
                });
            }
        }
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        let passing = moves.contains(&Move::Pass);
        let mut panels: Vec<Panel> = Side::BOTH
            .into_iter()
            .map(|side| Panel {
                title: format!(
                    "{}: {} of {} rings removed",
                    capitalised(&Yinsh::side_name(side)),
                    self.removed(side),
                    self.target()
                ),
                side: Some(side),
                items: Vec::new(),
            })
            .collect();
        panels.push(Panel {
            title: self.status(passing),
            side: self.outcome().is_none().then(|| self.side_to_move()),
            items: if passing {
                vec![Item {
                    id: PASS.to_string(),
                    text: "Pass".to_string(),
                    grid: None,
                }]
            } else {
                Vec::new()
            },
        });
        Picture {
            width: 2.0 * MARGIN + (COLUMNS - 1) as f32 * COLUMN_STEP,
            height: 2.0 * MARGIN + TOP - BOTTOM,
            cells,
            lines: grid_lines(),
            pieces,
            labels: coordinates(),
            panels,
            ..Picture::default()
        }
    }

    fn clicks(&self, mv: Move) -> Vec<String> {
        let name = |cell: u8| cell_name(usize::from(cell));
        match mv {
            Move::Place(cell) | Move::RemoveRing(cell) => vec![name(cell)],
            Move::Ring(from, to) => vec![name(from), name(to)],
            Move::Row(start, dir) => {
                let mut end = usize::from(start);
                for _ in 0..4 {
                    end = step(end, usize::from(dir)).expect("a row lies on the board");
                }
                vec![name(start), cell_name(end)]
            }
            Move::Pass => vec![PASS.to_string()],
        }
    }

    /// Yinsh (the start position), then Yinsh Blitz.
    fn variants() -> Vec<Variant> {
        [(NORMAL, false, 3), (BLITZ, true, 1)]
            .into_iter()
            .map(|(name, blitz, wins)| {
                let rings = if wins == 1 { "ring" } else { "rings" };
                Variant {
                    name: name.to_string(),
                    description: format!(
                        "85 points, 5 rings a side, 51 markers; five in a row remove a ring; the first to remove {wins} {rings} wins"
                    ),
                    rules: rules(wins),
                    position: Yinsh::new(blitz).format_position(),
                }
            })
            .collect()
    }

    fn variant_of(&self) -> Option<String> {
        Some(if self.is_blitz() { BLITZ } else { NORMAL }.to_string())
    }
}

#[cfg(test)]
mod tests;
