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

fn out_dir() -> PathBuf {
    std::env::temp_dir().join(format!("plies-fuzz-smoke-{}", std::process::id()))
}

#[test]
fn every_target_survives_a_short_run() {
    let mut failures = Vec::new();
    for target in all() {
        let inputs = if target.name.ends_with("-cli") {
            150
        } else {
            1500
        };
        let settings = Settings {
            inputs,
            seed: 2024,
            time_limit: Duration::from_secs(30),
            out_dir: out_dir(),
        };
        let report = run_target(&target, &settings);
        assert_eq!(report.inputs, inputs, "{}", target.name);
        failures.extend(report.failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
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

#[test]
fn every_binary_survives_a_short_run() {
    let bin_dir = profile_dir();
    if BINARIES.iter().any(|b| !binary_path(&bin_dir, b).exists()) {
        // `cargo test --workspace` has built them; `cargo test -p plies-fuzz` alone has not.
        let mut build = Command::new(env!("CARGO"));
        build.args([
            "build",
            "-p",
            "plies-cli",
            "--examples",
            "-p",
            "plies-tafl",
            "--bins",
        ]);
        if bin_dir.file_name().is_some_and(|n| n == "release") {
            build.arg("--release");
        }
        let status = build.status().expect("cargo runs");
        assert!(status.success(), "building the binaries failed");
    }
    let settings = ProcessSettings {
        bin_dir,
        inputs: 30,
        seed: 2024,
        time_limit: Duration::from_secs(60),
        jobs: 2,
        out_dir: out_dir(),
    };
    let mut failures = Vec::new();
    for (name, report) in run_binaries(&[], &settings) {
        assert_eq!(report.inputs, 30, "{name}: {:?}", report.failures);
        failures.extend(report.failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
