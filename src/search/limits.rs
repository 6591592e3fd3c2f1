//! When a search must stop: depth, node and time limits and an external stop flag.
//!
//! Key invariant: a search with only a depth limit is deterministic; the node limit is checked
//! against the same `nodes` count the statistics report, so it is deterministic too; only the
//! time limit and the stop flag depend on the clock or on other threads.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The limits of one search. A limit left `None` does not apply; with no limit at all a search
/// runs until its stop flag is raised (or, for searchers without iterative deepening, uses
/// [`SearchLimits::DEFAULT_DEPTH`]).
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// The deepest iteration, in plies.
    pub depth: Option<u32>,
    /// The most positions to make (see [`crate::search::SearchStats::nodes`]).
    pub nodes: Option<u64>,
    /// Wall-clock time for the whole search.
    pub time: Option<Duration>,
    /// Raised by another thread to stop the search as soon as possible.
    pub stop: Option<Arc<AtomicBool>>,
}

impl SearchLimits {
    /// The depth used by fixed-depth searchers when no depth is given.
    pub const DEFAULT_DEPTH: u32 = 4;

    /// Search to exactly `depth` plies.
    #[must_use]
    pub fn depth(depth: u32) -> SearchLimits {
        SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        }
    }

    /// Search until `nodes` positions have been made.
    #[must_use]
    pub fn nodes(nodes: u64) -> SearchLimits {
        SearchLimits {
            nodes: Some(nodes),
            ..SearchLimits::default()
        }
    }

    /// Search for at most `time`.
    #[must_use]
    pub fn time(time: Duration) -> SearchLimits {
        SearchLimits {
            time: Some(time),
            ..SearchLimits::default()
        }
    }

    /// The same limits, also stopped by `flag`.
    #[must_use]
    pub fn with_stop(mut self, flag: Arc<AtomicBool>) -> SearchLimits {
        self.stop = Some(flag);
        self
    }

    /// Has the stop flag been raised?
    #[inline]
    #[must_use]
    pub fn is_stop_raised(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Must a search that started at `start` and has made `nodes` positions stop now?
    /// Checks nodes first (cheap), then the flag, then the clock.
    #[inline]
    #[must_use]
    pub fn is_exceeded(&self, start: Instant, nodes: u64) -> bool {
        if self.nodes.is_some_and(|limit| nodes >= limit) {
            return true;
        }
        if self.is_stop_raised() {
            return true;
        }
        self.time.is_some_and(|limit| start.elapsed() >= limit)
    }
}
