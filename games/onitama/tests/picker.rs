//! The staged move picker on Onitama: walking the tree with the picker (table moves, killers and
//! history hints, legal or not) gives the community perft numbers of the rules document, so each
//! legal move comes out exactly once; and the index look-up the picker uses for table moves
//! ([`plies::Game::move_from_index`]) agrees with move generation.

use plies::search::ordering::{History, MovePicker};
use plies::{Game, Notation};
use plies_onitama::{Move, Onitama};

/// Leaf-convention perft through the picker; `salt` varies the hints from node to node.
fn picker_perft(
    state: &Onitama,
    depth: u32,
    history: &History,
    salt: u64,
    previous: &[Move],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut legal = Vec::new();
    state.generate_moves(&mut legal);
    if legal.is_empty() {
        return 1;
    }
    // Hints: sometimes a legal table index, sometimes a garbage one; killers from elsewhere in
    // the tree (often illegal here) or legal ones.
    let tt_index = match salt % 4 {
        0 => None,
        1 => Some(state.move_index(legal[(salt / 4) as usize % legal.len()])),
        2 => Some((salt as usize * 7919) % Move::INDEX_BOUND),
        _ => Some(Move::INDEX_BOUND + 5),
    };
    let killer = |k: u64| match k % 3 {
        0 => None,
        1 => previous.get(k as usize % previous.len().max(1)).copied(),
        _ => Some(legal[k as usize % legal.len()]),
    };
    let killers = [killer(salt / 3), killer(salt / 5 + 1)];
    let mut picker = MovePicker::new(None, tt_index, killers);
    let (mut moves, mut scores) = (Vec::new(), Vec::new());
    let mut seen = Vec::with_capacity(legal.len());
    let mut nodes = 0;
    while let Some(mv) = picker.next(state, &mut moves, &mut scores, Some(history)) {
        assert!(legal.contains(&mv), "illegal {mv:?}");
        assert!(!seen.contains(&mv), "twice {mv:?}");
        seen.push(mv);
        let next_salt = salt
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(seen.len() as u64);
        nodes += picker_perft(&state.play(mv), depth - 1, history, next_salt >> 7, &legal);
    }
    assert_eq!(seen.len(), legal.len());
    nodes
}

fn history_for(state: &Onitama) -> History {
    let mut history = History::new(state.move_index_bound());
    for i in 0..200usize {
        let side = if i % 2 == 0 {
            plies::Side::First
        } else {
            plies::Side::Second
        };
        history.reward(side, (i * 104_729) % Move::INDEX_BOUND, (i % 7) as u32);
    }
    history
}

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
        let history = history_for(&state);
        for salt in [0, 1, 2, 3, 12_345] {
            assert_eq!(
                picker_perft(&state, 4, &history, salt, &[]),
                expected,
                "{text}"
            );
        }
    }
}

#[test]
fn passes_come_out_once_too() {
    // Red cannot move a piece: two passes, chess-like perft 2; 8; 40 (rules document).
    let state = Onitama::parse_position("4R/4r/4r/B3r/4r r tiger,ox crab,boar horse").unwrap();
    let history = history_for(&state);
    let mut legal = Vec::new();
    state.generate_moves(&mut legal);
    assert_eq!(legal.len(), 2);
    for salt in 0..8 {
        assert_eq!(picker_perft(&state, 1, &history, salt, &[]), 2);
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
