//! The Kalah margin tables and the exact search ([`plies_kalah::solve`]) against two independent
//! references: an exhaustive minimax of the final store difference written here, played through
//! the `Game` trait with a memo on the position text, and the library's generic table solver
//! (`plies::solve::Solver`), whose win, draw or loss of every position of small levels must be
//! the sign of the store difference plus the table's margin.
//!
//! Key invariant: no expected value comes from the code under test.

use std::collections::HashMap;

use plies::harness::random_playout_positions;
use plies::solve::{PositionSet, Probe, Solver, Table, TableValue};
use plies::{Game, Notation, Side};
use plies_kalah::solve::{Level, MarginTables, solve_margin};
use plies_kalah::{CaptureRule, Kalah};

/// The final store difference, South's view, with best play: South maximises, North minimises.
fn minimax(state: &Kalah, memo: &mut HashMap<String, i32>) -> i32 {
    if state.outcome().is_some() {
        return i32::from(state.store(Side::First)) - i32::from(state.store(Side::Second));
    }
    let text = state.format_position();
    if let Some(&v) = memo.get(&text) {
        return v;
    }
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    let values = moves.iter().map(|&mv| minimax(&state.play(mv), memo));
    let value = if state.side_to_move() == Side::First {
        values.max()
    } else {
        values.min()
    }
    .expect("a position that is not over has a move");
    memo.insert(text, value);
    value
}

fn seeds_in_pits(state: &Kalah) -> usize {
    Side::BOTH
        .iter()
        .map(|&side| state.seeds_on_side(side) as usize)
        .sum()
}

#[test]
fn margins_equal_exhaustive_minimax_on_small_boards() {
    for capture in [CaptureRule::Opposite, CaptureRule::Empty] {
        for (pits, seeds, table_seeds) in [(3, 2, 4), (3, 3, 6), (4, 2, 5), (2, 4, 3)] {
            let start = Kalah::new(pits, seeds).unwrap().with_capture(capture);
            let mut memo = HashMap::new();
            let tables = MarginTables::build(pits, capture, table_seeds, 2, &mut |_| {}).unwrap();
            let tiny = MarginTables::build(pits, capture, 0, 1, &mut |_| {}).unwrap();
            let whole =
                MarginTables::build(pits, capture, pits * 2 * usize::from(seeds), 1, &mut |_| {})
                    .unwrap();
            let expected = minimax(&start, &mut memo);
            for t in [&tables, &tiny, &whole] {
                let got = solve_margin(&start, t, 12, &mut |_| {}).unwrap();
                assert_eq!(
                    got.south_margin, expected,
                    "Kalah({pits},{seeds}) {capture:?}"
                );
                let best = got.best.expect("a move");
                let after = minimax(&start.play(best), &mut memo);
                assert_eq!(after, expected, "the best move keeps the value");
            }
            let mut checked = 0;
            for position in random_playout_positions(&start, 7, 60, 30) {
                let expected = minimax(&position, &mut memo);
                let got = solve_margin(&position, &tables, 10, &mut |_| {})
                    .unwrap()
                    .south_margin;
                assert_eq!(got, expected, "{}", position.format_position());
                if seeds_in_pits(&position) <= table_seeds {
                    let me = position.side_to_move();
                    let stores =
                        i32::from(position.store(me)) - i32::from(position.store(me.opponent()));
                    let mine = if me == Side::First {
                        expected
                    } else {
                        -expected
                    };
                    assert_eq!(tables.margin(&position), Some(mine - stores));
                    checked += 1;
                }
            }
            assert!(checked > 5, "only {checked} positions in the tables");
        }
    }
}

#[test]
fn the_generic_solver_agrees_with_the_margins() {
    // Both of the library's solvers, distances and win/draw/loss in bits, level by level (each
    // probing the levels below as its outside), on one thread and two.
    for (capture, threads) in [(CaptureRule::Opposite, 1), (CaptureRule::Empty, 2)] {
        let (pits, total) = (3, 10u8);
        let margins =
            MarginTables::build(pits, capture, usize::from(total), 1, &mut |_| {}).unwrap();
        let mut levels: Vec<(Level, Table, Table)> = Vec::new();
        let mut counts = [0u64; 3];
        for in_pits in 0..=total {
            let level = Level::new(pits, capture, total, in_pits).unwrap();
            assert_eq!(level.in_pits(), in_pits);
            let distances = |state: &Kalah| {
                let (set, table, _) = levels.get(seeds_in_pits(state))?;
                table.probe(set, state)
            };
            let bits = |state: &Kalah| {
                let (set, _, table) = levels.get(seeds_in_pits(state))?;
                table.probe(set, state)
            };
            let table = Solver::new(&level)
                .threads(threads)
                .outside(&distances)
                .solve(&mut |_| {})
                .unwrap();
            let wdl = Solver::new(&level)
                .threads(threads)
                .outside(&bits)
                .solve_wdl(&mut |_| {})
                .unwrap();
            assert_eq!(wdl.bytes(), level.size().div_ceil(4));
            for index in 0..level.size() {
                let Some(state) = level.position(index) else {
                    assert_eq!(table.value(index), None);
                    assert_eq!(wdl.value(index), None);
                    continue;
                };
                let expected = margins.probe(&state).unwrap();
                let got = table.value(index).unwrap().outcome_only();
                assert_eq!(got, expected, "{}", state.format_position());
                assert_eq!(
                    wdl.value(index),
                    Some(expected),
                    "{}",
                    state.format_position()
                );
                counts[match got {
                    TableValue::Won => 0,
                    TableValue::Lost => 1,
                    _ => 2,
                }] += 1;
            }
            levels.push((level, table, wdl));
        }
        assert!(counts.iter().all(|&c| c > 100), "{counts:?}");
    }
}

#[test]
fn a_level_numbers_each_of_its_positions_once() {
    // Every number gives a position that numbers back to it, or a hole; every position met in
    // play lies in the level of its seeds and is given back by its number.
    for (pits, total) in [(1, 3u8), (3, 9), (6, 8)] {
        for in_pits in [0, total / 2, total] {
            let level = Level::new(pits, CaptureRule::Empty, total, in_pits).unwrap();
            let mut real = 0;
            for index in 0..level.size() {
                if let Some(state) = level.position(index) {
                    assert_eq!(level.index(&state), Some(index));
                    assert_eq!(seeds_in_pits(&state), usize::from(in_pits));
                    real += 1;
                }
            }
            assert!(in_pits == 0 || real > 0, "{pits} pits {in_pits}/{total}");
        }
    }
    let start = Kalah::new(6, 2).unwrap();
    let mut met = 0;
    for state in random_playout_positions(&start, 5, 300, 60) {
        if state.outcome().is_some() {
            continue;
        }
        let in_pits = seeds_in_pits(&state) as u8;
        let level = Level::new(6, state.capture_rule(), 24, in_pits).unwrap();
        let index = level.index(&state).expect("in its level");
        assert_eq!(level.position(index), Some(state.clone()));
        // No other level holds it (and asking one with fewer seeds in the pits is no error).
        for other in 0..=24 {
            let level = Level::new(6, state.capture_rule(), 24, other).unwrap();
            assert_eq!(level.index(&state).is_some(), other == in_pits);
        }
        met += 1;
    }
    assert!(met > 100, "{met}");
    assert!(Level::new(9, CaptureRule::Empty, 10, 4).is_err());
    assert!(Level::new(6, CaptureRule::Empty, 10, 11).is_err());
}

#[test]
fn the_library_search_plays_with_the_margin_tables() {
    use plies::search::{PvsConfig, SearchLimits};
    use plies::spec::SearcherSpec;
    use plies_kalah::StoreDifference;
    use std::sync::Arc;
    let capture = CaptureRule::Empty;
    let start = Kalah::new(3, 3).unwrap().with_capture(capture);
    let tables = Arc::new(MarginTables::build(3, capture, 6, 1, &mut |_| {}).unwrap());
    let exact = PvsConfig::consistency_ladder().pop().expect("a ladder").1;
    let mut search = SearcherSpec::Pvs(exact)
        .build::<Kalah, StoreDifference>(StoreDifference::default())
        .unwrap();
    search
        .set_endgame_tables(Some(tables.clone() as Arc<dyn Probe<Kalah>>))
        .unwrap();
    let mut memo = HashMap::new();
    let mut decisive = 0;
    for position in random_playout_positions(&start, 11, 40, 40) {
        if position.outcome().is_some() || seeds_in_pits(&position) > 12 {
            continue;
        }
        let south = minimax(&position, &mut memo);
        let mine = if position.side_to_move() == Side::First {
            south
        } else {
            -south
        };
        search.clear();
        let score = search.search(&position, &SearchLimits::depth(14)).score;
        if score.is_decisive() {
            decisive += 1;
            assert_eq!(score.is_win(), mine > 0, "{}", position.format_position());
            assert_eq!(score.is_loss(), mine < 0, "{}", position.format_position());
        }
    }
    assert!(decisive > 10, "only {decisive} decided");
}
