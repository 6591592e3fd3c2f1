//! The endgame tables cache across processes: two processes wanting one deal's tables at once
//! build them once, and without `--tables-dir` the tables go to the platform's cache directory
//! (a process of its own, so its `XDG_CACHE_HOME` is set for it alone).
//!
//! Key invariant: every command is this package's helper binary running Onitama's command
//! line with endgame tables (`plies-test-child onitama-tables ...`), exactly as from a
//! terminal. No test writes into the user's cache: each gives a directory of its own
//! (`--tables-dir`, or `XDG_CACHE_HOME` for the child).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The helper binary this package builds for its tests.
const CHILD: &str = env!("CARGO_BIN_EXE_plies-test-child");

/// Three pieces: red's master and one student against blue's master.
const ENDGAME: &str = "5/2B2/5/1R3/2r2 r monkey,crane tiger,crab dragon";

/// The directory of the deal of [`ENDGAME`] in a tables directory.
const DEAL_DIR: &str = "tiger-crab-monkey-crane-dragon";

/// An empty directory for the test `name`, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("plies-tables-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }

    fn text(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary path")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The table files in `dir`, sorted.
fn table_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.retain(|f| f.extension().is_some_and(|e| e == "tb"));
    files.sort();
    files
}

/// Starts `args` as a child process with `env` set.
fn spawn(args: &[&str], env: &[(&str, &Path)]) -> std::process::Child {
    let mut command = Command::new(CHILD);
    command
        .arg("onitama-tables")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    command.spawn().expect("the child starts")
}

/// What a child printed, once it ended well.
fn output_of(child: std::process::Child) -> String {
    let output = child.wait_with_output().expect("the child ends");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "the child failed: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// Two processes wanting the same deal's tables at once build them once: the one that takes
/// the key's lock builds, the other (waiting, `--tables-wait`) reads the files it wrote.
#[test]
fn two_processes_build_a_key_once() {
    let dir = TempDir::new("race");
    let args = [
        "analyze",
        "--position",
        ENDGAME,
        "--depth",
        "2",
        "--tables-wait",
        "--tables-dir",
        dir.text(),
    ];
    let children = [spawn(&args, &[]), spawn(&args, &[])];
    let outputs: Vec<String> = children.into_iter().map(output_of).collect();
    let built = |out: &String| {
        out.lines().any(|l| {
            l.starts_with("tables: 3 pieces for tiger,crab,monkey,crane,dragon")
                && !l.contains("read from the directory")
        })
    };
    let read = |out: &String| out.contains("(3 read from the directory)");
    assert_eq!(
        outputs.iter().filter(|o| built(o)).count(),
        1,
        "{outputs:#?}"
    );
    assert_eq!(
        outputs.iter().filter(|o| read(o)).count(),
        1,
        "{outputs:#?}"
    );
    for out in &outputs {
        assert!(
            out.contains("tables: this position is a loss in 4 plies"),
            "{out}"
        );
    }
    assert_eq!(table_files(&dir.0.join(DEAL_DIR)).len(), 3);
}

/// Without `--tables-dir` the tables go to the platform's cache directory (on Linux
/// `$XDG_CACHE_HOME/plies/tables/<game>/<key>/`), made when missing.
#[cfg(target_os = "linux")]
#[test]
fn the_default_directory_is_the_users_cache() {
    let dir = TempDir::new("xdg");
    let cache = dir.0.join("not-yet").join("cache");
    let args = ["analyze", "--position", ENDGAME, "--depth", "2"];
    let out = output_of(spawn(&args, &[("XDG_CACHE_HOME", &cache)]));
    assert!(out.contains("in the background"), "{out}");
    let deal = cache.join("plies/tables/onitama").join(DEAL_DIR);
    assert_eq!(table_files(&deal).len(), 3, "{out}");
    let out = output_of(spawn(&args, &[("XDG_CACHE_HOME", &cache)]));
    assert!(out.contains("(3 read from the directory)"), "{out}");
}
