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
use plies_kalah::solve::{MarginTables, solve_margin};
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

/// Every position of a board of `pits` pits with `total` seeds in all, exactly `in_pits` of them
/// in the pits and the rest in the stores, either side to move; one with no seed on the side to
/// move (a finished game, swept when made) is a hole.
struct Level {
    pits: usize,
    capture: CaptureRule,
    total: u8,
    in_pits: u8,
    layouts: Vec<Vec<u8>>,
    numbers: HashMap<Vec<u8>, u64>,
}

impl Level {
    fn new(pits: usize, capture: CaptureRule, total: u8, in_pits: u8) -> Level {
        let mut layouts = Vec::new();
        let mut cells = vec![0u8; 2 * pits];
        fn fill(cells: &mut Vec<u8>, at: usize, left: u8, out: &mut Vec<Vec<u8>>) {
            if at == cells.len() - 1 {
                cells[at] = left;
                out.push(cells.clone());
                return;
            }
            for x in 0..=left {
                cells[at] = x;
                fill(cells, at + 1, left - x, out);
            }
        }
        fill(&mut cells, 0, in_pits, &mut layouts);
        let numbers = layouts
            .iter()
            .enumerate()
            .map(|(i, l)| (l.clone(), i as u64))
            .collect();
        Level {
            pits,
            capture,
            total,
            in_pits,
            layouts,
            numbers,
        }
    }

    fn stores(&self) -> u64 {
        u64::from(self.total - self.in_pits) + 1
    }
}

impl PositionSet<Kalah> for Level {
    fn size(&self) -> u64 {
        self.layouts.len() as u64 * self.stores() * 2
    }

    fn index(&self, state: &Kalah) -> Option<u64> {
        if state.pits() != self.pits || state.capture_rule() != self.capture {
            return None;
        }
        let mut cells = Vec::new();
        for side in Side::BOTH {
            cells.extend((0..self.pits).map(|pit| state.seeds(side, pit)));
        }
        let layout = *self.numbers.get(&cells)?;
        let south = u64::from(state.store(Side::First));
        let total = cells.iter().map(|&c| u64::from(c)).sum::<u64>()
            + south
            + u64::from(state.store(Side::Second));
        if total != u64::from(self.total) || state.outcome().is_some() {
            return None;
        }
        Some((layout * self.stores() + south) * 2 + u64::from(state.side_to_move() == Side::Second))
    }

    fn position(&self, index: u64) -> Option<Kalah> {
        let side = if index.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        };
        let south = (index / 2 % self.stores()) as u8;
        let layout = &self.layouts[(index / 2 / self.stores()) as usize];
        let north = self.total - self.in_pits - south;
        let state = Kalah::from_rows(
            &layout[..self.pits],
            south,
            &layout[self.pits..],
            north,
            side,
        )
        .ok()?
        .with_capture(self.capture);
        state.outcome().is_none().then_some(state)
    }
}

#[test]
fn the_generic_solver_agrees_with_the_margins() {
    for capture in [CaptureRule::Opposite, CaptureRule::Empty] {
        let (pits, total) = (3, 10u8);
        let margins =
            MarginTables::build(pits, capture, usize::from(total), 1, &mut |_| {}).unwrap();
        let mut levels: Vec<(Level, Table)> = Vec::new();
        let mut counts = [0u64; 3];
        for in_pits in 0..=total {
            let level = Level::new(pits, capture, total, in_pits);
            let probe = |state: &Kalah| {
                let k = seeds_in_pits(state);
                let (set, table) = levels.get(k)?;
                table.probe(set, state)
            };
            let table = Solver::new(&level)
                .outside(&probe)
                .solve(&mut |_| {})
                .unwrap();
            for index in 0..level.size() {
                let Some(state) = level.position(index) else {
                    continue;
                };
                let expected = margins.probe(&state).unwrap();
                let got = table.value(index).unwrap().outcome_only();
                assert_eq!(got, expected, "{}", state.format_position());
                counts[match got {
                    TableValue::Won => 0,
                    TableValue::Lost => 1,
                    _ => 2,
                }] += 1;
            }
            levels.push((level, table));
        }
        assert!(counts.iter().all(|&c| c > 100), "{counts:?}");
    }
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
