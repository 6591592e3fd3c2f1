//! What every tuning command shares: the engine of the games (searcher and limits), the run's
//! settings read back and checked, the starting and fixed weights, and the seeded openings.
//!
//! Key invariant: a game's opening and seed are functions of the run's settings, the
//! iteration and the game number only, so any sharding plays the same games.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use super::error::ShardError;
use super::files::{RunDir, TuneConfig};
use crate::arena::{GameRecord, random_openings};
use crate::engine::{check_mcts_depth, limits};
use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::position::read_openings_file;
use crate::store::recorder::{GameRecorder, played_row};
use plies::Notation;
use plies::rng::SplitMix64;
use plies::search::SearchLimits;
use plies::spec::SearcherSpec;

/// The engine of a tuning command's games, both sides: searcher and per-move limit.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").required(true).multiple(true)
    .args(["depth", "time", "nodes"])))]
pub(crate) struct EngineArgs {
    /// The searcher of both sides (a spec: `pvs`, `pvs:tt=64`, ...).
    #[arg(long, default_value = "pvs", value_parser = clap::value_parser!(SearcherSpec))]
    pub searcher: SearcherSpec,
    /// Plies per move. With depth or node limits the games are reproducible.
    #[arg(long, short = 'd', value_parser = clap::value_parser!(u32).range(1..=crate::engine::MAX_DEPTH))]
    pub depth: Option<u32>,
    /// Milliseconds per move (games then vary from run to run).
    #[arg(long, short = 't', value_parser = clap::value_parser!(u64).range(1..=u64::MAX))]
    pub time: Option<u64>,
    /// Positions per move.
    #[arg(long, short = 'n', value_parser = clap::value_parser!(u64).range(1..=u64::MAX))]
    pub nodes: Option<u64>,
}
impl EngineArgs {
    /// The searcher and the per-move limits, checked.
    pub(super) fn checked(&self) -> Result<(SearcherSpec, SearchLimits), CliError> {
        let limits = limits(self.depth, self.time, self.nodes, "--")?;
        check_mcts_depth(&self.searcher, &limits).map_err(CliError::Invalid)?;
        Ok((self.searcher.clone(), limits))
    }
}
/// A command that only needs the run's directory.
#[derive(Args, Debug)]
pub(crate) struct DirArgs {
    /// The run's directory.
    #[arg(long)]
    pub dir: PathBuf,
}
/// `K/N` -> (K, N), K < N: the `--shard` parser, for clap.
pub(super) fn parse_shard(text: &str) -> Result<(u32, u32), ShardError> {
    let (k, n) = text.split_once('/').ok_or(ShardError)?;
    let k: u32 = k.trim().parse().map_err(|_| ShardError)?;
    let n: u32 = n.trim().parse().map_err(|_| ShardError)?;
    if n == 0 || k >= n {
        return Err(ShardError);
    }
    Ok((k, n))
}
/// The run's settings, checked against this game and its evaluator.
pub(super) fn load_config<G: Notation>(
    spec: &GameCli<G>,
    run: &RunDir,
) -> Result<TuneConfig, CliError> {
    let config = run.read_config()?;
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
pub(super) fn fixed_weights(names: &[String], fixed: &[String]) -> Result<Vec<bool>, CliError> {
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
pub(super) fn start_weights<'a, G: Notation>(
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
/// The positions of an openings file; an error if it holds none.
pub(super) fn read_openings<G: Notation>(path: &Path) -> Result<Vec<G>, CliError> {
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
pub(super) fn limits_of(config: &TuneConfig) -> SearchLimits {
    SearchLimits {
        depth: config.depth,
        nodes: config.nodes,
        time: config.time_ms.map(Duration::from_millis),
        ..SearchLimits::default()
    }
}
/// A seed from the run's seed and two numbers.
pub(super) fn mix(seed: u64, a: u64, b: u64) -> u64 {
    let (_, x) = SplitMix64::step(seed ^ a.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let (_, y) = SplitMix64::step(x ^ b.wrapping_mul(0x8CB9_2BA7_2F3D_8DD7));
    y
}
/// The opening of game pair `pair` of iteration `k` (pairs from 1,000,000 are check games).
pub(super) fn opening<G: Notation>(config: &TuneConfig, k: u32, pair: u32) -> Result<G, CliError> {
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

/// Records the game `record`, played from `opening` under `settings`, in the store of
/// `recorder` as the tuner's (the players named by `players` from their names in the game;
/// `what` names the game in a warning). A failure is a warning on stderr: the games files
/// stay the record.
pub(super) fn record_in_store<G: Notation>(
    recorder: &mut GameRecorder,
    game: &str,
    record: &GameRecord,
    opening: &G,
    settings: &str,
    players: &dyn Fn(&str) -> String,
    what: &str,
) {
    let mut row = played_row(game, record, opening.format_position(), settings, "tune");
    row.players = row.players.map(|name| players(&name));
    if let Some(warning) = recorder.record::<G>(&row, what) {
        eprintln!("{warning}");
    }
}
