//! `plies-fuzz`: the fuzz drivers from the command line (see `docs/fuzzing.md`).
//!
//! ```sh
//! cargo run --release -p plies-fuzz -- list
//! cargo run --release -p plies-fuzz -- targets --inputs 20000
//! cargo build --release --examples --bins
//! cargo run --release -p plies-fuzz -- binaries --bin-dir target/release --inputs 1500
//! cargo run --release -p plies-fuzz -- replay --target tafl-rules fuzz-failures/x.bin
//! ```
//!
//! Key invariant: the exit code is 0 only when the run found no failure (1 otherwise, 2 for
//! bad arguments).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use plies_fuzz::driver::{Report, Settings, replay, run_target};
use plies_fuzz::process::{ProcessSettings, run_binaries};
use plies_fuzz::targets::all;
use plies_fuzz::ugi_match::{MatchSettings, openings, run_match};

/// Fuzz the plies parsers in process, or the built binaries as processes.
#[derive(Parser)]
#[command(version)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// List the in-process targets.
    List,
    /// Fuzz the in-process targets.
    Targets {
        /// Only these targets (repeatable); default all.
        #[arg(long = "target", short = 't')]
        targets: Vec<String>,
        /// Inputs per target.
        #[arg(long, default_value_t = 10_000)]
        inputs: u64,
        /// Mutation seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Time limit per input, in milliseconds.
        #[arg(long, default_value_t = 10_000)]
        time_limit: u64,
        /// Where failing inputs are written.
        #[arg(long, default_value = "fuzz-failures")]
        out: PathBuf,
    },
    /// Fuzz the built binaries as processes.
    Binaries {
        /// The target profile directory holding them (e.g. target/release).
        #[arg(long)]
        bin_dir: PathBuf,
        /// Only these binaries (repeatable); default all.
        #[arg(long = "binary", short = 'b')]
        binaries: Vec<String>,
        /// Invocations per binary.
        #[arg(long, default_value_t = 1500)]
        inputs: u64,
        /// Generator seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Time limit per process, in milliseconds.
        #[arg(long, default_value_t = 20_000)]
        time_limit: u64,
        /// Processes at once.
        #[arg(long, default_value_t = 2)]
        jobs: usize,
        /// Where failing invocations are written.
        #[arg(long, default_value = "fuzz-failures")]
        out: PathBuf,
    },
    /// Drive a UGI engine over whole games as a tournament manager does (one process plays
    /// both sides, options in random order, `isready` with a 1 s timeout): counts hangs,
    /// refusals, time losses and crashes; exit 0 only when there were none.
    UgiMatch {
        /// The game whose rules judge the moves: onitama, tafl, hus, yinsh or kalah.
        #[arg(long)]
        game: String,
        /// The engine command (split at spaces), e.g. `target/release/examples/kalah ugi`.
        #[arg(long)]
        engine: String,
        /// Games to play.
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// Each side's clock, BASE+INC in milliseconds.
        #[arg(long, default_value = "1000+10")]
        tc: String,
        /// Random plies from the start to each opening (Onitama: from a random deal too).
        #[arg(long, default_value_t = 4)]
        opening_plies: u32,
        /// Seed of the openings and the host's choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A game still running after this many plies is a draw.
        #[arg(long, default_value_t = 300)]
        max_plies: u32,
    },
    /// Run one saved input on a target.
    Replay {
        /// The target.
        #[arg(long = "target", short = 't')]
        target: String,
        /// The input file.
        file: PathBuf,
    },
}

fn print(name: &str, r: &Report) {
    let ok = if r.exit_zero > 0 {
        format!("  exit 0: {}", r.exit_zero)
    } else {
        String::new()
    };
    println!(
        "{name:<18} inputs {:>8}  panics {:>3}  hangs {:>3}{ok}",
        r.inputs, r.panics, r.hangs
    );
    for f in &r.failures {
        println!("  {f}");
    }
}

/// A `ugi-match` of `games` games from seeded walks of the start position.
fn match_from_start<G: plies::Notation>(
    settings: &MatchSettings,
    games: usize,
    plies: u32,
) -> Result<plies_fuzz::ugi_match::MatchReport, plies::agent::process::ProcessError> {
    let starts = [G::start_position()];
    run_match(
        &settings.clone(),
        &openings(&starts, games, plies, settings.seed),
    )
}

/// `count` Onitama start positions, each with five cards drawn (seeded) from the sixteen of the
/// base game, so that each game is a new deal with tables of its own.
fn onitama_deals(count: usize, seed: u64) -> Vec<plies_onitama::Onitama> {
    use plies::Notation;
    let mut rng = plies::rng::SplitMix64::new(seed);
    let base: Vec<&str> = plies_onitama::card::CARDS
        .iter()
        .take(16)
        .map(|card| card.name)
        .collect();
    (0..count)
        .filter_map(|_| {
            let mut cards = base.clone();
            for i in 0..5 {
                let j = i + rng.below(cards.len() - i);
                cards.swap(i, j);
            }
            let text = format!(
                "bbBbb/5/5/5/rrRrr r {},{} {},{} {}",
                cards[0], cards[1], cards[2], cards[3], cards[4]
            );
            plies_onitama::Onitama::parse_position(&text).ok()
        })
        .collect()
}

/// `replay`: runs `target` once on the input in `file`.
fn replay_command(target: &str, file: &std::path::Path) -> ExitCode {
    let Some(t) = all().into_iter().find(|t| t.name == target) else {
        eprintln!("error: no target named {target}; see `plies-fuzz list`");
        return ExitCode::from(2);
    };
    let input = match std::fs::read(file) {
        Ok(input) => input,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    match replay(&t, &input) {
        Ok(()) => {
            println!("no failure");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("panic: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Prints a UGI match's report; the exit code says whether it was clean.
fn match_exit(
    game: &str,
    report: Result<plies_fuzz::ugi_match::MatchReport, plies::agent::process::ProcessError>,
) -> ExitCode {
    match report {
        Ok(report) => {
            println!("{game}: {report}");
            if report.is_clean() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let mut total = Report::default();
    match cli.command {
        Cmd::List => {
            for t in all() {
                println!("{:<18} {}", t.name, t.about);
            }
            return ExitCode::SUCCESS;
        }
        Cmd::Targets {
            targets,
            inputs,
            seed,
            time_limit,
            out,
        } => {
            let settings = Settings {
                inputs,
                seed,
                time_limit: Duration::from_millis(time_limit),
                out_dir: out,
            };
            let chosen: Vec<_> = all()
                .into_iter()
                .filter(|t| targets.is_empty() || targets.iter().any(|n| n == t.name))
                .collect();
            if chosen.is_empty() {
                eprintln!(
                    "error: no target named {}; see `plies-fuzz list`",
                    targets.join(", ")
                );
                return ExitCode::from(2);
            }
            for target in &chosen {
                let report = run_target(target, &settings);
                print(target.name, &report);
                total.merge(&report);
            }
        }
        Cmd::Binaries {
            bin_dir,
            binaries,
            inputs,
            seed,
            time_limit,
            jobs,
            out,
        } => {
            let settings = ProcessSettings {
                bin_dir,
                inputs,
                seed,
                time_limit: Duration::from_millis(time_limit),
                jobs,
                out_dir: out,
            };
            for (name, report) in run_binaries(&binaries, &settings) {
                print(&name, &report);
                total.merge(&report);
            }
        }
        Cmd::UgiMatch {
            game,
            engine,
            games,
            tc,
            opening_plies,
            seed,
            max_plies,
        } => {
            let Some((base_ms, inc_ms)) = tc
                .split_once('+')
                .and_then(|(b, i)| Some((b.parse().ok()?, i.parse().ok()?)))
            else {
                eprintln!("error: bad --tc '{tc}': expected BASE+INC in milliseconds");
                return ExitCode::from(2);
            };
            let settings = MatchSettings {
                command: engine,
                base_ms,
                inc_ms,
                seed,
                max_plies,
            };
            let report = match game.as_str() {
                "onitama" => {
                    let starts = onitama_deals(games, seed);
                    run_match(&settings, &openings(&starts, games, opening_plies, seed))
                }
                "tafl" => match_from_start::<plies_tafl::Tafl>(&settings, games, opening_plies),
                "hus" => match_from_start::<plies_hus::Hus>(&settings, games, opening_plies),
                "yinsh" => match_from_start::<plies_yinsh::Yinsh>(&settings, games, opening_plies),
                "kalah" => match_from_start::<plies_kalah::Kalah>(&settings, games, opening_plies),
                other => {
                    eprintln!("error: no game '{other}' (onitama, tafl, hus, yinsh, kalah)");
                    return ExitCode::from(2);
                }
            };
            return match_exit(&game, report);
        }
        Cmd::Replay { target, file } => return replay_command(&target, &file),
    }
    print("total", &total);
    if total.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
