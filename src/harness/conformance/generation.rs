//! Conformance checks of the optional fast paths a game may give its searchers: quiet-move
//! generation and move look-up by index.
//!
//! Key invariants checked: noisy and quiet moves together are exactly the legal moves, each once;
//! `move_from_index` either declines (`None`) or names exactly the legal move of that index.

use super::{Check, Checker, ConformanceFailure};
use crate::notation::Notation;

/// Indices probed per position besides those of the legal moves (spread over the bound).
const STRAY_PROBES: usize = 16;

impl<G: Notation> Checker<G> {
    /// `generate_quiet_moves` appends exactly the legal moves classed quiet, each once.
    pub(super) fn check_quiet_moves(
        &self,
        state: &G,
        moves: &[G::Move],
        noisy: &[G::Move],
    ) -> Result<(), ConformanceFailure> {
        let mut quiet = vec![moves[0]];
        state.generate_quiet_moves(&mut quiet);
        if quiet[0] != moves[0] {
            let detail = "generate_quiet_moves changed what was in the buffer".to_string();
            return Err(self.fail(Check::GenerationAppends, state, None, detail));
        }
        let quiet = &quiet[1..];
        for (i, &mv) in quiet.iter().enumerate() {
            if !moves.contains(&mv) {
                let detail = "quiet move is not a legal move".to_string();
                return Err(self.fail(Check::QuietMoves, state, Some(mv), detail));
            }
            if state.classify(mv).is_noisy() {
                let detail = format!("quiet move is classed {:?}", state.classify(mv));
                return Err(self.fail(Check::QuietMoves, state, Some(mv), detail));
            }
            if quiet[..i].contains(&mv) {
                let detail = "quiet move generated twice".to_string();
                return Err(self.fail(Check::DuplicateMove, state, Some(mv), detail));
            }
        }
        if quiet.len() + noisy.len() != moves.len() {
            let detail = format!(
                "{} quiet + {} noisy moves, but {} legal moves",
                quiet.len(),
                noisy.len(),
                moves.len()
            );
            return Err(self.fail(Check::QuietMoves, state, None, detail));
        }
        Ok(())
    }

    /// `move_from_index` gives back each legal move from its index (or declines), and for other
    /// indices either declines or names the legal move that has that index.
    pub(super) fn check_move_from_index(
        &self,
        state: &G,
        moves: &[G::Move],
    ) -> Result<(), ConformanceFailure> {
        for &mv in moves {
            let index = state.move_index(mv);
            match state.move_from_index(index) {
                Some(found) if found != mv => {
                    let detail = format!(
                        "move_from_index({index}) gave {} ({found:?})",
                        state.format_move(found)
                    );
                    return Err(self.fail(Check::MoveFromIndex, state, Some(mv), detail));
                }
                _ => {}
            }
        }
        let bound = state.move_index_bound().max(1);
        for probe in 0..STRAY_PROBES {
            let index = probe * bound / STRAY_PROBES;
            if let Some(found) = state.move_from_index(index)
                && (!moves.contains(&found) || state.move_index(found) != index)
            {
                let detail = format!(
                    "move_from_index({index}) gave {found:?}, not a legal move of that index"
                );
                return Err(self.fail(Check::MoveFromIndex, state, None, detail));
            }
        }
        Ok(())
    }
}
