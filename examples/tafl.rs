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
//! `--variant NAME` / `--rules TEXT` become the generic `--position` (the tafl position text
//! accepts both, see `plies_tafl::notation`); with `--position /record/` as well, the record is
//! the board under that variant. `--eval NAME` (first) picks the evaluator preset of the
//! generic commands (`material`, `distance`, `classic`, `full`; default `full`). `speed` is
//! the issue's bench: the full searcher from a start position for a fixed time, reporting the
//! depth completed, nodes, nodes/s of wall time and of process CPU time (the machine may be
//! shared). `eval-arena` plays evaluator presets against each other with the full searcher.
//! Key invariant: the bench positions and depth fix the bench signature; change them only on
//! purpose.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use std::time::Instant;

use plies::Notation;
use plies::agent::{Agent, SearchAgent};
use plies::search::SearchLimits;
use plies::spec::SearcherSpec;
use plies_cli::arena::{Arena, ArenaConfig, Engine, Schedule, Standings, random_openings};
use plies_cli::{BenchSignature, BenchSuite, GameCli, tunable_evaluator};
use plies_tafl::{Tafl, TaflEvaluator, start_of, variant};
use plies_tafl_otep::engine::{EngineOptions, run_engine_with};
use plies_tafl_otep::referee::{MatchConfig, run_match, summary};

const BENCH_POSITIONS: &[&str] = &["copenhagen", "brandub", "tablut"];
const BENCH_DEPTH: u32 = 5;

/// Rewrites `--variant` / `--rules` (and a bare `--position /record/`) into `--position`.
fn rewrite(args: Vec<String>) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let (mut base, mut record, mut side) = (None, None, None);
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| it.next().ok_or(format!("{flag} needs a value"));
        match a.as_str() {
            "--variant" => {
                let v = value("--variant")?;
                if variant(&v).is_none() {
                    return Err(format!("--variant '{v}': unknown variant"));
                }
                base = Some(v);
            }
            "--rules" => base = Some(value("--rules")?),
            "--side" => side = Some(value("--side")?),
            "--position" => {
                let p = value("--position")?;
                if p.starts_with('/') {
                    record = Some(p);
                } else {
                    base = Some(p);
                }
            }
            _ => out.push(a),
        }
    }
    let position = match (base, record) {
        (None, None) => None,
        (Some(b), None) => Some(b),
        (b, Some(r)) => {
            let b = b.unwrap_or_else(|| "copenhagen".to_string());
            if b.starts_with("dim:") {
                return Err("--position /record/ goes with --variant, not --rules".into());
            }
            Some(format!(
                "{b} {r} {}",
                side.clone().unwrap_or_else(|| "a".into())
            ))
        }
    };
    if let Some(p) = position {
        if out.len() < 2 {
            return Err("a command (perft, analyze, play, bench) comes first".into());
        }
        out.push("--position".into());
        out.push(p);
    }
    Ok(out)
}

fn referee(args: &[String]) -> Result<(), String> {
    let mut engines = Vec::new();
    let mut variants = Vec::new();
    let (mut games, mut move_ms, mut max_plies) = (2usize, 1000u64, 400usize);
    let mut out_dir = PathBuf::from("referee-out");
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--engine" => engines.push(value()?),
            "--variant" => {
                let v = value()?;
                let found = variant(&v).ok_or(format!("--variant '{v}': unknown variant"))?;
                variants.push(found.rules.to_string());
            }
            "--rules" => variants.push(value()?),
            "--games" => games = value()?.parse().map_err(|_| "--games: expected a number")?,
            "--move-time" => {
                move_ms = value()?
                    .parse()
                    .map_err(|_| "--move-time: expected milliseconds")?
            }
            "--max-plies" => {
                max_plies = value()?
                    .parse()
                    .map_err(|_| "--max-plies: expected a number")?
            }
            "--out" => out_dir = PathBuf::from(value()?),
            other => return Err(format!("referee: unknown argument '{other}'")),
        }
    }
    let [a, b]: [String; 2] = engines
        .try_into()
        .map_err(|_| "referee needs exactly two --engine commands")?;
    if variants.is_empty() {
        variants.push(
            variant("brandub")
                .map(|v| v.rules.to_string())
                .unwrap_or_default(),
        );
    }
    let config = MatchConfig {
        engines: [a, b],
        variants,
        games_per_variant: games,
        move_time: Duration::from_millis(move_ms),
        grace: Duration::from_millis(2000),
        max_plies,
        out_dir,
    };
    let results = run_match(&config)?;
    print!("{}", summary(&results));
    Ok(())
}

/// The start position of `--variant NAME` / `--rules TEXT` (default `fallback`).
fn start_from(
    variant_name: Option<&str>,
    rules: Option<&str>,
    fallback: &str,
) -> Result<Tafl, String> {
    match (variant_name, rules) {
        (_, Some(r)) => Tafl::parse_position(r).map_err(|e| format!("bad --rules: {e}")),
        (Some(v), None) => start_of(v).map_err(|e| format!("bad --variant: {e}")),
        (None, None) => start_of(fallback).map_err(|e| e.to_string()),
    }
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

/// `speed [--variant V | --rules R] [--time MS] [--eval NAME]`: the full searcher for a fixed
/// time from the start position; depth completed, nodes, nodes/s.
fn speed(args: &[String]) -> Result<(), String> {
    let (mut v, mut rules, mut ms, mut eval) = (None, None, 10_000u64, "full".to_string());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--variant" => v = Some(value()?),
            "--rules" => rules = Some(value()?),
            "--time" => {
                ms = value()?
                    .parse()
                    .map_err(|_| "--time: expected milliseconds")?
            }
            "--eval" => eval = value()?,
            other => return Err(format!("speed: unknown argument '{other}'")),
        }
    }
    let start = start_from(v.as_deref(), rules.as_deref(), "copenhagen")?;
    let mut searcher = SearcherSpec::default().build(TaflEvaluator::by_name(&eval)?);
    let cpu0 = cpu_seconds();
    let clock = Instant::now();
    let result = searcher.search(&start, &SearchLimits::time(Duration::from_millis(ms)));
    let wall = clock.elapsed().as_secs_f64();
    let cpu = cpu0.and_then(|c0| cpu_seconds().map(|c1| c1 - c0));
    let nodes = result.stats.nodes;
    println!(
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
    );
    println!(
        "nodes {nodes}, wall {wall:.3} s, {:.0} nodes/s (wall)",
        nodes as f64 / wall
    );
    if let Some(cpu) = cpu {
        println!(
            "cpu {cpu:.3} s, {:.0} nodes/s (cpu)",
            nodes as f64 / cpu.max(1e-9)
        );
    }
    Ok(())
}

/// `eval-arena [--variant V | --rules R] -e NAME -e NAME [...] [--games N] (--depth D |
/// --time MS) [--seed S] [--concurrency N] [--max-plies N] [--opening-plies N]`: evaluator
/// presets against each other (full pvs searcher each), Elo table at the end.
fn eval_arena(args: &[String]) -> Result<(), String> {
    let (mut v, mut rules, mut names) = (None, None, Vec::new());
    let (mut games, mut depth, mut time) = (20usize, None, None);
    let (mut seed, mut workers, mut max_plies, mut opening_plies) = (1u64, 1usize, 200u32, 4u32);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
        let number = |text: String, flag: &str| -> Result<u64, String> {
            text.parse()
                .map_err(|_| format!("{flag} '{text}': expected a number"))
        };
        match a.as_str() {
            "--variant" => v = Some(value()?),
            "--rules" => rules = Some(value()?),
            "-e" | "--eval" => names.push(value()?),
            "--games" => games = number(value()?, a)? as usize,
            "--depth" => {
                let max = plies::eval::Score::MAX_PLY - 1;
                depth = Some(
                    u32::try_from(number(value()?, a)?)
                        .ok()
                        .filter(|d| (1..=max).contains(d))
                        .ok_or(format!("--depth: expected 1..={max}"))?,
                )
            }
            "--time" => time = Some(number(value()?, a)?),
            "--seed" => seed = number(value()?, a)?,
            "--concurrency" => workers = (number(value()?, a)? as usize).max(1),
            "--max-plies" => max_plies = number(value()?, a)? as u32,
            "--opening-plies" => opening_plies = number(value()?, a)? as u32,
            other => return Err(format!("eval-arena: unknown argument '{other}'")),
        }
    }
    if names.len() < 2 {
        return Err("eval-arena needs at least two -e NAME".into());
    }
    let mut limits = SearchLimits::default();
    match (depth, time) {
        (Some(d), _) if d > 0 => limits.depth = Some(d),
        (None, Some(ms)) if ms > 0 => limits.time = Some(Duration::from_millis(ms)),
        _ => return Err("eval-arena needs --depth D or --time MS (positive)".into()),
    }
    let start = start_from(v.as_deref(), rules.as_deref(), "brandub")?;
    let mut engines = Vec::new();
    for name in &names {
        TaflEvaluator::by_name(name)?;
        let preset = name.clone();
        engines.push(Engine::new(
            name.clone(),
            move || -> Box<dyn Agent<Tafl>> {
                let eval = TaflEvaluator::by_name(&preset).expect("checked above");
                Box::new(SearchAgent::new(SearcherSpec::default().build(eval)))
            },
        ));
    }
    let openings = random_openings(&start, seed, games.div_ceil(2).max(1), opening_plies);
    let schedule = if engines.len() == 2 {
        Schedule::head_to_head(openings.len())
    } else {
        Schedule::round_robin(engines.len(), openings.len())
    };
    let config = ArenaConfig {
        limits,
        max_plies,
        workers,
        seed,
        stop: None,
    };
    let arena = Arena::new(engines, openings, config);
    println!(
        "eval-arena: {} on {} | {} games | {:?} per move",
        names.join(" vs "),
        start.rules().name,
        schedule.len(),
        depth.map_or_else(
            || format!("{} ms", time.unwrap_or(0)),
            |d| format!("depth {d}")
        )
    );
    let records = arena.run(&schedule, &[], &mut |record, progress| {
        println!(
            "[{}/{}] {} - {}  {}  ({} plies)",
            progress.done,
            progress.total,
            record.names[0],
            record.names[1],
            record.result.as_str(),
            record.plies
        );
    });
    let standings = Standings::new(&arena.names(), &records);
    print!("{}", standings.table());
    Ok(())
}

/// Takes a leading `--eval NAME` off the arguments.
/// The bench's node total at [`BENCH_DEPTH`] with the default evaluator: a signature of the
/// search (`bench` fails when it changes; record a new one only for an intended change).
const BENCH_SIGNATURES: &[BenchSignature] = &[BenchSignature {
    depth: BENCH_DEPTH,
    nodes: 240_576,
}];

fn take_eval(args: &mut Vec<String>) -> Result<TaflEvaluator, String> {
    match args.iter().position(|a| a == "--eval") {
        Some(i) if i + 1 < args.len() => {
            let name = args.remove(i + 1);
            args.remove(i);
            TaflEvaluator::by_name(&name)
        }
        Some(_) => Err("--eval needs a value".into()),
        None => Ok(TaflEvaluator::default()),
    }
}

fn main() -> ExitCode {
    let args = match plies_cli::utf8_args(std::env::args_os()) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match args.get(1).map(String::as_str) {
        Some(cmd @ ("speed" | "eval-arena")) => {
            let result = if cmd == "speed" {
                speed(&args[2..])
            } else {
                eval_arena(&args[2..])
            };
            return match result {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {}", plies_cli::one_line(&e));
                    ExitCode::FAILURE
                }
            };
        }
        Some("otep") => {
            let options = match EngineOptions::parse(&args[2..]) {
                Ok(options) => options,
                Err(e) => {
                    eprintln!("error: {e}; usage: tafl otep {}", EngineOptions::USAGE);
                    return ExitCode::from(2);
                }
            };
            let stdin = io::stdin();
            let stdout = io::stdout();
            return match run_engine_with(stdin.lock(), stdout.lock(), options) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            };
        }
        Some("referee") => {
            return match referee(&args[2..]) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {}", plies_cli::one_line(&e));
                    ExitCode::FAILURE
                }
            };
        }
        _ => {}
    }
    let mut args = args;
    let chosen = match take_eval(&mut args) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {}", plies_cli::one_line(&e));
            return ExitCode::from(2);
        }
    };
    let args = match rewrite(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {}", plies_cli::one_line(&e));
            return ExitCode::from(2);
        }
    };
    // The recorded signature holds for the default evaluator only.
    let bench = if chosen == TaflEvaluator::default() {
        BenchSuite::new().signatures(BENCH_SIGNATURES)
    } else {
        BenchSuite::new()
    };
    let spec = GameCli::<Tafl> {
        bench_positions: BENCH_POSITIONS,
        bench_depth: BENCH_DEPTH,
        bench,
        ..GameCli::new("tafl", tunable_evaluator(chosen))
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut output = stdout.lock();
    match plies_cli::run(&spec, args, &mut input, &mut output) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = output.flush();
            eprintln!("{e}");
            e.exit_code()
        }
    }
}
