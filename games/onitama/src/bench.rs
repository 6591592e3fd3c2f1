//! The Onitama benchmark: the eight deals searched along a depth ladder, the Java engine's sample
//! position searched to its proven win, and the node counts a correct, unchanged search makes.
//!
//! `cargo run --release --example onitama -- bench` searches the deals to [`BENCH_DEPTH`];
//! `… -- bench --full` runs [`BENCH_SUITE`]: the deals to depths 8, 10, 12 and 14 (time to each
//! depth) and [`SAMPLE_POSITION`] until its score is a proven win.
//!
//! Key invariant: the signatures below are what `PvsConfig::full()` with
//! [`crate::PstEvaluator::tuned`] (the bot's evaluator) and one thread makes, each search with a fresh searcher. The
//! bench fails (exit code 1) when a count differs, so a search change that alters the tree must
//! record its new counts here on purpose, and say why in its commit (the criterion bench
//! `benches/search.rs` of this crate reads them from here too).

use plies::harness::{BenchProof, BenchSignature, BenchSuite};

use crate::notation::START_POSITION;

/// The eight deals of the speed benchmark (start layout, red to move), the first being
/// [`START_POSITION`]: the `bench` command and the search bench use them.
pub const BENCH_DEALS: [&str; 8] = [
    START_POSITION,
    "bbBbb/5/5/5/rrRrr r monkey,frog elephant,boar cobra",
    "bbBbb/5/5/5/rrRrr r monkey,frog eel,crab dragon",
    "bbBbb/5/5/5/rrRrr r crab,frog crane,horse tiger",
    "bbBbb/5/5/5/rrRrr r crane,horse frog,eel monkey",
    "bbBbb/5/5/5/rrRrr r ox,boar horse,elephant crab",
    "bbBbb/5/5/5/rrRrr r goose,dragon mantis,eel crane",
    "bbBbb/5/5/5/rrRrr r crab,dragon monkey,tiger mantis",
];

/// The Java engine's published sample position (blue to move wins; docs/rules/onitama.md).
pub const SAMPLE_POSITION: &str = "bbBbb/5/5/3R1/rr1rr b crane,horse tiger,ox rooster";

/// The depth of the quick bench (`bench` without options).
pub const BENCH_DEPTH: u32 = 10;

/// The depth ladder of the whole benchmark.
pub const BENCH_LADDER: [u32; 4] = [8, 10, 12, 14];

/// The deepest iteration the sample proof may take before it counts as not proven.
pub const SAMPLE_MAX_DEPTH: u32 = 30;

/// Total positions made over the eight [`BENCH_DEALS`] searched to each depth.
pub const BENCH_SIGNATURES: [BenchSignature; 4] = [
    BenchSignature {
        depth: 8,
        nodes: 593_268,
    },
    BenchSignature {
        depth: 10,
        nodes: 3_705_549,
    },
    BenchSignature {
        depth: 12,
        nodes: 16_626_468,
    },
    BenchSignature {
        depth: 14,
        nodes: 75_128_488,
    },
];

/// The proof positions: the sample, with the positions made up to the iteration that proves it.
pub const BENCH_PROOFS: [BenchProof; 1] =
    [BenchProof::new(SAMPLE_POSITION, SAMPLE_MAX_DEPTH).nodes(7_258_851)];

/// The whole benchmark: the `bench` command of the Onitama example (its `GameCli::bench`).
pub const BENCH_SUITE: BenchSuite = BenchSuite::new()
    .ladder(&BENCH_LADDER)
    .proofs(&BENCH_PROOFS)
    .signatures(&BENCH_SIGNATURES);
