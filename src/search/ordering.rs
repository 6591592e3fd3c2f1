//! Move ordering: killer moves, the history heuristic and the staged [`MovePicker`] that hands
//! out a node's moves best-first, doing as little work as it can.
//!
//! Stages: (1) the transposition-table move, found by [`Game::move_from_index`] and searched
//! *before any move is generated* when the game supports the look-up; (2) the noisy moves
//! ([`Game::generate_noisy_moves`], the table move dropped), immediate wins first, then captures;
//! (3) only once those are searched, the quiet moves are generated
//! ([`Game::generate_quiet_moves`]): the two killers of the ply first, then the others by
//! history score, scored only when this stage is reached. Moves come out in the order of a stable
//! sort by descending score, so ties keep generation order: one selection step per pick for the
//! few noisy moves and killers, one binary insertion sort once only plain quiets are left.
//!
//! Key invariants: every legal move comes out exactly once, whatever the hints (an illegal killer
//! or table move is never produced; see the picker-perft tests), so ordering can change node
//! counts but never a search value; nothing here allocates after the tables are built (buffers
//! belong to the searcher's per-ply stack).

use crate::game::{Game, MoveClass};

use crate::search::heuristics::History;

/// Ordering score of an immediate win.
const WIN_SCORE: i32 = 1 << 30;
/// Ordering score of a capture.
const CAPTURE_SCORE: i32 = 1 << 29;
/// Ordering score of the first killer (the second gets one less).
const KILLER_SCORE: i32 = 1 << 28;
/// Scores below this are plain quiet moves whose history score is not applied yet.
const UNSCORED_QUIET: i32 = KILLER_SCORE - 2;

/// The stage a [`MovePicker`] is in.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Stage {
    /// Hand out the table move (if any) before generating.
    TableMove,
    /// Generate and score the noisy moves (the table move left out).
    Noisy,
    /// Hand out the noisy moves best-first.
    PickNoisy,
    /// Hand out the killers that [`Game::move_from_index`] confirms legal and quiet, before any
    /// quiet move is generated.
    Killers,
    /// Hand out the quiet moves (generated on entry) best-first.
    PickQuiet,
}

/// Hands out the moves of a node best-first in stages (see the module docs).
#[derive(Clone, Debug)]
pub struct MovePicker<M> {
    stage: Stage,
    tt_move: Option<M>,
    tt_index: Option<usize>,
    killers: [Option<M>; 2],
    /// Killers already handed out by the killer stage.
    killers_done: [Option<M>; 2],
    /// The next killer slot the killer stage looks at.
    killer_slot: usize,
    noisy_only: bool,
    /// Was the last move handed out a plain quiet (no table move, noisy move or killer)?
    last_plain: bool,
    next: usize,
    picked: usize,
    history_applied: bool,
    /// Are the moves from `next` on already in order (the plain quiets, once sorted)?
    sorted: bool,
}

impl<M: Copy + PartialEq> MovePicker<M> {
    /// A picker for a full-width node. `tt_move` is a move known legal here (e.g. the previous
    /// iteration's best root move); `tt_index` a table move index, which is a hint only (it is
    /// looked up with [`Game::move_from_index`] or matched against the generated moves);
    /// `killers` may be illegal here (they are then ignored).
    #[inline]
    #[must_use]
    pub fn new(tt_move: Option<M>, tt_index: Option<usize>, killers: [Option<M>; 2]) -> Self {
        MovePicker {
            stage: Stage::TableMove,
            tt_move,
            tt_index,
            killers,
            killers_done: [None; 2],
            killer_slot: 0,
            noisy_only: false,
            last_plain: false,
            next: 0,
            picked: 0,
            history_applied: false,
            sorted: false,
        }
    }

    /// A picker over the noisy moves only ([`Game::generate_noisy_moves`]), wins first, for
    /// quiescence search.
    #[cfg(test)]
    #[inline]
    #[must_use]
    pub fn noisy() -> Self {
        MovePicker {
            stage: Stage::Noisy,
            tt_move: None,
            tt_index: None,
            killers: [None; 2],
            killers_done: [None; 2],
            killer_slot: 0,
            noisy_only: true,
            last_plain: false,
            next: 0,
            picked: 0,
            history_applied: true,
            sorted: false,
        }
    }

    /// The next move, or `None` when all have been handed out. `moves` and `scores` are the
    /// node's buffers (cleared by the picker when it generates); `history` orders the quiets.
    #[inline]
    pub fn next<G: Game<Move = M>>(
        &mut self,
        state: &G,
        moves: &mut Vec<M>,
        scores: &mut Vec<i32>,
        history: Option<&History>,
    ) -> Option<M> {
        if self.stage == Stage::TableMove {
            self.stage = Stage::Noisy;
            if self.tt_move.is_none() {
                self.tt_move = self.tt_index.and_then(|index| state.move_from_index(index));
            }
            if let Some(mv) = self.tt_move {
                self.picked += 1;
                return Some(mv);
            }
        }
        if self.stage == Stage::Noisy {
            self.stage = Stage::PickNoisy;
            moves.clear();
            scores.clear();
            state.generate_noisy_moves(moves);
            self.score_new(state, moves, scores, 0);
        }
        if self.stage == Stage::PickNoisy {
            if let Some(mv) = self.pick(state, moves, scores, None) {
                return Some(mv);
            }
            if self.noisy_only {
                return None;
            }
            self.stage = Stage::Killers;
        }
        if self.stage == Stage::Killers {
            while self.killer_slot < 2 {
                let slot = self.killer_slot;
                self.killer_slot += 1;
                if let Some(killer) = self.killers[slot]
                    && Some(killer) != self.tt_move
                    && Some(killer) != self.killers_done[0]
                    && state.move_from_index(state.move_index(killer)) == Some(killer)
                    && state.classify(killer) == MoveClass::Quiet
                {
                    self.killers_done[slot] = Some(killer);
                    self.picked += 1;
                    return Some(killer);
                }
            }
            self.stage = Stage::PickQuiet;
            let start = moves.len();
            state.generate_quiet_moves(moves);
            self.score_new(state, moves, scores, start);
        }
        self.pick(state, moves, scores, history)
    }

    /// Scores `moves[start..]` (dropping the table move) into `scores`, which has `start` entries.
    #[inline]
    fn score_new<G: Game<Move = M>>(
        &mut self,
        state: &G,
        moves: &mut Vec<M>,
        scores: &mut Vec<i32>,
        start: usize,
    ) {
        // An unresolved table index (the game has no look-up) is matched here and goes first.
        let match_index = if self.tt_move.is_none() {
            self.tt_index
        } else {
            None
        };
        let quiet = self.stage == Stage::PickQuiet;
        let mut keep = start;
        for i in start..moves.len() {
            let mv = moves[i];
            if Some(mv) == self.tt_move
                || (quiet && (Some(mv) == self.killers_done[0] || Some(mv) == self.killers_done[1]))
            {
                continue;
            }
            let score = if match_index.is_some_and(|index| state.move_index(mv) == index) {
                i32::MAX
            } else if quiet {
                if Some(mv) == self.killers[0] {
                    KILLER_SCORE
                } else if Some(mv) == self.killers[1] {
                    KILLER_SCORE - 1
                } else {
                    0
                }
            } else if state.classify(mv) == MoveClass::Win {
                WIN_SCORE
            } else {
                CAPTURE_SCORE
            };
            moves[keep] = mv;
            scores.push(score);
            keep += 1;
        }
        moves.truncate(keep);
    }

    /// The next move best-first. Until the plain quiets are reached this is one step of a
    /// stable selection sort (the best score, the earliest of equals, rotated to the front);
    /// when only plain quiets are left, history scores are applied to them and they are sorted
    /// once, stably, by a binary insertion sort, after which each pick is a plain read. Both give
    /// the order of a stable sort by descending score, so the move order (and every node count)
    /// is the one the repeated selection gave, at far less work for nodes that search many
    /// quiets.
    #[inline(always)]
    fn pick<G: Game<Move = M>>(
        &mut self,
        state: &G,
        moves: &mut [M],
        scores: &mut [i32],
        history: Option<&History>,
    ) -> Option<M> {
        let start = self.next;
        if start >= moves.len() {
            return None;
        }
        if !self.sorted {
            let mut best = start;
            for i in start + 1..scores.len() {
                if scores[i] > scores[best] {
                    best = i;
                }
            }
            if scores[best] < UNSCORED_QUIET && !self.history_applied {
                // Only plain quiets are left: score them by history and sort them once.
                self.history_applied = true;
                self.sorted = true;
                if let Some(history) = history {
                    let side = state.side_to_move();
                    for i in start..moves.len() {
                        scores[i] = history.score(side, state.move_index(moves[i]));
                    }
                    stable_sort_descending(&mut moves[start..], &mut scores[start..]);
                }
            } else if best != start {
                let (mv, score) = (moves[best], scores[best]);
                for i in (start..best).rev() {
                    moves[i + 1] = moves[i];
                    scores[i + 1] = scores[i];
                }
                moves[start] = mv;
                scores[start] = score;
            }
        }
        self.last_plain = self.stage == Stage::PickQuiet && scores[start] < UNSCORED_QUIET;
        self.next += 1;
        self.picked += 1;
        Some(moves[start])
    }

    /// Was the last move handed out a plain quiet move (not the table move, not noisy, not a
    /// killer)? Late-move reductions only reduce those.
    #[inline]
    #[must_use]
    pub fn last_was_plain_quiet(&self) -> bool {
        self.last_plain
    }

    /// How many moves have been handed out.
    #[inline]
    #[must_use]
    pub fn picked(&self) -> usize {
        self.picked
    }
}

/// Sorts `moves` and `scores` (same length) together by descending score, keeping the order of
/// equal scores (binary insertion sort: few comparisons, moves of a few bytes each; no
/// allocation).
#[inline]
fn stable_sort_descending<M: Copy>(moves: &mut [M], scores: &mut [i32]) {
    for i in 1..scores.len() {
        let (mv, score) = (moves[i], scores[i]);
        if scores[i - 1] >= score {
            continue;
        }
        // The first position whose score is below `score` (equal scores stay in front).
        let at = scores[..i].partition_point(|&s| s >= score);
        for j in (at..i).rev() {
            moves[j + 1] = moves[j];
            scores[j + 1] = scores[j];
        }
        moves[at] = mv;
        scores[at] = score;
    }
}

#[cfg(test)]
mod tests;
