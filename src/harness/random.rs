//! Seeded random positions for any [`Game`]: positions along random games, and games driven by a
//! byte string (the shape property tests and fuzzers use).
//!
//! Key invariant: the result depends only on the start position and the seed (or the bytes), so
//! a failure found on random positions can always be reproduced from the seed that made it.

use crate::game::Game;
use crate::rng::SplitMix64;

/// One seeded random game from `start`: every position it passes through, `start` first, until
/// the game ends or `max_plies` moves have been played. The last position is finished when the
/// game ended within `max_plies`.
pub fn random_game<G: Game>(start: &G, rng: &mut SplitMix64, max_plies: usize) -> Vec<G> {
    let mut positions = vec![start.clone()];
    let mut moves = Vec::new();
    let mut state = start.clone();
    for _ in 0..max_plies {
        moves.clear();
        state.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        state = state.play(moves[rng.below(moves.len())]);
        positions.push(state.clone());
    }
    positions
}

/// `count` positions that are not finished, each taken at a random ply (`0..=max_plies`) of its
/// own seeded random game from `start`. When a game ends before that ply, the last unfinished
/// position of the game is taken instead. Positions may repeat (the start position, say).
///
/// Returns an empty list when `start` itself is finished.
pub fn random_playout_positions<G: Game>(
    start: &G,
    seed: u64,
    count: usize,
    max_plies: usize,
) -> Vec<G> {
    collect_positions(start, seed, count, max_plies, false)
}

/// Like [`random_playout_positions`], but a game that ends before its chosen ply contributes its
/// finished final position. Use it to test how searchers and evaluators handle game ends.
pub fn random_playout_positions_with_finished<G: Game>(
    start: &G,
    seed: u64,
    count: usize,
    max_plies: usize,
) -> Vec<G> {
    collect_positions(start, seed, count, max_plies, true)
}

fn collect_positions<G: Game>(
    start: &G,
    seed: u64,
    count: usize,
    max_plies: usize,
    keep_finished: bool,
) -> Vec<G> {
    if start.outcome().is_some() && !keep_finished {
        return Vec::new();
    }
    let mut rng = SplitMix64::new(seed);
    let mut result = Vec::with_capacity(count);
    for _ in 0..count {
        let plies = rng.below(max_plies + 1);
        let mut game = random_game(start, &mut rng, plies);
        let mut last = game.pop().expect("a game holds its start position");
        if last.outcome().is_some() && !keep_finished {
            // The position before the end is unfinished: it had a move to play.
            last = game
                .pop()
                .expect("start is unfinished, so the game has a ply");
        }
        result.push(last);
    }
    result
}

/// Plays `picks[i] % (number of legal moves)` for each pick in turn, until the picks run out or
/// the game ends. Returns every position passed through (`start` first) and the moves played,
/// so `positions.len() == moves.len() + 1`.
///
/// This turns an arbitrary byte string (from quickcheck or a fuzzer) into a legal game.
pub fn play_picks<G: Game>(start: &G, picks: &[u8]) -> (Vec<G>, Vec<G::Move>) {
    let mut positions = vec![start.clone()];
    let mut played = Vec::new();
    let mut moves = Vec::new();
    let mut state = start.clone();
    for &pick in picks {
        moves.clear();
        state.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[usize::from(pick) % moves.len()];
        state = state.play(mv);
        played.push(mv);
        positions.push(state.clone());
    }
    (positions, played)
}

#[cfg(test)]
mod tests;
