//! Evaluators: material plus piece-square tables, optionally per card in hand ([`PstEvaluator`],
//! tunable), and material only ([`MaterialEvaluator`]).
//!
//! Key invariants: scores are from the side to move's view (red's sum minus blue's, negated
//! when blue moves); tables are written from red's view, a1 = index 0 (see [`crate::square`]),
//! and blue reads them rotated 180 degrees (`24 - index`), which is its own view of the board.
//! A card's offsets are also from its holder's view, so one per-card table serves both sides.

use plies::bits::set_bits;
use plies::{Evaluator, Score, Side, Tunable};

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

impl std::fmt::Debug for PstEvaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
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

const FILES: [char; 5] = ['a', 'b', 'c', 'd', 'e'];

fn square_names(prefix: &str) -> impl Iterator<Item = String> + '_ {
    (0..25).map(move |i| format!("{prefix}_{}{}", FILES[i % 5], i / 5 + 1))
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
        let pieces = ["student", "master"];
        std::iter::once("student".to_string())
            .chain(square_names("student"))
            .chain(square_names("master"))
            .chain(["mobility".to_string(), "attacks".to_string()])
            .chain(["", "_end"].into_iter().flat_map(|suffix| {
                card_slots().into_iter().map(move |(card, piece, square)| {
                    format!(
                        "{}_{}_{}{}{suffix}",
                        CARDS[card].name,
                        pieces[piece],
                        FILES[square % 5],
                        square / 5 + 1
                    )
                })
            }))
            .collect()
    }

    fn parameters(&self) -> Vec<i32> {
        let w = &self.weights;
        std::iter::once(w.student)
            .chain(w.student_squares.iter().copied())
            .chain(w.master_squares.iter().copied())
            .chain([w.mobility, w.attacks])
            .chain([&w.cards, &w.cards_end].into_iter().flat_map(|tables| {
                card_slots()
                    .into_iter()
                    .map(move |(card, piece, square)| tables[card][piece][square])
            }))
            .collect()
    }

    fn set_parameters(&mut self, values: &[i32]) -> Result<(), String> {
        let slots = card_slots();
        if values.len() != 53 + 2 * slots.len() {
            return Err(format!(
                "expected {} weights, got {}",
                53 + 2 * slots.len(),
                values.len()
            ));
        }
        self.weights.student = values[0];
        self.weights.student_squares.copy_from_slice(&values[1..26]);
        self.weights.master_squares.copy_from_slice(&values[26..51]);
        self.weights.mobility = values[51];
        self.weights.attacks = values[52];
        let (middle, end) = values[53..].split_at(slots.len());
        for (tables, values) in [
            (&mut self.weights.cards, middle),
            (&mut self.weights.cards_end, end),
        ] {
            for (&(card, piece, square), &value) in slots.iter().zip(values) {
                tables[card][piece][square] = value;
                tables[mirror_card(card)][piece][mirror_square(square)] = value;
            }
        }
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
            // Card tables, red's minus blue's, with all pieces and in the endgame.
            // Rounded down (the base terms are whole, so adding them before or after is alike).
            let (mut middle, mut end) = (0, 0);
            let mut pieces = 0;
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
                pieces += 1;
                let (value, piece) = match piece {
                    crate::Piece::Student => (w.student + w.student_squares[view], 0),
                    crate::Piece::Master => (w.master_squares[view], 1),
                };
                let sign = if side == Side::First { 1 } else { -1 };
                for card in state.hand(side) {
                    if card.id() < 16 {
                        middle += sign * w.cards[card.id()][piece][view];
                        end += sign * w.cards_end[card.id()][piece][view];
                    }
                }
                red += sign * value;
            }
            let p = (pieces - 4).clamp(0, 6);
            red += (middle * p + end * (6 - p)).div_euclid(6);
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
        assert_eq!(names.len(), 53 + 880);
        assert_eq!(names[53], "tiger_student_a1");
        assert_eq!(names[53 + 440], "tiger_student_a1_end");
        let unique: std::collections::HashSet<&String> = names.iter().collect();
        assert_eq!(unique.len(), names.len());
        values[0] = 250;
        values[50] = -7;
        let frog_a1 = names.iter().position(|n| n == "frog_student_a1").unwrap();
        let tiger_b4 = names.iter().position(|n| n == "tiger_master_b4").unwrap();
        values[frog_a1] = 9;
        values[tiger_b4] = -5;
        eval.set_parameters(&values).unwrap();
        assert_eq!(eval.weights().student, 250);
        assert_eq!(eval.weights().master_squares[24], -7);
        // Tied by mirror symmetry: rabbit reads frog's table mirrored, tiger's d4 is its b4.
        let (frog, rabbit, tiger) = (8, 12, 0);
        assert_eq!(eval.weights().cards[frog][0][0], 9);
        assert_eq!(eval.weights().cards[rabbit][0][4], 9);
        assert_eq!(eval.weights().cards[tiger][1][16], -5);
        assert_eq!(eval.weights().cards[tiger][1][18], -5);
        // The second card of a pair and a symmetric card's files d and e are not weights.
        assert!(
            !names
                .iter()
                .any(|n| n.starts_with("rabbit") || n == "tiger_student_d1")
        );
        assert_eq!(eval.parameters(), values);
        assert!(eval.set_parameters(&values[1..]).is_err());
    }

    #[test]
    fn the_shipped_weights_fit_and_add_card_tables() {
        let tuned = PstEvaluator::tuned();
        let values = plies::weights::parse_weights(TUNED_WEIGHTS, &tuned.parameter_names());
        assert_eq!(values.unwrap(), tuned.parameters());
        assert!(TUNED_WEIGHTS.contains("# produced by: onitama tune texel"));
        // The student value fixes the scale; the tables were fitted.
        let (default, tuned) = (PstWeights::default(), tuned.weights().clone());
        assert_eq!(tuned.student, default.student);
        assert_ne!(tuned.cards, default.cards);
        assert_ne!(tuned.cards_end, default.cards_end);
    }

    /// `weights/hand-set.txt`, the baseline of the tuned weights' match, is the default.
    #[test]
    fn the_hand_set_file_is_the_default() {
        let default = PstEvaluator::default();
        let text = include_str!("../weights/hand-set.txt");
        let values = plies::weights::parse_weights(text, &default.parameter_names()).unwrap();
        assert_eq!(values, default.parameters());
    }

    /// The position seen in a mirror (files a..e reversed, each card replaced by its mirror
    /// card) is worth the same: the tables honour the game's left-right symmetry.
    #[test]
    fn mirrored_positions_score_the_same() {
        let mut eval = PstEvaluator::default();
        let mut values = eval.parameters();
        for (i, value) in values.iter_mut().enumerate().skip(53) {
            *value = (i as i32 * 53) % 41 - 20;
        }
        eval.set_parameters(&values).unwrap();
        let mirror_name = |name: &str| -> String {
            let card = CARDS.iter().position(|c| c.name == name).unwrap();
            if card < 16 {
                CARDS[mirror_card(card)].name.to_string()
            } else {
                name.to_string()
            }
        };
        let mirror = |text: &str| -> String {
            let mut fields = text.split(' ');
            let board: Vec<String> = fields
                .next()
                .unwrap()
                .split('/')
                .map(|rank| rank.chars().rev().collect())
                .collect();
            let mut out = board.join("/");
            out.push(' ');
            out.push_str(fields.next().unwrap());
            for field in fields {
                let cards: Vec<String> = field.split(',').map(mirror_name).collect();
                out.push(' ');
                out.push_str(&cards.join(","));
            }
            out
        };
        let mut rng = plies::rng::SplitMix64::new(5);
        let mut moves = Vec::new();
        let mut compared = 0;
        for deal in crate::BENCH_DEALS.iter() {
            let mut state = Onitama::parse_position(deal).unwrap();
            for _ in 0..30 {
                let text = Onitama::format_position(&state);
                let mirrored = Onitama::parse_position(&mirror(&text)).unwrap();
                assert_eq!(eval.evaluate(&state), eval.evaluate(&mirrored), "{text}");
                compared += 1;
                moves.clear();
                plies::Game::generate_moves(&state, &mut moves);
                if moves.is_empty() || plies::Game::outcome(&state).is_some() {
                    break;
                }
                state = plies::Game::play(&state, moves[rng.below(moves.len())]);
            }
        }
        assert!(compared > 100);
        // And the card tables do count: some position changes when they are set.
        let start = Onitama::parse_position(crate::BENCH_DEALS[0]).unwrap();
        let moved = plies::Game::play(&start, {
            moves.clear();
            plies::Game::generate_moves(&start, &mut moves);
            moves[0]
        });
        assert_ne!(
            eval.evaluate(&moved),
            PstEvaluator::default().evaluate(&moved)
        );
    }
}
