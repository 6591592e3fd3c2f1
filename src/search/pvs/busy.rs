//! The positions the threads of a Lazy SMP search ([`super::parallel`]) are searching right now,
//! for an ABDADA-like deferral: at a node with enough depth left, a move whose position another
//! thread is already searching is put off until the node's other moves are searched (by then
//! the other thread has usually stored its result in the table, which then answers it).
//!
//! Key invariant: the set only reorders moves, so it never changes a value: a wrong answer
//! (two positions sharing a slot, a stale mark) costs at most some move ordering. It is lock-free:
//! one relaxed 64-bit atomic per slot holding the hash of the position searched there.

use std::sync::atomic::{AtomicU64, Ordering};

/// Remaining depth from which a node defers moves another thread is searching (and marks the
/// children it searches).
pub(super) const BUSY_DEPTH: u32 = 6;

/// Slots of the set (a power of two).
const SLOTS: usize = 1 << 12;

/// The set of positions being searched, by hash.
pub(super) struct Busy {
    slots: Vec<AtomicU64>,
}

impl Busy {
    /// An empty set.
    pub(super) fn new() -> Busy {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, hash: u64) -> &AtomicU64 {
        &self.slots[(hash >> 40) as usize & (SLOTS - 1)]
    }

    /// Is a thread searching the position `hash` now (as far as the set knows)?
    #[inline]
    pub(super) fn contains(&self, hash: u64) -> bool {
        hash != 0 && self.slot(hash).load(Ordering::Relaxed) == hash
    }

    /// Marks the position `hash` as being searched.
    #[inline]
    pub(super) fn enter(&self, hash: u64) {
        self.slot(hash).store(hash, Ordering::Relaxed);
    }

    /// Unmarks the position `hash` (unless another position took its slot meanwhile).
    #[inline]
    pub(super) fn leave(&self, hash: u64) {
        let _ = self
            .slot(hash)
            .compare_exchange(hash, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_and_unmarks() {
        let busy = Busy::new();
        let (a, b) = (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321);
        assert!(!busy.contains(a));
        busy.enter(a);
        assert!(busy.contains(a) && !busy.contains(b));
        // Leaving another position of the same slot leaves the mark alone.
        let same_slot = a ^ 1;
        busy.leave(same_slot);
        assert!(busy.contains(a));
        busy.leave(a);
        assert!(!busy.contains(a));
    }
}
