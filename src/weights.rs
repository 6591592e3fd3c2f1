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
mod tests;
