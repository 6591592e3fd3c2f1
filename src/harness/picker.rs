//! Picker perft: walks a game tree through the searchers' staged move picker instead of
//! [`Game::generate_moves`](crate::Game::generate_moves), with table-move indices, killers and history hints that are
//! sometimes legal and sometimes garbage, and counts the leaves. Its totals must equal plain
//! perft's, which proves the game's optional speed hints (`generate_noisy_moves` /
//! `generate_quiet_moves`, `move_from_index`, `classify`) hand the searchers every legal move
//! exactly once, whatever hints the search passes.
//!
//! Key invariant: the hints are derived from the `salt` alone (deterministic), and every move the
//! picker yields is checked against the game's own legal move list; the first disagreement ends
//! the walk with a [`PickerError`] naming the position and the move.

use std::fmt;

use crate::game::Side;
use crate::notation::Notation;
use crate::rng::SplitMix64;
use crate::search::heuristics::History;
use crate::search::ordering::MovePicker;

/// The picker yielded something plain move generation does not: an illegal move, a move twice,
/// or too few moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PickerError {
    /// The position, in the game's notation.
    pub position: String,
    /// What went wrong.
    pub problem: String,
}

impl fmt::Display for PickerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "picker perft at {}: {}", self.position, self.problem)
    }
}

impl std::error::Error for PickerError {}

/// Perft of `state` to `depth` through the move picker, in the leaf convention of
/// [`PerftConvention::Leaf`](crate::harness::perft::PerftConvention::Leaf) (a finished position,
/// or one without moves, is one leaf). `salt` varies the hints; the history table is filled with
/// pseudo-random rewards derived from it.
///
/// # Errors
/// A [`PickerError`] at the first position where the picker's moves differ from
/// [`Game::generate_moves`](crate::Game::generate_moves).
pub fn picker_perft<G: Notation>(state: &G, depth: u32, salt: u64) -> Result<u64, PickerError> {
    let bound = state.move_index_bound();
    let mut history = History::new(bound);
    for i in 0..200u64 {
        let side = if i % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let mixed = SplitMix64::mix(salt ^ i);
        history.reward(side, (mixed % bound.max(1) as u64) as usize, (i % 7) as u32);
    }
    walk(state, depth, &history, SplitMix64::mix(salt), &[])
}

fn walk<G: Notation>(
    state: &G,
    depth: u32,
    history: &History,
    salt: u64,
    previous: &[G::Move],
) -> Result<u64, PickerError> {
    if depth == 0 {
        return Ok(1);
    }
    let mut legal = Vec::new();
    state.generate_moves(&mut legal);
    if legal.is_empty() {
        return Ok(1);
    }
    let bound = state.move_index_bound();
    let pick = |k: u64| legal[(k % legal.len() as u64) as usize];
    // Table index: none, a legal move's, an arbitrary one in range, or one out of range.
    let tt_index = match salt % 4 {
        0 => None,
        1 => Some(state.move_index(pick(salt >> 2))),
        2 => Some(((salt >> 2) % bound.max(1) as u64) as usize),
        _ => Some(bound + 5),
    };
    // Killers: none, a move from elsewhere in the tree (often illegal here), or a legal one.
    let killer = |k: u64| match k % 3 {
        0 => None,
        1 => previous
            .get((k >> 2) as usize % previous.len().max(1))
            .copied(),
        _ => Some(pick(k >> 2)),
    };
    let killers = [
        killer(SplitMix64::mix(salt ^ 1)),
        killer(SplitMix64::mix(salt ^ 2)),
    ];
    let mut picker = MovePicker::new(None, tt_index, killers);
    let (mut moves, mut scores) = (Vec::new(), Vec::new());
    let mut seen: Vec<G::Move> = Vec::with_capacity(legal.len());
    let mut nodes = 0;
    let error = |problem: String| PickerError {
        position: state.format_position(),
        problem,
    };
    while let Some(mv) = picker.next(state, &mut moves, &mut scores, Some(history)) {
        if !legal.contains(&mv) {
            return Err(error(format!("illegal move {}", state.format_move(mv))));
        }
        if seen.contains(&mv) {
            return Err(error(format!("move {} twice", state.format_move(mv))));
        }
        seen.push(mv);
        let child_salt = SplitMix64::mix(salt.wrapping_add(seen.len() as u64));
        nodes += walk(&state.play(mv), depth - 1, history, child_salt, &legal)?;
    }
    if seen.len() != legal.len() {
        return Err(error(format!(
            "{} moves picked of {} legal",
            seen.len(),
            legal.len()
        )));
    }
    Ok(nodes)
}

#[cfg(test)]
mod tests;
