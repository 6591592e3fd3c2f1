//! What a game may add to its command line beyond the generic commands: options that choose
//! the start position ([`PositionOptions`]), named evaluators ([`EvaluatorPreset`], the global
//! `--eval NAME`) and whole commands of its own ([`GameCommand`]).
//!
//! Key invariant: every extension is declared as clap arguments or commands, so its options
//! show in `--help`, its errors are one line like every other usage error, and the game never
//! rewrites the process's arguments.

use std::io::{BufRead, Write};

use plies::notation::Notation;

use crate::engine::EvaluatorFactory;
use crate::error::CliError;
use crate::game_cli::GameCli;

/// Options a game adds to every command that takes `--position` (perft, analyze, play, bench,
/// arena, tune init/texel), turned into the position text the game's parser reads.
///
/// Tafl, for example, adds `--variant NAME` and `--rules TEXT` and combines a `--position`
/// record with the variant's rules. Conflicts between the options (given twice, two that
/// exclude each other) are best declared on the [`clap::Arg`]s, so clap reports them.
pub trait PositionOptions: Send + Sync {
    /// The extra arguments, shown in each position-taking command's help.
    fn args(&self) -> Vec<clap::Arg>;

    /// The position text for the game's parser from the matches of those arguments and the
    /// `--position` text given (if any); `None` means the game's start position. An error is
    /// one line naming the option at fault.
    fn position_text(
        &self,
        matches: &clap::ArgMatches,
        position: Option<&str>,
    ) -> Result<Option<String>, String>;
}

/// A named evaluator a user picks with `--eval NAME` (before or after the command).
pub struct EvaluatorPreset<G: Notation> {
    /// The name after `--eval`.
    pub name: &'static str,
    /// Makes the evaluator.
    pub evaluator: fn() -> EvaluatorFactory<G>,
    /// Whether this preset is the game's default [`GameCli::evaluator`]: the bench's recorded
    /// node counts hold for it, so `bench` keeps checking them (for any other preset it does
    /// not: its counts differ on purpose).
    pub is_default: bool,
}

/// What a game command receives besides its own arguments.
pub struct CommandContext<'a, G: Notation> {
    /// The game's command line, with `--eval` and `--weights` already applied to its
    /// evaluator.
    pub game: &'a GameCli<G>,
    /// The command's own matches (parse them with clap's `FromArgMatches` for a derived
    /// struct).
    pub matches: &'a clap::ArgMatches,
    /// Where the command reads from (stdin for a binary).
    pub input: &'a mut dyn BufRead,
    /// Where the command prints (stdout for a binary).
    pub output: &'a mut dyn Write,
}

/// A command of one game, beside the generic ones: its grammar as a clap command (derived or
/// built) and the function that runs it.
pub struct GameCommand<G: Notation> {
    /// The command's grammar; its name is the command's name (e.g.
    /// `|| SpeedArgs::command().name("speed")` for a `#[derive(clap::Parser)]` struct).
    pub command: fn() -> clap::Command,
    /// Runs the command. An error is a [`CliError`]: [`CliError::Invalid`] for a value that
    /// parsed but is not acceptable.
    pub run: fn(CommandContext<'_, G>) -> Result<(), CliError>,
}
