//! The tutorial game Kalah with the same command line as every other game: `play` (against you
//! or engine against engine), `analyze`, `perft`, `bench` and `arena`.
//!
//! ```sh
//! cargo run --release --example kalah -- play                       # you are south, moving first
//! cargo run --release --example kalah -- play --human none --depth 6 # engine against engine
//! cargo run --release --example kalah -- analyze --depth 12
//! cargo run --release --example kalah -- --help
//! ```
//!
//! Key invariant: the game itself lives in the crate `plies-kalah` (`games/kalah`), written
//! against the public traits only; this file only hands it to the generic command line.
#![forbid(unsafe_code)]

use std::process::ExitCode;

use plies_cli::{GameCli, evaluator};
use plies_kalah::{Kalah, StoreDifference};

/// The start position and the position after south's extra-turn opening (third pit), searched to [`BENCH_DEPTH`] by `bench`.
const BENCH_POSITIONS: &[&str] = &[
    "4,4,4,4,4,4|0 4,4,4,4,4,4|0 s",
    "4,4,0,5,5,5|1 4,4,4,4,4,4|0 s",
];

/// Depth of each bench search.
const BENCH_DEPTH: u32 = 8;

fn main() -> ExitCode {
    plies_cli::main(GameCli::<Kalah> {
        bench_positions: BENCH_POSITIONS,
        bench_depth: BENCH_DEPTH,
        ..GameCli::new("kalah", evaluator(StoreDifference::default()))
    })
}
