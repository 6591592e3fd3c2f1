//! The CI smoke run of the fuzzers, part of `cargo test --workspace --release`: every
//! in-process target on its seeds and a few thousand mutants, then every built binary on a few
//! dozen generated command lines as processes. A deep run is `plies-fuzz` by hand
//! (`docs/fuzzing.md`).
//!
//! Key invariant: any panic, hang or crash fails the test and names the saved input; the seeds
//! are fixed, so a failure repeats.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use plies_fuzz::driver::{Settings, run_target};
use plies_fuzz::process::{BINARIES, ProcessSettings, binary_path, run_binaries};
use plies_fuzz::targets::all;

/// Fails the test if there are failures, listing them. The driver's
/// panic hook, installed for the whole test process, records panic messages instead of printing
/// them, and would take a panic of one test for a failure of the input another test is running
/// at the time: so the list is printed (shown with a failed test's output) and the test unwinds
/// without the hook.
fn fail_on(failures: &[String], out_dir: &std::path::Path) {
    if !failures.is_empty() {
        let text = failures
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        println!("{text}");
        std::panic::resume_unwind(Box::new(text));
    }
    let _ = std::fs::remove_dir_all(out_dir);
}

/// Where a test saves failing inputs: its own directory, removed when it passes.
fn out_dir(test: &str) -> PathBuf {
    std::env::temp_dir().join(format!("plies-fuzz-smoke-{test}-{}", std::process::id()))
}

#[test]
fn every_target_survives_a_short_run() {
    let mut failures = Vec::new();
    for target in all() {
        // The HTTP scripts wait for searches of a few milliseconds and for event streams, so
        // an input takes ten times as long as a parser's.
        let inputs = if target.name.ends_with("-cli") {
            150
        } else if target.name == "http-api" {
            600
        } else {
            1500
        };
        let settings = Settings {
            inputs,
            seed: 2024,
            time_limit: Duration::from_secs(30),
            out_dir: out_dir("targets"),
        };
        let report = run_target(&target, &settings);
        if report.inputs != inputs {
            failures.push(format!("{}: {} inputs run", target.name, report.inputs));
        }
        failures.extend(report.failures);
    }
    // The command-line targets remove each input's scratch directory.
    let prefix = format!("plies-fuzz-cli-{}-", std::process::id());
    if let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) {
        for entry in entries.filter_map(Result::ok) {
            if entry.file_name().to_string_lossy().starts_with(&prefix) {
                failures.push(format!(
                    "left in the temporary directory: {:?}",
                    entry.path()
                ));
            }
        }
    }
    fail_on(&failures, &out_dir("targets"));
}

/// The profile directory this test was built in (`target/release` for a release test): the
/// test binary sits in its `deps`.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    exe.parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps/<test>")
        .to_path_buf()
}

/// The profile directory with every binary built (`cargo test -p plies-fuzz` alone builds them).
fn built_binaries() -> PathBuf {
    let bin_dir = profile_dir();
    if BINARIES.iter().any(|b| !binary_path(&bin_dir, b).exists()) {
        // `cargo test --workspace` has built them; `cargo test -p plies-fuzz` alone has not.
        let mut build = Command::new(env!("CARGO"));
        build.args([
            "build",
            "-p",
            "plies",
            "--examples",
            "-p",
            "plies-tafl-otep",
            "--bins",
        ]);
        if bin_dir.file_name().is_some_and(|n| n == "release") {
            build.arg("--release");
        }
        let status = build.status().expect("cargo runs");
        assert!(status.success(), "building the binaries failed");
    }
    bin_dir
}

/// Regression (issue 11): `std::env::args` panicked on an argument that is not UTF-8; every
/// binary now exits with code 2 and a one-line error naming the argument.
#[cfg(unix)]
#[test]
fn a_non_utf8_argument_is_a_one_line_error_in_every_binary() {
    use std::os::unix::ffi::OsStringExt;
    let bin_dir = built_binaries();
    for name in BINARIES {
        for position in [1, 2] {
            let mut args = vec![std::ffi::OsString::from("perft"); 2];
            args[position - 1] = std::ffi::OsString::from_vec(b"x\xffy".to_vec());
            let out = Command::new(binary_path(&bin_dir, name))
                .args(&args)
                .stdin(std::process::Stdio::null())
                .output()
                .expect("the binary runs");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
            assert!(!stderr.contains("panicked"), "{name}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
            assert!(
                stderr.contains(&format!("argument {position} is not UTF-8")),
                "{name}: {stderr}"
            );
        }
    }
}

#[test]
fn every_binary_survives_a_short_run() {
    let bin_dir = built_binaries();
    let settings = ProcessSettings {
        bin_dir,
        inputs: 30,
        seed: 2024,
        time_limit: Duration::from_secs(60),
        jobs: 2,
        out_dir: out_dir("binaries"),
    };
    let mut failures = Vec::new();
    for (name, report) in run_binaries(&[], &settings) {
        if report.inputs != 30 {
            failures.push(format!("{name}: {} invocations run", report.inputs));
        }
        failures.extend(report.failures);
    }
    fail_on(&failures, &out_dir("binaries"));
}
