//! Unit tests of `view` in `plies-tafl`: the invariants of `plies_view::check_view` along
//! random games of every built-in variant (7x7 to 19x19) and a fortress variant, click paths
//! that spell each move, and the pictures of start positions against the variants' rules.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use std::collections::HashSet;

use plies::harness::{random_playout_positions, random_playout_positions_with_finished};
use plies::{Game, Notation, Side};
use plies_view::{Picture, View, check_view, move_of_clicks};

use crate::board::{Piece, parse_square};
use crate::state::Tafl;
use crate::variants::{VARIANTS, from_rules, start_of};

/// A variant with attacker and defender fortress squares and edge escape.
const FORTRESS_RULES: &str = "dim:11 ks:c esc:e afor:b2,j10 dfor:c3,i9 cor: start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

/// The start of every built-in variant and of the fortress variant.
fn starts() -> Vec<Tafl> {
    let mut starts: Vec<Tafl> = VARIANTS.iter().map(|v| start_of(v.name).unwrap()).collect();
    starts.push(from_rules(FORTRESS_RULES).unwrap());
    starts
}

/// Positions of random games from every start, finished ones included.
fn positions() -> Vec<Tafl> {
    let mut out = Vec::new();
    for (seed, start) in starts().iter().enumerate() {
        let seed = seed as u64;
        out.extend(random_playout_positions(start, seed, 30, 150));
        out.extend(random_playout_positions_with_finished(
            start,
            seed + 100,
            10,
            400,
        ));
    }
    out
}

/// The picture of the view (`Tafl::picture` is the text picture of `Notation`).
fn draw(state: &Tafl) -> Picture {
    View::picture(state)
}

fn kind<'a>(picture: &'a Picture, id: &str) -> &'a str {
    let cell = picture.cells.iter().find(|c| c.id == id);
    &cell.unwrap_or_else(|| panic!("no cell {id}")).kind
}

fn kinds_of(picture: &Picture, wanted: &str) -> HashSet<String> {
    let cells = picture.cells.iter().filter(|c| c.kind == wanted);
    cells.map(|c| c.id.clone()).collect()
}

fn set(ids: &[&str]) -> HashSet<String> {
    ids.iter().map(|s| s.to_string()).collect()
}

#[test]
fn random_positions_of_every_variant_pass_the_view_check() {
    let positions = positions();
    assert!(positions.len() > 350);
    let dims: HashSet<usize> = positions.iter().map(|p| p.rules().dim).collect();
    assert_eq!(dims, HashSet::from([7, 9, 11, 19]));
    assert_eq!(check_view(&positions), Ok(positions.len()));
}

#[test]
fn click_paths_spell_the_move_and_lead_to_it() {
    let mut count = 0;
    for state in positions() {
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        for mv in moves {
            let path = state.clicks(mv);
            assert_eq!(move_of_clicks(&state, &path).unwrap(), mv);
            let [from, to] = &path[..] else {
                panic!("two clicks, not {path:?}");
            };
            assert_eq!(state.parse_move(&format!("{from}-{to}")), Ok(mv));
            count += 1;
        }
    }
    assert!(count > 10_000, "{count} moves");
}

#[test]
fn pieces_are_the_board() {
    for state in positions() {
        let picture = draw(&state);
        let dim = state.rules().dim;
        assert_eq!(picture.cells.len(), dim * dim);
        let total = state.piece_count(Side::First) + state.piece_count(Side::Second);
        assert_eq!(picture.pieces.len(), total);
        for piece in &picture.pieces {
            let sq = parse_square(&piece.cell, dim).unwrap();
            let expected = match state.board().get(sq) {
                Piece::Attacker => (Side::First, "attacker"),
                Piece::Defender => (Side::Second, "defender"),
                Piece::King => (Side::Second, "king"),
                Piece::Empty => panic!("a piece drawn on the empty {}", piece.cell),
            };
            assert_eq!((piece.side, piece.kind.as_str()), expected);
        }
    }
}

#[test]
fn copenhagen_start_is_eleven_squares_with_throne_corners_and_37_pieces() {
    let start = Tafl::start_position();
    let picture = draw(&start);
    assert_eq!(picture.cells.len(), 121);
    assert_eq!(kind(&picture, "f6"), "throne");
    assert_eq!(kinds_of(&picture, "throne"), set(&["f6"]));
    assert_eq!(
        kinds_of(&picture, "corner"),
        set(&["a1", "a11", "k1", "k11"])
    );
    assert!(kinds_of(&picture, "fortress").is_empty());
    assert_eq!(kind(&picture, "a2"), "light");
    let at = |id: &str| {
        let cell = picture.cells.iter().find(|c| c.id == id).unwrap();
        (cell.x, cell.y)
    };
    // Rank 1 at the bottom, file a at the left, every cell inside the drawing.
    assert!(at("a1").1 > at("a11").1 && at("a1").0 < at("k1").0);
    for cell in &picture.cells {
        assert!(cell.x - 0.5 >= 0.0 && cell.x + 0.5 <= picture.width);
        assert!(cell.y - 0.5 >= 0.0 && cell.y + 0.5 <= picture.height);
    }
    assert_eq!(picture.pieces.len(), 37);
    let count = |kind: &str, side: Side| {
        let pieces = picture.pieces.iter();
        pieces.filter(|p| p.kind == kind && p.side == side).count()
    };
    assert_eq!(count("attacker", Side::First), 24);
    assert_eq!(count("defender", Side::Second), 12);
    assert_eq!(count("king", Side::Second), 1);
    let king = picture.pieces.iter().find(|p| p.kind == "king").unwrap();
    assert_eq!(king.cell, "f6");
    // The rules document's attackers: d1..h1 and f2 on the south edge.
    for id in ["d1", "e1", "f1", "g1", "h1", "f2"] {
        assert!(
            picture
                .pieces
                .iter()
                .any(|p| p.cell == id && p.kind == "attacker")
        );
    }
    let labels: HashSet<&str> = picture.labels.iter().map(|l| l.text.as_str()).collect();
    let expected = [
        "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "1", "2", "3", "4", "5", "6", "7",
        "8", "9", "10", "11",
    ];
    assert_eq!(labels, expected.into_iter().collect());
    let titles: Vec<&str> = picture.panels.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Copenhagen (11x11): the king escapes on a corner",
            "Attackers: 24",
            "Defenders: 13"
        ]
    );
}

#[test]
fn other_sizes_and_special_squares() {
    let brandub = draw(&start_of("brandub").unwrap());
    assert_eq!(brandub.cells.len(), 49);
    assert_eq!(kinds_of(&brandub, "throne"), set(&["d4"]));
    assert_eq!(kinds_of(&brandub, "corner"), set(&["a1", "a7", "g1", "g7"]));
    assert_eq!(brandub.pieces.len(), 13);
    // Tablut (`cor:` empty): a throne and no corner; edge escape.
    let tablut = draw(&start_of("tablut").unwrap());
    assert_eq!(tablut.cells.len(), 81);
    assert_eq!(kinds_of(&tablut, "throne"), set(&["e5"]));
    assert!(kinds_of(&tablut, "corner").is_empty());
    assert!(tablut.panels[0].title.ends_with("any edge square"));
    // Sea battle (`cor:` and `cen:` empty): plain squares only.
    let sea = draw(&start_of("sea_battle").unwrap());
    assert!(sea.cells.iter().all(|c| c.kind == "light"));
    // Alea Evangelii: 19x19, sixteen corner squares, files a..s.
    let alea = draw(&start_of("alea_evangelii").unwrap());
    assert_eq!(alea.cells.len(), 361);
    assert_eq!((alea.width, alea.height), (20.6, 20.6));
    let corners = [
        "a1", "a2", "b1", "b2", "a18", "b18", "a19", "b19", "r1", "r2", "s1", "s2", "r18", "r19",
        "s18", "s19",
    ];
    assert_eq!(kinds_of(&alea, "corner"), set(&corners));
    assert_eq!(kinds_of(&alea, "throne"), set(&["j10"]));
    assert!(alea.labels.iter().any(|l| l.text == "s"));
    assert!(alea.labels.iter().any(|l| l.text == "19"));
    // Fortress squares of either side.
    let fortress = draw(&from_rules(FORTRESS_RULES).unwrap());
    assert_eq!(
        kinds_of(&fortress, "fortress"),
        set(&["b2", "j10", "c3", "i9"])
    );
    assert!(kinds_of(&fortress, "corner").is_empty());
}
