//! Lazy SMP for [`super::Pvs`]: `threads` threads search the same root at once, sharing the one
//! lock-free transposition table and nothing else of the search (each thread has its own
//! killers, history, per-ply stacks and statistics). The helpers' work reaches the main thread
//! only through the table: positions they have already searched cut or order its search.
//!
//! Diversity: the main thread deepens 1, 2, 3…; each helper chooses its next depth when it
//! starts an iteration: one deeper than its last, and at least the main thread's current depth
//! (even helpers) or one more (odd helpers), so that with two threads the helper is usually a
//! ply ahead, filling the table with what the main thread will need next. An iteration that
//! another thread completes first (at that depth or deeper) is outdated: its thread abandons it
//! at its next poll ([`LimitWatch::begin_iteration`]); the main thread then takes over that
//! thread's completed iteration as its own (reporting it to `on_iteration`, so time to depth is
//! the time any thread first completes it) and deepens on from there, a helper picks a deeper
//! depth. At nodes with enough depth left the threads also put off the moves another thread is
//! searching right now ([`super::busy`]), so that they split a node's moves rather than search
//! the same ones side by side.
//!
//! Stopping: all threads watch the same limits and share one [`SharedLimits`] (stop flag and
//! summed node count, so a node limit holds for all threads together). The search ends when
//! the main thread's iterative deepening ends (limit, time prediction or proof), or when a helper
//! completes the last depth (or proves the result without a depth limit); whoever ends it raises
//! the shared flag and the others stop at their next poll.
//!
//! The answer: the main thread decides, from the deepest iteration any thread completed (ties go
//! to the main thread, which may have taken it over; a helper's deeper iteration is also reported
//! to `on_iteration`).
//! Statistics are summed over threads (`seldepth`: the maximum; table fill and
//! `nodes_per_depth`: the main thread's view, whose iterations count every thread's nodes), and
//! `thread_nodes` keeps each thread's nodes.
//!
//! Key invariants: value-exact configurations stay value-exact with any number of threads: every
//! table entry, whichever thread stored it, is a true bound of its position at its depth (an
//! interrupted search stores nothing), so each thread's completed iteration has the exact
//! fixed-depth value; only the node count and, among equally good moves, the move depend on the
//! timing of the threads.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use super::Pvs;
use super::busy::Busy;
use super::root::answer;
use super::thread::{MoveHistory, ThreadSearch};
use crate::eval::{Evaluator, Score};
use crate::game::Game;
use crate::search::iterative::{DepthSearch, deepen, is_proven};
use crate::search::limits::SearchLimits;
use crate::search::limits::{LimitWatch, SharedLimits};
use crate::search::searcher::{Iteration, Pv, RootLine, SearchResult};
use crate::search::stats::SearchStats;

/// A completed iteration of a helper thread.
struct HelperIteration<M> {
    depth: u32,
    score: Score,
    pv: Pv<M>,
}

/// What the threads of one search share besides the table.
struct Shared<M> {
    limits: Arc<SharedLimits>,
    /// The depth the main thread is searching.
    main_depth: AtomicU32,
    /// The deepest iteration a helper completed.
    best: Mutex<Option<HelperIteration<M>>>,
    /// The positions the threads are searching now.
    busy: Busy,
}

impl<M: Copy> Shared<M> {
    /// Keeps a helper's completed iteration if it is deeper than any before.
    fn offer(&self, depth: u32, score: Score, pv: &[M]) {
        let mut best = self
            .best
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if best.as_ref().is_none_or(|b| depth > b.depth) {
            *best = Some(HelperIteration {
                depth,
                score,
                pv: Pv::from_slice(pv),
            });
        }
    }
}

/// The main thread's search as [`deepen`] drives it: tells the helpers the depth it is on,
/// reports the nodes of all threads in its iterations, and takes over a helper's iteration at
/// least as deep as its own when that completes first.
struct MainThread<'r, 'a, G: Game, E> {
    run: ThreadSearch<'a, G, E>,
    shared: &'r Shared<G::Move>,
    /// The depth of the last completed (or taken over) iteration.
    reached: u32,
}

impl<G: Game, E: Evaluator<G>> MainThread<'_, '_, G, E> {
    /// Takes over the deepest helper iteration if it is at least `depth` deep: its principal
    /// variation and score become the main thread's, as if it had searched it.
    fn take_over(&mut self, depth: u32) -> Option<Score> {
        let best = self
            .shared
            .best
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let iteration = best.as_ref().filter(|b| b.depth >= depth)?;
        self.run.aborted = false;
        self.run.iteration.best = None;
        self.run.iteration.best_line.clone_from(&iteration.pv);
        // A helper's iteration has one line (MultiPV lines come from the main thread's own).
        self.run.iteration.more_lines.clear();
        self.reached = iteration.depth;
        Some(iteration.score)
    }
}

impl<G: Game, E: Evaluator<G>> DepthSearch<G::Move> for MainThread<'_, '_, G, E> {
    fn search_depth(&mut self, depth: u32) -> Option<Score> {
        self.shared.main_depth.store(depth, Ordering::Relaxed);
        if self.shared.limits.completed() >= depth {
            return self.take_over(depth);
        }
        match self.run.search_depth(depth) {
            Some(score) => {
                self.reached = depth;
                self.shared.limits.complete(depth);
                Some(score)
            }
            // Outdated: a helper completed this depth (or a deeper one) first.
            None if !self.run.watch.is_halted() => self.take_over(depth),
            None => None,
        }
    }

    fn completed_depth(&self, _depth: u32) -> u32 {
        self.reached
    }

    fn pv(&self) -> &[G::Move] {
        self.run.pv()
    }

    fn more_lines(&self) -> Vec<RootLine<G::Move>> {
        self.run.more_lines()
    }

    fn stats(&self) -> SearchStats {
        let mut stats = self.run.stats();
        stats.nodes = self.run.watch.total_nodes(stats.nodes);
        stats
    }

    fn watch(&self) -> &LimitWatch {
        self.run.watch()
    }
}

/// A helper thread's deepening (see the module docs); returns its statistics.
fn helper<G: Game, E: Evaluator<G>>(
    index: usize,
    mut run: ThreadSearch<'_, G, E>,
    shared: &Shared<G::Move>,
    (first, last): (u32, u32),
    stop_when_proven: bool,
) -> SearchStats {
    let ahead = (index % 2) as u32;
    let mut done = 0;
    while done < last && shared.limits.completed() < last {
        let main_depth = shared.main_depth.load(Ordering::Relaxed);
        let depth = (done + 1)
            .max(shared.limits.completed() + 1)
            .max(first)
            .max(main_depth + ahead)
            .min(last);
        let Some(score) = run.search_depth(depth) else {
            if run.watch.is_halted() {
                break;
            }
            // Outdated: another thread completed this depth first; go deeper.
            continue;
        };
        done = depth;
        shared.offer(depth, score, run.pv());
        shared.limits.complete(depth);
        let proven = is_proven(score);
        // A proof ends the search only when this iteration is deeper than the main thread's
        // last completed one (so that it is the answer).
        let deeper = depth >= shared.main_depth.load(Ordering::Relaxed);
        if depth == last || (stop_when_proven && proven && deeper) {
            shared.limits.raise_stop();
            break;
        }
    }
    let nodes = run.stats.nodes;
    run.watch.flush(nodes);
    run.stats()
}

/// Adds the counters of `other` (a helper's) to `total` (see the module docs for what is not
/// summed).
fn add_stats(total: &mut SearchStats, other: &SearchStats) {
    total.nodes += other.nodes;
    total.qnodes += other.qnodes;
    total.leaves += other.leaves;
    total.tt_probes += other.tt_probes;
    total.tt_hits += other.tt_hits;
    total.tt_cutoffs += other.tt_cutoffs;
    total.cutoffs += other.cutoffs;
    total.first_move_cutoffs += other.first_move_cutoffs;
    total.best_move_nodes += other.best_move_nodes;
    total.best_move_first += other.best_move_first;
    total.reductions += other.reductions;
    total.endgame_hits += other.endgame_hits;
    total.seldepth = total.seldepth.max(other.seldepth);
    for (sum, part) in [
        (&mut total.tt_probes_by_depth, &other.tt_probes_by_depth),
        (&mut total.tt_hits_by_depth, &other.tt_hits_by_depth),
    ] {
        if sum.len() < part.len() {
            sum.resize(part.len(), 0);
        }
        for (s, p) in sum.iter_mut().zip(part) {
            *s += p;
        }
    }
}

impl<G: Game, E: Evaluator<G>> Pvs<G, E> {
    /// The search with [`crate::search::PvsConfig::threads`] > 1 threads (see the module docs);
    /// the main thread's tables are prepared, `watch` started.
    pub(super) fn search_threads(
        &mut self,
        (state, history): (&G, &[u64]),
        limits: &SearchLimits,
        watch: LimitWatch,
        (first, last): (u32, u32),
        on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        // A proven win or loss seen in full ends deepening; before a depth limit only if asked.
        let stop_when_proven = limits.depth.is_none() || limits.stop_when_proven;
        let helpers = self.config.threads - 1;
        let bound = state.move_index_bound();
        while self.helpers.len() < helpers {
            self.helpers.push(MoveHistory::new());
        }
        for ordering in &mut self.helpers[..helpers] {
            ordering.prepare(bound);
        }
        let shared = Shared {
            limits: Arc::new(SharedLimits::new()),
            main_depth: AtomicU32::new(0),
            best: Mutex::new(None),
            busy: Busy::new(),
        };
        let start = watch.start();
        let Pvs {
            evaluator,
            config,
            tt,
            ordering,
            helpers: helper_ordering,
            endgame,
        } = self;
        let (evaluator, config, tt) = (&*evaluator, *config, tt.as_deref());
        let endgame = endgame.as_deref();
        let (completed, partial, mut stats, unkept) = std::thread::scope(|scope| {
            let shared = &shared;
            let handles: Vec<_> = helper_ordering[..helpers]
                .iter_mut()
                .enumerate()
                .map(|(i, ordering)| {
                    let watch = LimitWatch::with_shared(limits, Arc::clone(&shared.limits))
                        .started_at(start);
                    scope.spawn(move || {
                        let mut run =
                            ThreadSearch::new(state, evaluator, config, tt, ordering, watch, last);
                        run.track_repetitions(history);
                        run.use_endgame(endgame);
                        run.busy = Some(&shared.busy);
                        helper(i + 1, run, shared, (first, last), stop_when_proven)
                    })
                })
                .collect();
            let watch =
                LimitWatch::with_shared(limits, Arc::clone(&shared.limits)).started_at(start);
            let mut main = MainThread {
                run: ThreadSearch::new(state, evaluator, config, tt, ordering, watch, last),
                shared,
                reached: 0,
            };
            main.run.track_repetitions(history);
            main.run.use_endgame(endgame);
            main.run.busy = Some(&shared.busy);
            main.run.iteration.multipv = limits.multipv;
            let completed = deepen(&mut main, first, last, stop_when_proven, on_iteration);
            shared.limits.raise_stop();
            let nodes = main.run.stats.nodes;
            main.run.watch.flush(nodes);
            let mut stats = main.run.stats();
            stats.thread_nodes.push(stats.nodes);
            for handle in handles {
                match handle.join() {
                    Ok(helper_stats) => {
                        stats.thread_nodes.push(helper_stats.nodes);
                        add_stats(&mut stats, &helper_stats);
                    }
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            let partial = main.run.iteration.best.filter(|_| main.run.aborted);
            let unkept = std::mem::take(&mut main.run.iteration.unkept);
            (completed, partial, stats, unkept)
        });
        stats.elapsed = start.elapsed();
        let helper_best = shared
            .best
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match helper_best {
            Some(best)
                if completed
                    .as_ref()
                    .is_none_or(|main| best.depth > main.depth) =>
            {
                // A helper got deeper: its iteration is the answer (and the last one reported).
                let mut nodes_per_depth = completed.map(|c| c.stats.nodes_per_depth);
                stats.nodes_per_depth = nodes_per_depth.take().unwrap_or_default();
                let iteration = Iteration {
                    depth: best.depth,
                    seldepth: stats.seldepth,
                    score: best.score,
                    pv: best.pv,
                    more_lines: Vec::new(),
                    stats,
                };
                on_iteration(&iteration);
                SearchResult {
                    best_move: iteration.pv.first().copied(),
                    score: iteration.score,
                    depth: iteration.depth,
                    pv: iteration.pv,
                    stats: iteration.stats,
                }
            }
            _ => answer(state, &self.evaluator, completed, partial, &unkept, stats),
        }
    }
}
