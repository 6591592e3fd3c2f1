//! What a new user meets in the terminal, for every bundled game: one error style, a stray
//! non-UTF-8 byte in `play` re-prompted, the game's own side names in game-over lines and
//! prompts, and scores that say from whose view they are.
//!
//! Key invariant: every command runs through `plies_cli::run` with string arguments and bytes
//! as its input, exactly as from a terminal.

use plies::Notation;
use plies::Side;
use plies_cli::{CliError, GameCli, evaluator, run, tunable_evaluator};
use plies_view::View;

/// Runs `args` (after the program name) with `input` on `spec`.
fn run_on<G: View>(spec: &GameCli<G>, args: &[&str], input: &[u8]) -> Result<String, CliError> {
    let argv = std::iter::once(spec.name.to_string()).chain(args.iter().map(|a| a.to_string()));
    let mut out = Vec::new();
    let mut reader = input;
    run(spec, argv, &mut reader, &mut out)?;
    Ok(String::from_utf8(out).expect("UTF-8 output"))
}

fn onitama() -> GameCli<plies_onitama::Onitama> {
    GameCli::new(
        "onitama",
        tunable_evaluator(plies_onitama::PstEvaluator::default()),
    )
}

fn tafl() -> GameCli<plies_tafl::Tafl> {
    GameCli::new(
        "tafl",
        tunable_evaluator(plies_tafl::TaflEvaluator::default()),
    )
}

fn hus() -> GameCli<plies_hus::Hus> {
    GameCli::new("hus", tunable_evaluator(plies_hus::HusEvaluator::default()))
}

fn yinsh() -> GameCli<plies_yinsh::Yinsh> {
    GameCli::new(
        "yinsh",
        tunable_evaluator(plies_yinsh::YinshEvaluator::default()),
    )
}

fn kalah() -> GameCli<plies_kalah::Kalah> {
    GameCli::new("kalah", evaluator(plies_kalah::StoreDifference::default()))
}

/// The human (first side) types a byte that is not UTF-8, is told so, and is asked again;
/// then quits.
fn stray_byte_is_reprompted<G: View>(spec: &GameCli<G>) {
    let out = run_on(spec, &["play", "--depth", "1"], b"\xff\xfe\nquit\n").unwrap();
    assert!(out.contains("not UTF-8"), "{}: {out}", spec.name);
    let first = G::side_name(Side::First);
    assert_eq!(
        out.matches(&format!("({first}) - your move")).count(),
        2,
        "{}: {out}",
        spec.name
    );
    assert!(out.contains("bye"), "{}: {out}", spec.name);
}

#[test]
fn a_stray_byte_in_play_is_reprompted_in_every_game() {
    stray_byte_is_reprompted(&onitama());
    stray_byte_is_reprompted(&tafl());
    stray_byte_is_reprompted(&hus());
    stray_byte_is_reprompted(&yinsh());
    stray_byte_is_reprompted(&kalah());
}

#[test]
fn every_game_names_its_own_sides() {
    let names = [
        (
            plies_onitama::Onitama::side_name(Side::First),
            plies_onitama::Onitama::side_name(Side::Second),
        ),
        (
            plies_tafl::Tafl::side_name(Side::First),
            plies_tafl::Tafl::side_name(Side::Second),
        ),
        (
            plies_hus::Hus::side_name(Side::First),
            plies_hus::Hus::side_name(Side::Second),
        ),
        (
            plies_yinsh::Yinsh::side_name(Side::First),
            plies_yinsh::Yinsh::side_name(Side::Second),
        ),
        (
            plies_kalah::Kalah::side_name(Side::First),
            plies_kalah::Kalah::side_name(Side::Second),
        ),
    ];
    let expected = [
        ("red", "blue"),
        ("attackers", "defenders"),
        ("player 0", "player 1"),
        ("white", "black"),
        ("south", "north"),
    ];
    for ((first, second), (want_first, want_second)) in names.iter().zip(expected) {
        assert_eq!((first.as_str(), second.as_str()), (want_first, want_second));
    }
}

/// Red's master faces blue's one step ahead and red holds the crane (one step forward): red
/// wins at once, and the game-over line says so in Onitama's words.
#[test]
fn game_over_lines_use_the_games_side_names() {
    let out = run_on(
        &onitama(),
        &[
            "play",
            "--human",
            "none",
            "--depth",
            "2",
            "--position",
            "b4/5/2B2/2R2/4r r monkey,crane tiger,crab dragon",
        ],
        b"",
    )
    .unwrap();
    assert!(out.contains("game over: red won"), "{out}");
    assert!(out.contains("red (engine) plays"), "{out}");
    assert!(!out.contains("first player"), "{out}");
}

#[test]
fn scores_say_from_whose_view() {
    let out = run_on(&onitama(), &["analyze", "--depth", "2"], b"").unwrap();
    assert!(out.contains("(scores for red, to move)"), "{out}");
    let best = out.lines().find(|line| line.starts_with("best ")).unwrap();
    assert!(best.contains(" for red depth 2"), "{best}");
    let moves = "tiger a1-a3";
    let out = run_on(
        &onitama(),
        &["analyze", "--depth", "2", "--moves", moves],
        b"",
    );
    // Whatever the opening move's text, an accepted one puts blue to move.
    if let Ok(out) = out {
        assert!(out.contains("(scores for blue, to move)"), "{out}");
    }
    let out = run_on(
        &tafl(),
        &[
            "play",
            "--human",
            "none",
            "--depth",
            "1",
            "--max-plies",
            "2",
        ],
        b"",
    )
    .unwrap();
    assert!(out.contains("attackers (engine) plays"), "{out}");
    assert!(out.contains("defenders (engine) plays"), "{out}");
    assert!(out.contains(" for attackers, depth 1"), "{out}");
    assert!(out.contains(" for defenders, depth 1"), "{out}");
}

#[test]
fn errors_are_one_line_and_name_the_option() {
    for args in [
        &["perft", "--depth", "-1"][..],
        &["analyze", "--time", "-5"],
        &["arena", "-e", "pvs", "-e", "pvs", "--nodes", "-3"],
        &["perft", "--depth", "x"],
        &["perft"],
        &["nosuch"],
    ] {
        let err = run_on(&onitama(), args, b"").unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with("error: ") && !text.contains('\n'),
            "{args:?}: {text}"
        );
        if args.len() > 1 && args[args.len() - 1].starts_with('-') {
            let option = args[args.len() - 2];
            assert!(text.contains(option), "{args:?}: {text}");
        }
        assert!(matches!(err, CliError::Usage(_)), "{args:?}: {err:?}");
    }
    let long = "x".repeat(5_000);
    for args in [
        &["analyze", "--depth", "2", "--position", long.as_str()][..],
        &["analyze", "--depth", "2", "--searcher", long.as_str()],
        &["perft", "--depth", long.as_str()],
    ] {
        let text = run_on(&onitama(), args, b"").unwrap_err().to_string();
        assert!(!text.contains('\n'), "{text}");
        assert!(!text.contains(&"x".repeat(81)), "{text}");
    }
}

#[test]
fn a_game_without_weights_offers_no_tune_and_no_weights() {
    let help = run_on(&kalah(), &["--help"], b"").unwrap();
    assert!(
        !help.contains("tune") && !help.contains("--weights"),
        "{help}"
    );
    for args in [
        &["tune", "status", "--dir", "x"][..],
        &["--weights", "w.txt", "perft", "--depth", "1"],
    ] {
        let text = run_on(&kalah(), args, b"").unwrap_err().to_string();
        assert!(text.contains("no tunable weights"), "{text}");
    }
    let help = run_on(&onitama(), &["--help"], b"").unwrap();
    assert!(
        help.contains("tune") && help.contains("--weights"),
        "{help}"
    );
}
