//! Unit tests of `crate::search::config` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;

#[test]
fn ladder_names_match_configs() {
    for (name, config) in PvsConfig::consistency_ladder()
        .into_iter()
        .chain(PvsConfig::quiescence_ladder())
        .skip(1)
    {
        assert_eq!(config.to_string(), name);
        assert!(config.tt_exact_depth);
    }
    // The first rung shares its name with the full search: printed through its neighbour.
    let (_, first) = PvsConfig::consistency_ladder()[0];
    assert_eq!(first.to_string(), "pvs+tt:tt=0");
    assert_eq!(PvsConfig::full().to_string(), "pvs");
    assert_eq!(PvsConfig::plain().to_string(), "pvs-plain");
    assert_eq!(
        PvsConfig::plain().with_threads(3).to_string(),
        "pvs-plain:threads=3"
    );
    assert_eq!(
        PvsConfig {
            tt_mb: 64,
            ..PvsConfig::full()
        }
        .to_string(),
        "pvs:tt=64"
    );
}
