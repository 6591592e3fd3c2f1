//! Diagnostic logging for the command line: `--log LEVEL` (or `RUST_LOG` when the option is
//! absent) installs a `tracing` subscriber that writes the events of the library and the
//! application to stderr: search iterations (`plies::search`, debug), arena games and tuner
//! iterations (`plies_cli`, info) and OpenTafl protocol lines (`plies_tafl_otep`, debug).
//!
//! Key invariant: without `--log` and without `RUST_LOG` nothing is installed and nothing is
//! written, so the output other tools read stays exactly as documented; a bad level is a
//! one-line [`CliError::Invalid`] naming what was given.

use std::io::Write;

use tracing_subscriber::EnvFilter;

use crate::error::CliError;

/// The levels `--log` takes as a single word.
const LEVELS: [&str; 6] = ["off", "error", "warn", "info", "debug", "trace"];

/// The filter for `level` (the `--log` value), else for `RUST_LOG`; `None` when neither is set.
/// A level is one of `off`, `error`, `warn`, `info`, `debug`, `trace`, or a filter of
/// `target=level` directives separated by commas (`plies_cli=info,plies::search=debug`).
///
/// # Errors
/// The text is not a level or filter.
pub(crate) fn filter(level: Option<&str>) -> Result<Option<EnvFilter>, CliError> {
    let (text, origin) = match level {
        Some(text) => (text.to_string(), "--log"),
        None => match std::env::var("RUST_LOG") {
            Ok(text) if !text.trim().is_empty() => (text, "RUST_LOG"),
            _ => return Ok(None),
        },
    };
    let text = text.trim();
    let bad = |why: String| {
        CliError::Invalid(format!(
            "bad {origin} '{}': {why}expected off, error, warn, info, debug, trace or \
             target=level,...",
            plies::excerpt(text)
        ))
    };
    let is_level = |word: &str| LEVELS.contains(&word.trim().to_ascii_lowercase().as_str());
    // A bare word would be read as a target name: far more likely a mistyped level. And the
    // filter crate takes `target=anything`, silently enabling everything for the target.
    let is_word = !text.contains(['=', ',', ':']);
    let bad_level = text
        .split(',')
        .filter_map(|directive| directive.rsplit_once('=').map(|(_, level)| level))
        .find(|level| !is_level(level));
    if let Some(level) = bad_level {
        return Err(bad(format!("'{}' is not a level; ", plies::excerpt(level))));
    }
    if is_word && !is_level(text) {
        return Err(bad(String::new()));
    }
    EnvFilter::try_new(text)
        .map(Some)
        .map_err(|e| bad(format!("{e}; ")))
}

/// Builds the subscriber for `filter`, writing one line per event to what `writer` makes.
pub(crate) fn subscriber<W>(filter: EnvFilter, writer: W) -> impl tracing::Subscriber + Send + Sync
where
    W: for<'w> tracing_subscriber::fmt::MakeWriter<'w> + Send + Sync + 'static,
{
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(false)
        .finish()
}

/// Installs the stderr subscriber asked for by `level` or `RUST_LOG` for the rest of the
/// process. A process that already has one (a second command run in the same process) keeps
/// its first.
///
/// # Errors
/// As [`filter`].
pub(crate) fn install(level: Option<&str>) -> Result<(), CliError> {
    if let Some(filter) = filter(level)? {
        let _ = tracing::subscriber::set_global_default(subscriber(filter, std::io::stderr));
        let _ = std::io::stderr().flush();
    }
    Ok(())
}

#[cfg(test)]
mod tests;
