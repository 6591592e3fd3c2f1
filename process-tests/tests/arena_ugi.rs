//! The arena as a UGI host: external engine processes driven through `--engine ugi:...` (the
//! agent `UgiAgent`), plies the arbiter. On Kalah, the tutorial game:
//! - the host's side of the protocol, as the engine receives it, line for line;
//! - plies through UGI against plies in process at a fixed depth plays the games plies plays
//!   against itself in process (the protocol changes nothing), and the results file resumes;
//! - bad engines (an illegal move, a crash, silence, garbage) lose each game they play, with
//!   the reason recorded, and the match finishes; under a clock a silent engine loses on time.
//!
//! Key invariant: the engines are this package's helper binary (`plies-test-child`, Kalah's
//! `ugi` command or a scripted engine); the expected host lines are rebuilt from the record's
//! moves and the protocol text, not from the host's code.
#![cfg(unix)]

use std::path::{Path, PathBuf};

use plies::agent::{Agent, RandomAgent};
use plies::search::{Clock, SearchLimits};
use plies::{Game, Notation};
use plies_cli::arena::{
    Arena, ArenaConfig, Engine, GameRecord, GameResult, Termination, UgiAgent, UgiEngine,
};
use plies_cli::{GameCli, run};
use plies_kalah::Kalah;

/// The helper binary this package builds for its tests.
const CHILD: &str = env!("CARGO_BIN_EXE_plies-test-child");

fn kalah() -> GameCli<Kalah> {
    plies_process_tests::kalah()
}

/// The command line of an engine process: Kalah's own `ugi` command (`plies`), or a scripted
/// engine with `mode` (see `plies_process_tests::EngineMode`), logging to `log` when given.
fn command(mode: &str, log: Option<&Path>) -> String {
    match (mode, log) {
        ("plies", _) => format!("{CHILD} kalah ugi"),
        (_, Some(path)) => format!("{CHILD} ugi-engine {mode} {}", path.display()),
        (_, None) => format!("{CHILD} ugi-engine {mode}"),
    }
}

fn ugi_engine(mode: &str, log: Option<&Path>, settings: &str) -> Engine<Kalah> {
    let engine = UgiEngine::parse(&format!("{settings}{}", command(mode, log))).unwrap();
    Engine::new(format!("ugi-{mode}"), move || -> Box<dyn Agent<Kalah>> {
        Box::new(UgiAgent::new(engine.clone()))
    })
}

fn random() -> Engine<Kalah> {
    Engine::new("random", || -> Box<dyn Agent<Kalah>> {
        Box::new(RandomAgent::new(5))
    })
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("plies-arena-ugi-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&dir);
    dir
}

fn openings(count: usize) -> Vec<Kalah> {
    plies_cli::arena::random_openings(&Kalah::start_position(), 3, count, 2)
}

/// One game at a time, both sides on a `base_ms + inc_ms` clock and no other limit.
fn clocked(base_ms: u64, inc_ms: u64) -> ArenaConfig {
    let ms = std::time::Duration::from_millis;
    ArenaConfig {
        limits: SearchLimits::default(),
        clock: Some(Clock::new(ms(base_ms), ms(inc_ms))),
        workers: 1,
        ..ArenaConfig::default()
    }
}

fn play(engines: Vec<Engine<Kalah>>, openings: Vec<Kalah>, config: ArenaConfig) -> Vec<GameRecord> {
    let arena = Arena::new(engines, openings, config).with_notation();
    arena.run(&arena.head_to_head(), &[], &mut |_, _| {})
}

/// The engine's log is exactly the host's lines as the protocol text orders them: the
/// handshake once per process, then per game `uginewgame` and `isready`, per move the start
/// position with the moves played so far and `go` with the limit, and `quit` at the end.
#[test]
fn the_host_speaks_ugi_as_the_protocol_writes_it() {
    let log = temp("transcript.log");
    let config = ArenaConfig {
        limits: SearchLimits::depth(3),
        workers: 1,
        ..ArenaConfig::default()
    };
    let records = play(
        vec![ugi_engine("first", Some(&log), ""), random()],
        openings(1),
        config,
    );
    assert_eq!(records.len(), 2);
    let mut expected = vec!["ugi".to_string(), "isready".to_string()];
    for record in &records {
        assert_eq!(record.termination, Termination::Rules, "{record:?}");
        expected.push("uginewgame".into());
        expected.push("isready".into());
        let start_text = record.opening_position.clone().unwrap();
        let mut state = Kalah::parse_position(&start_text).unwrap();
        // The engine is engine 0: it plays the side whose index is its place in `engines`.
        let ours = if record.engines[0] == 0 {
            plies::Side::First
        } else {
            plies::Side::Second
        };
        let mut played: Vec<&str> = Vec::new();
        for text in &record.moves {
            if state.side_to_move() == ours {
                let mut position = format!("position fen {start_text}");
                if !played.is_empty() {
                    position += &format!(" moves {}", played.join(" "));
                }
                expected.push(position);
                expected.push("go depth 3".into());
            }
            state = state.play(state.parse_move(text).unwrap());
            played.push(text);
        }
    }
    expected.push("quit".into());
    let got = std::fs::read_to_string(&log).unwrap();
    let got: Vec<&str> = got.lines().collect();
    assert_eq!(got, expected);
    std::fs::remove_file(&log).unwrap();
}

/// Under a clock the host sends both clocks and increments with every `go`: the mover's own
/// clock is the base at its first move and never more than the base plus its increments after.
#[test]
fn the_host_sends_the_clock_with_every_go() {
    let log = temp("clock.log");
    let config = clocked(5000, 100);
    let records = play(
        vec![ugi_engine("first", Some(&log), ""), random()],
        openings(1),
        config,
    );
    assert!(records.iter().all(|r| r.termination == Termination::Rules));
    let text = std::fs::read_to_string(&log).unwrap();
    let mut games = 0;
    let mut own_moves = 0;
    for line in text.lines() {
        if line == "uginewgame" {
            games += 1;
            own_moves = 0;
        }
        let Some(rest) = line.strip_prefix("go ") else {
            continue;
        };
        let words: Vec<&str> = rest.split(' ').collect();
        assert_eq!(words.len(), 8, "{line}");
        assert_eq!(
            [words[0], words[2], words[4], words[5], words[6], words[7]],
            ["p1time", "p2time", "p1inc", "100", "p2inc", "100"],
            "{line}"
        );
        let times: Vec<u64> = [words[1], words[3]].map(|w| w.parse().unwrap()).to_vec();
        // Engine 0 is the first player in the even game of the pair.
        let ours = times[if games == 1 { 0 } else { 1 }];
        if own_moves == 0 {
            assert_eq!(ours, 5000, "{line}");
        }
        assert!(times.iter().all(|&t| t <= 5000 + 100 * 200), "{line}");
        own_moves += 1;
    }
    assert_eq!(games, 2);
    std::fs::remove_file(&log).unwrap();
}

/// The command line's arena with `-e ugi:...` and its results file.
fn arena_cli(args: &str, results: &Path) -> String {
    let mut argv: Vec<String> = vec!["kalah".into(), "arena".into()];
    for word in args.split('|') {
        argv.push(word.to_string());
    }
    argv.push("--results".into());
    argv.push(results.display().to_string());
    let mut output = Vec::new();
    run(&kalah(), argv, &mut std::io::empty(), &mut output).unwrap();
    String::from_utf8(output).unwrap()
}

fn records(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The moves and results of a results file, by game id.
fn games(path: &Path) -> Vec<(u64, serde_json::Value, serde_json::Value)> {
    let mut games: Vec<_> = records(path)
        .into_iter()
        .map(|r| {
            (
                r["id"].as_u64().unwrap(),
                r["moves"].clone(),
                r["result"].clone(),
            )
        })
        .collect();
    games.sort_by_key(|game| game.0);
    games
}

#[test]
fn plies_through_ugi_plays_the_games_it_plays_in_process_and_resumes() {
    let common = "--depth|3|--openings|3|--opening-plies|2|--seed|9|--concurrency|2|--no-progress";
    let direct = temp("direct.jsonl");
    arena_cli(&format!("-e|pvs|-e|pvs|{common}"), &direct);
    let through = temp("through.jsonl");
    let ugi = format!("-e|ugi:{}|-e|pvs|{common}", command("plies", None));
    let text = arena_cli(&ugi, &through);
    assert!(text.contains("6 games"), "{text}");
    let (a, b) = (games(&direct), games(&through));
    assert_eq!(a.len(), 6);
    assert_eq!(a, b, "the protocol changed a game");
    // Resume: keep the first two records, run again, get the same six games.
    let kept: Vec<String> = std::fs::read_to_string(&through)
        .unwrap()
        .lines()
        .take(2)
        .map(|line| format!("{line}\n"))
        .collect();
    std::fs::write(&through, kept.concat()).unwrap();
    let text = arena_cli(&ugi, &through);
    assert!(text.contains("(2 already played)"), "{text}");
    assert_eq!(games(&through), b);
    std::fs::remove_file(&direct).unwrap();
    std::fs::remove_file(&through).unwrap();
    // Under a clock, plies' own engine budgets from the clock it is sent and never runs out.
    let clocked = temp("clocked.jsonl");
    let text = arena_cli(
        &format!(
            "-e|ugi:{}|-e|pvs|--tc|2+0.05|--openings|1|--concurrency|1|--no-progress",
            command("plies", None)
        ),
        &clocked,
    );
    assert!(text.contains("clock 2+0.05"), "{text}");
    assert!(text.contains("forfeits 0, lost on time 0"), "{text}");
    std::fs::remove_file(&clocked).unwrap();
}

/// Each bad engine loses every game it plays by forfeit, naming what went wrong; the other
/// games of the match are played to the end.
#[test]
fn bad_engines_lose_each_game_cleanly_and_the_match_finishes() {
    for (mode, reason) in [
        ("illegal", "is not a legal move"),
        ("crash", "the engine ended (exit status: 3)"),
        ("silent", "the engine said nothing in time (it hangs)"),
        ("garbage", "bestmove '☃' is not a legal move"),
    ] {
        let settings = if mode == "silent" { "timeout=2:" } else { "" };
        let engines = vec![
            ugi_engine(mode, None, settings),
            ugi_engine("first", None, ""),
            random(),
        ];
        let arena_openings = openings(2);
        let config = ArenaConfig {
            limits: SearchLimits::depth(2),
            workers: 2,
            ..ArenaConfig::default()
        };
        let arena = Arena::new(engines, arena_openings, config).with_notation();
        let schedule = plies_cli::arena::Schedule::round_robin(3, 2);
        let records = arena.run(&schedule, &[], &mut |_, _| {});
        assert_eq!(records.len(), 12, "{mode}");
        for record in &records {
            let Some(bad) = record.engines.iter().position(|&e| e == 0) else {
                // The good engines' games end by the rules.
                assert_eq!(record.termination, Termination::Rules, "{mode}: {record:?}");
                continue;
            };
            let side = if bad == 0 { "First" } else { "Second" };
            match &record.termination {
                Termination::Forfeit {
                    side: lost,
                    reason: why,
                } => {
                    assert_eq!(format!("{lost:?}"), side, "{mode}: {record:?}");
                    assert!(why.contains(reason), "{mode}: {why}");
                }
                other => panic!("{mode}: {other:?} in {record:?}"),
            }
            let winner = if bad == 0 {
                GameResult::SecondWins
            } else {
                GameResult::FirstWins
            };
            assert_eq!(record.result, winner, "{mode}");
        }
    }
}

/// Under a clock a silent engine loses on time, not by a hang: the host stops waiting once its
/// clock has run out, and the game says how long it took.
#[test]
fn a_silent_engine_under_a_clock_loses_on_time() {
    let config = clocked(300, 10);
    let records = play(
        vec![ugi_engine("silent", None, ""), random()],
        openings(1),
        config,
    );
    assert_eq!(records.len(), 2);
    for record in &records {
        let Termination::OutOfTime {
            side,
            used_ms,
            left_ms,
        } = record.termination
        else {
            panic!("{record:?}");
        };
        // The silent engine (engine 0) lost, on its first move, and the random one won.
        let (silent, winner) = if record.engines[0] == 0 {
            ("First", GameResult::SecondWins)
        } else {
            ("Second", GameResult::FirstWins)
        };
        assert_eq!(format!("{side:?}"), silent, "{record:?}");
        assert_eq!(record.result, winner, "{record:?}");
        assert_eq!(left_ms, 300, "the first move of the engine: {record:?}");
        assert!(used_ms > left_ms && used_ms < 10_000, "{record:?}");
    }
}
