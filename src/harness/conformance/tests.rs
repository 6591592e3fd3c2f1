//! Unit tests of `crate::harness::conformance` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;
use crate::game::{Game, MoveClass, Side};
use crate::testing::TwoPiles;

#[test]
fn the_toy_game_conforms() {
    let starts = [
        TwoPiles::new(7, 5, Side::First),
        TwoPiles::new(3, 9, Side::Second),
    ];
    let report = check_conformance(&starts, 1, 20, 40).expect("TwoPiles conforms");
    assert_eq!(report.games, 40);
    assert!(report.finished_games > 0);
    assert!(report.positions > 40);
    assert!(report.moves >= report.positions);
    assert_eq!(report.max_moves, 6);
}

#[test]
fn a_broken_hash_is_caught() {
    // A position whose stored hash was never set: the incremental hash is wrong.
    let mut state = TwoPiles::new(4, 4, Side::First);
    state.piles[0] = 5;
    let failure = check_conformance(&[state], 1, 1, 5).unwrap_err();
    assert_eq!(failure.check, Check::Hash);
    assert!(failure.to_string().contains("5 4 1"), "{failure}");
}

/// [`TwoPiles`] with threat hooks, right (`BUG` 0) or wrong in one way each: 1 leaves the
/// winning move out of the evasions, 2 says no position is threatened (while giving evasions),
/// 3 gives every quiet move as a threat move.
#[derive(Clone, Debug)]
struct Hooked<const BUG: u8>(TwoPiles);

impl<const BUG: u8> Hooked<BUG> {
    /// Would the opponent take the last stone if it could move now: one pile left, of 1 to 3?
    fn really_threatened(&self) -> bool {
        matches!(self.0.piles, [0, 1..=3] | [1..=3, 0])
    }
}

impl<const BUG: u8> Game for Hooked<BUG> {
    type Move = crate::testing::Take;

    crate::delegate_game!();

    fn is_threatened(&self) -> bool {
        BUG != 2 && self.outcome().is_none() && self.really_threatened()
    }

    /// In one pile of `n`: taking all wins, and taking 2 of 3 moves again; anything else leaves
    /// the opponent the last stones.
    fn generate_evasions(&self, moves: &mut Vec<Self::Move>) -> bool {
        if self.outcome().is_some() || !self.really_threatened() {
            return false;
        }
        let pile = u8::from(self.0.piles[0] == 0);
        let n = self.0.piles[usize::from(pile)];
        if BUG != 1 {
            moves.push(crate::testing::Take { pile, count: n });
        }
        if n == 3 {
            moves.push(crate::testing::Take { pile, count: 2 });
        }
        true
    }

    fn generate_threat_moves(&self, moves: &mut Vec<Self::Move>) {
        let mut legal = Vec::new();
        self.generate_moves(&mut legal);
        for mv in legal {
            if self.classify(mv) != MoveClass::Quiet {
                continue;
            }
            let child = self.play(mv);
            let threatens = child.side_to_move() != self.side_to_move()
                && child.outcome().is_none()
                && child.really_threatened();
            if BUG == 3 || threatens {
                moves.push(mv);
            }
        }
    }
}

impl<const BUG: u8> Notation for Hooked<BUG> {
    fn start_position() -> Self {
        Hooked(TwoPiles::start_position())
    }
    fn parse_position(text: &str) -> Result<Self, crate::notation::NotationError> {
        TwoPiles::parse_position(text).map(Hooked)
    }
    fn format_position(&self) -> String {
        self.0.format_position()
    }
    fn parse_move(&self, text: &str) -> Result<Self::Move, crate::notation::NotationError> {
        self.0.parse_move(text)
    }
    fn format_move(&self, mv: Self::Move) -> String {
        self.0.format_move(mv)
    }
}

fn hooked<const BUG: u8>() -> Result<ConformanceReport, ConformanceFailure> {
    let starts = [
        Hooked::<BUG>(TwoPiles::new(7, 5, Side::First)),
        Hooked::<BUG>(TwoPiles::new(3, 9, Side::Second)),
    ];
    check_conformance(&starts, 1, 20, 40)
}

#[test]
fn right_threat_hooks_conform() {
    hooked::<0>().unwrap_or_else(|f| panic!("{f}"));
}

#[test]
fn a_winning_move_left_out_of_the_evasions_is_caught() {
    let failure = hooked::<1>().unwrap_err();
    assert_eq!(failure.check, Check::Evasions, "{failure}");
    assert!(
        failure.detail.contains("does not lose at once"),
        "{failure}"
    );
}

#[test]
fn evasions_in_a_position_not_threatened_are_caught() {
    let failure = hooked::<2>().unwrap_err();
    assert_eq!(failure.check, Check::Evasions, "{failure}");
    assert!(failure.detail.contains("not threatened"), "{failure}");
}

#[test]
fn a_threat_move_that_threatens_nothing_is_caught() {
    let failure = hooked::<3>().unwrap_err();
    assert_eq!(failure.check, Check::ThreatMove, "{failure}");
}
