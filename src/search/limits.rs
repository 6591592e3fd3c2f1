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

/// How many positions a [`LimitWatch`] lets pass between two looks at the clock and the stop flag.
const POLL_INTERVAL: u64 = 256;

/// The per-node form of [`SearchLimits`] for hot search loops: the node limit is checked on every
/// call (so it stays exact and deterministic), the clock and the stop flag only every
/// 256 positions. Once it has said "stop" it keeps saying so.
#[derive(Clone, Debug)]
pub struct LimitWatch {
    node_limit: u64,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    next_poll: u64,
    stopped: bool,
    start: Instant,
}

impl LimitWatch {
    /// Starts watching `limits` now.
    #[must_use]
    pub fn new(limits: &SearchLimits) -> LimitWatch {
        let start = Instant::now();
        LimitWatch {
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time.map(|time| start + time),
            stop: limits.stop.clone(),
            next_poll: 0,
            stopped: false,
            start,
        }
    }

    /// When the watch started.
    #[must_use]
    pub fn start(&self) -> Instant {
        self.start
    }

    /// Must the search stop before making another position, having made `nodes` so far?
    #[inline]
    pub fn should_stop(&mut self, nodes: u64) -> bool {
        if self.stopped {
            return true;
        }
        if nodes >= self.node_limit {
            self.stopped = true;
            return true;
        }
        if nodes >= self.next_poll {
            self.next_poll = nodes + POLL_INTERVAL;
            self.stopped = self.poll();
        }
        self.stopped
    }

    /// Looks at the stop flag and the clock now.
    fn poll(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
            || self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
    }

    /// Has the watch said "stop"?
    #[inline]
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// The time since the watch started.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The time left before the time limit (`None` without one; zero once it has passed).
    #[must_use]
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|deadline| deadline.saturating_duration_since(Instant::now()))
    }

    /// Is less than `share` of the time limit left (false without a time limit)? Iterative
    /// deepening uses it not to start an iteration it cannot finish.
    #[must_use]
    pub fn is_time_nearly_up(&self, share: f64) -> bool {
        self.deadline.is_some_and(|deadline| {
            let total = deadline.saturating_duration_since(self.start);
            let left = deadline.saturating_duration_since(Instant::now());
            left.as_secs_f64() < total.as_secs_f64() * share
        })
    }
}
