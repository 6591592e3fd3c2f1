//! The conformance suite on tafl: random games to their end from the start positions of every
//! built-in variant (Brandub, Tablut, Copenhagen and Alea Evangelii among them), every rules
//! invariant at every position.
//!
//! Key invariant: the start positions come from the variants' OpenTafl rules strings.

use plies::harness::check_conformance;
use plies_tafl::{Tafl, VARIANTS, from_rules};

fn starts() -> Vec<Tafl> {
    VARIANTS
        .iter()
        .map(|v| from_rules(v.rules).unwrap_or_else(|e| panic!("{}: {e}", v.name)))
        .collect()
}

#[test]
fn tafl_conforms() {
    let starts = starts();
    let games = if cfg!(debug_assertions) { 1 } else { 6 };
    let report = check_conformance(&starts, 4242, games, 400).unwrap_or_else(|f| panic!("{f}"));
    println!("tafl conformance: {report}");
    assert_eq!(report.games, starts.len() * games);
    assert!(report.finished_games > 0);
}
