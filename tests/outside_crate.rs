//! A new game outside the workspace builds from the dependency lines docs/adding-a-game.md
//! shows: the Kalah of `games/kalah` copied into a crate of its own in a temporary directory,
//! its `Cargo.toml` the document's `toml` block (the checkout's path put where it says
//! `../plies`), its `main` one `plies_cli::main` call; built offline, then its `perft` run.
//!
//! Key invariant: the dependency lines are read from the document, never written here, so the
//! test fails when the document's lines stop working. Ignored by default: it compiles every
//! dependency in a target directory of its own (minutes).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The first ```toml block of `text`.
fn toml_block(text: &str) -> String {
    let start = text.find("```toml\n").expect("a toml block") + "```toml\n".len();
    let end = start + text[start..].find("```").expect("the block's end");
    text[start..end].to_string()
}

/// Copies the directory `from` into `to`, recursively.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

const MAIN: &str = "use std::process::ExitCode;

use kalah_outside::{Kalah, StoreDifference};
use plies_cli::{GameCli, evaluator};

fn main() -> ExitCode {
    plies_cli::main(GameCli::<Kalah>::new(\"kalah\", evaluator(StoreDifference::default())))
}
";

#[test]
#[ignore = "builds every dependency afresh (minutes): run with --ignored"]
fn a_game_outside_the_workspace_builds_from_the_documented_lines() {
    let checkout = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(checkout.join("docs/adding-a-game.md")).unwrap();
    let lines = toml_block(&doc);
    assert!(lines.contains("path = \"../plies"), "{lines}");
    let dependencies = lines.replace("\"../plies", &format!("\"{}", checkout.display()));
    let dir = std::env::temp_dir().join(format!("plies-outside-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&checkout.join("games/kalah/src"), &dir.join("src"));
    std::fs::write(dir.join("src/main.rs"), MAIN).unwrap();
    let manifest = format!(
        "[package]\nname = \"kalah-outside\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
         [workspace]\n\n{dependencies}"
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    // The checkout's lock file, so the build takes the versions the workspace was tested with.
    std::fs::copy(checkout.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(&cargo)
        .args(["build", "--offline", "--quiet"])
        .current_dir(&dir)
        .env_remove("CARGO_TARGET_DIR")
        .status()
        .expect("cargo runs");
    assert!(status.success(), "the outside crate does not build");
    let output = Command::new(dir.join("target/debug/kalah-outside"))
        .args(["perft", "--depth", "3"])
        .output()
        .expect("the bot runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("perft"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
