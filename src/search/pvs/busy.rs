//! The positions the threads of a Lazy SMP search ([`super::parallel`]) are searching right now,
//! for an ABDADA-like deferral: at a node with enough depth left, a move whose position another
//! thread is already searching is put off until the node's other moves are searched (by then
//! the other thread has usually stored its result in the table, which then answers it).
//!
//! [`NodeMoves`] is that deferral behind the move picker: a node takes its moves from it and
//! gets the put-off ones back at the end, so the node loop knows nothing of other threads.
//!
//! Key invariant: the set only reorders moves, so it never changes a value: a wrong answer
//! (two positions sharing a slot, a stale mark) costs at most some move ordering. It is lock-free:
//! one relaxed 64-bit atomic per slot holding the hash of the position searched there. Without
//! a set (one thread, or too little depth left) [`NodeMoves`] is exactly the picker.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::game::Game;
use crate::search::heuristics::History;
use crate::search::ordering::MovePicker;
use crate::search::stack::Pick;

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

/// The moves of one node in the picker's order, except that a move whose position another
/// thread is searching (at a node [`BUSY_DEPTH`] or more plies deep) is put off until the
/// picker has nothing left; the put-off moves then come in the order they were put off.
pub(super) struct NodeMoves<'f, M> {
    picker: MovePicker<M>,
    busy: Option<&'f Busy>,
    /// The moves put off (the node's frame's buffer, cleared here).
    deferred: &'f mut Vec<Pick<M>>,
    /// How many put-off moves have been handed out again (0: still picking).
    replayed: usize,
}

impl<'f, M: Copy + PartialEq> NodeMoves<'f, M> {
    /// The moves of a node `depth` plies deep, from `picker`, deferring into `deferred` the ones
    /// `busy` says another thread is searching.
    #[inline]
    pub(super) fn new(
        picker: MovePicker<M>,
        busy: Option<&'f Busy>,
        depth: u32,
        deferred: &'f mut Vec<Pick<M>>,
    ) -> NodeMoves<'f, M> {
        deferred.clear();
        NodeMoves {
            picker,
            busy: busy.filter(|_| depth >= BUSY_DEPTH),
            deferred,
            replayed: 0,
        }
    }

    /// The next move to search (see [`MovePicker::next`] for the buffers), or `None` when every
    /// move, put-off ones included, has been handed out.
    #[inline]
    pub(super) fn next<G: Game<Move = M>>(
        &mut self,
        state: &G,
        moves: &mut Vec<M>,
        scores: &mut Vec<i32>,
        history: Option<&History>,
    ) -> Option<Pick<M>> {
        if self.replayed == 0 {
            match self.picker.next(state, moves, scores, history) {
                Some(mv) => Some(Pick {
                    mv,
                    order: self.picker.picked(),
                    plain_quiet: self.picker.last_was_plain_quiet(),
                }),
                None if self.deferred.is_empty() => None,
                None => {
                    self.replayed = 1;
                    Some(self.deferred[0])
                }
            }
        } else {
            let pick = self.deferred.get(self.replayed).copied();
            self.replayed += usize::from(pick.is_some());
            pick
        }
    }

    /// Decides on `pick`, whose position `child` has just been made: `true` puts it off (another
    /// thread is searching `child`; not the first move, nor a move handed out again), `false`
    /// means search it now (marked as being searched until [`NodeMoves::searched`]).
    #[inline]
    pub(super) fn defer<G: Game>(&mut self, pick: Pick<M>, child: &G) -> bool {
        let Some(busy) = self.busy else {
            return false;
        };
        let hash = child.hash();
        if self.replayed == 0 && pick.order > 1 && busy.contains(hash) {
            self.deferred.push(pick);
            return true;
        }
        busy.enter(hash);
        false
    }

    /// `child`, which [`NodeMoves::defer`] let through, has been searched.
    #[inline]
    pub(super) fn searched<G: Game>(&self, child: &G) {
        if let Some(busy) = self.busy {
            busy.leave(child.hash());
        }
    }
}

#[cfg(test)]
mod tests;
