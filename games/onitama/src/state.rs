//! The Onitama position: where the pieces stand, who holds which card, whose turn it is, and
//! an incrementally kept Zobrist hash.
//!
//! Key invariants: each side has exactly one master until it is captured; `students` and
//! `masters` of the two sides never overlap; the five cards are distinct, two per hand and one on
//! the side; `hash == hash_from_scratch()` always. A position where a master has been captured or
//! stands on the enemy temple is finished (see [`Onitama::winner`]).

use plies::bits::set_bits;
use plies::{NotationError, Side};

use crate::bitboard::Bitboard;
use crate::card::Card;
use crate::square::Square;
use crate::zobrist::{SIDE_HOLDER, blue_to_move_key, card_key, piece_key};

/// The kind of a piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// A student (pawn).
    Student,
    /// The master (king).
    Master,
}

/// Red's temple (c1) as a bit: blue's master wins by reaching it.
pub(crate) const RED_TEMPLE: u32 = 1 << Square::C1.index();
/// Blue's temple (c5) as a bit: red's master wins by reaching it.
pub(crate) const BLUE_TEMPLE: u32 = 1 << Square::C5.index();
/// `TEMPLE_TARGET[side]`: the temple that side's master aims for.
pub(crate) const TEMPLE_TARGET: [u32; 2] = [BLUE_TEMPLE, RED_TEMPLE];

/// An Onitama position (small and `Copy`: play returns a new one).
///
/// Side [`Side::First`] is red, [`Side::Second`] is blue.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Onitama {
    pub(crate) hash: u64,
    /// All pieces (students and master) of red, blue.
    pub(crate) pieces: [u32; 2],
    /// The master of red, blue (one bit, or none once captured).
    pub(crate) masters: [u32; 2],
    /// The cards in red's, blue's hand as a bit set of card ids (two bits each).
    pub(crate) hands: [u32; 2],
    /// The card id on the side.
    pub(crate) side_card: u8,
    /// 0 = red to move, 1 = blue.
    pub(crate) to_move: u8,
}

const _: () = assert!(std::mem::size_of::<Onitama>() <= 40);

impl Onitama {
    /// A new game: the usual start squares (red on rank 1, blue on rank 5, masters on c1/c5),
    /// the given hands and side card; the side whose colour matches the side card's stamp moves
    /// first. Fails naming a card dealt twice.
    pub fn new_game(
        red_cards: [Card; 2],
        blue_cards: [Card; 2],
        side_card: Card,
    ) -> Result<Onitama, NotationError> {
        let rank1 = 0b11111;
        let rank5 = 0b11111 << 20;
        Onitama::from_parts(
            [rank1, rank5],
            [RED_TEMPLE, BLUE_TEMPLE],
            [red_cards, blue_cards],
            side_card,
            side_card.stamp(),
        )
    }

    /// A position from its parts (`pieces` include the masters); checks the cards are distinct
    /// and the pieces consistent, naming the offending card or square.
    pub(crate) fn from_parts(
        pieces: [u32; 2],
        masters: [u32; 2],
        hands: [[Card; 2]; 2],
        side_card: Card,
        to_move: Side,
    ) -> Result<Onitama, NotationError> {
        let mut seen = 0u32;
        for card in [
            hands[0][0],
            hands[0][1],
            hands[1][0],
            hands[1][1],
            side_card,
        ] {
            let bit = 1 << card.id();
            if seen & bit != 0 {
                return Err(NotationError::new(card.name(), "card dealt twice"));
            }
            seen |= bit;
        }
        if let Some(square) = Bitboard(pieces[0] & pieces[1]).first() {
            return Err(NotationError::new(
                square.to_string(),
                "two pieces on one square",
            ));
        }
        for side in 0..2 {
            if masters[side] & !pieces[side] != 0 || masters[side].count_ones() > 1 {
                return Err(NotationError::new("", "inconsistent masters"));
            }
        }
        let mut state = Onitama {
            hash: 0,
            pieces,
            masters,
            hands: [
                (1 << hands[0][0].id()) | (1 << hands[0][1].id()),
                (1 << hands[1][0].id()) | (1 << hands[1][1].id()),
            ],
            side_card: side_card.id() as u8,
            to_move: to_move.index() as u8,
        };
        state.hash = state.compute_hash();
        Ok(state)
    }

    /// The side to move (red = [`Side::First`]).
    #[inline]
    #[must_use]
    pub fn to_move(&self) -> Side {
        if self.to_move == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    /// All pieces of `side`.
    #[inline]
    #[must_use]
    pub fn pieces(&self, side: Side) -> Bitboard {
        Bitboard(self.pieces[side.index()])
    }

    /// The students of `side`.
    #[inline]
    #[must_use]
    pub fn students(&self, side: Side) -> Bitboard {
        Bitboard(self.pieces[side.index()] & !self.masters[side.index()])
    }

    /// The square of `side`'s master (`None` once captured).
    #[inline]
    #[must_use]
    pub fn master(&self, side: Side) -> Option<Square> {
        Bitboard(self.masters[side.index()]).first()
    }

    /// What stands on `square`.
    #[must_use]
    pub fn piece_at(&self, square: Square) -> Option<(Side, Piece)> {
        let bit = 1 << square.index();
        Side::BOTH.into_iter().find_map(|side| {
            let i = side.index();
            if self.masters[i] & bit != 0 {
                Some((side, Piece::Master))
            } else if self.pieces[i] & bit != 0 {
                Some((side, Piece::Student))
            } else {
                None
            }
        })
    }

    /// The two cards in `side`'s hand, lower id first.
    #[inline]
    #[must_use]
    pub fn hand(&self, side: Side) -> [Card; 2] {
        let hand = self.hands[side.index()];
        let first = hand.trailing_zeros();
        let second = (hand & (hand - 1)).trailing_zeros();
        [card_of(first), card_of(second)]
    }

    /// The card on the side.
    #[inline]
    #[must_use]
    pub fn side_card(&self) -> Card {
        card_of(u32::from(self.side_card))
    }

    /// The five cards of the game, in card id order (they never change, only where they are).
    #[must_use]
    pub fn deal(&self) -> [Card; 5] {
        let mut cards = [card_of(u32::from(self.side_card)); 5];
        let mut all = self.hands[0] | self.hands[1] | (1 << self.side_card);
        for card in &mut cards {
            *card = card_of(all.trailing_zeros());
            all &= all - 1;
        }
        cards
    }

    /// The winner if the game is over: a side wins when the enemy master is gone or its own
    /// master stands on the enemy temple.
    #[inline]
    #[must_use]
    pub fn winner(&self) -> Option<Side> {
        let [red, blue] = self.masters;
        if blue == 0 || red & BLUE_TEMPLE != 0 {
            Some(Side::First)
        } else if red == 0 || blue & RED_TEMPLE != 0 {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// Is the game over?
    #[inline]
    #[must_use]
    pub fn is_over(&self) -> bool {
        let [red, blue] = self.masters;
        red == 0 || blue == 0 || (red & BLUE_TEMPLE) | (blue & RED_TEMPLE) != 0
    }

    /// The Zobrist hash from nothing but the position.
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for side in 0..2 {
            for square in Bitboard(self.pieces[side]) {
                let kind = usize::from(self.masters[side] & (1 << square.index()) != 0);
                hash ^= piece_key(side, kind, square.index());
            }
            for card in set_bits(self.hands[side]) {
                hash ^= card_key(card as usize, side);
            }
        }
        hash ^= card_key(usize::from(self.side_card), SIDE_HOLDER);
        if self.to_move == 1 {
            hash ^= blue_to_move_key();
        }
        hash
    }
}

#[inline]
fn card_of(id: u32) -> Card {
    Card::new(id as u8).expect("card ids are below 32")
}
