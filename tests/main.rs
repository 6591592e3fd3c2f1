//! The integration tests of plies (several games through the public API and the command
//! line) in one test binary: each module is one file of `tests/` (one release link for them
//! all, not one per file; `Cargo.toml` turns off Cargo's binary per file, and keeps
//! `browser.rs`, where a real browser plays the page, a binary of its own).
//!
//! Key invariant: every other file of `tests/` is a module here, or its tests never run.

mod broken_searcher;
mod outside_crate;
mod properties;
mod tables_cli;
mod tafl_cli;
mod terminal;
mod test_binaries;
mod ugi;
