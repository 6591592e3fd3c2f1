//! The staged move picker on Onitama: walking the tree with the picker (table moves, killers and
//! history hints, legal or not) gives the community perft numbers of the rules document, so each
//! legal move comes out exactly once; and the index look-up the picker uses for table moves
//! ([`plies::Game::move_from_index`]) agrees with move generation.

use plies::harness::picker_perft;
use plies::{Game, Notation};
use plies_onitama::{Move, Onitama};

#[test]
fn picker_perft_matches_the_community_numbers() {
    // Mover listed first, leaf convention (rules document).
    for (text, expected) in [
        ("bbBbb/5/5/5/rrRrr b horse,elephant ox,boar crab", 28_509),
        (
            "bbBbb/5/5/5/rrRrr r crab,dragon monkey,tiger mantis",
            23_949,
        ),
        ("bbBbb/5/5/5/rrRrr r goose,dragon mantis,eel crane", 16_445),
    ] {
        let state = Onitama::parse_position(text).unwrap();
        for salt in [0, 1, 2, 3, 12_345] {
            assert_eq!(picker_perft(&state, 4, salt), Ok(expected), "{text}");
        }
    }
}

#[test]
fn passes_come_out_once_too() {
    // Red cannot move a piece: two passes, chess-like perft 2; 8; 40 (rules document).
    let state = Onitama::parse_position("4R/4r/4r/B3r/4r r tiger,ox crab,boar horse").unwrap();
    let mut legal = Vec::new();
    state.generate_moves(&mut legal);
    assert_eq!(legal.len(), 2);
    for salt in 0..8 {
        assert_eq!(picker_perft(&state, 1, salt), Ok(2));
    }
}

/// Every index of every position of a small tree: the look-up answers exactly the generated
/// move with that index.
fn check_lookup(state: &Onitama, depth: u32) {
    let mut legal = Vec::new();
    state.generate_moves(&mut legal);
    for index in 0..Move::INDEX_BOUND + 3 {
        let expected = legal
            .iter()
            .copied()
            .find(|&mv| state.move_index(mv) == index);
        assert_eq!(state.move_from_index(index), expected, "{index}");
    }
    if depth > 0 {
        for &mv in &legal {
            check_lookup(&state.play(mv), depth - 1);
        }
    }
}

#[test]
fn move_from_index_agrees_with_generation() {
    for text in [
        "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon",
        "4R/4r/4r/B3r/4r r tiger,ox crab,boar horse",
        "1bB1b/2b2/2r2/1R3/r3r b boar,goose rabbit,eel cobra",
    ] {
        check_lookup(&Onitama::parse_position(text).unwrap(), 1);
    }
    // Finished positions have no move at all.
    let over =
        Onitama::parse_position("bb1bb/5/5/5/rrRrr b monkey,crane tiger,crab dragon").unwrap();
    assert!(over.outcome().is_some());
    assert!((0..Move::INDEX_BOUND).all(|i| over.move_from_index(i).is_none()));
}
