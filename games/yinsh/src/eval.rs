//! The Yinsh evaluator, from the side to move's view: rings removed (dominant), markers on the
//! board, ring mobility, and row threats (lines of five with four of one's markers and none of
//! the opponent's).
//!
//! Key invariant: values stay well inside `±Score::MAX_EVAL`, and swapping colours negates.

use plies::{Evaluator, Game, Score, Side};

use crate::board::windows;
use crate::rows::marker;
use crate::state::Yinsh;

/// Weighted sum of rings removed, markers, mobility and row threats.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct YinshEvaluator {
    /// Per ring removed.
    pub ring: i32,
    /// Per marker on the board.
    pub marker: i32,
    /// Per legal ring move.
    pub mobility: i32,
    /// Per line of five holding four own markers and no opposing one.
    pub threat: i32,
}

impl Default for YinshEvaluator {
    fn default() -> Self {
        YinshEvaluator {
            ring: 1000,
            marker: 10,
            mobility: 1,
            threat: 25,
        }
    }
}

impl YinshEvaluator {
    fn side_value(&self, state: &Yinsh, side: Side) -> i32 {
        let own = marker(side);
        let other = marker(side.opponent());
        let mut markers = 0;
        let mut threats = 0;
        for w in windows() {
            let mut mine = 0;
            let mut theirs = 0;
            for &c in w {
                let content = state.cell(usize::from(c));
                mine += i32::from(content == own);
                theirs += i32::from(content == other);
            }
            if mine == 4 && theirs == 0 {
                threats += 1;
            }
        }
        for cell in 0..crate::board::CELLS {
            markers += i32::from(state.cell(cell) == own);
        }
        self.ring * i32::from(state.removed(side))
            + self.marker * markers
            + self.mobility * state.ring_move_count(side) as i32
            + self.threat * threats
    }
}

impl Evaluator<Yinsh> for YinshEvaluator {
    fn evaluate(&self, state: &Yinsh) -> Score {
        let me = state.side_to_move();
        let value = self.side_value(state, me) - self.side_value(state, me.opponent());
        Score::cp(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plies::Notation;

    #[test]
    fn colour_swap_keeps_the_value_and_markers_count() {
        // Opening 2 of docs/rules/yinsh.md after one ring move, and the same with colours swapped.
        let state = Yinsh::start_position()
            .play_line("g2 e7 g3 e2 g4 g7 g5 e4 g6 c6 g2-f2")
            .unwrap();
        let text = state.format_position();
        let (board, rest) = text.split_once(' ').unwrap();
        let swapped_board: String = board
            .chars()
            .map(|c| match c {
                'W' => 'B',
                'B' => 'W',
                'w' => 'b',
                'b' => 'w',
                other => other,
            })
            .collect();
        let swapped_rest = rest.replacen("b move", "w move", 1);
        let swapped = Yinsh::parse_position(&format!("{swapped_board} {swapped_rest}")).unwrap();
        let e = YinshEvaluator::default();
        assert_eq!(e.evaluate(&state), e.evaluate(&swapped));
        // Black to move, White has the only marker: Black is behind on markers.
        let markers_only = YinshEvaluator {
            ring: 0,
            marker: 10,
            mobility: 0,
            threat: 0,
        };
        assert_eq!(markers_only.evaluate(&state), Score::cp(-10));
    }
}
