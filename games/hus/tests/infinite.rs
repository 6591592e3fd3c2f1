//! The infinite-move policy (crate docs): a move needing more than 200 laps is illegal, and a
//! position whose only candidate moves are infinite is a draw. Uses the two infinite-move
//! positions seen in real games (docs/rules/hus.md). A constructed position whose *only* move is
//! infinite (a draw) is tested in `only_infinite.rs`.

use plies::{Game, MoveClass, Notation, Outcome, Side};
use plies_hus::{Hus, Pit};

const REAL_1: &str = "1,0,1,0,0,0,0,0,0,0,0,3,2,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 \
                      7,1,7,4,3,0,3,0,4,8,2,3,2,0,5,4,1,2,4,3,2,3,0,1,0,2,1,0,13,0,2,1 1 84";
const REAL_2: &str = "2,3,4,2,1,0,5,1,9,1,9,0,1,2,1,2,3,2,1,0,1,0,3,15,1,0,6,1,4,1,2,1 \
                      0,0,0,1,1,2,0,0,1,0,3,2,0,0,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 0 26";

fn moves(state: &Hus) -> Vec<Pit> {
    let mut out = Vec::new();
    state.generate_moves(&mut out);
    out
}

#[test]
fn real_positions_drop_exactly_the_infinite_move() {
    for (text, side, infinite, candidates) in
        [(REAL_1, Side::Second, 12, 20), (REAL_2, Side::First, 2, 16)]
    {
        let state = Hus::parse_position(text).unwrap();
        assert_eq!(state.side_to_move(), side);
        assert_eq!(state.candidate_pits().count(), candidates);
        let infinite_pits: Vec<usize> = state
            .candidate_pits()
            .filter(|&p| state.is_infinite(p))
            .collect();
        assert_eq!(infinite_pits, vec![infinite]);
        let legal = moves(&state);
        assert_eq!(legal.len(), candidates - 1);
        assert!(!legal.contains(&Pit(infinite as u8)));
        assert_eq!(state.outcome(), None);
        let err = state.parse_move(&infinite.to_string()).unwrap_err();
        assert!(err.reason.contains("infinite"), "{err}");
        assert_eq!(state.classify(Pit(infinite as u8)), MoveClass::Quiet);
    }
}

#[test]
fn no_playable_pit_loses_and_round_limit_draws() {
    let mut lost = [1u8; 32];
    lost[0] = 0;
    let mut other = [0u8; 32];
    other[0] = 96 - 31;
    let state = Hus::from_parts([lost, other], Side::First, 7).unwrap();
    assert!(moves(&state).is_empty());
    assert_eq!(state.outcome(), Some(Outcome::Win(Side::Second)));

    let start = Hus::start();
    let late = Hus::from_parts(*start.rows(), Side::First, 5001).unwrap();
    assert_eq!(late.outcome(), Some(Outcome::Draw));
    assert!(moves(&late).is_empty());
    let last = Hus::from_parts(*start.rows(), Side::First, 5000).unwrap();
    assert_eq!(last.outcome(), None);
    assert!(Hus::from_parts(*start.rows(), Side::First, 5002).is_err());
}
