//! Where a command starts: `--position` and `--moves`, and openings files.
//!
//! Key invariant: position text is handed to the game exactly as written (case can carry
//! meaning); a position or move the game refuses is a one-line [`CliError`] naming the flag.

use clap::Args;
use plies::Notation;

use crate::error::CliError;

/// Where a command starts: a position and moves played from it.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct PositionArgs {
    /// Position text in the game's notation (passed as written: case can matter); default the
    /// game's start position.
    #[arg(long, short = 'p')]
    pub position: Option<String>,
    /// Moves to play from the position first, separated by spaces (case-insensitive).
    #[arg(long, short = 'm')]
    pub moves: Option<String>,
}
/// The position a command starts from: `--position` (or the start position), then `--moves`.
pub(crate) fn start_position<G: Notation>(start: &PositionArgs) -> Result<G, CliError> {
    let base = match &start.position {
        Some(text) => G::parse_position(text)
            .map_err(|e| CliError::Invalid(format!("bad --position: {e}")))?,
        None => G::start_position(),
    };
    play_moves(base, start.moves.as_deref())
}
/// `state` after the `--moves` line, if any.
pub(crate) fn play_moves<G: Notation>(state: G, moves: Option<&str>) -> Result<G, CliError> {
    match moves {
        Some(line) => state
            .play_line(line)
            .map_err(|e| CliError::Invalid(format!("bad --moves: {e}"))),
        None => Ok(state),
    }
}
/// The positions of an openings file: one per line, blank lines and `#` comments skipped; a
/// line that does not parse or is a finished game is an error naming it (the file may hold no
/// position: the caller decides whether that is an error). The file must be a regular file of
/// at most [`crate::files::OPENINGS_LIMIT`] bytes.
pub(crate) fn read_openings_file<G: Notation>(path: &std::path::Path) -> Result<Vec<G>, CliError> {
    let text = crate::files::read_text(path, crate::files::OPENINGS_LIMIT)
        .map_err(|e| CliError::Invalid(e.of("--openings-file")))?;
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let position = G::parse_position(line).map_err(|e| {
            CliError::Invalid(format!("{} line {}: {e}", path.display(), number + 1))
        })?;
        if position.outcome().is_some() {
            return Err(CliError::Invalid(format!(
                "{} line {}: the game is already over",
                path.display(),
                number + 1
            )));
        }
        openings.push(position);
    }
    Ok(openings)
}
