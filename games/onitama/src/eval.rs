//! Evaluators: material plus piece-square tables ([`PstEvaluator`], tunable) and material only
//! ([`MaterialEvaluator`]).
//!
//! Key invariants: scores are from the side to move's view (red's sum minus blue's, negated
//! when blue moves); tables are written from red's view, a1 = index 0 (see [`crate::square`]),
//! and blue reads them rotated 180 degrees (`24 - index`), which is its own view of the board.

use plies::{Evaluator, Score, Side, Tunable};

use crate::bitboard::Bitboard;
use crate::card::TARGETS;
use crate::state::Onitama;

/// The weights of [`PstEvaluator`], in centipawn-like units.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PstWeights {
    /// Value of one student.
    pub student: i32,
    /// Bonus of a student per square, from its owner's view (index 0 = its own a1 corner).
    pub student_squares: [i32; 25],
    /// Bonus of the master per square, from its owner's view.
    pub master_squares: [i32; 25],
    /// Per square a side's pieces could move to with its two cards (not holding its own piece).
    pub mobility: i32,
    /// Per enemy student a side's pieces could capture with its two cards.
    pub attacks: i32,
}

/// Manhattan distance of a square index from the centre c3.
const fn centre_distance(index: usize) -> i32 {
    let file = (index % 5) as i32;
    let rank = (index / 5) as i32;
    (file - 2).abs() + (rank - 2).abs()
}

const fn default_student_squares() -> [i32; 25] {
    let mut table = [0; 25];
    let mut i = 0;
    while i < 25 {
        // Centre control, plus a little for advancing.
        table[i] = 12 - 4 * centre_distance(i) + 2 * (i / 5) as i32;
        i += 1;
    }
    table
}

const fn default_master_squares() -> [i32; 25] {
    let mut table = [0; 25];
    let mut i = 0;
    while i < 25 {
        // Stay near the middle files; advancing a little helps the temple threat.
        let file = (i % 5) as i32;
        let rank = (i / 5) as i32;
        table[i] = 6 - 3 * (file - 2).abs() + 3 * rank;
        i += 1;
    }
    table
}

impl Default for PstWeights {
    fn default() -> PstWeights {
        PstWeights {
            student: 100,
            student_squares: default_student_squares(),
            master_squares: default_master_squares(),
            mobility: 0,
            attacks: 0,
        }
    }
}

/// Material plus piece-square tables, and (when their weights are not zero) mobility and
/// attacks through the cards in hand.
///
/// The weights are folded into lookup tables when they are set (by [`PstEvaluator::new`] or
/// [`Tunable::set_parameters`]): the students of one board row, a 5-bit pattern, are worth one
/// table entry, so an evaluation is ten row lookups and two master lookups, with no loop over
/// the pieces.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PstEvaluator {
    weights: PstWeights,
    /// `rows[side][row][pattern]`: what the students of `pattern` (bit `f` = file `f`) on
    /// `row` are worth to `side` (0 = red, 1 = blue, reading the tables turned 180 degrees).
    rows: Box<[[[i32; 32]; 5]; 2]>,
    /// `masters[side][square]`: what `side`'s master on `square` is worth; index 32 (no
    /// master, the `trailing_zeros` of an empty set) is worth 0.
    masters: [[i32; 33]; 2],
    /// Whether `mobility` or `attacks` is not zero (otherwise their loop is skipped).
    reach_terms: bool,
}

impl Default for PstEvaluator {
    fn default() -> PstEvaluator {
        PstEvaluator::new(PstWeights::default())
    }
}

impl PstEvaluator {
    /// An evaluator with the given weights.
    #[must_use]
    pub fn new(weights: PstWeights) -> PstEvaluator {
        let mut evaluator = PstEvaluator {
            weights,
            rows: Box::new([[[0; 32]; 5]; 2]),
            masters: [[0; 33]; 2],
            reach_terms: false,
        };
        evaluator.build_tables();
        evaluator
    }

    /// The weights.
    #[must_use]
    pub fn weights(&self) -> &PstWeights {
        &self.weights
    }

    /// Folds the weights into the row and master tables.
    fn build_tables(&mut self) {
        let w = &self.weights;
        for side in 0..2 {
            // Blue reads the tables turned 180 degrees.
            let view = |index: usize| if side == 0 { index } else { 24 - index };
            for row in 0..5 {
                for pattern in 0..32usize {
                    self.rows[side][row][pattern] = (0..5)
                        .filter(|file| pattern & (1 << file) != 0)
                        .map(|file| w.student + w.student_squares[view(5 * row + file)])
                        .sum();
                }
            }
            for square in 0..25 {
                self.masters[side][square] = w.master_squares[view(square)];
            }
            self.masters[side][32] = 0;
        }
        self.reach_terms = w.mobility != 0 || w.attacks != 0;
    }

    /// The score of one side's students and master (bit sets of board squares), from that
    /// side's view.
    #[inline(always)]
    fn side_score(&self, side: usize, students: u32, master: u32) -> i32 {
        let rows = &self.rows[side];
        rows[0][(students & 31) as usize]
            + rows[1][(students >> 5 & 31) as usize]
            + rows[2][(students >> 10 & 31) as usize]
            + rows[3][(students >> 15 & 31) as usize]
            + rows[4][(students >> 20 & 31) as usize]
            + self.masters[side][master.trailing_zeros() as usize]
    }
}

impl PstEvaluator {
    /// `mobility` and `attacks` of one side: the squares its pieces reach with its two cards
    /// (not its own pieces'), and the enemy students among them.
    #[inline]
    fn reach_score(&self, state: &Onitama, side: usize) -> i32 {
        let own = state.pieces[side];
        let enemy_students = state.pieces[1 - side] & !state.masters[1 - side];
        let hand = state.hands[side];
        let first = hand.trailing_zeros() as usize;
        let second = (hand & (hand - 1)).trailing_zeros() as usize;
        let (a, b) = (&TARGETS[first][side], &TARGETS[second][side]);
        let mut reach = 0u32;
        let mut pieces = own;
        while pieces != 0 {
            let square = pieces.trailing_zeros() as usize;
            reach |= a[square] | b[square];
            pieces &= pieces - 1;
        }
        let reach = reach & !own;
        self.weights.mobility * reach.count_ones() as i32
            + self.weights.attacks * (reach & enemy_students).count_ones() as i32
    }
}

impl Evaluator<Onitama> for PstEvaluator {
    #[inline(always)]
    fn evaluate(&self, state: &Onitama) -> Score {
        let [red_pieces, blue_pieces] = state.pieces;
        let [red_master, blue_master] = state.masters;
        let mut red = self.side_score(0, red_pieces & !red_master, red_master)
            - self.side_score(1, blue_pieces & !blue_master, blue_master);
        if self.reach_terms {
            red += self.reach_score(state, 0) - self.reach_score(state, 1);
        }
        Score::cp(if state.to_move == 0 { red } else { -red })
    }
}

const FILES: [char; 5] = ['a', 'b', 'c', 'd', 'e'];

fn square_names(prefix: &str) -> impl Iterator<Item = String> + '_ {
    (0..25).map(move |i| format!("{prefix}_{}{}", FILES[i % 5], i / 5 + 1))
}

impl Tunable for PstEvaluator {
    /// `student`, then `student_a1..student_e5`, then `master_a1..master_e5`, then
    /// `mobility` and `attacks` (53 weights).
    fn parameter_names(&self) -> Vec<String> {
        std::iter::once("student".to_string())
            .chain(square_names("student"))
            .chain(square_names("master"))
            .chain(["mobility".to_string(), "attacks".to_string()])
            .collect()
    }

    fn parameters(&self) -> Vec<i32> {
        let w = &self.weights;
        std::iter::once(w.student)
            .chain(w.student_squares.iter().copied())
            .chain(w.master_squares.iter().copied())
            .chain([w.mobility, w.attacks])
            .collect()
    }

    fn set_parameters(&mut self, values: &[i32]) -> Result<(), String> {
        if values.len() != 53 {
            return Err(format!("expected 53 weights, got {}", values.len()));
        }
        self.weights.student = values[0];
        self.weights.student_squares.copy_from_slice(&values[1..26]);
        self.weights.master_squares.copy_from_slice(&values[26..51]);
        self.weights.mobility = values[51];
        self.weights.attacks = values[52];
        self.build_tables();
        Ok(())
    }
}

/// Material only: 100 per student ahead, from the side to move's view. Cheap; a baseline.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct MaterialEvaluator;

impl Evaluator<Onitama> for MaterialEvaluator {
    #[inline]
    fn evaluate(&self, state: &Onitama) -> Score {
        let count = |side: Side| -> i32 { Bitboard::count(state.students(side)) as i32 };
        let me = state.to_move();
        Score::cp(100 * (count(me) - count(me.opponent())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plies::Notation;

    #[test]
    fn symmetric_start_is_level_and_material_counts() {
        let start = Onitama::start_position();
        assert_eq!(PstEvaluator::default().evaluate(&start), Score::cp(0));
        assert_eq!(MaterialEvaluator.evaluate(&start), Score::cp(0));
        // Red is a student up; blue to move sees it as negative.
        let pos =
            Onitama::parse_position("b1Bbb/5/5/5/rrRrr b monkey,crane tiger,crab dragon").unwrap();
        assert_eq!(MaterialEvaluator.evaluate(&pos), Score::cp(-100));
        assert!(PstEvaluator::default().evaluate(&pos) < Score::cp(0));
    }

    /// The sum written out square by square (each piece looked up with `piece_at`, blue's
    /// squares turned by `24 - index`; reach through each card's `targets`), on positions along
    /// a few random games.
    #[test]
    fn matches_a_square_by_square_sum() {
        let mut eval = PstEvaluator::default();
        let mut values = eval.parameters();
        for (i, value) in values.iter_mut().enumerate() {
            *value = (i as i32 * 37) % 23 - 11; // every square different, both signs
        }
        eval.set_parameters(&values).unwrap();
        let w = eval.weights().clone();
        let reference = |state: &Onitama| {
            let mut red = 0;
            for index in 0..25 {
                let square = crate::Square::new(index).unwrap();
                let (side, piece) = match state.piece_at(square) {
                    Some(found) => found,
                    None => continue,
                };
                let view = if side == Side::First {
                    index
                } else {
                    24 - index
                } as usize;
                let value = match piece {
                    crate::Piece::Student => w.student + w.student_squares[view],
                    crate::Piece::Master => w.master_squares[view],
                };
                red += if side == Side::First { value } else { -value };
            }
            // Reach: every target square of every piece with either card, counted once.
            for side in [Side::First, Side::Second] {
                let mut reached = [false; 25];
                for index in 0..25 {
                    let square = crate::Square::new(index).unwrap();
                    if matches!(state.piece_at(square), Some((owner, _)) if owner == side) {
                        for card in state.hand(side) {
                            for target in card.targets(side, square) {
                                reached[target.index()] = true;
                            }
                        }
                    }
                }
                let mut value = 0;
                for (index, &hit) in reached.iter().enumerate() {
                    let square = crate::Square::new(index as u8).unwrap();
                    match state.piece_at(square) {
                        _ if !hit => {}
                        Some((owner, _)) if owner == side => {}
                        Some((_, crate::Piece::Student)) => value += w.mobility + w.attacks,
                        _ => value += w.mobility,
                    }
                }
                red += if side == Side::First { value } else { -value };
            }
            if state.to_move() == Side::First {
                red
            } else {
                -red
            }
        };
        let mut rng = plies::rng::SplitMix64::new(11);
        let mut moves = Vec::new();
        for _ in 0..20 {
            let mut state = Onitama::start_position();
            for _ in 0..40 {
                assert_eq!(eval.evaluate(&state), Score::cp(reference(&state)));
                moves.clear();
                plies::Game::generate_moves(&state, &mut moves);
                if moves.is_empty() {
                    break;
                }
                state = plies::Game::play(&state, moves[rng.below(moves.len())]);
            }
        }
    }

    #[test]
    fn tunable_round_trip() {
        let mut eval = PstEvaluator::default();
        let names = eval.parameter_names();
        let mut values = eval.parameters();
        assert_eq!(names.len(), values.len());
        assert_eq!(names[1], "student_a1");
        assert_eq!(names[50], "master_e5");
        assert_eq!(names[52], "attacks");
        values[0] = 250;
        values[50] = -7;
        eval.set_parameters(&values).unwrap();
        assert_eq!(eval.weights().student, 250);
        assert_eq!(eval.weights().master_squares[24], -7);
        assert!(eval.set_parameters(&values[1..]).is_err());
    }
}
