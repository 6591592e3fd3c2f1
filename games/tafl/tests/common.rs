//! Helpers shared by the tafl rule tests: a board written as (square, piece letter) pairs, moves
//! played from their text, and square occupancy.
//!
//! Key invariant: squares are OTN names (`a1` bottom left), pieces OTN letters, and everything
//! goes through the crate's public notation, so the tests check the parser too.

use plies::{Game, Notation};
use plies_tafl::Tafl;

/// The OTN position record (`/row/.../row/`, rank 1 first as `start:` reads it) of a
/// `dim`×`dim` board holding `pieces` (square, letter).
pub fn board_text(dim: usize, pieces: &[(&str, char)]) -> String {
    let mut grid = vec![vec!['.'; dim]; dim];
    for (sq, c) in pieces {
        let (file, rank) = square(sq);
        grid[rank][file] = *c;
    }
    let mut text = String::from("/");
    for row in &grid {
        let mut run = 0;
        for &c in row {
            if c == '.' {
                run += 1;
            } else {
                if run > 0 {
                    text += &run.to_string();
                    run = 0;
                }
                text.push(c);
            }
        }
        if run > 0 {
            text += &run.to_string();
        }
        text.push('/');
    }
    text
}

/// (file, rank) from 0 of the square `sq` (`a1` = (0, 0)).
fn square(sq: &str) -> (usize, usize) {
    let file = (sq.as_bytes()[0] - b'a') as usize;
    let rank: usize = sq[1..].parse().expect("a rank number");
    (file, rank - 1)
}

/// `state` after the move `mv` (OTN text).
pub fn after(state: &Tafl, mv: &str) -> Tafl {
    state.play(state.parse_move(mv).unwrap())
}

/// Whether a piece stands on `sq`.
pub fn has(state: &Tafl, sq: &str) -> bool {
    let dim = state.rules().dim;
    let (file, rank) = square(sq);
    state.board().get(rank * dim + file) != plies_tafl::Piece::Empty
}
