//! The transposition table: remembers what earlier searches found about a position, keyed by its
//! Zobrist hash ([`crate::Game::hash`]).
//!
//! Layout: a flat array of [`Bucket`]s, each of two slots. Slot 0 is *depth-preferred* (it keeps
//! the deepest result, unless that result is from an older search); slot 1 is *always-replace*
//! (it takes whatever slot 0 refused, and what slot 0 evicts). The bucket of a hash is chosen by
//! its high bits (multiply-shift, so any size works); the entry keeps the low 32 bits as a check.
//!
//! Key invariants:
//! - scores are stored relative to the node ([`Score::to_tt`]) and read back relative to the root
//!   of the reading search ([`Score::from_tt`]), so decisive distances stay right at any ply;
//! - a stored move is only a hint: a hash collision can hand back a move of another position, so
//!   users must only use it to order moves they generated themselves;
//! - the table never allocates after [`TranspositionTable::new`].
//!
//! About exactness: a fixed-depth minimax value depends on the remaining depth, so taking a cutoff
//! from an entry searched *deeper* than needed gives a value plain minimax at that depth would not
//! give (usually a better one). [`TranspositionTable::probe`] can therefore prefer an entry of
//! exactly the wanted depth; whether deeper entries may cut is the searcher's choice (see
//! `PvsConfig::tt_exact_depth` in [`crate::search::pvs`]).

use crate::eval::Score;

/// What a stored score says about the true value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The score is the value.
    Exact,
    /// The value is at least the score (the search failed high).
    Lower,
    /// The value is at most the score (the search failed low).
    Upper,
}

/// One remembered search result (the copy handed out by [`TranspositionTable::probe`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct TtEntry<M> {
    /// The low 32 bits of the position's hash (the bucket index is made from the high bits).
    pub check: u32,
    /// The remaining depth the position was searched to.
    pub depth: u8,
    /// The search generation ([`TranspositionTable::new_search`]) that wrote the entry.
    pub generation: u8,
    /// What `score` says; `None` marks an empty slot.
    pub bound: Option<Bound>,
    /// The score, relative to the node ([`Score::to_tt`]).
    pub score: i16,
    /// The best move found, if any.
    pub mv: Option<M>,
}

impl<M: Copy> TtEntry<M> {
    const EMPTY: TtEntry<M> = TtEntry {
        check: 0,
        depth: 0,
        generation: 0,
        bound: None,
        score: 0,
        mv: None,
    };

    /// Is this slot in use?
    #[inline]
    #[must_use]
    pub fn is_used(&self) -> bool {
        self.bound.is_some()
    }

    /// The stored score read back at a node `ply` plies from the root.
    #[inline]
    #[must_use]
    pub fn score(&self, ply: u32) -> Score {
        Score::from_raw(i32::from(self.score)).from_tt(ply)
    }
}

/// Two slots sharing one index: `[depth-preferred, always-replace]`.
#[derive(Copy, Clone, Debug)]
pub struct Bucket<M> {
    slots: [TtEntry<M>; 2],
}

/// A fixed-size transposition table over moves of type `M`.
#[derive(Clone, Debug)]
pub struct TranspositionTable<M> {
    buckets: Vec<Bucket<M>>,
    generation: u8,
}

/// How many buckets [`TranspositionTable::fill`] samples.
const FILL_SAMPLE: usize = 1000;

impl<M: Copy> TranspositionTable<M> {
    /// A table using about `megabytes` MB (at least one bucket).
    #[must_use]
    pub fn new(megabytes: usize) -> TranspositionTable<M> {
        let bytes = megabytes.saturating_mul(1 << 20);
        let count = (bytes / std::mem::size_of::<Bucket<M>>()).max(1);
        Self::with_buckets(count)
    }

    /// A table of exactly `count` buckets (at least one); for tests and tiny tables.
    #[must_use]
    pub fn with_buckets(count: usize) -> TranspositionTable<M> {
        let empty = Bucket {
            slots: [TtEntry::EMPTY; 2],
        };
        TranspositionTable {
            buckets: vec![empty; count.max(1)],
            generation: 0,
        }
    }

    /// The number of buckets (two entries each).
    #[must_use]
    pub fn bucket_count(&self) -> usize {
        self.buckets.len()
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            bucket.slots = [TtEntry::EMPTY; 2];
        }
        self.generation = 0;
    }

    /// Starts a new search: entries of earlier searches become replaceable first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// The current generation.
    #[must_use]
    pub fn generation(&self) -> u8 {
        self.generation
    }

    #[inline]
    fn index(&self, hash: u64) -> usize {
        ((u128::from(hash) * self.buckets.len() as u128) >> 64) as usize
    }

    /// The entry for `hash`, if the table has one. When both slots hold the position, the one
    /// searched exactly `depth` deep is preferred if `prefer_depth` is set (an exact-depth search
    /// can cut only with that one), otherwise the deeper one.
    #[inline]
    #[must_use]
    pub fn probe(&self, hash: u64, depth: u32, prefer_depth: bool) -> Option<TtEntry<M>> {
        let check = hash as u32;
        let [deep, recent] = &self.buckets[self.index(hash)].slots;
        let deep_hit = deep.is_used() && deep.check == check;
        let recent_hit = recent.is_used() && recent.check == check;
        match (deep_hit, recent_hit) {
            (false, false) => None,
            (true, false) => Some(*deep),
            (false, true) => Some(*recent),
            (true, true) => {
                let chosen = if prefer_depth && u32::from(recent.depth) == depth {
                    recent
                } else if prefer_depth && u32::from(deep.depth) == depth {
                    deep
                } else if recent.depth > deep.depth {
                    recent
                } else {
                    deep
                };
                Some(*chosen)
            }
        }
    }

    /// Remembers that the position `hash`, `ply` plies from the root, searched `depth` plies deep,
    /// has `score` (of kind `bound`) and best move `mv`. A `None` move keeps a move already stored
    /// for the position in the slot written.
    #[inline]
    pub fn store(
        &mut self,
        hash: u64,
        ply: u32,
        depth: u32,
        bound: Bound,
        score: Score,
        mv: Option<M>,
    ) {
        let generation = self.generation;
        let index = self.index(hash);
        let check = hash as u32;
        let mut entry = TtEntry {
            check,
            depth: depth.min(u32::from(u8::MAX)) as u8,
            generation,
            bound: Some(bound),
            score: score.to_tt(ply).raw() as i16,
            mv,
        };
        let slots = &mut self.buckets[index].slots;
        let deep = slots[0];
        let same = deep.is_used() && deep.check == check;
        let takes_deep_slot =
            !deep.is_used() || deep.generation != generation || entry.depth >= deep.depth;
        if takes_deep_slot {
            if same {
                entry.mv = entry.mv.or(deep.mv);
            } else if deep.is_used() {
                // The evicted entry moves down to the always-replace slot.
                slots[1] = deep;
            }
            slots[0] = entry;
        } else {
            let recent = slots[1];
            if recent.is_used() && recent.check == check {
                entry.mv = entry.mv.or(recent.mv);
            } else if same {
                entry.mv = entry.mv.or(deep.mv);
            }
            slots[1] = entry;
        }
    }

    /// The share of slots (0.0..=1.0) holding entries of the current search, estimated on the
    /// first buckets (deterministic, cheap).
    #[must_use]
    pub fn fill(&self) -> f64 {
        let sample = &self.buckets[..self.buckets.len().min(FILL_SAMPLE)];
        let used = sample
            .iter()
            .flat_map(|bucket| bucket.slots.iter())
            .filter(|entry| entry.is_used() && entry.generation == self.generation)
            .count();
        used as f64 / (2 * sample.len()) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hashes that land in bucket 0 of a one-bucket table but differ in their check bits.
    fn key(n: u64) -> u64 {
        n * 0x1_0000_0001
    }

    #[test]
    fn store_then_probe_round_trips() {
        let mut tt = TranspositionTable::<u16>::new(1);
        assert!(tt.bucket_count() > 1000);
        let h = 0xDEAD_BEEF_1234_5678;
        assert_eq!(tt.probe(h, 3, false), None);
        tt.store(h, 2, 3, Bound::Lower, Score::cp(17), Some(9));
        let e = tt.probe(h, 3, false).expect("stored");
        assert_eq!((e.depth, e.bound, e.mv), (3, Some(Bound::Lower), Some(9)));
        assert_eq!(e.score(5), Score::cp(17));
        // A different check with the same bucket misses.
        assert_eq!(tt.probe(h ^ 1, 3, false), None);
    }

    #[test]
    fn decisive_scores_are_ply_adjusted() {
        let mut tt = TranspositionTable::<u8>::with_buckets(4);
        // Found at ply 3: a win 7 plies from the root is 4 plies from this node.
        tt.store(key(1), 3, 5, Bound::Exact, Score::win_in(7), None);
        let e = tt.probe(key(1), 5, true).unwrap();
        assert_eq!(e.score(3), Score::win_in(7));
        assert_eq!(e.score(1), Score::win_in(5));
        tt.store(key(2), 4, 5, Bound::Upper, Score::loss_in(6), None);
        assert_eq!(
            tt.probe(key(2), 5, true).unwrap().score(0),
            Score::loss_in(2)
        );
    }

    #[test]
    fn two_tiers_keep_deep_and_recent() {
        let mut tt = TranspositionTable::<u8>::with_buckets(1);
        tt.store(key(1), 0, 6, Bound::Exact, Score::cp(1), Some(1));
        // Shallower, other position: goes to the always-replace slot, the deep one stays.
        tt.store(key(2), 0, 2, Bound::Exact, Score::cp(2), Some(2));
        assert_eq!(tt.probe(key(1), 6, false).unwrap().mv, Some(1));
        assert_eq!(tt.probe(key(2), 2, false).unwrap().mv, Some(2));
        // Another shallow one replaces the always-replace slot only.
        tt.store(key(3), 0, 1, Bound::Exact, Score::cp(3), Some(3));
        assert_eq!(tt.probe(key(2), 2, false), None);
        assert_eq!(tt.probe(key(1), 6, false).unwrap().mv, Some(1));
        // A deeper one takes the depth slot and pushes the old deep entry down.
        tt.store(key(4), 0, 7, Bound::Exact, Score::cp(4), Some(4));
        assert_eq!(tt.probe(key(4), 7, false).unwrap().mv, Some(4));
        assert_eq!(tt.probe(key(1), 6, false).unwrap().mv, Some(1));
        assert_eq!(tt.probe(key(3), 1, false), None);
    }

    #[test]
    fn old_generations_give_way() {
        let mut tt = TranspositionTable::<u8>::with_buckets(1);
        tt.store(key(1), 0, 9, Bound::Exact, Score::cp(1), Some(1));
        tt.new_search();
        assert_eq!(tt.fill(), 0.0);
        tt.store(key(2), 0, 1, Bound::Exact, Score::cp(2), Some(2));
        assert_eq!(tt.probe(key(2), 1, false).unwrap().depth, 1);
        assert_eq!(tt.fill(), 0.5);
        tt.clear();
        assert_eq!(tt.probe(key(2), 1, false), None);
        assert_eq!(tt.probe(key(1), 9, false), None);
    }

    #[test]
    fn probe_prefers_exact_depth_when_asked() {
        let mut tt = TranspositionTable::<u8>::with_buckets(1);
        tt.store(key(1), 0, 5, Bound::Exact, Score::cp(50), Some(5));
        tt.store(key(1), 0, 3, Bound::Exact, Score::cp(30), None);
        assert_eq!(tt.probe(key(1), 3, true).unwrap().score(0), Score::cp(30));
        assert_eq!(tt.probe(key(1), 3, false).unwrap().score(0), Score::cp(50));
        assert_eq!(tt.probe(key(1), 4, true).unwrap().depth, 5);
        // The shallow entry kept the move of the deep one for ordering.
        assert_eq!(tt.probe(key(1), 3, true).unwrap().mv, Some(5));
        // Same position, deeper result: overwrites the depth slot in place, keeping the move.
        tt.store(key(1), 0, 6, Bound::Lower, Score::cp(60), None);
        let e = tt.probe(key(1), 6, true).unwrap();
        assert_eq!((e.depth, e.mv), (6, Some(5)));
    }
}
