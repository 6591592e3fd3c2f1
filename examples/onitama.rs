//! The Onitama bot: perft, analysis, terminal play and bench through the generic command line.
//!
//! ```sh
//! cargo run --release --example onitama -- play
//! cargo run --release --example onitama -- analyze --position "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon" --depth 10
//! cargo run --release --example onitama -- perft --position "bbBbb/5/5/5/rrRrr r ox,boar horse,elephant crab" --depth 5
//! cargo run --release --example onitama -- bench
//! ```
//!
//! Key invariant: the bench positions and depth below fix the bench signature (its total node
//! count); change them only on purpose, together with `benches/onitama_search.rs`.

use std::process::ExitCode;

use plies::cli::{GameCli, evaluator, main as cli_main};
use plies_onitama::{BENCH_DEALS, Onitama, PstEvaluator};

/// The bench depth: 3,556,587 nodes over the eight deals (the search signature; README), about
/// a second in release.
const BENCH_DEPTH: u32 = 10;

fn main() -> ExitCode {
    cli_main(GameCli::<Onitama> {
        name: "onitama",
        evaluator: evaluator(PstEvaluator::default()),
        bench_positions: &BENCH_DEALS,
        bench_depth: BENCH_DEPTH,
    })
}
