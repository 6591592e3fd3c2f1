//! `store stats|export|import|prune`: the position store as a whole.
//!
//! Key invariant: `import` checks every line of its file before it writes any (a bad line is
//! an error naming its number, and nothing is imported), then writes them all in one
//! transaction; `export` writes one analysis per line in the format `import` reads, so
//! exporting a store and importing the file into an empty one gives the same analyses.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use plies::Notation;

use super::db::schema_version;
use super::record::AnalysisLine;
use super::{StoreArgs, StoreError};
use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::tables::ByteSize;

/// `store`.
#[derive(Args, Debug)]
pub(crate) struct StoreCommandArgs {
    #[command(subcommand)]
    pub command: StoreCommand,
}

/// The `store` subcommands.
#[derive(Subcommand, Debug)]
pub(crate) enum StoreCommand {
    /// Count the analyses (of this game, of every game) and the positions, and show the size.
    Stats(StatsArgs),
    /// Write this game's analyses (or with --games its recorded games) as JSON lines, one a
    /// line, to FILE (replaced atomically) or to stdout.
    Export(ExportArgs),
    /// Read analyses written by `store export`: every line is checked first (a bad one is named
    /// by its number and nothing is imported), then all are written, each kept only where it
    /// is deeper (or as deep and newer) than the store's.
    Import(ImportArgs),
    /// Remove analyses, the shallowest first (the oldest first among as deep), until the store
    /// takes at most --max-size.
    Prune(PruneArgs),
}

/// `store stats`.
#[derive(Args, Debug)]
pub(crate) struct StatsArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// Also run SQLite's integrity check (reads the whole file).
    #[arg(long)]
    pub check: bool,
    /// End with one JSON line: path, size, limit, schema, analyses, positions, all, games,
    /// recorded_games (and check).
    #[arg(long)]
    pub json: bool,
}

/// `store export`.
#[derive(Args, Debug)]
pub(crate) struct ExportArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// The file to write (default: stdout).
    pub file: Option<PathBuf>,
    /// Write this game's recorded games instead (one JSON object a line: game, variant, start,
    /// first, second, settings, result, termination, moves, source, played).
    #[arg(long)]
    pub games: bool,
}

/// `store import`.
#[derive(Args, Debug)]
pub(crate) struct ImportArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// The JSON-lines file to read (at most 1 GB).
    pub file: PathBuf,
}

/// `store prune`.
#[derive(Args, Debug)]
pub(crate) struct PruneArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// The most the store may take afterwards (default: --store-limit). Bytes, or with K, M, G
    /// or T (powers of 1024).
    #[arg(long, value_name = "SIZE", value_parser = clap::value_parser!(ByteSize))]
    pub max_size: Option<ByteSize>,
}

/// Runs `store`.
pub(crate) fn run<G: Notation>(
    spec: &GameCli<G>,
    args: &StoreCommandArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    match &args.command {
        StoreCommand::Stats(args) => stats(spec.name, args, output),
        StoreCommand::Export(args) => export(spec.name, args, output),
        StoreCommand::Import(args) => import::<G>(spec.name, args, output),
        StoreCommand::Prune(args) => prune(args, output),
    }
}

/// `store stats`.
fn stats(game: &str, args: &StatsArgs, output: &mut dyn Write) -> Result<(), CliError> {
    let store = args.store.open_named()?;
    let stats = store.stats(game)?;
    let check = if args.check {
        Some(store.check()?)
    } else {
        None
    };
    let mine = stats
        .games
        .iter()
        .find(|(name, _)| name == game)
        .map_or(0, |(_, count)| *count);
    let all: u64 = stats.games.iter().map(|(_, count)| count).sum();
    let recorded = store.game_count(game)?;
    writeln!(
        output,
        "store {}: {} bytes (limit {}), schema version {}",
        store.path().display(),
        stats.size,
        args.store.store_limit,
        schema_version()
    )?;
    writeln!(
        output,
        "{game}: {mine} analyses of {} positions, {recorded} recorded games",
        stats.positions
    )?;
    let games: Vec<String> = stats
        .games
        .iter()
        .map(|(name, count)| format!("{name} {count}"))
        .collect();
    writeln!(
        output,
        "every game: {all} analyses ({})",
        if games.is_empty() {
            "none".to_string()
        } else {
            games.join(", ")
        }
    )?;
    if let Some(check) = &check {
        writeln!(output, "integrity check: {check}")?;
    }
    if args.json {
        let mut line = serde_json::json!({
            "path": store.path().display().to_string(),
            "size": stats.size,
            "limit": args.store.store_limit.0,
            "schema": schema_version(),
            "analyses": mine,
            "positions": stats.positions,
            "all": all,
            "recorded_games": recorded,
            "games": stats.games.iter().map(|(name, count)| (name.clone(), serde_json::Value::from(*count)))
                .collect::<serde_json::Map<String, serde_json::Value>>(),
        });
        if let Some(check) = check {
            line["check"] = check.into();
        }
        writeln!(output, "{line}")?;
    }
    Ok(())
}

/// `store export`.
fn export(game: &str, args: &ExportArgs, output: &mut dyn Write) -> Result<(), CliError> {
    let store = args.store.open_named()?;
    if args.games {
        return export_games(&store, game, args, output);
    }
    let analyses = store.all(game)?;
    let mut text = String::new();
    for analysis in &analyses {
        let line = serde_json::to_string(&AnalysisLine::from(analysis))
            .map_err(|e| CliError::Invalid(format!("store export: {e}")))?;
        text.push_str(&line);
        text.push('\n');
    }
    match &args.file {
        Some(path) => {
            crate::files::write_atomic(path, text.as_bytes())
                .map_err(|e| CliError::Invalid(e.of("export file")))?;
            writeln!(
                output,
                "exported {} analyses of {game} to {}",
                analyses.len(),
                path.display()
            )?;
        }
        None => output.write_all(text.as_bytes())?,
    }
    Ok(())
}

/// `store export --games`.
fn export_games(
    store: &super::Store,
    game: &str,
    args: &ExportArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let games = store.games(game)?;
    let mut text = String::new();
    for row in &games {
        text.push_str(&super::games::game_json(row).to_string());
        text.push('\n');
    }
    match &args.file {
        Some(path) => {
            crate::files::write_atomic(path, text.as_bytes())
                .map_err(|e| CliError::Invalid(e.of("export file")))?;
            writeln!(
                output,
                "exported {} games of {game} to {}",
                games.len(),
                path.display()
            )?;
        }
        None => output.write_all(text.as_bytes())?,
    }
    Ok(())
}

/// `store import`.
fn import<G: Notation>(
    game: &str,
    args: &ImportArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let path = &args.file;
    let text = crate::files::read_text(path, crate::files::RESULTS_LIMIT)
        .map_err(|e| CliError::Invalid(e.of("import file")))?;
    let mut analyses = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |reason: String| {
            CliError::Invalid(format!(
                "import file {} line {}: {reason}",
                path.display(),
                index + 1
            ))
        };
        let parsed: AnalysisLine =
            serde_json::from_str(line).map_err(|e| bad(format!("not an analysis: {e}")))?;
        analyses.push(parsed.check::<G>(game).map_err(bad)?);
    }
    let mut store = args.store.open_named()?;
    let size = store.size();
    if size >= store.limit() {
        return Err(CliError::Invalid(format!(
            "store {} holds {size} bytes, at or over its limit of {} (--store-limit): nothing \
             imported; `store prune` makes room",
            store.path().display(),
            args.store.store_limit
        )));
    }
    let written = store.put_all(&analyses)?;
    writeln!(
        output,
        "imported {} analyses from {}: {written} written, {} kept as they were (the store's \
         were deeper, or as deep and newer)",
        analyses.len(),
        path.display(),
        analyses.len() as u64 - written
    )?;
    Ok(())
}

/// `store prune`.
fn prune(args: &PruneArgs, output: &mut dyn Write) -> Result<(), CliError> {
    let mut store = args.store.open_named()?;
    let max = args.max_size.unwrap_or(args.store.store_limit);
    let pruned = store.prune(max.0)?;
    writeln!(
        output,
        "pruned store {}: removed {} analyses (the shallowest first), {} left; {} bytes before, \
         {} after (at most {max})",
        store.path().display(),
        pruned.removed,
        pruned.left,
        pruned.before,
        pruned.after
    )?;
    if pruned.after > max.0 {
        return Err(StoreError::TooSmall {
            path: store.path().to_path_buf(),
            size: pruned.after,
            max: max.0,
        }
        .into());
    }
    Ok(())
}
