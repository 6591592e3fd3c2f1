//! The Hus bot: perft, analysis, terminal play and bench through the generic command line.
//!
//! ```sh
//! cargo run --release --example hus -- play
//! cargo run --release --example hus -- perft --depth 5
//! cargo run --release --example hus -- bench
//! ```
//!
//! Key invariant: the bench positions and depth below fix the bench signature (its node count).

use std::process::ExitCode;

use plies::harness::{BenchSignature, BenchSuite};
use plies_cli::{GameCli, tunable_evaluator};
use plies_hus::{Hus, HusEvaluator};

/// The start and the two infinite-move positions of the rules document.
const BENCH_POSITIONS: &[&str] = &[
    "2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,0,0,0,0,0,0,0,0 \
     2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,0,0,0,0,0,0,0,0 0 0",
    "1,0,1,0,0,0,0,0,0,0,0,3,2,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 \
     7,1,7,4,3,0,3,0,4,8,2,3,2,0,5,4,1,2,4,3,2,3,0,1,0,2,1,0,13,0,2,1 1 84",
    "2,3,4,2,1,0,5,1,9,1,9,0,1,2,1,2,3,2,1,0,1,0,3,15,1,0,6,1,4,1,2,1 \
     0,0,0,1,1,2,0,0,1,0,3,2,0,0,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 0 26",
];

/// Depth of each bench search.
const BENCH_DEPTH: u32 = 7;

/// The bench's node total at [`BENCH_DEPTH`] with the bot's evaluator (`HusEvaluator::tuned`, the shipped
/// tuned weights): a signature of the search (`bench` fails when it
/// changes; record a new one only for an intended change).
const BENCH_SIGNATURES: &[BenchSignature] = &[BenchSignature {
    depth: BENCH_DEPTH,
    nodes: 301_229,
}];

fn main() -> ExitCode {
    plies_cli::main(GameCli::<Hus> {
        bench_positions: BENCH_POSITIONS,
        bench_depth: BENCH_DEPTH,
        bench: BenchSuite::new().signatures(BENCH_SIGNATURES),
        ..GameCli::new("hus", tunable_evaluator(HusEvaluator::tuned()))
    })
}
