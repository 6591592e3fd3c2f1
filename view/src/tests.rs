//! The default view and [`check_view`]: the defaults pass the check on a toy game, and each
//! broken invariant is caught.

use plies::testing::{Maze, TwoPiles};
use plies::{Game, Notation, Side};

use super::{Cell, Picture, Piece, Shape, View, check_view};

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
    ];
    for (fault, words) in expect {
        let state = Faulty(Maze::new(0, 100, 0), fault);
        let err = check_view(&[state]).expect_err(words).to_string();
        assert!(err.starts_with(&format!("fault {fault}: ")), "{err}");
        assert!(err.contains(words), "fault {fault}: {err}");
    }
    assert_eq!(check_view(&[Faulty(Maze::new(0, 100, 0), 6)]), Ok(1));
}
