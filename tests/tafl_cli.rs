//! The tafl bot's command line as a user types it: the options, presets and commands tafl
//! declares through `GameCli` (`--variant`, `--rules`, `--side`, `--eval`, `speed`,
//! `eval-arena`, `otep`, `referee`), their help and their one-line errors, and the command
//! lines documented in the bot's header and the tafl README.
//!
//! Key invariant: every case runs the bot's own `GameCli` (`plies_tafl_cli::tafl_cli`, which
//! the example's `main` runs) through `plies_cli::run`; expected counts come from
//! docs/rules/tafl.md, not from the code under test.

use plies_cli::{CliError, GameCli, run};
use plies_tafl::{Tafl, VARIANTS};

/// The record of Brandub's start position (rank 1 first).
const BRANDUB_RECORD: &str = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

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

/// The error of `args`, checked to be one line with the usage exit code.
fn usage_error(args: &[&str]) -> String {
    match tafl(args, b"") {
        Err(err @ CliError::Usage(_)) => {
            let text = err.to_string();
            assert_eq!(text.lines().count(), 1, "{args:?}: {text}");
            text
        }
        other => panic!("{args:?}: expected a usage error, got {other:?}"),
    }
}

/// The leaf count a `perft` printed.
fn leaves(output: &str) -> u64 {
    let line = output
        .lines()
        .find(|l| l.starts_with("perft"))
        .expect("a perft line");
    let count = line.split(':').nth(1).expect("a count").trim();
    count.trim_end_matches(" nodes").parse().expect("a number")
}

#[test]
fn play_analyze_and_perft_help_show_variant_and_rules() {
    for command in ["play", "analyze", "perft", "bench", "arena"] {
        let help = ok(&[command, "--help"]);
        for option in ["--variant <NAME>", "--rules <OTN>", "--position"] {
            assert!(
                help.contains(option),
                "{command} --help lacks {option}: {help}"
            );
        }
    }
}

#[test]
fn tafl_commands_print_help() {
    for (command, option) in [
        ("otep", "--move-time <MS>"),
        ("speed", "--time <MS>"),
        ("eval-arena", "--preset <NAME>"),
        ("referee", "--engine <COMMAND>"),
    ] {
        let help = ok(&[command, "--help"]);
        assert!(help.contains(&format!("Usage: tafl {command}")), "{help}");
        assert!(
            help.contains(option),
            "{command} --help lacks {option}: {help}"
        );
    }
    let top = ok(&["--help"]);
    for command in ["speed", "eval-arena", "otep", "referee", "--eval <NAME>"] {
        assert!(top.contains(command), "--help lacks {command}: {top}");
    }
}

#[test]
fn variant_twice_or_with_rules_is_an_error() {
    let twice = usage_error(&[
        "perft",
        "--variant",
        "brandub",
        "--variant",
        "tablut",
        "--depth",
        "1",
    ]);
    assert!(
        twice.contains("--variant") && twice.contains("multiple"),
        "{twice}"
    );
    let both = usage_error(&[
        "perft",
        "--variant",
        "brandub",
        "--rules",
        "dim:7",
        "--depth",
        "1",
    ]);
    assert!(
        both.contains("--variant") && both.contains("--rules"),
        "{both}"
    );
    let speed = usage_error(&["speed", "--variant", "brandub", "--variant", "brandub"]);
    assert!(speed.contains("--variant"), "{speed}");
}

#[test]
fn unknown_variant_lists_the_known_ones() {
    for args in [
        &["perft", "--variant", "nosuch", "--depth", "1"][..],
        &["speed", "--variant", "nosuch"],
        &[
            "referee",
            "--engine",
            "a",
            "--engine",
            "b",
            "--variant",
            "nosuch",
        ],
    ] {
        let text = usage_error(args);
        assert!(text.contains("'nosuch'"), "{text}");
        for known in VARIANTS {
            assert!(
                text.contains(known.name),
                "{args:?} does not list {}: {text}",
                known.name
            );
        }
    }
}

#[test]
fn documented_perft_lines_count_as_the_rules_document() {
    // docs/rules/tafl.md: Brandub has 40, 960 and 39,512 leaves at depths 1-3.
    assert_eq!(
        leaves(&ok(&["perft", "--variant", "brandub", "--depth", "3"])),
        39_512
    );
    let rules = "dim:7 ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    assert_eq!(
        leaves(&ok(&["perft", "--rules", rules, "--depth", "3"])),
        39_512
    );
    assert_eq!(
        leaves(&ok(&["perft", "--variant", "Brandubh", "--depth", "2"])),
        960
    );
}

#[test]
fn a_record_position_takes_the_variant_and_side() {
    let record = ok(&[
        "perft",
        "--variant",
        "brandub",
        "--position",
        BRANDUB_RECORD,
        "--depth",
        "2",
    ]);
    assert_eq!(leaves(&record), 960);
    // The defenders to move from the same board: the count of the written-out position.
    let defenders = ok(&[
        "perft",
        "--variant",
        "brandub",
        "--position",
        BRANDUB_RECORD,
        "--side",
        "d",
        "--depth",
        "2",
    ]);
    let written = format!("brandub {BRANDUB_RECORD} d");
    let whole = ok(&["perft", "--position", &written, "--depth", "2"]);
    assert_eq!(leaves(&defenders), leaves(&whole));
    assert_ne!(leaves(&defenders), 960);
    for (args, says) in [
        (
            &[
                "perft",
                "--rules",
                "dim:7",
                "--position",
                BRANDUB_RECORD,
                "--depth",
                "1",
            ][..],
            "--rules",
        ),
        (
            &[
                "perft",
                "--variant",
                "brandub",
                "--side",
                "d",
                "--depth",
                "1",
            ],
            "--side",
        ),
        (
            &[
                "perft",
                "--variant",
                "brandub",
                "--position",
                written.as_str(),
                "--depth",
                "1",
            ],
            "--position",
        ),
    ] {
        let err = tafl(args, b"").expect_err("refused");
        let text = err.to_string();
        assert!(
            text.contains(says) && text.lines().count() == 1,
            "{args:?}: {text}"
        );
    }
}

#[test]
fn eval_presets_before_or_after_the_command() {
    let before = ok(&[
        "--eval",
        "classic",
        "analyze",
        "--variant",
        "brandub",
        "--depth",
        "6",
    ]);
    let after = ok(&[
        "analyze",
        "--variant",
        "brandub",
        "--depth",
        "6",
        "--eval",
        "classic",
    ]);
    // Everything but the timings (the second word of an iteration line, the time lines).
    let strip = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("nodes "))
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                if words.first().is_some_and(|w| w.contains('/')) {
                    [&words[..1], &words[2..]].concat().join(" ")
                } else {
                    l.to_string()
                }
            })
            .collect()
    };
    assert_eq!(strip(&before), strip(&after));
    assert!(before.contains("depth 6"), "{before}");
    // The bench's recorded counts hold for the default preset only.
    assert!(ok(&["bench"]).contains("1 checked, all ok"));
    assert!(ok(&["--eval", "full", "bench"]).contains("1 checked, all ok"));
    assert!(ok(&["--eval", "Classic", "bench"]).contains("none recorded"));
    let unknown = usage_error(&["--eval", "nosuch", "bench"]);
    assert!(
        unknown.contains("material") && unknown.contains("full"),
        "{unknown}"
    );
}

#[test]
fn otep_speaks_and_checks_its_options() {
    let out = tafl(
        &["otep", "--move-time", "500", "--max-time", "1000"],
        b"goodbye\n",
    )
    .unwrap();
    assert_eq!(out.lines().next(), Some("hello"), "{out}");
    let zero = usage_error(&["otep", "--move-time", "0"]);
    assert!(zero.contains("--move-time"), "{zero}");
    let negative = usage_error(&["otep", "--max-time", "-5"]);
    assert!(negative.contains("--max-time"), "{negative}");
    assert!(usage_error(&["otep", "--ponder"]).contains("--ponder"));
}

#[test]
fn speed_and_eval_arena_run() {
    let speed = ok(&["speed", "--variant", "brandub", "--time", "50"]);
    assert!(speed.starts_with("Brandub: depth "), "{speed}");
    assert!(speed.contains("nodes/s (wall)"), "{speed}");
    let arena = ok(&[
        "eval-arena",
        "--variant",
        "brandub",
        "-e",
        "full",
        "-e",
        "material",
        "--games",
        "2",
        "--depth",
        "1",
        "--max-plies",
        "20",
    ]);
    assert!(
        arena.contains("full vs material on Brandub | 2 games"),
        "{arena}"
    );
    assert!(arena.contains("[2/2]"), "{arena}");
    let one = usage_error(&["eval-arena", "-e", "full", "--depth", "1"]);
    assert!(one.contains("two"), "{one}");
    let bad = tafl(
        &["eval-arena", "-e", "full", "-e", "nosuch", "--depth", "1"],
        b"",
    )
    .expect_err("unknown preset");
    assert!(bad.to_string().contains("nosuch"), "{bad}");
}

#[test]
fn referee_needs_two_engines() {
    let one = usage_error(&["referee", "--engine", "tafl otep"]);
    assert!(one.contains("two --engine"), "{one}");
    let none = usage_error(&["referee"]);
    assert!(none.contains("--engine"), "{none}");
}

#[test]
fn games_without_presets_refuse_eval() {
    let spec = GameCli::new(
        "kalah",
        plies_cli::evaluator(plies_kalah::StoreDifference::default()),
    );
    let argv = ["kalah", "--eval", "x", "perft", "--depth", "1"].map(String::from);
    let mut out = Vec::new();
    let err = run(&spec, argv, &mut &b""[..], &mut out).expect_err("no presets");
    assert!(err.to_string().contains("no evaluator presets"), "{err}");
    let help = {
        let mut out = Vec::new();
        run(
            &spec,
            ["kalah", "--help"].map(String::from),
            &mut &b""[..],
            &mut out,
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    };
    assert!(!help.contains("--eval"), "{help}");
    assert!(!help.contains("--variant"), "{help}");
}
