//! The arena against OpenTafl engine processes: the tafl bot's own `otep` command, run as a
//! process (`--engine otep:COMMAND`), plays every game to the end, and an engine that does not
//! start is refused in one line.
//!
//! Key invariant: the engine is this package's helper binary running the bot's own command line
//! (`plies_tafl_cli::tafl_cli`, the one the example's `main` runs); the arena runs in this
//! process through `plies_cli::run`, as from a terminal.

use plies_cli::{CliError, GameCli, run};
use plies_tafl::Tafl;

/// The helper binary this package builds for its tests.
const CHILD: &str = env!("CARGO_BIN_EXE_plies-test-child");

/// Runs the tafl bot with `args` (after the program name) and `input`.
fn tafl(args: &[&str], input: &[u8]) -> Result<String, CliError> {
    let spec: GameCli<Tafl> = plies_tafl_cli::tafl_cli();
    let argv = std::iter::once("tafl".to_string()).chain(args.iter().map(|a| a.to_string()));
    let mut out = Vec::new();
    let mut reader = input;
    run(&spec, argv, &mut reader, &mut out)?;
    Ok(String::from_utf8(out).expect("UTF-8 output"))
}

fn ok(args: &[&str]) -> String {
    tafl(args, b"").unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// The arena plays an OTEP engine process (`--engine otep:COMMAND`) to the end of every game,
/// and refuses one that does not start, in one line.
#[test]
fn the_arena_plays_otep_engines() {
    let engine = format!("otep:{CHILD} tafl otep --move-time 20");
    let out = ok(&[
        "arena",
        "--variant",
        "brandub",
        "-e",
        &engine,
        "-e",
        "pvs",
        "--depth",
        "2",
        "--games",
        "2",
        "--max-plies",
        "80",
        "--concurrency",
        "2",
        "--no-progress",
    ]);
    assert!(out.contains("2 games"), "{out}");
    assert!(out.contains("forfeits 0"), "{out}");
    match tafl(
        &[
            "arena",
            "-e",
            "otep:/no/such/engine",
            "-e",
            "pvs",
            "--depth",
            "1",
        ],
        b"",
    ) {
        Err(err) => {
            let text = err.to_string();
            assert!(text.contains("cannot start '/no/such/engine'"), "{text}");
            assert_eq!(text.lines().count(), 1, "{text}");
        }
        Ok(out) => panic!("an engine that does not exist played: {out}"),
    }
}
