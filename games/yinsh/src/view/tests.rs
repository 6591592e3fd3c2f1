//! Unit tests of `view` in `plies-yinsh`: the invariants of `plies_view::check_view` along
//! random games (normal and Blitz, every phase and a pass), click paths that spell each move,
//! the board's points, lines and labels against the rules (docs/rules: yinsh.md), and the two
//! variants (normal and Blitz) offered to a picker.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use std::collections::{HashMap, HashSet};

use plies::harness::{random_playout_positions, random_playout_positions_with_finished};
use plies::{Game, Notation, Side};
use plies_view::{Picture, Shape, View, check_variants, check_view, move_of_clicks};

use crate::board::{CELLS, cell_name, parse_cell, step};
use crate::state::{Move, Phase, Yinsh};

/// White cannot move a ring: its rings fill column a and b1, black rings b2..b6 block them,
/// and the other lines from b1 are markers up to the edge.
const PASSING: &str = "WWWW/WBBBBB./bw....../w.b....../b..w....../...b...../....w...../....b..../....w.../....b../...w w move 0-0 0 normal";

/// Positions of random games, normal and Blitz, finished ones included, and [`PASSING`].
fn positions() -> Vec<Yinsh> {
    let mut out = Vec::new();
    for (seed, blitz) in [(1, false), (2, true)] {
        let start = Yinsh::new(blitz);
        out.extend(random_playout_positions(&start, seed, 250, 120));
        out.extend(random_playout_positions_with_finished(
            &start,
            seed + 10,
            30,
            200,
        ));
    }
    out.push(Yinsh::parse_position(PASSING).unwrap());
    out
}

fn centres(picture: &Picture) -> HashMap<&str, (f32, f32)> {
    let cells = picture.cells.iter();
    cells.map(|c| (c.id.as_str(), (c.x, c.y))).collect()
}

#[test]
fn random_positions_of_every_phase_pass_the_view_check() {
    let positions = positions();
    assert!(positions.len() > 500);
    let phases: HashSet<String> = positions
        .iter()
        .map(|p| format!("{:?}", p.phase()))
        .collect();
    assert_eq!(phases.len(), 4, "{phases:?}");
    assert_eq!(check_view(&positions), Ok(positions.len()));
}

#[test]
fn click_paths_spell_the_move_and_lead_to_it() {
    let mut kinds = HashSet::new();
    for state in positions() {
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        for mv in moves {
            let path = state.clicks(mv);
            assert_eq!(move_of_clicks(&state, &path).unwrap(), mv);
            let text = match (state.phase(), &path[..]) {
                (_, [pass]) if pass == "pass" => pass.clone(),
                (Phase::Place, [c]) => c.clone(),
                (Phase::RemoveRing, [c]) => format!("x{c}"),
                (Phase::Move, [from, to]) => format!("{from}-{to}"),
                (Phase::RemoveRow, [start, end]) => {
                    // The two ends are five points apart on a line, the lower end first.
                    let (a, b) = (parse_cell(start).unwrap(), parse_cell(end).unwrap());
                    let dir = (0..3).find(|&d| (0..4).try_fold(a, |at, _| step(at, d)) == Some(b));
                    assert!(dir.is_some(), "{start}-{end}");
                    format!("x{start}-{end}")
                }
                (phase, other) => panic!("{phase:?}: unexpected clicks {other:?}"),
            };
            assert_eq!(state.parse_move(&text), Ok(mv), "{text}");
            kinds.insert(std::mem::discriminant(&mv));
        }
    }
    assert_eq!(kinds.len(), 5, "every kind of move was clicked");
}

#[test]
fn the_board_has_85_points_on_unit_lines() {
    let picture = Yinsh::start_position().picture();
    assert_eq!(picture.cells.len(), 85);
    assert!(picture.cells.iter().all(|c| c.shape == Shape::Point));
    assert!(picture.pieces.is_empty());
    let centres = centres(&picture);
    // The rules' points, column by column.
    let columns = [
        ('a', 2, 5),
        ('b', 1, 7),
        ('c', 1, 8),
        ('d', 1, 9),
        ('e', 1, 10),
        ('f', 2, 10),
        ('g', 2, 11),
        ('h', 3, 11),
        ('i', 4, 11),
        ('j', 5, 11),
        ('k', 7, 10),
    ];
    let mut expected = HashSet::new();
    for (letter, low, high) in columns {
        for row in low..=high {
            expected.insert(format!("{letter}{row}"));
        }
    }
    let ids: HashSet<String> = picture.cells.iter().map(|c| c.id.clone()).collect();
    assert_eq!(ids, expected);
    // Neighbours along every line are a unit apart; points that are no neighbours are farther.
    for cell in 0..CELLS {
        let (x, y) = centres[cell_name(cell).as_str()];
        assert!(x - 0.4 >= 0.0 && x + 0.4 <= picture.width);
        assert!(y - 0.4 >= 0.0 && y + 0.4 <= picture.height);
        let neighbours: HashSet<usize> = (0..6).filter_map(|d| step(cell, d)).collect();
        for other in 0..CELLS {
            if other == cell {
                continue;
            }
            let (u, v) = centres[cell_name(other).as_str()];
            let distance = ((u - x).powi(2) + (v - y).powi(2)).sqrt();
            if neighbours.contains(&other) {
                assert!((distance - 1.0).abs() < 1e-4, "{cell} {other}");
            } else {
                assert!(distance > 1.5, "{cell} {other}");
            }
        }
    }
    // Columns upright with a1 side at the bottom: e1 below e10, a5 left of k7.
    assert!(centres["e1"].1 > centres["e10"].1);
    assert_eq!(centres["e1"].0, centres["e10"].0);
    assert!(centres["a5"].0 < centres["k7"].0);
}

#[test]
fn grid_lines_join_the_points_along_the_three_directions() {
    let picture = Yinsh::start_position().picture();
    let centres = centres(&picture);
    let close = |p: (f32, f32), q: (f32, f32)| (p.0 - q.0).abs() + (p.1 - q.1).abs() < 1e-4;
    // Every segment between two neighbours on a positive direction lies on exactly one line.
    let mut segments = 0;
    for cell in 0..CELLS {
        for dir in 0..3 {
            let Some(next) = step(cell, dir) else {
                continue;
            };
            segments += 1;
            let (a, b) = (
                centres[cell_name(cell).as_str()],
                centres[cell_name(next).as_str()],
            );
            let on = picture.lines.iter().filter(|line| {
                let (dx, dy) = (line.to.0 - line.from.0, line.to.1 - line.from.1);
                let along = |p: (f32, f32)| {
                    let cross = (p.0 - line.from.0) * dy - (p.1 - line.from.1) * dx;
                    let t =
                        ((p.0 - line.from.0) * dx + (p.1 - line.from.1) * dy) / (dx * dx + dy * dy);
                    cross.abs() < 1e-3 && (-1e-4..=1.0 + 1e-4).contains(&t)
                };
                along(a) && along(b)
            });
            assert_eq!(on.count(), 1, "{} {}", cell_name(cell), cell_name(next));
        }
    }
    assert!(segments > 200);
    // Every line starts and ends on points: the rules' 11 lines per direction.
    assert_eq!(picture.lines.len(), 33);
    for line in &picture.lines {
        assert!(centres.values().any(|&c| close(c, line.from)));
        assert!(centres.values().any(|&c| close(c, line.to)));
    }
    let labels: HashSet<&str> = picture.labels.iter().map(|l| l.text.as_str()).collect();
    let expected: HashSet<String> = ('a'..='k')
        .map(String::from)
        .chain((1..=11).map(|r: u32| r.to_string()))
        .collect();
    assert_eq!(labels, expected.iter().map(String::as_str).collect());
}

#[test]
fn pieces_panels_and_the_pass_button() {
    for state in positions() {
        let picture = state.picture();
        let drawn = picture.pieces.len();
        let on_board = (1..=4)
            .map(|c| state.cells_with(c).count_ones())
            .sum::<u32>();
        assert_eq!(drawn, on_board as usize);
        for piece in &picture.pieces {
            let content = state.cell(parse_cell(&piece.cell).unwrap());
            let expected = match content {
                1 => (Side::First, "ring"),
                2 => (Side::Second, "ring"),
                3 => (Side::First, "marker"),
                4 => (Side::Second, "marker"),
                _ => panic!("a piece drawn on the empty {}", piece.cell),
            };
            assert_eq!((piece.side, piece.kind.as_str()), expected);
        }
        let target = if state.is_blitz() { 1 } else { 3 };
        assert_eq!(
            picture.panels[0].title,
            format!(
                "White: {} of {target} rings removed",
                state.removed(Side::First)
            )
        );
        assert_eq!(
            picture.panels[1].title,
            format!(
                "Black: {} of {target} rings removed",
                state.removed(Side::Second)
            )
        );
        assert!(picture.panels[..2].iter().all(|p| p.items.is_empty()));
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        let pass = picture
            .panels
            .iter()
            .flat_map(|p| &p.items)
            .any(|i| i.id == "pass");
        assert_eq!(pass, moves == [Move::Pass]);
    }
    let passing = Yinsh::parse_position(PASSING).unwrap();
    let mut moves = Vec::new();
    passing.generate_moves(&mut moves);
    assert_eq!(moves, [Move::Pass]);
    assert_eq!(passing.clicks(Move::Pass), ["pass"]);
    let status = &passing.picture().panels[2];
    assert_eq!(status.side, Some(Side::First));
    assert!(
        status.title.starts_with("White: no ring can move"),
        "{}",
        status.title
    );
    let start = Yinsh::start_position().picture();
    assert_eq!(start.panels[2].title, "White: place a ring");
}

#[test]
fn normal_and_blitz_are_the_variants() {
    assert_eq!(check_variants::<Yinsh>(), Ok(2));
    let variants = Yinsh::variants();
    let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["Yinsh", "Yinsh Blitz"]);
    assert_eq!(
        variants[0].position,
        Yinsh::start_position().format_position()
    );
    for (variant, blitz) in variants.iter().zip([false, true]) {
        let start = Yinsh::parse_position(&variant.position).unwrap();
        assert_eq!(start.hash(), Yinsh::new(blitz).hash());
        assert_eq!(start.is_blitz(), blitz);
    }
    assert!(
        variants[0]
            .description
            .ends_with("the first to remove 3 rings wins")
    );
    assert!(
        variants[1]
            .description
            .ends_with("the first to remove 1 ring wins")
    );
    assert!(
        variants[1]
            .rules
            .contains("\nWin: the first to remove 1 ring wins.\n")
    );
    for state in positions() {
        let expected = if state.is_blitz() {
            "Yinsh Blitz"
        } else {
            "Yinsh"
        };
        assert_eq!(state.variant_of().as_deref(), Some(expected));
    }
}
