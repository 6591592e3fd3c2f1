//! The integration tests of plies-tafl-otep, the OTEP engine through its public API only, in
//! one test binary: each module is one file of `tests/` (one link of the engine for them all,
//! not one per file; `Cargo.toml` turns off Cargo's binary per file).
//!
//! Key invariant: every file of `tests/` is a module here, or its tests never run.

mod arena;
mod engine;
mod trace;
mod transcript;
