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
//!         name: "onitama",
//!         evaluator: plies_cli::evaluator(PstEvaluator::default()),
//!         bench_positions: &["bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon"],
//!         bench_depth: 8,
//!     })
//! }
//! ```
//!
//! A game with a whole benchmark (a depth ladder, positions to prove, recorded node counts)
//! hands a [`BenchSuite`] to [`main_with_suite`] instead; `GameCli` itself stays four fields,
//! built as a struct literal.
//!
//! Commands (a contract: other tools drive plies through them):
//! - `perft --depth D [--convention leaf|stop] [--divide] [--json]`
//! - `analyze (--depth D | --time MS | --nodes N) [--searcher minimax|alphabeta|pvs|mcts] [--json]`
//! - `play [--human first|second|none] [--time MS | --depth D] [--max-plies N]`
//! - `bench [--depth D | --full | --depths D1,D2…] [--json]` (exit code 1 when a node count
//!   differs from the signature the game recorded in its [`BenchSuite`])
//! - `arena --engine A --engine B [--engine C…] (--depth D | --time MS | --nodes N)
//!   [--openings N | --games N] [--openings-file F] [--max-plies N] [--seed S]
//!   [--concurrency N] [--results F.jsonl] [--sprt ELO0,ELO1] [--json]`
//!
//! Every command takes `--position P` (default the game's start position) and `--moves "m1 m2"`
//! played from it first. Position text is handed to the game exactly as written, because case
//! can carry meaning (Onitama: `r` student, `R` master); move text is case-insensitive as far as
//! the game's parser allows. With `--json` the last line printed is one JSON object.
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
mod engine;
mod perft;
mod play;
mod tune;

use std::fmt;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use args::{Cli, Command, PositionArgs};
use plies::game::{Outcome, Side};
use plies::notation::Notation;
use plies::search::Searcher;
use plies::spec::SearcherSpec;

pub use bench::{BenchProof, BenchSignature, BenchSuite};
pub use engine::{EvaluatorFactory, evaluator, tunable_evaluator};

/// What a game supplies to get its command line.
pub struct GameCli<G: Notation> {
    /// The program name shown in help and usage text.
    pub name: &'static str,
    /// The evaluator the searchers use.
    pub evaluator: EvaluatorFactory<G>,
    /// The positions `bench` searches, in the game's notation.
    pub bench_positions: &'static [&'static str],
    /// The depth `bench` searches them to.
    pub bench_depth: u32,
}

/// Why a command failed. Displays as one line (clap's usage errors excepted, which carry their
/// own usage text).
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
            CliError::Usage(text) => write!(f, "{}", text.trim_end()),
            CliError::Invalid(text) => write!(f, "error: {}", one_line(text)),
            CliError::Io(err) => write!(f, "error: i/o: {}", one_line(&err.to_string())),
        }
    }
}

impl std::error::Error for CliError {}

/// `text` on one line: control characters (newlines, tabs, escapes) written as Rust escapes
/// (`\n`), so an error quoting the user's input stays one line whatever the input held.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

impl From<io::Error> for CliError {
    fn from(err: io::Error) -> CliError {
        CliError::Io(err)
    }
}

/// Runs the command line of the game described by `spec` on the process's arguments, stdin and
/// stdout; errors go to stderr. Exit code 0 on success, 2 for unparsable arguments, 1 otherwise.
pub fn main<G: Notation>(spec: GameCli<G>) -> ExitCode {
    main_with_suite(spec, BenchSuite::new())
}

/// [`main`] for a game with a whole benchmark: `bench --full` runs `suite`'s ladder and proofs,
/// and every `bench` checks its node totals against `suite`'s signatures.
pub fn main_with_suite<G: Notation>(spec: GameCli<G>, suite: BenchSuite) -> ExitCode {
    let args = match utf8_args(std::env::args_os()) {
        Ok(args) => args,
        Err(err) => {
            eprintln!("{err}");
            return ExitCode::from(2);
        }
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut output = stdout.lock();
    match run_with_suite(&spec, &suite, args, &mut input, &mut output) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is the reader's choice, not an error worth a message.
        Err(CliError::Io(err)) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::FAILURE,
        Err(err) => {
            let _ = output.flush();
            eprintln!("{err}");
            match err {
                CliError::Usage(_) => ExitCode::from(2),
                _ => ExitCode::FAILURE,
            }
        }
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
                    "error: argument {index} is not UTF-8 text: {}",
                    arg.to_string_lossy()
                ))
            })
        })
        .collect()
}

/// Runs one command. `args` are the program name followed by its arguments (as
/// [`utf8_args`] gives them); `play` reads moves from `input`; everything is printed to
/// `output`. `--help` and `--version` print to `output` and succeed.
pub fn run<G: Notation>(
    spec: &GameCli<G>,
    args: impl IntoIterator<Item = String>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    run_with_suite(spec, &BenchSuite::new(), args, input, output)
}

/// [`run`] with the game's whole benchmark (see [`main_with_suite`]).
pub fn run_with_suite<G: Notation>(
    spec: &GameCli<G>,
    suite: &BenchSuite,
    args: impl IntoIterator<Item = String>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let args: Vec<String> = args.into_iter().collect();
    let command = Cli::command().name(spec.name).bin_name(spec.name);
    let parsed = command
        .try_get_matches_from(&args)
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(err) => {
            use clap::error::ErrorKind;
            return match err.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    write!(output, "{}", err.render())?;
                    Ok(())
                }
                _ => Err(CliError::Usage(err.render().to_string())),
            };
        }
    };
    let weighted;
    let spec = match &cli.weights {
        Some(path) => {
            let evaluator = spec
                .evaluator
                .with_weights_path(path)
                .map_err(|e| CliError::Invalid(format!("bad --weights: {e}")))?;
            weighted = GameCli { evaluator, ..*spec };
            &weighted
        }
        None => spec,
    };
    match cli.command {
        Command::Perft(args) => perft::run::<G>(&args, output),
        Command::Analyze(args) => analyze::run(spec, &args, output),
        Command::Play(args) => play::run(spec, &args, input, output),
        Command::Bench(args) => bench::run(spec, suite, &args, output),
        Command::Arena(args) => arena_command::run(spec, &args, output),
        Command::Tune(tune_args) => {
            let mut line = vec![spec.name.to_string()];
            line.extend(args.iter().skip(1).map(|arg| shell_word(arg)));
            tune::run(spec, &tune_args, &line.join(" "), output)
        }
    }?;
    output.flush()?;
    Ok(())
}

/// `arg` as a shell word: as is when it holds only safe characters, otherwise single-quoted.
fn shell_word(arg: &str) -> String {
    let safe = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./,:=+@%".contains(c));
    if safe {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}

/// The position a command starts from: `--position` (or the start position), then `--moves`.
fn start_position<G: Notation>(start: &PositionArgs) -> Result<G, CliError> {
    let base = match &start.position {
        Some(text) => G::parse_position(text)
            .map_err(|e| CliError::Invalid(format!("bad --position: {e}")))?,
        None => G::start_position(),
    };
    play_moves(base, start.moves.as_deref())
}

/// `state` after the `--moves` line, if any.
fn play_moves<G: Notation>(state: G, moves: Option<&str>) -> Result<G, CliError> {
    match moves {
        Some(line) => state
            .play_line(line)
            .map_err(|e| CliError::Invalid(format!("bad --moves: {e}"))),
        None => Ok(state),
    }
}

/// The searcher of a `--searcher` / `--engine` text (see [`SearcherSpec`]).
fn parse_searcher(text: &str) -> Result<SearcherSpec, String> {
    text.parse()
}

/// A searcher by its spec text, with the game's evaluator as its concrete type.
fn searcher<G: Notation>(spec: &GameCli<G>, name: &str) -> Result<Box<dyn Searcher<G>>, CliError> {
    let parsed =
        parse_searcher(name).map_err(|e| CliError::Invalid(format!("bad --searcher: {e}")))?;
    spec.evaluator
        .searcher(&parsed, None)
        .map_err(|e| CliError::Invalid(format!("bad --searcher: {e}")))
}

/// Checks a search depth: at least 1, at most the deepest ply a score can record.
fn check_depth(depth: u32) -> Result<u32, CliError> {
    let max = plies::eval::Score::MAX_PLY - 1;
    if depth == 0 || depth > max {
        Err(CliError::Invalid(format!(
            "bad --depth {depth}: expected 1..={max}"
        )))
    } else {
        Ok(depth)
    }
}

/// Rejects a depth limit for an MCTS searcher: MCTS grows a tree by playouts and has no search
/// depth to stop at, so `--depth` would silently do nothing.
fn check_mcts_depth(name: &str, limits: &plies::search::SearchLimits) -> Result<(), String> {
    let Ok(parsed) = parse_searcher(name) else {
        return Ok(()); // the name's own error comes when the searcher is built
    };
    match limits.depth {
        Some(depth) if !parsed.has_depth() => Err(format!(
            "depth {depth} does not apply to {parsed}: Monte-Carlo tree search has no search \
             depth; limit it with nodes or time instead"
        )),
        _ => Ok(()),
    }
}

/// The deepest `perft` accepted: far beyond what any game finishes in a day, and small enough
/// that a typo (`--depth 4000000000`) is an error rather than a run that never ends.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// A search's score as text, `none` when the search completed no iteration
/// ([`plies::search::SearchResult::known_score`]).
fn score_text(score: Option<plies::eval::Score>) -> String {
    score.map_or_else(|| "none".to_string(), |s| s.to_string())
}

/// Each move of `line` formatted in the position it is played from.
fn move_texts<G: Notation>(state: &G, line: &[G::Move]) -> Vec<String> {
    let mut state = state.clone();
    line.iter()
        .map(|&mv| {
            let text = state.format_move(mv);
            state = state.play(mv);
            text
        })
        .collect()
}

/// `first` or `second`.
fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

/// `first player wins` or `draw`.
fn outcome_text(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(side) => format!("{} player wins", side_name(side)),
        Outcome::Draw => "draw".to_string(),
    }
}

/// Positions per second, 0 when no time was measured.
fn rate(nodes: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    }
}

#[cfg(test)]
pub(crate) mod test_support;
