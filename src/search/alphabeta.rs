//! Plain alpha-beta (negamax form, fail-soft) to a fixed depth: moves in generation order, no
//! tables, no ordering. The simplest pruning searcher, and the first one checked against
//! [`crate::search::Minimax`].
//!
//! Key invariant: the root value equals plain minimax's at the same depth, and the best move is
//! one of minimax's best moves. Fail-soft: a node searched with window `(alpha, beta)` returns `v`
//! with `v <= alpha` ⇒ true value `<= v`, `v >= beta` ⇒ true value `>= v`, otherwise `v` is the
//! true value. A child with the *same* side to move (an extra turn) is searched with the window
//! unchanged and its value is not negated; otherwise the window becomes `(-beta, -alpha)` and the
//! value is negated. Nodes are counted exactly as [`crate::search::Minimax`] counts them (one per
//! [`Game::play`]), so alpha-beta's count is never above minimax's.
//! Positions the game's repetition rule ends (history from [`GameHistory`]) are
//! finished positions, as for minimax.

use crate::eval::{Evaluator, Score};
use crate::game::{Game, GameHistory};
use crate::search::limits::LimitWatch;
use crate::search::limits::SearchLimits;
use crate::search::repetition::Repetitions;
use crate::search::searcher::{Iteration, SearchResult, Searcher};
use crate::search::stack::{Frame, frames, record_pv};
use crate::search::stats::SearchStats;

/// Fixed-depth fail-soft alpha-beta ([`SearchLimits::depth`], default
/// [`SearchLimits::DEFAULT_DEPTH`]). Node and time limits and the stop flag end it early with the
/// best root move finished so far (reported with depth 0).
pub struct AlphaBeta<E> {
    evaluator: E,
}

impl<E> AlphaBeta<E> {
    /// An alpha-beta searcher scoring leaves with `evaluator`.
    pub fn new(evaluator: E) -> AlphaBeta<E> {
        AlphaBeta { evaluator }
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }
}

/// The state of one search: per-ply buffers allocated once at the start.
struct AlphaBetaSearch<'a, G: Game, E> {
    evaluator: &'a E,
    watch: LimitWatch,
    stats: SearchStats,
    /// One frame per ply (its move buffer and its line of the triangular PV), reused.
    stack: Vec<Frame<G::Move>>,
    /// The history and the current line, for a game with a repetition rule.
    repetitions: Option<Repetitions>,
    aborted: bool,
}

impl<'a, G: Game, E: Evaluator<G>> AlphaBetaSearch<'a, G, E> {
    fn new(evaluator: &'a E, limits: &SearchLimits, root: &G, history: &[u64], depth: u32) -> Self {
        let plies = depth as usize + 2;
        AlphaBetaSearch {
            repetitions: Repetitions::new(root, history, plies),
            evaluator,
            watch: LimitWatch::new(limits),
            stats: SearchStats::default(),
            stack: frames(plies),
            aborted: false,
        }
    }

    /// The fail-soft alpha-beta value of `state` for its side to move, `depth` plies deep,
    /// `ply` plies below the root. Fills the PV of its frame when the value is inside the window.
    fn value(&mut self, state: &G, depth: u32, ply: usize, mut alpha: Score, beta: Score) -> Score {
        self.stack[ply].pv.clear();
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
        if let Some(outcome) = state.outcome() {
            self.stats.leaves += 1;
            return Score::terminal(outcome, state.side_to_move(), ply as u32);
        }
        if depth == 0 {
            self.stats.leaves += 1;
            return self.evaluator.evaluate(state);
        }
        let mut buffers = std::mem::take(&mut self.stack[ply].buffers);
        let moves = &mut buffers.moves;
        moves.clear();
        state.generate_moves(moves);
        let mut best = -Score::INFINITY;
        for (i, &mv) in moves.iter().enumerate() {
            if self.watch.should_stop(self.stats.nodes) {
                self.aborted = true;
                break;
            }
            let child = state.play(mv);
            self.stats.nodes += 1;
            let repeated = self
                .repetitions
                .as_mut()
                .and_then(|repetitions| repetitions.outcome(&child, state.side_to_move(), ply + 1));
            let value = if let Some(outcome) = repeated {
                // The repetition rule ends the game here: a finished position.
                self.stack[ply + 1].pv.clear();
                self.stats.seldepth = self.stats.seldepth.max(ply as u32 + 1);
                self.stats.leaves += 1;
                let value = Score::terminal(outcome, child.side_to_move(), ply as u32 + 1);
                if child.side_to_move() == state.side_to_move() {
                    value
                } else {
                    -value
                }
            } else if child.side_to_move() == state.side_to_move() {
                self.value(&child, depth - 1, ply + 1, alpha, beta)
            } else {
                -self.value(&child, depth - 1, ply + 1, -beta, -alpha)
            };
            if self.aborted {
                break;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    record_pv(&mut self.stack, ply, mv);
                    if value >= beta {
                        self.stats.cutoffs += 1;
                        if i == 0 {
                            self.stats.first_move_cutoffs += 1;
                        }
                        break;
                    }
                }
            }
        }
        self.stack[ply].buffers = buffers;
        best
    }
}

impl<G: Game, E: Evaluator<G>> Searcher<G> for AlphaBeta<E> {
    fn name(&self) -> String {
        "alphabeta".to_string()
    }

    fn search_with(
        &mut self,
        state: &G,
        history: &GameHistory,
        limits: &SearchLimits,
        on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        let depth = limits.depth.unwrap_or(SearchLimits::DEFAULT_DEPTH).max(1);
        let mut run = AlphaBetaSearch::<G, E>::new(
            &self.evaluator,
            limits,
            state,
            history.before(state),
            depth,
        );
        let score = run.value(state, depth, 0, -Score::INFINITY, Score::INFINITY);
        let mut stats = run.stats;
        stats.elapsed = run.watch.start().elapsed();
        let pv = std::mem::take(&mut run.stack[0].pv);
        if !run.aborted {
            stats.nodes_per_depth = vec![0; depth as usize - 1];
            stats.nodes_per_depth.push(stats.nodes);
            on_iteration(&Iteration {
                depth,
                seldepth: stats.seldepth,
                score,
                pv: pv.clone(),
                more_lines: Vec::new(),
                stats: stats.clone(),
            });
        }
        let best_move = pv.first().copied().or_else(|| {
            // Stopped before any root move finished: any legal move beats none.
            let mut moves = Vec::new();
            state.generate_moves(&mut moves);
            moves.first().copied()
        });
        let score = if state.outcome().is_none() && pv.is_empty() {
            -Score::INFINITY
        } else {
            score
        };
        SearchResult {
            best_move,
            score,
            pv,
            depth: if run.aborted { 0 } else { depth },
            stats,
        }
    }
}
