//! Endgame tables checked three ways, for any game with tables ([`crate::solve`]): against
//! their own successors ([`check_table_successors`]), against a search that does not use them
//! ([`check_table_against_search`]: the tables as an oracle for positions deeper than plain
//! minimax reaches), and by play ([`check_table_conversion`]).
//!
//! Key invariant: each check compares the tables with something computed without them (the
//! rules' moves and outcomes, or a value-exact search), and an error names the position (in the
//! game's notation) and both values.

use std::sync::Arc;

use crate::eval::Score;
use crate::game::{Game, GameHistory, Side};
use crate::notation::Notation;
use crate::search::{SearchLimits, Searcher, SearcherError};
use crate::solve::{Probe, TableValue};

/// Why a check of endgame tables failed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TableCheckError {
    /// A position whose value in the tables disagrees with what was computed without them.
    Disagrees {
        /// The position, in the game's notation.
        position: String,
        /// Both values, or what happened in play.
        found: String,
    },
    /// The searcher refused the tables.
    Searcher(SearcherError),
}

impl TableCheckError {
    fn disagrees<G: Notation>(state: &G, found: String) -> TableCheckError {
        TableCheckError::Disagrees {
            position: state.format_position(),
            found,
        }
    }
}

impl std::fmt::Display for TableCheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableCheckError::Disagrees { position, found } => write!(f, "{position}: {found}"),
            TableCheckError::Searcher(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TableCheckError {}

/// The value a move to `next` has for the side that made it (`mover`): the table's or the
/// finished game's value, turned over unless the mover moves again, one ply further away.
/// `None` when `next` is neither finished nor held.
fn through<G: Game>(tables: &dyn Probe<G>, next: &G, mover: Side) -> Option<TableValue> {
    let value = match next.outcome() {
        Some(outcome) => match outcome.winner() {
            Some(side) if side == next.side_to_move() => TableValue::Win(0),
            Some(_) => TableValue::Loss(0),
            None => TableValue::Draw,
        },
        None => tables.probe(next)?,
    };
    let same = next.side_to_move() == mover;
    Some(match (value, same) {
        (TableValue::Win(d), true) | (TableValue::Loss(d), false) => TableValue::Win(d + 1),
        (TableValue::Loss(d), true) | (TableValue::Win(d), false) => TableValue::Loss(d + 1),
        (TableValue::Won, true) | (TableValue::Lost, false) => TableValue::Won,
        (TableValue::Lost, true) | (TableValue::Won, false) => TableValue::Lost,
        (TableValue::Draw, _) => TableValue::Draw,
    })
}

/// Checks that each of `positions` the tables hold agrees with its successors: a win in `d` has
/// a move to a position lost in `d - 1` for the opponent and none to a shorter win; every move
/// of a loss in `d` leads to a win for the opponent, the longest in `d - 1`; a draw has a move
/// to a draw and none to a loss for the opponent. Every successor must be finished or held by
/// the tables. Returns how many positions were checked.
///
/// # Errors
/// The first position that disagrees, with its value and what its moves give.
pub fn check_table_successors<G: Notation>(
    tables: &dyn Probe<G>,
    positions: &[G],
) -> Result<usize, TableCheckError> {
    let mut checked = 0;
    let mut moves = Vec::new();
    for state in positions {
        if state.outcome().is_some() {
            continue;
        }
        let Some(value) = tables.probe(state) else {
            continue;
        };
        moves.clear();
        state.generate_moves(&mut moves);
        let mover = state.side_to_move();
        let mut best_win = None::<u32>;
        let mut longest_loss = None::<u32>;
        let mut draws = 0;
        // Wins and losses of unknown length (win/draw/loss tables).
        let (mut some_win, mut some_loss) = (false, false);
        for &mv in &moves {
            let next = state.play(mv);
            match through(tables, &next, mover) {
                Some(TableValue::Win(d)) => best_win = Some(best_win.map_or(d, |b| b.min(d))),
                Some(TableValue::Loss(d)) => {
                    longest_loss = Some(longest_loss.map_or(d, |b| b.max(d)));
                }
                Some(TableValue::Draw) => draws += 1,
                Some(TableValue::Won) => some_win = true,
                Some(TableValue::Lost) => some_loss = true,
                None => {
                    return Err(TableCheckError::disagrees(
                        state,
                        format!(
                            "the move {} leads to {}, which the tables do not hold",
                            state.format_move(mv),
                            next.format_position()
                        ),
                    ));
                }
            }
        }
        let agrees = match value {
            TableValue::Win(d) => best_win == Some(d),
            TableValue::Loss(d) => best_win.is_none() && draws == 0 && longest_loss == Some(d),
            TableValue::Draw => best_win.is_none() && !some_win && draws > 0,
            TableValue::Won => best_win.is_some() || some_win,
            TableValue::Lost => best_win.is_none() && !some_win && draws == 0,
        };
        let agrees = agrees
            && match value {
                // A win or loss of known length has no successor of unknown length deciding
                // it otherwise: a win of unknown length is not shorter, a loss is not longer.
                TableValue::Win(_) => !some_win,
                TableValue::Loss(_) => !some_loss,
                _ => true,
            };
        if !agrees {
            return Err(TableCheckError::disagrees(
                state,
                format!(
                    "the tables say {value:?}; its moves give the best win {best_win:?}, the \
                     longest loss {longest_loss:?} and {draws} draws"
                ),
            ));
        }
        checked += 1;
    }
    Ok(checked)
}

/// What [`check_table_against_search`] compared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableCheck {
    /// Wins and losses searched to their distance, found exactly.
    pub decided: usize,
    /// Draws and longer distances, searched to the horizon and found undecided there.
    pub beyond: usize,
}

/// Checks the tables' values of `positions` with `searcher`, which must be value-exact (the top
/// rung of [`crate::search::PvsConfig::consistency_ladder`], proven equal to plain minimax by
/// [`crate::harness::check_consistency`]) and must not use the tables. A win or loss in `d`
/// plies, `d <= horizon`, must be exactly that score at depth `d`; a draw or a longer distance
/// must be undecided at depth `horizon`; a win or loss of unknown length must not be found the
/// other way round. Positions the tables do not hold, or finished, are
/// skipped.
///
/// # Errors
/// The first position whose search disagrees, with both values.
pub fn check_table_against_search<G: Notation>(
    tables: &dyn Probe<G>,
    positions: &[G],
    searcher: &mut dyn Searcher<G>,
    horizon: u32,
) -> Result<TableCheck, TableCheckError> {
    let mut check = TableCheck::default();
    for state in positions {
        if state.outcome().is_some() {
            continue;
        }
        let Some(value) = tables.probe(state) else {
            continue;
        };
        let (depth, expected) = match value {
            TableValue::Win(d) if d <= horizon => (d, Some(Score::win_in(d))),
            TableValue::Loss(d) if d <= horizon => (d, Some(Score::loss_in(d))),
            _ => (horizon, None),
        };
        searcher.clear();
        let result = searcher.search(state, &SearchLimits::depth(depth.max(1)));
        let agrees = match (expected, value) {
            (Some(score), _) => result.score == score,
            // A win or loss of unknown length: not the other one at the horizon.
            (None, TableValue::Won) => !result.score.is_loss(),
            (None, TableValue::Lost) => !result.score.is_win(),
            (None, _) => !result.score.is_win() && !result.score.is_loss(),
        };
        if !agrees {
            return Err(TableCheckError::disagrees(
                state,
                format!(
                    "the tables say {value:?}; a search to depth {} says {}",
                    depth.max(1),
                    result.score
                ),
            ));
        }
        match expected {
            Some(_) => check.decided += 1,
            None => check.beyond += 1,
        }
    }
    Ok(check)
}

/// Plays each of `positions` that the tables call a win out with `searcher` on both sides,
/// given the tables, within `limits` a move: the game must end in a win for the side to move
/// at the start, in exactly the tables' distance. Returns how many were played.
///
/// # Errors
/// The first position not converted exactly, with what happened.
pub fn check_table_conversion<G: Notation>(
    tables: Arc<dyn Probe<G>>,
    positions: &[G],
    searcher: &mut dyn Searcher<G>,
    limits: &SearchLimits,
) -> Result<usize, TableCheckError> {
    searcher
        .set_endgame_tables(Some(Arc::clone(&tables)))
        .map_err(TableCheckError::Searcher)?;
    let mut played = 0;
    for start in positions {
        if start.outcome().is_some() {
            continue;
        }
        let Some(TableValue::Win(distance)) = tables.probe(start) else {
            continue;
        };
        searcher.clear();
        let winner = start.side_to_move();
        let mut state = start.clone();
        let mut history = GameHistory::new(&state);
        let mut plies = 0;
        while state.outcome().is_none() && plies < distance {
            let result = searcher.search_in(&state, &history, limits);
            let Some(mv) = result.best_move else {
                return Err(TableCheckError::disagrees(&state, "no move".to_string()));
            };
            let mover = state.side_to_move();
            state = state.play(mv);
            history.play(mover, &state);
            plies += 1;
        }
        if state.outcome().and_then(|o| o.winner()) != Some(winner) || plies != distance {
            return Err(TableCheckError::disagrees(
                start,
                format!(
                    "a win in {distance} by the tables; play reached {} after {plies} plies \
                     ({:?})",
                    state.format_position(),
                    state.outcome()
                ),
            ));
        }
        played += 1;
    }
    Ok(played)
}
