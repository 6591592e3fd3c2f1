//! The process driver: runs the built binaries (the five game bots, the tafl bot's `otep`,
//! `speed`, `eval-arena` and `referee` commands, `tafl-otep`, `tafl-otep-script`) on generated
//! arguments (non-UTF-8 ones included) and stdin, each with a time limit.
//!
//! A run fails when the process exits with a code other than 0, 1 or 2, dies by a signal,
//! prints `panicked` on stderr, outlives the time limit (a hang; it is then killed), or leaves a
//! temporary file (`*.tmp`) behind; an OTEP engine must also greet with `hello`. Failing
//! invocations are written to the output directory as a text file that says how to repeat them.
//!
//! Key invariants: invocation `i` of binary `b` is a function of the seed, `b` and `i` only, so
//! a failure is repeatable from the report whatever the number of jobs; each process runs in a
//! scratch directory of its own (its working directory too), removed after it.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::cli_args::{BotSpec, Invocation, bytes_to_os, generate, scratch_path};
use crate::driver::{Report, name_hash};
use crate::mutate::{Rng, mutate, pick};
use crate::targets::{OTEP_WORDS, TAFL_WORDS, otep_seeds};
use plies_kalah::Kalah;

/// The binaries fuzzed, by name (the game bots are cargo examples of the root package `plies`).
pub const BINARIES: &[&str] = &[
    "onitama",
    "tafl",
    "hus",
    "yinsh",
    "kalah",
    "tafl-otep",
    "tafl-otep-script",
];

/// Where binary `name` is under a target profile directory (`target/release`).
pub fn binary_path(bin_dir: &Path, name: &str) -> PathBuf {
    let file = format!("{name}{}", std::env::consts::EXE_SUFFIX);
    if name.starts_with("tafl-otep") {
        bin_dir.join(file)
    } else {
        bin_dir.join("examples").join(file)
    }
}

/// How to run.
#[derive(Clone, Debug)]
pub struct ProcessSettings {
    /// The target profile directory holding the binaries (e.g. `target/release`).
    pub bin_dir: PathBuf,
    /// Invocations per binary.
    pub inputs: u64,
    /// The generator seed.
    pub seed: u64,
    /// Time limit per process.
    pub time_limit: Duration,
    /// Processes run at once.
    pub jobs: usize,
    /// Where failing invocations are written.
    pub out_dir: PathBuf,
}

/// The facts of each bot.
fn bot_spec(name: &str) -> BotSpec {
    match name {
        "onitama" => BotSpec::of::<plies_onitama::Onitama>(name).as_processes(),
        "tafl" => {
            let rules: Vec<&str> = plies_tafl::VARIANTS.iter().map(|v| v.rules).collect();
            BotSpec::of::<plies_tafl::Tafl>(name)
                .flag(
                    "--variant",
                    &["brandub", "copenhagen", "tablut", "nosuch", ""],
                )
                .flag("--rules", &rules)
                .flag("--side", &["a", "d", "x", ""])
                .flag("--eval", &["full", "material", "classic", "distance", "x"])
                .as_processes()
        }
        "hus" => BotSpec::of::<plies_hus::Hus>(name).as_processes(),
        "yinsh" => BotSpec::of::<plies_yinsh::Yinsh>(name).as_processes(),
        _ => BotSpec::of::<Kalah>(name).as_processes(),
    }
}

/// An OTEP session for an engine's stdin: a seed session, often mutated.
fn otep_session(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let seed = pick(rng, seeds).clone();
    if rng.below(4) == 0 {
        seed
    } else {
        mutate(rng, &seed, OTEP_WORDS, seeds)
    }
}

/// Arguments after the fixed ones, mutated: values of `words`, bad UTF-8, junk flags.
fn free_args(rng: &mut Rng, words: &[&str]) -> Vec<OsString> {
    let mut out = Vec::new();
    for _ in 0..rng.below(4) {
        let word = *pick(rng, words);
        out.push(match rng.below(4) {
            0 => bytes_to_os(mutate(rng, word.as_bytes(), TAFL_WORDS, &[])),
            _ => word.into(),
        });
    }
    out
}

/// Invocation `index` of binary `name`.
fn invocation(name: &str, bin_dir: &Path, rng: &mut Rng, dir: &Path) -> Invocation {
    let seeds = otep_seeds();
    let otep_budget = ["--move-time", "5", "--max-time", "20"];
    let engine = format!(
        "{} --move-time 5 --max-time 20",
        binary_path(bin_dir, "tafl-otep").display()
    );
    match name {
        "tafl-otep" => {
            let mut inv = Invocation {
                stdin: otep_session(rng, &seeds),
                ..Invocation::default()
            };
            inv.args.push(name.into());
            if rng.below(3) == 0 {
                inv.args.extend(free_args(
                    rng,
                    &["--move-time", "--max-time", "7", "0", "-1", "x", "--speed"],
                ));
            }
            inv.args.extend(otep_budget.map(OsString::from));
            inv
        }
        "tafl-otep-script" => {
            let transcript = scratch_path(dir, "transcript.txt");
            let log = scratch_path(dir, "log.txt");
            let text = include_bytes!("../../games/tafl-otep/tests/data/otep-transcript.txt");
            let text = if rng.below(2) == 0 {
                mutate(rng, text, &["== ", " ==", "host> ", "engine> "], &[])
            } else {
                text.to_vec()
            };
            let section = *pick(
                rng,
                &[
                    "game-attackers",
                    "game-defenders",
                    "retry",
                    "analysis",
                    "nosuch",
                ],
            );
            let mut args: Vec<OsString> = vec![
                name.into(),
                transcript.clone().into(),
                section.into(),
                log.into(),
            ];
            match rng.below(6) {
                0 => {
                    args.pop();
                }
                1 => args.push("extra".into()),
                2 => args[2] = bytes_to_os(b"\xff".to_vec()),
                3 => args[1] = "no/such/file".into(),
                _ => {}
            }
            Invocation {
                args,
                stdin: otep_session(rng, &seeds),
                files: vec![(transcript, text)],
                ..Invocation::default()
            }
        }
        "tafl" if rng.below(10) < 3 => tafl_command(rng, dir, &seeds, &engine),
        _ => generate(rng, &bot_spec(name), dir),
    }
}

/// One of the tafl bot's own commands (`otep`, `speed`, `eval-arena`, `referee`), each with a
/// budget: OTEP sessions on stdin, short times, two games, an output file of the invocation.
fn tafl_command(rng: &mut Rng, dir: &Path, seeds: &[Vec<u8>], engine: &str) -> Invocation {
    let name = "tafl";
    let otep_budget = ["--move-time", "5", "--max-time", "20"];
    let spec = bot_spec("tafl");
    let mut inv = Invocation::default();
    inv.args.push(name.into());
    let variants = ["--variant", "brandub", "--rules", "dim:7", "--eval", "x"];
    match rng.below(4) {
        0 => {
            inv.args.push("otep".into());
            inv.args.extend(free_args(rng, &["--move-time", "3", "x"]));
            inv.args.extend(otep_budget.map(OsString::from));
            inv.stdin = otep_session(rng, seeds);
        }
        1 => {
            inv.args.push("speed".into());
            inv.args.extend(free_args(rng, &variants));
            inv.args.extend(["--time", "10"].map(OsString::from));
        }
        2 => {
            inv.args.push("eval-arena".into());
            for _ in 0..rng.below(4) {
                inv.args.push("-e".into());
                inv.args
                    .push((*pick(rng, &["full", "material", "classic", "distance", "x"])).into());
            }
            inv.args.extend(free_args(
                rng,
                &["--variant", "brandub", "--depth", "1", "0", "--seed", "x"],
            ));
            inv.args.extend(
                [
                    "--games",
                    "2",
                    "--time",
                    "5",
                    "--max-plies",
                    "8",
                    "--concurrency",
                    "1",
                ]
                .map(OsString::from),
            );
        }
        _ => {
            let out = scratch_path(dir, "referee");
            inv.args.push("referee".into());
            inv.args.extend(free_args(rng, &variants));
            if let Some((_, values)) = spec.game_flags.iter().find(|(f, _)| f == "--rules")
                && rng.below(3) == 0
            {
                inv.args.push("--rules".into());
                inv.args.push(pick(rng, values).into());
            }
            for _ in 0..2 {
                inv.args.push("--engine".into());
                inv.args.push(engine.into());
            }
            inv.args.extend(
                ["--games", "1", "--move-time", "20", "--max-plies", "6"].map(OsString::from),
            );
            inv.args.push("--out".into());
            inv.args.push(out.clone().into());
            inv.outputs.push(out);
        }
    }
    inv
}

/// What one process did.
struct Outcome {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    hung: bool,
    /// Temporary files it left behind.
    leftovers: Vec<PathBuf>,
}

/// Runs one invocation of `program` in `root`, its scratch directory (removed after).
fn run_process(
    program: &Path,
    inv: &Invocation,
    root: &Path,
    limit: Duration,
) -> std::io::Result<Outcome> {
    if let Err(e) = inv.prepare(root) {
        inv.clean_up(root);
        return Err(e);
    }
    // No operating system passes a NUL byte in an argument: those become `?` here.
    let args: Vec<OsString> = inv.args[1..]
        .iter()
        .map(|a| {
            let bytes = a.as_encoded_bytes();
            if bytes.contains(&0) {
                let clean: Vec<u8> = bytes
                    .iter()
                    .map(|&b| if b == 0 { b'?' } else { b })
                    .collect();
                bytes_to_os(clean)
            } else {
                a.clone()
            }
        })
        .collect();
    let child = Command::new(program)
        .args(&args)
        .current_dir(root)
        // Endgame tables go to the scratch directory, never to the user's cache.
        .env("PLIES_TABLES_DIR", root.join("tables-cache"))
        // Analyses go nowhere, never to the user's position store.
        .env("PLIES_STORE", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => {
            inv.clean_up(root);
            return Err(e);
        }
    };
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = inv.stdin.clone();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut out = child.stdout.take().expect("piped stdout");
    let mut err = child.stderr.take().expect("piped stderr");
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out.read_to_end(&mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err.read_to_end(&mut buf);
        buf
    });
    let start = Instant::now();
    let mut hung = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) => {}
            Err(e) => break Err(e),
        }
        if start.elapsed() > limit {
            hung = true;
            let _ = child.kill();
            break child.wait();
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let _ = writer.join();
    let stdout = reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let leftovers = inv.clean_up(root);
    Ok(Outcome {
        code: status?.code(),
        stdout,
        stderr,
        hung,
        leftovers,
    })
}

/// Why an outcome is a failure, if it is.
fn judge(name: &str, inv: &Invocation, outcome: &Outcome) -> Option<String> {
    if outcome.hung {
        return Some("hang".into());
    }
    let stderr = String::from_utf8_lossy(&outcome.stderr);
    if stderr.contains("panicked") {
        let line = stderr
            .lines()
            .find(|l| l.contains("panicked"))
            .unwrap_or("");
        return Some(format!("panic: {line}"));
    }
    match outcome.code {
        Some(0..=2) => {}
        Some(code) => return Some(format!("exit code {code}")),
        None => return Some("killed by a signal".into()),
    }
    if !outcome.leftovers.is_empty() {
        return Some(format!(
            "temporary files left behind: {:?}",
            outcome.leftovers
        ));
    }
    let otep =
        name == "tafl-otep" || (name == "tafl" && inv.args.get(1).is_some_and(|a| a == "otep"));
    if otep && outcome.code == Some(0) && !outcome.stdout.starts_with(b"hello\n") {
        return Some("the OTEP engine did not say hello".into());
    }
    None
}

/// Writes a failing invocation so it can be repeated.
fn save(out_dir: &Path, name: &str, index: u64, inv: &Invocation, why: &str) -> String {
    let _ = std::fs::create_dir_all(out_dir);
    let base = out_dir.join(format!("{name}-{index}"));
    let stdin_path = base.with_extension("stdin");
    let _ = std::fs::write(&stdin_path, &inv.stdin);
    let mut text = format!("binary: {name}\nwhy: {why}\nargs: {}\n", inv.describe());
    for dir in &inv.dirs {
        text.push_str(&format!("directory {}\n", dir.display()));
    }
    for (path, content) in &inv.files {
        text.push_str(&format!(
            "file {}: {:?}\n",
            path.display(),
            String::from_utf8_lossy(content)
        ));
    }
    let path = base.with_extension("txt");
    let _ = std::fs::write(&path, text);
    path.display().to_string()
}

/// Fuzzes `names` (default all of [`BINARIES`]) as processes; one report per binary.
pub fn run_binaries(names: &[String], settings: &ProcessSettings) -> Vec<(String, Report)> {
    let names: Vec<String> = if names.is_empty() {
        BINARIES.iter().map(|s| s.to_string()).collect()
    } else {
        names.to_vec()
    };
    let scratch = std::env::temp_dir().join(format!("plies-fuzz-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&scratch);
    // Each process runs in its own directory: the binaries' paths must not be relative.
    let mut settings = settings.clone();
    if let Ok(absolute) = std::path::absolute(&settings.bin_dir) {
        settings.bin_dir = absolute;
    }
    let settings = &settings;
    let mut reports = Vec::new();
    for name in names {
        let program = binary_path(&settings.bin_dir, &name);
        let report = Mutex::new(Report::default());
        if !program.exists() {
            let mut r = report.into_inner().unwrap_or_default();
            r.failures
                .push(format!("{name}: no binary at {}", program.display()));
            reports.push((name, r));
            continue;
        }
        let next = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for _ in 0..settings.jobs.max(1) {
                scope.spawn(|| {
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= settings.inputs {
                            break;
                        }
                        let mut rng =
                            Rng::new(settings.seed ^ name_hash(&name) ^ index.wrapping_mul(0x9e37));
                        let root = scratch.join(format!("{name}-{index}"));
                        let inv = invocation(&name, &settings.bin_dir, &mut rng, &root);
                        let result = run_process(&program, &inv, &root, settings.time_limit);
                        let mut r = report.lock().unwrap_or_else(|e| e.into_inner());
                        r.inputs += 1;
                        if let Ok(Outcome { code: Some(0), .. }) = &result {
                            r.exit_zero += 1;
                        }
                        let why = match &result {
                            Ok(outcome) => judge(&name, &inv, outcome),
                            Err(e) => Some(format!("cannot run: {e}")),
                        };
                        if let Some(why) = why {
                            if why == "hang" {
                                r.hangs += 1;
                            } else {
                                r.panics += 1;
                            }
                            let file = save(&settings.out_dir, &name, index, &inv, &why);
                            r.failures.push(format!("{name} #{index}: {why} ({file})"));
                        }
                    }
                });
            }
        });
        reports.push((name, report.into_inner().unwrap_or_default()));
    }
    let _ = std::fs::remove_dir_all(&scratch);
    reports
}
