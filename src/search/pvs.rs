//! Principal variation search: fail-soft alpha-beta that searches the first move of a node with
//! the full window and the others with a null window, re-searching those that fail high; plus a
//! transposition table ([`crate::search::tt`]), killers and history ([`crate::search::ordering`])
//! and iterative deepening ([`crate::search::iterative`]), each switchable by [`PvsConfig`].
//!
//! Key invariants:
//! - a child with the same side to move (extra turn) gets the window unchanged and its value is
//!   not negated; otherwise `(-beta, -alpha)` and negation;
//! - with `tt_exact_depth` the root value equals plain minimax's at the same depth and the best
//!   move is one of minimax's best: a table entry cuts only when it was searched to exactly the
//!   remaining depth (a fixed-depth value depends on that depth). Without it, deeper entries cut
//!   too: stronger and cheaper, but the value is no longer plain minimax's (it mixes in deeper
//!   knowledge), so only the exact form is checked against minimax;
//! - the table never cuts at a PV node (open window), so the principal variation stays whole;
//! - nothing is allocated in the node loop: move, score and PV buffers are per-ply stacks built
//!   when the search starts.

use crate::eval::{Evaluator, Score};
use crate::game::{Game, MoveClass};
use crate::search::iterative::{DepthSearch, MAX_DEPTH, deepen};
use crate::search::limits::LimitWatch;
use crate::search::ordering::{History, Killers, MovePicker, OrderingHints};
use crate::search::tt::{Bound, TranspositionTable};
use crate::search::{Iteration, SearchLimits, SearchResult, SearchStats, Searcher};

/// Which parts of the search are switched on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PvsConfig {
    /// Null-window search of all but the first move (off: every move gets the full window).
    pub pvs: bool,
    /// Transposition-table size in MB; 0 = no table.
    pub tt_mb: usize,
    /// Take table cutoffs only from entries of exactly the remaining depth (value-exact against
    /// minimax); off: from entries at least that deep (stronger).
    pub tt_exact_depth: bool,
    /// Killer moves, two per ply.
    pub killers: bool,
    /// The history heuristic for quiet moves.
    pub history: bool,
    /// Search depths 1, 2, … up to the limit; off: search the depth limit directly.
    pub iterative_deepening: bool,
}

impl PvsConfig {
    /// Table size of the consistency ladder (small, so replacement gets exercised).
    const LADDER_TT_MB: usize = 4;

    /// Everything on, deeper table entries cut, 64 MB table.
    #[must_use]
    pub fn full() -> PvsConfig {
        PvsConfig {
            pvs: true,
            tt_mb: 64,
            tt_exact_depth: false,
            killers: true,
            history: true,
            iterative_deepening: true,
        }
    }

    /// The cumulative, value-exact ladder (each rung adds one part to the one before; all with
    /// `tt_exact_depth`): every rung must give plain minimax's value at the same depth.
    #[must_use]
    pub fn consistency_ladder() -> Vec<(&'static str, PvsConfig)> {
        let mut config = PvsConfig {
            pvs: true,
            tt_mb: 0,
            tt_exact_depth: true,
            killers: false,
            history: false,
            iterative_deepening: false,
        };
        let mut ladder = vec![("pvs", config)];
        config.tt_mb = Self::LADDER_TT_MB;
        ladder.push(("pvs+tt", config));
        config.killers = true;
        ladder.push(("pvs+tt+killers", config));
        config.history = true;
        ladder.push(("pvs+tt+killers+history", config));
        config.iterative_deepening = true;
        ladder.push(("pvs+tt+killers+history+id", config));
        ladder
    }

    /// A short name such as `pvs+tt+killers` (`ab` instead of `pvs` without null windows;
    /// `tt>=` for a table cutting with deeper entries).
    #[must_use]
    pub fn name(&self) -> String {
        let mut name = String::from(if self.pvs { "pvs" } else { "ab" });
        if self.tt_mb > 0 {
            name.push_str(if self.tt_exact_depth { "+tt" } else { "+tt>=" });
        }
        for (on, part) in [
            (self.killers, "+killers"),
            (self.history, "+history"),
            (self.iterative_deepening, "+id"),
        ] {
            if on {
                name.push_str(part);
            }
        }
        name
    }
}

impl Default for PvsConfig {
    /// [`PvsConfig::full`].
    fn default() -> PvsConfig {
        PvsConfig::full()
    }
}

/// The principal variation searcher for game `G` with evaluator `E`.
pub struct Pvs<G: Game, E> {
    evaluator: E,
    config: PvsConfig,
    tt: Option<TranspositionTable<G::Move>>,
    killers: Killers<G::Move>,
    history: History,
}

impl<G: Game, E: Evaluator<G>> Pvs<G, E> {
    /// A searcher with `config`; allocates its transposition table now.
    pub fn new(evaluator: E, config: PvsConfig) -> Pvs<G, E> {
        Pvs {
            evaluator,
            config,
            tt: (config.tt_mb > 0).then(|| TranspositionTable::new(config.tt_mb)),
            killers: Killers::new(MAX_DEPTH as usize + 2),
            history: History::new(0),
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
}

/// One search: borrowed tables plus per-ply stacks allocated at its start.
struct Run<'a, G: Game, E> {
    root: &'a G,
    evaluator: &'a E,
    config: PvsConfig,
    tt: Option<&'a mut TranspositionTable<G::Move>>,
    killers: &'a mut Killers<G::Move>,
    history: &'a mut History,
    watch: LimitWatch,
    stats: SearchStats,
    moves: Vec<Vec<G::Move>>,
    scores: Vec<Vec<i32>>,
    pv: Vec<Vec<G::Move>>,
    /// The PV of the last completed iteration (its first move is searched first next time).
    best_line: Vec<G::Move>,
    aborted: bool,
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
        if same_side {
            self.search(child, depth, ply, alpha, beta)
        } else {
            -self.search(child, depth, ply, -beta, -alpha)
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
        beta: Score,
    ) -> Score {
        // 1. Bookkeeping; an open window marks a PV node.
        let pv_node = beta.raw() > alpha.raw() + 1;
        self.pv[ply].clear();
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);

        // 2. Finished games and the horizon are leaves.
        if let Some(outcome) = state.outcome() {
            self.stats.leaves += 1;
            return Score::terminal(outcome, state.side_to_move(), ply as u32);
        }
        if depth == 0 {
            self.stats.leaves += 1;
            return self.evaluator.evaluate(state);
        }

        // 3. Table probe: a usable bound answers a non-PV node; any entry gives a move to try.
        let hash = state.hash();
        let mut tt_move = None;
        if let Some(tt) = self.tt.as_deref() {
            self.stats.tt_probes += 1;
            if let Some(entry) = tt.probe(hash, depth, self.config.tt_exact_depth) {
                self.stats.tt_hits += 1;
                tt_move = entry.mv;
                let stored = u32::from(entry.depth);
                let deep_enough = if self.config.tt_exact_depth {
                    stored == depth
                } else {
                    stored >= depth
                };
                if deep_enough && !pv_node {
                    let score = entry.score(ply as u32);
                    let cuts = match entry.bound {
                        Some(Bound::Exact) => true,
                        Some(Bound::Lower) => score >= beta,
                        Some(Bound::Upper) => score <= alpha,
                        None => false,
                    };
                    if cuts {
                        self.stats.tt_cutoffs += 1;
                        return score;
                    }
                }
            }
        }
        if ply == 0 && !self.best_line.is_empty() {
            // The previous iteration's best move goes first at the root.
            tt_move = Some(self.best_line[0]);
        }

        // 4. Generate and order the moves.
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        moves.clear();
        state.generate_moves(&mut moves);
        let hints = OrderingHints {
            tt_move,
            killers: if self.config.killers {
                self.killers.at(ply)
            } else {
                [None; 2]
            },
            history: self.config.history.then_some(&*self.history),
        };
        let mut picker = MovePicker::new(state, &moves, &mut scores, &hints);

        // 5. Search them: the first with the full window, the rest with a null window first.
        let alpha_start = alpha;
        let mut best = -Score::INFINITY;
        let mut best_move = None;
        while let Some(mv) = picker.next(&mut moves, &mut scores) {
            if self.watch.should_stop(self.stats.nodes) {
                self.aborted = true;
                break;
            }
            let child = state.play(mv);
            self.stats.nodes += 1;
            let same_side = child.side_to_move() == state.side_to_move();
            let first = picker.picked() == 1;
            let value = if first || !self.config.pvs {
                self.child_value(&child, same_side, depth - 1, ply + 1, alpha, beta)
            } else {
                let null_beta = Score::from_raw(alpha.raw() + 1);
                let value =
                    self.child_value(&child, same_side, depth - 1, ply + 1, alpha, null_beta);
                if value > alpha && value < beta && !self.aborted {
                    self.child_value(&child, same_side, depth - 1, ply + 1, alpha, beta)
                } else {
                    value
                }
            };
            if self.aborted {
                break;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(mv);
                    alpha = value;
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
        if self.aborted {
            return best;
        }

        // 6. Remember the result: fail-soft bounds say which side of the window it fell on.
        if let Some(tt) = self.tt.as_deref_mut() {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_start {
                Bound::Exact
            } else {
                Bound::Upper
            };
            tt.store(hash, ply as u32, depth, bound, best, best_move);
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
        if state.classify(mv) == MoveClass::Quiet {
            if self.config.killers {
                self.killers.record(ply, mv);
            }
            if self.config.history {
                self.history
                    .reward(state.side_to_move(), state.move_index(mv), depth);
            }
        }
    }
}

impl<G: Game, E: Evaluator<G>> DepthSearch<G::Move> for Run<'_, G, E> {
    fn search_depth(&mut self, depth: u32) -> Option<Score> {
        let score = self.search(self.root, depth, 0, -Score::INFINITY, Score::INFINITY);
        if self.aborted {
            return None;
        }
        self.best_line.clone_from(&self.pv[0]);
        Some(score)
    }

    fn pv(&self) -> &[G::Move] {
        &self.best_line
    }

    fn stats(&self) -> SearchStats {
        let mut stats = self.stats.clone();
        stats.elapsed = self.watch.start().elapsed();
        stats.tt_fill = self.tt.as_deref().map_or(0.0, TranspositionTable::fill);
        stats
    }

    fn watch(&self) -> &LimitWatch {
        &self.watch
    }
}

impl<G: Game, E: Evaluator<G>> Searcher<G> for Pvs<G, E> {
    fn name(&self) -> String {
        self.config.name()
    }

    fn search_with(
        &mut self,
        state: &G,
        limits: &SearchLimits,
        on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        let watch = LimitWatch::new(limits);
        if let Some(outcome) = state.outcome() {
            return SearchResult {
                best_move: None,
                score: Score::terminal(outcome, state.side_to_move(), 0),
                pv: Vec::new(),
                depth: 0,
                stats: SearchStats::default(),
            };
        }
        // Prepare the tables: a new generation, aged history, fresh killers.
        if let Some(tt) = self.tt.as_mut() {
            tt.new_search();
        }
        let bound = state.move_index_bound();
        if self.history.bound() != bound {
            self.history = History::new(bound);
        }
        self.history.age();
        self.killers.clear();

        let (first, last) = match (limits.depth, self.config.iterative_deepening) {
            (Some(depth), true) => (1, depth.clamp(1, MAX_DEPTH)),
            (Some(depth), false) => (depth.clamp(1, MAX_DEPTH), depth.clamp(1, MAX_DEPTH)),
            (None, true) => (1, MAX_DEPTH),
            (None, false) => (SearchLimits::DEFAULT_DEPTH, SearchLimits::DEFAULT_DEPTH),
        };
        let plies = last as usize + 2;
        let mut run = Run {
            root: state,
            evaluator: &self.evaluator,
            config: self.config,
            tt: self.tt.as_mut(),
            killers: &mut self.killers,
            history: &mut self.history,
            watch,
            stats: SearchStats::default(),
            moves: (0..plies).map(|_| Vec::with_capacity(64)).collect(),
            scores: (0..plies).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..plies).map(|_| Vec::with_capacity(plies)).collect(),
            best_line: Vec::with_capacity(plies),
            aborted: false,
        };
        let stop_when_proven = limits.depth.is_none();
        let completed = deepen(&mut run, first, last, stop_when_proven, on_iteration);
        let mut stats = run.stats();
        match completed {
            Some(iteration) => {
                stats.nodes_per_depth = iteration.stats.nodes_per_depth;
                SearchResult {
                    best_move: iteration.pv.first().copied(),
                    score: iteration.score,
                    pv: iteration.pv,
                    depth: iteration.depth,
                    stats,
                }
            }
            None => {
                // Not even one iteration finished: any legal move beats none.
                let mut moves = Vec::new();
                state.generate_moves(&mut moves);
                SearchResult {
                    best_move: moves.first().copied(),
                    score: self.evaluator.evaluate(state),
                    pv: Vec::new(),
                    depth: 0,
                    stats,
                }
            }
        }
    }

    fn clear(&mut self) {
        if let Some(tt) = self.tt.as_mut() {
            tt.clear();
        }
        self.history.clear();
        self.killers.clear();
    }
}
