//! The integration tests of plies-onitama, Onitama through its public API only, in one test
//! binary: each module is one file of `tests/` (one link of the engine for them all, not one
//! per file; `Cargo.toml` turns off Cargo's binary per file).
//!
//! Key invariant: every file of `tests/` is a module here, or its tests never run.

mod conformance;
mod consistency;
mod mcts;
mod notation;
mod perft;
mod picker;
mod rules;
mod search;
mod tables;
mod threads;
