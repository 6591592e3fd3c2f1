//! The tafl bot's command line as a library: the generic plies-cli commands with tafl's
//! variants (`--variant NAME`, `--rules OTN`, `--side`), its evaluator presets (`--eval`) and
//! its own commands (`speed`, `eval-arena`, `otep`, `referee`, `suite`, `suite-build`), so that
//! the bot (`examples/tafl.rs`) and the tests run the same [`tafl_cli`].
//!
//! Every command that takes `--position` also takes `--variant NAME` or `--rules TEXT` (its
//! start position; the tafl position text accepts both, see `plies_tafl::notation`); with
//! `--position /record/` as well, the record is the board under that variant (`--side a|d`
//! the side to move, default `a`). `--eval NAME` (before or after the command) picks the
//! evaluator preset (`material`, `distance`, `classic`, `pst`, `full`, `brandub`; default
//! `full`). All of it is declared through `GameCli` (position options, presets, commands), so
//! `--help` shows it and clap reports its errors.
//!
//! Key invariant: the bench positions and depth fix the bench signature; change them only on
//! purpose.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::sync::Arc;

use clap::CommandFactory;
use plies::agent::Agent;
use plies::harness::{BenchSignature, BenchSuite};
use plies_cli::arena::AgentFactory;
use plies_cli::{EngineProtocol, EvaluatorPreset, GameCli, GameCommand, tunable_evaluator};
use plies_tafl::{Tafl, TaflEvaluator};
use plies_tafl_otep::agent::{OtepAgent, OtepCommand};

use crate::commands::{EvalArenaArgs, OtepArgs, RefereeArgs, SpeedArgs};
use crate::suite::{SuiteArgs, SuiteBuildArgs};
use crate::variant::TaflPositions;

mod commands;
mod suite;
mod variant;

const BENCH_POSITIONS: &[&str] = &["copenhagen", "brandub", "tablut"];
const BENCH_DEPTH: u32 = 5;

/// The bench's node total at [`BENCH_DEPTH`] with the default evaluator: a signature of the
/// search (`bench` fails when it changes; record a new one only for an intended change).
const BENCH_SIGNATURES: &[BenchSignature] = &[BenchSignature {
    depth: BENCH_DEPTH,
    nodes: 240_354,
}];

/// The evaluator presets of `--eval NAME` (`full` is the default evaluator).
const PRESETS: &[EvaluatorPreset<Tafl>] = &[
    EvaluatorPreset {
        name: "material",
        evaluator: || tunable_evaluator(TaflEvaluator::material()),
        is_default: false,
    },
    EvaluatorPreset {
        name: "distance",
        evaluator: || tunable_evaluator(TaflEvaluator::distance()),
        is_default: false,
    },
    EvaluatorPreset {
        name: "classic",
        evaluator: || tunable_evaluator(TaflEvaluator::classic()),
        is_default: false,
    },
    EvaluatorPreset {
        name: "pst",
        evaluator: || tunable_evaluator(TaflEvaluator::pst()),
        is_default: false,
    },
    EvaluatorPreset {
        name: "full",
        evaluator: || tunable_evaluator(TaflEvaluator::full()),
        is_default: true,
    },
    EvaluatorPreset {
        name: "brandub",
        evaluator: || tunable_evaluator(TaflEvaluator::brandub()),
        is_default: false,
    },
];

/// The tafl commands beside the generic ones.
const COMMANDS: &[GameCommand<Tafl>] = &[
    GameCommand {
        command: || SpeedArgs::command().name("speed"),
        run: commands::speed,
    },
    GameCommand {
        command: || EvalArenaArgs::command().name("eval-arena"),
        run: commands::eval_arena,
    },
    GameCommand {
        command: || OtepArgs::command().name("otep"),
        run: commands::otep,
    },
    GameCommand {
        command: || RefereeArgs::command().name("referee"),
        run: commands::referee,
    },
    GameCommand {
        command: || SuiteArgs::command().name("suite"),
        run: suite::run,
    },
    GameCommand {
        command: || SuiteBuildArgs::command().name("suite-build"),
        run: suite::build,
    },
];

/// The tafl command line: the generic commands with `--variant`/`--rules`, the presets and
/// the tafl commands.
pub fn tafl_cli() -> GameCli<Tafl> {
    GameCli::<Tafl> {
        bench_positions: BENCH_POSITIONS,
        bench_depth: BENCH_DEPTH,
        bench: BenchSuite::new().signatures(BENCH_SIGNATURES),
        position_options: Some(&TaflPositions),
        presets: PRESETS,
        commands: COMMANDS,
        engine_protocols: &[EngineProtocol {
            prefix: "otep",
            engine: otep_engine,
        }],
        ..GameCli::new("tafl", tunable_evaluator(TaflEvaluator::default()))
    }
}

/// The arena's `--engine otep:[timeout=SECONDS:][settle=MS[/LIMIT_MS]:][retries=N:]COMMAND`: an
/// OpenTafl engine process, checked to start and say `hello` before the first game.
fn otep_engine(text: &str) -> Result<AgentFactory<Tafl>, String> {
    let engine = OtepCommand::parse(text)?;
    engine.check()?;
    Ok(Arc::new(move || -> Box<dyn Agent<Tafl>> {
        Box::new(OtepAgent::new(engine.clone()))
    }))
}
