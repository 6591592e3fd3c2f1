//! The filter `--log` and `RUST_LOG` give. The events a command emits under a subscriber are
//! checked in `cli/tests/logging.rs`, a test binary of its own (see there why).

use super::filter;

#[test]
fn a_bad_level_is_a_one_line_error_naming_it() {
    for text in ["loud", "plies=loud", "loud="] {
        let err = filter(Some(text)).expect_err(text).to_string();
        assert!(err.contains("--log") && err.contains(text), "{err}");
        assert!(!err.contains('\n'), "{err}");
    }
    assert!(filter(Some("DEBUG")).unwrap().is_some());
    assert!(
        filter(Some("plies_cli=info,plies::search=debug"))
            .unwrap()
            .is_some()
    );
}
