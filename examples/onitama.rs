//! The Onitama bot: perft, analysis, terminal play and bench through the generic command line.
//!
//! ```sh
//! cargo run --release --example onitama -- play
//! cargo run --release --example onitama -- analyze --position "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon" --depth 10
//! cargo run --release --example onitama -- perft --position "bbBbb/5/5/5/rrRrr r ox,boar horse,elephant crab" --depth 5
//! cargo run --release --example onitama -- bench          # the eight deals to depth 10
//! cargo run --release --example onitama -- bench --full   # depths 8/10/12/14 and the sample proof
//! cargo run --release --example onitama -- tables --pieces 5 --tables-dir tables
//! cargo run --release --example onitama -- tables --pieces 5 --cache   # for analyze --tables 5
//! ```
//!
//! `tables` builds the endgame tables of the deal of `--position` (default: the start
//! position's) up to `--pieces N` pieces, masters included, reading and writing `--tables-dir`
//! when given (or, with `--cache`, the tables cache `analyze` and the others read), and
//! reports each material's time, the positions solved per second and the memory the tables
//! take.
//!
//! Key invariant: the bench positions, depths and node signatures come from
//! `plies_onitama::bench` (one place); a bench whose counts differ from them fails.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{CommandFactory, FromArgMatches, Parser};
use plies::Notation;
use plies_cli::{
    CliError, CommandContext, EndgameTables, GameCli, GameCommand, lock_key_dir, tunable_evaluator,
};
use plies_onitama::tables::{
    BuildEvent, BuildOptions, DISTANCE_PIECES, DealTables, build_for, deal_key, files_for,
    set_positions,
};
use plies_onitama::{BENCH_DEALS, BENCH_DEPTH, BENCH_SUITE, Onitama, PstEvaluator};

/// Build the endgame tables of a position's deal and report time, rate and memory.
#[derive(Parser, Debug)]
struct TablesArgs {
    /// The position whose five cards are dealt (default: the start position).
    #[arg(long)]
    position: Option<String>,
    /// The most pieces, masters included (2 to 10).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(2..=10))]
    pieces: u8,
    /// Read tables from this directory when there, write them there once built.
    #[arg(long, value_name = "DIR")]
    tables_dir: Option<PathBuf>,
    /// Read and write the tables cache the other commands use instead: the deal's directory in
    /// the user's cache directory, or in --tables-dir (locked while building).
    #[arg(long)]
    cache: bool,
    /// Threads to build with.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// The most students a side (with --pieces 6 and 2: the materials of at most two students
    /// a side).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(0..=4))]
    max_side: u8,
    /// Build with the reference solver (move counting), the one the fast solver is checked
    /// and measured against (distances everywhere).
    #[arg(long)]
    reference: bool,
    /// The most pieces whose tables keep distances (win in N plies); larger materials keep
    /// win, draw or loss only: a quarter of the memory, built faster.
    #[arg(long, default_value_t = DISTANCE_PIECES, value_parser = clap::value_parser!(u8).range(2..=10))]
    distances: u8,
    /// Print how many positions each step of the solvers decides (a line per step).
    #[arg(long)]
    steps: bool,
    /// Print, per material and in all, the positions indexed, holes, terminal, counted, won,
    /// lost and drawn (red to move) and the longest win and loss, for comparing with other
    /// generators' counts.
    #[arg(long)]
    stats: bool,
}

/// The most memory this process has held so far, in MB (Linux `/proc/self/status`), if readable.
fn peak_memory() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// The tables `analyze`, `play`, the arena and `ugi` build for a position's deal (`--tables N`,
/// `--tables-dir DIR`): four pieces by default, about two seconds on two threads.
const TABLES: EndgameTables<Onitama> = EndgameTables {
    default_pieces: 4,
    pieces: (2, 10),
    key: deal_key,
    build: build_for,
    files: files_for,
    sets: Some(set_positions),
};

/// The Onitama commands beside the generic ones.
const COMMANDS: &[GameCommand<Onitama>] = &[GameCommand {
    command: || TablesArgs::command().name("tables"),
    run: tables,
}];

fn tables(context: CommandContext<'_, Onitama>) -> Result<(), CliError> {
    let args = TablesArgs::from_arg_matches(context.matches)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let position = match &args.position {
        Some(text) => {
            Onitama::parse_position(text).map_err(|e| CliError::Invalid(e.to_string()))?
        }
        None => Onitama::start_position(),
    };
    let locked = if args.cache {
        let locked = lock_key_dir("onitama", args.tables_dir.as_deref(), &deal_key(&position))
            .map_err(|e| CliError::Invalid(e.to_string()))?;
        writeln!(context.output, "tables cache: {}", locked.path().display())?;
        Some(locked)
    } else {
        None
    };
    let dir = match &locked {
        Some(locked) => Some(locked.path()),
        None => args.tables_dir.as_deref(),
    };
    let out = context.output;
    let start = Instant::now();
    let mut failed = None;
    let options = BuildOptions {
        pieces: args.pieces,
        max_side: args.max_side,
        threads: usize::from(args.threads),
        reference: args.reference,
        distances: args.distances,
    };
    let built = DealTables::build_with(position.deal(), &options, dir, &mut |event| {
        let line = match event {
            BuildEvent::Loaded { students: [r, b] } => {
                format!("{r}+{b} students: read from the directory")
            }
            BuildEvent::Rejected { file, why } => {
                format!("{}: {why}; building it again", file.display())
            }
            BuildEvent::NotSaved { file, why } => {
                format!("{}: not written: {why}", file.display())
            }
            BuildEvent::Solved {
                students: [r, b],
                positions,
                time,
            } => format!(
                "{r}+{b} students{}: {positions} positions in {:.2} s ({:.1} M/s)",
                if r == b {
                    String::new()
                } else {
                    format!(" and {b}+{r}")
                },
                time.as_secs_f64(),
                positions as f64 / time.as_secs_f64().max(1e-9) / 1e6
            ),
            BuildEvent::Step {
                students,
                plies,
                decided,
            } if args.steps => {
                format!("  {students:?} step {plies}: {decided}")
            }
            BuildEvent::Step { .. } => return,
        };
        if let Err(e) = writeln!(out, "{line}") {
            failed.get_or_insert(e);
        }
    })
    .map_err(|e| CliError::Invalid(e.to_string()))?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    let seconds = start.elapsed().as_secs_f64();
    let positions = built.positions();
    writeln!(
        out,
        "{} pieces: {positions} positions ({} with either side to move), {seconds:.2} s, \
         {:.1} M positions/s, {:.1} MB of tables{}",
        built.pieces(),
        positions * 2,
        positions as f64 / seconds.max(1e-9) / 1e6,
        built.bytes() as f64 / 1e6,
        peak_memory().map_or(String::new(), |mb| format!(", peak resident {mb:.0} MB"))
    )?;
    if args.stats {
        write_stats(out, &built)?;
    }
    Ok(())
}

/// The counts of `--stats`: a header naming the deal and what is counted, one line per
/// material, then `all`.
fn write_stats(out: &mut dyn std::io::Write, tables: &DealTables) -> std::io::Result<()> {
    let names = |deal: [plies_onitama::Card; 5]| {
        let names: Vec<&str> = deal.iter().map(|c| c.name()).collect();
        names.join(",").to_lowercase()
    };
    writeln!(
        out,
        "# deal {} (tables of the canonical set {}); positions with red to move (each also a blue-to-move position, counted \
         once); holes: both masters on the enemy temples; terminal: one master there (not in \
         won or lost); won/lost/drawn for the side to move; distances in plies",
        names(tables.deal()),
        names(tables.canonical())
    )?;
    writeln!(
        out,
        "material indexed holes terminal counted won lost drawn longest_win longest_loss"
    )?;
    let stats = tables.stats();
    let last = stats.len().saturating_sub(1);
    for (i, s) in stats.iter().enumerate() {
        let material = if i == last {
            "all".to_string()
        } else {
            format!("{}v{}", s.students[0], s.students[1])
        };
        writeln!(
            out,
            "{material} {} {} {} {} {} {} {} {} {}",
            s.indexed,
            s.holes,
            s.terminal,
            s.counted,
            s.won,
            s.lost,
            s.drawn,
            s.longest_win,
            s.longest_loss
        )?;
    }
    Ok(())
}

fn main() -> ExitCode {
    plies_cli::main(GameCli::<Onitama> {
        bench_positions: &BENCH_DEALS,
        bench_depth: BENCH_DEPTH,
        bench: BENCH_SUITE,
        commands: COMMANDS,
        endgame_tables: Some(TABLES),
        ..GameCli::new("onitama", tunable_evaluator(PstEvaluator::tuned()))
    })
}
