//! The combinatorial number system the tables number piece sets with: a set of squares is
//! ranked among the squares left free by others, and unranked back.
//!
//! Key invariant: for every `taken` and every set `bits` of `count` squares not in `taken`,
//! `unrank(rank(bits, taken), count, taken) == bits`, and the ranks of such sets are exactly
//! `0..C(25 - |taken|, count)`.

use plies::bits::set_bits;

/// Binomial coefficients up to 25 choose 25.
const fn binomials() -> [[u64; 26]; 26] {
    let mut table = [[0u64; 26]; 26];
    let mut n = 0;
    while n < 26 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    table
}

pub(super) static CHOOSE: [[u64; 26]; 26] = binomials();

/// The rank of the set bits of `bits` among the squares not in `taken`, in the combinatorial
/// number system (the i-th smallest free square, the c-th free one, contributes C(c, i + 1)).
#[inline]
pub(super) fn rank(bits: u32, taken: u32) -> u64 {
    let mut rank = 0;
    for (i, square) in set_bits(bits).enumerate() {
        let free_index = square - (taken & ((1 << square) - 1)).count_ones();
        rank += CHOOSE[free_index as usize][i + 1];
    }
    rank
}

/// The `count` squares not in `taken` whose rank ([`rank`]) is `rank`.
#[inline]
pub(super) fn unrank(mut rank: u64, count: usize, taken: u32) -> u32 {
    let mut bits = 0;
    let mut n = 25 - taken.count_ones() as usize;
    for k in (1..=count).rev() {
        // The largest n with C(n, k) <= rank is the k-th chosen free index.
        n -= 1;
        while CHOOSE[n][k] > rank {
            n -= 1;
        }
        rank -= CHOOSE[n][k];
        // The n-th free square: n, moved up past every taken square at or below it.
        let mut square = n as u32;
        for t in set_bits(taken) {
            if t > square {
                break;
            }
            square += 1;
        }
        bits |= 1 << square;
    }
    bits
}

/// The sets of `count` squares not in `taken`, one after the other in the order of their rank
/// ([`rank`]), each from the one before by a few bit operations instead of [`unrank`]: the
/// chosen squares are kept as increasing indices among the free ones, and the next set moves
/// the lowest index that can move up by one and puts the ones below it back at the bottom
/// (the successor in colexicographic order, which is the order of the combinatorial ranks).
pub(super) struct Sets {
    /// The free squares, lowest first.
    free: [u8; 25],
    /// The chosen squares' indices in `free`, increasing.
    at: [u8; 8],
    count: usize,
    bits: u32,
}

impl Sets {
    /// The first set (rank 0): the `count` lowest free squares. `count` is 1 to 8.
    pub(super) fn new(count: usize, taken: u32) -> Sets {
        let mut free = [0u8; 25];
        for (i, square) in set_bits(!taken & ((1 << 25) - 1)).enumerate() {
            free[i] = square as u8;
        }
        let mut at = [0u8; 8];
        let mut bits = 0;
        for (i, at) in at.iter_mut().enumerate().take(count) {
            *at = i as u8;
            bits |= 1 << free[i];
        }
        Sets {
            free,
            at,
            count,
            bits,
        }
    }

    /// Moves on to the set of the next rank (past the last one, the set is meaningless).
    #[inline]
    fn advance(&mut self) {
        let mut i = 0;
        while i + 1 < self.count && self.at[i] + 1 == self.at[i + 1] {
            i += 1;
        }
        self.bits &= !(1 << self.free[usize::from(self.at[i])]);
        self.at[i] += 1;
        if let Some(&square) = self.free.get(usize::from(self.at[i])) {
            self.bits |= 1 << square;
        }
        for j in 0..i {
            self.bits &= !(1 << self.free[usize::from(self.at[j])]);
            self.at[j] = j as u8;
            self.bits |= 1 << self.free[j];
        }
    }
}

/// The sets in rank order, without end: take as many as there are (`C(free squares, count)`).
impl Iterator for Sets {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        let bits = self.bits;
        self.advance();
        Some(bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_follow_the_ranks() {
        for (count, taken) in [
            (1, 0),
            (3, 0),
            (2, 0b1_0010_0100),
            (4, 0x0104_2001),
            (3, 0x00ff_0f00),
        ] {
            let free = 25 - u32::count_ones(taken) as usize;
            let total = CHOOSE[free][count];
            let sets = Sets::new(count, taken).take(total as usize);
            for (r, bits) in (0..total).zip(sets) {
                assert_eq!(
                    bits,
                    unrank(r, count, taken),
                    "rank {r} of {count} among ~{taken:#x}"
                );
                assert_eq!(rank(bits, taken), r);
            }
        }
    }
}
