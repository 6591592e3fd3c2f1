//! Texel-style tuning: weights fitted to positions labelled by the results of the games they
//! come from, with no games played while tuning.
//!
//! - `tune positions`: plays seeded games of the game's engine against itself and writes quiet
//!   positions of them, each with its game's result (a positions file: `<result> <position>`
//!   per line, the result 1, 0.5 or 0 for the side that moves first in the game's rules);
//!   a game with records of real games can write the same file from them.
//! - `tune texel`: finds the scale `K` that best maps the evaluation to a result,
//!   `expected = 1 / (1 + 10^(-K·eval/400))`, then moves one weight at a time by `±step`,
//!   keeping a change when it lowers the mean squared error over all positions, pass after pass
//!   until no change helps (or `--passes`), then halves the step. The weights file is rewritten
//!   after every pass, so a killed run loses at most one pass: start again from it with
//!   `--weights` (K is fitted again to those weights and the step starts from `--step`).
//!
//! Key invariants: "quiet" means not finished and without a capture or a winning move for the
//! side to move (the static evaluation is then a fair guess); every position of a file is
//! checked when read (a bad line is an error naming it); the result is from the first side's
//! view and the evaluation is turned to that view before comparing.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::files::write_atomic;
use super::setup::{EngineArgs, fixed_weights, mix, read_openings, record_in_store, start_weights};
use crate::arena::{GameSpec, GameTask, TextHooks, play_game, random_openings};
use crate::engine::describe;
use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::position::{PositionArgs, start_position};
use crate::store::recorder::{GameRecorder, RecordArgs};
use plies::Evaluator;
use plies::Notation;
use plies::agent::SearchAgent;
use plies::{Game, MoveClass, Side};

/// `tune positions`.
#[derive(Args, Debug)]
pub(crate) struct PositionsArgs {
    /// The positions file to write.
    #[arg(long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub start: PositionArgs,
    /// Games to play.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=i64::from(u32::MAX)))]
    pub games: u32,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Random moves from the start (or each --openings-file position) to an opening.
    #[arg(long, default_value_t = 6)]
    pub opening_plies: u32,
    /// Positions to open from, one per line, cycled through.
    #[arg(long)]
    pub openings_file: Option<PathBuf>,
    /// Keep every this many quiet positions of a game.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=i64::from(u32::MAX)))]
    pub every: u32,
    /// A game still running after this many plies is a draw.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=i64::from(u32::MAX)))]
    pub max_plies: u32,
    /// The seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub record: RecordArgs,
}

/// `tune texel`.
#[derive(Args, Debug)]
pub(crate) struct TexelArgs {
    /// The positions file (`<result> <position>` lines).
    #[arg(long)]
    pub positions: PathBuf,
    /// The weights file to write (after every pass).
    #[arg(long)]
    pub out: PathBuf,
    /// Start from these weights instead of the evaluator's own (to resume, the --out file).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// The first step of a weight.
    #[arg(long, default_value_t = 4)]
    pub step: i32,
    /// At most this many passes over the weights.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=i64::from(u32::MAX)))]
    pub passes: u32,
    /// Leave these weights alone (comma-separated names; `prefix*` names every weight starting
    /// with `prefix`), e.g. one that fixes the scale.
    #[arg(long, value_delimiter = ',')]
    pub fixed: Vec<String>,
    /// Write `start + F × (fit − start)` instead of the fit (0 < F <= 1): a fit of many weights,
    /// each seen in few positions, overshoots, and shrinking it toward the start is a simple
    /// regularizer (judge F in the arena). The fit itself goes on unshrunk.
    #[arg(long, default_value_t = 1.0)]
    pub shrink: f64,
}

/// `start + factor × (fit − start)`, each weight rounded to the nearest whole number.
fn shrunk(start: &[i32], fit: &[i32], factor: f64) -> Vec<i32> {
    start
        .iter()
        .zip(fit)
        .map(|(&s, &f)| s + (factor * f64::from(f - s)).round() as i32)
        .collect()
}

/// Whether a position is quiet: not finished, and no capture or winning move to play.
fn quiet<G: Game>(state: &G, moves: &mut Vec<G::Move>) -> bool {
    if state.outcome().is_some() {
        return false;
    }
    moves.clear();
    state.generate_moves(moves);
    !moves.is_empty()
        && moves
            .iter()
            .all(|&mv| state.classify(mv) == MoveClass::Quiet)
}

/// `tune positions`.
pub(crate) fn run_positions<G: Notation>(
    spec: &GameCli<G>,
    args: &PositionsArgs,
    command_line: &str,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let (searcher, limits) = args.engine.checked()?;
    let start: G = start_position(&args.start)?;
    let bases: Vec<G> = match &args.openings_file {
        Some(path) => read_openings::<G>(path)?,
        None => vec![start],
    };
    let game_spec = GameSpec {
        limits: &limits,
        clock: None,
        max_plies: args.max_plies,
        text: Some(TextHooks::notation()),
    };
    let mut text = format!(
        "# {} positions file: quiet positions of {} games of {searcher} against itself ({}), \
         each with the result for the side that moves first\n# produced by: {command_line}\n",
        spec.name,
        args.games,
        describe(&limits)
    );
    let mut recorder = GameRecorder::open(&args.record)?;
    let settings = format!(
        "{} per move, cap {} plies",
        describe(&limits),
        args.max_plies
    );
    let mut kept = 0usize;
    let mut moves = Vec::new();
    for game in 0..args.games {
        let base = &bases[game as usize % bases.len()];
        let seed = mix(args.seed, u64::from(game), 0x7465_7865);
        let opening = random_openings(base, seed, 1, args.opening_plies)
            .pop()
            .unwrap_or_else(|| base.clone());
        let agent = || -> Result<SearchAgent<G>, CliError> {
            let searcher = spec
                .evaluator
                .searcher(&searcher, None)
                .map_err(|e| CliError::Invalid(e.to_string()))?;
            Ok(SearchAgent::with_limits(searcher, limits.clone()))
        };
        let (mut first, mut second) = (agent()?, agent()?);
        let task = GameTask {
            id: game as usize,
            opening: game as usize,
            engines: [0, 1],
        };
        let names = ["engine".to_string(), "engine".to_string()];
        let record = play_game(
            task,
            &opening,
            [&mut first, &mut second],
            names,
            &game_spec,
            seed,
        );
        if let Some(recorder) = recorder.as_mut() {
            let players = |_: &str| searcher.to_string();
            let what = format!("game {game}");
            record_in_store(
                recorder, spec.name, &record, &opening, &settings, &players, &what,
            );
        }
        let result = record.result.points_for(Side::First);
        let mut state = opening;
        let mut quiet_seen = 0u32;
        for mv_text in &record.moves {
            if quiet(&state, &mut moves) {
                if quiet_seen.is_multiple_of(args.every) {
                    text.push_str(&format!("{result} {}\n", state.format_position()));
                    kept += 1;
                }
                quiet_seen += 1;
            }
            let mv = state
                .parse_move(mv_text)
                .map_err(|e| CliError::Invalid(format!("replaying game {game}: {e}")))?;
            state = state.play(mv);
        }
    }
    write_atomic(&args.out, &text)?;
    writeln!(
        output,
        "tune positions: {kept} quiet positions of {} games in {}",
        args.games,
        args.out.display()
    )?;
    Ok(())
}

/// Labelled positions: each with its result for the first side.
struct Labelled<G> {
    positions: Vec<(G, f64)>,
}

/// Reads a positions file.
fn read_positions<G: Notation>(path: &std::path::Path) -> Result<Labelled<G>, CliError> {
    let text = crate::files::read_text(path, crate::files::POSITIONS_LIMIT)
        .map_err(|e| CliError::Invalid(e.of("--positions")))?;
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: String| {
            CliError::Invalid(format!("{} line {}: {why}", path.display(), number + 1))
        };
        let (result, position) = line
            .split_once(char::is_whitespace)
            .ok_or_else(|| bad("expected '<result> <position>'".into()))?;
        let result = match result {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            other => return Err(bad(format!("result {other:?} is not 1, 0.5 or 0"))),
        };
        let state = G::parse_position(position.trim()).map_err(|e| bad(e.to_string()))?;
        positions.push((state, result));
    }
    if positions.is_empty() {
        return Err(CliError::Invalid(format!(
            "{} holds no labelled position",
            path.display()
        )));
    }
    Ok(Labelled { positions })
}

impl<G: Game> Labelled<G> {
    /// Each position's evaluation from the first side's view.
    fn evaluations(&self, evaluator: &dyn Evaluator<G>) -> Vec<f64> {
        self.positions
            .iter()
            .map(|(state, _)| {
                let score = f64::from(evaluator.evaluate(state).raw());
                if state.side_to_move() == Side::First {
                    score
                } else {
                    -score
                }
            })
            .collect()
    }

    /// The mean squared error of the predicted results at scale `k`.
    fn error(&self, evaluations: &[f64], k: f64) -> f64 {
        let total: f64 = self
            .positions
            .iter()
            .zip(evaluations)
            .map(|((_, result), &e)| {
                let expected = 1.0 / (1.0 + 10f64.powf(-k * e / 400.0));
                (result - expected).powi(2)
            })
            .sum();
        total / self.positions.len() as f64
    }
}

/// The scale with the least error, by golden-section search on `[0.001, 100]` (the error is
/// unimodal in `k` for a fixed evaluation).
fn best_scale(error: impl Fn(f64) -> f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.001f64, 100.0f64);
    for _ in 0..80 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// `tune texel`.
pub(crate) fn run_texel<G: Notation>(
    spec: &GameCli<G>,
    args: &TexelArgs,
    command_line: &str,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let (names, mut weights) = start_weights(spec, args.weights.as_deref())?;
    let fixed = fixed_weights(names, &args.fixed)?;
    if !(args.shrink > 0.0 && args.shrink <= 1.0) {
        return Err(CliError::Invalid(format!(
            "bad --shrink {}: expected a number in (0, 1]",
            args.shrink
        )));
    }
    if !(1..=plies::weights::MAX_WEIGHT).contains(&args.step) {
        return Err(CliError::Invalid(format!(
            "bad --step {}: expected 1..={}",
            args.step,
            plies::weights::MAX_WEIGHT
        )));
    }
    let initial = weights.clone();
    let data: Labelled<G> = read_positions(&args.positions)?;
    let evaluate = |w: &[i32]| -> Result<Vec<f64>, CliError> {
        let evaluator = spec
            .evaluator
            .with_weights(w)
            .map_err(|e| CliError::Invalid(format!("the evaluator refuses the weights: {e}")))?;
        Ok(data.evaluations(evaluator.make().as_ref()))
    };
    let start = evaluate(&weights)?;
    let k = best_scale(|k| data.error(&start, k));
    let mut best = data.error(&start, k);
    writeln!(
        output,
        "tune texel: {} positions, scale K = {k:.4}, error {best:.6}",
        data.positions.len()
    )?;
    let mut step = args.step;
    for pass in 1..=args.passes {
        let mut improved = false;
        for i in (0..weights.len()).filter(|&i| !fixed[i]) {
            for delta in [step, -step] {
                let mut trial = weights.clone();
                let max = plies::weights::MAX_WEIGHT;
                trial[i] = trial[i].saturating_add(delta).clamp(-max, max);
                let error = data.error(&evaluate(&trial)?, k);
                if error < best {
                    best = error;
                    weights = trial;
                    improved = true;
                    break;
                }
            }
        }
        let comment = format!(
            "{} evaluator weights, tuned by plies Texel: pass {pass}, error {best:.6} at K = \
             {k:.4} over {} positions{}.\nproduced by: {command_line}",
            spec.name,
            data.positions.len(),
            if args.shrink < 1.0 {
                format!(", moves from the start shrunk by {}", args.shrink)
            } else {
                String::new()
            }
        );
        let written = shrunk(&initial, &weights, args.shrink);
        let text = plies::weights::format_weights(names, &written, &comment);
        write_atomic(&args.out, &text)?;
        writeln!(output, "pass {pass}: step {step}, error {best:.6}")?;
        if !improved {
            if step == 1 {
                break;
            }
            step = (step / 2).max(1);
        }
    }
    writeln!(output, "weights: {}", args.out.display())?;
    Ok(())
}
