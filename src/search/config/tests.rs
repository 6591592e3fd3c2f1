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
    {
        assert_eq!(config.name(), name);
        assert!(config.tt_exact_depth && !config.aspiration);
    }
    assert_eq!(
        PvsConfig::full().name(),
        "pvs+tt>=+killers+history+id+mdp+lmr+ext+q"
    );
    assert_eq!(PvsConfig::plain().name(), "pvs+tt>=+killers+history+id");
    assert_eq!(
        PvsConfig::plain().with_threads(3).name(),
        "pvs+tt>=+killers+history+id+t3"
    );
}
