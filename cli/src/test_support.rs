//! Test helpers for the command line: a [`GameCli`] for the toy game `TwoPiles` and a runner
//! that captures what a command prints; plus the tests shared by every command.
//!
//! Key invariant: commands run exactly as from a terminal, through [`super::run`] with the
//! arguments as strings, so clap's parsing is tested too.

use crate::{CliError, GameCli, evaluator, run};
use plies::testing::{PileDifference, TwoPiles};

/// The toy game's command line; its bench is two positions at depth 5.
pub(crate) fn spec() -> GameCli<TwoPiles> {
    GameCli {
        bench_positions: &["7 5 1", "6 6 2"],
        bench_depth: 5,
        ..GameCli::new("twopiles", evaluator(PileDifference))
    }
}

/// Runs `args` (without the program name) with `input` as stdin; returns what was printed.
pub(crate) fn run_with(args: &str, input: &str) -> Result<String, CliError> {
    let mut argv = vec!["twopiles".to_string()];
    argv.extend(shell_words(args));
    let mut reader = input.as_bytes();
    let mut out = Vec::new();
    run(&spec(), argv, &mut reader, &mut out)?;
    Ok(String::from_utf8(out).expect("utf-8 output"))
}

/// Runs `args` and expects success.
pub(crate) fn run_ok(args: &str) -> String {
    match run_with(args, "") {
        Ok(out) => out,
        Err(err) => panic!("`{args}` failed: {err}"),
    }
}

/// Runs `args` and expects a one-line `Invalid` error; returns it.
pub(crate) fn run_invalid(args: &str) -> String {
    one_line_error(
        args,
        |err| matches!(err, CliError::Invalid(_)),
        "an invalid-argument",
    )
}

/// Runs `args` and expects a one-line usage error (what clap refuses); returns it.
pub(crate) fn run_usage(args: &str) -> String {
    one_line_error(args, |err| matches!(err, CliError::Usage(_)), "a usage")
}

/// Runs `args` and expects a one-line error of the kind `is_kind` accepts.
fn one_line_error(args: &str, is_kind: fn(&CliError) -> bool, kind: &str) -> String {
    match run_with(args, "") {
        Err(err) if is_kind(&err) => {
            let text = err.to_string();
            assert_eq!(text.lines().count(), 1, "one-line error: {text}");
            text
        }
        other => panic!("`{args}`: expected {kind} error, got {other:?}"),
    }
}

/// The arena summary's last JSON line without its clock readings (`mean_ms`, `mean_open_ms`,
/// `max_ms` per engine), which differ from run to run even when every game is the same.
pub(crate) fn results_json(out: &str) -> serde_json::Value {
    let mut json = last_json(out);
    if let Some(engines) = json["engines"].as_array_mut() {
        for engine in engines {
            if let Some(fields) = engine.as_object_mut() {
                for clock in ["mean_ms", "mean_open_ms", "max_ms"] {
                    assert!(fields.remove(clock).is_some(), "{clock} reported");
                }
            }
        }
    }
    json
}

/// The last printed line parsed as JSON.
pub(crate) fn last_json(out: &str) -> serde_json::Value {
    let last = out.lines().last().expect("some output");
    serde_json::from_str(last).unwrap_or_else(|e| panic!("last line {last:?} is not JSON: {e}"))
}

/// Splits on spaces, keeping `"quoted words"` together.
fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut any = false;
    for ch in text.chars() {
        match ch {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut current));
                    any = false;
                }
            }
            c => {
                current.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(current);
    }
    words
}

#[test]
fn help_prints_and_succeeds() {
    let out = run_ok("--help");
    assert!(out.contains("perft") && out.contains("analyze") && out.contains("bench"));
    assert!(run_ok("analyze --help").contains("--searcher"));
}

#[test]
fn serve_is_a_command_exactly_with_its_feature() {
    let listed = run_ok("--help")
        .lines()
        .any(|line| line.trim_start().starts_with("serve "));
    assert_eq!(listed, cfg!(feature = "serve"));
    let grammar = crate::command(&spec());
    assert_eq!(
        grammar.find_subcommand("serve").is_some(),
        cfg!(feature = "serve")
    );
    if !cfg!(feature = "serve") {
        let err = run_usage("serve --port 0");
        assert!(err.contains("serve"), "{err}");
    }
}

#[test]
fn unknown_flag_is_a_usage_error() {
    assert!(matches!(
        run_with("perft --depth 2 --bogus", ""),
        Err(CliError::Usage(_))
    ));
    assert!(matches!(run_with("", ""), Err(CliError::Usage(_))));
    assert!(matches!(
        run_with("perft --depth x", ""),
        Err(CliError::Usage(_))
    ));
}

#[test]
fn bad_position_and_moves_name_the_token() {
    for command in ["perft --depth 1", "analyze --depth 1", "play", "bench"] {
        let err = run_invalid(&format!("{command} --position \"7 x 1\""));
        assert!(err.contains("--position") && err.contains("'x'"), "{err}");
        let err = run_invalid(&format!("{command} --moves \"a1 c9\""));
        assert!(err.contains("--moves") && err.contains("c9"), "{err}");
    }
}

#[test]
fn quoting_helper_splits_like_a_shell() {
    assert_eq!(shell_words("a \"b c\" d"), ["a", "b c", "d"]);
    assert_eq!(shell_words("--moves \"\""), ["--moves", ""]);
}

/// What `take` returns once the lock it wants is free, waiting at most 10 s while its error
/// says the path "is locked by another process". A lock is released when every descriptor of
/// its open file is closed, and a child another test thread forks at that moment (`mkfifo`, an
/// engine) holds a copy of each descriptor until it calls `exec`; so a lock just dropped may
/// still be held for that instant.
pub(crate) fn when_free<T, E: std::fmt::Display>(take: impl Fn() -> Result<T, E>) -> T {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        match take() {
            Ok(taken) => return taken,
            Err(e)
                if e.to_string().contains("is locked by another process")
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(std::time::Duration::from_millis(10))
            }
            Err(e) => panic!("the lock is not free again: {e}"),
        }
    }
}
