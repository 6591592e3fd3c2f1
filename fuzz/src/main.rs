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
        Cmd::Replay { target, file } => {
            let Some(t) = all().into_iter().find(|t| t.name == target) else {
                eprintln!("error: no target named {target}; see `plies-fuzz list`");
                return ExitCode::from(2);
            };
            let input = match std::fs::read(&file) {
                Ok(input) => input,
                Err(e) => {
                    eprintln!("error: cannot read {}: {e}", file.display());
                    return ExitCode::from(2);
                }
            };
            return match replay(&t, &input) {
                Ok(()) => {
                    println!("no failure");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    println!("panic: {e}");
                    ExitCode::FAILURE
                }
            };
        }
    }
    print("total", &total);
    if total.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
