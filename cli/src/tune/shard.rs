//! `tune play --shard K/N`: one job-array task's games of the current iteration.
//!
//! Key invariant: shard K plays exactly the games whose number is K modulo N, each a flushed
//! line of its own games file, so a killed task loses only the game in flight.

use std::path::PathBuf;

use clap::Args;

use super::files::{GameLine, LineFile, RunDir, TuneConfig, TuneState};
use super::setup::{limits_of, mix, opening, record_in_store};
use super::spsa::{self};
use crate::arena::{GameSpec, GameTask, Termination, TextHooks, play_game};
use crate::engine::describe;
use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::store::recorder::{GameRecorder, RecordArgs};
use plies::Notation;
use plies::Side;
use plies::agent::{Agent, SearchAgent};

/// `tune play`.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    /// The run's directory.
    #[arg(long)]
    pub dir: PathBuf,
    /// `K/N`: play the games whose number is K modulo N (K from 0, as job-array indices).
    #[arg(long, default_value = "0/1", value_parser = super::setup::parse_shard)]
    pub shard: (u32, u32),
    #[command(flatten)]
    pub record: RecordArgs,
}
/// The first pair number of check games.
pub(super) const CHECK_PAIRS: u32 = 1_000_000;
/// Plays the games of the current iteration that belong to `shard` and are in no games file
/// yet, appending each to the shard's file as it ends (and then recording it in the store of
/// `recorder`, if any: a failure there is a warning on stderr); returns how many it played.
pub(super) fn play_shard<G: Notation>(
    spec: &GameCli<G>,
    run: &RunDir,
    config: &TuneConfig,
    state: &TuneState,
    shard: (u32, u32),
    mut recorder: Option<&mut GameRecorder>,
    on_game: &mut dyn FnMut(&GameLine),
) -> Result<u32, CliError> {
    let k = state.iteration;
    let done = run.games_of(k)?;
    let mut file = LineFile::open(&run.shard_path(shard.0, shard.1))?;
    let [plus, minus] = spsa::perturbed(&config.gains, config.seed, k, &state.theta);
    let tuned = spsa::rounded(&state.theta);
    let limits = limits_of(config);
    let game_spec = GameSpec {
        limits: &limits,
        clock: None,
        max_plies: config.max_plies,
        // The moves as text only for the store: the games files keep results only.
        text: recorder.is_some().then(TextHooks::notation),
    };
    let settings = format!(
        "{} per move, cap {} plies",
        describe(&limits),
        config.max_plies
    );
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
        for w in weights {
            let searcher = spec
                .evaluator
                .searcher(&config.searcher, Some(w))
                .map_err(|e| {
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
            termination: match &record.termination {
                Termination::Rules => "rules".into(),
                Termination::PlyCap => "ply-cap".into(),
                Termination::Forfeit { reason, .. } => format!("forfeit: {reason}"),
                Termination::OutOfTime { .. } => "lost on time".into(),
            },
        };
        file.append(&line)?;
        if let Some(recorder) = recorder.as_deref_mut() {
            let players = |name: &str| format!("{} ({name}, iteration {})", config.searcher, k + 1);
            let what = format!("iteration {} game {game}", k + 1);
            record_in_store(
                recorder, spec.name, &record, &opening, &settings, &players, &what,
            );
        }
        on_game(&line);
        played += 1;
    }
    Ok(played)
}
