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

use super::{TableAllocError, TranspositionTable};

/// A transposition table behind a swappable reference, resizable through `&self` (see the
/// module docs).
#[derive(Debug)]
pub struct SharedTable {
    current: RwLock<Arc<TranspositionTable>>,
    /// Held by resizes, new searches and clearings (never by searches).
    changing: Mutex<()>,
}

impl SharedTable {
    /// A table of at most `megabytes` MB (see the module docs for its layout).
    #[must_use]
    pub fn new(megabytes: usize) -> SharedTable {
        SharedTable::from_table(TranspositionTable::new(megabytes))
    }

    /// [`SharedTable::new`], or the error of an allocation the system refuses.
    ///
    /// # Errors
    /// The allocator refuses the table's memory.
    pub fn try_new(megabytes: usize) -> Result<SharedTable, TableAllocError> {
        TranspositionTable::try_new(megabytes).map(SharedTable::from_table)
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

    /// Starts a new search: a new generation of entries on the current table, so that the
    /// previous searches' entries are replaced first.
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
mod tests;
