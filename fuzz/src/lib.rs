//! # plies-fuzz
//!
//! Fuzzing on the stable toolchain, no libFuzzer needed:
//! - [`targets`]: one target per parser of the bundled games (positions and moves of every
//!   game, tafl rules strings and `.otg` records, OTEP engine lines, Yinsh SGF, Hus game logs)
//!   and the generic command line of each game, each a `fn(&[u8])`;
//! - [`driver`]: runs a target on its seed corpus and seeded mutants ([`mutate`]), catching
//!   panics and hangs in process;
//! - [`process`]: runs the built binaries on generated arguments ([`cli_args`]) and stdin, with
//!   a time limit per process.
//!
//! - [`ugi_match`]: a tournament manager's host driving a UGI engine over whole games, counting
//!   hangs, refusals, time losses and crashes.
//!
//! The `plies-fuzz` binary runs either driver (`docs/fuzzing.md`); `tests/smoke.rs` runs both
//! briefly as part of `cargo test --workspace --release`.
//!
//! Key invariant: a run is a function of its seed (and of the code under test), so every
//! failure it reports can be repeated; a failure is a panic, a hang, a crash or a broken
//! read-back promise, never an input the code rightly refused.

#![deny(missing_docs)]

pub mod cli_args;
pub mod driver;
pub mod http_api;
pub mod mutate;
pub mod process;
pub mod targets;
pub mod ugi_engine;
pub mod ugi_match;
