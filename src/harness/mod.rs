//! The verification harness, usable on anyone's game: perft over data files, the conformance
//! suite of rules invariants, the consistency check of every searcher against plain minimax,
//! random positions and byte-driven property tests.
//!
//! A new game is checked in three steps (the Kalah tutorial in `cli/examples/kalah` does all three):
//! 1. [`conformance::check_conformance`] on a few start positions: hash, move generation,
//!    classification, move indices and notation, at every position of seeded random games;
//! 2. perft numbers against published tables or an independent slow move generator;
//! 3. [`consistency::check_consistency`] on [`random::random_playout_positions`] with the game's
//!    evaluator and with [`consistency::HashEvaluator`]: every searcher configuration must
//!    return plain minimax's value and one of its best moves.
//!
//! Key invariant: everything here is deterministic in its seed, so any failure replays.
pub mod bench;
pub mod conformance;
pub mod consistency;
pub mod perft;
pub mod picker;
pub mod properties;
pub mod random;

pub use conformance::{ConformanceFailure, ConformanceReport, check_conformance};
pub use consistency::{ConsistencyFailure, ConsistencyReport, HashEvaluator, check_consistency};
pub use random::{play_picks, random_playout_positions};
