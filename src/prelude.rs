//! The names a game crate or a bot needs most, for one glob import:
//! `use plies::prelude::*;` brings the rules vocabulary ([`Game`], [`Side`], [`Outcome`],
//! [`MoveClass`], [`GameHistory`]), evaluation ([`Evaluator`], [`Score`]), notation
//! ([`Notation`]), the searchers ([`Searcher`], [`Pvs`], [`PvsConfig`], [`Minimax`],
//! [`AlphaBeta`], [`Mcts`], [`MctsConfig`]), their limits and answers ([`SearchLimits`],
//! [`SearchResult`], [`Iteration`]) and the agents ([`Agent`], [`SearchAgent`]).
//!
//! Key invariant: only re-exports, each of an item whose one path is elsewhere in the crate; no
//! item is defined here.

pub use crate::agent::{Agent, SearchAgent};
pub use crate::eval::{Evaluator, Score};
pub use crate::game::{Game, GameHistory, MoveClass, Outcome, Side};
pub use crate::mcts::{Mcts, MctsConfig};
pub use crate::notation::Notation;
pub use crate::search::{
    AlphaBeta, Iteration, Minimax, Pvs, PvsConfig, SearchLimits, SearchResult, Searcher,
};
