//! [`SharedTable`]: a transposition table that can be resized while searches are using it.
//!
//! A search does not hold the table itself but a *snapshot*: a counted reference to the table
//! current when its iteration began ([`SharedTable::snapshot`]; every thread of a search takes
//! its own at each iteration). [`SharedTable::resize`] builds the new table from the current one,
//! keeping its entries as [`TranspositionTable::resize`] does (all of them when growing, what
//! fits when shrinking), and makes it current; each search moves to it at its next iteration,
//! and the old table is freed when the last snapshot of it goes.
//!
//! Key invariants: a resize copies without holding the lock snapshots take (it holds it only to
//! swap the reference), so a search starting an iteration never waits for a copy; resizes,
//! [`SharedTable::new_search`] and [`SharedTable::clear`] are serialised with one another, so a
//! new generation or a clearing is never lost to a copy made at the same time. What a search
//! stores into its old snapshot after the copy (until its iteration ends) is not carried over,
//! which never makes an entry wrong, only absent.

use std::sync::{Arc, Mutex, RwLock};

use super::TranspositionTable;

/// A transposition table behind a swappable reference, resizable through `&self` (see the
/// module docs).
#[derive(Debug)]
pub struct SharedTable {
    current: RwLock<Arc<TranspositionTable>>,
    /// Held by resizes, new searches and clearings (never by searches).
    changing: Mutex<()>,
}

impl SharedTable {
    /// A table of at most `megabytes` MB (as [`TranspositionTable::new`]).
    #[must_use]
    pub fn new(megabytes: usize) -> SharedTable {
        SharedTable::from_table(TranspositionTable::new(megabytes))
    }

    /// Shares `table`.
    #[must_use]
    pub fn from_table(table: TranspositionTable) -> SharedTable {
        SharedTable {
            current: RwLock::new(Arc::new(table)),
            changing: Mutex::new(()),
        }
    }

    /// The current table (a search takes one at each iteration and uses it until the next).
    #[must_use]
    pub fn snapshot(&self) -> Arc<TranspositionTable> {
        // A panic elsewhere cannot leave the reference half-written: it is swapped in one step.
        let current = self.current.read().unwrap_or_else(|e| e.into_inner());
        Arc::clone(&current)
    }

    /// Makes the table at most `megabytes` MB large (at least one cluster), keeping its entries
    /// (what fits, when it shrinks); searches using it move to the new table at their next
    /// iteration. The size unchanged, nothing happens.
    pub fn resize(&self, megabytes: usize) {
        let _changing = self.changing.lock().unwrap_or_else(|e| e.into_inner());
        let table = self.snapshot();
        if table.has_size(megabytes) {
            return;
        }
        let resized = Arc::new(table.resized(megabytes));
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = resized;
    }

    /// Starts a new search ([`TranspositionTable::new_search`] on the current table).
    pub fn new_search(&self) {
        let _changing = self.changing.lock().unwrap_or_else(|e| e.into_inner());
        self.snapshot().new_search();
    }

    /// Empties the table: a fresh, empty table of the same size becomes current (its memory is
    /// mapped lazily, which is far cheaper than writing zeros over every slot of the old one);
    /// searches move to it at their next iteration, like after a resize.
    pub fn clear(&self) {
        let _changing = self.changing.lock().unwrap_or_else(|e| e.into_inner());
        let buckets = self.snapshot().bucket_count();
        let fresh = Arc::new(TranspositionTable::with_buckets(buckets));
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = fresh;
    }

    /// The size in bytes of the current table.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.snapshot().bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Score;
    use crate::search::tt::Bound;

    fn hash(n: u64) -> u64 {
        n.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (n << 40)
    }

    #[test]
    fn resizing_keeps_entries_and_old_snapshots_stay_usable() {
        let shared = SharedTable::new(1);
        let before = shared.snapshot();
        for n in 0..1000 {
            before.store(hash(n), 0, 3, Bound::Exact, Score::cp(n as i32), None);
        }
        shared.resize(4);
        let after = shared.snapshot();
        assert_eq!(after.bytes(), 4 << 20);
        assert_eq!(shared.bytes(), 4 << 20);
        assert!(!Arc::ptr_eq(&before, &after));
        for n in 0..1000 {
            let entry = after.probe(hash(n), 3, false).expect("kept");
            assert_eq!(entry.score(0), Score::cp(n as i32));
        }
        // The old snapshot still answers (a search finishing its iteration on it).
        assert!(before.probe(hash(7), 3, false).is_some());
        // Shrinking keeps what fits: the depth-preferred slots of 1,000 entries in 1 MB.
        shared.resize(1);
        let small = shared.snapshot();
        assert_eq!(small.bytes(), 1 << 20);
        let kept = (0..1000)
            .filter(|&n| small.probe(hash(n), 3, false).is_some())
            .count();
        assert!(kept > 990, "{kept}");
    }

    #[test]
    fn clearing_empties_the_table_and_keeps_its_size() {
        let shared = SharedTable::new(2);
        let table = shared.snapshot();
        table.new_search();
        for n in 0..100 {
            table.store(hash(n), 0, 3, Bound::Exact, Score::cp(1), None);
        }
        shared.clear();
        let cleared = shared.snapshot();
        assert_eq!(cleared.bytes(), 2 << 20);
        assert_eq!(cleared.generation(), 0);
        assert!((0..100).all(|n| cleared.probe(hash(n), 3, false).is_none()));
    }

    #[test]
    fn same_size_resize_keeps_the_table() {
        let shared = SharedTable::new(2);
        let before = shared.snapshot();
        shared.resize(2);
        assert!(Arc::ptr_eq(&before, &shared.snapshot()));
    }

    #[test]
    fn resizing_from_another_thread_while_one_stores() {
        let shared = Arc::new(SharedTable::new(1));
        let writer = {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || {
                for round in 0..50u64 {
                    let table = shared.snapshot();
                    for n in 0..200 {
                        table.store(hash(round * 200 + n), 0, 2, Bound::Lower, Score::DRAW, None);
                    }
                }
            })
        };
        for megabytes in [2, 1, 4, 2] {
            shared.resize(megabytes);
        }
        writer.join().expect("writer");
        assert_eq!(shared.bytes(), 2 << 20);
        // Whatever the timing, every entry found is one the writer stored, whole.
        let table = shared.snapshot();
        let mut found = 0;
        for n in 0..50 * 200 {
            if let Some(entry) = table.probe(hash(n), 2, false) {
                assert_eq!((entry.depth, entry.bound), (2, Bound::Lower));
                assert_eq!(entry.score(0), Score::DRAW);
                found += 1;
            }
        }
        assert!(found > 0);
    }
}
