//! Plain minimax (in negamax form): no pruning, no tables, no ordering. The reference every
//! other searcher is checked against by [`crate::harness::consistency`].
//!
//! Key invariant: the value of a position is the best over its moves of the child's value, negated
//! exactly when the child has the other side to move; finished positions score
//! [`Score::terminal`] at their ply, depth-0 positions the evaluator's value. Nothing else.
//! A position that the game's repetition rule ends (given the history in
//! [`GameHistory`] and the line searched, see [`crate::search::repetition`]) is a
//! finished position, in quiescence too.
//!
//! # With quiescence ([`Minimax::with_quiescence`])
//! The same, except that a depth-0 position that is not finished gets its *quiescence value*
//! `q(s, 0)` instead of the evaluator's value, where, for a position `s` that is `k` plies below
//! the horizon and `ply` plies below the root:
//! - `s` finished: [`Score::terminal`] at `ply` (as everywhere);
//! - `k == QUIESCENCE_PLIES`: the evaluator's value `e(s)`;
//! - `k < QUIESCENCE_EVASION_PLIES` and the game names the answers to a threat
//!   ([`Game::generate_evasions`] returns `true`): the maximum of `loss_in(ply + 2)` (every
//!   other move lets the opponent win) and, over every answer `m`, `q(s.play(m), k + 1)` seen
//!   from `s`'s side to move: no standing pat on a threat;
//! - otherwise: the maximum of `e(s)` ("stand pat": the side to move may decline every noisy
//!   move) and, over every noisy move `m` of [`Game::generate_noisy_moves`] (captures and
//!   immediate wins) and, at `k == 0` only, every threat move of
//!   [`Game::generate_threat_moves`], `q(s.play(m), k + 1)` seen from `s`'s side to move
//!   (negated exactly when the side changes).
//!
//! Plain full width, no pruning: `PvsConfig::quiescence_ladder` must equal this value exactly.
//! The cap [`QUIESCENCE_PLIES`] only matters in games whose noisy moves can go on for ever; in
//! Onitama every noisy move captures or wins, so sequences end well before it.

use std::time::Instant;

use crate::eval::{Evaluator, Score};
use crate::game::{Game, GameHistory};
use crate::search::limits::SearchLimits;
use crate::search::repetition::Repetitions;
use crate::search::searcher::{Iteration, Pv, SearchResult, Searcher};
use crate::search::stats::SearchStats;

/// The value of `child` seen from the side to move in `parent`.
#[inline]
pub(crate) fn from_parent_view<G: Game>(parent: &G, child: &G, child_value: Score) -> Score {
    if child.side_to_move() == parent.side_to_move() {
        child_value
    } else {
        -child_value
    }
}

/// Plain minimax to a fixed depth ([`SearchLimits::depth`], default
/// [`SearchLimits::DEFAULT_DEPTH`]). Node and time limits and the stop flag end it early with the
/// best of the root moves finished so far.
pub struct Minimax<E> {
    evaluator: E,
    quiescence: bool,
}

pub use crate::search::stack::{QUIESCENCE_EVASION_PLIES, QUIESCENCE_PLIES};

struct MinimaxSearch<'a, G: Game, E> {
    evaluator: &'a E,
    quiescence: bool,
    limits: &'a SearchLimits,
    start: Instant,
    stats: SearchStats,
    /// One move buffer per ply, reused.
    buffers: Vec<Vec<G::Move>>,
    /// Triangular principal-variation table: `pv[ply]` is the best line from that ply.
    pv: Vec<Pv<G::Move>>,
    /// The history and the current line, for a game with a repetition rule.
    repetitions: Option<Repetitions>,
    aborted: bool,
}

impl<E> Minimax<E> {
    /// A minimax searcher scoring leaves with `evaluator`.
    pub fn new(evaluator: E) -> Minimax<E> {
        Minimax {
            evaluator,
            quiescence: false,
        }
    }

    /// Minimax whose horizon positions get their quiescence value (see the module docs): the
    /// reference for [`crate::search::PvsConfig::quiescence_ladder`].
    pub fn with_quiescence(evaluator: E) -> Minimax<E> {
        Minimax {
            evaluator,
            quiescence: true,
        }
    }

    /// Does this searcher run quiescence at the horizon?
    pub fn has_quiescence(&self) -> bool {
        self.quiescence
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }
}

impl<E> Minimax<E> {
    /// The exact minimax value of every root move at `depth` plies (the root move included), from
    /// the root side's view, in generation order. The harness uses it to tell which moves are
    /// "best". Empty if the game is over.
    pub fn root_values<G: Game>(&self, state: &G, depth: u32) -> Vec<(G::Move, Score)>
    where
        E: Evaluator<G>,
    {
        self.root_values_in(state, &GameHistory::default(), depth)
    }

    /// [`Minimax::root_values`] of `state` in the game `history` (see
    /// [`crate::search::Searcher::search_with`]): repetitions count from the game's start.
    pub fn root_values_in<G: Game>(
        &self,
        state: &G,
        history: &GameHistory,
        depth: u32,
    ) -> Vec<(G::Move, Score)>
    where
        E: Evaluator<G>,
    {
        let limits = SearchLimits::depth(depth);
        let mut run = MinimaxSearch::<G, E>::new(
            &self.evaluator,
            self.quiescence,
            &limits,
            (state, history),
            depth,
        );
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        moves
            .into_iter()
            .map(|mv| {
                let child = state.play(mv);
                let value = run.child_value(state, &child, depth.saturating_sub(1), 1);
                (mv, value)
            })
            .collect()
    }
}

impl<'a, G: Game, E: Evaluator<G>> MinimaxSearch<'a, G, E> {
    fn new(
        evaluator: &'a E,
        quiescence: bool,
        limits: &'a SearchLimits,
        (root, history): (&G, &GameHistory),
        depth: u32,
    ) -> Self {
        let plies = depth as usize + QUIESCENCE_PLIES as usize + 2;
        MinimaxSearch {
            repetitions: Repetitions::new(root, history.before(root), plies),
            evaluator,
            quiescence,
            limits,
            start: Instant::now(),
            stats: SearchStats::default(),
            buffers: (0..plies).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..plies).map(|_| Pv::with_capacity(plies)).collect(),
            aborted: false,
        }
    }

    /// The value of `child` (a child of `state`, `ply` plies below the root) from `state`'s
    /// view: a position its repetition ends is finished, any other is searched `depth` more
    /// plies.
    fn child_value(&mut self, state: &G, child: &G, depth: u32, ply: usize) -> Score {
        if let Some(repetitions) = self.repetitions.as_mut()
            && let Some(outcome) = repetitions.outcome(child, state.side_to_move(), ply)
        {
            self.pv[ply].clear();
            self.stats.seldepth = self.stats.seldepth.max(ply as u32);
            self.stats.leaves += 1;
            let value = Score::terminal(outcome, child.side_to_move(), ply as u32);
            return from_parent_view(state, child, value);
        }
        from_parent_view(state, child, self.value(child, depth, ply))
    }

    /// The minimax value of `state` (side to move's view) searched `depth` more plies, `ply`
    /// plies below the root. Fills `self.pv[ply]`.
    fn value(&mut self, state: &G, depth: u32, ply: usize) -> Score {
        self.pv[ply].clear();
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
        if let Some(outcome) = state.outcome() {
            self.stats.leaves += 1;
            return Score::terminal(outcome, state.side_to_move(), ply as u32);
        }
        if depth == 0 {
            if self.quiescence {
                return self.quiescence_value(state, 0, ply);
            }
            self.stats.leaves += 1;
            return self.evaluator.evaluate(state);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        state.generate_moves(&mut moves);
        let mut best = -Score::INFINITY;
        for &mv in &moves {
            if self.limits.is_exceeded(self.start, self.stats.nodes) {
                self.aborted = true;
                break;
            }
            let child = state.play(mv);
            self.stats.nodes += 1;
            let value = self.child_value(state, &child, depth - 1, ply + 1);
            if value > best {
                best = value;
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(mv);
                head[ply].extend_from_slice(&tail[0]);
            }
        }
        self.buffers[ply] = moves;
        best
    }
}

impl<G: Game, E: Evaluator<G>> MinimaxSearch<'_, G, E> {
    /// `q(state, k)` of the module docs, `ply` plies below the root.
    fn quiescence_value(&mut self, state: &G, k: u32, ply: usize) -> Score {
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
        self.stats.leaves += 1;
        if let Some(outcome) = state.outcome() {
            return Score::terminal(outcome, state.side_to_move(), ply as u32);
        }
        if k >= QUIESCENCE_PLIES {
            return self.evaluator.evaluate(state);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        let mut best = if k < QUIESCENCE_EVASION_PLIES && state.generate_evasions(&mut moves) {
            Score::loss_in(ply as u32 + 2)
        } else {
            moves.clear();
            state.generate_noisy_moves(&mut moves);
            if k == 0 {
                state.generate_threat_moves(&mut moves);
            }
            self.evaluator.evaluate(state)
        };
        for &mv in &moves {
            if self.limits.is_exceeded(self.start, self.stats.nodes) {
                self.aborted = true;
                break;
            }
            let child = state.play(mv);
            self.stats.nodes += 1;
            self.stats.qnodes += 1;
            let repeated = self
                .repetitions
                .as_mut()
                .and_then(|repetitions| repetitions.outcome(&child, state.side_to_move(), ply + 1));
            let value = match repeated {
                Some(outcome) => {
                    self.stats.seldepth = self.stats.seldepth.max(ply as u32 + 1);
                    self.stats.leaves += 1;
                    Score::terminal(outcome, child.side_to_move(), ply as u32 + 1)
                }
                None => self.quiescence_value(&child, k + 1, ply + 1),
            };
            best = best.max(from_parent_view(state, &child, value));
        }
        self.buffers[ply] = moves;
        best
    }
}

impl<G: Game, E: Evaluator<G>> Searcher<G> for Minimax<E> {
    fn name(&self) -> String {
        if self.quiescence {
            "minimax+q".to_string()
        } else {
            "minimax".to_string()
        }
    }

    fn search_with(
        &mut self,
        state: &G,
        history: &GameHistory,
        limits: &SearchLimits,
        on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        let depth = limits.depth.unwrap_or(SearchLimits::DEFAULT_DEPTH).max(1);
        let mut run = MinimaxSearch::<G, E>::new(
            &self.evaluator,
            self.quiescence,
            limits,
            (state, history),
            depth,
        );
        let score = run.value(state, depth, 0);
        let mut stats = run.stats;
        stats.elapsed = run.start.elapsed();
        stats.nodes_per_depth = vec![0; depth as usize - 1];
        stats.nodes_per_depth.push(stats.nodes);
        let pv = std::mem::take(&mut run.pv[0]);
        let score = if state.outcome().is_some() {
            score
        } else if pv.is_empty() {
            -Score::INFINITY
        } else {
            score
        };
        let iteration = Iteration {
            depth,
            seldepth: stats.seldepth,
            score,
            pv: pv.clone(),
            more_lines: Vec::new(),
            stats: stats.clone(),
        };
        if !run.aborted {
            on_iteration(&iteration);
        }
        SearchResult {
            best_move: pv.first().copied(),
            score,
            pv,
            depth: if run.aborted { 0 } else { depth },
            stats,
        }
    }
}

#[cfg(test)]
mod tests;
