//! # plies
//!
//! A framework for strong bots for two-player abstract board games. A game implements
//! [`Game`] (rules), [`Evaluator`] (knowledge) and [`Notation`] (text); the searchers in
//! [`search`], the verification [`harness`] and the command line in [`cli`] then work for it
//! unchanged.
#![deny(missing_docs)]

pub mod agent;
pub mod arena;
pub mod cli;
pub mod eval;
pub mod game;
pub mod harness;
pub mod notation;
pub mod rng;
pub mod search;

#[cfg(test)]
pub(crate) mod testing;

pub use eval::{Evaluator, Score, Tunable};
pub use game::{Game, MoveClass, Outcome, Side};
pub use notation::{Notation, NotationError};
pub use search::{Iteration, SearchLimits, SearchResult, SearchStats, Searcher};
