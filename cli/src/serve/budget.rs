//! The server's memory budget for search tables (`serve --max-memory`): every search reserves
//! the megabytes its searcher's tables take (a PVS transposition table, MCTS trees) before the
//! searcher is built, and gives them back when it ends, so all the games' searches together
//! never take more than the budget, however many tabs (or scripts) start them.
//!
//! Key invariant: the megabytes in use are the sum of the live [`Reservation`]s and never
//! exceed the limit; a reservation is given back exactly once, when it is dropped (after its
//! searcher, whose thread owns both).

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use plies::spec::SearcherSpec;

/// The default budget, in MB: a fixed share that any machine running a browser has to spare
/// (64 searches with the default 16 MB table, or one of 1 GB).
pub(crate) const DEFAULT_MAX_MEMORY_MB: usize = 1024;

/// Megabytes an MCTS tree is counted for: its node budget
/// ([`plies::mcts::MctsConfig::max_nodes`], a million) at up to 64 bytes a node.
pub(super) const MCTS_TREE_MB: usize = 64;

/// The megabytes the tables of `spec`'s searcher take: its transposition table (shared by its
/// threads) for PVS, a tree per thread for MCTS (each thread grows its own), none for the
/// others. The rest of a search (its stacks, move lists) is small and not counted.
pub(super) fn searcher_mb(spec: &SearcherSpec) -> usize {
    match spec {
        SearcherSpec::Pvs(config) => config.tt_mb,
        SearcherSpec::Mcts { threads, .. } => threads.saturating_mul(MCTS_TREE_MB),
        SearcherSpec::Minimax { .. } | SearcherSpec::AlphaBeta => 0,
    }
}

/// Why a search cannot have its tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum OverBudget {
    /// The searcher alone needs more than the whole budget.
    TooLarge {
        /// What it needs, in MB.
        needed: usize,
        /// The budget, in MB.
        limit: usize,
    },
    /// The searches running now leave too little.
    Busy {
        /// What it needs, in MB.
        needed: usize,
        /// What the running searches hold, in MB.
        used: usize,
        /// The budget, in MB.
        limit: usize,
    },
}

impl fmt::Display for OverBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            OverBudget::TooLarge { needed, limit } => write!(
                f,
                "the searcher's tables need {needed} MB, more than this server's whole \
                 memory budget (--max-memory {limit} MB); ask for a smaller table (tt=)"
            ),
            OverBudget::Busy {
                needed,
                used,
                limit,
            } => write!(
                f,
                "the searcher's tables need {needed} MB but running searches hold {used} MB \
                 of this server's memory budget (--max-memory {limit} MB); try again when \
                 one ends"
            ),
        }
    }
}

/// The budget and what is in use.
#[derive(Debug)]
pub(super) struct MemoryBudget {
    limit_mb: usize,
    used_mb: Mutex<usize>,
}

impl MemoryBudget {
    /// A budget of `limit_mb` megabytes, none in use.
    pub fn new(limit_mb: usize) -> Arc<MemoryBudget> {
        Arc::new(MemoryBudget {
            limit_mb,
            used_mb: Mutex::new(0),
        })
    }

    /// The budget, in MB.
    pub fn limit_mb(&self) -> usize {
        self.limit_mb
    }

    /// The megabytes the live reservations hold.
    pub fn used_mb(&self) -> usize {
        *self.used_mb.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Reserves `mb` megabytes until the reservation is dropped.
    ///
    /// # Errors
    /// `mb` is over the whole budget, or over what the live reservations leave of it.
    pub fn reserve(self: &Arc<MemoryBudget>, mb: usize) -> Result<Reservation, OverBudget> {
        if mb > self.limit_mb {
            return Err(OverBudget::TooLarge {
                needed: mb,
                limit: self.limit_mb,
            });
        }
        let mut used = self.used_mb.lock().unwrap_or_else(PoisonError::into_inner);
        if *used + mb > self.limit_mb {
            return Err(OverBudget::Busy {
                needed: mb,
                used: *used,
                limit: self.limit_mb,
            });
        }
        *used += mb;
        Ok(Reservation {
            budget: Arc::clone(self),
            mb,
        })
    }
}

/// Megabytes of a [`MemoryBudget`] held by one search; given back when dropped.
#[derive(Debug)]
pub(super) struct Reservation {
    budget: Arc<MemoryBudget>,
    mb: usize,
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut used = self
            .budget
            .used_mb
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *used -= self.mb;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reservations_add_up_to_the_limit_and_are_given_back() {
        let budget = MemoryBudget::new(100);
        let a = budget.reserve(60).unwrap();
        let b = budget.reserve(40).unwrap();
        assert_eq!(budget.used_mb(), 100);
        let busy = budget.reserve(1).unwrap_err();
        assert_eq!(
            busy,
            OverBudget::Busy {
                needed: 1,
                used: 100,
                limit: 100
            }
        );
        assert!(busy.to_string().contains("--max-memory 100 MB"), "{busy}");
        // Nothing is needed: always fits.
        let none = budget.reserve(0).unwrap();
        drop(a);
        assert_eq!(budget.used_mb(), 40);
        let c = budget.reserve(60).unwrap();
        drop((b, c, none));
        assert_eq!(budget.used_mb(), 0);
        let large = budget.reserve(101).unwrap_err();
        assert!(matches!(
            large,
            OverBudget::TooLarge {
                needed: 101,
                limit: 100
            }
        ));
        assert!(large.to_string().contains("--max-memory 100 MB"), "{large}");
        assert!(!large.to_string().contains('\n'));
    }

    #[test]
    fn a_searcher_counts_its_tables() {
        let spec = |text: &str| text.parse::<SearcherSpec>().unwrap();
        assert_eq!(searcher_mb(&spec("pvs")), 16);
        assert_eq!(searcher_mb(&spec("pvs:tt=65536")), 65_536);
        assert_eq!(searcher_mb(&spec("pvs:tt=64,threads=4")), 64);
        assert_eq!(searcher_mb(&spec("pvs:tt=0")), 0);
        assert_eq!(searcher_mb(&spec("mcts")), MCTS_TREE_MB);
        assert_eq!(searcher_mb(&spec("mcts:threads=4")), 4 * MCTS_TREE_MB);
        assert_eq!(searcher_mb(&spec("alphabeta")), 0);
    }
}
