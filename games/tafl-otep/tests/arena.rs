//! OTEP engines in plies' arena ([`OtepAgent`]): the `tafl-otep` engine plays whole Brandub
//! games from openings with either side to move, never forfeiting (its board follows the
//! host's through `rules`, `move` and `opponent-move`, or it would answer illegal moves); and
//! scripted bad engines (an illegal move, a crash, silence, garbage) lose each game they play
//! with the reason recorded while the match finishes; under a clock a silent one loses on time.
//! Scripted engines that go on talking after their moves, or replay a stale move once, finish
//! their game: the agent lets them settle and asks again, as the referee does.
//!
//! Key invariant: the bad engines are small shell scripts written for the test, so each
//! behaviour is exactly the one named; the arena, not the engine, judges every move.
#![cfg(unix)]

use std::path::PathBuf;
use std::time::Duration;

use plies::agent::{Agent, SearchAgent};
use plies::search::{Clock, SearchLimits};
use plies::spec::SearcherSpec;
use plies::{Game, Notation, Side};
use plies_cli::arena::{
    Arena, ArenaConfig, Engine, GameRecord, GameResult, GameTask, Schedule, SideName, Termination,
    random_openings,
};
use plies_tafl::{Tafl, TaflEvaluator, start_of};
use plies_tafl_otep::agent::{OtepAgent, OtepCommand};

fn otep(command: String) -> Engine<Tafl> {
    let engine = OtepCommand::parse(&command).unwrap();
    engine.check().unwrap();
    Engine::new("otep", move || -> Box<dyn Agent<Tafl>> {
        Box::new(OtepAgent::new(engine.clone()))
    })
}

fn searcher() -> Engine<Tafl> {
    Engine::new("pvs", || -> Box<dyn Agent<Tafl>> {
        let spec: SearcherSpec = "pvs".parse().unwrap();
        Box::new(SearchAgent::new(
            spec.build(TaflEvaluator::default()).expect("a small table"),
        ))
    })
}

/// Brandub openings `plies` random moves deep.
fn openings(count: usize, plies: u32) -> Vec<Tafl> {
    random_openings(&start_of("brandub").unwrap(), 11, count, plies)
}

fn run(engines: Vec<Engine<Tafl>>, openings: Vec<Tafl>, config: ArenaConfig) -> Vec<GameRecord> {
    let arena = Arena::new(engines, openings, config).with_notation();
    arena.run(&arena.head_to_head(), &[], &mut |_, _| {})
}

#[test]
fn the_otep_engine_plays_whole_games_from_any_side_to_move() {
    let command = format!("{} --move-time 20", env!("CARGO_BIN_EXE_tafl-otep"));
    // Odd and even walks: defenders and attackers to move at the opening.
    let mut starts = openings(2, 3);
    starts.extend(openings(2, 4));
    assert!(starts.iter().any(|s| s.side_to_move() == Side::Second));
    assert!(starts.iter().any(|s| s.side_to_move() == Side::First));
    let config = ArenaConfig {
        limits: SearchLimits::depth(2),
        max_plies: 120,
        workers: 2,
        ..ArenaConfig::default()
    };
    let records = run(vec![otep(command), searcher()], starts, config);
    assert_eq!(records.len(), 8);
    for record in &records {
        assert!(
            matches!(record.termination, Termination::Rules | Termination::PlyCap),
            "{record:?}"
        );
        assert!(record.plies > 0);
        // Every move of the record is legal from the opening (the arena checked it; the
        // record says so again).
        let mut state = Tafl::parse_position(record.opening_position.as_deref().unwrap()).unwrap();
        for text in &record.moves {
            state = state.play(state.parse_move(text).unwrap());
        }
    }
}

/// A shell script engine: says hello, and on `play` does `on_play`.
fn script(name: &str, on_play: &str) -> String {
    let path: PathBuf =
        std::env::temp_dir().join(format!("plies-otep-arena-{}-{name}.sh", std::process::id()));
    let text = format!(
        "#!/bin/sh\necho hello\nwhile read -r line; do\n  case \"$line\" in\n    play*) {on_play} ;;\n    goodbye*) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, text).unwrap();
    let status = std::process::Command::new("chmod")
        .arg("+x")
        .arg(&path)
        .status()
        .unwrap();
    assert!(status.success());
    path.display().to_string()
}

#[test]
fn bad_otep_engines_lose_each_game_cleanly() {
    for (name, on_play, reason) in [
        ("illegal", "echo 'move a1-a7'", "is not a legal move"),
        ("crash", "exit 3", "the engine ended"),
        ("silent", ":", "the engine said nothing in time"),
        (
            "garbage",
            "echo 'move ☃☃'; echo '\u{1}\u{2}'",
            "is not a legal move",
        ),
    ] {
        let timeout = if name == "silent" { "timeout=1:" } else { "" };
        let command = format!("{timeout}{}", script(name, on_play));
        let config = ArenaConfig {
            limits: SearchLimits::depth(1),
            workers: 2,
            ..ArenaConfig::default()
        };
        let records = run(vec![otep(command), searcher()], openings(2, 2), config);
        assert_eq!(records.len(), 4, "{name}");
        for record in &records {
            let bad = if record.engines[0] == 0 {
                Side::First
            } else {
                Side::Second
            };
            let Termination::Forfeit { side, reason: why } = &record.termination else {
                panic!("{name}: {record:?}");
            };
            assert_eq!(format!("{side:?}"), format!("{bad:?}"), "{name}");
            assert!(why.contains(reason), "{name}: {why}");
            assert_eq!(record.result, GameResult::win_for(bad.opponent()), "{name}");
        }
    }
}

#[test]
fn a_silent_otep_engine_under_a_clock_loses_on_time() {
    let config = ArenaConfig {
        limits: SearchLimits::default(),
        clock: Some(Clock::new(Duration::from_millis(200), Duration::ZERO)),
        workers: 2,
        ..ArenaConfig::default()
    };
    let command = script("silent-clock", ":");
    let records = run(vec![otep(command), searcher()], openings(1, 2), config);
    assert_eq!(records.len(), 2);
    for record in &records {
        let silent = if record.engines[0] == 0 {
            Side::First
        } else {
            Side::Second
        };
        let Termination::OutOfTime { side, left_ms, .. } = &record.termination else {
            panic!("{record:?}");
        };
        assert_eq!(format!("{side:?}"), format!("{silent:?}"), "{record:?}");
        assert_eq!(*left_ms, 200, "{record:?}");
        assert_eq!(record.result, GameResult::win_for(silent.opponent()));
    }
}

/// One game from Brandub's start between two OTEP engines playing transcript sections
/// (`options` before each command, e.g. `retries=0:`), 1 s a move, stopped after 4 plies;
/// returns the record and the lines each engine received.
fn transcript_game(test: &str, sections: [&str; 2], options: &str) -> (GameRecord, [String; 2]) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("otep-arena-{test}"));
    std::fs::create_dir_all(&dir).unwrap();
    let transcript =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/otep-transcript.txt");
    let script = env!("CARGO_BIN_EXE_tafl-otep-script");
    let logs = sections.map(|name| dir.join(format!("{name}.log")));
    let engines = sections
        .iter()
        .zip(&logs)
        .map(|(name, log)| {
            otep(format!(
                "{options}{script} {} {name} {}",
                transcript.display(),
                log.display()
            ))
        })
        .collect();
    let config = ArenaConfig {
        limits: SearchLimits::time(Duration::from_secs(1)),
        max_plies: 4,
        workers: 1,
        ..ArenaConfig::default()
    };
    let arena = Arena::new(engines, vec![start_of("brandub").unwrap()], config).with_notation();
    let schedule = Schedule {
        tasks: vec![GameTask {
            id: 0,
            opening: 0,
            engines: [0, 1],
        }],
    };
    let mut records = arena.run(&schedule, &[], &mut |_, _| {});
    assert_eq!(records.len(), 1);
    let received = logs.map(|log| std::fs::read_to_string(log).unwrap());
    (records.remove(0), received)
}

#[test]
fn otep_engines_that_talk_late_or_replay_a_stale_move_finish_their_game() {
    let (record, received) =
        transcript_game("compatible", ["late-attackers", "stale-defenders"], "");
    assert_eq!(record.termination, Termination::PlyCap, "{record:?}");
    assert_eq!(
        record.moves,
        ["b4-b6", "e4-e6", "f4-f6", "c4-c5"],
        "{record:?}"
    );
    // The stale move was refused and asked for again: the opponent's move, then `play`.
    let after_error: Vec<&str> = received[1]
        .lines()
        .skip_while(|l| *l != "error 2")
        .take(4)
        .collect();
    assert_eq!(after_error.len(), 4, "{}", received[1]);
    assert!(
        after_error[1].starts_with("opponent-move f4-f6 "),
        "{after_error:?}"
    );
    assert_eq!(after_error[3], "play defenders", "{after_error:?}");
}

#[test]
fn without_settling_or_retries_those_engines_lose() {
    // The controls: the scripted engines really crash, or really play the stale move.
    let (record, _) = transcript_game(
        "unsettled",
        ["late-attackers", "game-defenders"],
        "settle=0:",
    );
    let Termination::Forfeit { side, .. } = &record.termination else {
        panic!("{record:?}");
    };
    assert_eq!(*side, SideName::First, "{record:?}");
    let (record, _) = transcript_game(
        "no-retry",
        ["game-attackers", "stale-defenders"],
        "retries=0:",
    );
    let Termination::Forfeit { side, reason } = &record.termination else {
        panic!("{record:?}");
    };
    assert_eq!(*side, SideName::Second, "{record:?}");
    assert!(reason.contains("is not a legal move"), "{reason}");
}
