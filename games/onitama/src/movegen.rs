//! Move generation: every legal move, only the noisy ones, or just how many there are.
//!
//! Key invariants: a finished position has no move; otherwise, if no piece can move, exactly the
//! two passes (one per hand card) are generated; the same `(from, to)` reached with both hand
//! cards gives two moves. Order: by card id, then from-square, then to-square (deterministic).

use crate::card::TARGETS;
use crate::moves::Move;
use crate::state::{Onitama, TEMPLE_TARGET};

/// The most moves a position can have: 2 cards x 5 pieces x 4 offsets.
pub const MAX_MOVES: usize = 40;

impl Onitama {
    /// Appends every legal move to `moves`.
    #[inline]
    pub fn legal_moves(&self, moves: &mut Vec<Move>) {
        if self.is_over() {
            return;
        }
        let me = usize::from(self.to_move);
        let own = self.pieces[me];
        let start = moves.len();
        let mut hand = self.hands[me];
        while hand != 0 {
            let card = hand.trailing_zeros();
            hand &= hand - 1;
            let table = &TARGETS[card as usize][me];
            let mut from_set = own;
            while from_set != 0 {
                let from = from_set.trailing_zeros();
                from_set &= from_set - 1;
                let mut to_set = table[from as usize] & !own;
                while to_set != 0 {
                    let to = to_set.trailing_zeros();
                    to_set &= to_set - 1;
                    moves.push(Move::from_raw(card, from, to));
                }
            }
        }
        if moves.len() == start {
            self.push_passes(moves);
        }
    }

    fn push_passes(&self, moves: &mut Vec<Move>) {
        let hand = self.hands[usize::from(self.to_move)];
        let first = hand.trailing_zeros();
        let second = (hand & (hand - 1)).trailing_zeros();
        for card in [first, second] {
            moves.push(Move::from_raw(card, 31, 31));
        }
    }

    /// Appends the noisy moves: captures, and master moves onto the enemy temple (wins).
    #[inline]
    pub fn noisy_moves(&self, moves: &mut Vec<Move>) {
        if self.is_over() {
            return;
        }
        let me = usize::from(self.to_move);
        let own = self.pieces[me];
        let enemy = self.pieces[me ^ 1];
        let master = self.masters[me];
        let temple = TEMPLE_TARGET[me];
        let mut hand = self.hands[me];
        while hand != 0 {
            let card = hand.trailing_zeros();
            hand &= hand - 1;
            let table = &TARGETS[card as usize][me];
            let mut from_set = own;
            while from_set != 0 {
                let from = from_set.trailing_zeros();
                let from_bit = from_set & from_set.wrapping_neg();
                from_set &= from_set - 1;
                let wanted = if from_bit & master != 0 {
                    enemy | temple
                } else {
                    enemy
                };
                let mut to_set = table[from as usize] & wanted & !own;
                while to_set != 0 {
                    let to = to_set.trailing_zeros();
                    to_set &= to_set - 1;
                    moves.push(Move::from_raw(card, from, to));
                }
            }
        }
    }

    /// The number of legal moves, without listing them.
    #[inline]
    #[must_use]
    pub fn move_count(&self) -> usize {
        if self.is_over() {
            return 0;
        }
        let me = usize::from(self.to_move);
        let own = self.pieces[me];
        let mut count = 0;
        let mut hand = self.hands[me];
        while hand != 0 {
            let table = &TARGETS[hand.trailing_zeros() as usize][me];
            hand &= hand - 1;
            let mut from_set = own;
            while from_set != 0 {
                let from = from_set.trailing_zeros();
                from_set &= from_set - 1;
                count += (table[from as usize] & !own).count_ones();
            }
        }
        if count == 0 { 2 } else { count as usize }
    }
}
