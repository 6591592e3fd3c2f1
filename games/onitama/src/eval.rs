//! Evaluators: material plus piece-square tables, optionally per card in hand ([`PstEvaluator`],
//! tunable), and material only ([`MaterialEvaluator`]).
//!
//! Key invariants: scores are from the side to move's view (red's sum minus blue's, negated
//! when blue moves); tables are written from red's view, a1 = index 0 (see [`crate::square`]),
//! and blue reads them rotated 180 degrees (`24 - index`), which is its own view of the board.
//! A card's offsets are also from its holder's view, so one per-card table serves both sides.
//!
//! The tunable weights of [`PstWeights`] are listed once, by a visitor over their names and
//! places (`PstWeights::visit_weights`, which also keeps the card weights tied by mirror
//! symmetry); [`PstEvaluator`]'s [`Tunable`] names, reads and sets them all through it. (The
//! core's `plies::tunable_weights!` lists plain `i32` fields; these are square tables and
//! mirror-tied card tables.)

use std::fmt;

use plies::bits::set_bits;
use plies::{Evaluator, ParameterError, Score, Side, Tunable};

use crate::bitboard::Bitboard;
use crate::card::{CARDS, Card, TARGETS};
use crate::state::Onitama;

/// Cards with their own tables: the 16 of the base game (ids `0..16`). Expansion cards add no
/// card term.
const TABLE_CARDS: usize = Card::BASE_COUNT;

/// One card's tables: `[piece][square]`, piece 0 = student, 1 = master, squares from the
/// holder's view.
pub type CardTables = [[i32; 25]; 2];

/// The number of game phases the card tables blend over: with `n` pieces on the board the
/// phase is `clamp(n - 4, 0, 6)`.
const PHASES: usize = 7;

/// One card's folded table for one side and phase (see [`PstEvaluator`]'s `folded`): six times
/// the card tables blended for the phase, plus three times the base tables (each side holds two
/// cards, so a hand's two lookups add six times the base).
#[derive(Clone, Copy)]
struct Folded {
    /// `rows[row][pattern]`: the students of `pattern` (bit `f` = file `f`) on `row`.
    rows: [[i32; 32]; 5],
    /// `masters[square]`; index 32 (no master, the `trailing_zeros` of an empty set) is worth 0.
    masters: [i32; 33],
}

/// Folded tables of every side and card (`side * Card::COUNT + card`), by phase, all zero; on
/// the heap and built there (they are 350 kB).
fn zero_folded() -> Box<[[Folded; PHASES]]> {
    let zero = Folded {
        rows: [[0; 32]; 5],
        masters: [0; 33],
    };
    vec![[zero; PHASES]; 2 * Card::COUNT].into_boxed_slice()
}

/// The sum of `value(file)` over the files set in a 5-bit row `pattern`.
fn pattern_sum(pattern: usize, value: impl Fn(usize) -> i32) -> i32 {
    (0..5)
        .filter(|file| pattern & (1 << file) != 0)
        .map(value)
        .sum()
}

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
    /// `cards[card]`: a bonus of each of a side's pieces per square for each base-game card
    /// (id `0..16`) it holds, from its owner's view, with all ten pieces on the board. As
    /// [`Tunable`] weights they are tied by mirror symmetry (see
    /// [`PstEvaluator::parameter_names`](Tunable::parameter_names)).
    pub cards: [CardTables; TABLE_CARDS],
    /// The same with four pieces or fewer on the board; in between, with `n` pieces, a card
    /// bonus is `(cards × p + cards_end × (6 − p)) / 6` with `p = n − 4`, summed over the
    /// board, red's minus blue's, before the division, which rounds down.
    pub cards_end: [CardTables; TABLE_CARDS],
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
            cards: [[[0; 25]; 2]; TABLE_CARDS],
            cards_end: [[[0; 25]; 2]; TABLE_CARDS],
        }
    }
}

/// The square mirrored left to right (file `f` to file `4 - f`).
const fn mirror_square(index: usize) -> usize {
    index - index % 5 + (4 - index % 5)
}

/// The base-game card whose moves are `card`'s mirrored left to right (itself for the eight
/// symmetric cards), found from the offsets.
fn mirror_card(card: usize) -> usize {
    let mirrored = |a: &[(i8, i8)], b: &[(i8, i8)]| {
        a.len() == b.len() && a.iter().all(|&(dx, dy)| b.contains(&(-dx, dy)))
    };
    (0..TABLE_CARDS)
        .find(|&other| mirrored(CARDS[card].offsets, CARDS[other].offsets))
        .expect("every base-game card has a mirror among the base cards")
}

/// The independent card weights: `(card, piece, square)` of each, in the order of
/// [`Tunable::parameter_names`]. A symmetric card has the squares of files a–c; of a mirrored
/// pair, the card with the lower id has all 25 and the other reads them mirrored.
fn card_slots() -> Vec<(usize, usize, usize)> {
    let mut slots = Vec::new();
    for card in 0..TABLE_CARDS {
        let mirror = mirror_card(card);
        if mirror < card {
            continue;
        }
        for piece in 0..2 {
            for square in 0..25 {
                if mirror == card && square % 5 > 2 {
                    continue;
                }
                slots.push((card, piece, square));
            }
        }
    }
    slots
}

/// Material plus piece-square tables, and (when their weights are not zero) tables per card
/// in hand and game phase, and mobility and attacks through the cards in hand.
///
/// The weights are folded into lookup tables when they are set (by [`PstEvaluator::new`] or
/// [`Tunable::set_parameters`]): the students of one board row, a 5-bit pattern, are worth one
/// table entry, so an evaluation is ten row lookups and two master lookups, with no loop over
/// the pieces. When a card weight is not zero, the base tables are folded into the card tables
/// too, one table per side, card and phase: an evaluation is then six lookups per card held,
/// 24 in all, and one division by six.
///
/// Two evaluators are equal when their weights are (the tables follow from them).
#[derive(Clone)]
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
    /// `folded[side * Card::COUNT + card][phase]`: six times the card tables of `card` (zero
    /// for expansion cards, ids `16..32`) blended for `phase`, plus three times `rows` and
    /// `masters`. Empty unless `card_terms`.
    folded: Box<[[Folded; PHASES]]>,
    /// Whether any card weight is not zero (otherwise the base tables are used alone).
    card_terms: bool,
}

impl PartialEq for PstEvaluator {
    fn eq(&self, other: &PstEvaluator) -> bool {
        self.weights == other.weights
    }
}

impl Eq for PstEvaluator {}

impl fmt::Debug for PstEvaluator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PstEvaluator")
            .field("weights", &self.weights)
            .finish_non_exhaustive()
    }
}

impl Default for PstEvaluator {
    fn default() -> PstEvaluator {
        PstEvaluator::new(PstWeights::default())
    }
}

/// The weights of [`PstEvaluator::tuned`]: a weights file ([`plies::weights`]) shipped with the
/// crate (`weights/onitama.txt`), whose header records the commands that produced it and the
/// match that measured it.
pub const TUNED_WEIGHTS: &str = include_str!("../weights/onitama.txt");

impl PstEvaluator {
    /// The weights fitted to game results by Texel's method ([`TUNED_WEIGHTS`]: piece-square
    /// and per-card tables of both phases, from the hand-set [`PstWeights::default`]); the
    /// onitama bot plays with these.
    #[must_use]
    pub fn tuned() -> PstEvaluator {
        plies::weights::shipped(PstEvaluator::default(), TUNED_WEIGHTS)
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
            folded: Box::new([]),
            card_terms: false,
        };
        evaluator.build_tables();
        evaluator
    }

    /// The weights.
    #[must_use]
    pub fn weights(&self) -> &PstWeights {
        &self.weights
    }

    /// Folds the weights into the row and master tables, and into the folded card tables when
    /// a card weight is set (otherwise those are not allocated).
    fn build_tables(&mut self) {
        let w = &self.weights;
        self.reach_terms = w.mobility != 0 || w.attacks != 0;
        self.card_terms = w
            .cards
            .iter()
            .chain(&w.cards_end)
            .flatten()
            .flatten()
            .any(|&v| v != 0);
        if !self.card_terms {
            self.folded = Box::new([]);
        } else if self.folded.is_empty() {
            self.folded = zero_folded();
        }
        for side in 0..2 {
            // Blue reads the tables turned 180 degrees.
            let view = |index: usize| if side == 0 { index } else { 24 - index };
            for row in 0..5 {
                for pattern in 0..32 {
                    self.rows[side][row][pattern] = pattern_sum(pattern, |file| {
                        w.student + w.student_squares[view(5 * row + file)]
                    });
                }
            }
            for square in 0..25 {
                self.masters[side][square] = w.master_squares[view(square)];
            }
            self.masters[side][32] = 0;
            if !self.card_terms {
                continue;
            }
            for card in 0..Card::COUNT {
                let blended = |piece: usize, square: usize, p: usize| {
                    if card < TABLE_CARDS {
                        let (middle, end) = (w.cards[card][piece], w.cards_end[card][piece]);
                        middle[view(square)] * p as i32 + end[view(square)] * (6 - p as i32)
                    } else {
                        0
                    }
                };
                for p in 0..PHASES {
                    let folded = &mut self.folded[side * Card::COUNT + card][p];
                    for row in 0..5 {
                        for pattern in 0..32 {
                            folded.rows[row][pattern] = 3 * self.rows[side][row][pattern]
                                + pattern_sum(pattern, |file| blended(0, 5 * row + file, p));
                        }
                    }
                    for square in 0..25 {
                        folded.masters[square] =
                            3 * self.masters[side][square] + blended(1, square, p);
                    }
                    folded.masters[32] = 0;
                }
            }
        }
    }

    /// Six times the score of one side (from its view) with the card tables of the `phase`:
    /// its students and master looked up in the folded tables of both cards it holds.
    #[inline(always)]
    fn folded_score(
        &self,
        side: usize,
        phase: usize,
        students: u32,
        master: u32,
        hand: u32,
    ) -> i32 {
        let first = hand.trailing_zeros() as usize;
        let second = (hand & hand.wrapping_sub(1)).trailing_zeros() as usize;
        let master = master.trailing_zeros() as usize;
        let lookup = |card: usize| {
            let folded = &self.folded[side * Card::COUNT + card][phase];
            folded.rows[0][(students & 31) as usize]
                + folded.rows[1][(students >> 5 & 31) as usize]
                + folded.rows[2][(students >> 10 & 31) as usize]
                + folded.rows[3][(students >> 15 & 31) as usize]
                + folded.rows[4][(students >> 20 & 31) as usize]
                + folded.masters[master]
        };
        lookup(first & 31) + lookup(second & 31)
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
        for square in set_bits(own) {
            let square = square as usize;
            reach |= a[square] | b[square];
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
        let [red_students, blue_students] = [red_pieces & !red_master, blue_pieces & !blue_master];
        let mut red = if self.card_terms {
            let [red_hand, blue_hand] = state.hands;
            let p = ((red_pieces | blue_pieces).count_ones() as usize).clamp(4, 10) - 4;
            let six = self.folded_score(0, p, red_students, red_master, red_hand)
                - self.folded_score(1, p, blue_students, blue_master, blue_hand);
            six.div_euclid(6)
        } else {
            self.side_score(0, red_students, red_master)
                - self.side_score(1, blue_students, blue_master)
        };
        if self.reach_terms {
            red += self.reach_score(state, 0) - self.reach_score(state, 1);
        }
        Score::cp(if state.to_move == 0 { red } else { -red })
    }
}

/// The name of one tunable weight: `[<card>_]<term>[_<square>][_end]`, such as `student`,
/// `master_c2` or `tiger_student_c2_end`. Cheap to make; written out only for
/// [`Tunable::parameter_names`].
#[derive(Clone, Copy, Debug)]
struct WeightName {
    /// The card of a card-table weight (id `0..16`).
    card: Option<usize>,
    /// `student`, `master`, `mobility` or `attacks`.
    term: &'static str,
    /// The square of a table weight (index, a1 = 0).
    square: Option<usize>,
    /// Whether the weight is of an endgame card table (`cards_end`).
    end: bool,
}

impl fmt::Display for WeightName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const FILES: [char; 5] = ['a', 'b', 'c', 'd', 'e'];
        if let Some(card) = self.card {
            write!(f, "{}_", CARDS[card].name)?;
        }
        f.write_str(self.term)?;
        if let Some(square) = self.square {
            write!(f, "_{}{}", FILES[square % 5], square / 5 + 1)?;
        }
        if self.end {
            f.write_str("_end")?;
        }
        Ok(())
    }
}

impl PstWeights {
    /// The one listing of the tunable weights, which [`Tunable`] reads and sets through: calls
    /// `visit` with the name and the place of each, in the order of
    /// [`Tunable::parameter_names`] (see there). Of two card weights tied by mirror symmetry only
    /// the first (of [`card_slots`]) is visited, and right after the visit its twin is set to
    /// it, so a visitor that writes keeps the tie. No visited weight is the twin of another,
    /// so a visitor that only reads sees the weights as they were.
    fn visit_weights(&mut self, mut visit: impl FnMut(WeightName, &mut i32)) {
        const PIECES: [&str; 2] = ["student", "master"];
        let scalar = |term| WeightName {
            card: None,
            term,
            square: None,
            end: false,
        };
        visit(scalar("student"), &mut self.student);
        for (term, table) in [
            ("student", &mut self.student_squares),
            ("master", &mut self.master_squares),
        ] {
            for (square, weight) in table.iter_mut().enumerate() {
                let name = WeightName {
                    square: Some(square),
                    ..scalar(term)
                };
                visit(name, weight);
            }
        }
        visit(scalar("mobility"), &mut self.mobility);
        visit(scalar("attacks"), &mut self.attacks);
        let slots = card_slots();
        for (tables, end) in [(&mut self.cards, false), (&mut self.cards_end, true)] {
            for &(card, piece, square) in &slots {
                let name = WeightName {
                    card: Some(card),
                    term: PIECES[piece],
                    square: Some(square),
                    end,
                };
                visit(name, &mut tables[card][piece][square]);
                tables[mirror_card(card)][piece][mirror_square(square)] =
                    tables[card][piece][square];
            }
        }
    }
}

impl Tunable for PstEvaluator {
    /// `student`, then `student_a1..student_e5`, then `master_a1..master_e5`, then
    /// `mobility` and `attacks` (53 weights); then the card tables, `<card>_<piece>_<square>`
    /// (such as `tiger_student_c2`) for the base game's 16 cards, tied by mirror symmetry: a
    /// symmetric card (tiger, crab, monkey, crane, dragon, elephant, mantis, boar) has its files
    /// a–c (file d reads b, e reads a), and of each mirrored pair (frog/rabbit, goose/rooster,
    /// horse/ox, eel/cobra) the first has all 25 squares and the second reads them mirrored
    /// (8 × 15 + 4 × 25 = 220 per piece, 440 per phase); then the same for the endgame tables,
    /// each name ending `_end` (such as `tiger_student_c2_end`): 933 weights.
    fn parameter_names(&self) -> Vec<String> {
        let mut names = Vec::new();
        // Visiting a copy: a visit may write (it re-ties mirror twins).
        self.weights
            .clone()
            .visit_weights(|name, _| names.push(name.to_string()));
        names
    }

    fn parameters(&self) -> Vec<i32> {
        let mut values = Vec::new();
        self.weights
            .clone()
            .visit_weights(|_, &mut weight| values.push(weight));
        values
    }

    fn set_parameters(&mut self, values: &[i32]) -> Result<(), ParameterError> {
        // Set on a copy, kept only if `values` has one value per weight.
        let mut weights = self.weights.clone();
        let (mut given, mut expected) = (values.iter(), 0);
        weights.visit_weights(|_, weight| {
            expected += 1;
            if let Some(&value) = given.next() {
                *weight = value;
            }
        });
        if values.len() != expected {
            return Err(ParameterError::WrongCount {
                expected,
                got: values.len(),
            });
        }
        self.weights = weights;
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
mod tests;
