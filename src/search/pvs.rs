//! Principal variation search: fail-soft alpha-beta that searches the first move of a node with
//! the full window and the others with a null window, re-searching those that fail high; plus a
//! lock-free transposition table ([`crate::search::tt`]), a staged move picker with killers and
//! history ([`crate::search::ordering`]), quiescence search, mate-distance pruning, late-move
//! reductions, threat extensions and iterative deepening with time management
//! ([`crate::search::iterative`]), each switchable by [`PvsConfig`].
//!
//! Key invariants:
//! - a child with the same side to move (extra turn) gets the window unchanged and its value is
//!   not negated; otherwise `(-beta, -alpha)` and negation;
//! - with `tt_exact_depth` (and without late-move reductions and threat extensions, which change
//!   the tree) the root value equals plain minimax's at the same depth (with `quiescence`:
//!   minimax-with-quiescence's) and the best move is one of its best: a table entry cuts only
//!   when it was searched to exactly the remaining depth. Without it, deeper entries cut too:
//!   stronger and cheaper, but no longer the fixed-depth value. Mate-distance pruning keeps the
//!   value exact (it only narrows windows to values no node can exceed);
//! - quiescence nodes never touch the table, killers or history, so they are value-exact by
//!   construction: fail-soft alpha-beta over the same tree the reference searches (a node with
//!   an immediate win returns `win_in(ply + 1)` at once, the value that win has anyway);
//! - the table never cuts at a PV node (open window), so the principal variation stays whole;
//! - repetition (a game with a repetition rule, history from the [`crate::game::GameHistory`] given to the search): a
//!   position the rule ends is scored as finished ([`crate::search::repetition`]), in quiescence
//!   too. Such a value depends on the path, so a node whose subtree met one stores nothing in the
//!   table; and in a value-exact search (`tt_exact_depth`) the table never cuts for such a game
//!   (its entries only order moves), because a value stored along one path may be wrong along
//!   another whose earlier positions its subtree repeats. A strength search does cut with
//!   path-free entries (the usual graph-history compromise);
//! - when a limit interrupts an iteration, the answer is the last completed iteration's, unless
//!   the interrupted one had already proved another root move better (it raised alpha after
//!   the first move, which is the previous best): that move is played, with its value and a
//!   one-move PV;
//! - `nodes` counts every [`Game::play`] (quiescence included, root excluded);
//! - nothing is allocated in the node loop: move, score and PV buffers are per-ply stacks built
//!   when the search starts.

use std::sync::Arc;

use crate::eval::{Evaluator, Score};
use crate::game::{Game, MoveClass};
use crate::search::iterative::MAX_DEPTH;
use crate::search::limits::LimitWatch;
use crate::search::minimax::QUIESCENCE_PLIES;
use crate::search::ordering::{History, Killers, MovePicker};
use crate::search::repetition::{self, Repetitions};
use crate::search::stats::SearchStats;
use crate::search::tt::{Bound, SharedTable, TranspositionTable};

pub use crate::search::config::PvsConfig;
pub use root::MAX_THREADS;

mod busy;
mod iteration;
mod parallel;
mod quiescence;
mod root;

#[cfg(test)]
mod extension_tests;
#[cfg(test)]
mod resize_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod time_tests;

/// Per-depth counters kept in fixed arrays (no allocation, no growth in the node loop).
const DEPTH_SLOTS: usize = MAX_DEPTH as usize + 1;

/// Half-width of the first aspiration window around the previous iteration's score.
const ASPIRATION_WINDOW: i32 = 40;

/// Plies of killer slots: the deepest iteration plus quiescence plus the root and a spare.
const KILLER_PLIES: usize = stack_plies(MAX_DEPTH);

/// The plies a search to `depth` can reach: threat extensions (granted only while `ply` is below
/// the nominal depth, one ply each) can double a line, then quiescence adds its own plies.
const fn stack_plies(depth: u32) -> usize {
    2 * depth as usize + QUIESCENCE_PLIES as usize + 2
}

/// The ordering tables one search thread learns as it goes (each thread has its own).
struct ThreadTables<M> {
    killers: Killers<M>,
    history: History,
}

impl<M: Copy + PartialEq> ThreadTables<M> {
    fn new() -> ThreadTables<M> {
        ThreadTables {
            killers: Killers::new(KILLER_PLIES),
            history: History::new(0),
        }
    }

    /// Before a search of a game whose move indices are below `bound`: history aged (or rebuilt
    /// for another bound), killers forgotten.
    fn prepare(&mut self, bound: usize) {
        if self.history.bound() != bound {
            self.history = History::new(bound);
        }
        self.history.age();
        self.killers.clear();
    }

    fn clear(&mut self) {
        self.history.clear();
        self.killers.clear();
    }
}

/// The principal variation searcher for game `G` with evaluator `E`.
pub struct Pvs<G: Game, E> {
    evaluator: E,
    config: PvsConfig,
    tt: Option<Arc<SharedTable>>,
    /// The main thread's tables.
    tables: ThreadTables<G::Move>,
    /// The helper threads' tables, kept from search to search ([`PvsConfig::threads`] - 1 of
    /// them once a search with threads has run).
    helpers: Vec<ThreadTables<G::Move>>,
}

impl<G: Game, E: Evaluator<G>> Pvs<G, E> {
    /// A searcher with `config`; allocates its transposition table now.
    pub fn new(evaluator: E, config: PvsConfig) -> Pvs<G, E> {
        Pvs {
            evaluator,
            config,
            tt: (config.tt_mb > 0).then(|| Arc::new(SharedTable::new(config.tt_mb))),
            tables: ThreadTables::new(),
            helpers: Vec::new(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &PvsConfig {
        &self.config
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// Changes the table size to `megabytes` MB, keeping what it holds (0 drops the table; a
    /// searcher without a table gets a fresh one). Call it between searches; to resize during
    /// a search, use the handle of [`Pvs::table`].
    pub fn resize_tt(&mut self, megabytes: usize) {
        self.config.tt_mb = megabytes;
        match (&self.tt, megabytes) {
            (_, 0) => self.tt = None,
            (Some(tt), mb) => tt.resize(mb),
            (None, mb) => self.tt = Some(Arc::new(SharedTable::new(mb))),
        }
    }

    /// A handle on the transposition table (none without one), for resizing it from another
    /// thread while a search runs: [`SharedTable::resize`] keeps the entries, and every thread
    /// of the search moves to the new table at its next iteration. ([`PvsConfig::tt_mb`] in
    /// [`Pvs::config`] keeps the size set through the searcher; a handle taken before
    /// [`Pvs::resize_tt`] drops the table, with 0, no longer reaches the searcher's later one.)
    #[must_use]
    pub fn table(&self) -> Option<Arc<SharedTable>> {
        self.tt.clone()
    }
}

/// One search thread's search: borrowed tables plus per-ply stacks allocated at its start.
struct Run<'a, G: Game, E> {
    root: &'a G,
    evaluator: &'a E,
    config: PvsConfig,
    /// The table the searcher shares (with its other threads, and with whoever resizes it).
    shared_tt: Option<&'a SharedTable>,
    /// The table this thread uses during the current iteration (a snapshot of `shared_tt`).
    tt: Option<Arc<TranspositionTable>>,
    killers: &'a mut Killers<G::Move>,
    history: &'a mut History,
    watch: LimitWatch,
    stats: SearchStats,
    tt_probes: [u64; DEPTH_SLOTS],
    tt_hits: [u64; DEPTH_SLOTS],
    moves: Vec<Vec<G::Move>>,
    scores: Vec<Vec<i32>>,
    pv: Vec<Vec<G::Move>>,
    /// Moves put off per ply (move, its place in the picker's order, plain quiet?) because
    /// another thread is searching them ([`busy`]).
    deferred: Vec<Vec<(G::Move, usize, bool)>>,
    /// The positions the threads are searching (threaded searches only).
    busy: Option<&'a busy::Busy>,
    /// The PV of the last completed iteration (its first move is searched first next time).
    best_line: Vec<G::Move>,
    /// The score of the last completed iteration (for aspiration windows).
    last_score: Option<Score>,
    /// The nominal depth of the iteration being searched.
    root_depth: u32,
    /// The fewest plies left at which the table is used ([`PvsConfig::tt_min_depth`]).
    tt_min_depth: u32,
    /// The best root move of the iteration being searched so far (with its value, and whether
    /// it was the first move searched), for when a limit interrupts the iteration.
    root_best: Option<(G::Move, Score, bool)>,
    /// The history and the current line, for a game with a repetition rule.
    repetitions: Option<Repetitions>,
    /// May a table entry cut? Not in a value-exact search of a game with a repetition rule: an
    /// entry's value may hold for another path only (see the module docs).
    tt_cuts: bool,
    aborted: bool,
}

impl<'a, G: Game, E: Evaluator<G>> Run<'a, G, E> {
    /// A search of `root` at most `last` plies deep (per-ply stacks sized for it).
    fn new(
        root: &'a G,
        evaluator: &'a E,
        config: PvsConfig,
        tt: Option<&'a SharedTable>,
        tables: &'a mut ThreadTables<G::Move>,
        watch: LimitWatch,
        last: u32,
    ) -> Run<'a, G, E> {
        let plies = stack_plies(last);
        Run {
            root,
            evaluator,
            config,
            shared_tt: tt,
            tt: tt.map(SharedTable::snapshot),
            killers: &mut tables.killers,
            history: &mut tables.history,
            watch,
            stats: SearchStats::default(),
            tt_probes: [0; DEPTH_SLOTS],
            tt_hits: [0; DEPTH_SLOTS],
            moves: (0..plies).map(|_| Vec::with_capacity(64)).collect(),
            scores: (0..plies).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..plies).map(|_| Vec::with_capacity(plies)).collect(),
            deferred: (0..plies).map(|_| Vec::with_capacity(64)).collect(),
            busy: None,
            best_line: Vec::with_capacity(plies),
            last_score: None,
            root_depth: 0,
            tt_min_depth: config
                .tt_min_depth
                .unwrap_or_else(|| root.table_min_depth())
                .max(1),
            root_best: None,
            repetitions: None,
            tt_cuts: true,
            aborted: false,
        }
    }

    /// Counts repetitions from the game's `history` (the positions before the root) on (for a
    /// game with a repetition rule; nothing for others). Call it before the search starts.
    fn track_repetitions(&mut self, history: &[u64]) {
        self.repetitions = Repetitions::new(self.root, history, self.moves.len());
        self.tt_cuts = self.repetitions.is_none() || !self.config.tt_exact_depth;
    }
}

impl<G: Game, E: Evaluator<G>> Run<'_, G, E> {
    /// The value of `child` from its parent's view: same side to move keeps window and sign.
    #[inline]
    fn child_value(
        &mut self,
        child: &G,
        same_side: bool,
        depth: u32,
        ply: usize,
        alpha: Score,
        beta: Score,
    ) -> Score {
        // A horizon node goes straight to quiescence (or the evaluation): it is never extended
        // (extensions need plies left) and has nothing else to do.
        if depth == 0 {
            self.pv[ply].clear();
            return if same_side {
                self.horizon(child, ply, alpha, beta)
            } else {
                -self.horizon(child, ply, -beta, -alpha)
            };
        }
        if same_side {
            self.search(child, depth, ply, alpha, beta)
        } else {
            -self.search(child, depth, ply, -beta, -alpha)
        }
    }

    /// The value of a horizon node: quiescence, or the evaluation (a finished game scored).
    #[inline]
    fn horizon(&mut self, state: &G, ply: usize, alpha: Score, beta: Score) -> Score {
        if self.config.quiescence {
            return self.quiesce(state, 0, ply, alpha, beta);
        }
        if ply as u32 > self.stats.seldepth {
            self.stats.seldepth = ply as u32;
        }
        self.stats.leaves += 1;
        match state.outcome() {
            Some(outcome) => Score::terminal(outcome, state.side_to_move(), ply as u32),
            None => self.evaluator.evaluate(state),
        }
    }

    /// The fail-soft value of `state` for its side to move, `depth` plies deep, `ply` plies below
    /// the root, within `(alpha, beta)`.
    fn search(
        &mut self,
        state: &G,
        depth: u32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
    ) -> Score {
        // 1. Bookkeeping; an open window marks a PV node.
        let pv_node = beta.raw() > alpha.raw() + 1;
        self.pv[ply].clear();
        if ply as u32 > self.stats.seldepth {
            self.stats.seldepth = ply as u32;
        }

        // 2. Finished games and the horizon are leaves (or quiescence).
        if let Some(outcome) = state.outcome() {
            self.stats.leaves += 1;
            return Score::terminal(outcome, state.side_to_move(), ply as u32);
        }
        // A threatened side gets one more ply (only within the nominal depth, so a line grows to
        // at most twice it, and only with enough plies left).
        let threatened = self.config.threat_extensions
            && depth >= self.config.extension_depth.max(1)
            && (ply as u32) < self.root_depth
            && state.is_threatened();
        let depth = depth + u32::from(threatened);
        // Horizon children normally go straight to [`Run::horizon`] from their parent; this is
        // for a search started at depth 0.
        if depth == 0 {
            return self.horizon(state, ply, alpha, beta);
        }

        // 3. Mate-distance pruning: nothing here beats a win next move or loses faster. The
        //    window is narrowed to one point beyond those bounds, so a value equal to a bound is
        //    still inside it (exact, with its PV) rather than a fail-low/high.
        if self.config.mate_distance_pruning && ply > 0 {
            let best_possible = Score::win_in(ply as u32 + 1);
            let worst_possible = Score::loss_in(ply as u32 + 1);
            if alpha >= best_possible {
                return best_possible;
            }
            if beta <= worst_possible {
                return worst_possible;
            }
            alpha = alpha.max(Score::from_raw(worst_possible.raw() - 1));
            beta = beta.min(Score::from_raw(best_possible.raw() + 1));
        }

        // 4. Table probe: a usable bound answers a non-PV node; any entry gives a move to try
        //    (only with enough plies left: nodes nearer the horizon neither probe nor store).
        let hash = state.hash();
        let repetition_hits = repetition::hits(self.repetitions.as_ref());
        let mut tt_index = None;
        let use_tt = depth >= self.tt_min_depth;
        if let Some(tt) = self.tt.as_deref().filter(|_| use_tt) {
            let slot = (depth as usize).min(DEPTH_SLOTS - 1);
            self.tt_probes[slot] += 1;
            if let Some(entry) = tt.probe(hash, depth, self.config.tt_exact_depth) {
                self.tt_hits[slot] += 1;
                tt_index = entry.mv.map(usize::from);
                let stored = u32::from(entry.depth);
                let deep_enough = if self.config.tt_exact_depth {
                    stored == depth
                } else {
                    stored >= depth
                };
                if deep_enough && !pv_node && self.tt_cuts {
                    let score = entry.score(ply as u32);
                    let cuts = match entry.bound {
                        Bound::Exact => true,
                        Bound::Lower => score >= beta,
                        Bound::Upper => score <= alpha,
                    };
                    if cuts {
                        self.stats.tt_cutoffs += 1;
                        return score;
                    }
                }
            }
        }
        // The previous iteration's best move goes first at the root.
        let root_move = if ply == 0 {
            self.best_line.first().copied()
        } else {
            None
        };
        let killers = if self.config.killers {
            self.killers.at(ply)
        } else {
            [None; 2]
        };
        let mut picker = MovePicker::new(root_move, tt_index, killers);

        // 5. Search the moves: the first with the full window, the rest with a null window first.
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        let alpha_start = alpha;
        let mut best = -Score::INFINITY;
        let mut best_move = None;
        let mut best_first = false;
        let side = state.side_to_move();
        // Threads defer moves another thread is searching (see [`busy`]) at deep enough nodes.
        let busy = self.busy.filter(|_| depth >= busy::BUSY_DEPTH);
        let mut deferred = std::mem::take(&mut self.deferred[ply]);
        deferred.clear();
        let mut replayed = 0;
        loop {
            let (mv, order, plain_quiet) = if replayed == 0 {
                let history = self.config.history.then_some(&*self.history);
                match picker.next(state, &mut moves, &mut scores, history) {
                    Some(mv) => (mv, picker.picked(), picker.last_was_plain_quiet()),
                    None if deferred.is_empty() => break,
                    None => {
                        replayed = 1;
                        deferred[0]
                    }
                }
            } else if let Some(&entry) = deferred.get(replayed) {
                replayed += 1;
                entry
            } else {
                break;
            };
            if self.watch.should_stop(self.stats.nodes) {
                self.aborted = true;
                break;
            }
            let child = state.play(mv);
            self.stats.nodes += 1;
            // The child probes the table soon (if it has plies enough to use the table).
            if depth > self.tt_min_depth
                && let Some(tt) = self.tt.as_deref()
            {
                tt.prefetch(child.hash());
            }
            let child_hash = busy.map(|busy| (busy, child.hash()));
            if let Some((busy, hash)) = child_hash {
                if replayed == 0 && order > 1 && busy.contains(hash) {
                    deferred.push((mv, order, plain_quiet));
                    continue;
                }
                busy.enter(hash);
            }
            let same_side = child.side_to_move() == side;
            let first = order == 1;
            let repeated = match self.repetitions.as_mut() {
                Some(repetitions) => repetitions.outcome(&child, side, ply + 1),
                None => None,
            };
            let value = if let Some(outcome) = repeated {
                // The repetition rule ends the game here: a finished position.
                self.pv[ply + 1].clear();
                if ply as u32 + 1 > self.stats.seldepth {
                    self.stats.seldepth = ply as u32 + 1;
                }
                self.stats.leaves += 1;
                let value = Score::terminal(outcome, child.side_to_move(), ply as u32 + 1);
                if same_side { value } else { -value }
            } else if first || !self.config.pvs {
                self.child_value(&child, same_side, depth - 1, ply + 1, alpha, beta)
            } else {
                let null_beta = Score::from_raw(alpha.raw() + 1);
                let reduce = self.config.late_move_reductions
                    && depth >= 3
                    && !pv_node
                    && !threatened
                    && order > 3
                    && plain_quiet;
                let mut value = if reduce {
                    self.stats.reductions += 1;
                    self.child_value(&child, same_side, depth - 2, ply + 1, alpha, null_beta)
                } else {
                    alpha
                };
                if !reduce || (value > alpha && !self.aborted) {
                    value =
                        self.child_value(&child, same_side, depth - 1, ply + 1, alpha, null_beta);
                }
                if value > alpha && value < beta && !self.aborted {
                    self.child_value(&child, same_side, depth - 1, ply + 1, alpha, beta)
                } else {
                    value
                }
            };
            if let Some((busy, hash)) = child_hash {
                busy.leave(hash);
            }
            if self.aborted {
                break;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(mv);
                    best_first = first;
                    alpha = value;
                    if ply == 0 {
                        self.root_best = Some((mv, value, first));
                    }
                    if value >= beta {
                        self.on_cutoff(state, mv, depth, ply, first);
                        break;
                    }
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                }
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        self.deferred[ply] = deferred;
        if self.aborted {
            return best;
        }
        if best_move.is_some() {
            self.stats.best_move_nodes += 1;
            if best_first {
                self.stats.best_move_first += 1;
            }
        }

        // 6. Remember the result: fail-soft bounds say which side of the window it fell on. A
        //    value that a repetition below decided holds for this path only: not kept.
        let path_free = repetition::hits(self.repetitions.as_ref()) == repetition_hits;
        if let Some(tt) = self.tt.as_deref().filter(|_| use_tt && path_free) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_start {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let index = best_move.map(|mv| state.move_index(mv));
            tt.store(hash, ply as u32, depth, bound, best, index);
        }
        best
    }

    /// Statistics and ordering tables after `mv` failed high.
    #[inline]
    fn on_cutoff(&mut self, state: &G, mv: G::Move, depth: u32, ply: usize, first: bool) {
        self.stats.cutoffs += 1;
        if first {
            self.stats.first_move_cutoffs += 1;
        }
        if (self.config.killers || self.config.history) && state.classify(mv) == MoveClass::Quiet {
            if self.config.killers {
                self.killers.record(ply, mv);
            }
            if self.config.history {
                self.history
                    .reward(state.side_to_move(), state.move_index(mv), depth);
            }
        }
    }

    /// One root search within `(alpha, beta)`.
    fn root_search(&mut self, depth: u32, alpha: Score, beta: Score) -> Score {
        self.search(self.root, depth, 0, alpha, beta)
    }
}
