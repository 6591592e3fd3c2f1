//! Unit tests of the table solver ([`super`]) on toy games: every value against a slow reference
//! (depth-limited minimax computed over the whole position graph, one horizon at a time) and the
//! library's own search; sets whose moves leave them (solved slice by slice); threads; the file
//! format and its refusals.

use super::*;
use crate::eval::{Evaluator, Score};
use crate::game::Side;
use crate::game::{MoveClass, Outcome};
use crate::rng::SplitMix64;
use crate::search::PvsConfig;
use crate::search::{SearchLimits, SearcherError};
use crate::spec::SearcherSpec;
use crate::testing::{Maze, TwoPiles};

/// Every node of a Maze graph, with either side to move.
#[derive(Copy, Clone)]
struct MazeSet {
    nodes: u64,
    terminal: u64,
}

impl PositionSet<Maze> for MazeSet {
    fn size(&self) -> u64 {
        self.nodes * 2
    }

    fn index(&self, state: &Maze) -> Option<u64> {
        Some(state.node() * 2 + u64::from(state.side_to_move() == Side::Second))
    }

    fn position(&self, index: u64) -> Option<Maze> {
        let side = if index.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        };
        Some(Maze::new(index / 2, self.nodes, self.terminal).with_side(side))
    }
}

/// Two piles with `total` stones in all, either side to move.
struct PilesSet {
    total: u8,
}

impl PilesSet {
    fn low(&self) -> u8 {
        self.total.saturating_sub(15)
    }
}

impl PositionSet<TwoPiles> for PilesSet {
    fn size(&self) -> u64 {
        (u64::from(self.total.min(15)) - u64::from(self.low()) + 1) * 2
    }

    fn index(&self, state: &TwoPiles) -> Option<u64> {
        let [a, b] = state.piles;
        if a + b != self.total || a < self.low() {
            return None;
        }
        Some(u64::from(a - self.low()) * 2 + u64::from(state.to_move == Side::Second))
    }

    fn position(&self, index: u64) -> Option<TwoPiles> {
        let a = self.low() + (index / 2) as u8;
        let side = if index.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        };
        Some(TwoPiles::new(a, self.total - a, side))
    }
}

#[derive(Clone)]
struct Zero;

impl<G: Game> Evaluator<G> for Zero {
    fn evaluate(&self, _: &G) -> Score {
        Score::DRAW
    }
}

/// The reference: the minimax value of every position of a closed set with the horizon `depth`,
/// computed over the whole graph one horizon at a time (exhaustive, like a tree search to that
/// depth, but in polynomial time). `None` = not decided within the horizon.
fn horizon_values<G: Game, S: PositionSet<G>>(set: &S, depth: u32) -> Vec<Option<TableValue>> {
    let size = set.size() as usize;
    let terminal = |state: &G| {
        state.outcome().map(|outcome| match outcome.winner() {
            Some(side) if side == state.side_to_move() => TableValue::Win(0),
            Some(_) => TableValue::Loss(0),
            None => TableValue::Draw,
        })
    };
    let mut values: Vec<Option<TableValue>> = (0..size as u64)
        .map(|i| set.position(i).and_then(|s| terminal(&s)))
        .collect();
    for _ in 0..depth {
        let mut next = values.clone();
        for (i, slot) in next.iter_mut().enumerate() {
            let Some(state) = set.position(i as u64) else {
                continue;
            };
            if state.outcome().is_some() {
                continue;
            }
            let mut moves = Vec::new();
            state.generate_moves(&mut moves);
            // From the mover's view: the best win (shortest), else the longest loss if every
            // move is lost, else undecided.
            let mut best_win: Option<u32> = None;
            let mut longest_loss = Some(0u32);
            for mv in moves {
                let child = state.play(mv);
                let same = child.side_to_move() == state.side_to_move();
                let value =
                    terminal(&child).or_else(|| set.index(&child).and_then(|j| values[j as usize]));
                let ours = match (value, same) {
                    (Some(TableValue::Win(d)), true) | (Some(TableValue::Loss(d)), false) => {
                        Some(Ok(d + 1))
                    }
                    (Some(TableValue::Loss(d)), true) | (Some(TableValue::Win(d)), false) => {
                        Some(Err(d + 1))
                    }
                    _ => None,
                };
                match ours {
                    Some(Ok(d)) => best_win = Some(best_win.map_or(d, |w| w.min(d))),
                    Some(Err(d)) => longest_loss = longest_loss.map(|l| l.max(d)),
                    None => longest_loss = None,
                }
            }
            *slot = match (best_win, longest_loss) {
                (Some(d), _) => Some(TableValue::Win(d)),
                (None, Some(d)) => Some(TableValue::Loss(d)),
                (None, None) => None,
            };
        }
        values = next;
    }
    values
}

fn solve<G: Game, S: PositionSet<G>>(set: &S, threads: usize) -> Table {
    Solver::new(set)
        .threads(threads)
        .solve(&mut |_| {})
        .expect("solvable")
}

#[test]
fn maze_tables_equal_exhaustive_minimax_and_the_search() {
    let mut decided = 0;
    for (nodes, terminal) in [(60, 20), (300, 10), (1000, 6)] {
        let set = MazeSet { nodes, terminal };
        let table = solve(&set, 1);
        let longest = (0..set.size())
            .filter_map(|i| match table.value(i) {
                Some(TableValue::Win(d) | TableValue::Loss(d)) => Some(d),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        // With the horizon past the longest distance, the reference has decided everything it
        // ever will: the table must say the same, draws being the undecided.
        let reference = horizon_values(&set, longest + 3);
        for (i, expected) in reference.iter().enumerate() {
            let got = table.value(i as u64).unwrap();
            assert_eq!(
                got,
                expected.unwrap_or(TableValue::Draw),
                "maze {nodes}/{terminal} #{i}"
            );
            decided += usize::from(got != TableValue::Draw);
        }
        // The library's search, value-exact (no reductions or extensions, table cutoffs only at
        // equal depth), proves the same values at the table's distance.
        // The top rung of the consistency ladder: every part that keeps minimax's value.
        let exact = PvsConfig::consistency_ladder().pop().expect("a ladder").1;
        let mut search = SearcherSpec::Pvs(exact).build::<Maze, Zero>(Zero).unwrap();
        for i in (0..set.size()).step_by(7) {
            let state = set.position(i).unwrap();
            if state.outcome().is_some() {
                continue;
            }
            let (expected, depth) = match table.value(i).unwrap() {
                TableValue::Win(d) => (Score::win_in(d), d),
                TableValue::Loss(d) => (Score::loss_in(d), d),
                TableValue::Draw | TableValue::Won | TableValue::Lost => continue,
            };
            search.clear();
            let result = search.search(&state, &SearchLimits::depth(depth));
            assert_eq!(result.score, expected, "maze {nodes}/{terminal} #{i}");
        }
    }
    assert!(decided > 500, "only {decided} positions decided");
}

#[test]
fn sets_solved_slice_by_slice_use_the_smaller_ones() {
    // Two piles by total: a move leaves the slice for a smaller one (solved before).
    let mut tables: Vec<Table> = Vec::new();
    for total in 1..=30u8 {
        let set = PilesSet { total };
        let probe = |state: &TwoPiles| {
            let n = state.piles[0] + state.piles[1];
            let smaller = PilesSet { total: n };
            tables
                .get(usize::from(n).checked_sub(1)?)?
                .probe(&smaller, state)
        };
        let table = Solver::new(&set)
            .outside(&probe)
            .solve(&mut |_| {})
            .unwrap();
        tables.push(table);
    }
    // The reference over the whole game (all totals at once, so no outside probe).
    struct All;
    impl PositionSet<TwoPiles> for All {
        fn size(&self) -> u64 {
            16 * 16 * 2
        }
        fn index(&self, s: &TwoPiles) -> Option<u64> {
            (s.piles != [0, 0]).then(|| {
                (u64::from(s.piles[0]) * 16 + u64::from(s.piles[1])) * 2
                    + u64::from(s.to_move == Side::Second)
            })
        }
        fn position(&self, i: u64) -> Option<TwoPiles> {
            let side = if i.is_multiple_of(2) {
                Side::First
            } else {
                Side::Second
            };
            let (a, b) = ((i / 2 / 16) as u8, (i / 2 % 16) as u8);
            (a + b > 0).then(|| TwoPiles::new(a, b, side))
        }
    }
    let reference = horizon_values(&All, 40);
    let mut checked = 0;
    for i in 0..All.size() {
        let Some(state) = All.position(i) else {
            continue;
        };
        let total = state.piles[0] + state.piles[1];
        let got = tables[usize::from(total) - 1].probe(&PilesSet { total }, &state);
        assert_eq!(
            got,
            Some(reference[i as usize].unwrap_or(TableValue::Draw)),
            "{state:?}"
        );
        checked += 1;
    }
    assert_eq!(checked, 16 * 16 * 2 - 2);
    // Taking the last stone wins: every position is decided, some by extra turns.
    assert!(tables.iter().all(|t| t.counts()[2] == 0));
}

#[test]
fn the_table_does_not_depend_on_the_threads() {
    let set = MazeSet {
        nodes: 5_000,
        terminal: 5,
    };
    let one = solve(&set, 1);
    let mut passes = Vec::new();
    let three = Solver::new(&set)
        .threads(3)
        .solve(&mut |p| passes.push(p))
        .unwrap();
    assert_eq!(one, three);
    // Progress: one report a pass, decided counts growing to the table's.
    assert!(passes.windows(2).all(|w| w[0].decided <= w[1].decided));
    let last = passes.last().unwrap();
    let [wins, losses, draws] = one.counts();
    assert_eq!(last.decided, wins + losses);
    assert_eq!(last.positions, wins + losses + draws);
    assert!(
        wins > 300 && losses > 300 && draws > 300,
        "{wins} {losses} {draws}"
    );
}

#[test]
fn tables_read_back_and_refuse_damaged_or_foreign_files() {
    let set = MazeSet {
        nodes: 300,
        terminal: 10,
    };
    let table = solve(&set, 1);
    let key = "maze 300 10";
    let mut bytes = Vec::new();
    table.write(key, &mut bytes).unwrap();
    let read = Table::read(key, set.size(), &mut &bytes[..]).unwrap();
    assert_eq!(read, table);
    let refused = |bytes: &[u8], key: &str, size: u64| -> String {
        Table::read(key, size, &mut &bytes[..])
            .unwrap_err()
            .to_string()
    };
    assert!(refused(&bytes, "maze 300 11", set.size()).contains("a table of 'maze 300 10'"));
    assert!(refused(&bytes, "other", set.size()).contains("another set"));
    assert!(refused(&bytes, key, set.size() + 2).contains("expected"));
    assert!(refused(&bytes[..bytes.len() - 3], key, set.size()).contains("cut short"));
    assert!(refused(&bytes[..10], key, set.size()).contains("cut short"));
    assert!(refused(b"hello, world", key, set.size()).contains("not a plies table"));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(refused(&longer, key, set.size()).contains("after the checksum"));
    let mut newer = bytes.clone();
    newer[8] = 9;
    assert!(refused(&newer, key, set.size()).contains("version 9"));
    // Any flipped bit in the entries or the checksum is caught.
    let mut width = bytes.clone();
    width[12] = 4;
    assert!(refused(&width, key, set.size()).contains("entry format 4"));
    let entries_at = 8 + 4 + 4 + 8 + key.len() + 8;
    for at in [entries_at, entries_at + 100, bytes.len() - 1] {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x10;
        assert!(
            refused(&damaged, key, set.size()).contains("damaged"),
            "byte {at}"
        );
    }
}

/// A table whose distances do not fit a byte is wide, reads back, and keeps every value.
#[test]
fn long_distances_make_a_wide_table() {
    let values = |i: u64| match i % 5 {
        0 => None,
        1 => Some(TableValue::Draw),
        2 => Some(TableValue::Win(i as u32 % 300)),
        3 => Some(TableValue::Loss(i as u32 % 301)),
        _ => Some(TableValue::Win(3)),
    };
    let short = |i: u64| {
        values(i).map(|v| match v {
            TableValue::Win(d) => TableValue::Win(d % 100),
            TableValue::Loss(d) => TableValue::Loss(d % 100),
            other => other,
        })
    };
    for (f, width) in [
        (&values as &dyn Fn(u64) -> Option<TableValue>, 2),
        (&short, 1),
    ] {
        let table = Table::from_values(1000, f).unwrap();
        assert_eq!(table.size(), 1000);
        for i in 0..1000 {
            assert_eq!(table.value(i), f(i), "#{i}");
        }
        assert_eq!(table.value(1000), None);
        let mut bytes = Vec::new();
        table.write("wide", &mut bytes).unwrap();
        assert_eq!(bytes.len(), 8 + 4 + 4 + 8 + 4 + 8 + 1000 * width + 8);
        assert_eq!(Table::read("wide", 1000, &mut &bytes[..]).unwrap(), table);
    }
    let too_long = |_: u64| Some(TableValue::Win(40_000));
    assert!(matches!(
        Table::from_values(3, &too_long),
        Err(TableError::TooLong { plies: 40_000, .. })
    ));
}

#[test]
fn a_broken_numbering_and_over_long_distances_are_errors() {
    struct Broken;
    impl PositionSet<Maze> for Broken {
        fn size(&self) -> u64 {
            4
        }
        fn index(&self, _: &Maze) -> Option<u64> {
            Some(0)
        }
        fn position(&self, _: u64) -> Option<Maze> {
            Some(Maze::new(1, 10, 10))
        }
    }
    let err = Solver::new(&Broken).solve(&mut |_| {}).unwrap_err();
    assert_eq!(err, TableError::BadNumbering { index: 1 });
    // A position decided further away than a byte holds: two piles of 15 where a side may only
    // take one stone at a time would do; here, values outside the set say so.
    let set = PilesSet { total: 1 };
    let far = |_: &TwoPiles| Some(TableValue::Loss(MAX_WIN + 5));
    let err = Solver::new(&set).outside(&far).solve(&mut |_| {});
    // Taking the last stone ends the game at once (a terminal successor), so this set is won
    // in 1 whatever the probe says; a total of 2 needs the probe.
    assert!(err.is_ok());
    let set = PilesSet { total: 4 };
    let far = |_: &TwoPiles| Some(TableValue::Win(MAX_LOSS + 5));
    let err = Solver::new(&set)
        .outside(&far)
        .solve(&mut |_| {})
        .unwrap_err();
    assert!(matches!(err, TableError::TooLong { .. }), "{err}");
}

/// A maze's table as the searchers ask for it.
struct MazeTables {
    set: MazeSet,
    table: Table,
}

impl Probe<Maze> for MazeTables {
    fn probe(&self, state: &Maze) -> Option<TableValue> {
        self.table.probe(&self.set, state)
    }
}

/// `set`'s `table` as the searchers ask for it, and the full PVS (an evaluation that says
/// nothing) given it.
fn full_search_with(
    set: MazeSet,
    table: Table,
) -> (
    std::sync::Arc<dyn Probe<Maze>>,
    Box<dyn crate::search::Searcher<Maze>>,
) {
    let tables: std::sync::Arc<dyn Probe<Maze>> = std::sync::Arc::new(MazeTables { set, table });
    let mut search = SearcherSpec::Pvs(PvsConfig::full())
        .build::<Maze, Zero>(Zero)
        .unwrap();
    search
        .set_endgame_tables(Some(std::sync::Arc::clone(&tables)))
        .unwrap();
    (tables, search)
}

#[test]
fn a_search_with_the_tables_plays_their_values_at_depth_one() {
    let set = MazeSet {
        nodes: 500,
        terminal: 8,
    };
    let table = solve(&set, 1);
    let (tables, mut search) = full_search_with(set, table);
    let mut decided = 0;
    for i in 0..set.size() {
        let state = set.position(i).unwrap();
        if state.outcome().is_some() {
            continue;
        }
        let value = tables.probe(&state).unwrap();
        search.clear();
        let result = search.search(&state, &SearchLimits::depth(1));
        // One ply of search sees the children's exact values: the root's own.
        assert_eq!(result.score, value.score_at(0), "#{i}");
        assert!(result.stats.endgame_hits > 0, "#{i}");
        decided += usize::from(value != TableValue::Draw);
    }
    assert!(decided > 100, "{decided}");
    // Without them, depth 1 (with its quiescence and extensions) proves fewer.
    search.set_endgame_tables(None).unwrap();
    let mut proven = 0;
    for i in 0..set.size() {
        let state = set.position(i).unwrap();
        if state.outcome().is_some() {
            continue;
        }
        search.clear();
        let result = search.search(&state, &SearchLimits::depth(1));
        assert_eq!(result.stats.endgame_hits, 0);
        proven += usize::from(result.score.is_decisive());
    }
    assert!(proven < decided, "{proven} of {decided}");
    // Minimax says it does not use them, and refuses them.
    let mut minimax = SearcherSpec::Minimax { quiescence: false }
        .build::<Maze, Zero>(Zero)
        .unwrap();
    assert!(!minimax.supports_endgame_tables());
    assert!(search.supports_endgame_tables());
    let err = minimax.set_endgame_tables(Some(tables)).unwrap_err();
    assert!(
        matches!(err, SearcherError::NoEndgameTables { .. }),
        "{err}"
    );
    assert!(
        err.to_string().contains("does not use endgame tables"),
        "{err}"
    );
}

#[test]
fn a_search_with_win_draw_loss_tables_keeps_the_win_and_looks_past_it() {
    // A maze's win/draw/loss table (no distances) given to the search, the distance table as
    // the referee. From a won root every child would score alike (a win of unknown length), so
    // the search keeps the root's winning moves and searches past them; its move must keep
    // the win however little it sees (depth 2, an evaluation that says nothing).
    let set = MazeSet {
        nodes: 2_000,
        terminal: 8,
    };
    let distances = solve(&set, 1);
    let (wdl, _) = solve_wdl(&set, 2);
    let (tables, mut search) = full_search_with(set, wdl);
    let (mut won, mut choices, mut searched) = (0, 0, 0);
    for i in 0..set.size() {
        let state = set.position(i).unwrap();
        if state.outcome().is_some() || tables.probe(&state) != Some(TableValue::Won) {
            continue;
        }
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        let keeps = |mv: u8| {
            let child = state.play(mv);
            let value = match child.outcome() {
                Some(_) => {
                    return child.outcome().and_then(|o| o.winner()) == Some(state.side_to_move());
                }
                None => distances.value(set.index(&child).unwrap()).unwrap(),
            };
            matches!(
                value.seen_by_mover(child.side_to_move() == state.side_to_move()),
                TableValue::Win(_)
            )
        };
        choices += usize::from(moves.iter().any(|&mv| !keeps(mv)));
        search.clear();
        let result = search.search(&state, &SearchLimits::depth(2));
        let mv = result.best_move.expect("a move");
        assert!(keeps(mv), "#{i}: {mv} gives up the win");
        searched += usize::from(result.stats.seldepth >= 2);
        won += 1;
    }
    assert!(
        won > 300 && choices > 100,
        "{won} won, {choices} with a move that is not"
    );
    // The search went on past the children (which all score alike) in most of them.
    assert!(searched * 2 > won, "{searched} of {won}");
}

/// A maze set that can go backwards: the reverse edges, found by playing every move once.
struct MazeBack {
    set: MazeSet,
    before: Vec<Vec<u64>>,
}

impl MazeBack {
    fn new(set: MazeSet) -> MazeBack {
        let mut before = vec![Vec::new(); set.size() as usize];
        for from in 0..set.size() {
            let state = set.position(from).unwrap();
            let mut moves = Vec::new();
            state.generate_moves(&mut moves);
            for mv in moves {
                let to = set.index(&state.play(mv)).unwrap();
                before[to as usize].push(from);
            }
        }
        MazeBack { set, before }
    }
}

impl PositionSet<Maze> for MazeBack {
    fn size(&self) -> u64 {
        self.set.size()
    }
    fn index(&self, state: &Maze) -> Option<u64> {
        self.set.index(state)
    }
    fn position(&self, index: u64) -> Option<Maze> {
        self.set.position(index)
    }
}

impl Predecessors<Maze> for MazeBack {
    fn predecessors(&self, state: &Maze, out: &mut Vec<u64>) {
        out.extend(&self.before[self.index(state).unwrap() as usize]);
    }
}

/// Two piles of a given total that can go backwards: put back 1-3 stones on a pile, the mover
/// being the side to move, or its opponent when taking two gave an extra turn.
struct PilesBack(PilesSet);

impl PositionSet<TwoPiles> for PilesBack {
    fn size(&self) -> u64 {
        self.0.size()
    }
    fn index(&self, state: &TwoPiles) -> Option<u64> {
        self.0.index(state)
    }
    fn position(&self, index: u64) -> Option<TwoPiles> {
        self.0.position(index)
    }
}

impl Predecessors<TwoPiles> for PilesBack {
    fn predecessors(&self, state: &TwoPiles, out: &mut Vec<u64>) {
        // Only moves inside the set count, and every move takes stones: no predecessor has
        // the same total. (Kept honest by checking with the forward moves.)
        for index in 0..self.size() {
            let from = self.position(index).unwrap();
            let mut moves = Vec::new();
            from.generate_moves(&mut moves);
            for mv in moves {
                let next = from.play(mv);
                if next.piles == state.piles && next.to_move == state.to_move {
                    out.push(index);
                }
            }
        }
    }
}

#[test]
fn retrograde_analysis_gives_the_forward_solvers_tables() {
    for (nodes, terminal) in [(60, 20), (300, 10), (1000, 6), (5000, 5)] {
        let set = MazeSet { nodes, terminal };
        let forward = solve(&set, 1);
        let back = MazeBack::new(set);
        let mut passes = Vec::new();
        let retro = Solver::new(&back)
            .solve_retrograde(&mut |p| passes.push(p))
            .unwrap();
        assert_eq!(retro, forward, "maze {nodes}/{terminal}");
        let [wins, losses, _] = forward.counts();
        assert_eq!(passes.last().unwrap().decided, wins + losses);
    }
    // With moves leaving the set: two piles slice by slice, the smaller slices probed.
    let mut tables: Vec<Table> = Vec::new();
    for total in 1..=30u8 {
        let probe = |state: &TwoPiles| {
            let n = state.piles[0] + state.piles[1];
            tables
                .get(usize::from(n).checked_sub(1)?)?
                .probe(&PilesSet { total: n }, state)
        };
        let forward = Solver::new(&PilesSet { total })
            .outside(&probe)
            .solve(&mut |_| {})
            .unwrap();
        let retro = Solver::new(&PilesBack(PilesSet { total }))
            .outside(&probe)
            .solve_retrograde(&mut |_| {})
            .unwrap();
        assert_eq!(retro, forward, "total {total}");
        tables.push(forward);
    }
}

/// A game graph whose moves stay near: node `i` leads to nodes at most [`Near::REACH`] away
/// (round a ring of `nodes`), so the positions numbered by node keep their successors in few
/// blocks of numbers, as a game's numbering that is kind to the solver does.
#[derive(Clone, Debug)]
struct Near {
    node: u64,
    nodes: u64,
    to_move: Side,
}

impl Near {
    const REACH: u64 = 50;
    const BACK: u64 = 5;

    fn bits(&self) -> u64 {
        SplitMix64::mix(self.node ^ 0x005e_ed0f_4ea2)
    }

    fn edge(&self, mv: u8) -> u64 {
        SplitMix64::mix(self.bits().wrapping_add(u64::from(mv) + 1))
    }
}

impl Game for Near {
    type Move = u8;

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn generate_moves(&self, moves: &mut Vec<u8>) {
        if self.outcome().is_none() {
            moves.extend(0..1 + ((self.bits() >> 8) % 3) as u8);
        }
    }

    fn play(&self, mv: u8) -> Near {
        let edge = self.edge(mv);
        let step = edge % (Near::REACH + Near::BACK + 1);
        Near {
            node: (self.node + self.nodes + step - Near::BACK) % self.nodes,
            nodes: self.nodes,
            to_move: if (edge >> 20).is_multiple_of(4) {
                self.to_move
            } else {
                self.to_move.opponent()
            },
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let bits = self.bits();
        let outcome = match (bits >> 32) % 3 {
            0 => Outcome::Win(Side::First),
            1 => Outcome::Win(Side::Second),
            _ => Outcome::Draw,
        };
        (bits % 100 < 3).then_some(outcome)
    }

    fn hash(&self) -> u64 {
        self.hash_from_scratch()
    }

    fn hash_from_scratch(&self) -> u64 {
        SplitMix64::mix(self.node * 2 + u64::from(self.to_move == Side::Second))
    }

    fn move_index(&self, mv: u8) -> usize {
        usize::from(mv)
    }

    fn move_index_bound(&self) -> usize {
        4
    }

    fn classify(&self, _: u8) -> MoveClass {
        MoveClass::Quiet
    }
}

/// Every node of a [`Near`] graph, either side to move; every third node is a hole.
struct NearSet {
    nodes: u64,
}

impl PositionSet<Near> for NearSet {
    fn size(&self) -> u64 {
        self.nodes * 2
    }

    fn index(&self, state: &Near) -> Option<u64> {
        (state.nodes == self.nodes && !state.node.is_multiple_of(3))
            .then(|| state.node * 2 + u64::from(state.to_move == Side::Second))
    }

    fn position(&self, index: u64) -> Option<Near> {
        let node = index / 2;
        let to_move = if index.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        };
        (!node.is_multiple_of(3)).then_some(Near {
            node,
            nodes: self.nodes,
            to_move,
        })
    }
}

/// The solver's win/draw/loss table of `set`, and every pass's report.
fn solve_wdl<G: Game, S: PositionSet<G>>(set: &S, threads: usize) -> (Table, Vec<SolveProgress>) {
    let mut passes = Vec::new();
    let table = Solver::new(set)
        .threads(threads)
        .solve_wdl(&mut |p| passes.push(p))
        .expect("solvable");
    (table, passes)
}

/// Every position's value in `wdl` is the distance table's without its distance (holes too).
fn assert_same_outcomes(wdl: &Table, distances: &Table, what: &str) {
    assert_eq!(wdl.size(), distances.size(), "{what}");
    for i in 0..distances.size() {
        assert_eq!(
            wdl.value(i),
            distances.value(i).map(TableValue::outcome_only),
            "{what} #{i}"
        );
    }
}

#[test]
fn win_draw_loss_tables_are_the_distance_tables_without_distances() {
    // Mazes (moves anywhere: every block is looked at again after each change) and a graph of
    // near moves (few links a block), one thread and several; all three kinds of value occur.
    for (nodes, terminal) in [(60, 20), (1000, 6), (5000, 5)] {
        let set = MazeSet { nodes, terminal };
        let distances = solve(&set, 1);
        for threads in [1, 3] {
            let (wdl, passes) = solve_wdl(&set, threads);
            assert_same_outcomes(&wdl, &distances, &format!("maze {nodes}/{terminal}"));
            let [wins, losses, draws] = wdl.counts();
            let last = passes.last().unwrap();
            assert_eq!(
                (last.decided, last.positions),
                (wins + losses, wins + losses + draws)
            );
        }
    }
    let set = NearSet { nodes: 30_000 };
    let distances = solve(&set, 1);
    let counts = distances.counts();
    assert!(counts.iter().all(|&c| c > 500), "{counts:?}");
    for threads in [1, 2, 3] {
        let (wdl, _) = solve_wdl(&set, threads);
        assert_same_outcomes(&wdl, &distances, &format!("near, {threads} threads"));
    }
}

#[test]
fn both_solvers_look_again_only_where_something_changed() {
    let set = NearSet { nodes: 100_000 };
    let mut distance_passes = Vec::new();
    let distances = Solver::new(&set)
        .solve(&mut |p| distance_passes.push(p))
        .unwrap();
    assert_eq!(distances, solve(&set, 3));
    let (wdl, passes) = solve_wdl(&set, 1);
    assert_same_outcomes(&wdl, &distances, "near");
    let looked = |passes: &[SolveProgress]| passes.iter().map(|p| p.looked_at).sum::<u64>();
    // What a solver that went through every open position in each pass would look at.
    let every_open = |passes: &[SolveProgress]| {
        passes
            .windows(2)
            .map(|w| w[0].positions - w[0].decided)
            .sum::<u64>()
    };
    let positions = passes[0].positions;
    let longest = distance_passes.len() as u64;
    assert!(longest > 15, "{longest} passes");
    // Pass 1 looks at every position that is not a finished game once.
    assert!(passes[0].looked_at <= positions && passes[0].looked_at > positions * 9 / 10);
    assert!(distance_passes[1].looked_at > positions * 9 / 10);
    // Later passes look only at the open positions of blocks near a change: most of those
    // still open are draws that no pass will change, and the last passes skip nearly all.
    for passes in [&passes[..], &distance_passes[1..]] {
        for pair in passes.windows(2) {
            assert!(pair[1].looked_at <= pair[0].positions - pair[0].decided);
        }
        let [last, before] = [passes.len() - 1, passes.len() - 2];
        assert!(passes[last].looked_at * 10 < positions - passes[before].decided);
        assert!(
            looked(passes) * 3 < (every_open(passes) + passes[0].looked_at) * 2,
            "{} of {}",
            looked(passes),
            every_open(passes)
        );
    }
    // The win/draw/loss solver uses a value in the pass that finds it: no more passes.
    assert!(passes.len() <= distance_passes.len());
    // Each of its passes but the last decides something; the last decides nothing.
    let decided: Vec<u64> = passes.iter().map(|p| p.decided).collect();
    assert!(
        decided[..decided.len() - 1].windows(2).all(|w| w[0] < w[1]),
        "{decided:?}"
    );
    assert_eq!(decided[decided.len() - 1], decided[decided.len() - 2]);
}

#[test]
fn win_draw_loss_tables_of_slices_use_the_smaller_ones_and_read_back() {
    // Two piles by total, each total's table solved for win/draw/loss with the smaller totals'
    // win/draw/loss tables as its outside probe, against the distance tables.
    let mut tables: Vec<Table> = Vec::new();
    let mut distances: Vec<Table> = Vec::new();
    for total in 1..=30u8 {
        let set = PilesSet { total };
        let probe = |tables: &[Table], state: &TwoPiles| {
            let n = state.piles[0] + state.piles[1];
            tables
                .get(usize::from(n).checked_sub(1)?)?
                .probe(&PilesSet { total: n }, state)
        };
        let wdl = Solver::new(&set)
            .outside(&|s: &TwoPiles| probe(&tables, s))
            .solve_wdl(&mut |_| {})
            .unwrap();
        let full = Solver::new(&set)
            .outside(&|s: &TwoPiles| probe(&distances, s))
            .solve(&mut |_| {})
            .unwrap();
        assert_same_outcomes(&wdl, &full, &format!("total {total}"));
        tables.push(wdl);
        distances.push(full);
    }
    // A table of a size that is not a multiple of four positions, holes included, reads back.
    let set = NearSet { nodes: 1001 };
    let (table, _) = solve_wdl(&set, 2);
    assert_eq!(table.size(), 2002);
    assert_eq!(table.bytes(), 501);
    assert_eq!(table.value(1), None, "node 0 is a hole");
    assert_eq!(table.value(2002), None);
    let mut bytes = Vec::new();
    table.write("near 1001", &mut bytes).unwrap();
    assert_eq!(bytes.len(), 8 + 4 + 4 + 8 + 9 + 8 + 501 + 8);
    assert_eq!(
        Table::read("near 1001", 2002, &mut &bytes[..]).unwrap(),
        table
    );
    let entries_at = 8 + 4 + 4 + 8 + 9 + 8;
    let mut damaged = bytes.clone();
    damaged[entries_at + 7] ^= 0x04;
    let err = Table::read("near 1001", 2002, &mut &damaged[..]).unwrap_err();
    assert!(err.to_string().contains("damaged"), "{err}");
    assert!(Table::read("near 1001", 2003, &mut &bytes[..]).is_err());
}
