//! The default view, [`check_view`] and [`check_variants`]: the defaults pass the checks on a
//! toy game, a toy with variants passes the second, and each broken invariant is caught.

use plies::testing::{Maze, TwoPiles};
use plies::{Game, Notation, Side};

use super::{
    Cell, Colour, Label, Line, Picture, Piece, Shape, Variant, View, check_variants, check_view,
    move_of_clicks,
};

/// Maze with a board whose clicks break one invariant, chosen by `fault`.
#[derive(Clone)]
struct Faulty(Maze, u8);

#[test]
fn defaults_pass_the_check_and_name_every_move() {
    let mut positions = vec![TwoPiles::new(3, 2, Side::First)];
    let mut moves = Vec::new();
    for _ in 0..3 {
        let state = positions.last().unwrap().clone();
        moves.clear();
        state.generate_moves(&mut moves);
        positions.push(state.play(moves[0]));
    }
    assert_eq!(check_view(&positions), Ok(4));
    let start = &positions[0];
    let picture = start.picture();
    let buttons: Vec<&str> = picture.panels[1]
        .items
        .iter()
        .map(|i| i.text.as_str())
        .collect();
    moves.clear();
    start.generate_moves(&mut moves);
    let texts: Vec<String> = moves.iter().map(|&mv| start.format_move(mv)).collect();
    assert_eq!(buttons, texts);
    let json = serde_json::to_value(&picture).unwrap();
    assert_eq!(json["panels"][1]["side"], "first");
}

fn cell(id: &str) -> Cell {
    Cell {
        id: id.to_string(),
        x: 0.0,
        y: 0.0,
        size: 1.0,
        shape: Shape::Square,
        kind: "light".to_string(),
        text: None,
    }
}

/// One of the invariants broken on purpose, and the words the error must contain.
fn broken(fault: u8) -> Picture {
    let mut picture = Picture {
        width: 2.0,
        height: 1.0,
        cells: vec![cell("a"), cell("b")],
        ..Picture::default()
    };
    match fault {
        0 => picture.cells.push(cell("a")),
        1 => picture.pieces.push(Piece {
            cell: "z".to_string(),
            side: Side::First,
            kind: "stone".to_string(),
        }),
        6.. => picture.cells.extend([cell("c"), cell("d")]),
        _ => {}
    }
    picture
}

impl Game for Faulty {
    type Move = u8;
    fn side_to_move(&self) -> Side {
        self.0.side_to_move()
    }
    fn generate_moves(&self, moves: &mut Vec<u8>) {
        moves.extend([0, 1]);
    }
    fn play(&self, mv: u8) -> Faulty {
        Faulty(self.0.play(mv), self.1)
    }
    fn outcome(&self) -> Option<plies::Outcome> {
        None
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn hash_from_scratch(&self) -> u64 {
        self.0.hash_from_scratch()
    }
    fn move_index(&self, mv: u8) -> usize {
        usize::from(mv)
    }
    fn move_index_bound(&self) -> usize {
        2
    }
    fn classify(&self, _: u8) -> plies::MoveClass {
        plies::MoveClass::Quiet
    }
}

impl Notation for Faulty {
    fn start_position() -> Faulty {
        Faulty(Maze::start_position(), 0)
    }
    fn parse_position(text: &str) -> Result<Faulty, plies::NotationError> {
        Maze::parse_position(text).map(|m| Faulty(m, 0))
    }
    fn format_position(&self) -> String {
        format!("fault {}", self.1)
    }
    fn parse_move(&self, text: &str) -> Result<u8, plies::NotationError> {
        text.parse()
            .map_err(|_| plies::NotationError::new(text, "not a move"))
    }
    fn format_move(&self, mv: u8) -> String {
        mv.to_string()
    }
}

impl View for Faulty {
    fn picture(&self) -> Picture {
        broken(self.1)
    }
    fn clicks(&self, mv: u8) -> Vec<String> {
        match (self.1, mv) {
            (2, _) => vec!["q".to_string()],
            (3, 0) => vec!["a".to_string()],
            (3, _) => vec!["a".to_string(), "b".to_string()],
            (4, _) => vec!["a".to_string()],
            (5, 1) => Vec::new(),
            (_, 0) => vec!["a".to_string()],
            (_, _) => vec!["b".to_string()],
        }
    }
    /// From fault 6 on, each move also by one click on a cell of its own (c for 0, d for 1),
    /// then one alternative broken (7: move 1's is move 0's path; 8: not in the picture; 9:
    /// empty; 10: move 0's begins its own other path).
    fn alternative_clicks(&self, mv: u8) -> Vec<Vec<String>> {
        let own = vec![if mv == 0 { "c" } else { "d" }.to_string()];
        let bad = match (self.1, mv) {
            (7, 1) => vec!["a".to_string()],
            (8, 0) => vec!["q".to_string()],
            (9, 0) => Vec::new(),
            (10, 0) => vec!["c".to_string(), "d".to_string()],
            _ => return if self.1 >= 6 { vec![own] } else { Vec::new() },
        };
        vec![own, bad]
    }
}

#[test]
fn each_broken_invariant_is_named() {
    let expect = [
        (0, "used twice"),
        (1, "a piece on no cell 'z'"),
        (2, "clicks 'q', which is not in the picture"),
        (3, "begin the other's"),
        (4, "begin the other's"),
        (5, "move 1 has no clicks"),
        (
            7,
            "moves 0 and 1: one's clicks [\"a\"] begin the other's [\"a\"]",
        ),
        (8, "move 0 clicks 'q', which is not in the picture"),
        (9, "move 0 has no clicks"),
        (
            10,
            "moves 0 and 0: one's clicks [\"c\"] begin the other's [\"c\", \"d\"]",
        ),
    ];
    for (fault, words) in expect {
        let state = Faulty(Maze::new(0, 100, 0), fault);
        let err = check_view(&[state]).expect_err(words).to_string();
        assert!(err.starts_with(&format!("fault {fault}: ")), "{err}");
        assert!(err.contains(words), "fault {fault}: {err}");
    }
    assert_eq!(check_view(&[Faulty(Maze::new(0, 100, 0), 6)]), Ok(1));
}

/// A move's alternative click paths make it as its own path does, and only it.
#[test]
fn alternative_paths_make_their_move() {
    let state = Faulty(Maze::new(0, 100, 0), 6);
    let path = |ids: &[&str]| -> Vec<String> { ids.iter().map(|id| id.to_string()).collect() };
    for (ids, mv) in [(["a"], 0), (["c"], 0), (["b"], 1), (["d"], 1)] {
        assert_eq!(move_of_clicks(&state, &path(&ids)), Ok(mv), "{ids:?}");
    }
    assert!(move_of_clicks(&state, &path(&["c", "d"])).is_err());
    // Without alternatives (fault 4 and below) a click on c leads nowhere.
    let plain = Faulty(Maze::new(0, 100, 0), 3);
    assert!(move_of_clicks(&plain, &path(&["c"])).is_err());
}

/// Two piles under one of two variants, `small` or `big`, named first in the position text
/// (`big 9 9 1`), as tafl's positions carry their rules; `FAULT` breaks one rule of
/// [`check_variants`] (0: none).
#[derive(Clone)]
struct Ruled<const FAULT: u8> {
    piles: TwoPiles,
    big: bool,
}

type Take = <TwoPiles as Game>::Move;

impl<const FAULT: u8> Game for Ruled<FAULT> {
    type Move = Take;
    fn side_to_move(&self) -> Side {
        self.piles.side_to_move()
    }
    fn generate_moves(&self, moves: &mut Vec<Take>) {
        self.piles.generate_moves(moves);
    }
    fn play(&self, mv: Take) -> Self {
        Ruled {
            piles: self.piles.play(mv),
            big: self.big,
        }
    }
    fn outcome(&self) -> Option<plies::Outcome> {
        self.piles.outcome()
    }
    fn hash(&self) -> u64 {
        self.piles.hash() ^ u64::from(self.big)
    }
    fn hash_from_scratch(&self) -> u64 {
        self.piles.hash_from_scratch() ^ u64::from(self.big)
    }
    fn move_index(&self, mv: Take) -> usize {
        self.piles.move_index(mv)
    }
    fn move_index_bound(&self) -> usize {
        self.piles.move_index_bound()
    }
    fn classify(&self, mv: Take) -> plies::MoveClass {
        self.piles.classify(mv)
    }
}

impl<const FAULT: u8> Notation for Ruled<FAULT> {
    fn start_position() -> Self {
        Self::parse_position("small 3 2 1").expect("the start parses")
    }
    fn parse_position(text: &str) -> Result<Self, plies::NotationError> {
        let (word, piles) = text.trim().split_once(' ').unwrap_or((text.trim(), ""));
        let big = match word.to_ascii_lowercase().as_str() {
            "small" => false,
            "big" => true,
            _ => return Err(plies::NotationError::new(word, "expected small or big")),
        };
        let piles = TwoPiles::parse_position(piles)?;
        Ok(Ruled { piles, big })
    }
    fn format_position(&self) -> String {
        let word = if self.big { "big" } else { "small" };
        format!("{word} {}", self.piles.format_position())
    }
    fn parse_move(&self, text: &str) -> Result<Take, plies::NotationError> {
        self.piles.parse_move(text)
    }
    fn format_move(&self, mv: Take) -> String {
        self.piles.format_move(mv)
    }
}

impl<const FAULT: u8> View for Ruled<FAULT> {
    fn variants() -> Vec<Variant> {
        let variant = |name: &str, position: &str| Variant {
            name: name.to_string(),
            description: format!("{name} piles"),
            rules: "Take 1 to 3 from a pile.\nTaking the last wins.".to_string(),
            position: position.to_string(),
        };
        let mut variants = vec![variant("Small", "small 3 2 1"), variant("Big", "big 9 9 1")];
        let big = &mut variants[1];
        match FAULT {
            1 => big.name = "Small".to_string(),
            2 => big.description = "big\npiles".to_string(),
            3 => big.position = "huge 9 9 1".to_string(),
            4 => big.position = "BIG 9 9 1".to_string(),
            5 => big.name = String::new(),
            6 => big.rules = " ".to_string(),
            _ => {}
        }
        variants
    }

    fn variant_of(&self) -> Option<String> {
        match (FAULT, self.big) {
            (7, _) => Some("Small".to_string()),
            (8, true) | (9, _) => None,
            (_, false) => Some("Small".to_string()),
            (_, true) => Some("Big".to_string()),
        }
    }
}

#[test]
fn by_default_a_game_has_no_variants() {
    assert!(TwoPiles::variants().is_empty());
    assert_eq!(TwoPiles::start_position().variant_of(), None);
    assert_eq!(check_variants::<TwoPiles>(), Ok(0));
}

#[test]
fn variants_pass_the_check_and_serialize_by_field_name() {
    assert_eq!(check_variants::<Ruled<0>>(), Ok(2));
    // A game whose positions do not tell their variant passes too.
    assert_eq!(check_variants::<Ruled<9>>(), Ok(2));
    let big = Ruled::<0>::parse_position("big 4 4 2").unwrap();
    assert_eq!(big.variant_of().as_deref(), Some("Big"));
    let json = serde_json::to_value(Ruled::<0>::variants()).unwrap();
    assert_eq!(
        json[1],
        serde_json::json!({
            "name": "Big",
            "description": "Big piles",
            "rules": "Take 1 to 3 from a pile.\nTaking the last wins.",
            "position": "big 9 9 1",
        })
    );
}

#[test]
fn each_broken_variant_rule_is_named() {
    fn error<G: View>() -> String {
        check_variants::<G>().expect_err("a fault").to_string()
    }
    let expect = [
        (
            error::<Ruled<1>>(),
            "variant 'Small': the name is used twice",
        ),
        (error::<Ruled<2>>(), "more than one line"),
        (error::<Ruled<3>>(), "'huge': expected small or big"),
        (
            error::<Ruled<4>>(),
            "not as format_position writes it: 'big 9 9 1'",
        ),
        (error::<Ruled<5>>(), "variant '': an empty name"),
        (error::<Ruled<6>>(), "an empty description or rules"),
        (
            error::<Ruled<7>>(),
            "variant_of its position says Some(\"Small\")",
        ),
        (
            error::<Ruled<8>>(),
            "names some variants' positions, not this one's",
        ),
    ];
    for (err, words) in expect {
        assert!(err.contains(words), "{err} (expected: {words})");
        assert!(!err.contains('\n'), "{err}");
    }
}

#[test]
fn numbers_are_written_as_their_shortest_decimal() {
    let picture = Picture {
        width: 0.9,
        height: 7.3,
        cells: vec![Cell {
            x: 0.1,
            y: 2.0 / 3.0,
            size: 0.866,
            ..cell("a")
        }],
        lines: vec![Line {
            from: (0.3, 1.7),
            to: (-0.45, 1e-3),
        }],
        labels: vec![Label {
            x: 5.55,
            y: 0.2,
            text: "a".to_string(),
        }],
        ..Picture::default()
    };
    // Through a `Value` (as the page's answers are built) the numbers are `f64`s: an `f32`
    // widened as it is would print as 0.8999999761581421.
    let through_value = serde_json::to_value(&picture).unwrap().to_string();
    let direct = serde_json::to_string(&picture).unwrap();
    for expected in [
        r#""width":0.9"#,
        r#""height":7.3"#,
        r#""x":0.1"#,
        r#""y":0.6666667"#,
        r#""size":0.866"#,
        r#""from":[0.3,1.7]"#,
        r#""to":[-0.45,0.001]"#,
        r#""x":5.55"#,
        r#""y":0.2"#,
    ] {
        for text in [&through_value, &direct] {
            assert!(text.contains(expected), "{expected} not in {text}");
        }
    }
}

#[test]
fn cell_colours_are_written_as_css_hex_by_kind() {
    assert_eq!(Colour::rgb(0, 0x0f, 0xff).to_string(), "#000fff");
    let plain = serde_json::to_value(Picture::default()).unwrap();
    assert_eq!(plain["cell_colours"], serde_json::json!({}));
    let mut picture = Picture {
        cells: vec![Cell {
            kind: "well".to_string(),
            ..cell("a")
        }],
        ..Picture::default()
    };
    picture
        .cell_colours
        .insert("well".to_string(), Colour::rgb(0x12, 0xab, 0x07));
    let json = serde_json::to_value(&picture).unwrap();
    assert_eq!(json["cell_colours"], serde_json::json!({"well": "#12ab07"}));
}
