//! Runs the perft reference numbers of `data/perft.txt` (from the rules document): all of them
//! in release builds, entries up to 2,000,000 nodes in debug builds.

use plies::harness::run_perft_file;
use plies_onitama::Onitama;

const DATA: &str = include_str!("data/perft.txt");

#[test]
fn perft_reference_numbers() {
    let cap = if cfg!(debug_assertions) {
        2_000_000
    } else {
        u64::MAX
    };
    let report = run_perft_file::<Onitama>(DATA, cap).unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "perft: {} entries passed ({} nodes), {} skipped above {cap} nodes",
        report.passed,
        report.nodes,
        report.skipped.len()
    );
    assert!(report.passed >= 40);
    if !cfg!(debug_assertions) {
        assert!(report.skipped.is_empty());
    }
}
