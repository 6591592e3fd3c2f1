//! The integration tests of plies-tafl, tafl through its public API only, in one test
//! binary: each module is one file of `tests/` (one link of the engine for them all, not one
//! per file; `Cargo.toml` turns off Cargo's binary per file).
//!
//! Key invariant: every file of `tests/` is a module here, or its tests never run.

mod classify;
mod common;
mod conformance;
mod consistency;
mod copenhagen_replay;
mod escape;
mod mcts_solver;
mod perft;
mod picture;
mod repetition;
mod rules;
mod rules_extra;
mod suite;
