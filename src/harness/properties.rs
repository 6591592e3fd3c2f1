//! Property helpers for byte-driven tests: each takes a start position and a byte string of
//! picks (see [`play_picks`]) and says whether an invariant holds along the game they select.
//!
//! They return `bool` so that a quickcheck property is one line, e.g.
//! `quickcheck(|picks: Vec<u8>| property_hash_consistent(&start, &picks))`; the core does not
//! depend on quickcheck (only the tests do). The `seed` of a `(seed, picks)` property feeds the
//! [`HashEvaluator`] of [`property_search_matches_minimax`].
//!
//! Key invariant: a property is a pure function of its inputs, so a shrunk counterexample
//! replays exactly.

use crate::eval::{Evaluator, Score};
use crate::game::Game;
use crate::harness::consistency::HashEvaluator;
use crate::harness::random::play_picks;
use crate::notation::Notation;
use crate::search::{Minimax, SearchLimits, Searcher};

/// Along the game `picks` selects, the incremental hash equals the from-scratch hash at every
/// position.
pub fn property_hash_consistent<G: Game>(start: &G, picks: &[u8]) -> bool {
    let (positions, _) = play_picks(start, picks);
    positions.iter().all(|p| p.hash() == p.hash_from_scratch())
}

/// Along the game, the outcome is `Some` exactly when there is no legal move, and a finished
/// game's winner (if any) is a side that exists.
pub fn property_outcome_iff_no_moves<G: Game>(start: &G, picks: &[u8]) -> bool {
    let (positions, _) = play_picks(start, picks);
    let mut moves = Vec::new();
    positions.iter().all(|p| {
        moves.clear();
        p.generate_moves(&mut moves);
        p.outcome().is_some() == moves.is_empty()
    })
}

/// Along the game, every legal move survives `format_move` then `parse_move` (also upper-cased),
/// and every position survives `format_position` then `parse_position` with the same hash and
/// the same text.
pub fn property_notation_round_trip<G: Notation>(start: &G, picks: &[u8]) -> bool {
    let (positions, _) = play_picks(start, picks);
    let mut moves = Vec::new();
    positions.iter().all(|p| {
        let text = p.format_position();
        let position_ok = G::parse_position(&text)
            .is_ok_and(|back| back.hash() == p.hash() && back.format_position() == text);
        moves.clear();
        p.generate_moves(&mut moves);
        position_ok
            && moves.iter().all(|&mv| {
                let text = p.format_move(mv);
                p.parse_move(&text) == Ok(mv) && p.parse_move(&text.to_uppercase()) == Ok(mv)
            })
    })
}

/// The position the picks reach (the last one of the game).
pub fn reached_position<G: Game>(start: &G, picks: &[u8]) -> G {
    let (mut positions, _) = play_picks(start, picks);
    positions
        .pop()
        .expect("play_picks returns the start position at least")
}

/// At the position the picks reach, `searcher` (cleared first) at `depth` returns minimax's
/// root value and one of its best moves, both with a [`HashEvaluator`] seeded with `seed`
/// (values in `-3..=3`). The searcher must use the same evaluator: build it from
/// [`HashEvaluator::new`]`(seed, 3)`.
pub fn property_search_matches_minimax<G: Game>(
    start: &G,
    seed: u64,
    picks: &[u8],
    searcher: &mut dyn Searcher<G>,
    depth: u32,
) -> bool {
    let position = reached_position(start, picks);
    let evaluator = HashEvaluator::new(seed, 3);
    searcher.clear();
    let result = searcher.search(&position, &SearchLimits::depth(depth));
    let values = Minimax::new(evaluator).root_values(&position, depth);
    if position.outcome().is_some() {
        return result.best_move.is_none();
    }
    let best = values
        .iter()
        .map(|&(_, v)| v)
        .max()
        .unwrap_or(-Score::INFINITY);
    result.score == best
        && values
            .iter()
            .any(|&(m, v)| v == best && Some(m) == result.best_move)
}

/// At the position the picks reach, a search that need not be value-exact (deeper table
/// cutoffs, `PvsConfig::full()`) is still *sound*: it returns a legal move (none only when the
/// game is over) with a legal principal variation starting with it; a win or loss that plain
/// minimax with `evaluator` sees at `depth` is also a win or loss for the searcher; and a win or
/// loss the searcher claims in `n <= confirm_depth` plies is one for minimax at depth `n`.
pub fn property_search_is_sound<G: Game, E: Evaluator<G>>(
    start: &G,
    picks: &[u8],
    searcher: &mut dyn Searcher<G>,
    evaluator: &E,
    depth: u32,
    confirm_depth: u32,
) -> bool {
    let position = reached_position(start, picks);
    searcher.clear();
    let result = searcher.search(&position, &SearchLimits::depth(depth));
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    let Some(best_move) = result.best_move else {
        return moves.is_empty();
    };
    if !moves.contains(&best_move) || result.pv.first() != Some(&best_move) {
        return false;
    }
    let mut state = position.clone();
    for &mv in &result.pv {
        moves.clear();
        state.generate_moves(&mut moves);
        if !moves.contains(&mv) {
            return false;
        }
        state = state.play(mv);
    }
    let minimax = Minimax::new(evaluator);
    let value_at = |d: u32| {
        minimax
            .root_values(&position, d)
            .iter()
            .map(|&(_, v)| v)
            .max()
            .unwrap_or(-Score::INFINITY)
    };
    let same_sign = |a: Score, b: Score| (a.is_win() && b.is_win()) || (a.is_loss() && b.is_loss());
    let seen = value_at(depth);
    if seen.is_decisive() && !same_sign(seen, result.score) {
        return false;
    }
    match result.score.plies_to_end() {
        Some(n) if n >= 1 && n <= confirm_depth => same_sign(value_at(n), result.score),
        _ => true,
    }
}

#[cfg(test)]
mod tests;
