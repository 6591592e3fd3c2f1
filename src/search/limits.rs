//! When a search must stop: depth, node and time limits and an external stop flag; and the
//! game clock ([`Clock`]) a move's time is budgeted from.
//!
//! Key invariant: a search with only a depth limit is deterministic; the node limit is checked
//! against the same `nodes` count the statistics report, so it is deterministic too; only the
//! time limit and the stop flag depend on the clock or on other threads. Several threads
//! searching together share one [`SharedLimits`]: their node counts are summed there (so the
//! node limit holds for the sum, to within one poll interval per thread) and any thread can
//! stop them all; a one-thread search has none and pays nothing for it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::game::Side;

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
    /// End iterative deepening once an iteration proves the root a win or a loss, even before
    /// the depth limit (analysis: `analyze --depth 30` stops at the proof, even when the mate
    /// lies beyond the iteration's nominal depth). Without a depth limit deepening always ends
    /// there; with one and this unset, the search reaches exactly the depth asked (what the
    /// consistency checks compare with plain minimax).
    pub stop_when_proven: bool,
    /// The game clock this move's [`SearchLimits::time`] was budgeted from, for agents that
    /// pass the clock on rather than search themselves (an external engine is sent it as UGI's
    /// `go p1time p2time p1inc p2inc`). Searchers never read it: whoever sets it also sets
    /// `time` ([`Clock::budget`]).
    pub clock: Option<Clock>,
    /// How many best root moves to report, each with its line (MultiPV): 0 or 1 reports the
    /// best only. Only `pvs` reports more ([`crate::search::Iteration::more_lines`]); they never
    /// change the best move, and cost one more search of the root each.
    pub multipv: usize,
    /// What the search tells a host while an iteration runs (UGI's periodic `info currmove
    /// ... nodes ...`): see [`SearchProgress`].
    pub progress: Option<Arc<SearchProgress>>,
}

/// What a running search has done so far, for a host that reports progress while an
/// iteration runs: the positions made (every thread of the search adds its own at each poll of
/// its limits, every 256 positions, so the count trails by at most that much a thread) and the
/// root move being searched. Searchers that do not poll limits (MCTS) leave it alone.
#[derive(Debug, Default)]
pub struct SearchProgress {
    nodes: AtomicU64,
    /// The root move being searched: its [`crate::Game::move_index`] + 1 in the low 32 bits
    /// and its number in this iteration's order (from 1) in the high ones; 0 before the first.
    root_move: AtomicU64,
}

impl SearchProgress {
    /// Nothing done yet.
    #[must_use]
    pub fn new() -> SearchProgress {
        SearchProgress::default()
    }

    /// The positions made so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The root move being searched, as its [`crate::Game::move_index`] and its number in the
    /// iteration's order (from 1); `None` before the first.
    #[must_use]
    pub fn root_move(&self) -> Option<(usize, u32)> {
        let word = self.root_move.load(Ordering::Relaxed);
        let index = (word & u64::from(u32::MAX)).checked_sub(1)?;
        Some((index as usize, (word >> 32) as u32))
    }

    /// Records that the root move of `index` is being searched, the `number`th of its
    /// iteration.
    pub(crate) fn set_root_move(&self, index: usize, number: u32) {
        let index = (index as u64 + 1).min(u64::from(u32::MAX));
        self.root_move
            .store(u64::from(number) << 32 | index, Ordering::Relaxed);
    }
}

/// A game clock as a side is about to move: each side's remaining time and increment (indexed
/// by [`Side::index`]), as a tournament host keeps it and sends it with each `go`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Clock {
    /// Time left on each side's clock.
    pub remaining: [Duration; 2],
    /// Time added to each side's clock after each of its moves.
    pub increment: [Duration; 2],
}

impl Clock {
    /// Both sides start with `base` and gain `increment` a move (a `base+increment` time
    /// control).
    #[must_use]
    pub fn new(base: Duration, increment: Duration) -> Clock {
        Clock {
            remaining: [base; 2],
            increment: [increment; 2],
        }
    }

    /// The time manager: how long `side` may think about its move. A 25th of its remaining time
    /// plus three quarters of its increment, never more than half of what is left after a
    /// safety margin (a tenth of the remaining time, at most 30 ms) for the process, the pipe
    /// and the host's measurement; at least 1 ms.
    #[must_use]
    pub fn budget(&self, side: Side) -> Duration {
        // In whole milliseconds, the unit clocks are sent in.
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let remaining = ms(self.remaining[side.index()]);
        let increment = ms(self.increment[side.index()]);
        let margin = (remaining / 10).min(30);
        let usable = remaining.saturating_sub(margin);
        let budget = (usable / 25).saturating_add(increment.saturating_mul(3) / 4);
        Duration::from_millis(budget.min(usable / 2).max(1))
    }

    /// Charges `side` for a move that took `used`: its remaining time falls by `used`, then
    /// gains its increment. `false` (and the clock left at zero) when `used` was more than it
    /// had: the side lost on time.
    pub fn charge(&mut self, side: Side, used: Duration) -> bool {
        let left = &mut self.remaining[side.index()];
        match left.checked_sub(used) {
            Some(rest) => {
                *left = rest + self.increment[side.index()];
                true
            }
            None => {
                *left = Duration::ZERO;
                false
            }
        }
    }
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

    /// The same limits, ending deepening at a proven result ([`SearchLimits::stop_when_proven`]).
    #[must_use]
    pub fn until_proven(mut self) -> SearchLimits {
        self.stop_when_proven = true;
        self
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

/// What the threads of one search share: a stop flag any of them can raise, the sum of their
/// node counts (each thread adds its own every poll interval) and the deepest iteration any of
/// them has completed (an iteration no deeper than it is outdated: see
/// [`LimitWatch::begin_iteration`]).
#[derive(Debug, Default)]
pub struct SharedLimits {
    stop: AtomicBool,
    nodes: AtomicU64,
    completed: AtomicU32,
}

impl SharedLimits {
    /// Nothing stopped, no nodes counted.
    #[must_use]
    pub fn new() -> SharedLimits {
        SharedLimits::default()
    }

    /// Stops every thread watching these limits (each sees it at its next poll).
    pub fn raise_stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Has a thread stopped the search?
    #[must_use]
    pub fn is_stop_raised(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The nodes the threads have reported so far (each may hold back up to one poll interval).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Records that a thread completed an iteration `depth` plies deep (publish its result
    /// first: a thread that sees the depth here also sees what was written before).
    pub fn complete(&self, depth: u32) {
        self.completed.fetch_max(depth, Ordering::Release);
    }

    /// The deepest iteration any thread has completed (0 before the first).
    #[must_use]
    pub fn completed(&self) -> u32 {
        self.completed.load(Ordering::Acquire)
    }
}

/// The per-node form of [`SearchLimits`] for hot search loops: the node limit is checked on every
/// call (so it stays exact and deterministic), the clock and the stop flag only every
/// 256 positions. Once it has said "stop" it keeps saying so.
///
/// A watch made with [`LimitWatch::with_shared`] also reports its nodes to the [`SharedLimits`]
/// at each poll, stops when their sum reaches the node limit, and stops when any thread raises
/// the shared flag. It also says "stop" (until the next [`LimitWatch::begin_iteration`]) when
/// another thread has completed an iteration at least as deep as the one it watches.
#[derive(Clone, Debug)]
pub struct LimitWatch {
    node_limit: u64,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    next_poll: u64,
    /// What [`LimitWatch::should_stop`] says: `halted`, or the iteration is outdated.
    stopped: bool,
    /// A limit or a stop flag ended the search (for good).
    halted: bool,
    /// The depth of the iteration being watched (0: none).
    iteration: u32,
    start: Instant,
    shared: Option<Arc<SharedLimits>>,
    /// Nodes already added to `shared`.
    reported: u64,
    /// [`SearchLimits::progress`], and the nodes already added to it.
    progress: Option<Arc<SearchProgress>>,
    progressed: u64,
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
            halted: false,
            iteration: 0,
            start,
            shared: None,
            reported: 0,
            progress: limits.progress.clone(),
            progressed: 0,
        }
    }

    /// Starts watching `limits` now, as one of several threads sharing `shared`.
    #[must_use]
    pub fn with_shared(limits: &SearchLimits, shared: Arc<SharedLimits>) -> LimitWatch {
        LimitWatch {
            shared: Some(shared),
            ..LimitWatch::new(limits)
        }
    }

    /// The same watch started at `start` (so that the threads of one search share one clock).
    #[must_use]
    pub fn started_at(mut self, start: Instant) -> LimitWatch {
        if let Some(deadline) = self.deadline {
            self.deadline = Some(start + deadline.saturating_duration_since(self.start));
        }
        self.start = start;
        self
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
            self.halted = true;
            return true;
        }
        if nodes >= self.next_poll {
            self.next_poll = nodes + POLL_INTERVAL;
            self.halted = self.poll(nodes);
            self.stopped = self.halted || self.is_outdated();
        }
        self.stopped
    }

    /// Starts watching an iteration `depth` plies deep: the watch says "stop" if another thread
    /// sharing its limits completes an iteration that deep or deeper (it checks at each poll).
    /// Clears such an earlier "stop", never one from a limit or a stop flag.
    pub fn begin_iteration(&mut self, depth: u32) {
        self.iteration = depth;
        self.stopped = self.halted;
    }

    /// Has another thread completed an iteration at least as deep as the one being watched?
    #[inline]
    fn is_outdated(&self) -> bool {
        self.iteration > 0
            && self
                .shared
                .as_ref()
                .is_some_and(|shared| shared.completed() >= self.iteration)
    }

    /// Has a limit or a stop flag ended the search (not just the iteration being outdated)?
    #[inline]
    #[must_use]
    pub fn is_halted(&self) -> bool {
        self.halted
    }

    /// Looks at the stop flags, the shared node count and the clock now.
    fn poll(&mut self, nodes: u64) -> bool {
        if let Some(progress) = &self.progress {
            progress
                .nodes
                .fetch_add(nodes.saturating_sub(self.progressed), Ordering::Relaxed);
            self.progressed = nodes;
        }
        if let Some(shared) = &self.shared {
            let added = nodes - self.reported;
            self.reported = nodes;
            let total = shared.nodes.fetch_add(added, Ordering::Relaxed) + added;
            if total >= self.node_limit || shared.is_stop_raised() {
                return true;
            }
        }
        self.stop
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
            || self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
    }

    /// The nodes of every thread sharing this watch's limits, given this thread's `nodes` (other
    /// threads' last poll interval not included); just `nodes` without shared limits.
    #[must_use]
    pub fn total_nodes(&self, nodes: u64) -> u64 {
        match &self.shared {
            Some(shared) => shared.nodes() + (nodes - self.reported),
            None => nodes,
        }
    }

    /// Adds the nodes not yet reported to the shared count (a thread calls it when it ends, so
    /// the sum is complete); nothing without shared limits.
    pub fn flush(&mut self, nodes: u64) {
        if let Some(shared) = &self.shared {
            shared
                .nodes
                .fetch_add(nodes - self.reported, Ordering::Relaxed);
            self.reported = nodes;
        }
    }

    /// Tells the progress of [`SearchLimits::progress`] (if any) that the root move of `index`
    /// is being searched, the `number`th of its iteration.
    #[inline]
    pub fn root_move(&self, index: usize, number: u32) {
        if let Some(progress) = &self.progress {
            progress.set_root_move(index, number);
        }
    }

    /// The time since the watch started.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The time limit from the watch's start (`None` without one).
    #[must_use]
    pub fn time_limit(&self) -> Option<Duration> {
        self.deadline
            .map(|deadline| deadline.saturating_duration_since(self.start))
    }

    /// The time left before the time limit (`None` without one; zero once it has passed).
    #[cfg(test)]
    fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|deadline| deadline.saturating_duration_since(Instant::now()))
    }
}

#[cfg(test)]
mod tests;
