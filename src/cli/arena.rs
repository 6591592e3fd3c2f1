//! `arena`: a match (two engines) or round robin (more) over seeded random openings or an
//! openings file, each opening played twice with colours swapped; one line per finished game,
//! then the results table with Elo and its 95% interval.
//!
//! Key invariants: every engine spec and every opening is checked before the first game, so bad
//! input is a one-line error and never a panic in a worker; with `--depth` or `--nodes` the games
//! are the same every run (any `--concurrency`); with `--results FILE` every finished game is
//! appended to FILE at once and a rerun with the same arguments plays only the missing games.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use serde_json::json;

use super::args::PositionArgs;
use super::{CliError, GameCli, check_depth, start_position};
use crate::agent::{Agent, RandomAgent, SearchAgent};
use crate::arena::{
    Arena, ArenaConfig, Engine, GameRecord, Journal, Progress, Schedule, Standings, Termination,
    random_openings,
};
use crate::notation::Notation;
use crate::search::{SearchLimits, searcher_by_name};

/// `arena`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").required(true).multiple(true)
    .args(["depth", "time", "nodes"])))]
pub(crate) struct ArenaArgs {
    /// Where the random openings start (default the start position).
    #[command(flatten)]
    pub start: PositionArgs,
    /// An engine: a searcher name (minimax, alphabeta, pvs, a ladder rung such as pvs+tt) or
    /// `random`, optionally with its own limit: `pvs:depth=5`, `pvs:nodes=20000`,
    /// `pvs:time=50`. Give two for a match, more for a round robin.
    #[arg(long = "engine", short = 'e', required = true)]
    pub engines: Vec<String>,
    /// Number of openings (each played twice, colours swapped); default 10.
    #[arg(long, conflicts_with = "games")]
    pub openings: Option<usize>,
    /// Games per pairing (rounded up to an even number: openings = games / 2).
    #[arg(long, short = 'g')]
    pub games: Option<usize>,
    /// Random moves from the start position to each opening.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Read the openings from a file instead, one position per line (blank lines and lines
    /// starting with # skipped); --openings/--games then take the first ones.
    #[arg(long)]
    pub openings_file: Option<PathBuf>,
    /// Milliseconds per move.
    #[arg(long, short = 't')]
    pub time: Option<u64>,
    /// Plies per move.
    #[arg(long, short = 'd')]
    pub depth: Option<u32>,
    /// Positions per move.
    #[arg(long, short = 'n')]
    pub nodes: Option<u64>,
    /// A game still running after this many plies is a draw (the arena's draw rule).
    #[arg(long, default_value_t = 200)]
    pub max_plies: u32,
    /// Seed of the openings and of random engines.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at the same time (default: one per core).
    #[arg(long, short = 'c')]
    pub concurrency: Option<usize>,
    /// Append each finished game to this JSON-lines file; rerun to resume a killed match.
    #[arg(long)]
    pub results: Option<PathBuf>,
    /// End with one JSON line: games, per-engine W/D/L, score and Elo with its interval.
    #[arg(long)]
    pub json: bool,
}

/// Runs `arena`.
pub(super) fn run<G: Notation>(
    spec: &GameCli<G>,
    args: &ArenaArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let limits = limits(args.depth, args.time, args.nodes, "--")?;
    let engines = engines(spec, &args.engines)?;
    let openings = openings::<G>(args)?;
    let schedule = if engines.len() == 2 {
        Schedule::head_to_head(openings.len())
    } else {
        Schedule::round_robin(engines.len(), openings.len())
    };
    if args.max_plies == 0 {
        return Err(CliError::Invalid("bad --max-plies 0: expected >= 1".into()));
    }
    let workers = match args.concurrency {
        Some(0) => {
            return Err(CliError::Invalid(
                "bad --concurrency 0: expected >= 1".into(),
            ));
        }
        Some(n) => n,
        None => ArenaConfig::default_workers(),
    };
    let config = ArenaConfig {
        limits: limits.clone(),
        max_plies: args.max_plies,
        workers,
        seed: args.seed,
        stop: None,
    };
    let opening_texts: Vec<String> = openings.iter().map(G::format_position).collect();
    let arena = Arena::new(engines, openings, config).with_notation();
    let names = arena.names();
    let (mut journal, done) = match &args.results {
        Some(path) => {
            let (journal, done) = Journal::open(path).map_err(CliError::Invalid)?;
            Journal::check(&done, &schedule, &names, Some(&opening_texts))
                .map_err(|e| CliError::Invalid(format!("cannot resume {}: {e}", path.display())))?;
            (Some(journal), done)
        }
        None => (None, Vec::new()),
    };
    writeln!(
        output,
        "arena: {} | {} openings x 2 colours = {} games{} | {} per move | cap {} plies | {} at a time",
        names.join(" vs "),
        arena.openings().len(),
        schedule.len(),
        if done.is_empty() {
            String::new()
        } else {
            format!(" ({} already played)", done.len())
        },
        describe(&limits),
        args.max_plies,
        workers
    )?;
    let mut failure: Option<CliError> = None;
    let mut on_game = |record: &GameRecord, progress: Progress| {
        if failure.is_some() {
            return;
        }
        if let Some(journal) = journal.as_mut() {
            if let Err(e) = journal.append(record) {
                failure = Some(CliError::Invalid(format!(
                    "cannot write {}: {e}",
                    journal.path().display()
                )));
                return;
            }
        }
        if let Err(e) = game_line(record, progress, output) {
            failure = Some(e.into());
        }
    };
    let records = arena.run(&schedule, &done, &mut on_game);
    if let Some(err) = failure {
        return Err(err);
    }
    let standings = Standings::new(&names, &records);
    write!(output, "{}", standings.table())?;
    if args.json {
        let engines: Vec<_> = standings
            .engines
            .iter()
            .map(|e| {
                json!({
                    "name": e.name,
                    "games": e.wdl.games(),
                    "wins": e.wdl.wins,
                    "draws": e.wdl.draws,
                    "losses": e.wdl.losses,
                    "score": e.elo.score,
                    "elo": e.elo.elo,
                    "elo_lower": e.elo.lower,
                    "elo_upper": e.elo.upper,
                })
            })
            .collect();
        let line = json!({
            "games": standings.games,
            "engines": engines,
            "first_wins": standings.first_wins,
            "second_wins": standings.second_wins,
            "draws": standings.draws,
            "ply_caps": standings.ply_caps,
            "forfeits": standings.forfeits,
        });
        writeln!(output, "{line}")?;
    }
    Ok(())
}

/// One line per finished game: `[done/total] game id (opening o): first - second  result  why`.
fn game_line(
    record: &GameRecord,
    progress: Progress,
    output: &mut dyn Write,
) -> std::io::Result<()> {
    let why = match &record.termination {
        Termination::Rules => "rules".to_string(),
        Termination::PlyCap => "ply cap".to_string(),
        Termination::Forfeit { side, reason } => format!("{side:?} forfeits: {reason}"),
    };
    writeln!(
        output,
        "[{}/{}] game {} (opening {}): {} - {}  {}  ({}, {} plies)",
        progress.done,
        progress.total,
        record.id,
        record.opening,
        record.names[0],
        record.names[1],
        record.result.as_str(),
        why,
        record.plies
    )
}

/// Limits from optional depth, time and node values; `flag` prefixes the names in errors.
fn limits(
    depth: Option<u32>,
    time: Option<u64>,
    nodes: Option<u64>,
    flag: &str,
) -> Result<SearchLimits, CliError> {
    let mut limits = SearchLimits::default();
    if let Some(depth) = depth {
        limits.depth = Some(check_depth(depth)?);
    }
    if let Some(ms) = time {
        if ms == 0 {
            return Err(CliError::Invalid(format!(
                "bad {flag}time 0: expected milliseconds >= 1"
            )));
        }
        limits.time = Some(Duration::from_millis(ms));
    }
    if let Some(nodes) = nodes {
        if nodes == 0 {
            return Err(CliError::Invalid(format!(
                "bad {flag}nodes 0: expected >= 1"
            )));
        }
        limits.nodes = Some(nodes);
    }
    Ok(limits)
}

/// `depth 4`, `100 ms`, `depth 6, 5000 nodes`.
fn describe(limits: &SearchLimits) -> String {
    let mut parts = Vec::new();
    if let Some(depth) = limits.depth {
        parts.push(format!("depth {depth}"));
    }
    if let Some(nodes) = limits.nodes {
        parts.push(format!("{nodes} nodes"));
    }
    if let Some(time) = limits.time {
        parts.push(format!("{} ms", time.as_millis()));
    }
    parts.join(", ")
}

/// The engines of the `--engine` specs, checked (names made unique with `#2`, `#3`…).
fn engines<G: Notation>(spec: &GameCli<G>, specs: &[String]) -> Result<Vec<Engine<G>>, CliError> {
    if specs.len() < 2 {
        return Err(CliError::Invalid(
            "an arena needs at least two --engine".into(),
        ));
    }
    let mut engines: Vec<Engine<G>> = Vec::new();
    for (index, text) in specs.iter().enumerate() {
        let (name, own) = parse_engine(text)?;
        let mut shown = text.clone();
        let mut copy = 1;
        while engines.iter().any(|e| e.name == shown) {
            copy += 1;
            shown = format!("{text}#{copy}");
        }
        let engine = if name == "random" {
            let seed = index as u64;
            Engine::new(shown, move || -> Box<dyn Agent<G>> {
                Box::new(RandomAgent::new(seed))
            })
        } else {
            searcher_by_name::<G, _>(&name, (spec.evaluator)())
                .map_err(|e| CliError::Invalid(format!("bad --engine '{text}': {e}")))?;
            let evaluator = spec.evaluator.clone();
            Engine::new(shown, move || -> Box<dyn Agent<G>> {
                let searcher =
                    searcher_by_name(&name, evaluator()).expect("engine name checked before");
                Box::new(match &own {
                    Some(limits) => SearchAgent::with_limits(searcher, limits.clone()),
                    None => SearchAgent::new(searcher),
                })
            })
        };
        engines.push(engine);
    }
    Ok(engines)
}

/// `name[:depth=D][:nodes=N][:time=MS]` -> the lowercased name and its own limits, if any.
fn parse_engine(text: &str) -> Result<(String, Option<SearchLimits>), CliError> {
    let mut parts = text.split(':');
    let name = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
    if name.is_empty() {
        return Err(CliError::Invalid(format!(
            "bad --engine '{text}': no searcher name"
        )));
    }
    let (mut depth, mut time, mut nodes) = (None, None, None);
    let mut any = false;
    for part in parts {
        let bad = |why: &str| CliError::Invalid(format!("bad --engine '{text}': '{part}' {why}"));
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| bad("is not key=value (depth=, nodes=, time=)"))?;
        let number: u64 = value
            .trim()
            .parse()
            .map_err(|_| bad("needs a whole number"))?;
        match key.trim() {
            "depth" => depth = Some(u32::try_from(number).map_err(|_| bad("is too deep"))?),
            "time" => time = Some(number),
            "nodes" => nodes = Some(number),
            _ => return Err(bad("has an unknown key (depth, nodes, time)")),
        }
        any = true;
    }
    if name == "random" && any {
        return Err(CliError::Invalid(format!(
            "bad --engine '{text}': random takes no limit"
        )));
    }
    let own = if any {
        Some(limits(depth, time, nodes, &format!("--engine '{text}' "))?)
    } else {
        None
    };
    Ok((name, own))
}

/// The openings: from `--openings-file`, or seeded random walks from the start position.
fn openings<G: Notation>(args: &ArenaArgs) -> Result<Vec<G>, CliError> {
    let wanted = match (args.openings, args.games) {
        (Some(0), _) => return Err(CliError::Invalid("bad --openings 0: expected >= 1".into())),
        (_, Some(0)) => return Err(CliError::Invalid("bad --games 0: expected >= 1".into())),
        (Some(n), _) => Some(n),
        (None, Some(games)) => Some(games.div_ceil(2)),
        (None, None) => None,
    };
    if let Some(path) = &args.openings_file {
        let text = std::fs::read_to_string(path).map_err(|e| {
            CliError::Invalid(format!(
                "cannot read --openings-file {}: {e}",
                path.display()
            ))
        })?;
        let mut openings = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let position = G::parse_position(line).map_err(|e| {
                CliError::Invalid(format!("{} line {}: {e}", path.display(), number + 1))
            })?;
            if position.outcome().is_some() {
                return Err(CliError::Invalid(format!(
                    "{} line {}: the game is already over",
                    path.display(),
                    number + 1
                )));
            }
            openings.push(position);
        }
        if let Some(n) = wanted {
            openings.truncate(n);
        }
        if openings.is_empty() {
            return Err(CliError::Invalid(format!(
                "{} holds no position",
                path.display()
            )));
        }
        return Ok(openings);
    }
    let start: G = start_position(&args.start)?;
    if start.outcome().is_some() {
        return Err(CliError::Invalid(
            "no openings: the start position is over".into(),
        ));
    }
    let count = wanted.unwrap_or(10);
    let openings = random_openings(&start, args.seed, count, args.opening_plies);
    if openings.is_empty() {
        return Err(CliError::Invalid(format!(
            "no openings: every {}-ply walk from the start ends the game",
            args.opening_plies
        )));
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{last_json, run_invalid, run_ok};

    #[test]
    fn a_match_prints_each_game_and_the_table() {
        let out = run_ok("arena --engine alphabeta --engine random --openings 3 --depth 4 --json");
        assert_eq!(
            out.lines().filter(|l| l.starts_with('[')).count(),
            6,
            "{out}"
        );
        assert!(out.contains("[6/6]"), "{out}");
        assert!(out.contains("Elo [95% interval]"), "{out}");
        let json = last_json(&out);
        assert_eq!(json["games"], 6);
        assert_eq!(json["engines"][0]["name"], "alphabeta");
        let wins = json["engines"][0]["wins"].as_u64().unwrap();
        let losses = json["engines"][1]["losses"].as_u64().unwrap();
        assert_eq!(wins, losses);
    }

    #[test]
    fn fixed_depth_matches_repeat_and_concurrency_does_not_matter() {
        let args = "arena -e pvs -e alphabeta:depth=2 -e random --games 4 --depth 3 --json";
        let games = |out: &str| -> Vec<String> {
            let mut lines: Vec<String> = out
                .lines()
                .filter(|l| l.starts_with('['))
                .map(|l| l.split_once(']').unwrap().1.to_string())
                .collect();
            lines.sort();
            lines
        };
        let one = run_ok(&format!("{args} --concurrency 1"));
        let two = run_ok(&format!("{args} --concurrency 2"));
        assert_eq!(games(&one), games(&two));
        assert_eq!(last_json(&one), last_json(&two));
        assert!(one.contains("pairings"), "a round robin of three: {one}");
    }

    #[test]
    fn bad_engines_and_limits_are_one_line_errors() {
        assert!(run_invalid("arena -e pvs -e nonsense --depth 2").contains("nonsense"));
        assert!(run_invalid("arena -e pvs -e pvs:depth --depth 2").contains("pvs:depth"));
        assert!(run_invalid("arena -e pvs -e pvs:speed=3 --depth 2").contains("speed"));
        assert!(run_invalid("arena -e pvs --depth 2").contains("two"));
        assert!(run_invalid("arena -e pvs -e random:depth=2 --depth 2").contains("random"));
        assert!(run_invalid("arena -e pvs -e random --time 0").contains("--time"));
        assert!(run_invalid("arena -e pvs -e random --depth 2 --games 0").contains("--games"));
        assert!(
            run_invalid("arena -e pvs -e random --depth 2 --concurrency 0").contains("concurrency")
        );
    }

    #[test]
    fn a_results_file_resumes_without_repeating_games() {
        let path =
            std::env::temp_dir().join(format!("plies-cli-arena-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let file = path.display();
        let full = run_ok(&format!(
            "arena -e alphabeta -e random --openings 3 --depth 3 --results {file} --json"
        ));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 6);
        // Keep only the first two games, as if the run had been killed, and resume.
        let kept: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
        std::fs::write(&path, kept).unwrap();
        let resumed = run_ok(&format!(
            "arena -e alphabeta -e random --openings 3 --depth 3 --results {file} --json"
        ));
        assert!(resumed.contains("2 already played"), "{resumed}");
        assert_eq!(resumed.lines().filter(|l| l.starts_with('[')).count(), 4);
        assert_eq!(last_json(&full), last_json(&resumed));
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 6);
        // Another match cannot resume from this file.
        let err = run_invalid(&format!(
            "arena -e pvs -e random --openings 3 --depth 3 --results {file}"
        ));
        assert!(err.contains("cannot resume"), "{err}");
        let _ = std::fs::remove_file(&path);
    }
}
