//! Playing moves and the [`plies::Game`] implementation.
//!
//! Key invariants: [`Game::play`] updates the hash incrementally (pieces, cards, side to move) so
//! it always equals the from-scratch hash; the used card goes to the side and the mover takes
//! the old side card (a pass does the same without moving a piece); the side to move always
//! alternates. The crate has no draw rule (the rulebook has none): callers that need one
//! (agents, the arena, self-play) apply a ply cap.

use plies::harness::{PerftConvention, perft};
use plies::{Game, MoveClass, Outcome, Side};

use crate::card::TARGETS;
use crate::moves::Move;
use crate::state::{Onitama, TEMPLE_TARGET};
use crate::zobrist::{piece_key, turn_key};

impl Onitama {
    /// The position after the legal move `mv`.
    #[inline(always)]
    #[must_use]
    pub fn after(&self, mv: Move) -> Onitama {
        let mut next = *self;
        let me = usize::from(self.to_move);
        let opp = me ^ 1;
        let mut hash = self.hash;
        if !mv.is_pass() {
            let (from, to) = (mv.origin_id(), mv.target_id());
            let from_bit = 1u32 << from;
            let to_bit = 1u32 << to;
            debug_assert!(self.pieces[me] & from_bit != 0 && self.pieces[me] & to_bit == 0);
            let kind = usize::from(self.masters[me] & from_bit != 0);
            next.pieces[me] ^= from_bit | to_bit;
            if kind == 1 {
                next.masters[me] = to_bit;
            }
            hash ^= piece_key(me, kind, from) ^ piece_key(me, kind, to);
            if self.pieces[opp] & to_bit != 0 {
                let captured = usize::from(self.masters[opp] & to_bit != 0);
                next.pieces[opp] ^= to_bit;
                next.masters[opp] &= !to_bit;
                hash ^= piece_key(opp, captured, to);
            }
        }
        let used = mv.card_id();
        let taken = usize::from(self.side_card);
        debug_assert!(self.hands[me] & (1 << used) != 0);
        next.hands[me] ^= (1 << used) | (1 << taken);
        next.side_card = used as u8;
        next.to_move ^= 1;
        next.hash = hash ^ turn_key(me, used, taken);
        next
    }

    /// What `mv` does: a win (captures the enemy master, or brings the master onto the enemy
    /// temple), a capture of a student, or nothing tactical.
    #[inline]
    #[must_use]
    pub fn move_class(&self, mv: Move) -> MoveClass {
        if mv.is_pass() {
            return MoveClass::Quiet;
        }
        let me = usize::from(self.to_move);
        let to_bit = 1u32 << mv.target_id();
        let master_moves = self.masters[me] & (1 << mv.origin_id()) != 0;
        if self.masters[me ^ 1] & to_bit != 0 || (master_moves && TEMPLE_TARGET[me] & to_bit != 0) {
            MoveClass::Win
        } else if self.pieces[me ^ 1] & to_bit != 0 {
            MoveClass::Capture
        } else {
            MoveClass::Quiet
        }
    }

    /// The legal move whose [`Move::index`] is `index`, if there is one (checked without
    /// generating the moves; a pass only when no piece can move).
    #[inline]
    #[must_use]
    pub fn legal_move_from_index(&self, index: usize) -> Option<Move> {
        if index >= Move::INDEX_BOUND || self.is_over() {
            return None;
        }
        let me = usize::from(self.to_move);
        let (card, from, to) = if index >= Move::PASS_INDEX_BASE {
            (index - Move::PASS_INDEX_BASE, 31, 31)
        } else {
            (index / 625, index / 25 % 25, index % 25)
        };
        if self.hands[me] & (1 << card) == 0 {
            return None;
        }
        if from == 31 {
            return (self.move_count_is_pass()).then(|| Move::from_raw(card as u32, 31, 31));
        }
        let own = self.pieces[me];
        let legal = own & (1 << from) != 0 && TARGETS[card][me][from] & !own & (1 << to) != 0;
        legal.then(|| Move::from_raw(card as u32, from as u32, to as u32))
    }

    /// Perft from this position (see [`plies::harness::perft`], the function); the Onitama community's tables
    /// use [`PerftConvention::Leaf`].
    #[must_use]
    pub fn perft(&self, depth: u32, convention: PerftConvention) -> u64 {
        perft(self, depth, convention)
    }
}

impl Game for Onitama {
    type Move = Move;

    /// At a finished position: the side that would move next, i.e. the loser.
    #[inline]
    fn side_to_move(&self) -> Side {
        self.to_move()
    }

    #[inline]
    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.legal_moves(moves);
    }

    #[inline(always)]
    fn generate_noisy_moves(&self, moves: &mut Vec<Move>) {
        self.noisy_moves(moves);
    }

    #[inline]
    fn generate_quiet_moves(&self, moves: &mut Vec<Move>) {
        self.quiet_moves(moves);
    }

    #[inline(always)]
    fn play(&self, mv: Move) -> Onitama {
        self.after(mv)
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.winner().map(Outcome::Win)
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    /// `card * 625 + from * 25 + to`, passes at `20,000 + card` (see [`Move::index`]).
    #[inline]
    fn move_index(&self, mv: Move) -> usize {
        mv.index()
    }

    #[inline]
    fn move_index_bound(&self) -> usize {
        Move::INDEX_BOUND
    }

    #[inline]
    fn classify(&self, mv: Move) -> MoveClass {
        self.move_class(mv)
    }

    #[inline]
    fn is_threatened(&self) -> bool {
        Onitama::is_threatened(self)
    }

    /// 2: a position is cheap to make and evaluate, so one ply above the horizon a table probe
    /// (usually a cache miss) costs more than its entry saves; the search skips the table
    /// there. (The measurement: docs/experiments.md, "Games".)
    #[inline]
    fn table_min_depth(&self) -> u32 {
        2
    }

    /// Decodes the index ([`Move::index`]) and checks the move is legal here, without generating.
    #[inline]
    fn move_from_index(&self, index: usize) -> Option<Move> {
        self.legal_move_from_index(index)
    }
}
