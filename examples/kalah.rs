//! The tutorial game Kalah with the same command line as every other game: `play` (against you
//! or engine against engine), `analyze`, `perft`, `bench` and `arena`.
//!
//! ```sh
//! cargo run --release --example kalah -- play                       # you are south, moving first
//! cargo run --release --example kalah -- play --human none --depth 6 # engine against engine
//! cargo run --release --example kalah -- analyze --depth 12
//! cargo run --release --example kalah -- --help
//! cargo run --release --example kalah -- solve --seeds 4 --tables 24  # Kalah(6,4) solved exactly
//! ```
//!
//! Key invariant: the game itself lives in the crate `plies-kalah` (`games/kalah`), written
//! against the public traits only; this file only hands it to the generic command line.
#![forbid(unsafe_code)]

use std::process::ExitCode;
use std::time::Instant;

use clap::{CommandFactory, FromArgMatches, Parser, ValueEnum};
use plies::Notation;
use plies_cli::{CliError, CommandContext, GameCli, GameCommand, evaluator, physical_memory};
use plies_kalah::solve::{MarginTables, search_bytes, solve_margin};
use plies_kalah::{CaptureRule, Kalah, StoreDifference};

/// `solve`: a Kalah position's exact result with best play, from margin tables of the endings
/// (every position with at most `--tables` seeds in the pits) and a search down to them.
#[derive(Parser, Debug)]
struct SolveArgs {
    /// Pits a side (the start position's, unless --position).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=8))]
    pits: u8,
    /// Seeds a pit at the start.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=16))]
    seeds: u8,
    /// The capture rule: `opposite` (plies' default: only when the opposite pit holds seeds) or
    /// `empty` (the empty capture variant).
    #[arg(long, value_enum, default_value_t = Capture::Opposite)]
    capture: Capture,
    /// Solve this position instead of the start (its text names its own capture rule).
    #[arg(long)]
    position: Option<String>,
    /// Tables of every position with at most this many seeds in the pits (about C(K+12,12)
    /// bytes on a 6-pit board: 20 seeds 0.23 GB, 24 1.25 GB, 28 5.6 GB).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u8).range(0..=100))]
    tables: u8,
    /// Threads building the tables.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// The search's transposition table: 2^BITS slots of 32 bytes.
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u8).range(10..=32))]
    tt_bits: u8,
}

/// The capture rule as `solve` names it.
#[derive(Copy, Clone, Debug, ValueEnum)]
enum Capture {
    Opposite,
    Empty,
}

/// The Kalah commands beside the generic ones.
const COMMANDS: &[GameCommand<Kalah>] = &[GameCommand {
    command: || SolveArgs::command().name("solve"),
    run: solve,
}];

/// The most memory this process has held so far, in MB (Linux `/proc/self/status`), if readable.
fn peak_memory() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn solve(context: CommandContext<'_, Kalah>) -> Result<(), CliError> {
    let args =
        SolveArgs::from_arg_matches(context.matches).map_err(|e| CliError::Usage(e.to_string()))?;
    let state = match &args.position {
        Some(text) => Kalah::parse_position(text).map_err(|e| CliError::Invalid(e.to_string()))?,
        None => {
            let capture = match args.capture {
                Capture::Opposite => CaptureRule::Opposite,
                Capture::Empty => CaptureRule::Empty,
            };
            Kalah::new(usize::from(args.pits), args.seeds)
                .map_err(CliError::Invalid)?
                .with_capture(capture)
        }
    };
    let pits = state.pits();
    let need = MarginTables::bytes_up_to(pits, usize::from(args.tables))
        + MarginTables::rows_bytes(pits, usize::from(args.tables))
        + search_bytes(u32::from(args.tt_bits));
    if let Some(have) = physical_memory()
        && need > have
    {
        return Err(CliError::Invalid(format!(
            "--tables {} and --tt-bits {} need {:.1} GB, more than this machine's {:.1} GB",
            args.tables,
            args.tt_bits,
            need as f64 / 1e9,
            have as f64 / 1e9
        )));
    }
    let out = context.output;
    writeln!(out, "position: {}", state.format_position())?;
    let start = Instant::now();
    let mut failed = None;
    let tables = MarginTables::build(
        state.pits(),
        state.capture_rule(),
        usize::from(args.tables),
        usize::from(args.threads),
        &mut |p| {
            let line = format!(
                "tables: {} seeds, {} layouts, {:.1} s, {:.1} MB in all",
                p.seeds,
                p.layouts,
                start.elapsed().as_secs_f64(),
                p.bytes as f64 / 1e6
            );
            if let Err(e) = writeln!(out, "{line}") {
                failed.get_or_insert(e);
            }
        },
    );
    if let Some(e) = failed {
        return Err(e.into());
    }
    let tables = tables.map_err(|e| CliError::Invalid(format!("--tables {}: {e}", args.tables)))?;
    let built = start.elapsed().as_secs_f64();
    let search = Instant::now();
    let mut failed = None;
    let solution = solve_margin(&state, &tables, u32::from(args.tt_bits), &mut |p| {
        let line = format!(
            "search: margin {}..={} (side to move, from here), {} nodes, {:.1} s",
            p.lower,
            p.upper,
            p.nodes,
            search.elapsed().as_secs_f64()
        );
        if let Err(e) = writeln!(out, "{line}") {
            failed.get_or_insert(e);
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    let solution =
        solution.map_err(|e| CliError::Invalid(format!("--tt-bits {}: {e}", args.tt_bits)))?;
    let searched = search.elapsed().as_secs_f64();
    let result = match solution.south_margin {
        m if m > 0 => format!("south (the first player) wins by {m}"),
        m if m < 0 => format!("north wins by {}", -m),
        _ => "a draw".to_string(),
    };
    writeln!(
        out,
        "result: {result} (final store difference {:+}, south's view); best move {}",
        solution.south_margin,
        solution
            .best
            .map_or("none".into(), |mv| state.format_move(mv)),
    )?;
    writeln!(
        out,
        "tables up to {} seeds: {:.2} GB, {built:.1} s; search: {} nodes, {} table hits, \
         {searched:.1} s; peak resident {}",
        tables.max_seeds(),
        tables.bytes() as f64 / 1e9,
        solution.nodes,
        solution.table_hits,
        peak_memory().map_or("unknown".into(), |mb| format!("{mb:.0} MB")),
    )?;
    Ok(())
}

/// The start position and the position after south's extra-turn opening (third pit), searched to [`BENCH_DEPTH`] by `bench`.
const BENCH_POSITIONS: &[&str] = &[
    "4,4,4,4,4,4|0 4,4,4,4,4,4|0 s",
    "4,4,0,5,5,5|1 4,4,4,4,4,4|0 s",
];

/// Depth of each bench search.
const BENCH_DEPTH: u32 = 8;

fn main() -> ExitCode {
    plies_cli::main(GameCli::<Kalah> {
        bench_positions: BENCH_POSITIONS,
        bench_depth: BENCH_DEPTH,
        commands: COMMANDS,
        ..GameCli::new("kalah", evaluator(StoreDifference::default()))
    })
}
