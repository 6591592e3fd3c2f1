//! The Yinsh bot: perft, analysis, terminal play and bench through the generic command line.
//!
//! ```sh
//! cargo run --release --example yinsh -- play
//! cargo run --release --example yinsh -- perft --position "<position text>" --depth 4
//! cargo run --release --example yinsh -- bench
//! ```
//!
//! Moves are GIPF-style decisions: `e3` (place a ring), `h7-g7` (move a ring), `xf3-f7`
//! (remove a row), `xe10` (remove a ring), `pass`.
//!
//! Key invariant: the bench positions and depth below fix the bench signature (its node count).

use std::process::ExitCode;

use plies::harness::{BenchSignature, BenchSuite};
use plies_cli::{GameCli, tunable_evaluator};
use plies_yinsh::{Yinsh, YinshEvaluator};

/// The two openings of docs/rules/yinsh.md after their ten placements, White to move.
const BENCH_POSITIONS: &[&str] = &[
    "..B./......./.....B../W..B...../W..B....../W...B..../W........./W......../......../......./.... w move 0-0 0 normal",
    "..../......./.....B../........./.B.B..B.../........./WWWWWB..../........./......../......./.... w move 0-0 0 normal",
];

/// Depth of each bench search.
const BENCH_DEPTH: u32 = 4;

/// The bench's node total at [`BENCH_DEPTH`] with the bot's evaluator (`YinshEvaluator::tuned`, the shipped
/// tuned weights): a signature of the search (`bench` fails when it
/// changes; record a new one only for an intended change).
const BENCH_SIGNATURES: &[BenchSignature] = &[BenchSignature {
    depth: BENCH_DEPTH,
    nodes: 30_330,
}];

fn main() -> ExitCode {
    plies_cli::main(GameCli::<Yinsh> {
        bench_positions: BENCH_POSITIONS,
        bench_depth: BENCH_DEPTH,
        bench: BenchSuite::new().signatures(BENCH_SIGNATURES),
        ..GameCli::new("yinsh", tunable_evaluator(YinshEvaluator::tuned()))
    })
}
