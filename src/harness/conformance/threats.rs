//! Conformance checks of the optional threat hooks ([`Game::is_threatened`],
//! [`Game::generate_evasions`], [`Game::generate_threat_moves`]) against play. The quiescence
//! consistency check cannot catch a wrong hook: its reference uses the same hooks.
//!
//! Key invariants checked (the trait docs' contract, in a position that is not over):
//! - evasions are given (`generate_evasions` returns `true`) only in a threatened position, and
//!   otherwise nothing is appended; they are legal moves, each once, appended to the buffer;
//! - every legal move left out of the evasions loses at once: after it the opponent has won, or
//!   is to move and has a move that wins at once;
//! - threat moves are legal quiet moves, each once, appended to the buffer, after which the
//!   opponent is to move and threatened; the evasions of that position are checked too.
//!
//! [`Game::is_threatened`] asks what the opponent could do if it moved out of turn, which no
//! generic check can play; it is checked through the two hooks that rest on it.

use super::{Check, Checker, ConformanceFailure};
use crate::game::{Game, Outcome};
use crate::notation::Notation;

/// Does `mv` lose at once: has the opponent won after it, or is the opponent to move with a
/// move that wins at once?
fn loses_at_once<G: Game>(state: &G, mv: G::Move, moves: &mut Vec<G::Move>) -> bool {
    let opponent = state.side_to_move().opponent();
    let child = state.play(mv);
    if let Some(outcome) = child.outcome() {
        return outcome == Outcome::Win(opponent);
    }
    if child.side_to_move() != opponent {
        return false;
    }
    // A move that wins at once is classed a win, which is noisy.
    moves.clear();
    child.generate_noisy_moves(moves);
    moves
        .iter()
        .any(|&reply| child.play(reply).outcome() == Some(Outcome::Win(opponent)))
}

impl<G: Notation> Checker<G> {
    /// The threat hooks of `state` (not over; `moves` its legal moves) against play.
    pub(super) fn check_threats(
        &self,
        state: &G,
        moves: &[G::Move],
    ) -> Result<(), ConformanceFailure> {
        self.check_evasions(state, moves)?;
        let mut threats = vec![moves[0]];
        state.generate_threat_moves(&mut threats);
        if threats[0] != moves[0] {
            let detail = "generate_threat_moves changed what was in the buffer".to_string();
            return Err(self.fail(Check::GenerationAppends, state, None, detail));
        }
        let threats = &threats[1..];
        let opponent = state.side_to_move().opponent();
        let mut child_moves = Vec::new();
        for (i, &mv) in threats.iter().enumerate() {
            if !moves.contains(&mv) || threats[..i].contains(&mv) {
                let detail = "threat move is not a legal move, or is given twice".to_string();
                return Err(self.fail(Check::ThreatMove, state, Some(mv), detail));
            }
            if state.classify(mv) != crate::game::MoveClass::Quiet {
                let detail = format!("threat move is classed {:?}", state.classify(mv));
                return Err(self.fail(Check::ThreatMove, state, Some(mv), detail));
            }
            let child = state.play(mv);
            if child.outcome().is_some() {
                continue;
            }
            if child.side_to_move() != opponent || !child.is_threatened() {
                let detail =
                    "after this threat move the opponent is not to move threatened".to_string();
                return Err(self.fail(Check::ThreatMove, state, Some(mv), detail));
            }
            child_moves.clear();
            child.generate_moves(&mut child_moves);
            if !child_moves.is_empty() {
                self.check_evasions(&child, &child_moves)?;
            }
        }
        Ok(())
    }

    /// `generate_evasions` of `state` (not over; `moves` its legal moves): given only when
    /// threatened, legal, and every move it leaves out loses at once.
    fn check_evasions(&self, state: &G, moves: &[G::Move]) -> Result<(), ConformanceFailure> {
        let mut evasions = vec![moves[0]];
        let given = state.generate_evasions(&mut evasions);
        if evasions[0] != moves[0] {
            let detail = "generate_evasions changed what was in the buffer".to_string();
            return Err(self.fail(Check::GenerationAppends, state, None, detail));
        }
        let evasions = &evasions[1..];
        if !given {
            if evasions.is_empty() {
                return Ok(());
            }
            let detail = format!(
                "generate_evasions returned false but appended {} moves",
                evasions.len()
            );
            return Err(self.fail(Check::Evasions, state, None, detail));
        }
        if !state.is_threatened() {
            let detail = "evasions given in a position that is not threatened".to_string();
            return Err(self.fail(Check::Evasions, state, None, detail));
        }
        for (i, &mv) in evasions.iter().enumerate() {
            if !moves.contains(&mv) || evasions[..i].contains(&mv) {
                let detail = "evasion is not a legal move, or is given twice".to_string();
                return Err(self.fail(Check::Evasions, state, Some(mv), detail));
            }
        }
        let mut replies = Vec::new();
        for &mv in moves {
            if !evasions.contains(&mv) && !loses_at_once(state, mv, &mut replies) {
                let detail = "left out of the evasions, but does not lose at once".to_string();
                return Err(self.fail(Check::Evasions, state, Some(mv), detail));
            }
        }
        Ok(())
    }
}
