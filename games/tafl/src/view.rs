//! How a tafl position looks on a graphical board ([`plies_view::View`]): the `dim` x `dim`
//! board of any variant (7x7 to 19x19) with rank 1 at the bottom, its special squares as cell
//! kinds (`corner`, `throne`, `fortress`, the rest `light`) coloured by the game
//! ([`Picture::cell_colours`], [`SQUARE_COLOURS`]), file letters and rank numbers as
//! OTN writes them, attackers, defenders and the king as pieces, and a panel naming the
//! variant and where the king escapes.
//!
//! Variants ([`View::variants`]): every built-in variant of [`crate::variants::VARIANTS`],
//! named by its rules string's `name` (`Copenhagen Official`), described from its rules
//! (`crate::describe`), its position the start as [`Notation::format_position`] writes it. A
//! position is of the variant whose rules it carries ([`View::variant_of`]; custom rules are
//! of none).
//!
//! Ids: squares by their OTN names (`a1`, `f6`, `s19`). A move is clicked piece, square:
//! `["d1", "d4"]`.
//!
//! Key invariant: the click path of a move is its two squares, so distinct moves have distinct
//! paths of the same length and none is a prefix of another.

use plies::{Notation, Side};
use plies_view::{Cell, Colour, Label, Panel, Picture, Piece as Drawn, Shape, Variant, View};

use crate::board::{Piece, square_name};
use crate::describe::{full_rules, summary};
use crate::rules::Rules;
use crate::state::{Tafl, TaflMove};
use crate::variants::{variant_of_rules, variant_starts};

/// Room for the coordinates around the board, in squares.
const MARGIN: f32 = 0.8;

/// The colours of tafl's special squares, by cell kind: a gold throne, brown corners and
/// lighter brown edge fortresses, on the page's `light` squares.
const SQUARE_COLOURS: [(&str, Colour); 3] = [
    ("throne", Colour::rgb(0xc9, 0xa2, 0x27)),
    ("corner", Colour::rgb(0x8d, 0x6e, 0x63)),
    ("fortress", Colour::rgb(0xa1, 0x88, 0x7f)),
];

/// The centre of square `sq` on a `dim` board: files left to right, rank 1 at the bottom.
fn centre(sq: usize, dim: usize) -> (f32, f32) {
    let (file, rank) = (sq % dim, sq / dim);
    let x = MARGIN + file as f32 + 0.5;
    let y = MARGIN + (dim - 1 - rank) as f32 + 0.5;
    (x, y)
}

/// A built-in variant's name for people: its rules' `name` (`Sea Battle`), else its lookup
/// name.
fn display_name(rules: &Rules, lookup: &str) -> String {
    if rules.name.is_empty() {
        lookup.to_string()
    } else {
        rules.name.clone()
    }
}

/// `name` with its first letter in upper case.
fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

impl View for Tafl {
    fn picture(&self) -> Picture {
        let rules = self.rules();
        let dim = rules.dim;
        let cells = (0..dim * dim)
            .map(|sq| {
                let (x, y) = centre(sq, dim);
                let kind = if rules.is_corner(sq) {
                    "corner"
                } else if rules.is_throne(sq) {
                    "throne"
                } else if rules.is_fortress(sq) {
                    "fortress"
                } else {
                    "light"
                };
                Cell {
                    id: square_name(sq, dim),
                    x,
                    y,
                    size: 1.0,
                    shape: Shape::Square,
                    kind: kind.to_string(),
                    text: None,
                }
            })
            .collect();
        let pieces = (0..dim * dim)
            .filter_map(|sq| {
                let (side, kind) = match self.board().get(sq) {
                    Piece::Empty => return None,
                    Piece::Attacker => (Side::First, "attacker"),
                    Piece::Defender => (Side::Second, "defender"),
                    Piece::King => (Side::Second, "king"),
                };
                Some(Drawn {
                    cell: square_name(sq, dim),
                    side,
                    kind: kind.to_string(),
                })
            })
            .collect();
        let mut labels = Vec::with_capacity(2 * dim);
        for i in 0..dim {
            let (x, _) = centre(i, dim);
            let (_, y) = centre(i * dim, dim);
            labels.push(Label {
                x,
                y: MARGIN + dim as f32 + MARGIN / 2.0,
                text: char::from(b'a' + i as u8).to_string(),
            });
            labels.push(Label {
                x: MARGIN / 2.0,
                y,
                text: (i + 1).to_string(),
            });
        }
        let name = rules.name.replace('_', " ");
        let escape = if rules.edge_escape {
            "the king escapes on any edge square"
        } else {
            "the king escapes on a corner"
        };
        let title = if name.is_empty() {
            format!("{dim}x{dim} tafl: {escape}")
        } else {
            format!("{name} ({dim}x{dim}): {escape}")
        };
        let counts = Side::BOTH.into_iter().map(|side| Panel {
            title: format!(
                "{}: {}",
                capitalised(&Tafl::side_name(side)),
                self.piece_count(side)
            ),
            side: Some(side),
            items: Vec::new(),
        });
        let mut panels = vec![Panel {
            title,
            side: None,
            items: Vec::new(),
        }];
        panels.extend(counts);
        Picture {
            width: dim as f32 + 2.0 * MARGIN,
            height: dim as f32 + 2.0 * MARGIN,
            cells,
            lines: Vec::new(),
            pieces,
            labels,
            panels,
            cell_colours: SQUARE_COLOURS
                .iter()
                .map(|&(kind, colour)| (kind.to_string(), colour))
                .collect(),
        }
    }

    fn clicks(&self, mv: TaflMove) -> Vec<String> {
        let dim = self.rules().dim;
        vec![
            square_name(usize::from(mv.from), dim),
            square_name(usize::from(mv.to), dim),
        ]
    }

    /// Every built-in variant, Copenhagen (the start position) first, then in the order of
    /// [`crate::variants::VARIANTS`].
    fn variants() -> Vec<Variant> {
        let default = Tafl::start_position();
        let mut starts: Vec<_> = variant_starts().iter().collect();
        starts.sort_by_key(|(_, start)| start.rules() != default.rules());
        starts
            .into_iter()
            .map(|(variant, start)| Variant {
                name: display_name(start.rules(), variant.name),
                description: summary(start),
                rules: full_rules(start),
                position: start.format_position(),
            })
            .collect()
    }

    fn variant_of(&self) -> Option<String> {
        variant_of_rules(self.rules()).map(|variant| display_name(self.rules(), variant.name))
    }
}

#[cfg(test)]
mod tests;
