//! Tests of [`super::Ponderer`] on the endless random graph [`Maze`]: hits keep the pondered
//! iterations, misses answer for the real position, stopping is prompt. Nothing here depends on
//! how fast the machine is: the tests wait for the background search's reported progress (with a
//! generous give-up time that only a hung search reaches) instead of sleeping a fixed time.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::{PonderOutcome, Ponderer};
use crate::game::{Game, Side};
use crate::harness::HashEvaluator;
use crate::search::config::PvsConfig;
use crate::search::limits::SearchLimits;
use crate::search::minimax::Minimax;
use crate::search::pvs::Pvs;
use crate::testing::Maze;

/// Long enough for a hung search, never reached by a working one.
const GIVE_UP: Duration = Duration::from_secs(120);

/// An endless graph: no transpositions, no finished games.
fn endless(node: u64) -> Maze {
    Maze::new(node, 1 << 40, 0)
}

fn ponderer(threads: usize) -> Ponderer<Maze> {
    let config = PvsConfig {
        tt_mb: 4,
        threads,
        ..PvsConfig::full()
    };
    Ponderer::new(Box::new(Pvs::new(HashEvaluator::new(3, 20), config)))
}

/// Waits until the background search has completed an iteration of `depth`; returns the depth it
/// had reached then.
fn wait_for_depth(ponderer: &Ponderer<Maze>, depth: u32) -> u32 {
    let start = Instant::now();
    loop {
        let reached = ponderer.pondered_depth().expect("pondering");
        if reached >= depth {
            return reached;
        }
        assert!(
            start.elapsed() < GIVE_UP,
            "pondering hung at depth {reached}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn is_legal(state: &Maze, mv: Option<u8>) -> bool {
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    mv.is_some_and(|mv| moves.contains(&mv))
}

#[test]
fn a_hit_keeps_the_pondered_iterations() {
    for threads in [1, 2] {
        let mut ponderer = ponderer(threads);
        let position = endless(5);
        ponderer.ponder_position(position.clone());
        assert!(ponderer.is_pondering());
        let reached = wait_for_depth(&ponderer, 8);
        // A time budget far shorter than the pondering so far (a fresh search could not reach
        // depth 8 in it): the answer is at least as deep.
        let result = ponderer.search(&position, &SearchLimits::time(Duration::from_millis(1)));
        assert_eq!(ponderer.last_outcome(), PonderOutcome::Hit);
        assert!(result.depth >= reached, "{} < {reached}", result.depth);
        assert!(is_legal(&position, result.best_move));
        assert!(!ponderer.is_pondering());

        // A depth budget already reached: answered at once, as deep as the pondering got.
        ponderer.ponder_position(position.clone());
        let reached = wait_for_depth(&ponderer, 4);
        let result = ponderer.search(&position, &SearchLimits::depth(2));
        assert_eq!(ponderer.last_outcome(), PonderOutcome::Hit);
        assert!(result.depth >= reached);

        // A depth budget beyond the pondering: the search goes on to it.
        ponderer.ponder_position(position.clone());
        wait_for_depth(&ponderer, 1);
        let result = ponderer.search(&position, &SearchLimits::depth(7));
        assert_eq!(ponderer.last_outcome(), PonderOutcome::Hit);
        assert!(result.depth >= 7, "{result:?}");
        assert!(is_legal(&position, result.best_move));
    }
}

#[test]
fn a_miss_searches_the_real_position() {
    let mut ponderer = ponderer(2);
    ponderer.ponder_position(endless(5));
    wait_for_depth(&ponderer, 2);
    let real = endless(6);
    let result = ponderer.search(&real, &SearchLimits::depth(4));
    assert_eq!(ponderer.last_outcome(), PonderOutcome::Miss);
    assert_eq!(result.depth, 4);
    assert!(is_legal(&real, result.best_move));

    // A node budget cannot continue a search under way: a fresh search within it.
    ponderer.ponder_position(real.clone());
    let result = ponderer.search(&real, &SearchLimits::nodes(500));
    assert_eq!(ponderer.last_outcome(), PonderOutcome::Miss);
    assert!(result.stats.nodes <= 500 + 2 * 256, "{:?}", result.stats);
    assert!(is_legal(&real, result.best_move));

    // Not pondering: an ordinary search.
    let result = ponderer.search(&real, &SearchLimits::depth(3));
    assert_eq!(ponderer.last_outcome(), PonderOutcome::Idle);
    assert_eq!(result.depth, 3);
}

#[test]
fn stopping_is_prompt_and_drop_waits() {
    let mut ponderer = ponderer(2);
    ponderer.ponder_position(endless(9));
    wait_for_depth(&ponderer, 3);
    let start = Instant::now();
    ponderer.stop();
    // Generous: the search polls its stop flag every 256 positions.
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert!(!ponderer.is_pondering());
    assert_eq!(ponderer.pondered_depth(), None);
    // The searcher is back and usable.
    let result = ponderer
        .searcher()
        .search(&endless(9), &SearchLimits::depth(3));
    assert_eq!(result.depth, 3);

    // The caller's stop flag ends a hit that has no other limit.
    ponderer.ponder_position(endless(9));
    let flag = Arc::new(AtomicBool::new(true));
    let result = ponderer.search(&endless(9), &SearchLimits::default().with_stop(flag));
    assert_eq!(ponderer.last_outcome(), PonderOutcome::Hit);
    assert!(is_legal(&endless(9), result.best_move));

    // Dropping a pondering ponderer ends its thread.
    ponderer.ponder_position(endless(10));
    drop(ponderer);
}

/// The position pondered after a principal variation is the one where we move next.
#[test]
fn pondering_follows_the_principal_variation() {
    let mut ponderer = ponderer(1);
    // Find a node whose first move does not give an extra turn, then a reply.
    let root = (0..)
        .map(endless)
        .find(|m| m.play(0).side_to_move() == Side::Second)
        .unwrap();
    let after = root.play(0);
    let mut line = vec![0, 0];
    let mut state = after.play(0);
    while state.side_to_move() == Side::Second {
        line.push(0);
        state = state.play(0);
    }
    assert!(ponderer.ponder(&root, &line));
    assert_eq!(ponderer.pondered_position(), Some(&state));
    // The line may go on past our next move: only the opponent's moves are followed.
    line.extend([1, 1]);
    assert!(ponderer.ponder(&root, &line));
    assert_eq!(ponderer.pondered_position(), Some(&state));
    // No reply predicted, or an illegal move: no pondering.
    assert!(!ponderer.ponder(&root, &[0]));
    assert!(!ponderer.is_pondering());
    assert!(!ponderer.ponder(&root, &[0, 9]));
    // Our move gives us an extra turn: nothing to ponder.
    let extra = (0..)
        .map(endless)
        .find(|m| m.play(0).side_to_move() == Side::First)
        .unwrap();
    assert!(!ponderer.ponder(&extra, &[0, 0, 0]));
}

/// Any searcher can ponder; one without iterative deepening finishes on its own, and a hit that
/// asks for more depth than it reached searches on.
#[test]
fn searchers_without_deepening_ponder_too() {
    let mut ponderer = Ponderer::new(Box::new(Minimax::new(HashEvaluator::new(1, 5))));
    let position = endless(3);
    ponderer.ponder_position(position.clone());
    let result = ponderer.search(&position, &SearchLimits::depth(5));
    assert_eq!(ponderer.last_outcome(), PonderOutcome::Hit);
    assert_eq!(result.depth, 5);
    ponderer.ponder_position(position.clone());
    let result = ponderer.search(&position, &SearchLimits::depth(2));
    assert_eq!(result.depth, SearchLimits::DEFAULT_DEPTH);
    ponderer.clear();
}
