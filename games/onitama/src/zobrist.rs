//! Zobrist keys: one per (side, piece kind, square), one per (card, holder) where the holder is
//! red, blue or the side, and one for "blue to move".
//!
//! Key invariant: the keys are compile-time constants (from [`plies::rng::random_keys`]), so a
//! position's hash is the same in every run and build; [`crate::Onitama::hash_from_scratch`]
//! XORs exactly the keys of what is on the board, in the hands and on the side. Tables are
//! padded to 32 squares and 4 holders so that masked indices need no bounds checks.

use plies::rng::random_keys;

/// Holder index of the side card in [`card_key`] (0 = red's hand, 1 = blue's hand).
pub(crate) const SIDE_HOLDER: usize = 2;

const RAW: [u64; 2 * 2 * 25 + 32 * 3 + 1] = random_keys(0x0417_a3a0_5eed_0001);

/// `PIECE_KEYS[side][kind][square]`, squares 25..32 unused (zero).
static PIECE_KEYS: [[[u64; 32]; 2]; 2] = {
    let mut table = [[[0; 32]; 2]; 2];
    let mut i = 0;
    while i < 100 {
        table[i / 50][(i / 25) % 2][i % 25] = RAW[i];
        i += 1;
    }
    table
};

/// `CARD_KEYS[card][holder]`, holder 3 unused (zero).
static CARD_KEYS: [[u64; 4]; 32] = {
    let mut table = [[0; 4]; 32];
    let mut i = 0;
    while i < 96 {
        table[i / 3][i % 3] = RAW[100 + i];
        i += 1;
    }
    table
};

/// `EXCHANGE_KEYS[player][card]`: the card's key in `player`'s hand XOR its key on the side, so
/// one look-up moves a card between the hand and the side either way.
static EXCHANGE_KEYS: [[u64; 32]; 2] = {
    let mut table = [[0; 32]; 2];
    let mut i = 0;
    while i < 64 {
        let (player, card) = (i / 32, i % 32);
        table[player][card] = CARD_KEYS[card][player] ^ CARD_KEYS[card][SIDE_HOLDER];
        i += 1;
    }
    table
};

/// What a turn of `player` does to the hash besides the piece move: `used` goes from the hand to
/// the side, `taken` from the side to the hand, and the side to move changes.
#[inline]
pub(crate) fn turn_key(player: usize, used: usize, taken: usize) -> u64 {
    EXCHANGE_KEYS[player & 1][used & 31]
        ^ EXCHANGE_KEYS[player & 1][taken & 31]
        ^ blue_to_move_key()
}

/// The key of a piece of `side` (0 red, 1 blue), `kind` (0 student, 1 master) on `square`.
#[inline]
pub(crate) fn piece_key(side: usize, kind: usize, square: usize) -> u64 {
    PIECE_KEYS[side & 1][kind & 1][square & 31]
}

/// The key of `card` held by `holder` (0 red, 1 blue, [`SIDE_HOLDER`]).
#[inline]
pub(crate) fn card_key(card: usize, holder: usize) -> u64 {
    CARD_KEYS[card & 31][holder & 3]
}

/// XORed in when blue is to move.
#[inline]
pub(crate) fn blue_to_move_key() -> u64 {
    RAW[196]
}

#[cfg(test)]
mod tests;
