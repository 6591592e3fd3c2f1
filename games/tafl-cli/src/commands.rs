//! The tafl bot's own commands beside the generic ones: `speed` (the full searcher from a start
//! position for a fixed time), `eval-arena` (evaluator presets against each other), `otep` (an
//! OpenTafl engine on standard input and output) and `referee` (a match between two OTEP
//! engine processes).
//!
//! Key invariant: each command reads its arguments from the matches clap made of its own
//! `Parser`, so its help and its errors are clap's.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{FromArgMatches, Parser};
use plies::Notation;
use plies::Score;
use plies::agent::{Agent, SearchAgent};
use plies::search::SearchLimits;
use plies::spec::SearcherSpec;
use plies_cli::arena::{Arena, ArenaConfig, Engine, Schedule, Standings, random_openings};
use plies_cli::{CliError, CommandContext};
use plies_tafl::{Tafl, TaflEvaluator, variant};
use plies_tafl_otep::agent::OtepCommand;
use plies_tafl_otep::engine::{EngineOptions, MAX_CLOCK_MS, run_engine_with};
use plies_tafl_otep::referee::{MatchConfig, Settle, run_match, summary};

use crate::variant::{VariantArgs, known_variant};

/// Search a start position for a fixed time with the full searcher: depth completed, nodes,
/// nodes/s of wall and of CPU time.
#[derive(Parser, Debug)]
pub(crate) struct SpeedArgs {
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

pub(crate) fn speed(context: CommandContext<'_, Tafl>) -> Result<(), CliError> {
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
pub(crate) struct EvalArenaArgs {
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

pub(crate) fn eval_arena(context: CommandContext<'_, Tafl>) -> Result<(), CliError> {
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
pub(crate) struct OtepArgs {
    /// Time per move when the host sends no clock.
    #[arg(long, value_name = "MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_CLOCK_MS))]
    move_time: u64,
    /// The longest think whatever the clock says (default none).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=MAX_CLOCK_MS))]
    max_time: Option<u64>,
}

pub(crate) fn otep(context: CommandContext<'_, Tafl>) -> Result<(), CliError> {
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
pub(crate) struct RefereeArgs {
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

pub(crate) fn referee(context: CommandContext<'_, Tafl>) -> Result<(), CliError> {
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
