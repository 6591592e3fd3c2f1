//! One MCTS worker: a tree, its random generator and its buffers, running iterations
//! (select → expand → playout → backpropagate, with the solver's proof propagation) and
//! keeping its tree from one search to the next when the new root lies in it.
//!
//! Key invariants:
//! - an iteration replays moves from the root position, so the tree stores no position;
//! - rewards are taken by side (`chooser` of each node), never by alternating signs, so extra
//!   turns (the same side moving again) are handled without special cases;
//! - no heap allocation per iteration once the buffers have grown (the tree grows by whole child
//!   ranges at expansion, up to the node budget);
//! - with the same seed, the same root and the same limits the worker does the same work.

use super::config::MctsConfig;
use super::playout::{PlayoutContext, PlayoutPolicy, outcome_reward, win_probability};
use super::selection::select_child;
use super::stats::MctsStats;
use super::tree::Tree;
use crate::eval::{Evaluator, Score};
use crate::game::{Game, Side};
use crate::rng::SplitMix64;
use crate::search::repetition::Repetitions;
use crate::solve::Probe;

/// How many plies below the old root [`Worker::prepare`] looks for the new root.
pub const MAX_REUSE_DEPTH: usize = 4;

/// A tree with what it takes to grow it.
pub struct Worker<G: Game> {
    /// The tree; its root is `root`.
    pub tree: Tree<G::Move>,
    /// The position at the root of `tree` (`None` before the first search).
    pub root: Option<G>,
    /// The worker's generator.
    pub rng: SplitMix64,
    /// Counters of the current search.
    pub stats: MctsStats,
    moves: Vec<G::Move>,
    path: Vec<usize>,
    scores: Vec<f64>,
    /// The game's history and the current line, for a game with a repetition rule.
    repetitions: Option<Repetitions>,
}

impl<G: Game> Worker<G> {
    /// A worker with an empty tree and a generator seeded with `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Worker<G> {
        Worker {
            tree: Tree::new(Side::First, 0),
            root: None,
            rng: SplitMix64::new(seed),
            stats: MctsStats::default(),
            moves: Vec::new(),
            path: Vec::new(),
            scores: Vec::new(),
            repetitions: None,
        }
    }

    /// Counts repetitions from the game's `history` (the positions before `root`, oldest first)
    /// on in the searches of `root` (for a game with
    /// a repetition rule; nothing for others): a position the rule ends is a finished one, in
    /// the tree and in playouts. A reused subtree stays right: the new root was reached by the
    /// moves that lead to it in the old tree, so its history holds the same positions.
    pub fn track_repetitions(&mut self, root: &G, history: &[u64]) {
        self.repetitions = Repetitions::new(root, history, 64);
    }

    /// Gets ready to search `state`: keeps the subtree of `state` when `reuse` is on and the
    /// previous tree holds it (found by hash at most [`MAX_REUSE_DEPTH`] plies below the old
    /// root, then confirmed by replaying the moves that lead there), otherwise starts a fresh
    /// tree. Expands the root and resets the counters.
    pub fn prepare(&mut self, state: &G, reuse: bool, budget: usize) {
        let mut kept = false;
        if let (true, Some(old)) = (reuse, &self.root)
            && let Some((index, line)) = self.tree.find(state.hash(), MAX_REUSE_DEPTH)
        {
            let mut replay = old.clone();
            for mv in line {
                replay = replay.play(mv);
            }
            if replay.hash() == state.hash() && replay.side_to_move() == state.side_to_move() {
                self.tree.reroot(index);
                kept = true;
            }
        }
        if !kept {
            self.tree = Tree::new(state.side_to_move(), state.hash());
        }
        self.root = Some(state.clone());
        self.stats = MctsStats {
            reused_visits: u64::from(self.tree.node(0).visits),
            ..MctsStats::default()
        };
        self.tree.try_expand(0, state, budget, &mut self.moves);
        self.stats.tree_nodes = self.tree.len();
    }

    /// Runs one iteration from `root` (the position [`Worker::prepare`] was given) on this
    /// worker's own tree.
    pub fn iterate(
        &mut self,
        root: &G,
        config: &MctsConfig,
        evaluator: &dyn Evaluator<G>,
        policy: &dyn PlayoutPolicy<G>,
        tables: Option<&dyn Probe<G>>,
    ) {
        let Worker {
            tree,
            rng,
            stats,
            moves,
            path,
            scores,
            repetitions,
            ..
        } = self;
        let leaf = descend(
            tree,
            root,
            config,
            path,
            moves,
            stats,
            repetitions.as_mut(),
            tables,
        );
        let reward = match leaf.reward {
            Some(reward) => reward,
            None => playout(
                &leaf.state,
                config,
                evaluator,
                policy,
                rng,
                moves,
                scores,
                stats,
                repetitions.as_mut().map(|r| (r, path.len() - 1)),
            ),
        };
        backpropagate(tree, path, reward, leaf.newly_proven);
        stats.iterations += 1;
        stats.tree_nodes = tree.len();
    }
}

/// Where a descent ended: the position there, the reward when no playout is needed (a proven
/// node), and whether the descent proved a node (a finished position met for the first time).
struct Leaf<G> {
    state: G,
    reward: Option<f64>,
    newly_proven: bool,
}

/// Selection and expansion: descends from the root (`path` receives the indices, root first)
/// while the node is expanded, expanding a leaf on its second visit (the root at once) within
/// the node budget, and filling in a node's side, hash and terminal proof on its first visit
/// (a position the repetition rule ends, counted with `repetitions`, is terminal; one the
/// endgame `tables` hold is proven with their value).
#[allow(clippy::too_many_arguments)]
fn descend<G: Game>(
    tree: &mut Tree<G::Move>,
    root: &G,
    config: &MctsConfig,
    path: &mut Vec<usize>,
    moves: &mut Vec<G::Move>,
    stats: &mut MctsStats,
    mut repetitions: Option<&mut Repetitions>,
    tables: Option<&dyn Probe<G>>,
) -> Leaf<G> {
    path.clear();
    path.push(0);
    let mut state = root.clone();
    let mut index = 0;
    let mut newly_proven = false;
    let reward = loop {
        let node = tree.node(index);
        if let Some(proof) = node.proof {
            break Some(proof_reward(proof, node.side));
        }
        if !node.is_expanded() {
            let ready = node.visits > 0 || index == 0;
            if !ready || !tree.try_expand(index, &state, config.max_nodes, moves) {
                if ready {
                    stats.budget_hits += 1;
                }
                break None;
            }
        }
        let Some(child) = select_child(tree, index, config.exploration) else {
            // Every child proven but the node not yet: prove it now (a safety net; the
            // backpropagation proves a node as soon as its last child is).
            if tree.update_proof(index) {
                newly_proven = true;
                let node = tree.node(index);
                break node.proof.map(|proof| proof_reward(proof, node.side));
            }
            break Some(0.5);
        };
        let mover = state.side_to_move();
        state = state.play(tree.node(child).mv.expect("a child has a move"));
        stats.nodes += 1;
        path.push(child);
        stats.seldepth = stats.seldepth.max(path.len() as u32 - 1);
        // Every descent records its line; a repeated position is proven on its first visit.
        let repeated = match repetitions.as_deref_mut() {
            Some(repetitions) => repetitions.outcome(&state, mover, path.len() - 1),
            None => None,
        };
        let node = tree.node_mut(child);
        if node.visits == 0 {
            node.side = state.side_to_move();
            node.hash = state.hash();
            if let Some(outcome) = state.outcome().or(repeated) {
                node.proof = Some(Score::terminal(outcome, node.side, 0));
                newly_proven = true;
                stats.leaves += 1;
            } else if let Some(value) = tables.and_then(|t| t.probe(&state)) {
                node.proof = Some(value.score_at(0));
                newly_proven = true;
                stats.leaves += 1;
                stats.endgame_hits += 1;
            }
        }
        index = child;
    };
    Leaf {
        state,
        reward,
        newly_proven,
    }
}

/// Backpropagation by side along `path`; then, when the descent proved a node, the solver's
/// proof propagation up the path as far as it goes.
fn backpropagate<M: Copy>(
    tree: &mut Tree<M>,
    path: &[usize],
    reward_first: f64,
    newly_proven: bool,
) {
    for &index in path {
        let node = tree.node_mut(index);
        node.visits = node.visits.saturating_add(1);
        node.value += if node.chooser == Side::First {
            reward_first
        } else {
            1.0 - reward_first
        };
    }
    if newly_proven {
        for &index in path.iter().rev().skip(1) {
            if !tree.update_proof(index) {
                break;
            }
        }
    }
}

/// The reward for [`Side::First`] of a proven node whose side to move is `side`.
fn proof_reward(proof: Score, side: Side) -> f64 {
    let for_side = if proof.is_win() {
        1.0
    } else if proof.is_loss() {
        0.0
    } else {
        0.5
    };
    if side == Side::First {
        for_side
    } else {
        1.0 - for_side
    }
}

/// Plays `policy` from `start` (not finished) until the game ends or `config.playout_cutoff`
/// plies have been played, and returns the reward for [`Side::First`]: the outcome, or the
/// evaluation mapped through [`win_probability`]. With `line` (the repetition bookkeeping and
/// the ply of `start` below the root) a position the repetition rule ends ends the playout.
#[allow(clippy::too_many_arguments)]
fn playout<G: Game>(
    start: &G,
    config: &MctsConfig,
    evaluator: &dyn Evaluator<G>,
    policy: &dyn PlayoutPolicy<G>,
    rng: &mut SplitMix64,
    moves: &mut Vec<G::Move>,
    scores: &mut Vec<f64>,
    stats: &mut MctsStats,
    mut line: Option<(&mut Repetitions, usize)>,
) -> f64 {
    let mut state = start.clone();
    let mut context = PlayoutContext {
        rng,
        evaluator,
        scores,
        made: 0,
    };
    stats.playouts += 1;
    stats.leaves += 1;
    for _ in 0..config.playout_cutoff {
        moves.clear();
        state.generate_moves(moves);
        if moves.is_empty() {
            break;
        }
        let pick = policy.choose(&state, moves, &mut context);
        let mover = state.side_to_move();
        state = state.play(moves[pick]);
        stats.nodes += 1;
        stats.playout_plies += 1;
        let repeated = match line.as_mut() {
            Some((repetitions, ply)) => {
                *ply += 1;
                repetitions.outcome(&state, mover, *ply)
            }
            None => None,
        };
        if let Some(outcome) = state.outcome().or(repeated) {
            stats.nodes += context.made;
            return outcome_reward(outcome, Side::First);
        }
    }
    stats.nodes += context.made;
    if let Some(outcome) = state.outcome() {
        return outcome_reward(outcome, Side::First);
    }
    let p = win_probability(evaluator.evaluate(&state), config.eval_scale);
    if state.side_to_move() == Side::First {
        p
    } else {
        1.0 - p
    }
}
