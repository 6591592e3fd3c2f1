//! Alternative click paths through the API: a toy game whose moves are columns of two cells
//! (Connect Four's "click anywhere in the column") lists, for each legal move, its own path
//! and the other cell of its column as an alternative; a game without alternatives (Kalah)
//! lists none.

use plies::testing::{Take, TwoPiles};
use plies::{Evaluator, Game, Notation, NotationError, Score, Side};
use plies_kalah::{Kalah, StoreDifference};
use plies_view::{Cell, Picture, Shape, View, check_view, move_of_clicks};
use serde_json::json;

use super::{new_game, page_router};
use crate::serve::api::MAX_SEARCH_MS;
use crate::{GameCli, evaluator};

/// Two piles drawn as six columns, one per move (`a1` .. `b3`): a move lands on its column's
/// bottom cell (its own path) and is also made by a click on the top cell.
#[derive(Clone)]
struct Columns(TwoPiles);

const MOVES: [&str; 6] = ["a1", "a2", "a3", "b1", "b2", "b3"];

impl Game for Columns {
    type Move = Take;
    plies::delegate_game!();
}

impl Notation for Columns {
    fn start_position() -> Columns {
        Columns(TwoPiles::new(3, 1, Side::First))
    }
    fn parse_position(text: &str) -> Result<Columns, NotationError> {
        TwoPiles::parse_position(text).map(Columns)
    }
    fn format_position(&self) -> String {
        self.0.format_position()
    }
    fn parse_move(&self, text: &str) -> Result<Take, NotationError> {
        self.0.parse_move(text)
    }
    fn format_move(&self, mv: Take) -> String {
        self.0.format_move(mv)
    }
}

impl View for Columns {
    fn picture(&self) -> Picture {
        let cell = |id: String, x: usize, y: f32| Cell {
            id,
            x: x as f32 + 0.5,
            y,
            size: 1.0,
            shape: Shape::Square,
            kind: "light".to_string(),
            text: None,
        };
        let cells = MOVES
            .iter()
            .enumerate()
            .flat_map(|(x, mv)| {
                [
                    cell(format!("{mv}-top"), x, 0.5),
                    cell(mv.to_string(), x, 1.5),
                ]
            })
            .collect();
        Picture {
            width: 6.0,
            height: 2.0,
            cells,
            ..Picture::default()
        }
    }
    fn clicks(&self, mv: Take) -> Vec<String> {
        vec![self.format_move(mv)]
    }
    fn alternative_clicks(&self, mv: Take) -> Vec<Vec<String>> {
        vec![vec![format!("{}-top", self.format_move(mv))]]
    }
}

#[derive(Clone)]
struct Even;

impl Evaluator<Columns> for Even {
    fn evaluate(&self, _: &Columns) -> Score {
        Score::DRAW
    }
}

#[test]
fn the_columns_pass_the_view_check() {
    let start = Columns::start_position();
    assert_eq!(check_view(std::slice::from_ref(&start)), Ok(1));
    let top = ["a3-top".to_string()];
    assert_eq!(move_of_clicks(&start, &top), Ok(Take { pile: 0, count: 3 }));
}

#[tokio::test]
async fn legal_moves_carry_their_alternative_paths() {
    let spec = GameCli::new("columns", evaluator(Even));
    let router = page_router(&spec, Columns::start_position(), 4, MAX_SEARCH_MS);
    let game = new_game(&router, "{}").await;
    // Piles of 3 and 1: a1, a2, a3 and b1 are legal.
    assert_eq!(
        game["legal"],
        json!([
            {"move": "a1", "clicks": ["a1"], "alternatives": [["a1-top"]]},
            {"move": "a2", "clicks": ["a2"], "alternatives": [["a2-top"]]},
            {"move": "a3", "clicks": ["a3"], "alternatives": [["a3-top"]]},
            {"move": "b1", "clicks": ["b1"], "alternatives": [["b1-top"]]},
        ])
    );

    let spec = GameCli::new("kalah", evaluator(StoreDifference::default()));
    let router = page_router(&spec, Kalah::start_position(), 4, MAX_SEARCH_MS);
    let game = new_game(&router, "{}").await;
    let legal = game["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 6);
    for mv in legal {
        assert_eq!(mv["alternatives"], json!([]), "{mv}");
        assert_eq!(mv["clicks"].as_array().map(Vec::len), Some(1), "{mv}");
    }
}
