//! Unit tests of `view` in `plies-kalah`: the invariants of `plies_view::check_view` along
//! random games of several sizes, click paths that spell each move, and the board against the
//! rules of the crate docs.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use std::collections::HashMap;

use plies::harness::{random_playout_positions, random_playout_positions_with_finished};
use plies::{Game, Notation, Side};
use plies_view::{Cell, Picture, View, check_view, move_of_clicks};

use crate::Kalah;

/// Positions of random games of Kalah(6,4), (3,3) and (8,6), finished ones included.
fn positions() -> Vec<Kalah> {
    let mut out = Vec::new();
    for (seed, (pits, seeds)) in [(6, 4), (3, 3), (8, 6)].into_iter().enumerate() {
        let start = Kalah::new(pits, seeds).unwrap();
        let seed = seed as u64;
        out.extend(random_playout_positions(&start, seed, 120, 60));
        out.extend(random_playout_positions_with_finished(
            &start,
            seed + 10,
            20,
            100,
        ));
    }
    out
}

fn cells(picture: &Picture) -> HashMap<&str, &Cell> {
    picture.cells.iter().map(|c| (c.id.as_str(), c)).collect()
}

#[test]
fn random_positions_pass_the_view_check() {
    let positions = positions();
    assert!(positions.len() > 300);
    assert_eq!(check_view(&positions), Ok(positions.len()));
}

#[test]
fn click_paths_are_the_movers_pit_and_lead_to_the_move() {
    for state in positions() {
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        for mv in moves {
            let path = state.clicks(mv);
            assert_eq!(move_of_clicks(&state, &path).unwrap(), mv);
            let [click] = &path[..] else {
                panic!("one click, not {path:?}");
            };
            let (side, letter) = click.split_once('-').unwrap();
            assert_eq!(side, Kalah::side_name(state.side_to_move()));
            assert_eq!(state.parse_move(letter), Ok(mv));
        }
    }
}

#[test]
fn texts_are_the_seeds_of_pits_and_stores() {
    for state in positions() {
        let picture = state.picture();
        let cells = cells(&picture);
        assert_eq!(cells.len(), 2 * state.pits() + 2);
        for (side, name) in [(Side::First, "south"), (Side::Second, "north")] {
            for pit in 0..state.pits() {
                let letter = char::from(b'a' + pit as u8);
                let cell = cells[format!("{name}-{letter}").as_str()];
                assert_eq!(cell.text, Some(state.seeds(side, pit).to_string()));
            }
            let store = cells[format!("{name}-store").as_str()];
            assert_eq!(store.text, Some(state.store(side).to_string()));
        }
    }
}

#[test]
fn the_start_has_fourteen_places_as_the_rules_lay_them_out() {
    let picture = Kalah::start_position().picture();
    let cells = cells(&picture);
    assert_eq!(cells.len(), 14);
    let kinds = |kind: &str| picture.cells.iter().filter(|c| c.kind == kind).count();
    assert_eq!((kinds("pit"), kinds("store")), (12, 2));
    for cell in &picture.cells {
        let seeds = if cell.kind == "store" { "0" } else { "4" };
        assert_eq!(cell.text.as_deref(), Some(seeds), "{}", cell.id);
        assert!(cell.x - cell.size / 2.0 >= 0.0 && cell.x + cell.size / 2.0 <= picture.width);
        assert!(cell.y - cell.size / 2.0 >= 0.0 && cell.y + cell.size / 2.0 <= picture.height);
    }
    let at = |id: &str| (cells[id].x, cells[id].y);
    // South below North; South sows a..f left to right into its store on the right, North
    // right to left into its store on the left (counter-clockwise).
    assert!(at("south-a").1 > at("north-a").1);
    assert!(at("south-a").0 < at("south-f").0 && at("south-f").0 < at("south-store").0);
    assert!(at("north-a").0 > at("north-f").0 && at("north-f").0 > at("north-store").0);
    // A pit faces the opposite pit of the capture rule: South's a faces North's f.
    for (south, north) in ["af", "be", "cd", "dc", "eb", "fa"]
        .iter()
        .map(|p| (p.as_bytes()[0] as char, p.as_bytes()[1] as char))
    {
        assert_eq!(
            at(&format!("south-{south}")).0,
            at(&format!("north-{north}")).0
        );
    }
    // Each pit's letter is written beside it, on the outside of its row.
    for cell in picture.cells.iter().filter(|c| c.kind == "pit") {
        let letter = cell.id.split_once('-').unwrap().1;
        let label = picture
            .labels
            .iter()
            .find(|l| l.x == cell.x && l.text == letter);
        let label = label.unwrap_or_else(|| panic!("no letter for {}", cell.id));
        let outside = if cell.id.starts_with("south") {
            label.y > cell.y
        } else {
            label.y < cell.y
        };
        assert!(outside, "{}", cell.id);
    }
    assert_eq!(picture.labels.len(), 12);
    assert!(picture.pieces.is_empty() && picture.panels.is_empty());
}
