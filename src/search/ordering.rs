//! Move ordering: killer moves, the history heuristic and the [`MovePicker`] that hands out a
//! node's moves best-first.
//!
//! Order: the transposition-table move, then immediate wins, then captures
//! ([`Game::classify`]), then the two killers of the ply, then the other quiet moves by history
//! score; ties keep generation order (the picker is a stable one-step selection sort).
//!
//! Key invariants: ordering never changes *which* moves are searched, only their order, so it can
//! change node counts but never a search value; nothing here allocates after the tables are built
//! (buffers belong to the searcher's per-ply stack).
//!
//! The picker scores every move up front. It is written as a small state machine over a move
//! buffer so it can later grow stages (search the table move before generating, generate quiets
//! lazily) without changing its users.

use crate::game::{Game, MoveClass, Side};

/// Ordering score of the transposition-table move.
const TT_MOVE: i32 = i32::MAX;
/// Ordering score of an immediate win.
const WIN: i32 = 1 << 30;
/// Ordering score of a capture.
const CAPTURE: i32 = 1 << 29;
/// Ordering score of the first killer (the second gets one less).
const KILLER: i32 = 1 << 28;
/// History scores are halved once one of them would exceed this, so quiets stay below killers.
const HISTORY_MAX: i32 = 1 << 24;

/// Two killer moves per ply: quiet moves that recently caused a beta cutoff at that ply.
#[derive(Clone, Debug)]
pub struct Killers<M> {
    slots: Vec<[Option<M>; 2]>,
}

impl<M: Copy + PartialEq> Killers<M> {
    /// Killer slots for plies `0..plies`.
    #[must_use]
    pub fn new(plies: usize) -> Killers<M> {
        Killers {
            slots: vec![[None; 2]; plies],
        }
    }

    /// Forgets every killer.
    pub fn clear(&mut self) {
        self.slots.fill([None; 2]);
    }

    /// The killers of `ply`, most recent first.
    #[inline]
    #[must_use]
    pub fn at(&self, ply: usize) -> [Option<M>; 2] {
        self.slots[ply]
    }

    /// Records that `mv` caused a cutoff at `ply`.
    #[inline]
    pub fn record(&mut self, ply: usize, mv: M) {
        let slot = &mut self.slots[ply];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
    }
}

/// The history heuristic: per side and move index ([`Game::move_index`]), how often and how
/// deep a quiet move caused a beta cutoff.
#[derive(Clone, Debug)]
pub struct History {
    table: Vec<i32>,
    bound: usize,
}

impl History {
    /// An empty table for move indices below `bound`.
    #[must_use]
    pub fn new(bound: usize) -> History {
        History {
            table: vec![0; 2 * bound],
            bound,
        }
    }

    /// The move-index bound the table was built for.
    #[must_use]
    pub fn bound(&self) -> usize {
        self.bound
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    /// Halves every score (between searches: old knowledge counts less).
    pub fn age(&mut self) {
        for value in &mut self.table {
            *value /= 2;
        }
    }

    /// The score of move index `index` for `side`.
    #[inline]
    #[must_use]
    pub fn score(&self, side: Side, index: usize) -> i32 {
        self.table[side.index() * self.bound + index]
    }

    /// Rewards a quiet cutoff of `side`'s move `index` at remaining `depth` by `depth²`.
    #[inline]
    pub fn reward(&mut self, side: Side, index: usize, depth: u32) {
        let depth = depth.min(1 << 10) as i32;
        let slot = side.index() * self.bound + index;
        self.table[slot] += depth * depth;
        if self.table[slot] > HISTORY_MAX {
            self.age();
        }
    }
}

/// What the picker knows besides the moves: the hints of the node.
#[derive(Copy, Clone, Debug)]
pub struct OrderingHints<'a, M> {
    /// The transposition-table (or previous-iteration) move, searched first if legal.
    pub tt_move: Option<M>,
    /// The killers of the ply (empty when killers are off).
    pub killers: [Option<M>; 2],
    /// The history table, if the history heuristic is on.
    pub history: Option<&'a History>,
}

/// Hands out the moves of a buffer best-first by one-step selection sort: each call to
/// [`MovePicker::next`] moves the best remaining move to the front of the unsearched part
/// (shifting, not swapping, so equal scores keep generation order).
#[derive(Clone, Debug, Default)]
pub struct MovePicker {
    next: usize,
}

impl MovePicker {
    /// Scores `moves` of `state` into `scores` (cleared first) and returns a picker over them.
    #[inline]
    pub fn new<G: Game>(
        state: &G,
        moves: &[G::Move],
        scores: &mut Vec<i32>,
        hints: &OrderingHints<'_, G::Move>,
    ) -> MovePicker {
        scores.clear();
        let side = state.side_to_move();
        for &mv in moves {
            let score = if Some(mv) == hints.tt_move {
                TT_MOVE
            } else {
                match state.classify(mv) {
                    MoveClass::Win => WIN,
                    MoveClass::Capture => CAPTURE,
                    MoveClass::Quiet => {
                        if Some(mv) == hints.killers[0] {
                            KILLER
                        } else if Some(mv) == hints.killers[1] {
                            KILLER - 1
                        } else {
                            hints
                                .history
                                .map_or(0, |history| history.score(side, state.move_index(mv)))
                        }
                    }
                }
            };
            scores.push(score);
        }
        MovePicker { next: 0 }
    }

    /// The best move not handed out yet, or `None` when all have been.
    #[inline]
    pub fn next<M: Copy>(&mut self, moves: &mut [M], scores: &mut [i32]) -> Option<M> {
        let start = self.next;
        if start >= moves.len() {
            return None;
        }
        let mut best = start;
        for i in start + 1..scores.len() {
            if scores[i] > scores[best] {
                best = i;
            }
        }
        if best != start {
            moves[start..=best].rotate_right(1);
            scores[start..=best].rotate_right(1);
        }
        self.next += 1;
        Some(moves[start])
    }

    /// How many moves have been handed out.
    #[inline]
    #[must_use]
    pub fn picked(&self) -> usize {
        self.next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Take, TwoPiles};

    fn order(state: &TwoPiles, hints: &OrderingHints<'_, Take>) -> Vec<Take> {
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        let mut scores = Vec::new();
        let mut picker = MovePicker::new(state, &moves, &mut scores, hints);
        let mut out = Vec::new();
        while let Some(mv) = picker.next(&mut moves, &mut scores) {
            out.push(mv);
        }
        assert_eq!(picker.picked(), out.len());
        out
    }

    fn take(pile: u8, count: u8) -> Take {
        Take { pile, count }
    }

    #[test]
    fn orders_tt_wins_captures_killers_history() {
        // (5, 1): moves a1 a2 a3 b1; a3 is a capture (3 stones), nothing wins.
        let state = TwoPiles::new(5, 1, Side::First);
        let mut history = History::new(state.move_index_bound());
        history.reward(Side::First, state.move_index(take(0, 2)), 3);
        let none = OrderingHints {
            tt_move: None,
            killers: [None; 2],
            history: None,
        };
        assert_eq!(
            order(&state, &none),
            [take(0, 3), take(0, 1), take(0, 2), take(1, 1)]
        );
        let hints = OrderingHints {
            tt_move: Some(take(1, 1)),
            killers: [Some(take(0, 1)), Some(take(1, 3))],
            history: Some(&history),
        };
        assert_eq!(
            order(&state, &hints),
            [take(1, 1), take(0, 3), take(0, 1), take(0, 2)]
        );
        // A killer that is not legal here changes nothing; history then orders the quiets.
        let hints = OrderingHints {
            tt_move: None,
            killers: [Some(take(1, 3)), None],
            history: Some(&history),
        };
        assert_eq!(
            order(&state, &hints),
            [take(0, 3), take(0, 2), take(0, 1), take(1, 1)]
        );
        // (0, 2): b2 wins, b1 is quiet.
        let state = TwoPiles::new(0, 2, Side::Second);
        assert_eq!(order(&state, &none), [take(1, 2), take(1, 1)]);
    }

    #[test]
    fn killers_and_history_bookkeeping() {
        let mut killers = Killers::new(3);
        killers.record(1, 7u8);
        killers.record(1, 7u8);
        assert_eq!(killers.at(1), [Some(7), None]);
        killers.record(1, 8u8);
        assert_eq!(killers.at(1), [Some(8), Some(7)]);
        assert_eq!(killers.at(0), [None, None]);
        killers.clear();
        assert_eq!(killers.at(1), [None, None]);

        let mut history = History::new(4);
        history.reward(Side::Second, 3, 4);
        assert_eq!(history.score(Side::Second, 3), 16);
        assert_eq!(history.score(Side::First, 3), 0);
        history.age();
        assert_eq!(history.score(Side::Second, 3), 8);
        for _ in 0..100 {
            history.reward(Side::First, 0, 1000);
        }
        assert!(history.score(Side::First, 0) <= HISTORY_MAX);
        history.clear();
        assert_eq!(history.score(Side::Second, 3), 0);
    }
}
