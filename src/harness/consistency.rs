//! The consistency check: every searcher must find exactly what plain minimax finds.
//!
//! What the check demands, what is value-exact and what is compared against what instead is
//! written in the docs of [`crate::harness`] ("The consistency check").
//!
//! Key invariant: a failure names the position in notation, the depth, the configuration, the
//! expected and returned values and moves, so it can be replayed by hand.

use std::fmt;
use std::ops::RangeInclusive;

use crate::eval::{Evaluator, Score};
use crate::game::Game;
use crate::notation::Notation;
use crate::rng::SplitMix64;
use crate::search::alphabeta::AlphaBeta;
use crate::search::{Minimax, SearchLimits, SearchResult, Searcher};
use crate::search::{Pvs, PvsConfig};

/// A pseudo-random evaluator: the value of a position is a hash of its Zobrist hash and a seed,
/// spread over `-spread..=spread` (a small range, so that many positions tie).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct HashEvaluator {
    /// Varies the values: two seeds give unrelated evaluations.
    pub seed: u64,
    /// Values lie in `-spread..=spread`; 0 makes every position a tie.
    pub spread: i32,
}

impl HashEvaluator {
    /// An evaluator with values in `-spread..=spread` (`spread` is clamped at 0 from below).
    #[must_use]
    pub fn new(seed: u64, spread: i32) -> HashEvaluator {
        HashEvaluator {
            seed,
            spread: spread.max(0),
        }
    }
}

impl Default for HashEvaluator {
    /// Seed 0, values in `-3..=3`.
    fn default() -> Self {
        HashEvaluator::new(0, 3)
    }
}

impl<G: Game> Evaluator<G> for HashEvaluator {
    #[inline]
    fn evaluate(&self, state: &G) -> Score {
        let (_, mixed) = SplitMix64::step(state.hash() ^ self.seed);
        let width = 2 * u64::from(self.spread.unsigned_abs()) + 1;
        Score::cp((mixed % width) as i32 - self.spread)
    }
}

/// How a searcher's answer differed from minimax.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Mismatch {
    /// The root value differs.
    Value,
    /// The best move is not one of minimax's best moves.
    Move,
    /// No best move although the position has moves (or a move although it has none).
    MissingMove,
    /// The principal variation does not start with the best move or has an illegal move.
    PrincipalVariation,
    /// The completed depth is not the requested one.
    Depth,
}

/// The first disagreement between a searcher and minimax.
#[derive(Clone, Debug)]
pub struct ConsistencyFailure {
    /// What differed.
    pub mismatch: Mismatch,
    /// The position, in notation.
    pub position: String,
    /// The search depth.
    pub depth: u32,
    /// The searcher configuration's name (`(warm)` appended for the pass without clearing).
    pub searcher: String,
    /// The minimax root value.
    pub expected_score: Score,
    /// The searcher's root value.
    pub score: Score,
    /// Minimax's best moves, in notation.
    pub best_moves: Vec<String>,
    /// The searcher's move, in notation (`-` for none).
    pub best_move: String,
    /// The searcher's principal variation, in notation (as far as it is legal).
    pub pv: String,
    /// The completed depth the searcher reported.
    pub reported_depth: u32,
}

impl fmt::Display for ConsistencyFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} disagrees with minimax ({:?}) at depth {}",
            self.searcher, self.mismatch, self.depth
        )?;
        writeln!(f, "  position: {}", self.position)?;
        writeln!(
            f,
            "  minimax:  {} with best moves [{}]",
            self.expected_score,
            self.best_moves.join(", ")
        )?;
        write!(
            f,
            "  searcher: {} with move {}, pv [{}], depth {}",
            self.score, self.best_move, self.pv, self.reported_depth
        )
    }
}

impl std::error::Error for ConsistencyFailure {}

/// What a passing check covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConsistencyReport {
    /// Positions searched (finished positions included).
    pub positions: usize,
    /// Of those, finished positions (where only "no move" is checked).
    pub finished: usize,
    /// Searcher runs compared with minimax.
    pub searches: usize,
    /// (position, depth) pairs whose minimax value is a win or a loss.
    pub decisive: usize,
    /// Total nodes per configuration, cold pass then warm pass, in the order given.
    pub nodes: Vec<(String, u64)>,
}

impl fmt::Display for ConsistencyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} positions ({} finished), {} searches agree with minimax; {} of the (position, \
             depth) values are wins or losses",
            self.positions, self.finished, self.searches, self.decisive
        )?;
        for (name, nodes) in &self.nodes {
            write!(f, "\n  {name:<40} {nodes:>12} nodes")?;
        }
        Ok(())
    }
}

/// The value-exact searcher configurations, ready for [`check_consistency`]: plain alpha-beta,
/// every rung of [`PvsConfig::consistency_ladder`], and the top rung without null windows
/// (`ab+…`, alpha-beta with the table, killers, history and iterative deepening). Each carries
/// its own clone of `evaluator`.
pub fn standard_searchers<G: Game, E: Evaluator<G> + Clone + 'static>(
    evaluator: &E,
) -> Vec<(String, Box<dyn Searcher<G>>)> {
    let mut searchers: Vec<(String, Box<dyn Searcher<G>>)> = vec![(
        "alphabeta".to_string(),
        Box::new(AlphaBeta::new(evaluator.clone())),
    )];
    let ladder = PvsConfig::consistency_ladder();
    let top = ladder.last().map(|&(_, config)| PvsConfig {
        pvs: false,
        ..config
    });
    for (name, config) in ladder {
        searchers.push((
            name.to_string(),
            Box::new(Pvs::new(evaluator.clone(), config)),
        ));
    }
    if let Some(config) = top {
        searchers.push((
            config.to_string(),
            Box::new(Pvs::new(evaluator.clone(), config)),
        ));
    }
    searchers
}

/// Options of [`check_consistency_with`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ConsistencyOptions {
    /// Run the warm pass (no clearing between searches) after the cold one.
    pub warm_pass: bool,
    /// Compare against [`Minimax::with_quiescence`] instead of plain minimax: the reference of
    /// searchers with quiescence search ([`quiescence_searchers`]).
    pub quiescence: bool,
}

impl Default for ConsistencyOptions {
    fn default() -> Self {
        ConsistencyOptions {
            warm_pass: true,
            quiescence: false,
        }
    }
}

/// Every rung of [`PvsConfig::quiescence_ladder`]: searchers with quiescence search, to be
/// checked with [`ConsistencyOptions::quiescence`] against minimax with the same quiescence.
pub fn quiescence_searchers<G: Game, E: Evaluator<G> + Clone + 'static>(
    evaluator: &E,
) -> Vec<(String, Box<dyn Searcher<G>>)> {
    PvsConfig::quiescence_ladder()
        .into_iter()
        .map(|(name, config)| {
            let searcher: Box<dyn Searcher<G>> = Box::new(Pvs::new(evaluator.clone(), config));
            (name.to_string(), searcher)
        })
        .collect()
}

/// The rungs of [`PvsConfig::consistency_ladder`] (or, with `quiescence`, of
/// [`PvsConfig::quiescence_ladder`]) searching with `threads` threads each, named as specs with
/// their thread count (`…:threads=2`): value-exact like one thread (see the docs of [`crate::harness`]), so they go through
/// [`check_consistency`] (or [`check_consistency_with`] and [`ConsistencyOptions::quiescence`])
/// unchanged.
pub fn threaded_searchers<G: Game, E: Evaluator<G> + Clone + 'static>(
    evaluator: &E,
    threads: usize,
    quiescence: bool,
) -> Vec<(String, Box<dyn Searcher<G>>)> {
    let ladder = if quiescence {
        PvsConfig::quiescence_ladder()
    } else {
        PvsConfig::consistency_ladder()
    };
    ladder
        .into_iter()
        .map(|(_, config)| {
            let config = config.with_threads(threads);
            let searcher: Box<dyn Searcher<G>> = Box::new(Pvs::new(evaluator.clone(), config));
            (config.to_string(), searcher)
        })
        .collect()
}

/// Checks every searcher against plain minimax with `evaluator` on every position at every
/// depth of `depths` (each at least 1), cold and then warm (see the docs of [`crate::harness`]).
#[allow(clippy::result_large_err)] // a failure ends the check: its size costs nothing
pub fn check_consistency<G: Notation, E: Evaluator<G>>(
    positions: &[G],
    depths: RangeInclusive<u32>,
    evaluator: &E,
    searchers: &mut [(String, Box<dyn Searcher<G>>)],
) -> Result<ConsistencyReport, ConsistencyFailure> {
    check_consistency_with(
        positions,
        depths,
        evaluator,
        searchers,
        ConsistencyOptions::default(),
    )
}

/// [`check_consistency`] with options.
#[allow(clippy::result_large_err)] // a failure ends the check: its size costs nothing
pub fn check_consistency_with<G: Notation, E: Evaluator<G>>(
    positions: &[G],
    depths: RangeInclusive<u32>,
    evaluator: &E,
    searchers: &mut [(String, Box<dyn Searcher<G>>)],
    options: ConsistencyOptions,
) -> Result<ConsistencyReport, ConsistencyFailure> {
    assert!(*depths.start() >= 1, "consistency depths start at 1");
    let minimax = if options.quiescence {
        Minimax::with_quiescence(evaluator)
    } else {
        Minimax::new(evaluator)
    };
    let mut report = ConsistencyReport {
        positions: positions.len(),
        finished: positions.iter().filter(|p| p.outcome().is_some()).count(),
        ..ConsistencyReport::default()
    };
    // Minimax root values per position and depth, computed once for both passes.
    let expected: Vec<Vec<RootValues<G::Move>>> = positions
        .iter()
        .map(|p| depths.clone().map(|d| minimax.root_values(p, d)).collect())
        .collect();
    report.decisive = expected
        .iter()
        .flatten()
        .filter(|values| !values.is_empty() && best_of(values).0.is_decisive())
        .count();
    let passes: &[bool] = if options.warm_pass {
        &[false, true]
    } else {
        &[false]
    };
    for &warm in passes {
        for (name, searcher) in searchers.iter_mut() {
            searcher.clear();
            let label = if warm {
                format!("{name} (warm)")
            } else {
                name.clone()
            };
            let mut nodes = 0;
            for (position, values) in positions.iter().zip(&expected) {
                for (depth, root_values) in depths.clone().zip(values) {
                    if !warm {
                        searcher.clear();
                    }
                    let result = searcher.search(position, &SearchLimits::depth(depth));
                    nodes += result.stats.nodes;
                    report.searches += 1;
                    compare(position, depth, root_values, &result).map_err(|mismatch| {
                        failure(position, depth, &label, root_values, &result, mismatch)
                    })?;
                }
            }
            report.nodes.push((label, nodes));
        }
    }
    Ok(report)
}

/// Minimax's value of each root move.
type RootValues<M> = Vec<(M, Score)>;

/// The best value of minimax's root values and the moves that reach it.
fn best_of<M: Copy>(root_values: &[(M, Score)]) -> (Score, Vec<M>) {
    let best = root_values
        .iter()
        .map(|&(_, v)| v)
        .max()
        .unwrap_or(-Score::INFINITY);
    let moves = root_values
        .iter()
        .filter(|&&(_, v)| v == best)
        .map(|&(m, _)| m)
        .collect();
    (best, moves)
}

fn compare<G: Game>(
    position: &G,
    depth: u32,
    root_values: &[(G::Move, Score)],
    result: &SearchResult<G::Move>,
) -> Result<(), Mismatch> {
    if position.outcome().is_some() {
        return match result.best_move {
            None => Ok(()),
            Some(_) => Err(Mismatch::MissingMove),
        };
    }
    let (best, best_moves) = best_of(root_values);
    let Some(mv) = result.best_move else {
        return Err(Mismatch::MissingMove);
    };
    if result.score != best {
        return Err(Mismatch::Value);
    }
    if !best_moves.contains(&mv) {
        return Err(Mismatch::Move);
    }
    if result.depth != depth {
        return Err(Mismatch::Depth);
    }
    if result.pv.first() != Some(&mv) || legal_prefix(position, &result.pv) != result.pv.len() {
        return Err(Mismatch::PrincipalVariation);
    }
    Ok(())
}

/// How many moves of `line` can be played one after the other from `start`.
fn legal_prefix<G: Game>(start: &G, line: &[G::Move]) -> usize {
    let mut state = start.clone();
    let mut moves = Vec::new();
    for (i, &mv) in line.iter().enumerate() {
        moves.clear();
        state.generate_moves(&mut moves);
        if !moves.contains(&mv) {
            return i;
        }
        state = state.play(mv);
    }
    line.len()
}

fn failure<G: Notation>(
    position: &G,
    depth: u32,
    name: &str,
    root_values: &[(G::Move, Score)],
    result: &SearchResult<G::Move>,
    mismatch: Mismatch,
) -> ConsistencyFailure {
    let (expected_score, best_moves) = best_of(root_values);
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    let best_move = match result.best_move {
        Some(mv) if moves.contains(&mv) => position.format_move(mv),
        Some(mv) => format!("{mv:?} (illegal)"),
        None => "-".to_string(),
    };
    let legal = legal_prefix(position, &result.pv);
    let mut pv = position.format_line(&result.pv[..legal]);
    if legal < result.pv.len() {
        pv.push_str(&format!(" {:?} (illegal)", result.pv[legal]));
    }
    ConsistencyFailure {
        mismatch,
        position: position.format_position(),
        depth,
        searcher: name.to_string(),
        expected_score,
        score: result.score,
        best_moves: best_moves
            .into_iter()
            .map(|m| position.format_move(m))
            .collect(),
        best_move,
        pv,
        reported_depth: result.depth,
    }
}

#[cfg(test)]
mod tests;
