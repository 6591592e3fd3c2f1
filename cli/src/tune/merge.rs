//! `tune merge` and the run's summaries: completing an iteration from every shard's games,
//! updating the weights and writing `weights.txt` with the next step.
//!
//! Key invariant: a merge completes an iteration only when every game is in some shard's file,
//! and is idempotent.

use std::path::Path;

use super::files::{self, Check, GameLine, JournalLine, LineFile, RunDir, TuneConfig, TuneState};
use super::spsa::{self};
use crate::arena::{EloEstimate, Wdl};
use crate::error::CliError;

/// What a merge did.
pub(super) enum Merged {
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
pub(super) fn merge(run: &RunDir, config: &TuneConfig, mode: Mode) -> Result<Merged, CliError> {
    let state = run.read_state(config)?;
    let k = state.iteration;
    if k >= config.gains.iterations {
        return Ok(Merged::Finished);
    }
    let games = run.games_of(k)?;
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
    let journal = run.journal()?;
    if !journal.iter().any(|line| line.iteration == k) {
        let mut file = LineFile::open(&run.journal_path())?;
        file.append(&JournalLine {
            iteration: k,
            games,
            difference,
            weights: spsa::rounded(&new_state.theta),
        })?;
    }
    write_weights(run, config, &new_state, mode)?;
    files::write_json_atomic(&run.state_path(), &new_state)?;
    tracing::info!(
        iteration = new_state.iteration,
        of = config.gains.iterations,
        games = total,
        "tuner iteration merged"
    );
    Ok(Merged::Done(new_state))
}
/// How a run's iterations are being played, which decides the next step `weights.txt` names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// Just made by `tune init`: either way is open.
    Start,
    /// By `tune run` in this process (and its local `--jobs`).
    Local,
    /// By `tune play --shard K/N` tasks and `tune merge` (a job array).
    Sharded,
}
/// The line of `weights.txt` that says what to run next.
pub(super) fn next_step(config: &TuneConfig, state: &TuneState, dir: &Path, mode: Mode) -> String {
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
pub(super) fn write_weights(
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
    Ok(files::write_atomic(&run.weights_path(), &text)?)
}
/// The Elo of a check match.
pub(super) fn check_elo(check: Check) -> EloEstimate {
    EloEstimate::from_wdl(Wdl {
        wins: u64::from(check.wins),
        draws: u64::from(check.draws),
        losses: u64::from(check.losses),
    })
}
/// `check at iteration 20: +35 Elo (±40), 12-3-9`.
pub(super) fn check_text(check: Check) -> String {
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
pub(super) fn summary(config: &TuneConfig, state: &TuneState) -> String {
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
pub(super) fn moved_most(config: &TuneConfig, theta: &[f64], count: usize) -> String {
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
