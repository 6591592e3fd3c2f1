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
//! runs `merge` (see `docs/tuning.md`); `run` does both locally.
//!
//! Key invariants: with depth or node limits every game is a function of the run's settings,
//! the iteration and the game number, so any sharding gives the same games and the same
//! weights as one process; a killed `play` or `run` loses only the games in flight (each game
//! is a flushed line in its shard's file, `state.json` is replaced atomically and a merge is
//! idempotent), and rerunning the same command goes on from there.

mod files;
mod spsa;
mod texel;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use crate::arena::{EloEstimate, GameSpec, GameTask, Termination, Wdl, play_game, random_openings};
use crate::engine::{check_mcts_depth, describe, limits, parse_searcher};
use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::position::{PositionArgs, read_openings_file, start_position};
use files::{Check, GameLine, JournalLine, LineFile, RunDir, TuneConfig, TuneState};
use plies::agent::{Agent, SearchAgent};
use plies::game::Side;
use plies::notation::Notation;
use plies::rng::SplitMix64;
use plies::search::SearchLimits;
use spsa::Gains;

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

/// The engine of a tuning command's games, both sides: searcher and per-move limit.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").required(true).multiple(true)
    .args(["depth", "time", "nodes"])))]
pub(crate) struct EngineArgs {
    /// The searcher of both sides.
    #[arg(long, default_value = "pvs")]
    pub searcher: String,
    /// Plies per move. With depth or node limits the games are reproducible.
    #[arg(long, short = 'd')]
    pub depth: Option<u32>,
    /// Milliseconds per move (games then vary from run to run).
    #[arg(long, short = 't')]
    pub time: Option<u64>,
    /// Positions per move.
    #[arg(long, short = 'n')]
    pub nodes: Option<u64>,
}

impl EngineArgs {
    /// The searcher's spec text (as [`plies::spec::SearcherSpec`] prints it) and the per-move
    /// limits, checked.
    fn checked(&self) -> Result<(String, SearchLimits), CliError> {
        let limits = limits(self.depth, self.time, self.nodes, "--")?;
        let searcher = parse_searcher(&self.searcher)
            .map_err(|e| CliError::Invalid(format!("bad --searcher: {e}")))?;
        check_mcts_depth(&self.searcher, &limits).map_err(CliError::Invalid)?;
        Ok((searcher.to_string(), limits))
    }
}

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
    #[arg(long, default_value_t = 200)]
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
    #[arg(long, default_value_t = 200)]
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

/// `tune run`.
#[derive(Args, Debug)]
pub(crate) struct RunArgs {
    /// The run's directory.
    #[arg(long)]
    pub dir: PathBuf,
    /// Shard processes playing each iteration at once (this program run as `tune play`).
    #[arg(long, default_value_t = 1)]
    pub jobs: u32,
}

/// `tune play`.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    /// The run's directory.
    #[arg(long)]
    pub dir: PathBuf,
    /// `K/N`: play the games whose number is K modulo N (K from 0, as job-array indices).
    #[arg(long, default_value = "0/1")]
    pub shard: String,
}

/// A command that only needs the run's directory.
#[derive(Args, Debug)]
pub(crate) struct DirArgs {
    /// The run's directory.
    #[arg(long)]
    pub dir: PathBuf,
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
            let shard = parse_shard(&play.shard)?;
            let run = RunDir::new(&play.dir);
            let config = load_config(spec, &run)?;
            let state = run.read_state(&config).map_err(CliError::Invalid)?;
            if state.iteration >= config.gains.iterations {
                writeln!(
                    output,
                    "tune: the run in {} is finished",
                    run.dir().display()
                )?;
                return Ok(());
            }
            let played = play_shard(spec, &run, &config, &state, shard, &mut |_| {})?;
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
            let state = run.read_state(&config).map_err(CliError::Invalid)?;
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

/// `K/N` -> (K, N), K < N.
fn parse_shard(text: &str) -> Result<(u32, u32), CliError> {
    let bad = || {
        CliError::Invalid(format!(
            "bad --shard '{text}': expected K/N with 0 <= K < N"
        ))
    };
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: u32 = k.trim().parse().map_err(|_| bad())?;
    let n: u32 = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || k >= n {
        return Err(bad());
    }
    Ok((k, n))
}

/// The run's settings, checked against this game and its evaluator.
fn load_config<G: Notation>(spec: &GameCli<G>, run: &RunDir) -> Result<TuneConfig, CliError> {
    let config = run.read_config().map_err(CliError::Invalid)?;
    if config.game != spec.name {
        return Err(CliError::Invalid(format!(
            "{} is a tuning run of {}, not {}",
            run.dir().display(),
            config.game,
            spec.name
        )));
    }
    let names = spec.evaluator.parameter_names().unwrap_or_default();
    if names != config.names.as_slice() {
        return Err(CliError::Invalid(format!(
            "{} tunes other weights ({} named {:?}...) than this evaluator has ({})",
            run.dir().display(),
            config.names.len(),
            config.names.first().map_or("", String::as_str),
            names.len()
        )));
    }
    Ok(config)
}

/// Which weights `--fixed` names (`name`, or `prefix*` for every weight starting with
/// `prefix`), as one flag per weight; an entry that names none is an error.
pub(crate) fn fixed_weights(names: &[String], fixed: &[String]) -> Result<Vec<bool>, CliError> {
    let mut chosen = vec![false; names.len()];
    for entry in fixed {
        let matches = |name: &String| match entry.strip_suffix('*') {
            Some(prefix) => name.starts_with(prefix),
            None => name == entry,
        };
        let mut any = false;
        for (flag, _) in chosen.iter_mut().zip(names).filter(|(_, n)| matches(n)) {
            *flag = true;
            any = true;
        }
        if !any {
            return Err(CliError::Invalid(format!(
                "bad --fixed: the evaluator has no weight {entry:?}"
            )));
        }
    }
    Ok(chosen)
}

/// The names of the evaluator's weights and the values to start from: those of the `--weights`
/// file if one is given, else the evaluator's own.
pub(crate) fn start_weights<'a, G: Notation>(
    spec: &'a GameCli<G>,
    weights: Option<&std::path::Path>,
) -> Result<(&'a [String], Vec<i32>), CliError> {
    let names = spec.evaluator.parameter_names().ok_or_else(|| {
        CliError::Invalid(format!("{}'s evaluator has no tunable weights", spec.name))
    })?;
    let values = match weights {
        Some(path) => spec
            .evaluator
            .with_weights_path(path)
            .map_err(|e| CliError::Invalid(format!("bad --weights: {e}")))?
            .parameters()
            .expect("tunable")
            .to_vec(),
        None => spec.evaluator.parameters().expect("tunable").to_vec(),
    };
    Ok((names, values))
}

/// `tune init`.
fn run_init<G: Notation>(
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
    if run.journal_path().exists() || run.has_games().map_err(CliError::Invalid)? {
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
    config.check().map_err(CliError::Invalid)?;
    std::fs::create_dir_all(&args.dir)
        .map_err(|e| CliError::Invalid(format!("cannot create {}: {e}", args.dir.display())))?;
    let state = TuneState {
        iteration: 0,
        theta: initial.iter().map(|&v| f64::from(v)).collect(),
        games: 0,
        last_check: None,
    };
    // The state first: a directory with tune.json always has a state.
    files::write_json_atomic(&run.state_path(), &state).map_err(CliError::Invalid)?;
    write_weights(&run, &config, &state, Mode::Start)?;
    files::write_json_atomic(&run.config_path(), &config).map_err(CliError::Invalid)?;
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

/// The positions of an openings file; an error if it holds none.
fn read_openings<G: Notation>(path: &Path) -> Result<Vec<G>, CliError> {
    let openings = read_openings_file::<G>(path)?;
    if openings.is_empty() {
        return Err(CliError::Invalid(format!(
            "{} holds no position",
            path.display()
        )));
    }
    Ok(openings)
}

/// The per-move limits of the run's games.
fn limits_of(config: &TuneConfig) -> SearchLimits {
    SearchLimits {
        depth: config.depth,
        nodes: config.nodes,
        time: config.time_ms.map(Duration::from_millis),
        ..SearchLimits::default()
    }
}

/// A seed from the run's seed and two numbers.
fn mix(seed: u64, a: u64, b: u64) -> u64 {
    let (_, x) = SplitMix64::step(seed ^ a.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let (_, y) = SplitMix64::step(x ^ b.wrapping_mul(0x8CB9_2BA7_2F3D_8DD7));
    y
}

/// The opening of game pair `pair` of iteration `k` (pairs from 1,000,000 are check games).
fn opening<G: Notation>(config: &TuneConfig, k: u32, pair: u32) -> Result<G, CliError> {
    let base_text = if config.openings.is_empty() {
        &config.start
    } else {
        let index =
            mix(config.seed, u64::from(k), u64::from(pair)) as usize % config.openings.len();
        &config.openings[index]
    };
    let base = G::parse_position(base_text)
        .map_err(|e| CliError::Invalid(format!("tune.json holds a bad position: {e}")))?;
    let seed = mix(config.seed ^ 0x6f70_656e, u64::from(k), u64::from(pair));
    Ok(random_openings(&base, seed, 1, config.opening_plies)
        .pop()
        .unwrap_or(base))
}

/// The first pair number of check games.
const CHECK_PAIRS: u32 = 1_000_000;

/// Plays the games of the current iteration that belong to `shard` and are in no games file
/// yet, appending each to the shard's file as it ends; returns how many it played.
fn play_shard<G: Notation>(
    spec: &GameCli<G>,
    run: &RunDir,
    config: &TuneConfig,
    state: &TuneState,
    shard: (u32, u32),
    on_game: &mut dyn FnMut(&GameLine),
) -> Result<u32, CliError> {
    let k = state.iteration;
    let done = run.games_of(k).map_err(CliError::Invalid)?;
    let mut file = LineFile::open(&run.shard_path(shard.0, shard.1)).map_err(CliError::Invalid)?;
    let [plus, minus] = spsa::perturbed(&config.gains, config.seed, k, &state.theta);
    let tuned = spsa::rounded(&state.theta);
    let limits = limits_of(config);
    let game_spec = GameSpec {
        limits: &limits,
        max_plies: config.max_plies,
        text: None,
    };
    let mut played = 0;
    for game in (shard.0..config.games_of(k)).step_by(shard.1 as usize) {
        if done.contains_key(&game) {
            continue;
        }
        // SPSA games: plus against minus; then check games: tuned against the start.
        let (pair, weights, names) = if game < config.games {
            (game / 2, [&plus, &minus], ["plus", "minus"])
        } else {
            let c = game - config.games;
            (
                CHECK_PAIRS + c / 2,
                [&tuned, &config.initial],
                ["tuned", "start"],
            )
        };
        let opening: G = opening(config, k, pair)?;
        let mut agents = Vec::with_capacity(2);
        let searcher = parse_searcher(&config.searcher)
            .map_err(|e| CliError::Invalid(format!("bad searcher in tune.json: {e}")))?;
        for w in weights {
            let searcher = spec.evaluator.searcher(&searcher, Some(w)).map_err(|e| {
                CliError::Invalid(format!("the evaluator refuses the weights: {e}"))
            })?;
            agents.push(SearchAgent::with_limits(searcher, limits.clone()));
        }
        let [mut ours, mut theirs]: [SearchAgent<G>; 2] =
            agents.try_into().ok().expect("two agents");
        // Even games: the first-listed weights play first.
        let ours_first = game % 2 == 0;
        let (first, second): (&mut dyn Agent<G>, &mut dyn Agent<G>) = if ours_first {
            (&mut ours, &mut theirs)
        } else {
            (&mut theirs, &mut ours)
        };
        let names = if ours_first {
            [names[0].to_string(), names[1].to_string()]
        } else {
            [names[1].to_string(), names[0].to_string()]
        };
        let task = GameTask {
            id: game as usize,
            opening: pair as usize,
            engines: if ours_first { [0, 1] } else { [1, 0] },
        };
        let seed = mix(config.seed ^ 0x6761_6d65, u64::from(k), u64::from(game));
        let record = play_game(task, &opening, [first, second], names, &game_spec, seed);
        let our_side = if ours_first {
            Side::First
        } else {
            Side::Second
        };
        let line = GameLine {
            iteration: k,
            game,
            points: record.result.points_for(our_side),
            plies: record.plies,
            termination: match record.termination {
                Termination::Rules => "rules".into(),
                Termination::PlyCap => "ply-cap".into(),
                Termination::Forfeit { reason, .. } => format!("forfeit: {reason}"),
            },
        };
        file.append(&line).map_err(CliError::Invalid)?;
        on_game(&line);
        played += 1;
    }
    Ok(played)
}

/// What a merge did.
enum Merged {
    /// The iteration was completed; the new state.
    Done(TuneState),
    /// The run had no iteration left.
    Finished,
    /// Some games of the iteration are in no games file yet.
    Missing {
        /// The iteration.
        iteration: u32,
        /// How many games are missing.
        missing: u32,
    },
}

/// Completes the current iteration if all its games are played: journal line, new weights,
/// new state (atomically, last). Idempotent: a merge killed before the state was written is
/// redone, and its journal line is not written twice.
fn merge(run: &RunDir, config: &TuneConfig, mode: Mode) -> Result<Merged, CliError> {
    let state = run.read_state(config).map_err(CliError::Invalid)?;
    let k = state.iteration;
    if k >= config.gains.iterations {
        return Ok(Merged::Finished);
    }
    let games = run.games_of(k).map_err(CliError::Invalid)?;
    let total = config.games_of(k);
    let present = (0..total).filter(|g| games.contains_key(g)).count() as u32;
    if present < total {
        return Ok(Merged::Missing {
            iteration: k,
            missing: total - present,
        });
    }
    let games: Vec<GameLine> = (0..total).map(|g| games[&g].clone()).collect();
    let difference: f64 = games[..config.games as usize]
        .iter()
        .map(|g| 2.0 * g.points - 1.0)
        .sum();
    let theta = spsa::updated(&config.gains, config.seed, k, &state.theta, difference);
    let mut last_check = state.last_check;
    if config.check_due(k) {
        let mut check = Check {
            iteration: k,
            wins: 0,
            draws: 0,
            losses: 0,
        };
        for g in &games[config.games as usize..] {
            match g.points {
                p if p > 0.75 => check.wins += 1,
                p if p < 0.25 => check.losses += 1,
                _ => check.draws += 1,
            }
        }
        last_check = Some(check);
    }
    let new_state = TuneState {
        iteration: k + 1,
        theta,
        games: state.games.saturating_add(u64::from(total)),
        last_check,
    };
    let journal = run.journal().map_err(CliError::Invalid)?;
    if !journal.iter().any(|line| line.iteration == k) {
        let mut file = LineFile::open(&run.journal_path()).map_err(CliError::Invalid)?;
        file.append(&JournalLine {
            iteration: k,
            games,
            difference,
            weights: spsa::rounded(&new_state.theta),
        })
        .map_err(CliError::Invalid)?;
    }
    write_weights(run, config, &new_state, mode)?;
    files::write_json_atomic(&run.state_path(), &new_state).map_err(CliError::Invalid)?;
    Ok(Merged::Done(new_state))
}

/// How a run's iterations are being played, which decides the next step `weights.txt` names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Mode {
    /// Just made by `tune init`: either way is open.
    Start,
    /// By `tune run` in this process (and its local `--jobs`).
    Local,
    /// By `tune play --shard K/N` tasks and `tune merge` (a job array).
    Sharded,
}

/// The line of `weights.txt` that says what to run next.
fn next_step(config: &TuneConfig, state: &TuneState, dir: &Path, mode: Mode) -> String {
    let game = &config.game;
    let dir = dir.display();
    if state.iteration >= config.gains.iterations {
        return format!("the run is finished: use these weights with {game} --weights FILE");
    }
    let local = format!("then: {game} tune run --dir {dir}");
    let sharded = format!(
        "then: {game} tune play --dir {dir} --shard K/N for every K < N, then {game} tune merge \
         --dir {dir}"
    );
    match mode {
        Mode::Start => format!("{local}\nor, sharded: {}", &sharded["then: ".len()..]),
        Mode::Local => local,
        Mode::Sharded => sharded,
    }
}

/// Writes `weights.txt`: the state's weights with the command that produced them and the next
/// step for the way the run is played (`mode`).
fn write_weights(
    run: &RunDir,
    config: &TuneConfig,
    state: &TuneState,
    mode: Mode,
) -> Result<(), CliError> {
    let mut comment = format!(
        "{} evaluator weights, tuned by plies SPSA: iteration {} of {}, {} games.\n\
         produced by: {}\n{}",
        config.game,
        state.iteration,
        config.gains.iterations,
        state.games,
        config.command,
        next_step(config, state, run.dir(), mode)
    );
    if let Some(check) = state.last_check {
        comment.push_str(&format!("\n{}", check_text(check)));
    }
    let text =
        plies::weights::format_weights(&config.names, &spsa::rounded(&state.theta), &comment);
    files::write_atomic(&run.weights_path(), &text).map_err(CliError::Invalid)
}

/// The Elo of a check match.
fn check_elo(check: Check) -> EloEstimate {
    EloEstimate::from_wdl(Wdl {
        wins: u64::from(check.wins),
        draws: u64::from(check.draws),
        losses: u64::from(check.losses),
    })
}

/// `check at iteration 20: +35 Elo (±40), 12-3-9`.
fn check_text(check: Check) -> String {
    let elo = check_elo(check);
    let value = elo.elo.map_or_else(
        || "no Elo (all won or lost)".to_string(),
        |e| format!("{e:+.0} Elo"),
    );
    let margin = elo
        .margin()
        .map_or_else(String::new, |m| format!(" (±{m:.0})"));
    format!(
        "check at iteration {} against the start: {value}{margin}, +{} ={} -{}",
        u64::from(check.iteration) + 1,
        check.wins,
        check.draws,
        check.losses
    )
}

/// A run's state in a few lines: iteration, games, last check, the weights that moved most.
fn summary(config: &TuneConfig, state: &TuneState) -> String {
    let mut text = format!(
        "tune: iteration {}/{}, {} games",
        state.iteration, config.gains.iterations, state.games
    );
    if let Some(check) = state.last_check {
        text.push_str(&format!("\n{}", check_text(check)));
    }
    text.push_str(&format!(
        "\nmoved most: {}",
        moved_most(config, &state.theta, 8)
    ));
    text
}

/// The `count` weights furthest from their start (in units of their perturbation) among those
/// whose rounded value changed, as `name start->now`; `none yet` when none did.
fn moved_most(config: &TuneConfig, theta: &[f64], count: usize) -> String {
    let now = spsa::rounded(theta);
    let mut order: Vec<usize> = (0..theta.len())
        .filter(|&i| now[i] != config.initial[i])
        .collect();
    if order.is_empty() {
        return "none yet".to_string();
    }
    let distance = |i: usize| match config.gains.c_end[i] {
        0.0 => 0.0, // fixed
        c => (theta[i] - f64::from(config.initial[i])).abs() / c,
    };
    order.sort_by(|&a, &b| distance(b).total_cmp(&distance(a)).then(a.cmp(&b)));
    order
        .into_iter()
        .take(count)
        .map(|i| format!("{} {}->{}", config.names[i], config.initial[i], now[i]))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `tune run`: play and merge iterations until the run is finished; with `--jobs N` each
/// iteration is played by N processes of this program (`tune play --shard K/N`).
fn run_run<G: Notation>(
    spec: &GameCli<G>,
    args: &RunArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    if args.jobs == 0 {
        return Err(CliError::Invalid("bad --jobs 0: expected >= 1".into()));
    }
    let run = RunDir::new(&args.dir);
    let config = load_config(spec, &run)?;
    let mut state = run.read_state(&config).map_err(CliError::Invalid)?;
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
            play_shard(spec, &run, &config, &state, (0, 1), &mut |_| bar.inc(1))?;
        } else {
            play_processes(&run, args.jobs, k, &|found| {
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
fn progress_message(config: &TuneConfig, state: &TuneState) -> String {
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

/// Runs `jobs` processes of this program as `tune play --dir D --shard K/jobs` and waits for
/// them, reporting the games of `iteration` found in the shard files as they grow.
fn play_processes(
    run: &RunDir,
    jobs: u32,
    iteration: u32,
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
