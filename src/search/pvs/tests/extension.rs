//! Threat extensions at the deepest iteration: a line of threatened positions grows to twice the
//! nominal depth plus quiescence, and the per-ply stacks and killer slots must hold all of it;
//! extensions start only at nodes with [`PvsConfig::extension_depth`] plies left.
//!
//! Key invariant: the corridor game has one move per position and every position is threatened,
//! so every line is extended at every ply the rule allows, the worst case of the stack sizes.

use crate::eval::{Evaluator, Score};
use crate::game::{Game, MoveClass, Outcome, Side};
use crate::search::config::PvsConfig;
use crate::search::limits::SearchLimits;
use crate::search::pvs::Pvs;
use crate::search::searcher::Searcher;
use crate::search::stack::MAX_DEPTH;

/// A corridor of single steps, always threatened, a draw at its end.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Corridor {
    step: u32,
}

/// Far beyond any line a search can reach, so no position of a search is finished.
const LENGTH: u32 = 900;

impl Game for Corridor {
    type Move = u8;

    fn side_to_move(&self) -> Side {
        if self.step.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    fn generate_moves(&self, moves: &mut Vec<u8>) {
        if self.step < LENGTH {
            moves.push(0);
        }
    }

    fn play(&self, _mv: u8) -> Corridor {
        Corridor {
            step: self.step + 1,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.step >= LENGTH).then_some(Outcome::Draw)
    }

    fn hash(&self) -> u64 {
        self.hash_from_scratch()
    }

    fn hash_from_scratch(&self) -> u64 {
        u64::from(self.step).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x1234_5678
    }

    fn move_index(&self, _mv: u8) -> usize {
        0
    }

    fn move_index_bound(&self) -> usize {
        1
    }

    fn classify(&self, _mv: u8) -> MoveClass {
        MoveClass::Quiet
    }

    fn is_threatened(&self) -> bool {
        true
    }
}

/// Every position is level.
struct Level;

impl Evaluator<Corridor> for Level {
    fn evaluate(&self, _state: &Corridor) -> Score {
        Score::DRAW
    }
}

#[test]
fn extended_lines_fit_at_the_deepest_iteration() {
    let everywhere = PvsConfig {
        extension_depth: 1,
        ..PvsConfig::full()
    };
    for config in [
        PvsConfig::full(),
        PvsConfig::full().with_threads(2),
        everywhere,
        everywhere.with_threads(2),
    ] {
        let mut pvs = Pvs::new(Level, config);
        let result = pvs.search(&Corridor { step: 0 }, &SearchLimits::depth(MAX_DEPTH));
        assert_eq!(result.depth, MAX_DEPTH);
        assert_eq!(result.best_move, Some(0));
        assert_eq!(result.score, Score::DRAW);
        // The line was extended beyond the nominal depth (else the test proves nothing).
        assert!(
            result.stats.seldepth > MAX_DEPTH,
            "{:?}",
            result.stats.seldepth
        );
    }
}

#[test]
fn extensions_wait_for_enough_plies_left() {
    // Every corridor position is threatened: with extensions allowed at the root's depth, each
    // node inside the nominal depth keeps its remaining depth, so the line doubles; one ply
    // more required and nothing is extended.
    for (extension_depth, seldepth) in [(6, 12), (7, 6)] {
        let config = PvsConfig {
            extension_depth,
            ..PvsConfig::full()
        };
        let mut pvs = Pvs::new(Level, config);
        let result = pvs.search(&Corridor { step: 0 }, &SearchLimits::depth(6));
        assert_eq!(result.depth, 6);
        assert_eq!(
            result.stats.seldepth, seldepth,
            "extension depth {extension_depth}"
        );
    }
}
