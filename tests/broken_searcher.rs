//! The consistency check must be able to fail: deliberately broken searchers written here
//! (alpha-beta with a transposition table whose cutoffs ignore the bound type, or that stores
//! win/loss scores without adjusting them to the node's ply) are caught, and the same searcher
//! without the bug passes.
//!
//! Key invariant: the searchers here are independent of `plies::search` (only the traits are
//! shared), so this also cross-checks the harness against a second alpha-beta implementation.

use std::collections::HashMap;
use std::time::Instant;

use plies::harness::random_game;
use plies::harness::{ConsistencyOptions, Mismatch, check_consistency_with};
use plies::harness::{HashEvaluator, check_consistency, random_playout_positions};
use plies::rng::SplitMix64;
use plies::search::Minimax;
use plies::search::{Iteration, SearchLimits, SearchResult, SearchStats, Searcher};
use plies::{Evaluator, Game, GameHistory, Notation, Score};
use plies_kalah::{Kalah, StoreDifference};

#[derive(Copy, Clone, PartialEq, Debug)]
enum Bug {
    None,
    /// Every table hit of the right depth cuts off, whatever its bound says.
    IgnoreBound,
    /// Decisive scores are stored as seen from the root, not from the node.
    NoPlyAdjust,
}

#[derive(Copy, Clone, PartialEq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

struct Entry {
    depth: u32,
    score: Score,
    bound: Bound,
}

struct TableAlphaBeta<E> {
    evaluator: E,
    table: HashMap<u64, Entry>,
    bug: Bug,
    nodes: u64,
}

impl<E> TableAlphaBeta<E> {
    fn new(evaluator: E, bug: Bug) -> Self {
        TableAlphaBeta {
            evaluator,
            table: HashMap::new(),
            bug,
            nodes: 0,
        }
    }
}

impl<E> TableAlphaBeta<E> {
    /// Fail-soft alpha-beta; the child is searched with the same window when the side to move
    /// stays (extra turn), with the negated window otherwise.
    fn value<G: Game>(
        &mut self,
        state: &G,
        depth: u32,
        ply: u32,
        mut alpha: Score,
        beta: Score,
    ) -> Score
    where
        E: Evaluator<G>,
    {
        if let Some(outcome) = state.outcome() {
            return Score::terminal(outcome, state.side_to_move(), ply);
        }
        if depth == 0 {
            return self.evaluator.evaluate(state);
        }
        if let Some(entry) = self.table.get(&state.hash())
            && entry.depth == depth
        {
            let score = if self.bug == Bug::NoPlyAdjust {
                entry.score
            } else {
                entry.score.from_tt(ply)
            };
            let usable = self.bug == Bug::IgnoreBound
                || match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
            if usable {
                return score;
            }
        }
        let original_alpha = alpha;
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        let mut best = -Score::INFINITY;
        for mv in moves {
            let child = state.play(mv);
            self.nodes += 1;
            let value = if child.side_to_move() == state.side_to_move() {
                self.value(&child, depth - 1, ply + 1, alpha, beta)
            } else {
                -self.value(&child, depth - 1, ply + 1, -beta, -alpha)
            };
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= original_alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let score = if self.bug == Bug::NoPlyAdjust {
            best
        } else {
            best.to_tt(ply)
        };
        self.table.insert(
            state.hash(),
            Entry {
                depth,
                score,
                bound,
            },
        );
        best
    }
}

impl<G: Game, E: Evaluator<G>> Searcher<G> for TableAlphaBeta<E> {
    fn name(&self) -> String {
        format!("test-alphabeta-tt ({:?})", self.bug)
    }

    fn search_with(
        &mut self,
        state: &G,
        _history: &GameHistory,
        limits: &SearchLimits,
        _on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let depth = limits.depth.unwrap_or(4).max(1);
        self.nodes = 0;
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        let mut best = (None, -Score::INFINITY);
        let mut alpha = -Score::INFINITY;
        for mv in moves {
            let child = state.play(mv);
            self.nodes += 1;
            let value = if child.side_to_move() == state.side_to_move() {
                self.value(&child, depth - 1, 1, alpha, Score::INFINITY)
            } else {
                -self.value(&child, depth - 1, 1, -Score::INFINITY, -alpha)
            };
            if value > best.1 {
                best = (Some(mv), value);
            }
            alpha = alpha.max(value);
        }
        let stats = SearchStats {
            nodes: self.nodes,
            elapsed: start.elapsed(),
            ..SearchStats::default()
        };
        SearchResult {
            best_move: best.0,
            score: best.1,
            pv: best.0.into_iter().collect(),
            depth,
            stats,
        }
    }

    fn clear(&mut self) {
        self.table.clear();
    }
}

fn searchers<E: Evaluator<Kalah> + Copy + 'static>(
    evaluator: E,
    bug: Bug,
) -> Vec<(String, Box<dyn Searcher<Kalah>>)> {
    vec![(
        format!("alphabeta-tt-{bug:?}"),
        Box::new(TableAlphaBeta::new(evaluator, bug)),
    )]
}

fn positions() -> Vec<Kalah> {
    random_playout_positions(&Kalah::start_position(), 99, 25, 50)
}

#[test]
fn a_correct_table_search_passes() {
    let evaluator = HashEvaluator::new(5, 2);
    let report = check_consistency(
        &positions(),
        1..=5,
        &evaluator,
        &mut searchers(evaluator, Bug::None),
    )
    .unwrap_or_else(|f| panic!("{f}"));
    println!("{report}");
    // The very positions and depths on which the broken variant below is caught.
    check_consistency(
        &game_lines(&Kalah::start_position(), 30, 12),
        1..=6,
        &evaluator,
        &mut searchers(evaluator, Bug::None),
    )
    .unwrap_or_else(|f| panic!("{f}"));
    let evaluator = StoreDifference::default();
    check_consistency(
        &positions(),
        1..=5,
        &evaluator,
        &mut searchers(evaluator, Bug::None),
    )
    .unwrap_or_else(|f| panic!("{f}"));
}

#[test]
fn cutoffs_that_ignore_the_bound_are_caught() {
    let evaluator = HashEvaluator::new(5, 2);
    let failure = check_consistency(
        &game_lines(&Kalah::start_position(), 30, 12),
        1..=6,
        &evaluator,
        &mut searchers(evaluator, Bug::IgnoreBound),
    )
    .expect_err("ignoring bounds must be caught");
    println!("{failure}");
    assert!(matches!(failure.mismatch, Mismatch::Value | Mismatch::Move));
    let text = failure.to_string();
    assert!(text.contains("alphabeta-tt-IgnoreBound"), "{text}");
    assert!(text.contains(&format!("depth {}", failure.depth)), "{text}");
    // The reported position is real notation and minimax confirms the expected value there.
    let position = Kalah::parse_position(&failure.position).expect("the position parses");
    let values = Minimax::new(evaluator).root_values(&position, failure.depth);
    assert_eq!(
        values.iter().map(|&(_, v)| v).max(),
        Some(failure.expected_score)
    );
}

/// The last `tail` unfinished positions of `games` random games from `start`, in game order:
/// a node searched at ply 2 from one position comes back at ply 1 from the next, so a searcher
/// that keeps its table between searches (the warm pass) meets its entries at another ply.
fn game_lines(start: &Kalah, games: usize, tail: usize) -> Vec<Kalah> {
    let mut rng = SplitMix64::new(7);
    let mut positions = Vec::new();
    for _ in 0..games {
        let game = random_game(start, &mut rng, 200);
        let from = game.len().saturating_sub(tail);
        positions.extend(
            game[from..]
                .iter()
                .filter(|p| p.outcome().is_none())
                .cloned(),
        );
    }
    positions
}

#[test]
fn decisive_scores_stored_without_ply_adjustment_are_caught() {
    let evaluator = StoreDifference::default();
    let options = ConsistencyOptions {
        warm_pass: true,
        quiescence: false,
    };
    let correct = check_consistency_with(
        &game_lines(&Kalah::new(4, 2).unwrap(), 30, 8),
        1..=6,
        &evaluator,
        &mut searchers(evaluator, Bug::None),
        options,
    );
    assert!(correct.is_ok(), "{}", correct.unwrap_err());
    let failure = check_consistency_with(
        &game_lines(&Kalah::new(4, 2).unwrap(), 30, 8),
        1..=6,
        &evaluator,
        &mut searchers(evaluator, Bug::NoPlyAdjust),
        options,
    )
    .expect_err("unadjusted win/loss distances must be caught");
    println!("{failure}");
    assert!(failure.expected_score.is_decisive() || failure.score.is_decisive());
}
