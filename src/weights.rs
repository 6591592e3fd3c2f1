//! Weights files: the text form of a [`Tunable`] evaluator's weights, as a tuner writes them and
//! a game reads them at start.
//!
//! ```text
//! # tuned by: onitama tune run --dir tune-onitama --iterations 400 ...
//! student 104
//! student_a1 3
//! ```
//!
//! One `name value` pair per line, in any order; blank lines and lines starting with `#` are
//! comments (the tuner writes the command that produced the file there).
//!
//! Key invariant: a file is accepted only if it names every weight of the evaluator exactly once,
//! with no unknown names, and every value is a whole number within [`MAX_WEIGHT`] of zero;
//! otherwise the error names the line and what is wrong, and the evaluator is not changed.

use crate::eval::Tunable;

/// The largest weight (either sign) a weights file may hold, and the tuners set: far beyond any
/// sensible evaluation term, and small enough that an evaluator summing a board full of such
/// weights cannot overflow an `i32`.
pub const MAX_WEIGHT: i32 = 100_000;

/// Checks every value is within [`MAX_WEIGHT`] of zero; the error names the first that is not.
///
/// # Errors
/// A value beyond `±MAX_WEIGHT`, named by `names` (same order as `values`).
pub fn check_range(names: &[String], values: &[i32]) -> Result<(), String> {
    match values.iter().position(|v| v.abs() > MAX_WEIGHT) {
        Some(i) => Err(format!(
            "weight {} = {} is beyond ±{MAX_WEIGHT}",
            names.get(i).map_or("?", String::as_str),
            values[i]
        )),
        None => Ok(()),
    }
}

/// Reads a weights file against the parameter `names` of an evaluator: the values in the order
/// of `names`.
///
/// # Errors
/// A line that is not `name value`, an unknown or repeated name, a value that is not a whole
/// number fitting an `i32`, or a name of `names` missing from the file.
pub fn parse_weights(text: &str, names: &[String]) -> Result<Vec<i32>, String> {
    let mut values: Vec<Option<i32>> = vec![None; names.len()];
    for (number, line) in text.lines().enumerate() {
        let line_no = number + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split_whitespace();
        let (Some(name), Some(value), None) = (fields.next(), fields.next(), fields.next()) else {
            return Err(format!(
                "weights line {line_no}: expected 'name value', got {line:?}"
            ));
        };
        let index = names.iter().position(|n| n == name).ok_or_else(|| {
            format!("weights line {line_no}: unknown weight {name:?} (this evaluator has {} weights, the first {:?})",
                names.len(), names.first().map_or("", String::as_str))
        })?;
        let value: i32 = value
            .parse()
            .ok()
            .filter(|v: &i32| v.abs() <= MAX_WEIGHT)
            .ok_or_else(|| {
                format!(
                    "weights line {line_no}: value of {name} is {value:?}, not a whole number \
                     within ±{MAX_WEIGHT}"
                )
            })?;
        if values[index].replace(value).is_some() {
            return Err(format!("weights line {line_no}: {name} given twice"));
        }
    }
    let missing: Vec<&str> = names
        .iter()
        .zip(&values)
        .filter(|(_, v)| v.is_none())
        .map(|(n, _)| n.as_str())
        .collect();
    if !missing.is_empty() {
        let shown = missing
            .iter()
            .take(5)
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        let more = if missing.len() > 5 { ", ..." } else { "" };
        return Err(format!(
            "weights file misses {} of {} weights: {shown}{more}",
            missing.len(),
            names.len()
        ));
    }
    Ok(values.into_iter().flatten().collect())
}

/// Writes weights as a weights file: each line of `comment` as a `#` line, then one `name value`
/// line per weight, in order. [`parse_weights`] reads it back to `values`.
///
/// # Panics
/// If `names` and `values` differ in length (a programming error).
#[must_use]
pub fn format_weights(names: &[String], values: &[i32], comment: &str) -> String {
    assert_eq!(names.len(), values.len(), "one value per weight name");
    let mut text = String::new();
    for line in comment.lines() {
        text.push_str("# ");
        text.push_str(line);
        text.push('\n');
    }
    for (name, value) in names.iter().zip(values) {
        text.push_str(&format!("{name} {value}\n"));
    }
    text
}

/// Sets `evaluator`'s weights from a weights file; on error it is unchanged.
///
/// # Errors
/// As [`parse_weights`], or the evaluator refusing the values.
pub fn load_weights<T: Tunable + ?Sized>(evaluator: &mut T, text: &str) -> Result<(), String> {
    let values = parse_weights(text, &evaluator.parameter_names())?;
    evaluator.set_parameters(&values)
}

/// `evaluator` with the weights of a file shipped with a game crate (`include_str!`), as its
/// tuned evaluator is made.
///
/// # Panics
/// If the file does not fit the evaluator: the game's own test of the file must catch that.
#[must_use]
pub fn shipped<T: Tunable>(mut evaluator: T, text: &str) -> T {
    if let Err(e) = load_weights(&mut evaluator, text) {
        panic!("the shipped weights file does not fit the evaluator: {e}");
    }
    evaluator
}

#[cfg(test)]
mod tests {
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
        fn set_parameters(&mut self, values: &[i32]) -> Result<(), String> {
            match values {
                &[a, b] => {
                    *self = Pair(a, b);
                    Ok(())
                }
                _ => Err("two weights".into()),
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
        assert!(
            check_range(&names, &[1, MAX_WEIGHT + 1])
                .unwrap_err()
                .contains("weight b")
        );
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
            assert!(err.contains(expected), "{text:?}: {err}");
            assert_eq!(pair, Pair(1, 2));
        }
    }
}
