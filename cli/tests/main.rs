//! The integration tests of plies-cli in one test binary: each module is one file of `tests/`
//! (one release link for them all, not one per file; `Cargo.toml` turns off Cargo's binary per
//! file and keeps two files a binary of their own: `logging.rs`, whose subscribers must meet
//! no other test's thread, and `serve_load.rs`, which needs the `serve` feature).
//!
//! Key invariant: every other file of `tests/` is a module here, or its tests never run.

mod arena_kalah;
mod arena_onitama;
mod mcts_cli;
