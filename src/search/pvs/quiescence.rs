//! Quiescence search of [`super::Pvs`]: at the horizon, the side to move may stand pat on the
//! evaluation or play noisy moves (captures and immediate wins, and at the first ply threat
//! moves) until the position is quiet; a side facing a threat the game names the answers to
//! plays those instead of standing pat.
//!
//! Key invariant: the same tree and values as [`crate::search::Minimax::with_quiescence`]
//! (fail-soft alpha-beta over it, no table, killers or history), so the quiescence ladder stays
//! value-exact; a node with an immediate win returns `win_in(ply + 1)` without playing it, the
//! value that win has anyway.

use super::thread::ThreadSearch;
use crate::eval::{Evaluator, Score};
use crate::game::{Game, MoveClass};
use crate::search::stack::{QUIESCENCE_EVASION_PLIES, QUIESCENCE_PLIES};

impl<G: Game, E: Evaluator<G>> ThreadSearch<'_, G, E> {
    /// Quiescence: the fail-soft value of `state` when only noisy moves (and at `qply` 0 threat
    /// moves) are searched and the side to move may stand pat on the evaluation, unless it must
    /// answer a threat ([`Game::generate_evasions`]); `qply` plies below the horizon (at
    /// [`QUIESCENCE_PLIES`] the evaluation is final). The same tree as
    /// [`crate::search::Minimax::with_quiescence`].
    pub(super) fn quiesce(
        &mut self,
        state: &G,
        qply: u32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        self.reach(ply);
        if let Some(outcome) = state.outcome() {
            self.stats.leaves += 1;
            return Score::terminal(outcome, state.side_to_move(), ply as u32);
        }
        self.stats.leaves += 1;
        if qply >= QUIESCENCE_PLIES {
            return self.evaluator.evaluate(state);
        }
        let mut moves = std::mem::take(&mut self.stack[ply].buffers.moves);
        moves.clear();
        let best_without = if qply < QUIESCENCE_EVASION_PLIES && state.generate_evasions(&mut moves)
        {
            // No standing pat on a threat: every move left out loses two plies later.
            Score::loss_in(ply as u32 + 2)
        } else {
            moves.clear();
            let stand_pat = self.evaluator.evaluate(state);
            if stand_pat >= beta {
                self.stack[ply].buffers.moves = moves;
                return stand_pat;
            }
            state.generate_noisy_moves(&mut moves);
            if qply == 0 {
                state.generate_threat_moves(&mut moves);
            }
            stand_pat
        };
        let mut best = best_without;
        if best >= beta {
            self.stack[ply].buffers.moves = moves;
            return best;
        }
        if best > alpha {
            alpha = best;
        }
        // An immediate win is worth `win_in(ply + 1)` whichever it is, the most any move can
        // be worth here: the value is known without playing it.
        if moves.iter().any(|&mv| state.classify(mv) == MoveClass::Win) {
            self.stack[ply].buffers.moves = moves;
            return Score::win_in(ply as u32 + 1);
        }
        let side = state.side_to_move();
        for &mv in &moves {
            if self.watch.should_stop(self.stats.nodes) {
                self.aborted = true;
                break;
            }
            let child = state.play(mv);
            self.stats.nodes += 1;
            self.stats.qnodes += 1;
            let repeated = match self.repetitions.as_mut() {
                Some(repetitions) => repetitions.outcome(&child, side, ply + 1),
                None => None,
            };
            let value = if let Some(outcome) = repeated {
                // The repetition rule ends the game here: a finished position.
                self.reach(ply + 1);
                self.stats.leaves += 1;
                let value = Score::terminal(outcome, child.side_to_move(), ply as u32 + 1);
                if child.side_to_move() == side {
                    value
                } else {
                    -value
                }
            } else if child.side_to_move() == side {
                self.quiesce(&child, qply + 1, ply + 1, alpha, beta)
            } else {
                -self.quiesce(&child, qply + 1, ply + 1, -beta, -alpha)
            };
            if self.aborted {
                break;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        self.stack[ply].buffers.moves = moves;
        best
    }
}
