//! # plies
//!
//! A framework for strong bots for two-player abstract board games. A game implements
//! [`Game`] (rules), [`Evaluator`] (knowledge) and [`Notation`] (text); the searchers in
//! [`search`] and [`mcts`], the verification [`harness`] and the [`agent`]s then work for it
//! unchanged, and a [`Tunable`] evaluator's weights can be tuned and shipped as a [`weights`]
//! file. The command line, the arena and the tuner are the `plies-cli` crate. Nothing in this
//! crate names a concrete game.
//!
//! ## A complete example
//!
//! Nim with one pile: take one to three stones, whoever takes the last stone wins. The position
//! is the pile and the side to move; a pile that is a multiple of four is lost for the mover.
//!
//! ```
//! use plies::search::{Pvs, PvsConfig, SearchLimits, Searcher};
//! use plies::{Evaluator, Game, MoveClass, Outcome, Score, Side};
//!
//! #[derive(Clone, Debug)]
//! struct Nim { pile: u32, to_move: Side }
//!
//! impl Game for Nim {
//!     type Move = u32; // stones taken
//!     fn side_to_move(&self) -> Side { self.to_move }
//!     fn generate_moves(&self, moves: &mut Vec<u32>) {
//!         moves.extend((1..=3).filter(|&n| n <= self.pile));
//!     }
//!     fn play(&self, take: u32) -> Nim {
//!         Nim { pile: self.pile - take, to_move: self.to_move.opponent() }
//!     }
//!     fn outcome(&self) -> Option<Outcome> {
//!         // The side to move faces an empty pile: the other side took the last stone.
//!         (self.pile == 0).then(|| Outcome::Win(self.to_move.opponent()))
//!     }
//!     fn hash(&self) -> u64 { self.hash_from_scratch() }
//!     fn hash_from_scratch(&self) -> u64 {
//!         (u64::from(self.pile) << 1 | self.to_move.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
//!     }
//!     fn move_index(&self, take: u32) -> usize { take as usize - 1 }
//!     fn move_index_bound(&self) -> usize { 3 }
//!     fn classify(&self, take: u32) -> MoveClass {
//!         if take == self.pile { MoveClass::Win } else { MoveClass::Quiet }
//!     }
//! }
//!
//! /// Knows nothing: every unfinished position is even.
//! struct Clueless;
//! impl Evaluator<Nim> for Clueless {
//!     fn evaluate(&self, _: &Nim) -> Score { Score::DRAW }
//! }
//!
//! let mut searcher = Pvs::new(Clueless, PvsConfig::full());
//! let result = searcher.search(&Nim { pile: 10, to_move: Side::First }, &SearchLimits::depth(12));
//! assert_eq!(result.best_move, Some(2)); // leave a multiple of four
//! assert_eq!(result.score, Score::win_in(5)); // the fastest forced win: 10 -> 8 -> ... -> 0
//! ```
#![deny(missing_docs)]

pub mod agent;
pub mod bits;
mod eval;
mod game;
pub mod harness;
pub mod mcts;
pub mod memory;
mod notation;
pub mod prelude;
pub mod rng;
pub mod search;
pub mod solve;
pub mod spec;
pub mod weights;

#[cfg(any(test, feature = "testing"))]
pub mod testing;

// The game vocabulary (rules, evaluation, text) lives at the root: one path per item.
pub use eval::{Evaluator, ParameterError, Score, Tunable};
pub use game::{Game, GameHistory, MoveBounds, MoveClass, Outcome, Side};
pub use notation::{
    EXCERPT_CHARS, MAX_POSITION_BYTES, MAX_POSITION_WORDS, Notation, NotationError, PLAIN_RECORD,
    RecordFormat, RecordStep, RecordTree, excerpt, read_plain_record, write_plain_record,
};
