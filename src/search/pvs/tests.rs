//! Unit tests of PVS ([`super`]): threat extensions ([`extension`]), resizing the table while
//! it searches ([`resize`]), time management ([`time`]); and here, the searcher with several
//! threads ([`super::parallel`]): value-exactness against
//! minimax in the exact ladders, soundness at full strength, and that every limit stops every
//! thread. None depends on timing: each checks what must hold whatever the threads' interleaving
//! (a helper may even never get to run on a loaded machine).

mod extension;
mod resize;
mod time;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::eval::Score;
use crate::game::Game;
use crate::game::GameHistory;
use crate::harness::HashEvaluator;
use crate::search::config::PvsConfig;
use crate::search::limits::SearchLimits;
use crate::search::minimax::Minimax;
use crate::search::pvs::Pvs;
use crate::search::searcher::{SearchResult, Searcher, SearcherError};
use crate::testing::Maze;

/// An endless graph: no transpositions, no finished games.
fn endless() -> Maze {
    Maze::new(7, 1 << 40, 0)
}

/// Small graphs full of transpositions and finished games.
fn tangled() -> Vec<Maze> {
    (0..12).map(|i| Maze::new(i * 37 + 1, 300, 15)).collect()
}

fn legal(state: &Maze, line: &[u8]) -> bool {
    let mut state = state.clone();
    for &mv in line {
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        if !moves.contains(&mv) {
            return false;
        }
        state = state.play(mv);
    }
    true
}

fn searcher(config: PvsConfig, threads: usize) -> Pvs<Maze, HashEvaluator> {
    let mut pvs = Pvs::new(HashEvaluator::new(5, 4), config);
    pvs.set_threads(threads).unwrap();
    pvs
}

#[test]
fn thread_counts_are_checked_and_named() {
    let mut pvs = searcher(PvsConfig::full(), 1);
    assert!(
        pvs.set_threads(0)
            .unwrap_err()
            .to_string()
            .contains("1..=256")
    );
    assert!(pvs.set_threads(257).is_err());
    pvs.set_threads(4).unwrap();
    assert_eq!(pvs.config().threads, 4);
    assert_eq!(pvs.name(), "pvs:threads=4");
    // Searchers without threads refuse more than one.
    let mut minimax = Minimax::new(HashEvaluator::default());
    assert!(Searcher::<Maze>::set_threads(&mut minimax, 1).is_ok());
    let err = Searcher::<Maze>::set_threads(&mut minimax, 2).unwrap_err();
    assert!(
        matches!(err, SearcherError::OneThread { threads: 2, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("one thread"), "{err}");
}

/// Every exact rung with 2 and 3 threads gives minimax's value and one of its best moves, at the
/// requested depth, with the table warm from earlier searches, some of them interrupted by a node
/// limit in every thread: a table entry from any thread, finished or not, is a true bound.
#[test]
fn threads_keep_the_ladders_exact() {
    let evaluator = HashEvaluator::new(5, 4);
    let minimax = Minimax::new(evaluator);
    let quiescence = Minimax::with_quiescence(evaluator);
    let ladders = [
        (PvsConfig::consistency_ladder(), &minimax),
        (PvsConfig::quiescence_ladder(), &quiescence),
    ];
    for (ladder, reference) in ladders {
        for (name, config) in ladder {
            for threads in [2, 3] {
                let mut pvs = searcher(config, threads);
                for position in tangled() {
                    for depth in 1..=6 {
                        let values = reference.root_values(&position, depth);
                        // Interrupted searches (main thread and helpers) before the real one.
                        let nodes = SearchLimits {
                            depth: Some(depth + 1),
                            ..SearchLimits::nodes(u64::from(depth) * 40)
                        };
                        pvs.search(&position, &nodes);
                        let best = values.iter().map(|&(_, v)| v).max();
                        let result = pvs.search(&position, &SearchLimits::depth(depth));
                        let context = format!(
                            "{name} x{threads} depth {depth} at {:?}: {:?}",
                            position, result
                        );
                        match best {
                            None => assert!(result.best_move.is_none(), "{context}"),
                            Some(best) => {
                                assert_eq!(result.score, best, "{context}");
                                let mv = result.best_move.expect("a move");
                                assert!(values.contains(&(mv, best)), "{context}");
                                assert_eq!(result.depth, depth, "{context}");
                                assert_eq!(result.pv.first(), Some(&mv), "{context}");
                                assert!(legal(&position, &result.pv), "{context}");
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Deeper exact searches, where the threads overlap for longer: the value still equals
/// minimax's.
#[test]
fn threads_stay_exact_on_longer_searches() {
    let evaluator = HashEvaluator::new(9, 3);
    let mut minimax = Minimax::new(evaluator);
    let (_, top) = *PvsConfig::consistency_ladder().last().unwrap();
    let mut pvs = Pvs::new(evaluator, top.with_threads(2));
    for node in [11, 12] {
        let position = Maze::new(node, 5000, 8);
        let expected = minimax.search(&position, &SearchLimits::depth(8));
        let result = pvs.search(&position, &SearchLimits::depth(8));
        assert_eq!(result.score, expected.score, "{position:?}");
        assert_eq!(result.depth, 8);
    }
}

/// At full strength (not value-exact) several threads still answer soundly: the requested depth,
/// a legal move and principal variation.
#[test]
fn full_strength_threads_are_sound() {
    let mut pvs = searcher(PvsConfig::full(), 2);
    for position in tangled().into_iter().chain([endless()]) {
        for depth in [3, 7] {
            let result = pvs.search(&position, &SearchLimits::depth(depth));
            if position.outcome().is_some() {
                assert!(result.best_move.is_none());
                continue;
            }
            assert_eq!(result.depth, depth, "{position:?}");
            assert_eq!(result.pv.first().copied(), result.best_move);
            assert!(legal(&position, &result.pv), "{position:?}: {result:?}");
            assert!(result.stats.nodes > 0);
            assert_eq!(result.stats.thread_nodes.len(), 2);
            assert_eq!(
                result.stats.thread_nodes.iter().sum::<u64>(),
                result.stats.nodes
            );
        }
    }
}

fn check_legal_answer(result: &SearchResult<u8>) {
    let mut moves = Vec::new();
    endless().generate_moves(&mut moves);
    assert!(
        moves.contains(&result.best_move.expect("a move")),
        "{result:?}"
    );
}

/// The node limit holds for the sum of the threads' nodes, to within one poll interval each.
#[test]
fn node_limit_counts_every_thread() {
    for threads in [2, 3] {
        let mut pvs = searcher(PvsConfig::full(), threads);
        let limit = 30_000;
        let result = pvs.search(&endless(), &SearchLimits::nodes(limit));
        let slack = 2 * 256 * threads as u64;
        assert!(result.stats.nodes >= limit, "{:?}", result.stats);
        assert!(result.stats.nodes <= limit + slack, "{:?}", result.stats);
        check_legal_answer(&result);
    }
}

/// A stop flag raised before the search, or from the iteration callback, stops every thread.
#[test]
fn stop_flag_stops_every_thread() {
    let mut pvs = searcher(PvsConfig::full(), 2);
    let raised = Arc::new(AtomicBool::new(true));
    let result = pvs.search(&endless(), &SearchLimits::default().with_stop(raised));
    assert!(result.depth <= 1, "{result:?}");
    check_legal_answer(&result);

    let flag = Arc::new(AtomicBool::new(false));
    let limits = SearchLimits::default().with_stop(Arc::clone(&flag));
    let mut depths = Vec::new();
    let result = pvs.search_with(
        &endless(),
        &GameHistory::default(),
        &limits,
        &mut |iteration| {
            depths.push(iteration.depth);
            if iteration.depth >= 4 {
                flag.store(true, Ordering::Relaxed);
            }
        },
    );
    // The main thread stops after depth 4; a helper may have got deeper by then.
    assert!(result.depth >= 4, "{result:?}");
    assert_eq!(
        depths.last(),
        Some(&result.depth),
        "the answer is the last reported"
    );
    check_legal_answer(&result);
}

/// A time limit ends every thread (the bound is generous: this is no timing test).
#[test]
fn time_limit_ends_every_thread() {
    let mut pvs = searcher(PvsConfig::full(), 2);
    let start = Instant::now();
    let result = pvs.search(&endless(), &SearchLimits::time(Duration::from_millis(30)));
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    check_legal_answer(&result);
}

/// The thread count is part of the configuration only: one thread is the plain search, node for
/// node.
#[test]
fn one_thread_is_the_plain_search() {
    let limits = SearchLimits::depth(7);
    let plain = searcher(PvsConfig::full(), 1).search(&endless(), &limits);
    let mut switched = searcher(PvsConfig::full(), 3);
    switched.set_threads(1).unwrap();
    let again = switched.search(&endless(), &limits);
    assert_eq!(plain.stats.nodes, again.stats.nodes);
    assert!(plain.stats.thread_nodes.is_empty());
    assert_eq!(
        (plain.best_move, plain.score),
        (again.best_move, again.score)
    );
    assert_ne!(plain.score, -Score::INFINITY);
}

/// MultiPV: the first line is the search's own answer, unchanged; each further line is another
/// root move with its exact value (plain minimax of the position after it, one ply less), and
/// together the lines are the best root values in order, as many as asked or as there are
/// moves. With one thread and with two.
#[test]
fn multipv_lines_are_the_next_best_root_moves() {
    let (_, exact) = *PvsConfig::consistency_ladder().last().unwrap();
    let evaluator = HashEvaluator::new(5, 4);
    let mut positions = tangled();
    positions.push(endless());
    for threads in [1, 2] {
        for root in positions.iter().filter(|p| p.outcome().is_none()) {
            let mut moves = Vec::new();
            root.generate_moves(&mut moves);
            for depth in 2..=4 {
                // Every root move's value from the root's view, by plain minimax.
                let value_of = |mv: u8| {
                    let child = root.play(mv);
                    let mut minimax = Minimax::new(evaluator);
                    let score = minimax
                        .search(&child, &SearchLimits::depth(depth - 1))
                        .score
                        .from_tt(1);
                    if child.side_to_move() == root.side_to_move() {
                        score
                    } else {
                        -score
                    }
                };
                let mut reference: Vec<Score> = moves.iter().map(|&mv| value_of(mv)).collect();
                reference.sort_by(|a, b| b.cmp(a));
                for wanted in [1, 3, 8] {
                    let limits = SearchLimits {
                        multipv: wanted,
                        ..SearchLimits::depth(depth)
                    };
                    let mut reported = None;
                    let mut pvs = searcher(exact, threads);
                    let result =
                        pvs.search_with(root, &GameHistory::default(), &limits, &mut |it| {
                            reported = Some(it.clone());
                        });
                    let single = searcher(exact, 1).search(root, &SearchLimits::depth(depth));
                    let last = reported.expect("an iteration");
                    assert_eq!(result.score, single.score, "depth {depth} x{wanted}");
                    assert_eq!(last.score, result.score);
                    if threads == 1 {
                        assert_eq!(result.best_move, single.best_move);
                    }
                    let lines: Vec<Score> = std::iter::once(last.score)
                        .chain(last.more_lines.iter().map(|line| line.score))
                        .collect();
                    let expected = wanted.min(moves.len());
                    // With threads a helper's deeper iteration may answer alone.
                    if threads == 1 || last.more_lines.len() + 1 == expected {
                        assert_eq!(lines, reference[..expected], "depth {depth} x{wanted}");
                    }
                    let mut firsts: Vec<u8> = vec![last.pv[0]];
                    for line in &last.more_lines {
                        assert_eq!(value_of(line.pv[0]), line.score);
                        assert!(legal(root, &line.pv), "{:?}", line.pv);
                        assert!(!firsts.contains(&line.pv[0]), "a root move twice");
                        firsts.push(line.pv[0]);
                    }
                }
            }
        }
    }
}
