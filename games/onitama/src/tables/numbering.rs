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
