//! The workspace's tests that need more than one process, and what their child processes run.
//!
//! A test that must hold a lock while another process tries to take it, kill a process with
//! SIGKILL mid-write, or drive an engine over a pipe needs a second program. That program is
//! this package's binary, `plies-test-child`, which the tests in `tests/` start through
//! `env!("CARGO_BIN_EXE_plies-test-child")` (Cargo builds it before them). This library holds
//! what the binary runs, so the tests and their children share one definition of each game's
//! command line ([`kalah`], [`onitama`], [`onitama_with_tables`]).
//!
//! The binary's first argument picks what the process is ([`Child`]):
//! - `kalah|onitama|onitama-tables|tafl ARGS...`: that game's command line with `ARGS`,
//!   reading standard input and writing standard output, as the game's bot would;
//! - `ugi-engine MODE [LOG [GATE]]`: a scripted Kalah UGI engine ([`EngineMode`]) that logs
//!   the host's lines to `LOG` and, given `GATE`, answers no `go` before that file exists;
//! - `store-writer FILE FIRST COUNT`: analyzes Kalah positions `FIRST..FIRST+COUNT` into the
//!   position store `FILE`, printing [`STORED`] and the number after each.
//!
//! Key invariant: the package is a test crate (`publish = false`); nothing outside its own
//! tests runs the binary, and every test in it checks something (none passes by doing
//! nothing, as a `#[test]` re-run as a child and skipped otherwise would).
#![deny(missing_docs)]

pub mod postgres_server;

use std::io::{BufRead, Write};

use plies::{Game, Notation};
use plies_cli::{CliError, EndgameTables, GameCli, evaluator, run, tunable_evaluator};
use plies_kalah::{Kalah, StoreDifference};
use plies_onitama::tables::{build_for, deal_key, files_for, set_positions};
use plies_onitama::{Onitama, PstEvaluator};

/// What a store writer prints after each analysis it stored (its number follows).
pub const STORED: &str = "stored ";

/// Kalah, the tutorial game, with a bench position (as its bot declares it).
pub fn kalah() -> GameCli<Kalah> {
    GameCli {
        bench_positions: &["4,4,4,4,4,4|0 4,4,4,4,4,4|0 s"],
        bench_depth: 4,
        ..GameCli::new("kalah", evaluator(StoreDifference::default()))
    }
}

/// Onitama with its tunable evaluator (the tuner's game) and a bench position.
pub fn onitama() -> GameCli<Onitama> {
    GameCli {
        bench_positions: &["bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon"],
        bench_depth: 2,
        ..GameCli::new("onitama", tunable_evaluator(PstEvaluator::default()))
    }
}

/// [`onitama`] with its endgame tables and the card sets `precompute` builds.
pub fn onitama_with_tables() -> GameCli<Onitama> {
    GameCli {
        endgame_tables: Some(EndgameTables {
            default_pieces: 3,
            pieces: (2, 10),
            key: deal_key,
            build: build_for,
            files: files_for,
            sets: Some(set_positions),
        }),
        ..onitama()
    }
}

/// How a scripted UGI engine answers `go` (it answers the handshake and follows `position`
/// whatever its mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineMode {
    /// The first legal move.
    First,
    /// A move of an empty pit.
    Illegal,
    /// Exits with status 3.
    Crash,
    /// Says nothing.
    Silent,
    /// Bytes that are not UTF-8, a 200 kB line, then a `bestmove` of a word that is no move.
    Garbage,
}

impl EngineMode {
    /// The mode named `name` (`first`, `illegal`, `crash`, `silent`, `garbage`).
    pub fn parse(name: &str) -> Option<EngineMode> {
        Some(match name {
            "first" => EngineMode::First,
            "illegal" => EngineMode::Illegal,
            "crash" => EngineMode::Crash,
            "silent" => EngineMode::Silent,
            "garbage" => EngineMode::Garbage,
            _ => return None,
        })
    }
}

/// What a child process is, from its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Child {
    /// A game's command line: the game's name and the arguments after it.
    CommandLine {
        /// `kalah`, `onitama`, `onitama-tables` or `tafl`.
        game: String,
        /// The arguments after the program name.
        args: Vec<String>,
    },
    /// A scripted UGI engine, appending every line it receives to `log` when given.
    UgiEngine {
        /// How it answers `go`.
        mode: EngineMode,
        /// The file it logs the host's lines to.
        log: Option<String>,
        /// A file that must exist before it answers a `go` (it waits at most [`GATE_WAIT`]),
        /// so a test can hold a host mid-game for as long as it needs.
        gate: Option<String>,
    },
    /// A writer of Kalah analyses into a position store.
    StoreWriter {
        /// The store file.
        file: String,
        /// The first position number.
        first: usize,
        /// How many positions.
        count: usize,
    },
}

/// Why a child could not do its work.
#[derive(Debug)]
pub enum ChildError {
    /// The arguments name no child, or are malformed; the text says which.
    Usage(String),
    /// A game's command line failed.
    Cli(CliError),
    /// Standard input, output or the log failed.
    Io(std::io::Error),
    /// The host sent a line a scripted engine cannot follow.
    Protocol(String),
}

impl std::fmt::Display for ChildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChildError::Usage(text) => write!(f, "usage: {text}"),
            ChildError::Cli(err) => write!(f, "{err}"),
            ChildError::Io(err) => write!(f, "i/o: {err}"),
            ChildError::Protocol(text) => write!(f, "protocol: {text}"),
        }
    }
}

impl std::error::Error for ChildError {}

impl From<CliError> for ChildError {
    fn from(err: CliError) -> ChildError {
        ChildError::Cli(err)
    }
}

impl From<std::io::Error> for ChildError {
    fn from(err: std::io::Error) -> ChildError {
        ChildError::Io(err)
    }
}

impl Child {
    /// The child that `args` (after the program name) ask for.
    pub fn parse(args: &[String]) -> Result<Child, ChildError> {
        let usage = |text: &str| ChildError::Usage(text.to_string());
        let Some((first, rest)) = args.split_first() else {
            return Err(usage(
                "plies-test-child GAME|ugi-engine|store-writer ARGS...",
            ));
        };
        match first.as_str() {
            "kalah" | "onitama" | "onitama-tables" | "tafl" => Ok(Child::CommandLine {
                game: first.clone(),
                args: rest.to_vec(),
            }),
            "ugi-engine" => match rest {
                [mode] | [mode, _] | [mode, _, _] => Ok(Child::UgiEngine {
                    mode: EngineMode::parse(mode)
                        .ok_or_else(|| usage(&format!("no engine mode '{mode}'")))?,
                    log: rest.get(1).cloned(),
                    gate: rest.get(2).cloned(),
                }),
                _ => Err(usage("ugi-engine MODE [LOG [GATE]]")),
            },
            "store-writer" => match rest {
                [file, first, count] => {
                    let number = |text: &str| {
                        text.parse::<usize>()
                            .map_err(|_| usage(&format!("'{text}' is not a count")))
                    };
                    Ok(Child::StoreWriter {
                        file: file.clone(),
                        first: number(first)?,
                        count: number(count)?,
                    })
                }
                _ => Err(usage("store-writer FILE FIRST COUNT")),
            },
            other => Err(usage(&format!("no child '{other}'"))),
        }
    }

    /// Runs the child on this process's standard input and output.
    pub fn run(&self) -> Result<(), ChildError> {
        let mut input = std::io::BufReader::new(std::io::stdin());
        let mut output = std::io::stdout();
        match self {
            Child::CommandLine { game, args } => {
                let argv = std::iter::once(game.clone()).chain(args.iter().cloned());
                match game.as_str() {
                    "kalah" => run(&kalah(), argv, &mut input, &mut output)?,
                    "onitama" => run(&onitama(), argv, &mut input, &mut output)?,
                    "onitama-tables" => run(&onitama_with_tables(), argv, &mut input, &mut output)?,
                    _ => run(&plies_tafl_cli::tafl_cli(), argv, &mut input, &mut output)?,
                }
                Ok(())
            }
            Child::UgiEngine { mode, log, gate } => {
                let mut log = match log {
                    Some(path) => Some(
                        std::fs::OpenOptions::new()
                            .create(true)
                            .append(true)
                            .open(path)?,
                    ),
                    None => None,
                };
                let engine = Scripted {
                    mode: *mode,
                    log: log.as_mut(),
                    gate: gate.as_deref().map(std::path::Path::new),
                };
                scripted_engine(engine, &mut input, &mut output)
            }
            Child::StoreWriter { file, first, count } => {
                for n in *first..*first + *count {
                    store_one(file, n)?;
                    writeln!(output, "{STORED}{n}")?;
                    output.flush()?;
                }
                Ok(())
            }
        }
    }
}

/// Kalah position number `n` (distinct for `n` below 1000; pit a never empty).
pub fn kalah_position(n: usize) -> String {
    format!(
        "{},{},4,4,4,4|{} 4,4,4,4,4,4|0 s",
        n % 10 + 1,
        n / 10 % 10 + 1,
        n / 100
    )
}

/// Analyzes Kalah position `n` to depth 2 with the store `file`; the analysis must come from a
/// search (a writer stores what no one stored before it).
fn store_one(file: &str, n: usize) -> Result<(), ChildError> {
    let position = kalah_position(n);
    let argv = [
        "kalah",
        "analyze",
        "--position",
        &position,
        "--depth",
        "2",
        "--store",
        file,
        "--json",
    ]
    .map(String::from);
    let mut out = Vec::new();
    run(&kalah(), argv, &mut std::io::empty(), &mut out)?;
    let text = String::from_utf8_lossy(&out);
    let last = text.lines().last().unwrap_or_default();
    let json: serde_json::Value = serde_json::from_str(last)
        .map_err(|err| ChildError::Protocol(format!("analyze printed no JSON ({err}): {last}")))?;
    if json["source"] != "search" {
        return Err(ChildError::Protocol(format!(
            "position {n} was not searched: {last}"
        )));
    }
    Ok(())
}

/// Writes `text` and a newline, and flushes.
fn answer(out: &mut dyn Write, text: &[u8]) -> std::io::Result<()> {
    out.write_all(text)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// How long a gated engine waits for its gate before it gives up with an error.
pub const GATE_WAIT: std::time::Duration = std::time::Duration::from_secs(300);

/// A scripted engine's settings: how it answers, where it logs, what it waits for.
struct Scripted<'a> {
    mode: EngineMode,
    log: Option<&'a mut std::fs::File>,
    gate: Option<&'a std::path::Path>,
}

/// Waits until `gate` exists, polling; an error after [`GATE_WAIT`].
fn wait_for_gate(gate: &std::path::Path) -> Result<(), ChildError> {
    let start = std::time::Instant::now();
    while !gate.exists() {
        if start.elapsed() > GATE_WAIT {
            return Err(ChildError::Protocol(format!(
                "gate {} not opened within {GATE_WAIT:?}",
                gate.display()
            )));
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    Ok(())
}

/// A scripted Kalah UGI engine: answers the handshake, follows `position`, answers `go` as
/// its mode says (once its gate, if any, is open), and ends at `quit` or the end of its input.
fn scripted_engine(
    engine: Scripted<'_>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), ChildError> {
    let Scripted {
        mode,
        mut log,
        gate,
    } = engine;
    let bad = |line: &str| ChildError::Protocol(format!("cannot follow '{line}'"));
    let mut state = Kalah::start_position();
    for line in input.lines() {
        let line = line?;
        if let Some(log) = log.as_mut() {
            writeln!(log, "{line}")?;
            log.flush()?;
        }
        match line.split_whitespace().next() {
            Some("ugi") => answer(out, b"id name scripted\nugiok")?,
            Some("isready") => answer(out, b"readyok")?,
            Some("quit") => break,
            Some("position") => {
                let rest = line
                    .strip_prefix("position fen ")
                    .ok_or_else(|| bad(&line))?;
                let (fen, moves) = rest.split_once(" moves ").unwrap_or((rest, ""));
                state = Kalah::parse_position(fen).map_err(|_| bad(&line))?;
                for token in moves.split_whitespace() {
                    state = state.play(state.parse_move(token).map_err(|_| bad(&line))?);
                }
            }
            Some("go") => {
                if let Some(gate) = gate {
                    wait_for_gate(gate)?;
                }
                let mut moves = Vec::new();
                state.generate_moves(&mut moves);
                match mode {
                    EngineMode::First => {
                        let first = moves.first().ok_or_else(|| bad(&line))?;
                        let token = state.format_move_token(*first);
                        answer(out, format!("bestmove {token}").as_bytes())?;
                    }
                    EngineMode::Illegal => {
                        let empty = (0..6u8)
                            .map(|pit| char::from(b'a' + pit).to_string())
                            .find(|text| state.parse_move(text).is_err())
                            .unwrap_or_else(|| "z".into());
                        answer(out, format!("bestmove {empty}").as_bytes())?;
                    }
                    EngineMode::Crash => std::process::exit(3),
                    EngineMode::Silent => {}
                    EngineMode::Garbage => {
                        answer(out, &[0xff, 0xfe, b'b', 0x80])?;
                        answer(out, &vec![b'q'; 200_000])?;
                        answer(out, "bestmove ☃".as_bytes())?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
