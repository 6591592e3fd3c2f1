//! The Onitama move: a card and a piece step `(from, to)`, or a pass with a card.
//!
//! Key invariants: a move is 2 bytes (`Option<Move>` too, through the non-zero niche); the same
//! `(from, to)` with two different cards are two different moves, and the two passes of a
//! position differ by their card. Packing: bits 0–4 `to`, 5–9 `from`, 10–14 card, bit 15 always
//! set; a pass has `from = to = 31`.

use std::num::NonZeroU16;

use crate::card::Card;
use crate::square::Square;

/// A move: play `card`, moving the piece on `from` to `to`, or pass with `card` (give it to the
/// side, take the side card) when no piece can move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move(NonZeroU16);

const _: () = assert!(std::mem::size_of::<Move>() == 2);
const _: () = assert!(std::mem::size_of::<Option<Move>>() == 2);

const MARK: NonZeroU16 = NonZeroU16::MIN.saturating_add(0x7fff);
const PASS_SQUARE: u16 = 31;

impl Move {
    /// Where the pass moves start in [`Move::index`].
    pub const PASS_INDEX_BASE: usize = Card::COUNT * 25 * 25;
    /// One more than the largest [`Move::index`].
    pub const INDEX_BOUND: usize = Self::PASS_INDEX_BASE + Card::COUNT;

    /// Play `card`, moving the piece on `from` to `to`.
    #[inline]
    #[must_use]
    pub fn new(card: Card, from: Square, to: Square) -> Move {
        Move::from_raw(card.id() as u32, from.index() as u32, to.index() as u32)
    }

    /// The move from raw indices (`card < 32`, squares `< 25`); for the move generator.
    #[inline]
    pub(crate) fn from_raw(card: u32, from: u32, to: u32) -> Move {
        Move(MARK | ((card << 10) | (from << 5) | to) as u16)
    }

    /// Pass, giving `card` to the side.
    #[inline]
    #[must_use]
    pub fn pass(card: Card) -> Move {
        Move(MARK | ((card.id() as u16) << 10) | (PASS_SQUARE << 5) | PASS_SQUARE)
    }

    /// The card played (or given away by a pass).
    #[inline]
    #[must_use]
    pub fn card(self) -> Card {
        Card::new(self.card_id() as u8).expect("5-bit card id")
    }

    #[inline]
    pub(crate) fn card_id(self) -> usize {
        usize::from((self.0.get() >> 10) & 31)
    }

    #[inline]
    pub(crate) fn origin_id(self) -> usize {
        usize::from((self.0.get() >> 5) & 31)
    }

    #[inline]
    pub(crate) fn target_id(self) -> usize {
        usize::from(self.0.get() & 31)
    }

    /// Is this a pass?
    #[inline]
    #[must_use]
    pub fn is_pass(self) -> bool {
        self.target_id() == PASS_SQUARE as usize
    }

    /// The square the piece leaves (`None` for a pass).
    #[inline]
    #[must_use]
    pub fn from(self) -> Option<Square> {
        Square::new(self.origin_id() as u8)
    }

    /// The square the piece lands on (`None` for a pass).
    #[inline]
    #[must_use]
    pub fn to(self) -> Option<Square> {
        Square::new(self.target_id() as u8)
    }

    /// A dense index below [`Move::INDEX_BOUND`] (20,032), distinct for distinct moves:
    /// `card * 625 + from * 25 + to` for a step, `20,000 + card` for a pass.
    #[inline]
    #[must_use]
    pub fn index(self) -> usize {
        if self.is_pass() {
            Self::PASS_INDEX_BASE + self.card_id()
        } else {
            self.card_id() * 625 + self.origin_id() * 25 + self.target_id()
        }
    }
}

#[cfg(test)]
mod tests;
