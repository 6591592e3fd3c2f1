//! Resizing the transposition table while a search runs ([`crate::search::Pvs::table`]): the search
//! takes the new table up at its next iteration with every entry kept, so an exact search gives
//! minimax's value and, when nothing was evicted, exactly the positions it searches without
//! the resize.
//!
//! Key invariant: the resize is requested from the `on_iteration` callback, which runs on the
//! searching thread between iterations, so the tests do not depend on timing.

use crate::game::Game;
use crate::game::GameHistory;
use crate::harness::HashEvaluator;
use crate::search::config::PvsConfig;
use crate::search::limits::SearchLimits;
use crate::search::minimax::Minimax;
use crate::search::pvs::Pvs;
use crate::search::searcher::Searcher;
use crate::testing::Maze;

/// Small graphs full of transpositions and finished games (a few hundred positions: nothing is
/// evicted from a ladder table).
fn tangled() -> Vec<Maze> {
    (0..12)
        .map(|i| Maze::new(i * 41 + 20, 300, 15))
        .filter(|maze| maze.outcome().is_none())
        .collect()
}

/// The exact rung with table, killers, history and deepening.
fn exact() -> PvsConfig {
    PvsConfig::consistency_ladder()
        .into_iter()
        .find(|(name, _)| *name == "pvs+tt+killers+history+id")
        .expect("rung")
        .1
}

const DEPTH: u32 = 7;

/// Plain minimax's value of `position` at [`DEPTH`] (none if it has no move).
fn minimax_value(position: &Maze) -> Option<crate::eval::Score> {
    Minimax::new(HashEvaluator::new(5, 4))
        .root_values(position, DEPTH)
        .iter()
        .map(|&(_, v)| v)
        .max()
}

/// Searches `position` to [`DEPTH`]; after the first iteration of depth 3 or more reported,
/// `during` gets the searcher's table. Returns the score, the positions searched and the size
/// of the table afterwards. With one thread, it first checks that the last iteration stored
/// the root in the table current at the end (so the search moved to a resized table: in the
/// one it left, the root is at most as deep as the iteration before the resize). With more, a
/// helper may already be in the last iteration on the old table when the resize comes, and
/// what it stores there is not carried over (see [`crate::search::tt::SharedTable`]).
fn search(
    config: PvsConfig,
    position: &Maze,
    during: &dyn Fn(&crate::search::tt::SharedTable),
) -> (crate::eval::Score, u64, usize) {
    let mut pvs = Pvs::new(HashEvaluator::new(5, 4), config);
    let table = pvs.tt().expect("a table");
    let mut done = false;
    let result = pvs.search_with(
        position,
        &GameHistory::default(),
        &SearchLimits::depth(DEPTH),
        &mut |it| {
            // With threads, the first report may already be deeper than 3.
            if it.depth >= 3 && !done {
                done = true;
                during(&table);
            }
        },
    );
    assert!(done);
    if config.threads == 1 {
        let root = table.snapshot().probe(position.hash(), DEPTH, true);
        assert_eq!(
            root.map(|entry| u32::from(entry.depth)),
            Some(DEPTH),
            "{position:?}"
        );
    }
    assert_eq!(result.depth, DEPTH);
    (result.score, result.stats.nodes, table.bytes())
}

#[test]
fn a_resize_between_iterations_keeps_every_entry() {
    let mut cleared_differs = false;
    for position in tangled() {
        let best = minimax_value(&position);
        let (score, nodes, bytes) = search(exact(), &position, &|_| {});
        assert_eq!(Some(score), best, "{position:?}");
        assert_eq!(bytes, 4 << 20);
        for megabytes in [16, 1] {
            let (resized, resized_nodes, bytes) =
                search(exact(), &position, &|table| table.resize(megabytes));
            assert_eq!(bytes, megabytes << 20);
            assert_eq!(resized, score, "{position:?} resized to {megabytes} MB");
            assert_eq!(
                resized_nodes, nodes,
                "{position:?} resized to {megabytes} MB"
            );
        }
        // The control: emptying the table instead costs positions (so the equality above is
        // the entries' doing).
        let (cleared, cleared_nodes, _) = search(exact(), &position, &|table| table.clear());
        assert_eq!(cleared, score);
        cleared_differs |= cleared_nodes != nodes;
    }
    assert!(cleared_differs);
}

#[test]
fn a_resize_during_a_threaded_search_keeps_it_exact() {
    for threads in [2, 3] {
        for position in tangled() {
            let best = minimax_value(&position);
            let config = exact().with_threads(threads);
            let (score, _, bytes) = search(config, &position, &|table| table.resize(8));
            assert_eq!(bytes, 8 << 20);
            assert_eq!(Some(score), best, "{position:?} x{threads}");
            // The full configuration too (not exact: only sound), shrinking.
            let full = PvsConfig::full().with_threads(threads);
            let (_, _, bytes) = search(full, &position, &|table| table.resize(2));
            assert_eq!(bytes, 2 << 20);
        }
    }
}
