//! `tune init`: a new run directory with its settings, state and starting weights.
//!
//! Key invariant: `state.json` is written before `tune.json`, so a directory with settings
//! always has a state.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::files::{self, RunDir, TuneConfig, TuneState};
use super::merge::{Mode, write_weights};
use super::setup::{EngineArgs, fixed_weights, limits_of, read_openings, start_weights};
use super::spsa::Gains;
use crate::engine::describe;
use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::position::{PositionArgs, start_position};
use plies::Notation;

/// `tune init`.
#[derive(Args, Debug)]
pub(crate) struct InitArgs {
    /// The run's directory (created; must not hold a run already).
    #[arg(long)]
    pub dir: PathBuf,
    #[command(flatten)]
    pub start: PositionArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// SPSA iterations.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=i64::from(u32::MAX)))]
    pub iterations: u32,
    /// Games per iteration (even: each opening with both colours).
    #[arg(long, default_value_t = 16)]
    pub games: u32,
    /// A check match of the tuned weights against the start every this many iterations (and
    /// at the last); 0 for none.
    #[arg(long, default_value_t = 10)]
    pub check_every: u32,
    /// Games of a check match (even; default the games per iteration).
    #[arg(long)]
    pub check_games: Option<u32>,
    /// A game still running after this many plies is a draw.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=i64::from(u32::MAX)))]
    pub max_plies: u32,
    /// The seed of perturbations and openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random moves from the start (or from each --openings-file position) to an opening.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Positions to open from, one per line (# comments), cycled through.
    #[arg(long)]
    pub openings_file: Option<PathBuf>,
    /// Start from the weights of this weights file instead of the evaluator's own.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Perturbation of every weight at the last iteration (default a tenth of each starting
    /// weight, at least 2).
    #[arg(long)]
    pub c_end: Option<f64>,
    /// Learning rate at the last iteration.
    #[arg(long, default_value_t = 0.002)]
    pub r_end: f64,
    /// Leave these weights alone (comma-separated names; `prefix*` names every weight starting
    /// with `prefix`): never perturbed, never moved.
    #[arg(long, value_delimiter = ',')]
    pub fixed: Vec<String>,
}
/// `tune init`.
pub(super) fn run_init<G: Notation>(
    spec: &GameCli<G>,
    args: &InitArgs,
    command_line: &str,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let run = RunDir::new(&args.dir);
    if run.config_path().exists() {
        return Err(CliError::Invalid(format!(
            "{} already holds a tuning run: continue it with `tune run --dir {}`",
            args.dir.display(),
            args.dir.display()
        )));
    }
    if run.journal_path().exists() || run.has_games()? {
        return Err(CliError::Invalid(format!(
            "{} holds games of an earlier run (journal.jsonl or games-*.jsonl): use an empty \
             directory",
            args.dir.display()
        )));
    }
    let (names, initial) = start_weights(spec, args.weights.as_deref())?;
    let (searcher, limits) = args.engine.checked()?;
    let check_games = args.check_games.unwrap_or(args.games);
    let start: G = start_position(&args.start)?;
    let openings = match &args.openings_file {
        Some(path) => read_openings::<G>(path)?
            .iter()
            .map(Notation::format_position)
            .collect(),
        None => Vec::new(),
    };
    if let Some(c) = args.c_end.filter(|c| c.is_nan() || *c <= 0.0) {
        return Err(CliError::Invalid(format!(
            "bad --c-end {c}: expected a number above 0"
        )));
    }
    let fixed = fixed_weights(names, &args.fixed)?;
    let c_end = initial
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            if fixed[i] {
                0.0
            } else {
                args.c_end.unwrap_or_else(|| Gains::default_c_end(v))
            }
        })
        .collect();
    let config = TuneConfig {
        game: spec.name.to_string(),
        command: command_line.to_string(),
        searcher,
        depth: limits.depth,
        nodes: limits.nodes,
        time_ms: args.engine.time,
        games: args.games,
        check_every: args.check_every,
        check_games,
        max_plies: args.max_plies,
        seed: args.seed,
        opening_plies: args.opening_plies,
        start: start.format_position(),
        openings,
        names: names.to_vec(),
        initial: initial.clone(),
        gains: Gains {
            iterations: args.iterations,
            c_end,
            r_end: args.r_end,
        },
    };
    // One check of the settings: the one a run's file gets whenever it is read back.
    config.check()?;
    std::fs::create_dir_all(&args.dir)
        .map_err(|e| CliError::Invalid(format!("cannot create {}: {e}", args.dir.display())))?;
    let state = TuneState {
        iteration: 0,
        theta: initial.iter().map(|&v| f64::from(v)).collect(),
        games: 0,
        last_check: None,
    };
    // The state first: a directory with tune.json always has a state.
    files::write_json_atomic(&run.state_path(), &state)?;
    write_weights(&run, &config, &state, Mode::Start)?;
    files::write_json_atomic(&run.config_path(), &config)?;
    writeln!(
        output,
        "tune: {} weights, {} iterations of {} games ({} per move, searcher {}) in {}",
        config.names.len(),
        config.gains.iterations,
        config.games,
        describe(&limits_of(&config)),
        config.searcher,
        args.dir.display()
    )?;
    Ok(())
}
