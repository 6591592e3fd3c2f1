//! # plies-view
//!
//! How a position looks and how a move is clicked, for graphical front ends such as the web
//! page of `plies-cli serve`. A game implements [`View`]: [`View::picture`] describes the
//! position as plain data (cells with their places, shapes and kinds, the colours of the
//! game's own kinds of cells, pieces on cells, labels, lines and side panels such as Onitama's
//! cards) and [`View::clicks`] names, for each legal move, the
//! click targets that make it, in order (Onitama: card, piece, square; tafl: piece, square;
//! Hus: pit), and [`View::alternative_clicks`] other paths that make it too (a Connect Four
//! drop: any cell of the column, besides the cell it lands on). The page knows no game: it draws the picture as SVG and, from the legal moves'
//! click paths, highlights what can be clicked next.
//!
//! Both methods have defaults, so `impl View for MyGame {}` already gives a working page: the
//! position's text in a panel and one button per legal move. A game with a board draws it.
//!
//! The page colours the cell kinds it knows (`light`, `dark`, `pit`, `store`, Onitama's
//! temples); a game gives its own kinds their colours in [`Picture::cell_colours`] (tafl: its
//! throne, corners and fortresses), which the page uses over its own.
//!
//! A game with variants (tafl's Brandub, Copenhagen, ...; Yinsh's Blitz) lists them in
//! [`View::variants`] for the page's variant picker, each a name, a one-line description, the
//! full rules and the start position, and names the variant of a position in
//! [`View::variant_of`]. Both default to none.
//!
//! Key invariants: every click target a move names is the `id` of a cell or of a panel item of
//! the same position's picture; no two click paths of the legal moves (alternatives included)
//! are the same, and none is a proper prefix of another (so a completed path is exactly one
//! move).
//! [`check_view`] checks both along any positions. Variant names are unique, each variant's
//! position reads back as a position of that variant; [`check_variants`] checks it.

#![deny(missing_docs)]

use plies::{Notation, Side, excerpt};
use std::collections::BTreeMap;

use serde::Serialize;

/// A drawing of one position, in board units (the page scales it to fit).
///
/// In JSON every number is written as the shortest decimal that reads back as the same `f32`
/// (`0.9`, not `0.8999999761581421`), also after a trip through `serde_json::Value`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Picture {
    /// Width of the drawing area.
    #[serde(serialize_with = "short")]
    pub width: f32,
    /// Height of the drawing area.
    #[serde(serialize_with = "short")]
    pub height: f32,
    /// The places of the board, drawn first; clickable.
    pub cells: Vec<Cell>,
    /// Lines drawn under the pieces (Yinsh's grid, Onitama's temple marks, ...).
    pub lines: Vec<Line>,
    /// The pieces, each on a cell.
    pub pieces: Vec<Piece>,
    /// Coordinates and other text on the board.
    pub labels: Vec<Label>,
    /// Panels beside the board (cards in hand, counters, buttons); clickable items.
    pub panels: Vec<Panel>,
    /// The game's own colours for kinds of cells, by [`Cell::kind`] (tafl's `throne`): the
    /// page fills every square or circle cell of a kind named here with its colour, over the
    /// page's own colour for that kind, if any. Kinds not named keep the page's colours (it
    /// knows `light`, `dark`, `pit`, `store`, ...; others it draws plainly). In JSON an object
    /// from kind to `"#rrggbb"`.
    pub cell_colours: BTreeMap<String, Colour>,
}

/// A colour, 8 bits a channel; in JSON (and as text) `#rrggbb`, which any page can use as a
/// CSS colour and which cannot carry anything but a colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Colour {
    /// Red, 0 to 255.
    pub red: u8,
    /// Green, 0 to 255.
    pub green: u8,
    /// Blue, 0 to 255.
    pub blue: u8,
}

impl Colour {
    /// The colour of these channels: `Colour::rgb(0xc9, 0xa2, 0x27)` is `#c9a227`.
    #[must_use]
    pub const fn rgb(red: u8, green: u8, blue: u8) -> Colour {
        Colour { red, green, blue }
    }
}

impl std::fmt::Display for Colour {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.red, self.green, self.blue)
    }
}

impl Serialize for Colour {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The shape of a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// A square centred on the cell's point, `size` wide.
    Square,
    /// A circle centred on the cell's point, `size` across (a pit, a hole).
    Circle,
    /// An intersection of lines (Yinsh): a small dot, clickable over `size` across.
    Point,
}

/// One place of the board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    /// Its click target (unique in the picture), usually its name in the game's notation.
    pub id: String,
    /// Its centre.
    #[serde(serialize_with = "short")]
    pub x: f32,
    /// Its centre.
    #[serde(serialize_with = "short")]
    pub y: f32,
    /// Its width (or diameter).
    #[serde(serialize_with = "short")]
    pub size: f32,
    /// Its shape.
    pub shape: Shape,
    /// What kind of place it is, for colouring: `light`, `dark`, `temple-first`,
    /// `temple-second`, `pit`, `store`, ... (the page colours the names it knows and draws
    /// others plainly), or a kind of the game's own (tafl's `throne`, `corner`, `fortress`)
    /// that [`Picture::cell_colours`] gives a colour.
    pub kind: String,
    /// Text shown in the cell (a pit's seed count), if any.
    pub text: Option<String>,
}

/// A piece on a cell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Piece {
    /// The `id` of the cell it stands on.
    pub cell: String,
    /// Whose piece it is (its colour); `"first"` or `"second"` in JSON.
    #[serde(serialize_with = "side_word")]
    pub side: Side,
    /// What it is, for drawing: `stone`, `king`, `master`, `student`, `ring`, `marker`, ...
    pub kind: String,
}

/// Text at a point of the drawing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Label {
    /// Where its centre is.
    #[serde(serialize_with = "short")]
    pub x: f32,
    /// Where its centre is.
    #[serde(serialize_with = "short")]
    pub y: f32,
    /// The text.
    pub text: String,
}

/// A line of the board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    /// One end.
    #[serde(serialize_with = "short_point")]
    pub from: (f32, f32),
    /// The other end.
    #[serde(serialize_with = "short_point")]
    pub to: (f32, f32),
}

/// A panel beside the board: a title and clickable items.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Panel {
    /// Its heading (`Red's cards`, `Side card`, ...).
    pub title: String,
    /// The side it belongs to (its colour), if any; `"first"`, `"second"` or `null` in JSON.
    #[serde(serialize_with = "optional_side_word")]
    pub side: Option<Side>,
    /// Its items, left to right.
    pub items: Vec<Item>,
}

/// A clickable item of a panel: a card with a move grid, or a plain button.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Item {
    /// Its click target (unique in the picture).
    pub id: String,
    /// Its caption.
    pub text: String,
    /// A card's move grid, if it is a card.
    pub grid: Option<Grid>,
}

/// A card's move grid (Onitama): a square of `size` cells, the piece in the middle, marks
/// where it may go, as seen by the side holding the card (up is away from its owner).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Grid {
    /// Cells per side (odd).
    pub size: u8,
    /// The marked cells, as `(dx, dy)` from the centre, `dy` positive upward.
    pub marks: Vec<(i8, i8)>,
}

/// One variant of a game, for a variant picker: shown as its name and one-line description,
/// the full rules on demand; choosing it starts a game at its position.
///
/// In JSON: `{"name": ..., "description": ..., "rules": ..., "position": ...}`, all strings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Variant {
    /// Its name for people (`Copenhagen`, `Blitz`), unique among the game's variants; what
    /// [`View::variant_of`] returns for its positions.
    pub name: String,
    /// What it is, in one line (no line break): board, pieces, the rules that set it apart.
    pub description: String,
    /// Its full rules for people, several lines (`\n` between them).
    pub rules: String,
    /// Its start position in the game's notation, as [`Notation::format_position`] writes
    /// it; [`Notation::parse_position`] reads it.
    pub position: String,
}

/// `"first"` or `"second"`: a side as the page reads it.
#[must_use]
pub fn side_key(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

/// `value` as the shortest decimal that reads back as it (`0.9`, not the `0.8999999761581421`
/// of its exact value), so that JSON, whose numbers are read as `f64`, carries no float noise.
fn shortest(value: f32) -> f64 {
    // `f32`'s `Display` writes the shortest text that reads back as the same `f32`; an `f64`
    // read from that text is the nearest `f64` to that decimal, which prints as it.
    value.to_string().parse().unwrap_or(f64::from(value))
}

fn short<S: serde::Serializer>(value: &f32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(shortest(*value))
}

fn short_point<S: serde::Serializer>(point: &(f32, f32), s: S) -> Result<S::Ok, S::Error> {
    (shortest(point.0), shortest(point.1)).serialize(s)
}

fn side_word<S: serde::Serializer>(side: &Side, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(side_key(*side))
}

fn optional_side_word<S: serde::Serializer>(side: &Option<Side>, s: S) -> Result<S::Ok, S::Error> {
    match side {
        Some(side) => s.serialize_str(side_key(*side)),
        None => s.serialize_none(),
    }
}

/// How a game's positions look and its moves are clicked (see the crate docs).
pub trait View: Notation {
    /// The drawing of this position. The default is a panel holding the position's text and a
    /// button per legal move (whose ids [`View::clicks`]'s default names).
    fn picture(&self) -> Picture {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        Picture {
            width: 0.0,
            height: 0.0,
            panels: vec![
                Panel {
                    title: self.format_position(),
                    side: None,
                    items: Vec::new(),
                },
                Panel {
                    title: "Moves".to_string(),
                    side: Some(self.side_to_move()),
                    items: moves
                        .iter()
                        .map(|&mv| {
                            let text = self.format_move(mv);
                            Item {
                                id: format!("move {text}"),
                                text,
                                grid: None,
                            }
                        })
                        .collect(),
                },
            ],
            ..Picture::default()
        }
    }

    /// The click targets that make the legal move `mv` here, in order. The default is the one
    /// button of [`View::picture`]'s default.
    fn clicks(&self, mv: Self::Move) -> Vec<String> {
        vec![format!("move {}", self.format_move(mv))]
    }

    /// Other click paths that make the legal move `mv` here, besides [`View::clicks`] (Connect
    /// Four: the other cells of the column, each a path of one click). [`View::clicks`] stays
    /// the move's own path, the one the page marks for the last move and draws for the best.
    /// The default is none.
    fn alternative_clicks(&self, mv: Self::Move) -> Vec<Vec<String>> {
        let _ = mv;
        Vec::new()
    }

    /// The game's variants, for a variant picker, the usual one first. The default is none (a
    /// game of one set of rules).
    fn variants() -> Vec<Variant> {
        Vec::new()
    }

    /// The name of the variant (one of [`View::variants`]) this position is played under, or
    /// `None` when it is none of them (custom rules) or the game has no variants. The default
    /// is `None`.
    fn variant_of(&self) -> Option<String> {
        None
    }
}

/// What [`check_view`] found wrong, naming the position and the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewError(pub String);

impl std::fmt::Display for ViewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ViewError {}

/// Checks the invariants of the crate docs on every one of `positions`: ids unique, every click
/// target of every legal move an id of the picture, click paths (alternatives included) not
/// empty, distinct and none a prefix of another, pieces standing on cells.
///
/// # Errors
/// The first broken invariant, naming the position (in notation) and the move.
pub fn check_view<G: View>(positions: &[G]) -> Result<usize, ViewError> {
    let mut checked = 0;
    let mut moves = Vec::new();
    for state in positions {
        let at = || state.format_position();
        let picture = state.picture();
        let mut ids = std::collections::HashSet::new();
        let cell_ids = picture.cells.iter().map(|c| c.id.as_str());
        let item_ids = picture
            .panels
            .iter()
            .flat_map(|p| p.items.iter().map(|i| i.id.as_str()));
        for id in cell_ids.chain(item_ids) {
            if !ids.insert(id) {
                return Err(ViewError(format!("{}: id '{id}' used twice", at())));
            }
        }
        for piece in &picture.pieces {
            if !picture.cells.iter().any(|c| c.id == piece.cell) {
                return Err(ViewError(format!(
                    "{}: a piece on no cell '{}'",
                    at(),
                    piece.cell
                )));
            }
        }
        moves.clear();
        state.generate_moves(&mut moves);
        let paths: Vec<(String, Vec<String>)> = moves
            .iter()
            .flat_map(|&mv| {
                let text = state.format_move(mv);
                click_paths(state, mv).map(move |path| (text.clone(), path))
            })
            .collect();
        for (text, path) in &paths {
            if path.is_empty() {
                return Err(ViewError(format!("{}: move {text} has no clicks", at())));
            }
            if let Some(bad) = path.iter().find(|id| !ids.contains(id.as_str())) {
                return Err(ViewError(format!(
                    "{}: move {text} clicks '{bad}', which is not in the picture",
                    at()
                )));
            }
        }
        for (i, (a, pa)) in paths.iter().enumerate() {
            for (b, pb) in &paths[i + 1..] {
                let (short, long) = if pa.len() <= pb.len() {
                    (pa, pb)
                } else {
                    (pb, pa)
                };
                if long.starts_with(short) {
                    return Err(ViewError(format!(
                        "{}: moves {a} and {b}: one's clicks {:?} begin the other's {:?}",
                        at(),
                        short,
                        long
                    )));
                }
            }
        }
        checked += 1;
    }
    Ok(checked)
}

/// Checks [`View::variants`]: names and descriptions not empty, names unique, descriptions
/// one line, rules not empty; each variant's position reads ([`Notation::parse_position`]) and
/// is written back the same ([`Notation::format_position`]), and [`View::variant_of`] names the
/// variant there (or is `None` at every variant's start, for a game whose positions do not
/// tell).
///
/// # Errors
/// The first broken rule, naming the variant.
pub fn check_variants<G: View>() -> Result<usize, ViewError> {
    let variants = G::variants();
    let mut names = std::collections::HashSet::new();
    let mut told = None;
    for variant in &variants {
        let name = &variant.name;
        let fail = |what: String| Err(ViewError(format!("variant '{name}': {what}")));
        if name.trim().is_empty() {
            return fail("an empty name".to_string());
        }
        if !names.insert(name.as_str()) {
            return fail("the name is used twice".to_string());
        }
        if variant.description.trim().is_empty() || variant.rules.trim().is_empty() {
            return fail("an empty description or rules".to_string());
        }
        if variant.description.contains(['\n', '\r']) {
            return fail("the description is more than one line".to_string());
        }
        let start = match G::parse_position(&variant.position) {
            Ok(start) => start,
            Err(e) => return fail(format!("the position does not read: {e}")),
        };
        if start.format_position() != variant.position {
            return fail(format!(
                "the position is not as format_position writes it: '{}'",
                excerpt(&start.format_position())
            ));
        }
        let of = start.variant_of();
        if of.as_ref().is_some_and(|of| of != name) {
            return fail(format!("variant_of its position says {of:?}"));
        }
        match told {
            None => told = Some(of.is_some()),
            Some(told) if told != of.is_some() => {
                return fail(
                    "variant_of names some variants' positions, not this one's".to_string(),
                );
            }
            Some(_) => {}
        }
    }
    Ok(variants.len())
}

/// Every click path of the legal move `mv`: [`View::clicks`], then the alternatives.
fn click_paths<G: View>(state: &G, mv: G::Move) -> impl Iterator<Item = Vec<String>> {
    std::iter::once(state.clicks(mv)).chain(state.alternative_clicks(mv))
}

/// The move a click path makes, following it as the page does: each click must keep some
/// legal move's path (or alternative path) possible, and the whole path must be exactly one
/// move's.
///
/// # Errors
/// A click leads nowhere, or the path ends before a move is complete.
pub fn move_of_clicks<G: View>(state: &G, path: &[String]) -> Result<G::Move, ViewError> {
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    let paths: Vec<(G::Move, Vec<String>)> = moves
        .iter()
        .flat_map(|&mv| click_paths(state, mv).map(move |path| (mv, path)))
        .collect();
    for k in 1..=path.len() {
        if !paths.iter().any(|(_, p)| p.starts_with(&path[..k])) {
            return Err(ViewError(format!(
                "{}: click {k} of {path:?} leads nowhere",
                state.format_position()
            )));
        }
    }
    let mut done = paths.iter().filter(|(_, p)| p == path).map(|&(mv, _)| mv);
    match (done.next(), done.next()) {
        (Some(mv), None) => Ok(mv),
        (None, _) => Err(ViewError(format!(
            "{}: {path:?} is not a whole move",
            state.format_position()
        ))),
        (Some(_), Some(_)) => Err(ViewError(format!(
            "{}: {path:?} is the path of two moves",
            state.format_position()
        ))),
    }
}

#[cfg(any(test, feature = "testing"))]
mod testing {
    //! The toy games of [`plies::testing`] with the default view.
    use super::View;
    use plies::testing::{Maze, TwoPiles};

    impl View for TwoPiles {}
    impl View for Maze {}
}

#[cfg(test)]
mod tests;
