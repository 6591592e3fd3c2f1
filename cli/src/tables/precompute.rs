//! `precompute`: the endgame tables of every set a game lists ([`EndgameTables::sets`]:
//! Onitama's 2,348 canonical card sets) built into one shared directory, a shard at a time (on
//! a cluster, one task of a job array each), for engines to read with `--tables-dir`.
//!
//! Each set's tables go to its key's directory (the layout of the tables cache), and its
//! `manifest.json` (set, key, pieces, and per file its name, size and checksum) is written
//! last; `verify` checks every file against it and names what is missing or damaged;
//! `manifest` writes `manifest.jsonl`, one line per set built, in set order.
//!
//! Key invariant: a set's manifest is renamed into place only once every file it lists is
//! whole, and a set is skipped only when its manifest lists the pieces asked for and every
//! file has its listed size. So a task killed at any point leaves each set either listed and
//! whole or unlisted (with at most `.part` files, replaced by the next build), and running a
//! shard again builds only what is missing.

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Instant;

use clap::{Args, Subcommand};
use plies::Notation;
use serde::{Deserialize, Serialize};

use super::cache::{ByteSize, TablesCache};
use crate::endgame::EndgameTables;
use crate::error::CliError;
use crate::game_cli::GameCli;

/// `precompute`.
#[derive(Args, Debug)]
pub(crate) struct PrecomputeArgs {
    #[command(subcommand)]
    pub command: PrecomputeCommand,
}

/// The `precompute` commands.
#[derive(Subcommand, Debug)]
pub(crate) enum PrecomputeCommand {
    /// Print the sets to precompute, one `index key` line each (the indices `--sets` takes).
    Sets,
    /// Build the tables of one shard's sets into a directory, skipping the sets built.
    Run(RunArgs),
    /// Check every set's files against its manifest; name each set missing or damaged (an
    /// error when there is one).
    Verify(CheckArgs),
    /// Write the directory's manifest.jsonl: one line per set built, in set order.
    Manifest(CheckArgs),
}

/// The directory, the pieces and the sets of `verify` and `manifest`.
#[derive(Args, Debug)]
pub(crate) struct CheckArgs {
    /// The shared tables directory (each set in its key's directory).
    #[arg(long)]
    pub dir: PathBuf,
    /// The most pieces of the tables.
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=32))]
    pub pieces: u8,
    /// The sets, as indices into `precompute sets` and ranges: `0-99,250` (default: all).
    #[arg(long)]
    pub sets: Option<SetList>,
}

/// `precompute run`.
#[derive(Args, Debug)]
pub(crate) struct RunArgs {
    #[command(flatten)]
    pub check: CheckArgs,
    /// `K/N`: build the K-th, (K+N)-th, ... of the sets (K from 0, as job-array indices).
    #[arg(long, default_value = "0/1")]
    pub shard: Shard,
    /// Threads to build with.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
}

/// `K/N`: the K-th of N shards.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Shard {
    index: usize,
    count: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("expected K/N with 0 <= K < N, got '{text}'");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// Set indices: single ones and ranges `A-B` (both included), comma separated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SetList(Vec<(usize, usize)>);

impl SetList {
    fn contains(&self, index: usize) -> bool {
        self.0.iter().any(|&(a, b)| (a..=b).contains(&index))
    }
}

impl FromStr for SetList {
    type Err = String;

    fn from_str(text: &str) -> Result<SetList, String> {
        let bad = |part: &str| format!("expected indices and ranges like 0-99,250, got '{part}'");
        let mut ranges = Vec::new();
        for part in text.split(',') {
            let part = part.trim();
            let (a, b) = part.split_once('-').unwrap_or((part, part));
            let a: usize = a.trim().parse().map_err(|_| bad(part))?;
            let b: usize = b.trim().parse().map_err(|_| bad(part))?;
            if a > b {
                return Err(bad(part));
            }
            ranges.push((a, b));
        }
        Ok(SetList(ranges))
    }
}

/// A set's manifest: what its directory holds once built.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
struct Manifest {
    set: usize,
    key: String,
    pieces: u8,
    files: Vec<FileEntry>,
}

/// One file of a set.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
struct FileEntry {
    file: String,
    bytes: u64,
    /// FNV-1a (64 bits) of the file's bytes, in hexadecimal.
    checksum: String,
}

/// What the manifest of a set's directory is named.
const MANIFEST: &str = "manifest.json";
/// The directory's list of every set built.
const LIST: &str = "manifest.jsonl";
/// The largest manifest read.
const MANIFEST_LIMIT: u64 = 1 << 20;

/// Runs `precompute`.
///
/// # Errors
/// The game has no sets to precompute, bad arguments, a set that cannot be built or written,
/// and for `verify` a set missing or damaged; one line.
pub(crate) fn run<G: Notation>(
    spec: &GameCli<G>,
    args: &PrecomputeArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let tables = spec.endgame_tables.as_ref();
    let (Some(tables), Some(sets)) = (tables, tables.and_then(|t| t.sets)) else {
        return Err(CliError::Invalid(format!(
            "{} has no endgame tables to precompute",
            spec.name
        )));
    };
    let sets = sets();
    let (low, high) = tables.pieces;
    let pieces = match &args.command {
        PrecomputeCommand::Sets => None,
        PrecomputeCommand::Run(run) => Some(run.check.pieces),
        PrecomputeCommand::Verify(check) | PrecomputeCommand::Manifest(check) => Some(check.pieces),
    };
    if let Some(pieces) = pieces
        && !(low..=high).contains(&pieces)
    {
        return Err(CliError::Invalid(format!(
            "bad --pieces {pieces}: {} tables have {low} to {high} pieces",
            spec.name
        )));
    }
    match &args.command {
        PrecomputeCommand::Sets => {
            for (i, position) in sets.iter().enumerate() {
                writeln!(output, "{i} {}", (tables.key)(position))?;
            }
            Ok(())
        }
        PrecomputeCommand::Run(run) => build_shard(spec.name, tables, &sets, run, output),
        PrecomputeCommand::Verify(check) => {
            let (good, bad) = verify(tables, &sets, check, output)?;
            if bad > 0 {
                return Err(CliError::Invalid(format!(
                    "{bad} of {} sets missing or damaged in {}",
                    good + bad,
                    check.dir.display()
                )));
            }
            writeln!(output, "{good} sets built and whole")?;
            Ok(())
        }
        PrecomputeCommand::Manifest(check) => write_list(tables, &sets, check, output),
    }
}

/// The sets of `check` (all when none are named), with their indices.
fn chosen<'a, G>(sets: &'a [G], check: &CheckArgs) -> Result<Vec<(usize, &'a G)>, CliError> {
    if let Some(list) = &check.sets
        && let Some(&(_, last)) = list.0.iter().max_by_key(|r| r.1)
        && last >= sets.len()
    {
        return Err(CliError::Invalid(format!(
            "bad --sets: set {last} does not exist (the sets are 0 to {})",
            sets.len().saturating_sub(1)
        )));
    }
    Ok(sets
        .iter()
        .enumerate()
        .filter(|(i, _)| check.sets.as_ref().is_none_or(|list| list.contains(*i)))
        .collect())
}

/// The cache-layout directory root `dir`.
fn cache_of(dir: &Path) -> TablesCache {
    TablesCache::new(dir.to_path_buf(), ByteSize(u64::MAX))
}

fn build_shard<G: Notation>(
    game: &str,
    tables: &EndgameTables<G>,
    sets: &[G],
    args: &RunArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let check = &args.check;
    let chosen = chosen(sets, check)?;
    let cache = cache_of(&check.dir);
    let mut failed = Vec::new();
    let (mut built, mut skipped) = (0, 0);
    for (n, &(set, position)) in chosen.iter().enumerate() {
        if n % args.shard.count != args.shard.index {
            continue;
        }
        let expected = Expected::of(tables, set, position, check.pieces);
        let key = expected.key.as_str();
        let dir = cache
            .key_dir(key)
            .map_err(|e| CliError::Invalid(format!("set {set} ({key}): {e}")))?;
        if listed(&dir, &expected).is_some() {
            skipped += 1;
            continue;
        }
        let lock = match cache.lock_build(&dir) {
            Ok(lock) => lock,
            Err(why) => {
                writeln!(output, "set {set} ({key}): not built: {why}")?;
                failed.push(set);
                continue;
            }
        };
        // Built by another run while this one waited for the lock.
        if listed(&dir, &expected).is_some() {
            skipped += 1;
            continue;
        }
        let start = Instant::now();
        let mut log = |line: &str| tracing::info!("{game} set {set}: {line}");
        let done = (tables.build)(
            position,
            check.pieces,
            Some(&dir),
            usize::from(args.threads),
            &mut log,
        )
        .map_err(|why| why.to_string())
        .and_then(|_| write_manifest(&dir, set, key, check.pieces, &expected.files));
        drop(lock);
        match done {
            Ok(manifest) => {
                built += 1;
                writeln!(
                    output,
                    "set {set} ({key}): built in {:.2} s, {} files, {} bytes",
                    start.elapsed().as_secs_f64(),
                    manifest.files.len(),
                    manifest.files.iter().map(|f| f.bytes).sum::<u64>()
                )?;
            }
            Err(why) => {
                writeln!(output, "set {set} ({key}): not built: {why}")?;
                failed.push(set);
            }
        }
    }
    writeln!(
        output,
        "shard {}/{}: {built} sets built, {skipped} already built",
        args.shard.index, args.shard.count
    )?;
    if !failed.is_empty() {
        return Err(CliError::Invalid(format!(
            "{} sets not built: {failed:?}",
            failed.len()
        )));
    }
    Ok(())
}

/// Checksums the files of a set just built and writes its manifest, last, by a rename.
fn write_manifest(
    dir: &Path,
    set: usize,
    key: &str,
    pieces: u8,
    files: &[String],
) -> Result<Manifest, String> {
    let mut entries = Vec::new();
    for file in files {
        let path = dir.join(file);
        // On storage before the manifest that lists it (a node lost after the rename must
        // not leave a listed file short).
        std::fs::File::open(&path)
            .and_then(|f| f.sync_all())
            .map_err(|e| format!("{file}: {e}"))?;
        let (bytes, checksum) = checksum(&path).map_err(|e| format!("{file}: {e}"))?;
        entries.push(FileEntry {
            file: file.clone(),
            bytes,
            checksum,
        });
    }
    let manifest = Manifest {
        set,
        key: key.to_string(),
        pieces,
        files: entries,
    };
    let text = serde_json::to_string(&manifest).map_err(|e| e.to_string())?;
    // The directory's entries (the files' renames) too, where the platform allows it.
    if let Ok(handle) = std::fs::File::open(dir) {
        let _ = handle.sync_all();
    }
    write_whole(&dir.join(MANIFEST), text.as_bytes()).map_err(|e| format!("{MANIFEST}: {e}"))?;
    Ok(manifest)
}

/// Writes `file` whole or not at all: a `.part` file, synced, then renamed.
fn write_whole(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let part = file.with_extension("part");
    let write = || -> std::io::Result<()> {
        let mut out = std::fs::File::create(&part)?;
        out.write_all(bytes)?;
        out.sync_all()?;
        std::fs::rename(&part, file)
    };
    write().inspect_err(|_| {
        let _ = std::fs::remove_file(&part);
    })
}

/// The size and FNV-1a checksum of `path` (a regular file: checked before it is opened, so a
/// FIFO never blocks).
fn checksum(path: &Path) -> std::io::Result<(u64, String)> {
    if !std::fs::symlink_metadata(path)?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let file = std::fs::File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut input = std::io::BufReader::with_capacity(1 << 20, file);
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut bytes = 0u64;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        for &b in chunk {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        let n = chunk.len();
        bytes += n as u64;
        input.consume(n);
    }
    Ok((bytes, format!("{hash:016x}")))
}

/// What a set's manifest must say: its set, key, pieces and file names.
struct Expected {
    set: usize,
    key: String,
    pieces: u8,
    files: Vec<String>,
}

impl Expected {
    /// What the manifest of set `set` (whose position is `position`) of `pieces` must say.
    fn of<G: Notation>(tables: &EndgameTables<G>, set: usize, position: &G, pieces: u8) -> Self {
        Expected {
            set,
            key: (tables.key)(position),
            pieces,
            files: (tables.files)(position, pieces),
        }
    }
}

/// Why `manifest` is not the one `expected` (`None`: it is).
fn mismatch(manifest: &Manifest, expected: &Expected) -> Option<String> {
    if (manifest.set, manifest.key.as_str(), manifest.pieces)
        != (expected.set, expected.key.as_str(), expected.pieces)
    {
        return Some(format!(
            "the manifest is of set {} ({}), {} pieces",
            manifest.set, manifest.key, manifest.pieces
        ));
    }
    let names: Vec<&str> = manifest.files.iter().map(|f| f.file.as_str()).collect();
    let wanted: Vec<&str> = expected.files.iter().map(String::as_str).collect();
    (names != wanted).then(|| "the manifest does not list the set's files".to_string())
}

/// The manifest of the set in `dir` when it is the one `expected` and every file has its
/// listed size (the cheap check a shard skips a set by).
fn listed(dir: &Path, expected: &Expected) -> Option<Manifest> {
    let manifest = read_manifest(dir).ok()?;
    if mismatch(&manifest, expected).is_some() {
        return None;
    }
    let sizes_hold = manifest.files.iter().all(|f| {
        std::fs::symlink_metadata(dir.join(&f.file))
            .is_ok_and(|m| m.is_file() && m.len() == f.bytes)
    });
    sizes_hold.then_some(manifest)
}

/// The manifest of the set in `dir`, read within a size limit.
fn read_manifest(dir: &Path) -> Result<Manifest, String> {
    let path = dir.join(MANIFEST);
    let metadata = std::fs::metadata(&path).map_err(|_| "no manifest".to_string())?;
    if !metadata.is_file() || metadata.len() > MANIFEST_LIMIT {
        return Err("the manifest is not a regular file of at most 1 MB".into());
    }
    let mut text = String::new();
    std::fs::File::open(&path)
        .and_then(|f| f.take(MANIFEST_LIMIT).read_to_string(&mut text))
        .map_err(|e| format!("the manifest cannot be read: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("a bad manifest: {e}"))
}

/// What is wrong with the set in `dir` (`None`: whole). Only the files the set should have
/// are read (the manifest's names must be exactly those).
fn check_set(dir: &Path, expected: &Expected) -> Option<String> {
    let manifest = match read_manifest(dir) {
        Ok(manifest) => manifest,
        Err(why) => return Some(why),
    };
    if let Some(why) = mismatch(&manifest, expected) {
        return Some(why);
    }
    for entry in &manifest.files {
        match checksum(&dir.join(&entry.file)) {
            Err(e) => return Some(format!("{}: {e}", entry.file)),
            Ok((bytes, _)) if bytes != entry.bytes => {
                return Some(format!(
                    "{}: {bytes} bytes, the manifest says {}",
                    entry.file, entry.bytes
                ));
            }
            Ok((_, sum)) if sum != entry.checksum => {
                return Some(format!("{}: the checksum differs", entry.file));
            }
            Ok(_) => {}
        }
    }
    None
}

/// Checks the chosen sets; prints a line for each one missing or damaged. Returns how many are
/// whole and how many are not.
fn verify<G: Notation>(
    tables: &EndgameTables<G>,
    sets: &[G],
    check: &CheckArgs,
    output: &mut dyn Write,
) -> Result<(usize, usize), CliError> {
    let (mut good, mut bad) = (0, 0);
    for (set, position) in chosen(sets, check)? {
        let expected = Expected::of(tables, set, position, check.pieces);
        let key = expected.key.as_str();
        let dir = check.dir.join(super::cache::dir_name(key));
        match check_set(&dir, &expected) {
            None => good += 1,
            Some(why) => {
                bad += 1;
                writeln!(output, "set {set} ({key}): {why}")?;
            }
        }
    }
    Ok((good, bad))
}

/// Writes `manifest.jsonl`: the manifest of every chosen set that is built, in set order.
fn write_list<G: Notation>(
    tables: &EndgameTables<G>,
    sets: &[G],
    check: &CheckArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let mut text = String::new();
    let mut count = 0;
    for (set, position) in chosen(sets, check)? {
        let expected = Expected::of(tables, set, position, check.pieces);
        let key = expected.key.as_str();
        let dir = check.dir.join(super::cache::dir_name(key));
        if let Some(manifest) = listed(&dir, &expected) {
            text.push_str(
                &serde_json::to_string(&manifest)
                    .map_err(|e| CliError::Invalid(format!("set {set}: {e}")))?,
            );
            text.push('\n');
            count += 1;
        }
    }
    let file = check.dir.join(LIST);
    write_whole(&file, text.as_bytes())
        .map_err(|e| CliError::Invalid(format!("{}: not written: {e}", file.display())))?;
    writeln!(output, "{}: {count} sets", file.display())?;
    Ok(())
}
