//! `tune run`: play and merge iterations until the run is finished, in this process or in
//! `--jobs N` processes of this program.
//!
//! Key invariant: a killed run loses only the games in flight; rerunning it goes on from there.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::files::{RunDir, TuneConfig, TuneState};
use super::merge::{Merged, Mode, check_elo, merge, moved_most, summary};
use super::setup::load_config;
use super::shard::play_shard;
use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::store::recorder::{GameRecorder, RecordArgs};
use plies::Notation;

/// `tune run`.
#[derive(Args, Debug)]
pub(crate) struct RunArgs {
    /// The run's directory.
    #[arg(long)]
    pub dir: PathBuf,
    /// Shard processes playing each iteration at once (this program run as `tune play`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=i64::from(u32::MAX)))]
    pub jobs: u32,
    #[command(flatten)]
    pub record: RecordArgs,
}
/// `tune run`: play and merge iterations until the run is finished; with `--jobs N` each
/// iteration is played by N processes of this program (`tune play --shard K/N`).
pub(super) fn run_run<G: Notation>(
    spec: &GameCli<G>,
    args: &RunArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let run = RunDir::new(&args.dir);
    let config = load_config(spec, &run)?;
    // Held until the run ends: a second `tune run` or a `tune merge` is refused at once.
    let _lock = run.lock()?;
    let mut state = run.read_state(&config)?;
    // Opened here also with --jobs: a store that cannot be opened is refused before any game.
    let mut recorder = GameRecorder::open(&args.record)?;
    let remaining: u64 = (state.iteration..config.gains.iterations)
        .map(|k| u64::from(config.games_of(k)))
        .sum();
    let bar = ProgressBar::new(remaining);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games, {per_sec} {msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let started = Instant::now();
    let mut played_now = 0u64;
    while state.iteration < config.gains.iterations {
        let k = state.iteration;
        bar.set_message(progress_message(&config, &state));
        if args.jobs == 1 {
            let recorder = recorder.as_mut();
            play_shard(spec, &run, &config, &state, (0, 1), recorder, &mut |_| {
                bar.inc(1)
            })?;
        } else {
            let store = args.record.child_arguments();
            play_processes(&run, args.jobs, k, &store, &|found| {
                bar.set_position(played_now + found)
            })?;
        }
        match merge(&run, &config, Mode::Local)? {
            Merged::Done(next) => {
                played_now += u64::from(config.games_of(k));
                bar.set_position(played_now);
                state = next;
            }
            Merged::Finished => break,
            Merged::Missing { missing, .. } => {
                bar.abandon();
                return Err(CliError::Invalid(format!(
                    "iteration {}: {missing} games were not played (a shard process failed?)",
                    k + 1
                )));
            }
        }
    }
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    writeln!(output, "{}", summary(&config, &state))?;
    writeln!(
        output,
        "weights: {} ({played_now} games in {seconds:.1} s)",
        run.weights_path().display()
    )?;
    Ok(())
}
/// The progress bar's message: iteration, last check's Elo, weights that moved most.
pub(super) fn progress_message(config: &TuneConfig, state: &TuneState) -> String {
    let elo = state.last_check.map_or_else(String::new, |c| {
        let e = check_elo(c);
        match (e.elo, e.margin()) {
            (Some(v), Some(m)) => format!(" | Elo vs start {v:+.0} ±{m:.0}"),
            (Some(v), None) => format!(" | Elo vs start {v:+.0}"),
            _ => String::new(),
        }
    });
    format!(
        "| iteration {}/{}{elo} | {}",
        state.iteration + 1,
        config.gains.iterations,
        moved_most(config, &state.theta, 3)
    )
}
/// Runs `jobs` processes of this program as `tune play --dir D --shard K/jobs` (with the
/// arguments `store`, which name the store to record in) and waits for them, reporting the
/// games of `iteration` found in the shard files as they grow.
pub(super) fn play_processes(
    run: &RunDir,
    jobs: u32,
    iteration: u32,
    store: &[OsString],
    report: &dyn Fn(u64),
) -> Result<(), CliError> {
    let exe = std::env::current_exe()
        .map_err(|e| CliError::Invalid(format!("cannot find this program to run shards: {e}")))?;
    // The program's own arguments before `tune` (a game's options such as tafl's --eval).
    let prefix: Vec<std::ffi::OsString> = std::env::args_os()
        .skip(1)
        .take_while(|arg| arg != "tune")
        .collect();
    let mut children = Vec::new();
    for k in 0..jobs {
        let child = Command::new(&exe)
            .args(&prefix)
            .arg("tune")
            .arg("play")
            .arg("--dir")
            .arg(run.dir())
            .arg("--shard")
            .arg(format!("{k}/{jobs}"))
            .args(store)
            .stdout(std::process::Stdio::null())
            .spawn()
            .map_err(|e| CliError::Invalid(format!("cannot start shard {k}/{jobs}: {e}")))?;
        children.push(child);
    }
    let mut failed = None;
    while !children.is_empty() {
        std::thread::sleep(Duration::from_millis(200));
        let mut still = Vec::new();
        for mut child in children {
            match child.try_wait() {
                Ok(Some(status)) if !status.success() => {
                    failed = Some(format!("a shard process ended with {status}"));
                }
                Ok(Some(_)) => {}
                Ok(None) => still.push(child),
                Err(e) => failed = Some(format!("cannot wait for a shard process: {e}")),
            }
        }
        children = still;
        if let Ok(games) = run.games_of(iteration) {
            report(games.len() as u64);
        }
    }
    match failed {
        Some(why) => Err(CliError::Invalid(why)),
        None => Ok(()),
    }
}
