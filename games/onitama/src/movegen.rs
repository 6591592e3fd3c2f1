//! Move generation: every legal move, only the noisy ones, or just how many there are.
//!
//! Key invariants: a finished position has no move; otherwise, if no piece can move, exactly the
//! two passes (one per hand card) are generated; the same `(from, to)` reached with both hand
//! cards gives two moves. Order: by card id, then from-square, then to-square (deterministic;
//! the noisy moves have their own order, see [`Onitama::noisy_moves`]).

use plies::bits::set_bits;

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
        for card in set_bits(self.hands[me]) {
            let table = &TARGETS[card as usize][me];
            for from in set_bits(own) {
                for to in set_bits(table[from as usize] & !own) {
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
    ///
    /// Looked up backwards from the targets (the squares a piece of the side to move reaches
    /// `t` from with a card are the squares the opponent reaches from `t` with it), after a
    /// forward check (two look-ups per own piece) that returns at once when no piece reaches an
    /// enemy piece or the temple, as in most positions. Order: the enemy master's
    /// capture, then the students' captures by target square, then the step onto the empty
    /// enemy temple; for each target, the lower card id first, then by from-square.
    #[inline(always)]
    pub fn noisy_moves(&self, moves: &mut Vec<Move>) {
        if self.is_over() {
            return;
        }
        let me = usize::from(self.to_move);
        let opp = me ^ 1;
        let own = self.pieces[me];
        let hand = self.hands[me];
        let first = hand.trailing_zeros() & 31;
        let second = (hand & hand.wrapping_sub(1)).trailing_zeros() & 31;
        // Most positions have no noisy move: the squares the pieces reach with either card,
        // ten look-ups, usually say so before any target is examined.
        let forward = [&TARGETS[first as usize][me], &TARGETS[second as usize][me]];
        let mut reach = 0;
        for from in set_bits(own) {
            let from = from as usize;
            reach |= forward[0][from] | forward[1][from];
        }
        let temple = TEMPLE_TARGET[me];
        let master = self.masters[me];
        let temple_open = temple & (own | self.pieces[opp]) == 0;
        let master_wins = || {
            let square = master.trailing_zeros() as usize;
            (forward[0][square] | forward[1][square]) & temple != 0
        };
        if reach & self.pieces[opp] == 0
            && !(temple_open && reach & temple != 0 && master != 0 && master_wins())
        {
            return;
        }
        let back = [
            &TARGETS[first as usize][opp],
            &TARGETS[second as usize][opp],
        ];
        let mut push_from = |target: u32, movers: u32| {
            let t = target as usize;
            for (card, table) in [first, second].into_iter().zip(back) {
                for from in set_bits(table[t] & movers) {
                    moves.push(Move::from_raw(card, from, target));
                }
            }
        };
        let enemy_master = self.masters[opp];
        push_from(enemy_master.trailing_zeros(), own);
        for target in set_bits(self.pieces[opp] & !enemy_master) {
            push_from(target, own);
        }
        if temple_open {
            push_from(temple.trailing_zeros(), master);
        }
    }

    /// Could the opponent win at once if it were to move now, with the cards it holds: capture
    /// the master of the side to move, or bring its own master onto its target temple?
    ///
    /// Looked up backwards: the squares a piece of player `p` reaches `square` from with a card
    /// are the squares the *other* player reaches from `square` with it (offsets negated), so
    /// four table look-ups answer it. False in a finished position.
    #[inline]
    #[must_use]
    pub fn is_threatened(&self) -> bool {
        let me = usize::from(self.to_move);
        let opp = me ^ 1;
        let my_master = self.masters[me];
        if my_master == 0 {
            return false;
        }
        let hand = self.hands[opp];
        let first = &TARGETS[hand.trailing_zeros() as usize & 31][me];
        let second = &TARGETS[(hand & (hand - 1)).trailing_zeros() as usize & 31][me];
        let master_square = my_master.trailing_zeros() as usize;
        if (first[master_square] | second[master_square]) & self.pieces[opp] != 0 {
            return true;
        }
        let temple = TEMPLE_TARGET[opp];
        if temple & self.pieces[opp] != 0 {
            return false;
        }
        let temple_square = temple.trailing_zeros() as usize;
        (first[temple_square] | second[temple_square]) & self.masters[opp] != 0
    }

    /// Appends the quiet moves: every legal move that neither captures nor wins (the passes, when
    /// no piece can move, are quiet too).
    #[inline]
    pub fn quiet_moves(&self, moves: &mut Vec<Move>) {
        if self.is_over() {
            return;
        }
        let me = usize::from(self.to_move);
        let own = self.pieces[me];
        let free = !(own | self.pieces[me ^ 1]);
        let master = self.masters[me];
        let not_temple = !TEMPLE_TARGET[me];
        let start = moves.len();
        for card in set_bits(self.hands[me]) {
            let table = &TARGETS[card as usize][me];
            for from in set_bits(own) {
                let mut to_set = table[from as usize] & free;
                if (1 << from) & master != 0 {
                    to_set &= not_temple;
                }
                for to in set_bits(to_set) {
                    moves.push(Move::from_raw(card, from, to));
                }
            }
        }
        if moves.len() == start && self.move_count_is_pass() {
            self.push_passes(moves);
        }
    }

    /// Must the side to move pass (no piece can move)? False once the game is over.
    #[inline]
    #[must_use]
    pub fn move_count_is_pass(&self) -> bool {
        if self.is_over() {
            return false;
        }
        let me = usize::from(self.to_move);
        let own = self.pieces[me];
        for card in set_bits(self.hands[me]) {
            let table = &TARGETS[card as usize][me];
            for from in set_bits(own) {
                if table[from as usize] & !own != 0 {
                    return false;
                }
            }
        }
        true
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
        for card in set_bits(self.hands[me]) {
            let table = &TARGETS[card as usize][me];
            for from in set_bits(own) {
                count += (table[from as usize] & !own).count_ones();
            }
        }
        if count == 0 { 2 } else { count as usize }
    }
}
