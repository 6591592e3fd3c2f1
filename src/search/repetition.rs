//! Repetition bookkeeping for searchers: the game's history (the positions before the root,
//! [`crate::game::GameHistory::before`]) plus
//! the line being searched, so that a node can count how often its position has occurred and ask
//! the game what its rules say ([`Game::repetition_outcome`]).
//!
//! Key invariants:
//! - a searcher builds a [`Repetitions`] only for a game with a repetition rule
//!   ([`Game::has_repetition_rule`]); without one it holds `None` and does no look-up at all;
//! - the occurrences of a position `ply` plies below the root are counted over the history
//!   (positions before the root, oldest first), the root and the positions at plies
//!   `1..ply` of the current line, plus one for the position itself: exactly what the game's
//!   record would count had the line been played;
//! - a position that is finished by the game's own rules ([`Game::outcome`]) keeps that outcome:
//!   the repetition rule is asked only for positions that are not;
//! - no allocation after [`Repetitions::new`] for lines within the planned length: the line is a
//!   stack indexed by ply (a longer line grows it once).

use crate::game::{Game, Outcome, Side};

/// Bits of the history filter (a power of two).
const FILTER_BITS: usize = 1 << 12;

/// The history and the current line of one search thread.
#[derive(Clone, Debug)]
pub struct Repetitions {
    /// The history, oldest first, then the line: `stack[base + ply]` is the hash of the position
    /// `ply` plies below the root on the line being searched.
    stack: Vec<u64>,
    /// The length of the history.
    base: usize,
    /// A bit per hash slot that some history position occupies: a position whose bit is clear
    /// did not occur in the history, so only the (short) line is scanned for it.
    filter: Vec<u64>,
    /// How many times a repetition ended a line (a value that depends on the path to it).
    hits: u64,
}

impl Repetitions {
    /// The bookkeeping for a search of `root` after the positions `history` (oldest first, `root`
    /// excluded) whose lines are at most `plies` plies long, or `None` when `root`'s game has no
    /// repetition rule.
    #[must_use]
    pub fn new<G: Game>(root: &G, history: &[u64], plies: usize) -> Option<Repetitions> {
        if !root.has_repetition_rule() {
            return None;
        }
        let mut stack = Vec::with_capacity(history.len() + plies + 1);
        stack.extend_from_slice(history);
        stack.resize(history.len() + plies + 1, 0);
        stack[history.len()] = root.hash();
        let mut filter = vec![0u64; FILTER_BITS / 64];
        for &hash in history {
            let bit = Self::bit(hash);
            filter[bit / 64] |= 1 << (bit % 64);
        }
        Some(Repetitions {
            stack,
            base: history.len(),
            filter,
            hits: 0,
        })
    }

    #[inline]
    fn bit(hash: u64) -> usize {
        (hash >> 52) as usize & (FILTER_BITS - 1)
    }

    /// Records `state`, just reached by a move of `mover`, as the position `ply` plies below the
    /// root of the current line (`ply` at least 1), and returns the outcome the rules give it
    /// for its repetition, if any (counted as the module docs say).
    #[inline]
    pub fn outcome<G: Game>(&mut self, state: &G, mover: Side, ply: usize) -> Option<Outcome> {
        let hash = state.hash();
        let at = self.base + ply;
        if at >= self.stack.len() {
            // A line longer than planned (MCTS playouts): grows once, then is reused.
            self.stack.resize(at + 1, 0);
        }
        self.stack[at] = hash;
        let mut occurrences = 1 + self.stack[self.base..at]
            .iter()
            .filter(|&&h| h == hash)
            .count() as u32;
        let bit = Self::bit(hash);
        if self.filter[bit / 64] & (1 << (bit % 64)) != 0 {
            occurrences += self.stack[..self.base]
                .iter()
                .filter(|&&h| h == hash)
                .count() as u32;
        }
        if occurrences < 2 || state.outcome().is_some() {
            return None;
        }
        let outcome = state.repetition_outcome(mover, occurrences);
        if outcome.is_some() {
            self.hits += 1;
        }
        outcome
    }

    /// How many times a repetition has ended a line so far: a node whose subtree changed it has
    /// a value that depends on the path to it (a table must not keep it as the position's).
    #[inline]
    #[must_use]
    pub fn hits(&self) -> u64 {
        self.hits
    }
}

/// [`Repetitions::hits`] of an optional tracker (0 without one).
#[inline]
pub(crate) fn hits(repetitions: Option<&Repetitions>) -> u64 {
    repetitions.map_or(0, Repetitions::hits)
}
