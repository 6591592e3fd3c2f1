//! Zobrist keys: one per (side, piece kind, square), one per (card, holder) where the holder is
//! red, blue or the side, and one for "blue to move".
//!
//! Key invariant: the keys are compile-time constants (from [`plies::rng::random_keys`]), so a
//! position's hash is the same in every run and build; [`crate::Onitama::hash_from_scratch`]
//! XORs exactly the keys of what is on the board, in the hands and on the side.

use plies::rng::random_keys;

/// Holder index of the side card in [`card_key`] (0 = red's hand, 1 = blue's hand).
pub(crate) const SIDE_HOLDER: usize = 2;

const PIECE_KEYS: usize = 2 * 2 * 25;
const CARD_KEYS: usize = 32 * 3;

static KEYS: [u64; PIECE_KEYS + CARD_KEYS + 1] = random_keys(0x0417_a3a0_5eed_0001);

/// The key of a piece of `side` (0 red, 1 blue), `kind` (0 student, 1 master) on `square`.
#[inline]
pub(crate) fn piece_key(side: usize, kind: usize, square: usize) -> u64 {
    KEYS[(side * 2 + kind) * 25 + square]
}

/// The key of `card` held by `holder` (0 red, 1 blue, [`SIDE_HOLDER`]).
#[inline]
pub(crate) fn card_key(card: usize, holder: usize) -> u64 {
    KEYS[PIECE_KEYS + card * 3 + holder]
}

/// XORed in when blue is to move.
#[inline]
pub(crate) fn blue_to_move_key() -> u64 {
    KEYS[PIECE_KEYS + CARD_KEYS]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut keys = KEYS.to_vec();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), KEYS.len());
        assert!(keys.iter().all(|&k| k != 0));
    }
}
