//! [`TaflEvaluator`]: material plus the king's distance to escape and his freedom.
//!
//! Key invariant: the score is from the side to move's view and symmetric: swapping the sides'
//! roles negates it. Cheap on purpose (one pass over the board); a first version to be measured
//! against richer ones.

use plies::{Evaluator, Score, Side};

use crate::board::Piece;
use crate::rules::NONE;
use crate::state::Tafl;

/// Weights of [`TaflEvaluator`], in centipawn-like units for the defenders.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TaflEvaluator {
    /// Value of one attacker taflman.
    pub attacker: i32,
    /// Value of one defender taflman.
    pub defender: i32,
    /// Bonus per empty square the king can reach in one move.
    pub king_mobility: i32,
    /// Penalty per attacker next to the king.
    pub king_pressure: i32,
    /// Bonus per step the king is closer to his nearest escape square (Manhattan distance).
    pub king_progress: i32,
}

impl Default for TaflEvaluator {
    fn default() -> TaflEvaluator {
        TaflEvaluator {
            attacker: 100,
            defender: 180,
            king_mobility: 12,
            king_pressure: 60,
            king_progress: 15,
        }
    }
}

impl Evaluator<Tafl> for TaflEvaluator {
    fn evaluate(&self, state: &Tafl) -> Score {
        let r = state.rules;
        let dim = r.dim;
        let king_on_board = i32::from(state.king() != NONE);
        let mut defenders_view = (i32::from(state.counts[1]) - king_on_board) * self.defender
            - i32::from(state.counts[0]) * self.attacker;
        if state.king() != NONE {
            let k = state.king() as usize;
            let (f, rank) = ((k % dim) as i32, (k / dim) as i32);
            let last = dim as i32 - 1;
            let distance = if r.edge_escape {
                f.min(rank).min(last - f).min(last - rank)
            } else {
                r.corners
                    .iter()
                    .map(|&c| {
                        let (cf, cr) = ((c as usize % dim) as i32, (c as usize / dim) as i32);
                        (cf - f).abs() + (cr - rank).abs()
                    })
                    .min()
                    .unwrap_or(2 * last)
            };
            defenders_view += self.king_progress * (2 * last - distance);
            for d in 0..4 {
                let mut s = r.neighbours[k][d];
                if s != NONE && state.board.get(s as usize) == Piece::Attacker {
                    defenders_view -= self.king_pressure;
                }
                while s != NONE && state.board.get(s as usize) == Piece::Empty {
                    defenders_view += self.king_mobility;
                    s = r.neighbours[s as usize][d];
                }
            }
        }
        Score::cp(if state.side == Side::Second {
            defenders_view
        } else {
            -defenders_view
        })
    }
}
