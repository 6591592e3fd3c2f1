//! One search thread of [`super::Pvs`] ([`ThreadSearch`]): the node search in numbered steps,
//! over the per-ply frames of [`crate::search::stack`], with the ordering tables the thread
//! learns as it goes ([`MoveHistory`]: killers and history) and its view of the shared transposition table.
//!
//! Key invariants: those of [`super`] (window and sign by side to move, table cuts only when
//! allowed, nothing allocated in the node loop: every buffer is the frame of its ply); the moves
//! another thread is searching are put off behind the picker ([`super::busy::NodeMoves`]), so
//! with one thread the node loop is exactly the picker's order.

use std::sync::Arc;

use super::busy::{Busy, NodeMoves};
use crate::eval::{Evaluator, Score};
use crate::game::{Game, MoveClass, Side};
use crate::search::config::PvsConfig;
use crate::search::heuristics::{History, Killers};
use crate::search::limits::LimitWatch;
use crate::search::ordering::MovePicker;
use crate::search::repetition::{self, Repetitions};
use crate::search::searcher::{Pv, RootLine};
use crate::search::stack::{Buffers, Frame, MAX_DEPTH, Pick, frames, record_pv, stack_plies};
use crate::search::stats::SearchStats;
use crate::search::tt::{Bound, SharedTable, TranspositionTable};
use crate::solve::{Probe, TableValue, UNKNOWN_PLIES};

/// Per-depth counters kept in fixed arrays (no allocation, no growth in the node loop).
pub(super) const DEPTH_SLOTS: usize = MAX_DEPTH as usize + 1;

/// Plies of killer slots: the deepest iteration plus quiescence plus the root and a spare.
const KILLER_PLIES: usize = stack_plies(MAX_DEPTH);

/// What one search thread learns about move ordering as it goes: killers and history (each
/// thread has its own).
pub(super) struct MoveHistory<M> {
    killers: Killers<M>,
    history: History,
}

impl<M: Copy + PartialEq> MoveHistory<M> {
    pub(super) fn new() -> MoveHistory<M> {
        MoveHistory {
            killers: Killers::new(KILLER_PLIES),
            history: History::new(0),
        }
    }

    /// Before a search of a game whose move indices are below `bound`: history aged (or rebuilt
    /// for another bound), killers forgotten.
    pub(super) fn prepare(&mut self, bound: usize) {
        if self.history.bound() != bound {
            self.history = History::new(bound);
        }
        self.history.age();
        self.killers.clear();
    }

    pub(super) fn clear(&mut self) {
        self.history.clear();
        self.killers.clear();
    }
}

/// How one thread uses the transposition table.
pub(super) struct TableUse<'a> {
    /// The table the searcher shares (with its other threads, and with whoever resizes it).
    pub(super) shared: Option<&'a SharedTable>,
    /// The table used during the current iteration (a snapshot of `shared`).
    pub(super) snapshot: Option<Arc<TranspositionTable>>,
    /// The fewest plies left at which the table is used ([`PvsConfig::tt_min_depth`]).
    min_depth: u32,
    /// May an entry cut? Not in a value-exact search of a game with a repetition rule: an
    /// entry's value may hold for another path only (see the module docs of [`super`]).
    cuts: bool,
    /// Probes and hits by remaining depth.
    pub(super) probes: [u64; DEPTH_SLOTS],
    pub(super) hits: [u64; DEPTH_SLOTS],
}

/// What the thread keeps about the root from iteration to iteration.
pub(super) struct RootState<M> {
    /// The nominal depth of the iteration being searched.
    pub(super) depth: u32,
    /// The PV of the last completed iteration (its first move is searched first next time).
    pub(super) best_line: Pv<M>,
    /// The best root move of the iteration being searched so far (with its value, and whether
    /// it was the first move searched), for when a limit interrupts the iteration.
    pub(super) best: Option<(M, Score, bool)>,
    /// How many lines to report (MultiPV, [`crate::search::SearchLimits::multipv`]).
    pub(super) multipv: usize,
    /// Root moves the search of a further line leaves out (empty: none).
    pub(super) excluded: Vec<M>,
    /// Root moves that would give up the win the endgame tables give the root (empty: none;
    /// see [`ThreadSearch::use_endgame`]).
    pub(super) unkept: Vec<M>,
    /// The lines after the first of the last completed iteration.
    pub(super) more_lines: Vec<RootLine<M>>,
}

/// One search thread's search: its borrowed move history and transposition table view, plus
/// per-ply frames built at its start.
pub(super) struct ThreadSearch<'a, G: Game, E> {
    pub(super) root: &'a G,
    pub(super) evaluator: &'a E,
    pub(super) config: PvsConfig,
    pub(super) tt: TableUse<'a>,
    ordering: &'a mut MoveHistory<G::Move>,
    pub(super) watch: LimitWatch,
    pub(super) stats: SearchStats,
    /// One frame per ply.
    pub(super) stack: Vec<Frame<G::Move>>,
    /// The positions the threads are searching (threaded searches only).
    pub(super) busy: Option<&'a Busy>,
    pub(super) iteration: RootState<G::Move>,
    /// The history and the current line, for a game with a repetition rule.
    pub(super) repetitions: Option<Repetitions>,
    /// Endgame tables (not used in a game with a repetition rule: their values ignore it).
    endgame: Option<&'a dyn Probe<G>>,
    /// Below the root, only table values with a distance (and draws) end a line: the root is
    /// won or lost by a table that does not store how long (see [`ThreadSearch::use_endgame`]).
    distances_only: bool,
    pub(super) aborted: bool,
}

impl<'a, G: Game, E: Evaluator<G>> ThreadSearch<'a, G, E> {
    /// A search of `root` at most `last` plies deep (per-ply frames sized for it).
    pub(super) fn new(
        root: &'a G,
        evaluator: &'a E,
        config: PvsConfig,
        tt: Option<&'a SharedTable>,
        ordering: &'a mut MoveHistory<G::Move>,
        watch: LimitWatch,
        last: u32,
    ) -> ThreadSearch<'a, G, E> {
        let plies = stack_plies(last);
        ThreadSearch {
            root,
            evaluator,
            config,
            tt: TableUse {
                shared: tt,
                snapshot: tt.map(SharedTable::snapshot),
                min_depth: config
                    .tt_min_depth
                    .unwrap_or_else(|| root.table_min_depth())
                    .max(1),
                cuts: true,
                probes: [0; DEPTH_SLOTS],
                hits: [0; DEPTH_SLOTS],
            },
            ordering,
            watch,
            stats: SearchStats::default(),
            stack: frames(plies),
            busy: None,
            iteration: RootState {
                depth: 0,
                best_line: Pv::with_capacity(plies),
                best: None,
                multipv: 1,
                excluded: Vec::new(),
                unkept: Vec::new(),
                more_lines: Vec::new(),
            },
            repetitions: None,
            endgame: None,
            distances_only: false,
            aborted: false,
        }
    }

    /// Counts repetitions from the game's `history` (the positions before the root) on (for a
    /// game with a repetition rule; nothing for others). Call it before the search starts.
    pub(super) fn track_repetitions(&mut self, history: &[u64]) {
        self.repetitions = Repetitions::new(self.root, history, self.stack.len());
        self.tt.cuts = self.repetitions.is_none() || !self.config.tt_exact_depth;
    }

    /// One root search within `(alpha, beta)`.
    pub(super) fn root_search(&mut self, depth: u32, alpha: Score, beta: Score) -> Score {
        self.search(self.root, depth, 0, alpha, beta)
    }

    /// Raises the deepest ply reached to `ply`.
    #[inline]
    pub(super) fn reach(&mut self, ply: usize) {
        if ply as u32 > self.stats.seldepth {
            self.stats.seldepth = ply as u32;
        }
    }

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
            self.stack[ply].pv.clear();
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

    /// Takes `tables` as the search's endgame tables (call it before the search starts).
    ///
    /// When they hold the root as won or lost without its distance (a win/draw/loss table),
    /// every child would score the same (a win of unknown length), and a search that stopped at
    /// the children could not tell a move that makes progress from one that does not: a won
    /// ending would be held but perhaps never won. So then the root keeps only the moves that
    /// keep the win, and below it only values with a distance and draws end a line, so the
    /// search looks past the children for the captures and wins that convert, scored as usual.
    /// (MultiPV then shows only moves that keep the win, and stored scores of unknown length
    /// end no line either.)
    pub(super) fn use_endgame(&mut self, tables: Option<&'a dyn Probe<G>>) {
        self.endgame = tables;
        self.distances_only = false;
        self.iteration.unkept.clear();
        let Some(tables) = tables else {
            return;
        };
        let root = self.root;
        if root.has_repetition_rule() {
            return;
        }
        let value = tables.probe(root);
        if !matches!(value, Some(TableValue::Won | TableValue::Lost)) {
            return;
        }
        self.distances_only = true;
        if value != Some(TableValue::Won) {
            return;
        }
        let mover = root.side_to_move();
        let mut moves = Vec::new();
        root.generate_moves(&mut moves);
        for &mv in &moves {
            let child = root.play(mv);
            let keeps = match child.outcome() {
                Some(outcome) => outcome.winner() == Some(mover),
                None => tables.probe(&child).is_none_or(|v| {
                    matches!(
                        v.seen_by_mover(child.side_to_move() == mover),
                        TableValue::Win(_) | TableValue::Won
                    )
                }),
            };
            if !keeps {
                self.iteration.unkept.push(mv);
            }
        }
        // (Tables that are right keep some move of a won position.)
        if self.iteration.unkept.len() == moves.len() {
            self.iteration.unkept.clear();
        }
    }

    /// The exact value of `state` from the endgame tables, if they hold it (never at the root,
    /// which needs a move, nor in a game with a repetition rule; not a win or loss of unknown
    /// length while the root is one, see [`ThreadSearch::use_endgame`]).
    #[inline]
    fn endgame_value(&mut self, state: &G, ply: usize) -> Option<Score> {
        let tables = self.endgame?;
        if ply == 0 || state.has_repetition_rule() {
            return None;
        }
        let value = tables.probe(state)?;
        if self.distances_only && matches!(value, TableValue::Won | TableValue::Lost) {
            return None;
        }
        self.stats.endgame_hits += 1;
        self.stats.leaves += 1;
        Some(value.score_at(ply as u32))
    }

    /// The value of a horizon node: the endgame tables' if they hold it, else quiescence or the
    /// evaluation (a finished game scored).
    #[inline]
    fn horizon(&mut self, state: &G, ply: usize, alpha: Score, beta: Score) -> Score {
        if let Some(value) = self.endgame_value(state, ply) {
            self.reach(ply);
            return value;
        }
        if self.config.quiescence {
            return self.quiesce(state, 0, ply, alpha, beta);
        }
        self.reach(ply);
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
        self.stack[ply].pv.clear();
        self.reach(ply);

        // 2. Finished games and the horizon are leaves (or quiescence).
        if let Some(outcome) = state.outcome() {
            self.stats.leaves += 1;
            return Score::terminal(outcome, state.side_to_move(), ply as u32);
        }
        // A threatened side gets one more ply (only within the nominal depth, so a line grows to
        // at most twice it, and only with enough plies left).
        let threatened = self.config.threat_extensions
            && depth >= self.config.extension_depth.max(1)
            && (ply as u32) < self.iteration.depth
            && state.is_threatened();
        let depth = depth + u32::from(threatened);
        // Horizon children normally go straight to [`ThreadSearch::horizon`] from their parent;
        // this is for a search started at depth 0.
        if depth == 0 {
            return self.horizon(state, ply, alpha, beta);
        }
        // An endgame table's value is exact: no need to search below (the horizon probes too).
        if let Some(value) = self.endgame_value(state, ply) {
            return value;
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
        let use_tt = depth >= self.tt.min_depth;
        let tt_index = match self.probe(hash, depth, ply, (alpha, beta), use_tt && !pv_node) {
            Ok(index) => index,
            Err(cut) => return cut,
        };

        // 5. Search the moves (the previous iteration's best move first at the root).
        let root_move = if ply == 0 {
            self.iteration.best_line.first().copied()
        } else {
            None
        };
        let killers = if self.config.killers {
            self.ordering.killers.at(ply)
        } else {
            [None; 2]
        };
        let picker = MovePicker::new(root_move, tt_index, killers);
        let node = Node {
            depth,
            ply,
            pv_node,
            threatened,
            beta,
        };
        let (best, best_move) = self.search_moves(state, &node, picker, alpha);
        if self.aborted {
            return best;
        }

        // 6. Remember the result: fail-soft bounds say which side of the window it fell on. A
        //    value that a repetition below decided holds for this path only: not kept.
        // The root searched without some of its moves (a further MultiPV line) is not kept.
        let path_free = repetition::hits(self.repetitions.as_ref()) == repetition_hits
            && (ply != 0
                || (self.iteration.excluded.is_empty() && self.iteration.unkept.is_empty()));
        if let Some(tt) = self.tt.snapshot.as_deref().filter(|_| use_tt && path_free) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let index = best_move.map(|mv| state.move_index(mv));
            tt.store(hash, ply as u32, depth, bound, best, index);
        }
        best
    }

    /// Step 4 of [`ThreadSearch::search`]: probes the table for the position `hash` when
    /// `depth` plies are enough to use it, counting probes and hits. `Err(score)` when an entry
    /// answers the node (only if `may_cut`: a non-PV node), otherwise the entry's move index.
    #[inline]
    fn probe(
        &mut self,
        hash: u64,
        depth: u32,
        ply: usize,
        (alpha, beta): (Score, Score),
        may_cut: bool,
    ) -> Result<Option<usize>, Score> {
        if depth < self.tt.min_depth {
            return Ok(None);
        }
        let Some(tt) = self.tt.snapshot.as_deref() else {
            return Ok(None);
        };
        let slot = (depth as usize).min(DEPTH_SLOTS - 1);
        self.tt.probes[slot] += 1;
        let Some(entry) = tt.probe(hash, depth, self.config.tt_exact_depth) else {
            return Ok(None);
        };
        self.tt.hits[slot] += 1;
        let stored = u32::from(entry.depth);
        let deep_enough = if self.config.tt_exact_depth {
            stored == depth
        } else {
            stored >= depth
        };
        // A win or loss of unknown length stored by an earlier search (from the tables) ends
        // no line while the root is one (see [`ThreadSearch::use_endgame`]).
        let unknown_length = |score: Score| {
            score
                .plies_to_end()
                .is_some_and(|plies| plies >= ply as u32 + UNKNOWN_PLIES)
        };
        if deep_enough && may_cut && self.tt.cuts {
            let score = entry.score(ply as u32);
            if self.distances_only && unknown_length(score) {
                return Ok(entry.mv.map(usize::from));
            }
            let cuts = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cuts {
                self.stats.tt_cutoffs += 1;
                return Err(score);
            }
        }
        Ok(entry.mv.map(usize::from))
    }

    /// Step 5 of [`ThreadSearch::search`]: the moves of `state` from `picker`, the first with
    /// the full window, the rest with a null window first (reduced when late and quiet), each
    /// re-searched when it fails high. Returns the best value and the move that raised alpha
    /// last (if any); fills the node's PV.
    fn search_moves(
        &mut self,
        state: &G,
        node: &Node,
        picker: MovePicker<G::Move>,
        mut alpha: Score,
    ) -> (Score, Option<G::Move>) {
        let ply = node.ply;
        let mut buffers = std::mem::take(&mut self.stack[ply].buffers);
        let mut best = -Score::INFINITY;
        let mut best_move = None;
        let mut best_first = false;
        let side = state.side_to_move();
        let Buffers {
            moves,
            scores,
            deferred,
        } = &mut buffers;
        let mut node_moves = NodeMoves::new(picker, self.busy, node.depth, deferred);
        // The root's moves as searched, for a host's `currmove` (`SearchLimits::progress`).
        let mut root_number = 0;
        loop {
            let history = self.config.history.then_some(&self.ordering.history);
            let Some(pick) = node_moves.next(state, moves, scores, history) else {
                break;
            };
            if ply == 0
                && (self.iteration.excluded.contains(&pick.mv)
                    || self.iteration.unkept.contains(&pick.mv))
            {
                continue; // a root move of an earlier line (MultiPV), or one giving up a win
            }
            if self.watch.should_stop(self.stats.nodes) {
                self.aborted = true;
                break;
            }
            let child = state.play(pick.mv);
            self.stats.nodes += 1;
            // The child probes the table soon (if it has plies enough to use the table).
            if node.depth > self.tt.min_depth
                && let Some(tt) = self.tt.snapshot.as_deref()
            {
                tt.prefetch(child.hash());
            }
            if node_moves.defer(pick, &child) {
                continue;
            }
            if ply == 0 {
                root_number += 1;
                self.watch.root_move(state.move_index(pick.mv), root_number);
            }
            let value = self.move_value(&child, side, node, pick, alpha);
            node_moves.searched(&child);
            if self.aborted {
                break;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(pick.mv);
                    best_first = pick.order == 1;
                    alpha = value;
                    if ply == 0 {
                        self.iteration.best = Some((pick.mv, value, best_first));
                    }
                    if value >= node.beta {
                        self.on_cutoff(state, pick.mv, node.depth, ply, best_first);
                        break;
                    }
                    record_pv(&mut self.stack, ply, pick.mv);
                }
            }
        }
        self.stack[ply].buffers = buffers;
        if !self.aborted && best_move.is_some() {
            self.stats.best_move_nodes += 1;
            if best_first {
                self.stats.best_move_first += 1;
            }
        }
        (best, best_move)
    }

    /// The value of the move `pick` (which made `child`) from the node's view within
    /// `(alpha, node.beta)`: a position the repetition rule ends is finished; the first move
    /// (or every move without PVS) gets the full window; a later one a null window, reduced by
    /// a ply when it is a late plain quiet move at a non-PV node, re-searched in full when it
    /// fails high.
    #[inline]
    fn move_value(
        &mut self,
        child: &G,
        side: Side,
        node: &Node,
        pick: Pick<G::Move>,
        alpha: Score,
    ) -> Score {
        let (depth, ply, beta) = (node.depth, node.ply, node.beta);
        let same_side = child.side_to_move() == side;
        let repeated = match self.repetitions.as_mut() {
            Some(repetitions) => repetitions.outcome(child, side, ply + 1),
            None => None,
        };
        if let Some(outcome) = repeated {
            // The repetition rule ends the game here: a finished position.
            self.stack[ply + 1].pv.clear();
            self.reach(ply + 1);
            self.stats.leaves += 1;
            let value = Score::terminal(outcome, child.side_to_move(), ply as u32 + 1);
            return if same_side { value } else { -value };
        }
        if pick.order == 1 || !self.config.pvs {
            return self.child_value(child, same_side, depth - 1, ply + 1, alpha, beta);
        }
        let null_beta = Score::from_raw(alpha.raw() + 1);
        let reduce = self.config.late_move_reductions
            && depth >= 3
            && !node.pv_node
            && !node.threatened
            && pick.order > 3
            && pick.plain_quiet;
        let mut value = if reduce {
            self.stats.reductions += 1;
            self.child_value(child, same_side, depth - 2, ply + 1, alpha, null_beta)
        } else {
            alpha
        };
        if !reduce || (value > alpha && !self.aborted) {
            value = self.child_value(child, same_side, depth - 1, ply + 1, alpha, null_beta);
        }
        if value > alpha && value < beta && !self.aborted {
            self.child_value(child, same_side, depth - 1, ply + 1, alpha, beta)
        } else {
            value
        }
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
                self.ordering.killers.record(ply, mv);
            }
            if self.config.history {
                self.ordering
                    .history
                    .reward(state.side_to_move(), state.move_index(mv), depth);
            }
        }
    }
}

/// What the move loop of a node needs to know about it.
struct Node {
    /// Plies left (after any extension).
    depth: u32,
    /// Plies below the root.
    ply: usize,
    /// An open window (a PV node)?
    pv_node: bool,
    /// Was the node extended for a threat?
    threatened: bool,
    /// The node's beta.
    beta: Score,
}
