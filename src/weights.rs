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

use std::fmt;

use crate::eval::{ParameterError, Tunable};

/// The largest weight (either sign) a weights file may hold, and the tuners set: far beyond any
/// sensible evaluation term, and small enough that an evaluator summing a board full of such
/// weights cannot overflow an `i32`.
pub const MAX_WEIGHT: i32 = 100_000;

/// Why a weights file could not be read, or its weights not set.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum WeightsError {
    /// A line that is not `name value`.
    NotNameValue {
        /// The line's number, from 1.
        line: usize,
        /// The line, trimmed.
        text: String,
    },
    /// A name the evaluator does not have.
    UnknownName {
        /// The line's number, from 1.
        line: usize,
        /// The name.
        name: String,
        /// How many weights the evaluator has.
        known: usize,
        /// The name of its first weight (empty if it has none).
        first: String,
    },
    /// A value that is not a whole number within [`MAX_WEIGHT`] of zero.
    BadValue {
        /// The line's number, from 1.
        line: usize,
        /// The weight's name.
        name: String,
        /// The value as written.
        value: String,
    },
    /// A name given on two lines.
    Repeated {
        /// The line's number (the second one), from 1.
        line: usize,
        /// The name.
        name: String,
    },
    /// Weights of the evaluator the file does not give.
    Missing {
        /// Their names, in the evaluator's order.
        names: Vec<String>,
        /// How many weights the evaluator has.
        total: usize,
    },
    /// The evaluator refused the values.
    Rejected(ParameterError),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::NotNameValue { line, text } => {
                write!(
                    f,
                    "weights line {line}: expected 'name value', got {text:?}"
                )
            }
            WeightsError::UnknownName {
                line,
                name,
                known,
                first,
            } => write!(
                f,
                "weights line {line}: unknown weight {name:?} (this evaluator has {known} \
                 weights, the first {first:?})"
            ),
            WeightsError::BadValue { line, name, value } => write!(
                f,
                "weights line {line}: value of {name} is {value:?}, not a whole number within \
                 ±{MAX_WEIGHT}"
            ),
            WeightsError::Repeated { line, name } => {
                write!(f, "weights line {line}: {name} given twice")
            }
            WeightsError::Missing { names, total } => {
                let shown = names.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
                let more = if names.len() > 5 { ", ..." } else { "" };
                write!(
                    f,
                    "weights file misses {} of {total} weights: {shown}{more}",
                    names.len()
                )
            }
            WeightsError::Rejected(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WeightsError {}

impl From<ParameterError> for WeightsError {
    fn from(e: ParameterError) -> WeightsError {
        WeightsError::Rejected(e)
    }
}

/// Checks every value is within [`MAX_WEIGHT`] of zero; the error names the first that is not.
///
/// # Errors
/// [`ParameterError::OutOfRange`]: a value beyond `±MAX_WEIGHT`, named by `names` (same order
/// as `values`).
pub fn check_range(names: &[String], values: &[i32]) -> Result<(), ParameterError> {
    match values.iter().position(|v| v.abs() > MAX_WEIGHT) {
        Some(i) => Err(ParameterError::OutOfRange {
            name: names.get(i).map_or("?", String::as_str).to_string(),
            value: values[i],
            max: MAX_WEIGHT,
        }),
        None => Ok(()),
    }
}

/// Reads a weights file against the parameter `names` of an evaluator: the values in the order
/// of `names`.
///
/// # Errors
/// A line that is not `name value`, an unknown or repeated name, a value that is not a whole
/// number within [`MAX_WEIGHT`] of zero, or a name of `names` missing from the file.
pub fn parse_weights(text: &str, names: &[String]) -> Result<Vec<i32>, WeightsError> {
    let mut values: Vec<Option<i32>> = vec![None; names.len()];
    for (number, line) in text.lines().enumerate() {
        let line_no = number + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split_whitespace();
        let (Some(name), Some(value), None) = (fields.next(), fields.next(), fields.next()) else {
            return Err(WeightsError::NotNameValue {
                line: line_no,
                text: line.to_string(),
            });
        };
        let index =
            names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| WeightsError::UnknownName {
                    line: line_no,
                    name: name.to_string(),
                    known: names.len(),
                    first: names.first().cloned().unwrap_or_default(),
                })?;
        let value: i32 = value
            .parse()
            .ok()
            .filter(|v: &i32| v.abs() <= MAX_WEIGHT)
            .ok_or_else(|| WeightsError::BadValue {
                line: line_no,
                name: name.to_string(),
                value: value.to_string(),
            })?;
        if values[index].replace(value).is_some() {
            return Err(WeightsError::Repeated {
                line: line_no,
                name: name.to_string(),
            });
        }
    }
    let missing: Vec<String> = names
        .iter()
        .zip(&values)
        .filter(|(_, v)| v.is_none())
        .map(|(n, _)| n.clone())
        .collect();
    if !missing.is_empty() {
        return Err(WeightsError::Missing {
            names: missing,
            total: names.len(),
        });
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
pub fn load_weights<T: Tunable + ?Sized>(
    evaluator: &mut T,
    text: &str,
) -> Result<(), WeightsError> {
    let values = parse_weights(text, &evaluator.parameter_names())?;
    Ok(evaluator.set_parameters(&values)?)
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
