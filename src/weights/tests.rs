//! Unit tests of `crate::weights` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;

/// Two weights, `a` and `b`.
#[derive(Debug, PartialEq)]
struct Pair(i32, i32);

impl Tunable for Pair {
    fn parameter_names(&self) -> Vec<String> {
        vec!["a".into(), "b".into()]
    }
    fn parameters(&self) -> Vec<i32> {
        vec![self.0, self.1]
    }
    fn set_parameters(&mut self, values: &[i32]) -> Result<(), ParameterError> {
        match values {
            &[a, b] => {
                *self = Pair(a, b);
                Ok(())
            }
            _ => Err(ParameterError::WrongCount {
                expected: 2,
                got: values.len(),
            }),
        }
    }
}

#[test]
fn round_trip_with_comments_and_any_order() {
    let names = Pair(0, 0).parameter_names();
    let text = format_weights(&names, &[7, -3], "tuned by: x\nsecond line");
    assert!(text.starts_with("# tuned by: x\n# second line\na 7\nb -3\n"));
    assert_eq!(parse_weights(&text, &names).unwrap(), vec![7, -3]);
    assert_eq!(
        parse_weights("a 100000\nb -100000\n", &names).unwrap(),
        vec![MAX_WEIGHT, -MAX_WEIGHT]
    );
    let err = check_range(&names, &[1, MAX_WEIGHT + 1]).unwrap_err();
    assert!(
        matches!(&err, ParameterError::OutOfRange { name, .. } if name == "b"),
        "{err}"
    );
    assert!(err.to_string().contains("weight b"), "{err}");
    assert_eq!(
        parse_weights("\n  b 5\n# note\na   -1  \n", &names).unwrap(),
        vec![-1, 5]
    );
    let mut pair = Pair(0, 0);
    load_weights(&mut pair, &text).unwrap();
    assert_eq!(pair, Pair(7, -3));
}

#[test]
fn bad_files_name_the_problem_and_change_nothing() {
    let mut pair = Pair(1, 2);
    let cases = [
        ("a 1\nb 2\nc 3\n", "line 3: unknown weight \"c\""),
        ("a 1\na 2\nb 3\n", "line 2: a given twice"),
        ("a 1\n", "misses 1 of 2 weights: b"),
        ("a 1\nb 2.5\n", "line 2: value of b is \"2.5\""),
        ("a 1\nb 99999999999\n", "not a whole number within ±100000"),
        ("a 1\nb -100001\n", "line 2: value of b is \"-100001\""),
        ("a\nb 2\n", "line 1: expected 'name value'"),
        ("a 1 2\nb 2\n", "line 1: expected 'name value'"),
    ];
    for (text, expected) in cases {
        let err = load_weights(&mut pair, text).unwrap_err();
        assert!(err.to_string().contains(expected), "{text:?}: {err}");
        assert_eq!(pair, Pair(1, 2));
    }
}
