//! The reproducible random games of the Hus rules document: a 64-bit LCG
//! (`x ← x·6364136223846793005 + 1442695040888963407 mod 2^64`, starting at the seed) that,
//! each ply, advances and picks index `(x >> 33) mod n` among the legal moves in ascending pit
//! order.
//!
//! Key invariant: the same seed gives the same game, move for move, on every platform.

use plies::Game;

use crate::state::{Hus, Pit};

/// The document's linear congruential generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HusLcg {
    state: u64,
}

impl HusLcg {
    /// The multiplier.
    pub const MULTIPLIER: u64 = 6_364_136_223_846_793_005;
    /// The increment.
    pub const INCREMENT: u64 = 1_442_695_040_888_963_407;

    /// A generator whose state starts at `seed`.
    pub const fn new(seed: u64) -> HusLcg {
        HusLcg { state: seed }
    }

    /// Advances the state and returns an index in `0..n` (`n > 0`) as `(x >> 33) mod n`.
    pub fn pick(&mut self, n: usize) -> usize {
        self.state = self
            .state
            .wrapping_mul(Self::MULTIPLIER)
            .wrapping_add(Self::INCREMENT);
        ((self.state >> 33) % n as u64) as usize
    }
}

/// Plays the document's random game with `seed` from `start` to its end (or `max_plies`) and
/// returns the moves and the final position.
pub fn random_game_moves(start: &Hus, seed: u64, max_plies: usize) -> (Vec<Pit>, Hus) {
    let mut lcg = HusLcg::new(seed);
    let mut state = start.clone();
    let mut moves = Vec::new();
    let mut legal = Vec::with_capacity(32);
    while moves.len() < max_plies {
        legal.clear();
        state.generate_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        let mv = legal[lcg.pick(legal.len())];
        moves.push(mv);
        state = state.play(mv);
    }
    (moves, state)
}
