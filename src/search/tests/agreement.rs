//! Tests that every pruning searcher agrees with plain minimax: same root value, a best move
//! among minimax's best, a principal variation that replays to that value; plus node-count,
//! determinism and limit tests.
//!
//! Two toy games: [`TwoPiles`] (extra turns, many transpositions, solvable) and [`Graph`], a
//! seeded random game graph (random branching, extra turns, cycles, transpositions at different
//! plies, terminal nodes of all three outcomes). Evaluators include a hash-based pseudo-random
//! one with many ties, which punishes any searcher that is only "nearly" right.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::eval::{Evaluator, Score};
use crate::game::GameHistory;
use crate::game::{Game, MoveClass, Outcome, Side};
use crate::rng::SplitMix64;
use crate::search::alphabeta::AlphaBeta;
use crate::search::config::PvsConfig;
use crate::search::limits::SearchLimits;
use crate::search::minimax::Minimax;
use crate::search::pvs::Pvs;
use crate::search::searcher::{SearchResult, Searcher};
use crate::testing::{PileDifference, TwoPiles};

mod quiescence;

/// A seeded random game graph: position = (node, side to move).
#[derive(Clone, Debug)]
struct Graph {
    node: u64,
    to_move: Side,
    nodes: u64,
    seed: u64,
}

impl Graph {
    fn new(node: u64, nodes: u64, seed: u64) -> Graph {
        Graph {
            node: node % nodes,
            to_move: Side::First,
            nodes,
            seed,
        }
    }
    fn bits(&self) -> u64 {
        SplitMix64::mix(self.node ^ self.seed.rotate_left(17))
    }
    /// 10, 20 or 30 % of the nodes are finished games, depending on the seed.
    fn is_terminal(&self) -> bool {
        self.bits() % 100 < 10 + self.seed % 3 * 10
    }
    fn edge(&self, k: u8) -> u64 {
        SplitMix64::mix(self.bits().wrapping_add(u64::from(k) + 1))
    }
}

impl Game for Graph {
    type Move = u8;

    fn side_to_move(&self) -> Side {
        self.to_move
    }
    fn generate_moves(&self, moves: &mut Vec<u8>) {
        if !self.is_terminal() {
            let branching = 1 + (self.bits() >> 8) % 5;
            moves.extend(0..branching as u8);
        }
    }
    fn play(&self, mv: u8) -> Graph {
        let edge = self.edge(mv);
        let extra_turn = (edge >> 20).is_multiple_of(4);
        Graph {
            node: edge % self.nodes,
            to_move: if extra_turn {
                self.to_move
            } else {
                self.to_move.opponent()
            },
            ..self.clone()
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        self.is_terminal().then(|| match (self.bits() >> 4) % 3 {
            0 => Outcome::Win(Side::First),
            1 => Outcome::Win(Side::Second),
            _ => Outcome::Draw,
        })
    }
    fn hash(&self) -> u64 {
        SplitMix64::mix(self.node * 2 + self.to_move.index() as u64 + (self.seed << 20))
    }
    fn hash_from_scratch(&self) -> u64 {
        self.hash()
    }
    fn move_index(&self, mv: u8) -> usize {
        mv as usize
    }
    fn move_index_bound(&self) -> usize {
        5
    }
    fn classify(&self, mv: u8) -> MoveClass {
        let child = self.play(mv);
        if child.outcome() == Some(Outcome::Win(self.to_move)) {
            MoveClass::Win
        } else if (self.edge(mv) >> 30).is_multiple_of(4) {
            MoveClass::Capture
        } else {
            MoveClass::Quiet
        }
    }
}

/// A root of a practically endless graph with at least three moves and no forced result within
/// 6 plies (with a quick win, mate-distance pruning would end every search almost at once).
fn open_root(nodes: u64, seed: u64) -> Graph {
    let mut state = big_root(nodes, seed);
    let mut pvs = Pvs::new(HashEval, PvsConfig::full());
    while pvs
        .search(&state, &SearchLimits::depth(6))
        .score
        .is_decisive()
    {
        state = big_root(nodes, state.seed + 1000);
    }
    state
}

/// A root of a practically endless graph with at least three moves.
fn big_root(nodes: u64, seed: u64) -> Graph {
    let mut moves = Vec::new();
    (0..)
        .map(|node| Graph::new(node, nodes, seed))
        .find(|state| {
            moves.clear();
            state.generate_moves(&mut moves);
            moves.len() >= 3
        })
        .unwrap()
}

/// Pseudo-random values in -2..=2 from the hash: lots of ties.
#[derive(Copy, Clone)]
struct HashEval;

impl<G: Game> Evaluator<G> for HashEval {
    fn evaluate(&self, state: &G) -> Score {
        Score::cp(((state.hash() >> 7) % 5) as i32 - 2)
    }
}

/// Graph evaluator with a wider spread, so fewer ties.
#[derive(Copy, Clone)]
struct WideEval;

impl<G: Game> Evaluator<G> for WideEval {
    fn evaluate(&self, state: &G) -> Score {
        Score::cp(((state.hash() >> 11) % 201) as i32 - 100)
    }
}

/// The value of the position at the end of `pv` (a leaf: finished, or `depth` plies down), seen
/// from the root's side to move. `None` if the PV is illegal or ends too early.
fn pv_value<G: Game, E: Evaluator<G>>(
    root: &G,
    pv: &[G::Move],
    depth: u32,
    eval: &E,
) -> Option<Score> {
    let mut state = root.clone();
    let mut moves = Vec::new();
    for &mv in pv {
        moves.clear();
        state.generate_moves(&mut moves);
        if !moves.contains(&mv) {
            return None;
        }
        state = state.play(mv);
    }
    let leaf = match state.outcome() {
        Some(outcome) => Score::terminal(outcome, state.side_to_move(), pv.len() as u32),
        None if pv.len() as u32 == depth => eval.evaluate(&state),
        None => return None,
    };
    Some(if state.side_to_move() == root.side_to_move() {
        leaf
    } else {
        -leaf
    })
}

/// Checks `result` against minimax's root values at `depth`; `exact_pv` also demands the PV replay
/// to the score. Returns a description of the first disagreement.
fn disagreement<G: Game, E: Evaluator<G>>(
    state: &G,
    depth: u32,
    eval: &E,
    values: &[(G::Move, Score)],
    result: &SearchResult<G::Move>,
    exact_pv: bool,
) -> Option<String> {
    let best = values.iter().map(|&(_, v)| v).max()?;
    if result.score != best {
        return Some(format!("score {} != minimax {best}", result.score));
    }
    let Some(mv) = result.best_move else {
        return Some("no move".into());
    };
    if !values.iter().any(|&(m, v)| m == mv && v == best) {
        return Some(format!("move {mv:?} not among minimax's best"));
    }
    if result.pv.first() != Some(&mv) || result.depth != depth {
        return Some(format!("pv {:?} / depth {}", result.pv, result.depth));
    }
    let replayed = pv_value(state, &result.pv, depth, eval);
    if replayed.is_none() || (exact_pv && replayed != Some(best)) {
        return Some(format!("pv {:?} replays to {replayed:?}", result.pv));
    }
    None
}

/// Every exact searcher (alpha-beta and the ladder, each one reused across all positions so
/// table contents carry over) agrees with minimax on every `(state, depth)`.
fn check_all<G: Game + std::fmt::Debug, E: Evaluator<G> + Copy + 'static>(
    cases: &[(G, u32)],
    eval: E,
) {
    let mut searchers: Vec<Box<dyn Searcher<G>>> = vec![Box::new(AlphaBeta::new(eval))];
    for (_, config) in PvsConfig::consistency_ladder() {
        searchers.push(Box::new(Pvs::new(eval, config)));
    }
    let minimax = Minimax::new(eval);
    for (state, depth) in cases {
        let values = minimax.root_values(state, *depth);
        for searcher in &mut searchers {
            let result = searcher.search(state, &SearchLimits::depth(*depth));
            if let Some(what) = disagreement(state, *depth, &eval, &values, &result, true) {
                panic!("{} at {state:?} depth {depth}: {what}", searcher.name());
            }
        }
    }
}

#[derive(Copy, Clone)]
struct Piles;
impl Evaluator<TwoPiles> for Piles {
    fn evaluate(&self, state: &TwoPiles) -> Score {
        PileDifference.evaluate(state)
    }
}

fn pile_cases(max_pile: u8, depths: std::ops::RangeInclusive<u32>) -> Vec<(TwoPiles, u32)> {
    let mut cases = Vec::new();
    // Larger positions first: their table entries then meet the smaller positions' searches at
    // other plies, which checks the ply adjustment of decisive scores.
    for a in (0..=max_pile).rev() {
        for b in (0..=max_pile).rev() {
            for side in Side::BOTH {
                for depth in depths.clone() {
                    if a + b > 0 {
                        cases.push((TwoPiles::new(a, b, side), depth));
                    }
                }
            }
        }
    }
    cases
}

fn graph_cases(nodes: u64, seeds: u64, depths: std::ops::RangeInclusive<u32>) -> Vec<(Graph, u32)> {
    let mut cases = Vec::new();
    for seed in 0..seeds {
        for root in 0..6 {
            let state = Graph::new(root * 7 + seed, nodes, seed);
            if state.outcome().is_none() {
                for depth in depths.clone() {
                    cases.push((state.clone(), depth));
                }
            }
        }
    }
    cases
}

#[test]
fn two_piles_agree_with_minimax_pile_difference() {
    check_all(&pile_cases(6, 1..=8), Piles);
}

#[test]
fn two_piles_agree_with_minimax_hash_eval() {
    check_all(&pile_cases(6, 1..=8), HashEval);
}

#[test]
fn two_piles_agree_with_minimax_wide_eval() {
    check_all(&pile_cases(7, 3..=8), WideEval);
}

#[test]
fn random_graphs_agree_with_minimax() {
    check_all(&graph_cases(64, 9, 1..=7), HashEval);
    check_all(&graph_cases(1000, 4, 1..=6), WideEval);
}

#[test]
fn agreement_check_catches_a_search_that_is_not_exact() {
    // Deeper table entries cutting gives values plain minimax at that depth does not: the check
    // must notice somewhere, or it could not catch a broken searcher either.
    let eval = HashEval;
    let minimax = Minimax::new(eval);
    let mut config = PvsConfig::full();
    config.tt_mb = 1;
    let mut pvs = Pvs::new(eval, config);
    let mut caught = 0;
    for (state, depth) in pile_cases(6, 4..=8) {
        let values = minimax.root_values(&state, depth);
        let result = pvs.search(&state, &SearchLimits::depth(depth));
        assert!(pv_value(&state, &result.pv, depth, &eval).is_some() || result.pv.is_empty());
        if disagreement(&state, depth, &eval, &values, &result, false).is_some() {
            caught += 1;
        }
    }
    assert!(caught > 0);
}

#[test]
fn full_pvs_plays_legal_lines_and_solves_two_piles() {
    let mut pvs = searcher_by_name::<TwoPiles, _>("pvs", Piles).unwrap();
    let minimax = Minimax::new(Piles);
    for (state, _) in pile_cases(5, 1..=1) {
        let result = pvs.search(&state, &SearchLimits::depth(12));
        assert!(
            pv_value(&state, &result.pv, 12, &Piles).is_some(),
            "{state:?}"
        );
        // Deep enough to see every game end: the result is the game-theoretic one.
        let solved = minimax.root_values(&state, 12);
        let best = solved.iter().map(|&(_, v)| v).max().unwrap();
        assert_eq!(result.score, best, "{state:?}");
    }
}

#[test]
fn alphabeta_never_makes_more_nodes_than_minimax() {
    let mut fewer = false;
    for (state, depth) in pile_cases(5, 2..=6) {
        let mm = Minimax::new(HashEval).search(&state, &SearchLimits::depth(depth));
        let ab = AlphaBeta::new(HashEval).search(&state, &SearchLimits::depth(depth));
        assert!(ab.stats.nodes <= mm.stats.nodes, "{state:?} depth {depth}");
        fewer |= ab.stats.nodes < mm.stats.nodes;
    }
    assert!(fewer);
}

#[test]
fn fixed_depth_is_deterministic() {
    let state = Graph::new(3, 500, 9);
    for name in ["alphabeta", "pvs"] {
        let run = || {
            let mut searcher = searcher_by_name::<Graph, _>(name, HashEval).unwrap();
            let first = searcher.search(&state, &SearchLimits::depth(7));
            let second = searcher.search(&state, &SearchLimits::depth(7));
            (first, second)
        };
        let (a1, a2) = run();
        let (b1, b2) = run();
        assert_eq!(a1.stats.nodes, b1.stats.nodes, "{name}");
        assert_eq!(a2.stats.nodes, b2.stats.nodes, "{name}");
        assert_eq!((a1.best_move, a1.score), (b1.best_move, b1.score), "{name}");
        assert_eq!(a1.pv, b1.pv, "{name}");
        assert_eq!(a2.pv, b2.pv, "{name}");
        assert!(a1.stats.nodes > 0);
    }
}

#[test]
fn pvs_fills_statistics_and_reports_iterations() {
    let state = open_root(5000, 3);
    let mut pvs = Pvs::new(
        HashEval,
        PvsConfig {
            tt_mb: 1,
            ..PvsConfig::plain()
        },
    );
    let mut depths = Vec::new();
    let result = pvs.search_with(
        &state,
        &GameHistory::default(),
        &SearchLimits::depth(8),
        &mut |it| {
            depths.push(it.depth);
        },
    );
    assert_eq!(depths, [1, 2, 3, 4, 5, 6, 7, 8]);
    let s = &result.stats;
    assert_eq!(s.nodes_per_depth.len(), 8);
    assert_eq!(s.nodes_per_depth.iter().sum::<u64>(), s.nodes);
    assert!(
        s.tt_probes >= s.tt_hits && s.tt_hits >= s.tt_cutoffs && s.tt_cutoffs > 0,
        "{s:?} {state:?}"
    );
    assert!(s.tt_fill > 0.0 && s.tt_fill <= 1.0);
    assert!(s.cutoffs >= s.first_move_cutoffs && s.first_move_cutoffs > 0);
    assert!(s.leaves > 0 && s.seldepth >= 8, "{s:?}");
}

#[test]
fn time_limit_returns_quickly_with_a_completed_depth() {
    let state = big_root(1 << 40, 77);
    let mut pvs = searcher_by_name::<Graph, _>("pvs", HashEval).unwrap();
    let start = Instant::now();
    let result = pvs.search(&state, &SearchLimits::time(Duration::from_millis(50)));
    assert!(start.elapsed() < Duration::from_secs(1));
    assert!(result.depth >= 1);
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    assert!(moves.contains(&result.best_move.unwrap()));
}

#[test]
fn stop_flag_stops_every_searcher() {
    let state = big_root(1 << 40, 77);
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    for name in ["minimax", "alphabeta", "pvs"] {
        let limits = |flag: &Arc<AtomicBool>| {
            SearchLimits {
                depth: Some(60),
                ..SearchLimits::default()
            }
            .with_stop(Arc::clone(flag))
        };
        // Raised before the search starts: no iteration beyond the first may complete.
        let raised = Arc::new(AtomicBool::new(true));
        let mut searcher = searcher_by_name::<Graph, _>(name, HashEval).unwrap();
        let result = searcher.search(&state, &limits(&raised));
        assert!(result.depth <= 1, "{name}: depth {}", result.depth);
        if name != "minimax" {
            assert!(moves.contains(&result.best_move.unwrap()), "{name}");
        }

        // Raised by another thread during the search: the search returns soon after (or had
        // already finished; timing alone cannot make this fail).
        let flag = Arc::new(AtomicBool::new(false));
        let raiser = {
            let flag = Arc::clone(&flag);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(30));
                flag.store(true, Ordering::Relaxed);
                Instant::now()
            })
        };
        let mut searcher = searcher_by_name::<Graph, _>(name, HashEval).unwrap();
        let result = searcher.search(&state, &limits(&flag));
        let returned = Instant::now();
        let raised_at = raiser.join().unwrap();
        let late = returned.saturating_duration_since(raised_at);
        assert!(
            late < Duration::from_secs(5),
            "{name}: {late:?} after the flag"
        );
        if name != "minimax" {
            assert!(moves.contains(&result.best_move.unwrap()), "{name}");
        }
    }
}

#[test]
fn node_limit_is_respected() {
    let state = open_root(1 << 40, 5);
    for name in ["alphabeta", "pvs"] {
        let mut searcher = searcher_by_name::<Graph, _>(name, HashEval).unwrap();
        let limits = SearchLimits {
            depth: Some(40),
            nodes: Some(5000),
            ..SearchLimits::default()
        };
        let result = searcher.search(&state, &limits);
        assert!(result.stats.nodes <= 5000, "{name}");
        assert!(result.stats.nodes >= 4000, "{name} {:?}", result.stats);
        assert!(result.best_move.is_some(), "{name}");
    }
}

#[test]
fn searchers_by_name() {
    for name in ["minimax", "alphabeta", "pvs"] {
        let searcher = searcher_by_name::<TwoPiles, _>(name, Piles).unwrap();
        assert!(searcher.name().starts_with(&name[..3]));
    }
    let error = searcher_by_name::<TwoPiles, _>("mtdf", Piles)
        .err()
        .unwrap();
    assert!(error.contains("mtdf") && error.contains("alphabeta") && error.contains("pvs"));
}

#[test]
fn finished_root_has_no_move() {
    let state = TwoPiles::new(0, 0, Side::First);
    let mut pvs = Pvs::new(Piles, PvsConfig::full());
    let result = pvs.search(&state, &SearchLimits::depth(3));
    assert_eq!(result.best_move, None);
    assert!(result.score.is_loss());
}

#[test]
fn random_graph_sweep_agrees_with_minimax() {
    // Many small graphs, deep enough for fail-soft bounds to differ from values: catches table
    // entries stored with the wrong bound kind.
    for nodes in [50u64, 200] {
        for seed in 100..130 {
            let cases: Vec<(Graph, u32)> = graph_cases(nodes, 1, 1..=8)
                .into_iter()
                .map(|(state, depth)| (Graph { seed, ..state }, depth))
                .filter(|(state, _)| state.outcome().is_none())
                .collect();
            check_all(&cases, WideEval);
        }
    }
}

/// A searcher by its spec text ([`crate::spec::SearcherSpec`]).
fn searcher_by_name<G: Game, E: Evaluator<G> + 'static>(
    name: &str,
    evaluator: E,
) -> Result<Box<dyn Searcher<G>>, String> {
    let spec = name
        .parse::<crate::spec::SearcherSpec>()
        .map_err(|e| e.to_string())?;
    spec.build(evaluator).map_err(|e| e.to_string())
}
