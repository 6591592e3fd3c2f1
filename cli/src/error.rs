//! [`CliError`]: every way a command fails, and how it is shown: one line, `error: ...`, with
//! any quoted input cut to [`plies::EXCERPT_CHARS`] characters.
//!
//! Key invariant: a [`CliError`] displays as exactly one line whatever the input held; the exit
//! code is 2 when the arguments did not parse ([`CliError::Usage`]) and 1 for every other error.

use std::fmt;
use std::io;

use crate::text::one_line;

/// Why a command failed. Displays as one line starting `error: `.
#[derive(Debug)]
pub enum CliError {
    /// The arguments did not parse (unknown flag, missing value, a value of the wrong type).
    Usage(String),
    /// An argument parsed but is not acceptable: a bad position, move, depth, name.
    Invalid(String),
    /// Reading input or writing output failed.
    Io(io::Error),
}
impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(text) | CliError::Invalid(text) => {
                write!(f, "error: {}", short_quotes(&one_line(text)))
            }
            CliError::Io(err) => write!(f, "error: i/o: {}", one_line(&err.to_string())),
        }
    }
}
impl std::error::Error for CliError {}
impl From<io::Error> for CliError {
    fn from(err: io::Error) -> CliError {
        CliError::Io(err)
    }
}
/// The process's arguments (from [`std::env::args_os`]) as text, or a [`CliError::Usage`]
/// naming the first that is not UTF-8 (where [`std::env::args`] would panic). The program name
/// (the first item) is only shown in usage text, so it is converted lossily instead.
pub fn utf8_args(
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Result<Vec<String>, CliError> {
    args.into_iter()
        .enumerate()
        .map(|(index, arg)| {
            if index == 0 {
                return Ok(arg.to_string_lossy().into_owned());
            }
            arg.into_string().map_err(|arg| {
                CliError::Usage(format!(
                    "argument {index} is not UTF-8 text: '{}'",
                    arg.to_string_lossy()
                ))
            })
        })
        .collect()
}

impl CliError {
    /// The process exit code for this error: 2 when the arguments did not parse, 1 otherwise.
    #[must_use]
    pub fn exit_code(&self) -> std::process::ExitCode {
        match self {
            CliError::Usage(_) => std::process::ExitCode::from(2),
            _ => std::process::ExitCode::FAILURE,
        }
    }
}

/// `text` with every `'quoted'` stretch cut to [`plies::excerpt`]'s length, so an
/// error never repeats a pasted megabyte.
fn short_quotes(text: &str) -> String {
    let parts: Vec<&str> = text.split('\'').collect();
    // Odd parts are inside quotes (an unbalanced last quote leaves its tail as it is).
    let last = parts.len() - 1;
    parts
        .iter()
        .enumerate()
        .map(|(index, part)| {
            if index % 2 == 1 && index < last {
                plies::excerpt(part)
            } else {
                (*part).to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("'")
}

/// clap's error as a one-line [`CliError::Usage`]: its first paragraph (the error and, for
/// missing arguments, their names) on one line, and where help is.
pub(crate) fn from_clap(err: &clap::Error, program: &str) -> CliError {
    let rendered = err.render().to_string();
    let paragraph: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .skip_while(|line| line.is_empty())
        .take_while(|line| !line.is_empty())
        .collect();
    let text = paragraph.join(" ");
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    CliError::Usage(format!("{text} (see {program} --help)"))
}

/// `command` with every option that takes a value accepting negative numbers as values, in
/// every subcommand, so `--depth -1` is refused by the option's own check (which names it)
/// instead of being read as an unknown flag.
pub(crate) fn negative_numbers(command: clap::Command) -> clap::Command {
    let names: Vec<String> = command
        .get_subcommands()
        .map(|sub| sub.get_name().to_string())
        .collect();
    let mut command = command.mut_args(|arg| {
        if arg.get_action().takes_values() && !arg.is_positional() {
            arg.allow_negative_numbers(true)
        } else {
            arg
        }
    });
    for name in names {
        command = command.mut_subcommand(name, negative_numbers);
    }
    command
}
