//! Every test file of the workspace runs: where a crate gathers its `tests/` into one binary
//! (`autotests = false`, see docs/layout.md), each file there is a module of `tests/main.rs`
//! or a `[[test]]` of its own in the crate's `Cargo.toml`. A file that is neither would
//! compile into nothing, and its tests would never run without anyone noticing.
//!
//! Key invariant: the crates are found by walking the workspace, not listed here, so a new
//! crate is checked too.

use std::path::{Path, PathBuf};

/// The crate directories of the workspace: the root and every directory below it (one level,
/// or two under `games/`) with a `Cargo.toml`.
fn crates(root: &Path) -> Vec<PathBuf> {
    let mut found = vec![root.to_path_buf()];
    let mut look = |dir: &Path| {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.join("Cargo.toml").is_file())
            .collect();
        entries.sort();
        found.extend(entries);
    };
    look(root);
    look(&root.join("games"));
    found
}

/// The names `mod NAME;` of a `main.rs`.
fn modules(main: &str) -> Vec<String> {
    main.lines()
        .filter_map(|line| line.trim().strip_prefix("mod ")?.strip_suffix(';'))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_file_of_a_gathered_tests_directory_is_a_module_or_a_test_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut gathered = 0;
    for dir in crates(root) {
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        if !manifest
            .lines()
            .any(|line| line.trim() == "autotests = false")
        {
            continue;
        }
        gathered += 1;
        let tests = dir.join("tests");
        let main = std::fs::read_to_string(tests.join("main.rs")).unwrap_or_else(|e| {
            panic!("{}: autotests off but no tests/main.rs: {e}", dir.display())
        });
        assert!(
            manifest.contains("path = \"tests/main.rs\""),
            "{}: tests/main.rs is no [[test]]",
            dir.display()
        );
        let modules = modules(&main);
        for entry in std::fs::read_dir(&tests).unwrap() {
            let path = entry.unwrap().path();
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let Some(stem) = name.strip_suffix(".rs") else {
                continue;
            };
            let own_target = manifest.contains(&format!("path = \"tests/{name}\""));
            assert!(
                stem == "main" || own_target || modules.iter().any(|m| m == stem),
                "{}: neither a module of tests/main.rs nor a [[test]] of its own",
                path.display()
            );
        }
    }
    // The root, plies-cli, the process tests and the six game crates gather theirs.
    assert!(gathered >= 9, "only {gathered} crates gather their tests");
}
