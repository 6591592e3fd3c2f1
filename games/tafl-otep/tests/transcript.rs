//! OTEP exchanges written from OpenTafl's engine protocol document
//! (`tests/data/otep-transcript.txt`), run in both roles: our engine fed the host's lines must
//! answer what the protocol requires, and our referee driving a scripted engine must send
//! exactly the host lines of the transcript (a valid clock, no `side` before the game), also
//! when one engine goes on talking after its moves (it must be let settle) and the other
//! replays a stale move (it must be asked again, not forfeited).
//!
//! Key invariant: the expected lines come from the transcript file, never from the code under
//! test; the engine's own move choices are only required to be legal in the transcript's
//! position (a model built with the game rules, not with the OTEP code).

use std::io::Cursor;
use std::path::PathBuf;
use std::time::Duration;

use plies::{Game, Notation, Side};
use plies_tafl::{Board, GameRecord, Tafl};
use plies_tafl_otep::engine::{TranscriptLine, run_engine, transcript_section};
use plies_tafl_otep::referee::{GameResult, MatchConfig, Settle, run_match};

const TRANSCRIPT: &str = include_str!("data/otep-transcript.txt");

/// `(host sends it, text)` for each line of section `name` (late engine lines as engine lines).
fn section(name: &str) -> Vec<(bool, String)> {
    transcript_section(TRANSCRIPT, name)
        .unwrap_or_else(|| panic!("no section {name} in the transcript"))
        .into_iter()
        .map(|line| match line {
            TranscriptLine::Host(l) => (true, l),
            TranscriptLine::Engine(l) | TranscriptLine::Late(l) => (false, l),
        })
        .collect()
}

fn host_lines(name: &str) -> Vec<String> {
    section(name)
        .into_iter()
        .filter_map(|(host, l)| host.then_some(l))
        .collect()
}

/// The transcript game as the host sees it, from the host's lines alone.
struct Model {
    record: GameRecord,
    /// The engine's move of the transcript, until the host accepts it.
    pending: Option<String>,
}

impl Model {
    fn board(&self, text: &str) -> Board {
        Board::parse(text, self.record.current().rules().dim, false).unwrap()
    }

    fn follow(&mut self, line: &str) {
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        let current = *self.record.current();
        match command {
            "rules" => self.record = GameRecord::new(Tafl::parse(rest).unwrap()),
            "position" => {
                let board = self.board(rest);
                let side = current.side_to_move();
                self.record = GameRecord::new(Tafl::new(current.rules(), board, side));
            }
            "side" => {
                let side = if rest == "attackers" {
                    Side::First
                } else {
                    Side::Second
                };
                self.record = GameRecord::new(Tafl::new(current.rules(), *current.board(), side));
            }
            "move" => {
                let mv = self.pending.take().expect("an engine move to accept");
                self.record.play_text(&mv).unwrap();
                assert!(*self.record.current().board() == self.board(rest), "{line}");
            }
            "opponent-move" => {
                let (moves, board) = rest.split_once(' ').unwrap();
                if self.board(board) != *current.board() {
                    for m in moves.split('|') {
                        self.record.play_text(m).unwrap();
                    }
                }
                assert!(
                    *self.record.current().board() == self.board(board),
                    "{line}"
                );
            }
            "error" => self.pending = None,
            _ => {}
        }
    }
}

/// Runs section `name` through the engine (as bytes, through `run_engine`) and checks every
/// reply against the transcript's engine lines.
fn engine_role(name: &str) {
    let script = section(name);
    let input: String = host_lines(name).iter().map(|l| format!("{l}\n")).collect();
    let mut output = Vec::new();
    run_engine(
        Cursor::new(input.into_bytes()),
        &mut output,
        Duration::from_millis(200),
    )
    .unwrap();
    let output = String::from_utf8(output).unwrap();
    // `status` lines are free text the engine may send at any time.
    let mut replies = output.lines().filter(|l| !l.starts_with("status "));
    let mut model = Model {
        record: GameRecord::new(Tafl::start_position()),
        pending: None,
    };
    for (host, line) in &script {
        if *host {
            model.follow(line);
            continue;
        }
        if line.starts_with("status ") {
            continue;
        }
        let got = replies
            .next()
            .unwrap_or_else(|| panic!("{name}: no reply where the transcript has '{line}'"));
        let state = *model.record.current();
        let word = line.split(' ').next().unwrap();
        match word {
            "hello" => assert_eq!(got, "hello", "{name}"),
            "move" => {
                let mv = got
                    .strip_prefix("move ")
                    .unwrap_or_else(|| panic!("{name}: expected a move, got '{got}'"));
                assert!(
                    state.parse_move(mv).is_ok(),
                    "{name}: '{mv}' is not legal for {:?} here",
                    state.side_to_move()
                );
                model.pending = Some(line["move ".len()..].to_string());
            }
            "analysis" => {
                let words: Vec<&str> = got.split(' ').collect();
                assert_eq!(words[0], "analysis", "{name}: {got}");
                let count: usize = words[1].parse().unwrap();
                assert!(count >= 1, "{name}: {got}");
                assert_eq!(words.len(), 2 + 2 * count, "{name}: {got}");
                let first = words[2].split('|').next().unwrap();
                assert!(
                    state.parse_move(first).is_ok(),
                    "{name}: analysis move '{first}' is not legal for {:?} here",
                    state.side_to_move()
                );
                assert!(words[3].parse::<f64>().is_ok(), "{name}: {got}");
            }
            other => panic!("transcript engine line '{other}' has no check"),
        }
    }
    let rest: Vec<&str> = replies.collect();
    assert!(rest.is_empty(), "{name}: unexpected replies {rest:?}");
}

#[test]
fn engine_plays_the_attackers_transcript() {
    engine_role("game-attackers");
}

#[test]
fn engine_plays_the_defenders_transcript() {
    engine_role("game-defenders");
}

#[test]
fn engine_replays_after_a_refused_move() {
    engine_role("retry");
}

#[test]
fn engine_analyzes_with_the_side_it_is_given() {
    engine_role("analysis");
}

/// Whether a host line is one the protocol allows a host to send in a game, with a clock that
/// gives the mover time.
fn valid_game_line(line: &str) -> Result<(), String> {
    let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
    match command {
        "rules" | "play" | "move" | "opponent-move" | "finish" | "goodbye" | "error" => Ok(()),
        "clock" => {
            let f: Vec<&str> = rest.split(' ').collect();
            if f.len() != 5 {
                return Err(format!("clock needs 5 fields: {line}"));
            }
            for t in &f[..2] {
                let ms: i64 = t
                    .trim_end_matches('*')
                    .parse()
                    .map_err(|_| line.to_string())?;
                if t.ends_with('*') && ms <= 0 {
                    return Err(format!("no time left in the overtime period: {line}"));
                }
            }
            Ok(())
        }
        other => Err(format!(
            "'{other}' is not sent to an engine in a game: {line}"
        )),
    }
}

/// The referee plays the transcript game between the scripted engines of sections
/// `attackers` and `defenders` (4 plies, then a draw by the ply limit); returns the game's
/// result and the lines each engine received.
fn referee_role(
    test: &str,
    [attackers, defenders]: [&str; 2],
    settle: Settle,
    retries: u32,
) -> (GameResult, [Vec<String>; 2]) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("otep-transcript-{test}"));
    std::fs::create_dir_all(&dir).unwrap();
    let transcript =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/otep-transcript.txt");
    let script = env!("CARGO_BIN_EXE_tafl-otep-script");
    let logs = [dir.join("attackers.log"), dir.join("defenders.log")];
    let sections = [attackers, defenders];
    let engines = sections
        .iter()
        .zip(&logs)
        .map(|(name, log)| format!("{script} {} {name} {}", transcript.display(), log.display()));
    let engines: Vec<String> = engines.collect();
    let rules = host_lines(attackers)[0]
        .strip_prefix("rules ")
        .unwrap()
        .to_string();
    let config = MatchConfig {
        engines: [engines[0].clone(), engines[1].clone()],
        variants: vec![rules],
        games_per_variant: 1,
        move_time: Duration::from_secs(1),
        grace: Duration::from_secs(5),
        max_plies: 4,
        out_dir: dir.join("games"),
        settle,
        retries,
    };
    let mut results = run_match(&config).unwrap();
    assert_eq!(results.len(), 1);
    let received = logs.map(|log| {
        std::fs::read_to_string(log)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    });
    (results.remove(0), received)
}

/// The game was played to the ply limit and each engine received exactly its section's host
/// lines, every one valid in a game.
fn assert_transcript_followed(sections: [&str; 2], result: &GameResult, received: &[Vec<String>]) {
    assert_eq!(result.plies, 4, "{result:?}");
    assert_eq!(result.outcome, None, "{result:?}");
    assert_eq!(result.reason, "ply limit", "{result:?}");
    for (name, sent) in sections.iter().zip(received) {
        for line in sent {
            assert_eq!(valid_game_line(line), Ok(()), "{name}");
        }
        assert_eq!(*sent, host_lines(name), "{name}: the referee's lines");
    }
}

#[test]
fn referee_sends_the_transcript_host_lines() {
    let sections = ["game-attackers", "game-defenders"];
    let (result, received) = referee_role("plain", sections, Settle::DEFAULT, 2);
    assert_transcript_followed(sections, &result, &received);
    assert_eq!(result.retried, 0);
}

#[test]
fn referee_lets_an_engine_settle_and_asks_again_after_a_stale_move() {
    let sections = ["late-attackers", "stale-defenders"];
    let (result, received) = referee_role("compatible", sections, Settle::DEFAULT, 2);
    assert_transcript_followed(sections, &result, &received);
    assert_eq!(result.retried, 1, "{result:?}");
}

#[test]
fn without_settling_the_late_engine_crashes_and_loses() {
    // The control: the scripted engine really crashes when it is not let settle.
    let sections = ["late-attackers", "game-defenders"];
    let (result, _) = referee_role("unsettled", sections, Settle::NONE, 2);
    assert_eq!(
        result.outcome,
        Some(plies::Outcome::Win(Side::Second)),
        "{result:?}"
    );
    assert!(result.reason.starts_with("engine 0: "), "{result:?}");
    assert!(result.plies < 4, "{result:?}");
}

#[test]
fn without_retries_the_stale_move_loses() {
    let sections = ["game-attackers", "stale-defenders"];
    let (result, received) = referee_role("no-retry", sections, Settle::DEFAULT, 0);
    assert_eq!(
        result.outcome,
        Some(plies::Outcome::Win(Side::First)),
        "{result:?}"
    );
    assert!(
        result.reason.starts_with("engine 1: illegal move"),
        "{result:?}"
    );
    assert_eq!(result.plies, 3, "{result:?}");
    assert_eq!(received[1].last().map(String::as_str), Some("goodbye"));
    assert!(received[1].contains(&"error 2".to_string()));
}

#[test]
fn game_line_check_rejects_what_the_old_referee_sent() {
    assert!(valid_game_line("clock 0* 0 5 1 1").is_err());
    assert!(valid_game_line("side defenders").is_err());
    assert!(valid_game_line("clock 5000* 5000* 5 1 1").is_ok());
}
