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
//! cargo run --release --example tafl -- otep [--move-time MS]
//! cargo run --release --example tafl -- referee --engine "target/release/examples/tafl otep" \
//!     --engine "target/release/examples/tafl otep" --variant brandub --games 2 --move-time 1000 --out referee-out
//! ```
//!
//! `--variant NAME` / `--rules TEXT` become the generic `--position` (the tafl position text
//! accepts both, see `plies_tafl::notation`); with `--position /record/` as well, the record is
//! the board under that variant. Key invariant: the bench positions and depth fix the bench
//! signature; change them only on purpose.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use plies::cli::{GameCli, evaluator, run};
use plies_tafl::otep::run_engine;
use plies_tafl::referee::{MatchConfig, run_match, summary};
use plies_tafl::{Tafl, TaflEvaluator, variant};

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

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("otep") => {
            let mut move_ms = 1000;
            if let (Some(flag), Some(v)) = (args.get(2), args.get(3))
                && flag == "--move-time"
            {
                match v.parse() {
                    Ok(ms) => move_ms = ms,
                    Err(_) => {
                        eprintln!("--move-time '{v}': expected milliseconds");
                        return ExitCode::from(2);
                    }
                }
            }
            let stdin = io::stdin();
            let stdout = io::stdout();
            return match run_engine(stdin.lock(), stdout.lock(), Duration::from_millis(move_ms)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            };
        }
        Some("referee") => {
            return match referee(&args[2..]) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::FAILURE
                }
            };
        }
        _ => {}
    }
    let args = match rewrite(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let spec = GameCli::<Tafl> {
        name: "tafl",
        evaluator: evaluator(TaflEvaluator::default()),
        bench_positions: BENCH_POSITIONS,
        bench_depth: BENCH_DEPTH,
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut output = stdout.lock();
    let result = run(
        &spec,
        args,
        &mut input as &mut dyn BufRead,
        &mut output as &mut dyn Write,
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = output.flush();
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
