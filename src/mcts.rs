//! Monte-Carlo tree search: the second search family, generic over any [`crate::Game`] and
//! [`crate::Evaluator`], behind the same [`crate::search::Searcher`] interface as alpha-beta.
//!
//! - `tree.rs`: the arena (`Vec` of nodes, children as contiguous index ranges, expanded
//!   lazily, bounded by a node budget);
//! - `selection.rs`: UCT (upper confidence bounds on trees);
//! - `playout.rs`: light and heavy playout policies, the [`PlayoutPolicy`] hook for game
//!   knowledge, the logistic mapping of evaluations to win probabilities;
//! - `worker.rs`: one tree's iterations, the MCTS-solver's proof propagation and
//!   tree reuse;
//! - `search.rs`: [`Mcts`] and its answer (most visited move unless proven), run by
//!   one or more threads by root parallelism (a tree each, merged at the root,
//!   [`MctsConfig::threads`]);
//!
//! Key invariants:
//! - rewards and proofs are taken by the side to move of each node, never by alternating signs,
//!   so extra turns need nothing special;
//! - scores: a proven root gives `Score::win_in(n)` / `Score::loss_in(n)` / a draw; otherwise
//!   the best move's win rate `p` becomes `Score::cp(scale * ln(p / (1 - p)))` with
//!   [`MctsConfig::eval_scale`] (default 200: 73% → +200), the inverse of the mapping that
//!   scores cut-off playouts;
//! - `SearchLimits::nodes` counts positions made (tree plus playouts), as for every searcher.
//!
//! ```
//! use plies::mcts::{Mcts, MctsConfig};
//! # use plies::search::{SearchLimits, Searcher};
//! # use plies::{Evaluator, Game, MoveClass, Outcome, Score, Side};
//! # #[derive(Clone, Debug)]
//! # struct Nim { pile: u32, to_move: Side }
//! # impl Game for Nim {
//! #     type Move = u32;
//! #     fn side_to_move(&self) -> Side { self.to_move }
//! #     fn generate_moves(&self, moves: &mut Vec<u32>) {
//! #         moves.extend((1..=3).filter(|&n| n <= self.pile));
//! #     }
//! #     fn play(&self, take: u32) -> Nim {
//! #         Nim { pile: self.pile - take, to_move: self.to_move.opponent() }
//! #     }
//! #     fn outcome(&self) -> Option<Outcome> {
//! #         (self.pile == 0).then(|| Outcome::Win(self.to_move.opponent()))
//! #     }
//! #     fn hash(&self) -> u64 { self.hash_from_scratch() }
//! #     fn hash_from_scratch(&self) -> u64 {
//! #         u64::from(self.pile) << 1 | self.to_move.index() as u64
//! #     }
//! #     fn move_index(&self, take: u32) -> usize { take as usize - 1 }
//! #     fn move_index_bound(&self) -> usize { 3 }
//! #     fn classify(&self, take: u32) -> MoveClass {
//! #         if take == self.pile { MoveClass::Win } else { MoveClass::Quiet }
//! #     }
//! # }
//! # struct Clueless;
//! # impl Evaluator<Nim> for Clueless {
//! #     fn evaluate(&self, _: &Nim) -> Score { Score::DRAW }
//! # }
//! // Nim with one pile of 10, take 1-3, last stone wins: the solver proves the win.
//! let mut mcts = Mcts::new(Clueless, MctsConfig::iterations(20_000));
//! let result = mcts.search(&Nim { pile: 10, to_move: Side::First }, &SearchLimits::default());
//! assert_eq!(result.best_move, Some(2));
//! assert!(result.score.is_win());
//! ```

pub(crate) mod config;
mod parallel;
pub(crate) mod playout;
pub(crate) mod search;
pub(crate) mod selection;
pub(crate) mod stats;
pub(crate) mod tree;
pub(crate) mod worker;

#[cfg(test)]
mod tests;

pub use config::MctsConfig;
pub use playout::{
    HeavyMode, HeavyPlayout, LightPlayout, PlayoutContext, PlayoutPolicy, score_of_probability,
    win_probability,
};
pub use search::{Mcts, RootChild};
pub use stats::MctsStats;
