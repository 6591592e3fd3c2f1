//! The Onitama bot: perft, analysis, terminal play and bench through the generic command line.
//!
//! ```sh
//! cargo run --release --example onitama -- play
//! cargo run --release --example onitama -- analyze --position "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon" --depth 10
//! cargo run --release --example onitama -- perft --position "bbBbb/5/5/5/rrRrr r ox,boar horse,elephant crab" --depth 5
//! cargo run --release --example onitama -- bench          # the eight deals to depth 10
//! cargo run --release --example onitama -- bench --full   # depths 8/10/12/14 and the sample proof
//! ```
//!
//! Key invariant: the bench positions, depths and node signatures come from
//! `plies_onitama::bench` (one place); a bench whose counts differ from them fails.

use std::process::ExitCode;

use plies_cli::{GameCli, tunable_evaluator};
use plies_onitama::{BENCH_DEALS, BENCH_DEPTH, BENCH_SUITE, Onitama, PstEvaluator};

fn main() -> ExitCode {
    plies_cli::main(GameCli::<Onitama> {
        bench_positions: &BENCH_DEALS,
        bench_depth: BENCH_DEPTH,
        bench: BENCH_SUITE,
        ..GameCli::new("onitama", tunable_evaluator(PstEvaluator::tuned()))
    })
}
