//! A small, fast, seeded pseudo-random generator (SplitMix64) for everything random in plies:
//! random playouts, position generators, Zobrist keys built at compile time.
//!
//! Key invariant: the sequence depends on the seed only, on every platform and in every build,
//! so seeded runs reproduce exactly.

/// SplitMix64: 64 bits of state, passes BigCrush, usable in `const` code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits (usable in `const` contexts through [`SplitMix64::step`]).
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let (state, value) = Self::step(self.state);
        self.state = state;
        value
    }

    /// One step as a pure function: the new state and the output.
    #[inline]
    #[must_use]
    pub const fn step(state: u64) -> (u64, u64) {
        let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (state, z ^ (z >> 31))
    }

    /// A mixing function: the output of one step from state `x` (`SplitMix64::new(x)`'s first
    /// number), so that a seeded toy game or a hint source can derive everything from a number
    /// alone.
    #[inline]
    #[must_use]
    pub const fn mix(x: u64) -> u64 {
        Self::step(x).1
    }

    /// A uniform integer in `0..bound` (`bound > 0`), without modulo bias worth speaking of
    /// (Lemire's multiply-shift).
    #[inline]
    pub fn below(&mut self, bound: usize) -> usize {
        debug_assert!(bound > 0);
        ((u128::from(self.next_u64()) * bound as u128) >> 64) as usize
    }

    /// A uniform float in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Fills an array with random keys at compile time, e.g. Zobrist tables:
/// `static KEYS: [u64; 64] = random_keys(0x1234);`.
#[must_use]
pub const fn random_keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut keys = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, value) = SplitMix64::step(state);
        state = next;
        keys[i] = value;
        i += 1;
    }
    keys
}

#[cfg(test)]
mod tests;
