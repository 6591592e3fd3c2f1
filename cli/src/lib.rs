//! # plies-cli
//!
//! The application side of plies, kept out of the core library so that a game or a program
//! embedding the searchers compiles no command-line, serialisation or progress-bar code:
//! - the generic command line (this crate's root): one call gives any game `perft`, `analyze`,
//!   `play`, `bench` and `arena`;
//! - [`arena`]: matches and round robins between engine configurations, Elo, SPRT and resumable
//!   JSON-lines results;
//! - the bots of the bundled games (`examples/`: onitama, tafl, hus, yinsh and the Kalah
//!   tutorial), run from the workspace root with `cargo run --release --example <game>`.
//!
//!
//! A game's binary is a few lines:
//!
//! ```no_run
//! use plies_onitama::{Onitama, PstEvaluator};
//!
//! fn main() -> std::process::ExitCode {
//!     plies_cli::main(plies_cli::GameCli::<Onitama> {
//!         bench_positions: &["bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon"],
//!         bench_depth: 8,
//!         ..plies_cli::GameCli::new("onitama", plies_cli::evaluator(PstEvaluator::default()))
//!     })
//! }
//! ```
//!
//! A game adds what is its own through three more fields, each declared for clap so it shows in
//! `--help` and fails as one line: [`GameCli::position_options`] ([`PositionOptions`]: options
//! of every command taking `--position`, such as tafl's `--variant`), [`GameCli::presets`]
//! ([`EvaluatorPreset`]s picked with `--eval NAME`) and [`GameCli::commands`]
//! ([`GameCommand`]s beside the generic ones, such as tafl's `otep`).
//!
//! A game with a whole benchmark (a depth ladder, positions to prove, recorded node counts)
//! sets [`GameCli::bench`] to its [`BenchSuite`](plies::harness::BenchSuite); the fields a game leaves out come from
//! [`GameCli::new`] (`..GameCli::new(name, evaluator)`).
//!
//! Commands (a contract: other tools drive plies through them):
//! - `perft --depth D [--convention leaf|stop] [--divide] [--json]`
//! - `analyze (--depth D | --time MS | --nodes N) [--searcher minimax|alphabeta|pvs|mcts] [--json]
//!   [--store PATH|off] [--no-store-read]`
//! - `play [--human first|second|none] [--time MS | --depth D] [--max-plies N]`
//! - `bench [--depth D | --full | --depths D1,D2…] [--json]` (exit code 1 when a node count
//!   differs from the signature the game recorded in its [`BenchSuite`](plies::harness::BenchSuite))
//! - `arena --engine A --engine B [--engine C…] (--depth D | --time MS | --nodes N)
//!   [--openings N | --games N] [--openings-file F] [--max-plies N] [--seed S]
//!   [--concurrency N] [--results F.jsonl] [--sprt ELO0,ELO1] [--json]`
//! - `store stats|export [FILE]|import FILE|prune [--max-size SIZE]`: the position store
//!   `analyze` writes to and answers from (`--store PATH|off`, `--store-limit SIZE`); the
//!   arena records its games there with `arena --store PATH`
//! - `explore [--store PATH] [--json]`: the moves recorded games played in the position, with
//!   counts and results from the mover's view
//! - `book build --min-games N --out FILE [--max-plies P] [--store PATH]`: an opening book from
//!   the store's recorded games, played by `play --book FILE`, `arena -e pvs:book=FILE` and
//!   UGI's `Book` option
//! - `serve [--port P] [--listen ADDR] [--open] [--max-games N] [--max-memory MB]
//!   [--read-timeout-ms MS] [--allow-host NAME[:PORT]]`: the game's web page, drawn from its
//!   [`plies_view::View`] (which `main` and `run` require); only with the feature `serve`
//!
//! Every command takes `--position P` (default the game's start position) and `--moves "m1 m2"`
//! played from it first. Position text is handed to the game exactly as written, because case
//! can carry meaning (Onitama: `r` student, `R` master); move text is case-insensitive as far as
//! the game's parser allows. With `--json` the last line printed is one JSON object.
//!
//! Cargo features: `serve` (default) is the web page, its HTTP server and API (the `serve`
//! command and `page_router`, for tests and fuzzing), built on axum and tokio. A game crate
//! that wants the other commands without compiling the server writes
//! `plies-cli = { ..., default-features = false }`: `serve` is then absent from the grammar
//! ([`command`], `--help`) and asking for it is a usage error like any unknown command. Games
//! implement [`plies_view::View`] either way.
//!
//! Key invariant: bad input of any kind (arguments, positions, moves) ends in a [`CliError`]
//! whose display is one line naming the problem, never a panic; [`run`] reads only from its
//! `input` and writes only to its `output`, so every command is testable.

#![deny(missing_docs)]

mod analyze;
pub mod arena;
mod arena_command;
mod args;
mod bench;
mod book;
mod endgame;
mod engine;
mod error;
mod explore;
mod files;
mod game_cli;
mod input;
mod logging;
mod memory;
mod perft;
mod play;
mod position;
#[cfg(feature = "serve")]
mod serve;
mod store;
mod tables;
mod text;
mod tune;
mod ugi;

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use args::{Cli, Command};
use plies::Notation;
use plies_view::View;

pub use endgame::{EndgameTables, TableBuilder};
pub use engine::{EngineError, EvaluatorFactory, evaluator, tunable_evaluator};
pub use error::{CliError, utf8_args};
pub use game_cli::GameCli;
pub use game_cli::{CommandContext, EngineProtocol, EvaluatorPreset, GameCommand, PositionOptions};
pub use input::ChannelInput;
pub use memory::physical_memory;
#[cfg(feature = "serve")]
pub use serve::page_router;
pub use tables::{KeyDirError, LockedKeyDir, lock_key_dir};
pub use text::one_line;

/// Runs the command line of the game described by `spec` on the process's arguments, stdin and
/// stdout; errors go to stderr as one line. Exit code 0 on success, 2 when the arguments do not
/// parse, 1 for any other error. `analyze` keeps its results in the position store of the
/// user's data directory unless told otherwise (`--store PATH|off`).
pub fn main<G: View>(spec: GameCli<G>) -> ExitCode {
    let args = match utf8_args(std::env::args_os()) {
        Ok(args) => args,
        Err(err) => {
            eprintln!("{err}");
            return err.exit_code();
        }
    };
    // The program keeps its analyses in the user's data directory unless told otherwise.
    store::use_data_directory_by_default();
    // Unlocked handles: `ugi` reads on while its search thread writes.
    let mut input = io::BufReader::new(io::stdin());
    let mut output = io::stdout();
    match run(&spec, args, &mut input, &mut output) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is the reader's choice, not an error worth a message.
        Err(CliError::Io(err)) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::FAILURE,
        Err(err) => {
            let _ = output.flush();
            eprintln!("{err}");
            err.exit_code()
        }
    }
}

/// Runs one command. `args` are the program name followed by its arguments (as
/// [`utf8_args`] gives them); `play` reads moves and `ugi` its commands from `input`; everything is printed to
/// `output`. `--help` and `--version` print to `output` and succeed. Unlike [`main`], `analyze`
/// uses no position store unless one is named (`--store PATH`, `PLIES_STORE`).
pub fn run<G: View>(
    spec: &GameCli<G>,
    args: impl IntoIterator<Item = String>,
    input: &mut (dyn BufRead + Send),
    output: &mut (dyn Write + Send),
) -> Result<(), CliError> {
    let args: Vec<String> = args.into_iter().collect();
    let matches = match command(spec).try_get_matches_from(&args) {
        Ok(matches) => matches,
        Err(err) => {
            use clap::error::ErrorKind;
            return match err.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    write!(output, "{}", err.render())?;
                    Ok(())
                }
                _ => Err(error::from_clap(&err, spec.name)),
            };
        }
    };
    logging::install(matches.get_one::<String>("log").map(String::as_str))?;
    let configured;
    let spec = match configure(spec, &matches)? {
        Some(changed) => {
            configured = changed;
            &configured
        }
        None => spec,
    };
    if let Some((name, sub)) = matches.subcommand()
        && let Some(command) = spec
            .commands
            .iter()
            .find(|command| (command.command)().get_name() == name)
    {
        (command.run)(CommandContext {
            game: spec,
            matches: sub,
            input,
            output: &mut *output,
        })?;
        output.flush()?;
        return Ok(());
    }
    let mut cli = Cli::from_arg_matches(&matches).map_err(|e| error::from_clap(&e, spec.name))?;
    if let (Some(options), Some(start)) = (spec.position_options, cli.command.start_mut()) {
        let mut leaf = &matches;
        while let Some((_, sub)) = leaf.subcommand() {
            leaf = sub;
        }
        let text = options
            .position_text(leaf, start.position.as_deref())
            .map_err(CliError::Invalid)?;
        start.position = text;
    }
    match cli.command {
        Command::Perft(args) => perft::run::<G>(&args, output),
        Command::Analyze(mut args) => {
            args.evaluator =
                store::EvaluatorKind::of(spec.presets, cli.eval.as_deref(), cli.weights.is_some());
            analyze::run(spec, &args, output)
        }
        Command::Play(args) => play::run(spec, &args, input, output),
        Command::Bench(args) => bench::run(spec, &args, output),
        Command::Arena(args) => arena_command::run(spec, &args, output),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(spec, &args, output),
        Command::Ugi(args) => ugi::run(spec, &args, input, output),
        Command::Store(args) => store::command::run(spec, &args, output),
        Command::Explore(args) => explore::run(spec, &args, output),
        Command::Book(args) => book::run(spec, &args, output),
        Command::Precompute(args) => tables::precompute::run(spec, &args, output),
        Command::Tune(tune_args) => {
            let mut line = vec![spec.name.to_string()];
            line.extend(args.iter().skip(1).map(|arg| text::shell_word(arg)));
            tune::run(spec, &tune_args, &line.join(" "), output)
        }
    }?;
    output.flush()?;
    Ok(())
}

/// The whole grammar of `spec`'s command line, as [`run`] parses it: the generic commands, the
/// game's own commands, its position options on every command that takes `--position`, `--eval`
/// when it has presets, and `tune`/`--weights` only for a tunable evaluator (hidden otherwise).
/// Tools that generate command lines (the fuzzer) walk it instead of copying the grammar.
pub fn command<G: Notation>(spec: &GameCli<G>) -> clap::Command {
    let mut command = Cli::command().name(spec.name).bin_name(spec.name);
    for extra in spec.commands {
        command = command.subcommand((extra.command)());
    }
    if spec.evaluator.parameter_names().is_none() {
        // Nothing to tune and no weights to load: neither is offered.
        command = command
            .mut_subcommand("tune", |tune| tune.hide(true))
            .mut_arg("weights", |weights| weights.hide(true));
    }
    if spec.endgame_tables.and_then(|t| t.sets).is_none() {
        // No sets of tables to precompute.
        command = command.mut_subcommand("precompute", |precompute| precompute.hide(true));
    }
    if !spec.presets.is_empty() {
        let names: Vec<&'static str> = spec.presets.iter().map(|preset| preset.name).collect();
        command = command.mut_arg("eval", |eval| {
            eval.hide(false)
                .ignore_case(true)
                .value_parser(clap::builder::PossibleValuesParser::new(names))
        });
    }
    if let Some(options) = spec.position_options {
        command = with_position_options(command, options);
    }
    error::negative_numbers(command)
}

/// `command` with `options`' arguments added to it and every subcommand that takes
/// `--position`.
fn with_position_options(
    mut command: clap::Command,
    options: &'static dyn PositionOptions,
) -> clap::Command {
    if command
        .get_arguments()
        .any(|arg| arg.get_id() == "position")
    {
        command = command.args(options.args());
    }
    let names: Vec<String> = command
        .get_subcommands()
        .map(|sub| sub.get_name().to_string())
        .collect();
    for name in names {
        command = command.mut_subcommand(name, |sub| with_position_options(sub, options));
    }
    command
}

/// `spec` with the evaluator `--eval` and `--weights` ask for, or `None` when neither is given.
/// An evaluator without weights refuses `--weights` and `tune`; a game without presets refuses
/// `--eval`.
fn configure<G: Notation>(
    spec: &GameCli<G>,
    matches: &clap::ArgMatches,
) -> Result<Option<GameCli<G>>, CliError> {
    let weights = matches.get_one::<std::path::PathBuf>("weights");
    let eval = matches.get_one::<String>("eval");
    let tunable = spec.evaluator.parameter_names().is_some();
    let tune = matches.subcommand_name() == Some("tune");
    if !tunable && (weights.is_some() || tune) {
        let what = if weights.is_some() {
            "--weights"
        } else {
            "tune"
        };
        return Err(CliError::Usage(format!(
            "{what}: {}'s evaluator has no tunable weights",
            spec.name
        )));
    }
    if weights.is_none() && eval.is_none() {
        return Ok(None);
    }
    let mut changed = spec.clone();
    if let Some(name) = eval {
        let preset = spec
            .presets
            .iter()
            .find(|preset| preset.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                CliError::Usage(format!("--eval: {} has no evaluator presets", spec.name))
            })?;
        changed.evaluator = (preset.evaluator)();
        if !preset.is_default {
            // The recorded node counts hold for the default evaluator only.
            changed.bench = changed.bench.signatures(&[]);
        }
    }
    if let Some(path) = weights {
        changed.evaluator = changed
            .evaluator
            .with_weights_path(path)
            .map_err(|e| CliError::Invalid(format!("bad --weights: {e}")))?;
    }
    Ok(Some(changed))
}

#[cfg(test)]
pub(crate) mod test_support;
