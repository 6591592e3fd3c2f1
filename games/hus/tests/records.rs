//! Hus game records: the COMP 424 game server's logs (`PIT <player> <pit>` lines), read from
//! real server logs and written for the reference games of the rules document.

use plies::{Game, Notation, Outcome, PLAIN_RECORD, Side};
use plies_hus::{Hus, Pit, random_game_moves};

fn real_log(name: &str) -> String {
    let path = format!("{}/tests/data/comp424/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn replay(start: &Hus, moves: &[Pit]) -> Hus {
    moves
        .iter()
        .fold(start.clone(), |state, &mv| state.play(mv))
}

/// Real server logs replay under these rules to the result the server recorded (the reader
/// checks every `PIT` line's player and legality and the `GAMEOVER` line).
#[test]
fn real_server_logs_replay_to_their_result() {
    for (name, plies, winner) in [
        ("game00001.log", 31, Side::First),
        ("game00011.log", 37, Side::First),
        ("game00015.log", 366, Side::Second),
    ] {
        let text = real_log(name);
        let (start, moves) = Hus::read_record(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(start, Hus::start_position(), "{name}");
        assert_eq!(moves.len(), plies, "{name}");
        let end = replay(&start, &moves);
        assert_eq!(end.outcome(), Some(Outcome::Win(winner)), "{name}");
        // Written again, the log has the same moves and result lines.
        let written = start.write_record(&moves);
        let lines = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| l.starts_with("PIT") || l.starts_with("GAMEOVER"))
                .map(String::from)
                .collect()
        };
        assert_eq!(lines(&written), lines(&text), "{name}");
    }
}

/// The rules document's reference game for seed 1 (224 plies, player 1 wins, first moves
/// 14 9 18 ...), as a log.
#[test]
fn the_seed_one_reference_game_as_a_log() {
    let start = Hus::start_position();
    let (moves, _) = random_game_moves(&start, 1, 1000);
    let text = start.write_record(&moves);
    let pits: Vec<&str> = text.lines().filter(|l| l.starts_with("PIT ")).collect();
    assert_eq!(pits.len(), 224);
    assert_eq!(&pits[..4], ["PIT 0 14", "PIT 1 9", "PIT 0 18", "PIT 1 10"]);
    assert_eq!(text.lines().last(), Some("GAMEOVER WINNER 1"));
    assert!(text.contains("START Player-0 "), "{text}");
    assert_eq!(Hus::read_record(&text).unwrap(), (start, moves));
    assert_eq!(Hus::record_format().extension, "log");
}

/// A game that is not over has no `GAMEOVER` line; a game from another position is written in
/// the plain format (a log always starts at the start) and read back.
#[test]
fn unfinished_games_and_other_starts() {
    let start = Hus::start_position();
    let moves = start.parse_line("14 9 18").unwrap();
    let text = start.write_record(&moves);
    assert!(!text.contains("GAMEOVER"), "{text}");
    assert_eq!(
        Hus::read_record(&text).unwrap(),
        (start.clone(), moves.clone())
    );
    let later = replay(&start, &moves);
    let next = later.parse_line("10 15").unwrap();
    let text = later.write_record(&next);
    assert!(text.starts_with("position "), "{text}");
    assert_ne!(Hus::record_format(), PLAIN_RECORD);
    assert_eq!(Hus::read_record(&text).unwrap(), (later, next));
}

/// A log ended by the server (a timeout) is read as it stands; `UNDECIDED` too.
#[test]
fn server_ended_games_are_taken_as_they_stand() {
    for ending in [
        "GAMEOVER TIMEOUT WINNER 1",
        "GAMEOVER UNDECIDED",
        "GAMEOVER USER CANCEL UNDECIDED",
    ] {
        let text = format!("START Player-0 a\nSTART Player-1 b\nPIT 0 14\nPIT 1 9\n{ending}\n");
        let (_, moves) = Hus::read_record(&text).unwrap_or_else(|e| panic!("{ending}: {e}"));
        assert_eq!(moves, vec![Pit(14), Pit(9)]);
    }
}

/// Bad logs: each error names the line and what is wrong.
#[test]
fn bad_logs_name_the_line() {
    for (text, line, words) in [
        (
            "START Player-0 a\nPIT 1 14\n",
            "line 2:",
            "player 0 is to move",
        ),
        ("PIT 0 14\nPIT 1 25\n", "line 2:", "move 2"),
        ("PIT 0 14\nPIT 1 40\n", "line 2:", "0..31"),
        ("PIT 0 14\nGAMEOVER WINNER 0\n", "line 2:", "not over"),
        ("PIT 0 14\nGAMEOVER WINNER 7\n", "line 2:", "no player 7"),
        ("PIT 0 14\nMOVE 1 9\n", "line 2:", "expected a log line"),
        ("PIT 0\n", "line 1:", "expected a log line"),
    ] {
        let error = Hus::read_record(text).unwrap_err();
        assert!(
            error.reason.starts_with(line) && error.reason.contains(words),
            "{text:?}: {error}"
        );
    }
}
