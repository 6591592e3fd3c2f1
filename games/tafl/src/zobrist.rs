//! Zobrist keys: one per (piece kind, square) for the three piece kinds on up to 19x19
//! squares, and one for "defenders to move".
//!
//! Key invariant: the keys are compile-time constants, so hashes are the same in every run.

use plies::rng::random_keys;

use crate::board::MAX_SQUARES;

static KEYS: [u64; 3 * MAX_SQUARES + 1] = random_keys(0x7af1_0b5e_ed00_0004);

/// The key of piece code `code` (1..=3) on `sq`.
#[inline]
pub(crate) fn piece_key(code: u8, sq: usize) -> u64 {
    KEYS[(code as usize - 1) * MAX_SQUARES + sq]
}

/// XORed in when the defenders are to move.
#[inline]
pub(crate) fn defenders_to_move_key() -> u64 {
    KEYS[3 * MAX_SQUARES]
}
