//! Unit tests of `rules_otn` in `plies-tafl`, a child module so they reach its private items.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use super::*;
use crate::variants::VARIANTS;

const START: &str = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

/// The error of a rules string that must not parse.
fn parse_error(text: &str) -> String {
    match Rules::parse(text) {
        Ok(_) => panic!("parsed: {text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn unknown_keys_are_errors_naming_the_key_and_the_known_ones() {
    for typo in ["kss:w", "atk:y", "surff:n", "Esc:e", "bogus:"] {
        let text = format!("dim:7 {typo} {START}");
        let e = parse_error(&text);
        let key = typo.split(':').next().unwrap();
        assert!(e.contains(&format!("unknown rules key '{key}'")), "{e}");
        assert!(e.contains("known keys: dim name esc"), "{e}");
    }
}

#[test]
fn position_text_with_rules_rejects_unknown_keys_too() {
    // What `--rules` / `--position` read (the tafl binary, the OTEP `rules` command).
    use plies::Notation;
    let text = format!("dim:7 kss:w turn:d {START}");
    match crate::state::Tafl::parse_position(&text) {
        Ok(_) => panic!("parsed: {text}"),
        Err(e) => assert!(e.to_string().contains("unknown rules key 'kss'"), "{e}"),
    }
}

#[test]
fn known_but_ignored_keys_are_still_checked() {
    for key in ["nj", "cj", "mj", "gj"] {
        assert!(
            Rules::parse(&format!("dim:7 {key}:c {START}")).is_ok(),
            "{key}"
        );
        let e = parse_error(&format!("dim:7 {key}:q {START}"));
        assert!(e.contains(key), "{e}");
    }
    // A plain tfr next to tfrd:y is read (a bad value is an error) but does not win.
    let (r, _) = Rules::parse(&format!("dim:7 tfrd:y tfr:d {START}")).unwrap();
    assert_eq!(r.repetition, Repetition::DefendersLose);
    assert!(Rules::parse(&format!("dim:7 tfrd:y tfr:q {START}")).is_err());
}

#[test]
fn every_written_key_is_known() {
    for v in VARIANTS {
        let (rules, board) = Rules::parse(v.rules).unwrap();
        for token in rules.to_otn(&board).split_whitespace() {
            let key = token.split(':').next().unwrap();
            assert!(KNOWN_KEYS.contains(&key), "{key} in {}", v.name);
        }
    }
}

#[test]
fn a_start_position_needs_one_king() {
    let e = parse_error("dim:7 start:/3t3/3t3/3T3/ttTTTtt/3T3/3t3/3t3/");
    assert!(e.contains("no king"), "{e}");
    let e = parse_error("dim:7 start:/3t3/3t3/3K3/ttTKTtt/3T3/3t3/3t3/");
    assert!(e.contains("more than one king"), "{e}");
    assert!(Rules::parse(&format!("dim:7 {START}")).is_ok());
    // A written position (`turn:`) may be a finished game without the king.
    use plies::Notation;
    let done = "dim:7 turn:d start:/7/t6/6t/T6/3T3/1t5/7/";
    assert!(crate::state::Tafl::parse_position(done).is_ok());
    assert!(crate::state::Tafl::parse_position(&done.replace("turn:d ", "")).is_err());
}
