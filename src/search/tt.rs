//! The transposition table: remembers what earlier searches found about a position, keyed by its
//! Zobrist hash ([`crate::Game::hash`]). Lock-free, so threads can later share one table.
//!
//! # Layout
//! Every entry is one `AtomicU64` (8 bytes), bit by bit (bit 0 = least significant):
//!
//! | bits   | width | field                                                              |
//! |--------|-------|--------------------------------------------------------------------|
//! | 0–15   | 16    | score as `i16`, relative to the node ([`Score::to_tt`])            |
//! | 16–31  | 16    | move code: 0 = no move, else [`crate::Game::move_index`] + 1       |
//! | 32–39  | 8     | remaining depth searched (0–255)                                   |
//! | 40–41  | 2     | bound: 0 = empty slot, 1 = exact, 2 = lower, 3 = upper             |
//! | 42–47  | 6     | generation ([`TranspositionTable::new_search`], modulo 64)         |
//! | 48–63  | 16    | check: the top 16 bits of the hash                                 |
//!
//! Two entries form a *bucket*: slot 0 is *depth-preferred* (it keeps the deepest result unless
//! that result is from an older search: aging), slot 1 is *always-replace* (it takes whatever
//! slot 0 refused, and what slot 0 evicts). Four buckets form a 64-byte *cluster*, aligned to a
//! cache line, so a probe touches one line. The table has a power-of-two number of buckets and
//! the bucket of a hash is its low bits; with the 16 check bits a probe compares
//! `log2(buckets) + 16` bits of the hash (36 for 64 MB), so a false hit is rare but possible, as
//! in any such table: a stored move is only a hint and a search must survive a wrong score.
//!
//! # Memory
//! The slots are one zeroed allocation, which the operating system maps lazily: a table costs
//! no time to set up and no memory until searches touch it. Emptying a shared table swaps in a fresh one for the
//! same reason ([`SharedTable::clear`]).
//!
//! # Sharing
//! Loads and stores are single relaxed 64-bit atomic operations, so a reader sees either the old
//! or the new entry, never a mix of two (no torn entries); two threads racing on one bucket can
//! at worst lose one of their stores. The table can therefore be used through `&self`.
//!
//! # Resizing
//! [`TranspositionTable::resize`] (between searches) and [`SharedTable::resize`] (while searches
//! use the table) keep entries: shrinking folds the buckets whose low bits
//! agree into one (the usual replacement rules decide what stays); growing copies each bucket
//! into every new bucket whose low bits extend its index (the position's own bucket is among
//! them; the other copies match only as often as a false hit of the old, smaller table, and are
//! overwritten in time).
//!
//! About exactness: a fixed-depth minimax value depends on the remaining depth, so taking a cutoff
//! from an entry searched *deeper* than needed gives a value plain minimax at that depth would not
//! give. [`TranspositionTable::probe`] can therefore prefer an entry of exactly the wanted depth;
//! whether deeper entries may cut is the searcher's choice (`PvsConfig::tt_exact_depth`).

use std::sync::atomic::{AtomicU64, Ordering};

pub use shared::SharedTable;

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

impl Bound {
    #[inline]
    const fn code(self) -> u64 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    #[inline]
    const fn from_code(code: u64) -> Option<Bound> {
        match code {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
}

const MOVE_SHIFT: u32 = 16;
const DEPTH_SHIFT: u32 = 32;
const BOUND_SHIFT: u32 = 40;
const GENERATION_SHIFT: u32 = 42;
const CHECK_SHIFT: u32 = 48;
const GENERATION_MASK: u64 = 0x3f;
/// The largest move index a table entry can hold.
pub const MAX_MOVE_INDEX: usize = u16::MAX as usize - 1;

/// One remembered search result, unpacked (the copy handed out by
/// [`TranspositionTable::probe`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct TtEntry {
    /// The remaining depth the position was searched to.
    pub depth: u8,
    /// What `score` says.
    pub bound: Bound,
    /// The score, relative to the node ([`Score::to_tt`]).
    pub score: i16,
    /// The best move found, as a [`crate::Game::move_index`], if any.
    pub mv: Option<u16>,
}

impl TtEntry {
    /// The stored score read back at a node `ply` plies from the root.
    #[inline]
    #[must_use]
    pub fn score(&self, ply: u32) -> Score {
        Score::from_raw(i32::from(self.score)).from_tt(ply)
    }
}

/// Packed-entry helpers (see the module table).
#[inline]
const fn check_of(hash: u64) -> u64 {
    hash >> CHECK_SHIFT
}

#[inline]
const fn is_used(word: u64) -> bool {
    (word >> BOUND_SHIFT) & 3 != 0
}

#[inline]
const fn word_check(word: u64) -> u64 {
    word >> CHECK_SHIFT
}

#[inline]
const fn word_depth(word: u64) -> u64 {
    (word >> DEPTH_SHIFT) & 0xff
}

#[inline]
const fn word_generation(word: u64) -> u64 {
    (word >> GENERATION_SHIFT) & GENERATION_MASK
}

#[inline]
const fn word_move(word: u64) -> u64 {
    (word >> MOVE_SHIFT) & 0xffff
}

#[inline]
fn unpack(word: u64) -> TtEntry {
    let code = word_move(word);
    TtEntry {
        depth: word_depth(word) as u8,
        bound: Bound::from_code((word >> BOUND_SHIFT) & 3).unwrap_or(Bound::Exact),
        score: word as u16 as i16,
        mv: (code != 0).then(|| (code - 1) as u16),
    }
}

/// Slots of one cluster: four two-slot buckets on one 64-byte cache line.
const CLUSTER_SLOTS: usize = 8;
const BUCKETS_PER_CLUSTER: usize = 4;
/// The bytes of one cluster (a cache line).
const CLUSTER_BYTES: usize = 64;
const _: () = assert!(std::mem::size_of::<AtomicU64>() == 8);
const _: () = assert!(CLUSTER_SLOTS * std::mem::size_of::<AtomicU64>() == CLUSTER_BYTES);

/// A fixed-size, lock-free transposition table.
///
/// Its slots are one zeroed allocation (`calloc`: the operating system hands out zero pages only
/// when they are first touched, so a large table costs nothing until searches fill it) of
/// [`CLUSTER_SLOTS`] slots per cluster plus one spare cluster; clusters start at `base`, the
/// first slot on a cache-line boundary.
#[derive(Debug)]
pub struct TranspositionTable {
    slots: Box<[AtomicU64]>,
    /// The index of the first slot of cluster 0 (aligned to a cache line).
    base: usize,
    /// The number of clusters.
    clusters: usize,
    /// `buckets - 1`; the bucket count is a power of two.
    mask: usize,
    /// The current generation (0..64); atomic so that a table shared by searches can start a
    /// new search through `&self`.
    generation: AtomicU64,
}

/// How many clusters [`TranspositionTable::fill`] samples.
const FILL_SAMPLE: usize = 1000;

/// A transposition table the allocator refused: the memory it asked for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TableAllocError {
    /// The bytes asked for.
    pub bytes: usize,
}

impl std::fmt::Display for TableAllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot allocate a transposition table of {} MB: not enough memory",
            self.bytes.div_ceil(1 << 20)
        )
    }
}

impl std::error::Error for TableAllocError {}

/// `count` slots, all zero (empty), from one zeroed allocation: the operating system maps the
/// pages lazily, so nothing is written (or even backed by memory) until a slot is used, and a
/// large table asks for huge pages ([`crate::memory`]). An allocation the system refuses is an
/// error, never an abort.
fn zeroed_slots(count: usize) -> Result<Box<[AtomicU64]>, TableAllocError> {
    // At least one cluster, so the table is never empty.
    let count = count.max(CLUSTER_SLOTS);
    crate::memory::zeroed_vec(count)
        .map(Vec::into_boxed_slice)
        .map_err(|e| TableAllocError { bytes: e.bytes })
}

/// The largest power of two not above `n` (at least 1).
fn floor_pow2(n: usize) -> usize {
    if n <= 1 {
        1
    } else {
        1 << (usize::BITS - 1 - n.leading_zeros())
    }
}

impl TranspositionTable {
    /// A table of at most `megabytes` MB (the bucket count is rounded down to a power of two;
    /// at least one cluster).
    ///
    /// # Panics
    /// The allocator refuses the memory; [`TranspositionTable::try_new`] returns that as an
    /// error instead.
    #[must_use]
    pub fn new(megabytes: usize) -> TranspositionTable {
        Self::try_new(megabytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`TranspositionTable::new`], or the error of an allocation the system refuses.
    ///
    /// # Errors
    /// The allocator refuses the table's memory.
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, TableAllocError> {
        Self::try_with_buckets(Self::buckets_for(megabytes))
    }

    /// The bucket count of a table of at most `megabytes` MB (at least one cluster).
    fn buckets_for(megabytes: usize) -> usize {
        floor_pow2(megabytes.saturating_mul(1 << 20) / 16).max(BUCKETS_PER_CLUSTER)
    }

    /// Is this table already the size [`TranspositionTable::new`] gives for `megabytes`?
    fn has_size(&self, megabytes: usize) -> bool {
        Self::buckets_for(megabytes) == self.bucket_count()
    }

    /// A table of `count` buckets rounded down to a power of two, at least one cluster (four
    /// buckets); for tests and tiny tables.
    ///
    /// # Panics
    /// The allocator refuses the memory (see [`TranspositionTable::try_new`]).
    #[must_use]
    pub fn with_buckets(count: usize) -> TranspositionTable {
        Self::try_with_buckets(count).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`TranspositionTable::with_buckets`], or the error of an allocation the system refuses.
    fn try_with_buckets(count: usize) -> Result<TranspositionTable, TableAllocError> {
        let buckets = floor_pow2(count).max(BUCKETS_PER_CLUSTER);
        let clusters = buckets / BUCKETS_PER_CLUSTER;
        let slots = zeroed_slots((clusters + 1) * CLUSTER_SLOTS)?;
        // Slots before the first cache-line boundary are left unused.
        let misalignment = (slots.as_ptr() as usize) % CLUSTER_BYTES;
        let base = ((CLUSTER_BYTES - misalignment) % CLUSTER_BYTES) / 8;
        Ok(TranspositionTable {
            slots,
            base,
            clusters,
            mask: buckets - 1,
            generation: AtomicU64::new(0),
        })
    }

    /// The number of buckets (two entries each).
    #[must_use]
    pub fn bucket_count(&self) -> usize {
        self.mask + 1
    }

    /// The size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.clusters * CLUSTER_BYTES
    }

    /// Empties every slot (call it between searches: a search storing meanwhile may leave
    /// entries behind).
    pub fn clear(&self) {
        for slot in self.used_slots() {
            slot.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of earlier searches become replaceable first.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) & GENERATION_MASK;
        self.generation.store(next, Ordering::Relaxed);
    }

    /// The current generation (0..64).
    #[must_use]
    pub fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) as u8
    }

    /// The two slots of the bucket of `hash`.
    #[inline]
    fn slots(&self, hash: u64) -> &[AtomicU64] {
        let bucket = hash as usize & self.mask;
        self.bucket(bucket)
    }

    /// The slots of the clusters (those before `base` and after the last cluster left out).
    fn used_slots(&self) -> &[AtomicU64] {
        &self.slots[self.base..self.base + self.clusters * CLUSTER_SLOTS]
    }

    /// Asks the processor to start loading the cache line of `hash`'s bucket, so that a probe
    /// soon after (of a child position, say) finds it in cache. Only a hint: no effect on what
    /// the table holds, and nothing at all off x86-64.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket = hash as usize & self.mask;
            let first = self.base + bucket / BUCKETS_PER_CLUSTER * CLUSTER_SLOTS;
            let cluster: *const AtomicU64 = &self.slots[first];
            // SAFETY: a prefetch never faults and reads nothing observable; the address is that
            // of a live cluster anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(cluster.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// The slots of bucket `index`, by raw index (for resizing).
    #[inline]
    fn bucket(&self, index: usize) -> &[AtomicU64] {
        let first = self.base + 2 * index;
        &self.slots[first..first + 2]
    }

    /// The entry for `hash`, if the table has one. When both slots hold the position, the one
    /// searched exactly `depth` deep is preferred if `prefer_depth` is set (an exact-depth search
    /// can cut only with that one), otherwise the deeper one.
    #[inline]
    #[must_use]
    pub fn probe(&self, hash: u64, depth: u32, prefer_depth: bool) -> Option<TtEntry> {
        let slots = self.slots(hash);
        let check = check_of(hash);
        let deep = slots[0].load(Ordering::Relaxed);
        let recent = slots[1].load(Ordering::Relaxed);
        let deep_hit = is_used(deep) && word_check(deep) == check;
        let recent_hit = is_used(recent) && word_check(recent) == check;
        let chosen = match (deep_hit, recent_hit) {
            (false, false) => return None,
            (true, false) => deep,
            (false, true) => recent,
            (true, true) => {
                let wanted = u64::from(depth);
                if prefer_depth && word_depth(recent) == wanted {
                    recent
                } else if prefer_depth && word_depth(deep) == wanted {
                    deep
                } else if word_depth(recent) > word_depth(deep) {
                    recent
                } else {
                    deep
                }
            }
        };
        Some(unpack(chosen))
    }

    /// Remembers that the position `hash`, `ply` plies from the root, searched `depth` plies deep,
    /// has `score` (of kind `bound`) and best move index `mv` (indices above
    /// [`MAX_MOVE_INDEX`] are not stored). A `None` move keeps a move already stored for the
    /// position.
    #[inline]
    pub fn store(
        &self,
        hash: u64,
        ply: u32,
        depth: u32,
        bound: Bound,
        score: Score,
        mv: Option<usize>,
    ) {
        let code = mv
            .filter(|&index| index <= MAX_MOVE_INDEX)
            .map_or(0, |i| i + 1);
        let word = (u64::from(score.to_tt(ply).raw() as i16 as u16))
            | ((code as u64) << MOVE_SHIFT)
            | (u64::from(depth.min(255)) << DEPTH_SHIFT)
            | (bound.code() << BOUND_SHIFT)
            | (self.generation.load(Ordering::Relaxed) << GENERATION_SHIFT)
            | (check_of(hash) << CHECK_SHIFT);
        self.put(self.slots(hash), word);
    }

    /// The replacement rule for a packed `word` into a bucket's `slots`.
    #[inline]
    fn put(&self, slots: &[AtomicU64], mut word: u64) {
        let check = word_check(word);
        let deep = slots[0].load(Ordering::Relaxed);
        let same = is_used(deep) && word_check(deep) == check;
        let takes_deep_slot = !is_used(deep)
            || word_generation(deep) != word_generation(word)
            || word_depth(word) >= word_depth(deep);
        if takes_deep_slot {
            if same {
                word = keep_move(word, deep);
            } else if is_used(deep) {
                // The evicted entry moves down to the always-replace slot.
                slots[1].store(deep, Ordering::Relaxed);
            }
            slots[0].store(word, Ordering::Relaxed);
        } else {
            let recent = slots[1].load(Ordering::Relaxed);
            if is_used(recent) && word_check(recent) == check {
                word = keep_move(word, recent);
            } else if same {
                word = keep_move(word, deep);
            }
            slots[1].store(word, Ordering::Relaxed);
        }
    }

    /// Changes the size to at most `megabytes` MB, keeping the entries (see the module docs).
    /// Call it between searches; [`SharedTable::resize`] resizes a table searches are using.
    pub fn resize(&mut self, megabytes: usize) {
        if !self.has_size(megabytes) {
            *self = self.resized(megabytes);
        }
    }

    /// A copy of this table at most `megabytes` MB large (at least one cluster), holding its
    /// entries (see the module docs) and its generation.
    #[must_use]
    pub fn resized(&self, megabytes: usize) -> TranspositionTable {
        let buckets = Self::buckets_for(megabytes);
        let table = TranspositionTable::with_buckets(buckets);
        table
            .generation
            .store(self.generation.load(Ordering::Relaxed), Ordering::Relaxed);
        let old = self.bucket_count();
        if buckets > old {
            for index in 0..buckets {
                let from = self.bucket(index & self.mask);
                let to = table.bucket(index);
                for (slot, source) in to.iter().zip(from) {
                    slot.store(source.load(Ordering::Relaxed), Ordering::Relaxed);
                }
            }
        } else {
            // Always-replace entries first, so the depth-preferred ones win the fold.
            for slot in [1, 0] {
                for index in 0..old {
                    let word = self.bucket(index)[slot].load(Ordering::Relaxed);
                    if is_used(word) {
                        table.put(table.bucket(index & table.mask), word);
                    }
                }
            }
        }
        table
    }

    /// The share of slots (0.0..=1.0) holding entries of the current search, estimated on the
    /// first clusters (deterministic, cheap).
    #[must_use]
    pub fn fill(&self) -> f64 {
        let sample = self.sample();
        let used = self.current_entries(sample).count();
        used as f64 / sample.len() as f64
    }

    /// The share of slots holding entries of the current search, by stored depth (index = depth,
    /// up to the deepest found), estimated on the first clusters like [`TranspositionTable::fill`].
    #[must_use]
    pub fn fill_by_depth(&self) -> Vec<f64> {
        let sample = self.sample();
        let mut counts = Vec::new();
        for word in self.current_entries(sample) {
            let depth = word_depth(word) as usize;
            if counts.len() <= depth {
                counts.resize(depth + 1, 0usize);
            }
            counts[depth] += 1;
        }
        let slots = sample.len() as f64;
        counts.into_iter().map(|c| c as f64 / slots).collect()
    }

    /// The slots of the first [`FILL_SAMPLE`] clusters.
    fn sample(&self) -> &[AtomicU64] {
        &self.used_slots()[..self.clusters.min(FILL_SAMPLE) * CLUSTER_SLOTS]
    }

    fn current_entries<'a>(&self, sample: &'a [AtomicU64]) -> impl Iterator<Item = u64> + 'a {
        let generation = self.generation.load(Ordering::Relaxed);
        sample
            .iter()
            .map(|slot| slot.load(Ordering::Relaxed))
            .filter(move |&word| is_used(word) && word_generation(word) == generation)
    }
}

/// `word` with the move of `old` if it has none itself.
#[inline]
fn keep_move(word: u64, old: u64) -> u64 {
    if word_move(word) == 0 {
        word | (word_move(old) << MOVE_SHIFT)
    } else {
        word
    }
}

mod shared;
#[cfg(test)]
mod tests;
