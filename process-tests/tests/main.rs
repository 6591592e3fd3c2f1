//! The tests that need child processes (plies-process-tests) in one test binary: each module
//! is one file of `tests/` (one release link for them all, not one per file; `Cargo.toml`
//! turns off Cargo's binary per file).
//!
//! Key invariant: every file of `tests/` is a module here, or its tests never run.

mod arena_resume;
mod arena_ugi;
mod deploy;
mod locks;
mod store;
mod store_postgres;
mod tables_cache;
mod tafl_otep;
mod tune;
