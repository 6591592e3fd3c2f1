//! Pondering: searching on the opponent's time. After our move, a [`Ponderer`] searches the
//! position after the reply it expects (the principal variation's next moves) in a background
//! thread, with no limit. When the opponent's move comes:
//! - **ponder hit** (the position is the one being searched): the running search goes on, now
//!   within the real budget counted from that moment, and keeps every iteration it completed;
//! - **ponder miss**: the background search is stopped and a fresh search runs within the budget;
//!   what the searcher learnt meanwhile (its transposition table) stays.
//!
//! Works with any [`Searcher`]: the background search is an ordinary search with a stop flag and
//! no other limit. After a hit the budget is enforced from outside: a time budget by raising the
//! stop flag at the deadline (the searcher then answers with its last completed iteration), a
//! depth budget from the iteration callback (the search stops once an iteration of that depth
//! is complete, at once if one already is). A node budget is a fixed amount of work that a search
//! already under way cannot honour, so with one the hit is treated as a miss.
//!
//! Key invariants: the searcher is owned by exactly one thread at a time (moved into the
//! background thread and back through a channel); a hit is recognised by the position's Zobrist
//! hash and side to move; every way out of pondering (hit, miss, [`Ponderer::stop`], drop) waits
//! for the background thread, so no search outlives its ponderer.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::game::{Game, GameHistory};
use crate::search::limits::SearchLimits;
use crate::search::searcher::{SearchResult, Searcher};

/// How often a hit's wait looks at the caller's stop flag.
const STOP_POLL: Duration = Duration::from_millis(2);

/// What became of the pondering when the last search was asked for.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum PonderOutcome {
    /// Nothing was being pondered: an ordinary search.
    Idle,
    /// The position was the one pondered: the pondering search went on.
    Hit,
    /// Another position (or a node budget): the pondering was stopped and a fresh search ran.
    Miss,
}

/// The background search's progress, shared with it through its iteration callback.
#[derive(Debug)]
struct Progress {
    /// The depth of the last completed iteration.
    depth: AtomicU32,
    /// Stop once an iteration this deep is complete (`u32::MAX`: no such target).
    target: AtomicU32,
    stop: Arc<AtomicBool>,
}

impl Progress {
    /// Called by the background search after each completed iteration.
    fn completed(&self, depth: u32) {
        self.depth.store(depth, Ordering::SeqCst);
        if depth >= self.target.load(Ordering::SeqCst) {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Called on a hit with a depth budget (the two orders of store and load make sure one side
    /// sees the other).
    fn set_target(&self, depth: u32) {
        self.target.store(depth, Ordering::SeqCst);
        if self.depth.load(Ordering::SeqCst) >= depth {
            self.stop.store(true, Ordering::SeqCst);
        }
    }
}

/// What the background thread sends back: the searcher and its answer.
type Finished<G> = (Box<dyn Searcher<G>>, SearchResult<<G as Game>::Move>);

/// A background search in progress.
struct Pondering<G: Game> {
    position: G,
    progress: Arc<Progress>,
    receiver: Receiver<Finished<G>>,
    handle: JoinHandle<()>,
}

impl<G: Game> Pondering<G> {
    /// Waits for the background search to end, raising its stop flag at `deadline` or when
    /// `external` is raised.
    fn finish(self, deadline: Option<Instant>, external: Option<&AtomicBool>) -> Finished<G> {
        let stop = &self.progress.stop;
        loop {
            let stopped = stop.load(Ordering::SeqCst);
            let timeout = match (stopped, deadline) {
                (true, _) | (false, None) => Duration::MAX,
                (false, Some(deadline)) => deadline.saturating_duration_since(Instant::now()),
            };
            let timeout = match external {
                Some(_) if !stopped => timeout.min(STOP_POLL),
                _ => timeout,
            };
            match self.receiver.recv_timeout(timeout) {
                Ok(finished) => {
                    if let Err(panic) = self.handle.join() {
                        std::panic::resume_unwind(panic);
                    }
                    return finished;
                }
                Err(RecvTimeoutError::Timeout) => {
                    let late = deadline.is_some_and(|deadline| Instant::now() >= deadline);
                    let raised = external.is_some_and(|flag| flag.load(Ordering::Relaxed));
                    if late || raised {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // The thread ended without sending: it panicked.
                    match self.handle.join() {
                        Err(panic) => std::panic::resume_unwind(panic),
                        Ok(()) => unreachable!("the ponder thread always sends before ending"),
                    }
                }
            }
        }
    }

    /// Stops the background search and waits for it.
    fn stop(self) -> Finished<G> {
        self.progress.stop.store(true, Ordering::SeqCst);
        self.finish(None, None)
    }
}

/// A searcher that can think on the opponent's time (see the module docs).
pub struct Ponderer<G: Game> {
    /// The searcher, when no background search holds it.
    searcher: Option<Box<dyn Searcher<G>>>,
    pondering: Option<Pondering<G>>,
    last: PonderOutcome,
    /// The game history up to the position of the last search, so that a pondering search
    /// knows it too.
    history: GameHistory,
}

impl<G: Game> Ponderer<G> {
    /// A ponderer around `searcher`, not pondering.
    #[must_use]
    pub fn new(searcher: Box<dyn Searcher<G>>) -> Ponderer<G> {
        Ponderer {
            searcher: Some(searcher),
            pondering: None,
            last: PonderOutcome::Idle,
            history: GameHistory::default(),
        }
    }

    /// The searcher, after stopping any pondering (to configure it, or search without
    /// pondering).
    pub fn searcher(&mut self) -> &mut dyn Searcher<G> {
        self.stop();
        self.searcher
            .as_deref_mut()
            .expect("the searcher is home when not pondering")
    }

    /// Is a background search running (or finished and waiting to be used)?
    #[must_use]
    pub fn is_pondering(&self) -> bool {
        self.pondering.is_some()
    }

    /// The position being pondered.
    #[must_use]
    pub fn pondered_position(&self) -> Option<&G> {
        self.pondering.as_ref().map(|p| &p.position)
    }

    /// The depth of the last iteration the background search completed (0 before the first;
    /// `None` when not pondering).
    #[must_use]
    pub fn pondered_depth(&self) -> Option<u32> {
        self.pondering
            .as_ref()
            .map(|p| p.progress.depth.load(Ordering::SeqCst))
    }

    /// What became of the pondering at the last [`Ponderer::search_in`].
    #[must_use]
    pub fn last_outcome(&self) -> PonderOutcome {
        self.last
    }

    /// [`Ponderer::search_in`] of `state` without a known past.
    pub fn search(&mut self, state: &G, limits: &SearchLimits) -> SearchResult<G::Move> {
        self.search_in(state, &GameHistory::default(), limits)
    }

    /// Searches `state` in the game `history` (see [`Searcher::search_with`]) within `limits`:
    /// continues the pondering search on a hit, otherwise stops it and searches afresh (see the
    /// module docs). The answer of a hit carries the whole background search's statistics (its
    /// time included).
    pub fn search_in(
        &mut self,
        state: &G,
        history: &GameHistory,
        limits: &SearchLimits,
    ) -> SearchResult<G::Move> {
        self.history = history.up_to(state);
        let Some(pondering) = self.pondering.take() else {
            self.last = PonderOutcome::Idle;
            return self.searcher().search_in(state, history, limits);
        };
        let hit = pondering.position.hash() == state.hash()
            && pondering.position.side_to_move() == state.side_to_move()
            && limits.nodes.is_none();
        if !hit {
            let (searcher, _) = pondering.stop();
            self.searcher = Some(searcher);
            self.last = PonderOutcome::Miss;
            return self.searcher().search_in(state, history, limits);
        }
        self.last = PonderOutcome::Hit;
        let deadline = limits.time.map(|time| Instant::now() + time);
        if let Some(depth) = limits.depth {
            pondering.progress.set_target(depth);
        }
        let (searcher, result) = pondering.finish(deadline, limits.stop.as_deref());
        self.searcher = Some(searcher);
        match limits.depth {
            // The background search ended on its own (a searcher without iterative deepening,
            // or a proof) before the depth asked for, and not because it was stopped: search on.
            Some(depth) if result.depth < depth && !result.score.is_decisive() => {
                self.searcher().search_in(state, history, limits)
            }
            _ => result,
        }
    }

    /// After our move `line[0]` from `root`, ponders the position where we move next as `line`
    /// (a principal variation) predicts it: the opponent's replies follow `line[0]` while it is
    /// their turn. Returns whether pondering started: not when the game ends on the way, when we
    /// move again at once (an extra turn), or when `line` stops before our next turn or holds an
    /// illegal move.
    pub fn ponder(&mut self, root: &G, line: &[G::Move]) -> bool {
        self.stop();
        let us = root.side_to_move();
        let mut state = root.clone();
        let mut moves = Vec::new();
        // The pondered position's history: the last search's up to `root`, then the line.
        let mut history = self.history.up_to(root);
        for (i, &mv) in line.iter().enumerate() {
            if i > 0 && state.side_to_move() == us {
                break;
            }
            if i > 0 {
                history.push(&state);
            }
            moves.clear();
            state.generate_moves(&mut moves);
            if !moves.contains(&mv) {
                return false;
            }
            state = state.play(mv);
            if state.outcome().is_some() || (i == 0 && state.side_to_move() == us) {
                return false;
            }
        }
        if line.len() < 2 || state.side_to_move() != us {
            return false;
        }
        history.push(&state);
        self.ponder_from(state, history);
        true
    }

    /// Starts searching `position` in the background with no limit (any earlier pondering is
    /// stopped first), knowing no game history.
    pub fn ponder_position(&mut self, position: G) {
        let history = GameHistory::new(&position);
        self.ponder_from(position, history);
    }

    /// [`Ponderer::ponder_position`] in the game `history` (which ends with `position`).
    fn ponder_from(&mut self, position: G, history: GameHistory) {
        self.stop();
        let mut searcher = self
            .searcher
            .take()
            .expect("the searcher is home when not pondering");
        let stop = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Progress {
            depth: AtomicU32::new(0),
            target: AtomicU32::new(u32::MAX),
            stop: Arc::clone(&stop),
        });
        let (sender, receiver) = mpsc::channel();
        let handle = {
            let position = position.clone();
            let progress = Arc::clone(&progress);
            std::thread::spawn(move || {
                let limits = SearchLimits::default().with_stop(stop);
                let result = searcher.search_with(&position, &history, &limits, &mut |iteration| {
                    progress.completed(iteration.depth);
                });
                // The receiver is gone only if the ponderer is being dropped mid-panic.
                let _ = sender.send((searcher, result));
            })
        };
        self.pondering = Some(Pondering {
            position,
            progress,
            receiver,
            handle,
        });
    }

    /// Stops any pondering and waits for the background search to end (its answer is dropped;
    /// what the searcher learnt stays).
    pub fn stop(&mut self) {
        if let Some(pondering) = self.pondering.take() {
            let (searcher, _) = pondering.stop();
            self.searcher = Some(searcher);
        }
    }

    /// Stops any pondering and clears the searcher ([`Searcher::clear`]).
    pub fn clear(&mut self) {
        self.searcher().clear();
    }
}

impl<G: Game> Drop for Ponderer<G> {
    fn drop(&mut self) {
        if let Some(pondering) = self.pondering.take() {
            pondering.progress.stop.store(true, Ordering::SeqCst);
            // Do not wait (or panic again) while unwinding; the thread ends at its next poll.
            if !std::thread::panicking() {
                let _ = pondering.finish(None, None);
            }
        }
    }
}

#[cfg(test)]
mod tests;
