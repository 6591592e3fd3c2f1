//! `arena`: a match (two engines) or round robin (more) over seeded random openings or an
//! openings file, each opening played twice with colours swapped; one line per finished game,
//! then the results table with Elo and its 95% interval; while it runs, a progress bar on stderr
//! when stderr is a terminal (never with `--json`).
//!
//! Key invariants: every engine spec and every opening is checked before the first game, so bad
//! input is a one-line error and never a panic in a worker; with `--depth` or `--nodes` the games
//! are the same every run (any `--concurrency`); with `--results FILE` every finished game is
//! appended to FILE at once and a rerun with the same arguments plays only the missing games;
//! with `--sprt` the match stops once the test decides (games in progress finish and count);
//! with `--store FILE` every finished game is also recorded in that position store (after the
//! results file took it: a store that fails is a warning, the results file is never lost).

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;
use serde_json::json;

mod progress;
mod setup;
#[cfg(test)]
mod tests;

use crate::arena::{
    Arena, ArenaConfig, GameRecord, Journal, Progress, Schedule, Sprt, SprtVerdict, Standings, Wdl,
};
use crate::engine::{describe, limits};
use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::position::PositionArgs;
use crate::store::recorder::{GameRecorder, RecordArgs, played_row};
use crate::tables::TablesArgs;
use plies::Notation;
use plies::search::SearchLimits;
use progress::{ProgressLine, Tally};
use setup::{SprtBounds, TimeControl, engines, openings, parse_sprt, parse_tc, sprt};

/// The most openings one arena plays (twice each): every game of a match is scheduled, and
/// journalled, up front.
const MAX_OPENINGS: usize = 100_000;

/// A count of 1..=`max`, for clap.
fn count(max: usize) -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
    move |text| {
        text.trim()
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| format!("expected a whole number 1..={max}"))
    }
}

/// `arena`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").required(true).multiple(true)
    .args(["depth", "time", "nodes", "tc"])))]
pub(crate) struct ArenaArgs {
    /// Where the random openings start (default the start position).
    #[command(flatten)]
    pub start: PositionArgs,
    /// An engine: a searcher name (minimax, alphabeta, pvs, a ladder rung such as pvs+tt, mcts) or
    /// `random`, optionally with its own limit: `pvs:depth=5`, `pvs:nodes=20000`,
    /// `pvs:time=50`, and options `threads=T`, `ponder=1`, `weights=FILE` (its evaluator's
    /// weights from a weights file, as `tune` writes), `tables=N|off` (its endgame tables),
    /// `book=FILE` (an opening book, `book build`: its moves are played, seeded by the game,
    /// where it has the position; books are off unless asked) and `book-pick=weighted|best`.
    /// Or an external engine process:
    /// `ugi:COMMAND` speaking UGI (settings before the command: `option.NAME=VALUE:`,
    /// `restart=move:`, `timeout=SECONDS:`), or a protocol of the game's own (tafl:
    /// `otep:COMMAND`, settings `timeout=SECONDS:`, `settle=MS:`, `retries=N:`, an illegal
    /// move asked again up to N times); plies judges its moves, and a crash, hang, garbage or
    /// illegal move loses that game. Give two for a match, more for a round robin.
    #[arg(long = "engine", short = 'e', required = true)]
    pub engines: Vec<String>,
    /// Number of openings (each played twice, colours swapped); default 10, at most 100000.
    #[arg(long, conflicts_with = "games", value_parser = count(MAX_OPENINGS))]
    pub openings: Option<usize>,
    /// Games per pairing (rounded up to an even number: openings = games / 2), at most 200000.
    #[arg(long, short = 'g', value_parser = count(2 * MAX_OPENINGS))]
    pub games: Option<usize>,
    /// Random moves from the start position to each opening.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Read the openings from a file instead, one position per line (blank lines and lines
    /// starting with # skipped); --openings/--games then take the first ones.
    #[arg(long)]
    pub openings_file: Option<PathBuf>,
    /// Random moves played after each --openings-file position (seeded by --seed). With N > 0
    /// the file's positions are used in turn, each time with another walk, until --openings
    /// (or --games / 2) openings are made, so a short file of deals feeds a long match.
    #[arg(long, default_value_t = 0, requires = "openings_file")]
    pub file_plies: u32,
    /// Milliseconds per move. minimax and alphabeta search one depth (--depth, default 4) and,
    /// stopped by the time before finishing it, play a fallback move.
    #[arg(long, short = 't', value_parser = clap::value_parser!(u64).range(1..=u64::MAX))]
    pub time: Option<u64>,
    /// A clock for each side, BASE+INC in seconds: `10+0.1` gives each side ten seconds and
    /// adds 0.1 s after each of its moves; a side whose move takes more than it has left loses
    /// on time. Engines budget each move from their clock (external ones are sent it). With
    /// --depth or --nodes both apply.
    #[arg(long, value_name = "BASE+INC", conflicts_with = "time", value_parser = parse_tc)]
    pub tc: Option<TimeControl>,
    /// Plies per move (1..=999). Not for mcts, which has no search depth.
    #[arg(long, short = 'd', value_parser = clap::value_parser!(u32).range(1..=crate::engine::MAX_DEPTH))]
    pub depth: Option<u32>,
    /// Positions per move.
    #[arg(long, short = 'n', value_parser = clap::value_parser!(u64).range(1..=u64::MAX))]
    pub nodes: Option<u64>,
    /// A game still running after this many plies is a draw (the arena's draw rule).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=i64::from(u32::MAX)))]
    pub max_plies: u32,
    /// Seed of the openings and of random engines.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at the same time (default: one per core).
    #[arg(long, short = 'c', value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=usize::MAX as u64))]
    pub concurrency: Option<usize>,
    /// Append each finished game to this JSON-lines file; rerun to resume a killed match.
    #[arg(long)]
    pub results: Option<PathBuf>,
    /// Stop a two-engine match once an SPRT (α = β = 0.05) decides between "the first engine is
    /// ELO0 stronger" and "it is ELO1 stronger", e.g. `--sprt 0,20` (games in progress finish).
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true, value_parser = parse_sprt)]
    pub sprt: Option<SprtBounds>,
    /// End with one JSON line: games, per-engine W/D/L, score and Elo with its interval (no
    /// progress bar then).
    #[arg(long)]
    pub json: bool,
    /// Draw no progress bar (it is drawn on stderr only when stderr is a terminal).
    #[arg(long)]
    pub no_progress: bool,
    #[command(flatten)]
    pub record: RecordArgs,
    /// Endgame tables for every searching engine (an engine's own `tables=N|off` overrides
    /// it), built when a game of a new deal starts, outside the clocks.
    #[command(flatten)]
    pub tables: TablesArgs,
}

/// Runs `arena`.
pub(super) fn run<G: Notation>(
    spec: &GameCli<G>,
    args: &ArenaArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let limits = limits(args.depth, args.time, args.nodes, "--")?;
    let clock = args.tc.as_ref().map(|tc| tc.clock);
    let engines = engines(spec, &args.engines, &limits, &args.tables)?;
    let openings = openings::<G>(args)?;
    let schedule = if engines.len() == 2 {
        Schedule::head_to_head(openings.len())
    } else {
        Schedule::round_robin(engines.len(), openings.len())
    };
    let workers = args
        .concurrency
        .unwrap_or_else(ArenaConfig::default_workers);
    let sprt = args
        .sprt
        .map(|bounds| sprt(bounds, engines.len()))
        .transpose()?;
    let stop = Arc::new(AtomicBool::new(false));
    let config = ArenaConfig {
        limits: limits.clone(),
        clock,
        max_plies: args.max_plies,
        workers,
        seed: args.seed,
        stop: Some(Arc::clone(&stop)),
    };
    let opening_texts: Vec<String> = openings.iter().map(G::format_position).collect();
    let arena = Arena::new(engines, openings, config).with_notation();
    let names = arena.names();
    let (mut journal, done) = match &args.results {
        Some(path) => {
            let (journal, done) = resume(path, &schedule, &names, &opening_texts)?;
            (Some(journal), done)
        }
        None => (None, Vec::new()),
    };
    let header = Header {
        names: &names,
        openings: arena.openings().len(),
        games: schedule.len(),
        already_played: done.len(),
        limits: limits_text(args.tc.as_ref(), &limits),
        max_plies: args.max_plies,
        workers,
    };
    writeln!(output, "{header}")?;
    let mut recorder = GameRecorder::open(&args.record)?;
    let settings = format!(
        "{}, cap {} plies",
        limits_text(args.tc.as_ref(), &limits),
        args.max_plies
    );
    let mut failure: Option<CliError> = None;
    let mut bar = ProgressLine::new(
        schedule.len(),
        done.len(),
        Tally::new(&names, &done),
        args.json,
        args.no_progress,
    );
    // The first engine's results so far, and the first decisive verdict (games in progress
    // then still finish and count in the table).
    let (mut first, mut decided) = resumed_sprt(sprt.as_ref(), &done);
    if decided.is_some() {
        stop.store(true, Ordering::Relaxed);
    }
    let mut on_game = |record: &GameRecord, progress: Progress| {
        if failure.is_some() {
            return;
        }
        if let Some(journal) = journal.as_mut()
            && let Err(e) = journal.append(record)
        {
            failure = Some(CliError::Invalid(format!(
                "cannot write {}: {e}",
                journal.path().display()
            )));
            stop.store(true, Ordering::Relaxed);
            return;
        }
        if let Some(recorder) = recorder.as_mut() {
            let start = record
                .opening_position
                .clone()
                .or_else(|| opening_texts.get(record.opening).cloned())
                .unwrap_or_default();
            let row = played_row(spec.name, record, start, &settings, "arena");
            if let Some(warning) = recorder.record::<G>(&row, &format!("game {}", record.id)) {
                bar.suspend(|| eprintln!("{warning}"));
            }
        }
        first.add(record.wdl_for(0));
        let llr = sprt.map(|test| test.llr(first));
        if let (Some(test), None, Some(llr)) = (&sprt, decided, llr) {
            let verdict = test.verdict(first);
            if verdict != SprtVerdict::Continue {
                decided = Some((verdict, first.games(), llr));
                stop.store(true, Ordering::Relaxed);
            }
        }
        bar.game(record, progress.done);
        if let Err(e) = bar.suspend(|| game_line(record, progress, llr, output)) {
            failure = Some(e.into());
            stop.store(true, Ordering::Relaxed);
        }
    };
    let records = arena.run(&schedule, &done, &mut on_game);
    bar.finish();
    if let Some(err) = failure {
        return Err(err);
    }
    let standings = Standings::new(&names, &records);
    write_results(&standings, sprt.as_ref(), first, decided, args.json, output)
}

/// The line `arena` starts with: who plays, how many games, under which limits.
struct Header<'a> {
    names: &'a [String],
    openings: usize,
    games: usize,
    already_played: usize,
    limits: String,
    max_plies: u32,
    workers: usize,
}

impl std::fmt::Display for Header<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "arena: {} | {} openings x 2 colours = {} games",
            self.names.join(" vs "),
            self.openings,
            self.games
        )?;
        if self.already_played > 0 {
            write!(f, " ({} already played)", self.already_played)?;
        }
        write!(
            f,
            " | {} | cap {} plies | {} at a time",
            self.limits, self.max_plies, self.workers
        )
    }
}

/// Writes the results table, the SPRT line when a test ran, and with `--json` the JSON line.
fn write_results(
    standings: &Standings,
    sprt: Option<&Sprt>,
    first: Wdl,
    decided: Option<Decision>,
    json: bool,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    write!(output, "{}", standings.table())?;
    if let Some(test) = sprt {
        writeln!(output, "{}", sprt_line(test, first, decided))?;
    }
    if json {
        writeln!(output, "{}", json_line(standings, sprt, first, decided))?;
    }
    Ok(())
}

/// The limits of the summary line: `clock 10+0.1, 5000 nodes per move`, `depth 4 per move`.
fn limits_text(tc: Option<&TimeControl>, limits: &SearchLimits) -> String {
    match (tc, describe(limits)) {
        (Some(tc), per_move) if per_move.is_empty() => format!("clock {}", tc.text),
        (Some(tc), per_move) => format!("clock {}, {per_move} per move", tc.text),
        (None, per_move) => format!("{per_move} per move"),
    }
}

/// The first engine's results in the games `done` already, and the SPRT's decision on them
/// (a resumed match may be decided already).
fn resumed_sprt(sprt: Option<&Sprt>, done: &[GameRecord]) -> (Wdl, Option<Decision>) {
    let mut first = Wdl::default();
    for record in done {
        first.add(record.wdl_for(0));
    }
    let decided = sprt.and_then(|test| {
        let verdict = test.verdict(first);
        (verdict != SprtVerdict::Continue).then(|| (verdict, first.games(), test.llr(first)))
    });
    (first, decided)
}

/// The results file `path` of a match to resume: its journal and the games it holds, checked
/// against the schedule, the engines' names and the openings.
fn resume(
    path: &std::path::Path,
    schedule: &Schedule,
    names: &[String],
    opening_texts: &[String],
) -> Result<(Journal, Vec<GameRecord>), CliError> {
    let (journal, done) = Journal::open(path).map_err(|e| CliError::Invalid(e.to_string()))?;
    Journal::check(&done, schedule, names, Some(opening_texts))
        .map_err(|e| CliError::Invalid(format!("cannot resume {}: {e}", path.display())))?;
    Ok((journal, done))
}

/// A decisive SPRT verdict with the games and the LLR it came at.
type Decision = (SprtVerdict, u64, f64);

/// The SPRT's line after the table: bounds, verdict, games and LLR (the decision's, once
/// decided; else the LLR of the first engine's results `first`).
fn sprt_line(test: &Sprt, first: Wdl, decided: Option<Decision>) -> String {
    let (verdict, decided_after, llr) =
        decided.unwrap_or((SprtVerdict::Continue, first.games(), test.llr(first)));
    let (lower, upper) = test.bounds();
    format!(
        "SPRT elo0 {} elo1 {} (alpha {}, beta {}): {} after {} games, LLR {:.2} (bounds {:.2}, {:.2})",
        test.elo0,
        test.elo1,
        test.alpha,
        test.beta,
        verdict_text(verdict),
        decided_after,
        llr,
        lower,
        upper
    )
}

/// The last line with `--json`: games, per-engine W/D/L, score and Elo, and the SPRT.
fn json_line(
    standings: &Standings,
    sprt: Option<&Sprt>,
    first: Wdl,
    decided: Option<Decision>,
) -> serde_json::Value {
    let verdict = decided.map_or(SprtVerdict::Continue, |(verdict, _, _)| verdict);
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
                "mean_ms": e.stats.mean_ms(),
                "mean_open_ms": e.stats.mean_open_ms(),
                "max_ms": 1e3 * e.stats.max_seconds,
            })
        })
        .collect();
    json!({
        "games": standings.games,
        "engines": engines,
        "first_wins": standings.first_wins,
        "second_wins": standings.second_wins,
        "draws": standings.draws,
        "ply_caps": standings.ply_caps,
        "forfeits": standings.forfeits,
        "time_losses": standings.time_losses,
        "sprt": sprt.map(|test| json!({
            "elo0": test.elo0,
            "elo1": test.elo1,
            "llr": test.llr(first),
            "verdict": verdict_text(verdict),
            "decided_after": decided.map(|(_, games, _)| games),
        })),
    })
}

/// One line per finished game: `[done/total] game id (opening o): first - second  result  why`.
fn game_line(
    record: &GameRecord,
    progress: Progress,
    llr: Option<f64>,
    output: &mut dyn Write,
) -> std::io::Result<()> {
    let why = record.termination.describe();
    writeln!(
        output,
        "[{}/{}] game {} (opening {}): {} - {}  {}  ({}, {} plies){}",
        progress.done,
        progress.total,
        record.id,
        record.opening,
        record.names[0],
        record.names[1],
        record.result.as_str(),
        why,
        record.plies,
        llr.map_or_else(String::new, |llr| format!("  LLR {llr:.2}"))
    )
}

/// `H1 accepted`, `H0 accepted` or `undecided`.
fn verdict_text(verdict: SprtVerdict) -> &'static str {
    match verdict {
        SprtVerdict::AcceptH1 => "H1 accepted",
        SprtVerdict::AcceptH0 => "H0 accepted",
        SprtVerdict::Continue => "undecided",
    }
}
