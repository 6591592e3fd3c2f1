//! Sets of small indices kept in the bits of an unsigned integer (a bitboard, a row of a
//! board, a hand of cards): iterate the members, take the lowest or highest, build a range.
//! Generic over [`num_traits::PrimInt`], so one implementation serves a game's `u32` rows and
//! its `u128` boards alike.
//!
//! Key invariant: bit `i` stands for index `i`; every iteration runs from the lowest index to
//! the highest, so code that walks a set visits its members in the same order as a loop over
//! `0..BITS` testing each bit (searches stay node-for-node the same).
//!
//! Everything here is `#[inline]` and, once monomorphised, is the usual hand loop: one
//! `trailing_zeros` and one "clear the lowest bit" (`x & (x - 1)`) per member.
//!
//! ```
//! use plies::bits::{bit_span, highest, lowest, set_bits};
//!
//! let pieces: u32 = 0b1010_0100;
//! assert_eq!(set_bits(pieces).collect::<Vec<_>>(), [2, 5, 7]);
//! assert_eq!(set_bits(pieces).len(), 3);
//! assert_eq!((lowest(pieces), highest(pieces)), (Some(2), Some(7)));
//! assert_eq!(lowest(0u128), None);
//! assert_eq!(bit_span::<u32>(2, 5), 0b1_1100);
//! ```

use std::iter::FusedIterator;

use num_traits::{PrimInt, Unsigned};

/// The indices of the set bits of a value, lowest first ([`set_bits`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct SetBits<T>(T);

/// Iterates the indices of the bits set in `bits`, lowest first.
#[inline]
#[must_use]
pub fn set_bits<T: PrimInt + Unsigned>(bits: T) -> SetBits<T> {
    SetBits(bits)
}

impl<T: PrimInt + Unsigned> SetBits<T> {
    /// The bits not yet visited.
    #[inline]
    #[must_use]
    pub fn remaining(self) -> T {
        self.0
    }
}

impl<T: PrimInt + Unsigned> Iterator for SetBits<T> {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        pop_lowest(&mut self.0)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }

    #[inline]
    fn count(self) -> usize {
        self.0.count_ones() as usize
    }
}

impl<T: PrimInt + Unsigned> ExactSizeIterator for SetBits<T> {}

impl<T: PrimInt + Unsigned> FusedIterator for SetBits<T> {}

/// Removes the lowest set bit of `bits` and returns its index; `None` (and `bits` unchanged)
/// when no bit is set.
#[inline(always)]
pub fn pop_lowest<T: PrimInt + Unsigned>(bits: &mut T) -> Option<u32> {
    if bits.is_zero() {
        return None;
    }
    let index = bits.trailing_zeros();
    *bits = *bits & (*bits - T::one());
    Some(index)
}

/// The index of the lowest set bit, `None` when no bit is set.
#[inline]
#[must_use]
pub fn lowest<T: PrimInt + Unsigned>(bits: T) -> Option<u32> {
    (!bits.is_zero()).then(|| bits.trailing_zeros())
}

/// The index of the highest set bit, `None` when no bit is set.
#[inline]
#[must_use]
pub fn highest<T: PrimInt + Unsigned>(bits: T) -> Option<u32> {
    (!bits.is_zero()).then(|| width::<T>() - 1 - bits.leading_zeros())
}

/// The bits `lo..hi` set and no other (empty when `hi <= lo`).
///
/// # Panics
///
/// When `hi` exceeds the width of `T` (a caller's bug, like an out-of-range shift).
#[inline]
#[must_use]
pub fn bit_span<T: PrimInt + Unsigned>(lo: u32, hi: u32) -> T {
    assert!(
        hi <= width::<T>(),
        "bit_span: {hi} exceeds {} bits",
        width::<T>()
    );
    if hi <= lo {
        return T::zero();
    }
    (T::max_value() >> (width::<T>() - (hi - lo)) as usize) << lo as usize
}

/// The number of bits of `T`.
#[inline(always)]
fn width<T: PrimInt>() -> u32 {
    T::zero().count_zeros()
}

#[cfg(test)]
mod tests;
