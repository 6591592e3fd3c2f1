//! Yinsh rules on hand-built positions: a row and its ring, a run of six (two choices),
//! crossing rows (one choice breaks the other), two separate rows (both removed), a row made
//! for the opponent, rows for both (mover first), Blitz, passing and the double-pass policy,
//! and the end when the markers run out.
//!
//! Key invariant: the positions are written out here cell by cell; the expected moves and
//! phases follow from the rules document, not from the crate.

use plies::rng::SplitMix64;
use plies::{Game, Notation, Outcome, Side};
use plies_yinsh::board::{CELLS, COLUMNS, cell_at, column_range, parse_cell};
use plies_yinsh::{Move, Phase, Yinsh};

/// A position from `(cell, symbol)` pairs and the tail of the position text.
fn pos(items: &[(&str, char)], tail: &str) -> Yinsh {
    let mut board = vec!['.'; CELLS];
    for &(name, symbol) in items {
        board[parse_cell(name).unwrap_or_else(|| panic!("{name}"))] = symbol;
    }
    let columns: Vec<String> = (0..COLUMNS)
        .map(|c| {
            let (low, high) = column_range(c);
            (low..=high)
                .map(|r| board[cell_at(c, r).unwrap()])
                .collect()
        })
        .collect();
    let text = format!("{} {tail}", columns.join("/"));
    Yinsh::parse_position(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(state: &Yinsh) -> Vec<String> {
    let mut out = Vec::new();
    state.generate_moves(&mut out);
    let mut text: Vec<String> = out.iter().map(|&m| state.format_move(m)).collect();
    text.sort();
    text
}

fn play(state: &Yinsh, text: &str) -> Yinsh {
    let mv = state
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    state.play(mv)
}

/// Four spare white rings and five black rings out of the way (top right and far right).
const SPARES: [(&str, char); 9] = [
    ("i11", 'W'),
    ("j11", 'W'),
    ("h11", 'W'),
    ("g11", 'W'),
    ("k7", 'B'),
    ("k8", 'B'),
    ("k9", 'B'),
    ("k10", 'B'),
    ("j10", 'B'),
];

fn with_spares(items: &[(&str, char)]) -> Vec<(&'static str, char)> {
    let mut all: Vec<(&'static str, char)> = SPARES.to_vec();
    for &(name, symbol) in items {
        all.push((name.to_string().leak(), symbol));
    }
    all
}

#[test]
fn a_row_then_a_ring_then_the_opponent_moves() {
    let items = with_spares(&[
        ("e2", 'w'),
        ("e3", 'w'),
        ("e4", 'w'),
        ("e5", 'w'),
        ("e6", 'W'),
    ]);
    let state = pos(&items, "w move 0-0 0 normal");
    let after = play(&state, "e6-f6");
    assert_eq!(after.phase(), Phase::RemoveRow);
    assert_eq!(after.side_to_move(), Side::First);
    assert_eq!(moves(&after), vec!["xe2-e6"]);
    assert_eq!(
        after.parse_move("xe6-e2").unwrap(),
        after.parse_move("xe2-e6").unwrap()
    );
    let after = play(&after, "xe2-e6");
    assert_eq!(after.phase(), Phase::RemoveRing);
    assert_eq!(moves(&after), vec!["xf6", "xg11", "xh11", "xi11", "xj11"]);
    let after = play(&after, "xf6");
    assert_eq!(after.removed(Side::First), 1);
    assert_eq!(
        (after.phase(), after.side_to_move()),
        (Phase::Move, Side::Second)
    );
    assert_eq!(after.markers_on_board(), 0);
    assert_eq!(after.outcome(), None);
    let text = after.format_position();
    assert_eq!(Yinsh::parse_position(&text).unwrap(), after);
}

#[test]
fn blitz_ends_with_the_first_ring() {
    let items = with_spares(&[
        ("e2", 'w'),
        ("e3", 'w'),
        ("e4", 'w'),
        ("e5", 'w'),
        ("e6", 'W'),
    ]);
    let state = pos(&items, "w move 0-0 0 blitz");
    let after = play(&play(&play(&state, "e6-f6"), "xe2-e6"), "xi11");
    assert_eq!(after.outcome(), Some(Outcome::Win(Side::First)));
    assert!(moves(&after).is_empty());
}

#[test]
fn a_run_of_six_offers_two_rows() {
    let items = with_spares(&[
        ("e1", 'w'),
        ("e2", 'w'),
        ("e3", 'w'),
        ("e4", 'w'),
        ("e5", 'W'),
        ("e6", 'w'),
    ]);
    let after = play(&pos(&items, "w move 0-0 0 normal"), "e5-f5");
    assert_eq!(moves(&after), vec!["xe1-e5", "xe2-e6"]);
    let after = play(&play(&after, "xe1-e5"), "xf5");
    assert_eq!(
        (after.phase(), after.side_to_move()),
        (Phase::Move, Side::Second)
    );
    assert_eq!(after.markers_on_board(), 1);
}

#[test]
fn crossing_rows_one_choice_breaks_the_other() {
    let items = with_spares(&[
        ("e1", 'w'),
        ("e2", 'w'),
        ("e3", 'w'),
        ("e4", 'w'),
        ("a5", 'w'),
        ("b5", 'w'),
        ("c5", 'w'),
        ("d5", 'w'),
        ("e5", 'W'),
    ]);
    let after = play(&pos(&items, "w move 0-0 0 normal"), "e5-f5");
    assert_eq!(moves(&after), vec!["xa5-e5", "xe1-e5"]);
    let after = play(&play(&after, "xa5-e5"), "xf5");
    assert_eq!(
        (after.phase(), after.side_to_move()),
        (Phase::Move, Side::Second)
    );
    assert_eq!(after.removed(Side::First), 1);
    assert_eq!(after.markers_on_board(), 4);
}

#[test]
fn separate_rows_are_all_removed() {
    // c3 jumps the black markers d3 e3 (they turn white), completing d3-d7 and e3-e7.
    let items = with_spares(&[
        ("c3", 'W'),
        ("d3", 'b'),
        ("e3", 'b'),
        ("d4", 'w'),
        ("d5", 'w'),
        ("d6", 'w'),
        ("d7", 'w'),
        ("e4", 'w'),
        ("e5", 'w'),
        ("e6", 'w'),
        ("e7", 'w'),
    ]);
    let state = pos(&items, "w move 0-0 0 normal");
    assert!(moves(&state).contains(&"c3-f3".to_string()));
    let after = play(&state, "c3-f3");
    assert_eq!(moves(&after), vec!["xd3-d7", "xe3-e7"]);
    let after = play(&play(&after, "xd3-d7"), "xf3");
    assert_eq!(
        (after.phase(), after.side_to_move()),
        (Phase::RemoveRow, Side::First)
    );
    assert_eq!(moves(&after), vec!["xe3-e7"]);
    let after = play(&play(&after, "xe3-e7"), "xg11");
    assert_eq!(after.removed(Side::First), 2);
    assert_eq!(
        (after.phase(), after.side_to_move()),
        (Phase::Move, Side::Second)
    );
}

#[test]
fn rows_for_both_mover_first_then_opponent_who_then_moves() {
    // d7 jumps the white marker e7 (it turns black: e3-e7 black) and leaves a white marker on d7
    // (d3-d7 white).
    let items = with_spares(&[
        ("d7", 'W'),
        ("e7", 'w'),
        ("d3", 'w'),
        ("d4", 'w'),
        ("d5", 'w'),
        ("d6", 'w'),
        ("e3", 'b'),
        ("e4", 'b'),
        ("e5", 'b'),
        ("e6", 'b'),
    ]);
    let after = play(&pos(&items, "w move 0-0 0 normal"), "d7-f7");
    assert_eq!(
        (after.phase(), after.side_to_move()),
        (Phase::RemoveRow, Side::First)
    );
    assert_eq!(moves(&after), vec!["xd3-d7"]);
    let after = play(&play(&after, "xd3-d7"), "xf7");
    assert_eq!(
        (after.phase(), after.side_to_move()),
        (Phase::RemoveRow, Side::Second)
    );
    assert_eq!(moves(&after), vec!["xe3-e7"]);
    let after = play(&after, "xe3-e7");
    assert_eq!(moves(&after), vec!["xj10", "xk10", "xk7", "xk8", "xk9"]);
    let after = play(&after, "xk7");
    assert_eq!(
        (after.phase(), after.side_to_move()),
        (Phase::Move, Side::Second)
    );
    assert_eq!(
        (after.removed(Side::First), after.removed(Side::Second)),
        (1, 1)
    );
}

#[test]
fn opponent_row_is_removed_by_the_opponent_who_then_moves() {
    let items = with_spares(&[
        ("d7", 'W'),
        ("e7", 'w'),
        ("e3", 'b'),
        ("e4", 'b'),
        ("e5", 'b'),
        ("e6", 'b'),
    ]);
    let after = play(&pos(&items, "w move 0-0 0 normal"), "d7-f7");
    assert_eq!(
        (after.phase(), after.side_to_move()),
        (Phase::RemoveRow, Side::Second)
    );
    let after = play(&play(&after, "xe3-e7"), "xk9");
    assert_eq!(
        (after.phase(), after.side_to_move()),
        (Phase::Move, Side::Second)
    );
    assert_eq!(after.removed(Side::Second), 1);
}

/// White (two rings removed) has rings on a2, a3 and k10, all unable to move; Black (two
/// removed) has rings on b2, b3, b4.
fn blocked(passes: u8) -> Yinsh {
    let items = [
        ("a2", 'W'),
        ("a3", 'W'),
        ("k10", 'W'),
        ("b2", 'B'),
        ("b3", 'B'),
        ("b4", 'B'),
        ("a4", 'w'),
        ("a5", 'b'),
        ("k9", 'w'),
        ("k8", 'b'),
        ("k7", 'w'),
        ("j10", 'w'),
        ("i10", 'b'),
        ("h10", 'w'),
        ("g10", 'b'),
        ("f10", 'w'),
        ("e10", 'b'),
        ("j9", 'w'),
        ("i8", 'b'),
        ("h7", 'w'),
        ("g6", 'b'),
        ("f5", 'w'),
        ("e4", 'b'),
        ("d3", 'w'),
        ("c2", 'b'),
        ("b1", 'w'),
    ];
    pos(&items, &format!("w move 2-2 {passes} normal"))
}

#[test]
fn a_side_that_cannot_move_passes() {
    let state = blocked(0);
    assert_eq!(moves(&state), vec!["pass"]);
    let after = play(&state, "pass");
    assert_eq!(
        (after.phase(), after.side_to_move()),
        (Phase::Move, Side::Second)
    );
    assert_eq!(after.outcome(), None);
    assert_eq!(after.markers_on_board(), state.markers_on_board());
    // Black moves; a ring move clears the pass count.
    let mut black = Vec::new();
    after.generate_moves(&mut black);
    assert!(black.iter().all(|m| matches!(m, Move::Ring(..))) && !black.is_empty());
}

#[test]
fn two_passes_in_a_row_end_the_game_as_if_markers_ran_out() {
    let after = play(&blocked(1), "pass");
    assert_eq!(after.outcome(), Some(Outcome::Draw));
    assert!(moves(&after).is_empty());
}

#[test]
fn the_game_ends_when_the_last_marker_is_placed_without_a_row() {
    // Random boards with 50 markers and no row; White's first move that makes no row places
    // the 51st marker and ends the game (0-0 removed: a draw).
    let mut rng = SplitMix64::new(51);
    let mut done = false;
    'search: for _ in 0..1000 {
        let mut cells: Vec<usize> = (0..CELLS).collect();
        for i in (1..cells.len()).rev() {
            cells.swap(i, rng.below(i + 1));
        }
        let mut items = Vec::new();
        for (k, &c) in cells.iter().enumerate().take(60) {
            let (col, row) = plies_yinsh::board::coords(c);
            let name: &'static str = format!("{}{}", (b'a' + col as u8) as char, row).leak();
            let symbol = match k {
                0..5 => 'W',
                5..10 => 'B',
                _ if rng.below(2) == 0 => 'w',
                _ => 'b',
            };
            items.push((name, symbol));
        }
        let mut board = vec!['.'; CELLS];
        for &(n, s) in &items {
            board[parse_cell(n).unwrap()] = s;
        }
        let columns: Vec<String> = (0..COLUMNS)
            .map(|c| {
                let (low, high) = column_range(c);
                (low..=high)
                    .map(|r| board[cell_at(c, r).unwrap()])
                    .collect()
            })
            .collect();
        let Ok(state) =
            Yinsh::parse_position(&format!("{} w move 0-0 0 normal", columns.join("/")))
        else {
            continue; // a row stands: try another board
        };
        assert_eq!(state.markers_on_board(), 50);
        let mut legal = Vec::new();
        state.generate_moves(&mut legal);
        for mv in legal {
            let child = state.play(mv);
            if child.phase() == Phase::Move {
                assert_eq!(child.markers_on_board(), 51);
                assert_eq!(child.outcome(), Some(Outcome::Draw));
                done = true;
                break 'search;
            }
        }
    }
    assert!(done, "no suitable board found");
}
