//! The tafl bot: perft, analysis, terminal play and bench through the generic command line
//! (any variant via `--variant NAME` or `--rules "<OTN rules string>"`), an OTEP engine for
//! OpenTafl, and an OTEP referee.
//!
//! ```sh
//! cargo run --release --example tafl -- perft --variant brandub --depth 4
//! cargo run --release --example tafl -- analyze --variant copenhagen --time 10000
//! cargo run --release --example tafl -- perft --rules "dim:7 ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/" --depth 3
//! cargo run --release --example tafl -- play --variant tablut --human second --time 1000
//! cargo run --release --example tafl -- bench
//! cargo run --release --example tafl -- speed --variant copenhagen --time 10000
//! cargo run --release --example tafl -- --eval classic analyze --variant brandub --depth 6
//! cargo run --release --example tafl -- eval-arena --variant brandub -e full -e material \
//!     --games 100 --depth 4
//! cargo run --release --example tafl -- otep [--move-time MS] [--max-time MS]
//! cargo run --release --example tafl -- referee --engine "target/release/examples/tafl otep" \
//!     --engine "target/release/examples/tafl otep" --variant brandub --games 2 --move-time 1000 --out referee-out
//! ```
//!
//! Every command that takes `--position` also takes `--variant NAME` or `--rules TEXT` (its
//! start position; the tafl position text accepts both, see `plies_tafl::notation`); with
//! `--position /record/` as well, the record is the board under that variant (`--side a|d`
//! the side to move, default `a`). `--eval NAME` (before or after the command) picks the
//! evaluator preset (`material`, `distance`, `classic`, `pst`, `full`, `brandub`; default
//! `full`). All of it is declared through `GameCli` (position options, presets, commands), so
//! `--help` shows it and clap reports its errors. `speed` is
//! the issue's bench: the full searcher from a start position for a fixed time, reporting the
//! depth completed, nodes, nodes/s of wall time and of process CPU time (the machine may be
//! shared). `eval-arena` plays evaluator presets against each other with the full searcher.
//! Key invariant: the bench positions and depth fix the bench signature; change them only on
//! purpose.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Args, CommandFactory, FromArgMatches, Parser};
use plies::Notation;
use plies::Score;
use plies::agent::{Agent, SearchAgent};
use plies::search::SearchLimits;
use plies::spec::SearcherSpec;
use plies_cli::arena::{
    AgentFactory, Arena, ArenaConfig, Engine, Schedule, Standings, random_openings,
};
use plies_cli::{
    BenchSignature, BenchSuite, CliError, CommandContext, EngineProtocol, EvaluatorPreset, GameCli,
    GameCommand, PositionOptions, tunable_evaluator,
};
use plies_tafl::{Tafl, TaflEvaluator, VARIANTS, start_of, variant};
use plies_tafl_otep::agent::{OtepAgent, OtepCommand};
use plies_tafl_otep::engine::{EngineOptions, MAX_CLOCK_MS, run_engine_with};
use plies_tafl_otep::referee::{MatchConfig, Settle, run_match, summary};

#[path = "tafl/suite.rs"]
mod suite;

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
        run: speed,
    },
    GameCommand {
        command: || EvalArenaArgs::command().name("eval-arena"),
        run: eval_arena,
    },
    GameCommand {
        command: || OtepArgs::command().name("otep"),
        run: otep,
    },
    GameCommand {
        command: || RefereeArgs::command().name("referee"),
        run: referee,
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
pub(crate) fn tafl_cli() -> GameCli<Tafl> {
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

/// The canonical name of the built-in variant `text`, or an error listing the known ones.
fn known_variant(text: &str) -> Result<String, String> {
    variant(text).map(|v| v.name.to_string()).ok_or_else(|| {
        let names: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
        format!("unknown variant; known: {}", names.join(", "))
    })
}

/// A variant: a built-in one or an OTN rules string.
#[derive(Args, Debug, Clone, Default)]
struct VariantArgs {
    /// A built-in variant (copenhagen, brandub, tablut, ...): its start position.
    #[arg(long, value_name = "NAME", value_parser = known_variant, conflicts_with = "rules")]
    variant: Option<String>,
    /// An OTN rules string ("dim:7 ks:w ... start:/.../"): its start position.
    #[arg(long, value_name = "OTN")]
    rules: Option<String>,
}

impl VariantArgs {
    /// The start position chosen, `fallback` (a variant) when none is.
    fn start(&self, fallback: &str) -> Result<Tafl, CliError> {
        match (&self.variant, &self.rules) {
            (_, Some(rules)) => Tafl::parse_position(rules)
                .map_err(|e| CliError::Invalid(format!("bad --rules: {e}"))),
            (Some(name), None) => {
                start_of(name).map_err(|e| CliError::Invalid(format!("bad --variant: {e}")))
            }
            (None, None) => {
                start_of(fallback).map_err(|e| CliError::Invalid(format!("bad variant: {e}")))
            }
        }
    }
}

/// The tafl options of every command that takes `--position`.
#[derive(Args, Debug)]
struct TaflPositionArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// With `--position /record/`: the side to move, a (attackers, the default) or d.
    #[arg(long, value_name = "a|d")]
    side: Option<String>,
}

/// `--variant`, `--rules` and `--side` on the generic commands.
struct TaflPositions;

impl PositionOptions for TaflPositions {
    fn args(&self) -> Vec<clap::Arg> {
        TaflPositionArgs::augment_args(clap::Command::new("tafl"))
            .get_arguments()
            .cloned()
            .collect()
    }

    fn position_text(
        &self,
        matches: &clap::ArgMatches,
        position: Option<&str>,
    ) -> Result<Option<String>, String> {
        let args = TaflPositionArgs::from_arg_matches(matches).map_err(|e| e.to_string())?;
        let VariantArgs { variant, rules } = args.variant;
        match position {
            Some(record) if record.starts_with('/') => {
                if rules.is_some() {
                    return Err("--position /record/ goes with --variant, not --rules".into());
                }
                let base = variant.unwrap_or_else(|| "copenhagen".to_string());
                let side = args.side.unwrap_or_else(|| "a".to_string());
                Ok(Some(format!("{base} {record} {side}")))
            }
            _ if args.side.is_some() => Err("--side goes with --position /record/".into()),
            Some(_) if variant.is_some() || rules.is_some() => Err(
                "--position: a whole position goes alone (with --variant, give a /record/)".into(),
            ),
            Some(text) => Ok(Some(text.to_string())),
            None => Ok(variant.or(rules)),
        }
    }
}

/// Search a start position for a fixed time with the full searcher: depth completed, nodes,
/// nodes/s of wall and of CPU time.
#[derive(Parser, Debug)]
struct SpeedArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// Search time in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_CLOCK_MS))]
    time: u64,
}

/// CPU seconds this process has used so far (Linux `/proc/self/stat`), if readable.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

fn speed(context: CommandContext<'_, Tafl>) -> Result<(), CliError> {
    let args =
        SpeedArgs::from_arg_matches(context.matches).map_err(|e| CliError::Usage(e.to_string()))?;
    let start = args.variant.start("copenhagen")?;
    let mut searcher = context
        .game
        .evaluator
        .searcher(&SearcherSpec::default(), None)
        .map_err(CliError::from)?;
    let ms = args.time;
    let cpu0 = cpu_seconds();
    let clock = Instant::now();
    let result = searcher.search(&start, &SearchLimits::time(Duration::from_millis(ms)));
    let wall = clock.elapsed().as_secs_f64();
    let cpu = cpu0.and_then(|c0| cpu_seconds().map(|c1| c1 - c0));
    let nodes = result.stats.nodes;
    let out = context.output;
    writeln!(
        out,
        "{}: depth {} completed in {} ms budget, best {}, score {}",
        start.rules().name,
        result.depth,
        ms,
        result
            .best_move
            .map_or("(none)".into(), |m| start.format_move(m)),
        result
            .known_score()
            .map_or_else(|| "none".to_string(), |s| s.to_string())
    )?;
    writeln!(
        out,
        "nodes {nodes}, wall {wall:.3} s, {:.0} nodes/s (wall)",
        nodes as f64 / wall
    )?;
    if let Some(cpu) = cpu {
        writeln!(
            out,
            "cpu {cpu:.3} s, {:.0} nodes/s (cpu)",
            nodes as f64 / cpu.max(1e-9)
        )?;
    }
    Ok(())
}

/// Play evaluator presets against each other (the full pvs searcher each); Elo table at the
/// end.
#[derive(Parser, Debug)]
struct EvalArenaArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// An evaluator preset to play (at least two).
    #[arg(short = 'e', long = "preset", value_name = "NAME", required = true)]
    presets: Vec<String>,
    /// Games to play (openings are played twice, colours swapped).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Search depth per move.
    #[arg(long, value_name = "D", conflicts_with = "time",
          value_parser = clap::value_parser!(u32).range(1..i64::from(Score::MAX_PLY)))]
    depth: Option<u32>,
    /// Search time per move in milliseconds.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=MAX_CLOCK_MS))]
    time: Option<u64>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    concurrency: u64,
    /// A game reaching this many plies is a draw.
    #[arg(long, default_value_t = 200)]
    max_plies: u32,
    /// Random plies of each opening.
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
}

fn eval_arena(context: CommandContext<'_, Tafl>) -> Result<(), CliError> {
    let args = EvalArenaArgs::from_arg_matches(context.matches)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    if args.presets.len() < 2 {
        return Err(CliError::Usage(
            "eval-arena needs at least two -e NAME".into(),
        ));
    }
    let mut limits = SearchLimits::default();
    match (args.depth, args.time) {
        (Some(depth), _) => limits.depth = Some(depth),
        (None, Some(ms)) => limits.time = Some(Duration::from_millis(ms)),
        (None, None) => {
            return Err(CliError::Usage(
                "eval-arena needs --depth D or --time MS".into(),
            ));
        }
    }
    let start = args.variant.start("brandub")?;
    let mut engines = Vec::new();
    for name in &args.presets {
        TaflEvaluator::by_name(name).map_err(|e| CliError::Invalid(format!("-e: {e}")))?;
        let preset = name.clone();
        engines.push(Engine::new(
            name.clone(),
            move || -> Box<dyn Agent<Tafl>> {
                let eval = TaflEvaluator::by_name(&preset).expect("checked above");
                Box::new(SearchAgent::new(
                    SearcherSpec::default().build(eval).expect("a 16 MB table"),
                ))
            },
        ));
    }
    let games = usize::try_from(args.games).unwrap_or(usize::MAX);
    let openings = random_openings(
        &start,
        args.seed,
        games.div_ceil(2).max(1),
        args.opening_plies,
    );
    let schedule = if engines.len() == 2 {
        Schedule::head_to_head(openings.len())
    } else {
        Schedule::round_robin(engines.len(), openings.len())
    };
    let config = ArenaConfig {
        limits,
        max_plies: args.max_plies,
        workers: usize::try_from(args.concurrency).unwrap_or(1),
        seed: args.seed,
        ..ArenaConfig::default()
    };
    let arena = Arena::new(engines, openings, config);
    let out = context.output;
    writeln!(
        out,
        "eval-arena: {} on {} | {} games | {:?} per move",
        args.presets.join(" vs "),
        start.rules().name,
        schedule.len(),
        args.depth.map_or_else(
            || format!("{} ms", args.time.unwrap_or(0)),
            |d| format!("depth {d}")
        )
    )?;
    let mut failed = None;
    let records = arena.run(&schedule, &[], &mut |record, progress| {
        if failed.is_none()
            && let Err(e) = writeln!(
                out,
                "[{}/{}] {} - {}  {}  ({} plies)",
                progress.done,
                progress.total,
                record.names[0],
                record.names[1],
                record.result.as_str(),
                record.plies
            )
        {
            failed = Some(e);
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    let standings = Standings::new(&arena.names(), &records);
    write!(out, "{}", standings.table())?;
    Ok(())
}

/// Be an OpenTafl engine speaking OTEP on stdin and stdout.
#[derive(Parser, Debug)]
struct OtepArgs {
    /// Time per move when the host sends no clock.
    #[arg(long, value_name = "MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_CLOCK_MS))]
    move_time: u64,
    /// The longest think whatever the clock says (default none).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=MAX_CLOCK_MS))]
    max_time: Option<u64>,
}

fn otep(context: CommandContext<'_, Tafl>) -> Result<(), CliError> {
    let args =
        OtepArgs::from_arg_matches(context.matches).map_err(|e| CliError::Usage(e.to_string()))?;
    let options = EngineOptions {
        move_time: Duration::from_millis(args.move_time),
        max_time: args.max_time.map(Duration::from_millis),
    };
    run_engine_with(context.input, context.output, options)?;
    Ok(())
}

/// Referee a match between two OTEP engine commands and write the games.
#[derive(Parser, Debug)]
struct RefereeArgs {
    /// An engine's command line (exactly two).
    #[arg(long = "engine", value_name = "COMMAND", required = true)]
    engines: Vec<String>,
    /// A built-in variant to play (repeatable; default brandub).
    #[arg(long = "variant", value_name = "NAME", value_parser = known_variant)]
    variants: Vec<String>,
    /// An OTN rules string to play (repeatable).
    #[arg(long = "rules", value_name = "OTN")]
    rules: Vec<String>,
    /// Games per variant.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Time per move in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_CLOCK_MS))]
    move_time: u64,
    /// A game reaching this many plies is a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Where the game records go.
    #[arg(long, value_name = "DIR", default_value = "referee-out")]
    out: PathBuf,
    /// After its move an engine is sent nothing until it has been quiet this long (ms; `Q/L`:
    /// quiet Q, at most L; 0: no wait). OpenTafl's engine crashes when told to play while it
    /// still prints its search statistics.
    #[arg(long, value_name = "MS[/LIMIT_MS]", default_value = "200/2000", value_parser = Settle::parse)]
    settle: Settle,
    /// Illegal moves an engine may retry per move (`error 2`, the opponent's move again,
    /// `play`) before it loses.
    #[arg(long, value_name = "N", default_value_t = OtepCommand::DEFAULT_RETRIES,
          value_parser = clap::value_parser!(u32).range(0..=100))]
    retries: u32,
}

fn referee(context: CommandContext<'_, Tafl>) -> Result<(), CliError> {
    let args = RefereeArgs::from_arg_matches(context.matches)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let [a, b]: [String; 2] = args
        .engines
        .try_into()
        .map_err(|_| CliError::Usage("referee needs exactly two --engine commands".into()))?;
    // The variants in the order given, `--variant` and `--rules` mixed.
    let mut given: Vec<(usize, String)> = Vec::new();
    let named = context.matches.indices_of("variants").into_iter().flatten();
    for (index, name) in named.zip(&args.variants) {
        given.extend(variant(name).map(|v| (index, v.rules.to_string())));
    }
    let written = context.matches.indices_of("rules").into_iter().flatten();
    given.extend(written.zip(args.rules));
    given.sort_by_key(|(index, _)| *index);
    let mut variants: Vec<String> = given.into_iter().map(|(_, rules)| rules).collect();
    if variants.is_empty() {
        variants.extend(variant("brandub").map(|v| v.rules.to_string()));
    }
    let config = MatchConfig {
        engines: [a, b],
        variants,
        games_per_variant: usize::try_from(args.games).unwrap_or(usize::MAX),
        move_time: Duration::from_millis(args.move_time),
        grace: Duration::from_millis(2000),
        max_plies: args.max_plies,
        out_dir: args.out,
        settle: args.settle,
        retries: args.retries,
    };
    let results = run_match(&config).map_err(CliError::Invalid)?;
    write!(context.output, "{}", summary(&results))?;
    Ok(())
}

/// Search every position of a tactics suite (king escapes and captures with proven results)
/// within a limit each, and count how many the searcher solves: the winning side finds the
/// win, the losing side sees the loss coming.
#[derive(Parser, Debug)]
struct SuiteArgs {
    /// The suite file (`POSITION | PROOF | SOURCE` lines, as `suite-build` writes).
    #[arg(
        long,
        value_name = "FILE",
        default_value = "games/tafl/suite/escapes.txt"
    )]
    file: PathBuf,
    /// Milliseconds per position.
    #[arg(long, value_name = "MS", conflicts_with = "nodes",
          value_parser = clap::value_parser!(u64).range(1..=MAX_CLOCK_MS))]
    time: Option<u64>,
    /// Positions searched per position of the suite (deterministic).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// The searcher (a spec as in `analyze --searcher`).
    #[arg(long, default_value = "pvs")]
    searcher: String,
    /// Print each position's answer too.
    #[arg(long)]
    verbose: bool,
    /// End with one JSON line of the counts.
    #[arg(long)]
    json: bool,
}

/// Build a tactics suite from finished games: positions a few plies before a king escape or
/// capture whose result an exhaustive search proves, the proof kept on each line.
#[derive(Parser, Debug)]
struct SuiteBuildArgs {
    /// Game records as `moves,attacker_captures,defender_captures,status` lines (the
    /// aagenielsen.dk Copenhagen export), played from the variant's start (repeatable).
    #[arg(long, value_name = "FILE")]
    csv: Vec<PathBuf>,
    /// Games as the arena's `--results` JSON lines (repeatable).
    #[arg(long, value_name = "FILE")]
    arena: Vec<PathBuf>,
    /// The built-in variant of every game read.
    #[arg(long, value_parser = known_variant, default_value = "copenhagen")]
    variant: String,
    /// The longest proof looked for, in plies (positions this close to a game's end or
    /// closer are candidates).
    #[arg(long, value_name = "PLIES", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(2..=9))]
    max_plies: u32,
    /// Positions kept per proof (`win 3`, `win 5`, `loss 2`, `loss 4`, ...; one-ply wins are
    /// left out).
    #[arg(long, value_name = "N", default_value_t = 100)]
    per_class: usize,
    /// Positions the exhaustive proof search of one candidate may make before it gives up.
    #[arg(long, value_name = "N", default_value_t = 20_000_000)]
    budget: u64,
    /// Where the suite goes (`-` for standard output).
    #[arg(long, value_name = "FILE", default_value = "-")]
    out: PathBuf,
}

fn main() -> ExitCode {
    plies_cli::main(tafl_cli())
}
