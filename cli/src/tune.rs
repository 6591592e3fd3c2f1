//! `tune`: tunes the weights of a game's [`plies::Tunable`] evaluator by SPSA over arena games
//! ([`spsa`]), resumable and sharded.
//!
//! ```text
//! <game> tune init --dir D (--depth D | --nodes N | --time MS) [--iterations 200] [--games 16] ...
//! <game> tune run --dir D [--jobs N]          # play and merge every iteration, N local processes
//! <game> tune play --dir D --shard K/N        # one job-array task: its slice of the iteration
//! <game> tune merge --dir D                   # after all tasks: combine, update the weights
//! <game> tune status --dir D [--json]
//! ```
//!
//! An iteration is a fixed list of games (the weights `θ + c_k Δ` against `θ − c_k Δ` on seeded
//! openings, both colours; every `--check-every` iterations also a check match of the tuned
//! weights against the start, which gives the Elo estimate). `play --shard K/N` plays the games
//! whose number is `K` modulo `N`; `merge` waits for nothing: it completes the iteration only
//! when every game is in some shard's games file, and otherwise says how many are missing. So a
//! Slurm job array or a Kubernetes Indexed Job runs `play` with its index, and a dependent job
//! runs `merge` (see `docs/tuning.md`); `run` does both locally. With `--store`, `run`, `play`
//! and `positions` also record every game they play in a position store (after its games file
//! took it; a failure there is a warning).
//!
//! Key invariants: with depth or node limits every game is a function of the run's settings,
//! the iteration and the game number, so any sharding gives the same games and the same
//! weights as one process; a killed `play` or `run` loses only the games in flight (each game
//! is a flushed line in its shard's file, `state.json` is replaced atomically and a merge is
//! idempotent), and rerunning the same command goes on from there.

mod error;
mod files;
mod init;
mod merge;
mod run;
mod setup;
mod shard;
mod spsa;
mod texel;

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::store::recorder::GameRecorder;
use files::RunDir;
use init::{InitArgs, run_init};
use merge::{Merged, Mode, check_elo, merge, summary};
use plies::Notation;
use run::{RunArgs, run_run};
use setup::{DirArgs, load_config};
use shard::{PlayArgs, play_shard};

/// `tune`.
#[derive(Args, Debug)]
pub(crate) struct TuneArgs {
    #[command(subcommand)]
    pub command: TuneCommand,
}
/// The `tune` commands.
#[derive(Subcommand, Debug)]
pub(crate) enum TuneCommand {
    /// Create a tuning run in a directory: its settings and the starting weights.
    Init(InitArgs),
    /// Play and merge iterations until the run is finished (resumes where it stopped).
    Run(RunArgs),
    /// Play one shard's games of the current iteration (a job-array task).
    Play(PlayArgs),
    /// Complete the current iteration from the games of every shard and update the weights.
    Merge(DirArgs),
    /// Where a run stands: iteration, games, the last check match, the weights that moved most.
    Status(StatusArgs),
    /// Write quiet positions of games of the engine against itself, each with its game's
    /// result: the data of `tune texel`.
    Positions(texel::PositionsArgs),
    /// Fit the weights to labelled positions (Texel's method: least squared error of the
    /// predicted results), no games played.
    Texel(texel::TexelArgs),
}
/// `tune status`.
#[derive(Args, Debug)]
pub(crate) struct StatusArgs {
    /// The run's directory.
    #[arg(long)]
    pub dir: PathBuf,
    /// One JSON line instead of text.
    #[arg(long)]
    pub json: bool,
}
/// Runs a `tune` command.
pub(crate) fn run<G: Notation>(
    spec: &GameCli<G>,
    args: &TuneArgs,
    command_line: &str,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    match &args.command {
        TuneCommand::Init(init) => run_init(spec, init, command_line, output),
        TuneCommand::Run(run) => run_run(spec, run, output),
        TuneCommand::Positions(positions) => {
            texel::run_positions(spec, positions, command_line, output)
        }
        TuneCommand::Texel(texel) => texel::run_texel(spec, texel, command_line, output),
        TuneCommand::Play(play) => {
            let shard = play.shard;
            let run = RunDir::new(&play.dir);
            let config = load_config(spec, &run)?;
            let state = run.read_state(&config)?;
            if state.iteration >= config.gains.iterations {
                writeln!(
                    output,
                    "tune: the run in {} is finished",
                    run.dir().display()
                )?;
                return Ok(());
            }
            let mut recorder = GameRecorder::open(&play.record)?;
            let played = play_shard(
                spec,
                &run,
                &config,
                &state,
                shard,
                recorder.as_mut(),
                &mut |_| {},
            )?;
            writeln!(
                output,
                "tune: iteration {}: shard {}/{} played {played} games",
                state.iteration + 1,
                shard.0,
                shard.1
            )?;
            Ok(())
        }
        TuneCommand::Merge(dir) => {
            let run = RunDir::new(&dir.dir);
            let config = load_config(spec, &run)?;
            let _lock = run.lock()?;
            match merge(&run, &config, Mode::Sharded)? {
                Merged::Done(state) => writeln!(output, "{}", summary(&config, &state))?,
                Merged::Finished => writeln!(output, "tune: the run is finished")?,
                Merged::Missing { iteration, missing } => {
                    return Err(CliError::Invalid(format!(
                        "iteration {} is not complete: {missing} of its {} games are in no \
                         shard's games file yet (run the missing `tune play --shard` tasks)",
                        iteration + 1,
                        config.games_of(iteration)
                    )));
                }
            }
            Ok(())
        }
        TuneCommand::Status(status) => {
            let run = RunDir::new(&status.dir);
            let config = load_config(spec, &run)?;
            let state = run.read_state(&config)?;
            if status.json {
                let check = state.last_check.map(|c| {
                    let elo = check_elo(c);
                    serde_json::json!({"iteration": c.iteration + 1, "wins": c.wins,
                        "draws": c.draws, "losses": c.losses, "elo": elo.elo,
                        "margin": elo.margin()})
                });
                let line = serde_json::json!({
                    "iteration": state.iteration, "iterations": config.gains.iterations,
                    "games": state.games, "names": config.names,
                    "weights": spsa::rounded(&state.theta), "initial": config.initial,
                    "check": check,
                });
                writeln!(output, "{line}")?;
            } else {
                writeln!(output, "{}", summary(&config, &state))?;
                writeln!(output, "weights: {}", run.weights_path().display())?;
            }
            Ok(())
        }
    }
}
