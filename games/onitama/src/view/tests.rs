//! Unit tests of `view` in `plies-onitama`: the invariants of `plies_view::check_view` along
//! random games, the start picture against the rules (docs/rules: onitama.md), the card grids
//! against the move generator, and click paths that spell each move.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use std::collections::{HashMap, HashSet};

use plies::harness::{random_playout_positions, random_playout_positions_with_finished};
use plies::{Game, Notation, Side};
use plies_view::{Picture, View, check_view, move_of_clicks};

use crate::state::Onitama;

/// Positions of random games from a few deals, finished ones included.
fn positions() -> Vec<Onitama> {
    let deals = [
        crate::notation::START_POSITION,
        "bbBbb/5/5/5/rrRrr b horse,elephant ox,boar crab",
        "bbBbb/5/5/5/rrRrr r rooster,tiger rabbit,cobra frog",
        "bbBbb/5/5/5/rrRrr r kirin,seasnake phoenix,sable otter",
    ];
    let mut out = Vec::new();
    for (seed, deal) in deals.iter().enumerate() {
        let start = Onitama::parse_position(deal).unwrap();
        out.extend(random_playout_positions(&start, seed as u64, 80, 60));
        out.extend(random_playout_positions_with_finished(
            &start,
            seed as u64 + 100,
            20,
            60,
        ));
    }
    out.push(Onitama::parse_position("4R/4r/4r/B3r/4r r tiger,ox crab,boar horse").unwrap());
    out
}

fn ids(picture: &Picture) -> HashSet<String> {
    let cells = picture.cells.iter().map(|c| c.id.clone());
    let items = picture
        .panels
        .iter()
        .flat_map(|p| p.items.iter().map(|i| i.id.clone()));
    cells.chain(items).collect()
}

#[test]
fn random_positions_pass_the_view_check() {
    let positions = positions();
    assert!(positions.len() > 400);
    assert_eq!(check_view(&positions), Ok(positions.len()));
}

#[test]
fn click_paths_spell_the_move_and_lead_to_it() {
    let mut passes = 0;
    for state in positions() {
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        for mv in moves {
            let path = state.clicks(mv);
            assert_eq!(move_of_clicks(&state, &path).unwrap(), mv);
            let card = path[0].strip_prefix("card:").expect("a card first");
            let text = match &path[1..] {
                [pass] if pass == "pass" => {
                    passes += 1;
                    format!("{card} pass")
                }
                [from, to] => format!("{card} {from}-{to}"),
                other => panic!("unexpected clicks {other:?}"),
            };
            assert_eq!(state.parse_move(&text), Ok(mv), "{text}");
        }
    }
    assert!(passes >= 2, "the pass position is among the positions");
}

#[test]
fn the_start_picture_follows_the_rules() {
    let start = Onitama::start_position();
    let picture = start.picture();
    assert_eq!(picture.cells.len(), 25);
    assert!(picture.cells.iter().all(|c| {
        (0.0..=picture.width).contains(&c.x) && (0.0..=picture.height).contains(&c.y)
    }));
    let kind = |id: &str| {
        let cell = picture.cells.iter().find(|c| c.id == id).unwrap();
        cell.kind.as_str()
    };
    assert_eq!(kind("c1"), "temple-first");
    assert_eq!(kind("c5"), "temple-second");
    assert_eq!(kind("c3"), "light");
    // Red (rank 1) is drawn at the bottom, files a..e left to right.
    let at = |id: &str| {
        let cell = picture.cells.iter().find(|c| c.id == id).unwrap();
        (cell.x, cell.y)
    };
    assert!(at("a1").1 > at("a5").1);
    assert!(at("a1").0 < at("e1").0);
    assert_eq!(picture.pieces.len(), 10);
    let piece = |id: &str| {
        let p = picture.pieces.iter().find(|p| p.cell == id).unwrap();
        (p.side, p.kind.as_str())
    };
    assert_eq!(piece("c1"), (Side::First, "master"));
    assert_eq!(piece("c5"), (Side::Second, "master"));
    for file in ["a", "b", "d", "e"] {
        assert_eq!(piece(&format!("{file}1")), (Side::First, "student"));
        assert_eq!(piece(&format!("{file}5")), (Side::Second, "student"));
    }
    let labels: HashSet<&str> = picture.labels.iter().map(|l| l.text.as_str()).collect();
    for text in ["a", "b", "c", "d", "e", "1", "2", "3", "4", "5"] {
        assert!(labels.contains(text), "label {text}");
    }
    // The deal: red monkey, crane; blue tiger, crab; side dragon; no pass button.
    let panel_ids = |i: usize| -> Vec<&str> {
        picture.panels[i]
            .items
            .iter()
            .map(|item| item.id.as_str())
            .collect()
    };
    assert_eq!(picture.panels.len(), 3);
    assert_eq!(picture.panels[0].title, "Blue's cards");
    assert_eq!(picture.panels[0].side, Some(Side::Second));
    assert_eq!(panel_ids(0), ["card:tiger", "card:crab"]);
    assert_eq!(picture.panels[1].title, "Red's cards");
    assert_eq!(picture.panels[1].side, Some(Side::First));
    assert_eq!(panel_ids(1), ["card:monkey", "card:crane"]);
    assert_eq!(picture.panels[2].side, None);
    assert_eq!(panel_ids(2), ["card:dragon"]);
    assert!(!ids(&picture).contains("pass"));
}

#[test]
fn card_grids_are_the_rules_tables() {
    // Offsets copied from the rules document's card table (holder's view, up = forward).
    let rules: HashMap<&str, Vec<(i8, i8)>> = HashMap::from([
        ("tiger", vec![(0, 2), (0, -1)]),
        ("dragon", vec![(-2, 1), (2, 1), (-1, -1), (1, -1)]),
        ("crab", vec![(0, 1), (-2, 0), (2, 0)]),
        ("monkey", vec![(-1, 1), (1, 1), (-1, -1), (1, -1)]),
        ("crane", vec![(0, 1), (-1, -1), (1, -1)]),
        ("rabbit", vec![(1, 1), (2, 0), (-1, -1)]),
    ]);
    for deal in [
        crate::notation::START_POSITION,
        "bbBbb/5/5/5/rrRrr r rooster,rabbit tiger,crab dragon",
    ] {
        let picture = Onitama::parse_position(deal).unwrap().picture();
        for item in picture.panels.iter().flat_map(|p| &p.items) {
            let name = item.id.strip_prefix("card:").unwrap();
            let Some(expected) = rules.get(name) else {
                continue;
            };
            let grid = item.grid.as_ref().expect("a card has a grid");
            assert_eq!(grid.size, 5);
            let marks: HashSet<(i8, i8)> = grid.marks.iter().copied().collect();
            let expected: HashSet<(i8, i8)> = expected.iter().copied().collect();
            assert_eq!(marks, expected, "{name}");
        }
    }
}

#[test]
fn every_step_is_a_mark_of_its_card_seen_by_the_mover() {
    for state in positions() {
        let picture = state.picture();
        let grids: HashMap<&str, &Vec<(i8, i8)>> = picture
            .panels
            .iter()
            .flat_map(|p| &p.items)
            .filter_map(|i| Some((i.id.as_str(), &i.grid.as_ref()?.marks)))
            .collect();
        let sign: i8 = match state.side_to_move() {
            Side::First => 1,
            Side::Second => -1,
        };
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        for mv in moves {
            let (Some(from), Some(to)) = (mv.from(), mv.to()) else {
                continue;
            };
            let dx = sign * (to.file() as i8 - from.file() as i8);
            let dy = sign * (to.rank() as i8 - from.rank() as i8);
            let card = format!("card:{}", mv.card().name());
            assert!(grids[card.as_str()].contains(&(dx, dy)), "{card} {dx},{dy}");
        }
    }
}

#[test]
fn pieces_follow_the_position_and_a_pass_has_its_button() {
    for state in positions() {
        let picture = state.picture();
        let count = state.pieces(Side::First).count() + state.pieces(Side::Second).count();
        assert_eq!(picture.pieces.len(), count as usize);
        for piece in &picture.pieces {
            let square = crate::square::Square::parse(&piece.cell).unwrap();
            assert!(state.pieces(piece.side).contains(square));
        }
    }
    let stuck = Onitama::parse_position("4R/4r/4r/B3r/4r r tiger,ox crab,boar horse").unwrap();
    let picture = stuck.picture();
    let pass = picture.panels.last().unwrap();
    assert_eq!(pass.side, Some(Side::First));
    assert_eq!(pass.items[0].id, "pass");
    let mut moves = Vec::new();
    stuck.generate_moves(&mut moves);
    let paths: HashSet<Vec<String>> = moves.iter().map(|&mv| stuck.clicks(mv)).collect();
    let expected: HashSet<Vec<String>> = [["card:tiger", "pass"], ["card:ox", "pass"]]
        .iter()
        .map(|p| p.iter().map(|s| s.to_string()).collect())
        .collect();
    assert_eq!(paths, expected);
}
