//! Unit tests of `view` in `plies-hus`: the invariants of `plies_view::check_view` along
//! random games, click paths that spell each move, and the pits' layout, counts and numbers
//! against the rules (docs/rules: hus.md).
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use std::collections::{HashMap, HashSet};

use plies::harness::{random_playout_positions, random_playout_positions_with_finished};
use plies::{Game, Notation, Side};
use plies_view::{Cell, Picture, View, check_view, move_of_clicks};

use crate::state::{Hus, PITS};

/// Positions of random games, finished ones included.
fn positions() -> Vec<Hus> {
    let start = Hus::start_position();
    let mut out = random_playout_positions(&start, 1, 300, 300);
    out.extend(random_playout_positions_with_finished(&start, 2, 40, 400));
    out
}

fn cells(picture: &Picture) -> HashMap<&str, &Cell> {
    picture.cells.iter().map(|c| (c.id.as_str(), c)).collect()
}

fn id(side: Side, pit: usize) -> String {
    format!("p{}-{pit}", side.index())
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
            let (player, pit) = click.split_once('-').unwrap();
            assert_eq!(player, format!("p{}", state.side_to_move().index()));
            assert_eq!(state.parse_move(pit), Ok(mv));
        }
    }
}

#[test]
fn pit_texts_are_the_seed_counts() {
    for state in positions() {
        let picture = state.picture();
        let cells = cells(&picture);
        assert_eq!(cells.len(), 2 * PITS);
        for side in Side::BOTH {
            for pit in 0..PITS {
                let text = cells[id(side, pit).as_str()].text.as_deref();
                assert_eq!(text, Some(state.seeds(side, pit).to_string().as_str()));
            }
        }
        let totals: Vec<&str> = picture.panels[..2]
            .iter()
            .map(|p| p.title.as_str())
            .collect();
        let expected = [
            format!("Player 1: {} seeds", state.total(Side::Second)),
            format!("Player 0: {} seeds", state.total(Side::First)),
        ];
        assert_eq!(totals, expected);
    }
}

#[test]
fn start_is_four_rows_of_sixteen_pits_as_the_rules_deal_them() {
    let picture = Hus::start_position().picture();
    let cells = cells(&picture);
    assert_eq!(cells.len(), 64);
    assert!(picture.cells.iter().all(|c| c.kind == "pit"));
    assert!(picture.pieces.is_empty());
    let xs: HashSet<u32> = picture.cells.iter().map(|c| c.x.to_bits()).collect();
    let ys: HashSet<u32> = picture.cells.iter().map(|c| c.y.to_bits()).collect();
    assert_eq!((xs.len(), ys.len()), (16, 4));
    for cell in &picture.cells {
        assert!(cell.x - cell.size / 2.0 >= 0.0 && cell.x + cell.size / 2.0 <= picture.width);
        assert!(cell.y - cell.size / 2.0 >= 0.0 && cell.y + cell.size / 2.0 <= picture.height);
    }
    // Pits 0..23 hold 2 seeds, 24..31 are empty, for both players.
    for side in Side::BOTH {
        for pit in 0..PITS {
            let seeds = if pit < 24 { "2" } else { "0" };
            assert_eq!(cells[id(side, pit).as_str()].text.as_deref(), Some(seeds));
        }
    }
    let at = |side, pit| {
        let cell = cells[id(side, pit).as_str()];
        (cell.x, cell.y)
    };
    // Player 0 at the bottom: outer row below its inner row, pits 0..15 left to right, the
    // inner row running back; player 1's rows above.
    assert!(at(Side::First, 0).1 > at(Side::First, 16).1);
    assert!(at(Side::First, 16).1 > at(Side::Second, 16).1);
    assert!(at(Side::Second, 16).1 > at(Side::Second, 0).1);
    assert!(at(Side::First, 0).0 < at(Side::First, 15).0);
    assert_eq!(at(Side::First, 15).0, at(Side::First, 16).0);
    assert_eq!(at(Side::First, 0).0, at(Side::First, 31).0);
    // The rules: inner pit i faces the other's inner pit 47 - i and outer pit i - 16.
    for pit in 16..PITS {
        let x = at(Side::First, pit).0;
        assert_eq!(at(Side::Second, 47 - pit).0, x, "{pit}");
        assert_eq!(at(Side::Second, pit - 16).0, x, "{pit}");
        let x = at(Side::Second, pit).0;
        assert_eq!(at(Side::First, 47 - pit).0, x, "{pit}");
    }
    // Every pit has its number written in its column, nearer to it than any other pit.
    for cell in &picture.cells {
        let number = cell.id.split_once('-').unwrap().1;
        let label = picture
            .labels
            .iter()
            .filter(|l| l.x == cell.x && l.text == number)
            .min_by(|a, b| (a.y - cell.y).abs().total_cmp(&(b.y - cell.y).abs()))
            .unwrap_or_else(|| panic!("no number for {}", cell.id));
        let nearest = picture
            .cells
            .iter()
            .filter(|c| c.x == cell.x)
            .min_by(|a, b| (a.y - label.y).abs().total_cmp(&(b.y - label.y).abs()))
            .unwrap();
        assert_eq!(nearest.id, cell.id);
    }
}

#[test]
fn the_rules_worked_capture_shows_in_the_pits() {
    // docs/rules: seed 1 opens 14 9 18; the third move captures and relays, leaving player 0's
    // pits 18..26 at 0,1,4,4,1,4,0,2,1.
    let state = Hus::start_position().play_line("14 9 18").unwrap();
    let picture = state.picture();
    let cells = cells(&picture);
    let texts: Vec<&str> = (18..=26)
        .map(|pit| {
            cells[id(Side::First, pit).as_str()]
                .text
                .as_deref()
                .unwrap()
        })
        .collect();
    assert_eq!(texts, ["0", "1", "4", "4", "1", "4", "0", "2", "1"]);
    assert_eq!(picture.panels[2].title, "Round 1");
}
