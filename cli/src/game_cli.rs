//! [`GameCli`]: what a game hands to the command line, and what a game may add beyond the
//! generic commands: options that choose the start position ([`PositionOptions`]), named
//! evaluators ([`EvaluatorPreset`], the global `--eval NAME`) and whole commands of its own
//! ([`GameCommand`]).
//!
//! Key invariants: everything the generic commands need from a game is here; nothing else in
//! this crate names a game. A game sets the fields it needs and takes the rest from
//! [`GameCli::new`]. Every extension is declared as clap arguments or commands, so its options
//! show in `--help`, its errors are one line like every other usage error, and the game never
//! rewrites the process's arguments.

use std::io::{BufRead, Write};

use plies::Notation;
use plies::harness::BenchSuite;

use crate::arena::AgentFactory;
use crate::endgame::EndgameTables;
use crate::engine::EvaluatorFactory;
use crate::error::CliError;

/// What a game supplies to get its command line, built as a struct literal ending in
/// `..GameCli::new(name, evaluator)`.
pub struct GameCli<G: Notation> {
    /// The program name shown in help and usage text.
    pub name: &'static str,
    /// The evaluator the searchers use. A game whose evaluator is not tunable
    /// ([`crate::evaluator`]) gets no `tune` command and no `--weights`.
    pub evaluator: EvaluatorFactory<G>,
    /// The positions `bench` searches, in the game's notation (default none).
    pub bench_positions: &'static [&'static str],
    /// The depth `bench` searches them to (default 1).
    pub bench_depth: u32,
    /// The whole benchmark: the depth ladder and proofs of `bench --full`, and the node totals
    /// every `bench` checks (default the empty suite: nothing checked).
    pub bench: BenchSuite,
    /// Options added to every command that takes `--position` (default none).
    pub position_options: Option<&'static dyn PositionOptions>,
    /// The evaluators `--eval NAME` picks from instead of `evaluator` (default none: no
    /// `--eval`).
    pub presets: &'static [EvaluatorPreset<G>],
    /// The game's own commands beside the generic ones (default none).
    pub commands: &'static [GameCommand<G>],
    /// The game's own engine protocols beside UGI, for the arena's `--engine PREFIX:...`
    /// (default none; tafl has OTEP).
    pub engine_protocols: &'static [EngineProtocol<G>],
    /// The game's endgame tables, built for a position when a game starts (default none: no
    /// tables, and `--tables` other than `off` is refused).
    pub endgame_tables: Option<EndgameTables<G>>,
}

impl<G: Notation> GameCli<G> {
    /// A command line called `name` with `evaluator`, no bench positions and the empty suite.
    #[must_use]
    pub fn new(name: &'static str, evaluator: EvaluatorFactory<G>) -> GameCli<G> {
        GameCli {
            name,
            evaluator,
            bench_positions: &[],
            bench_depth: 1,
            bench: BenchSuite::new(),
            position_options: None,
            presets: &[],
            commands: &[],
            engine_protocols: &[],
            endgame_tables: None,
        }
    }
}

impl<G: Notation> Clone for GameCli<G> {
    fn clone(&self) -> GameCli<G> {
        GameCli {
            name: self.name,
            evaluator: self.evaluator.clone(),
            bench_positions: self.bench_positions,
            bench_depth: self.bench_depth,
            bench: self.bench,
            position_options: self.position_options,
            presets: self.presets,
            commands: self.commands,
            engine_protocols: self.engine_protocols,
            endgame_tables: self.endgame_tables,
        }
    }
}

/// An engine protocol of a game's own (tafl's OTEP): the arena's `--engine PREFIX:SPEC` plays
/// engine processes speaking it, as `--engine ugi:SPEC` plays UGI engines.
pub struct EngineProtocol<G: Notation> {
    /// The word before the first `:` of an `--engine` spec, e.g. `otep`.
    pub prefix: &'static str,
    /// Reads the rest of the spec, checks the engine (it starts and answers) and returns what
    /// makes its agents (one per worker and colour); an error is one line naming what is wrong.
    pub engine: fn(&str) -> Result<AgentFactory<G>, String>,
}

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
