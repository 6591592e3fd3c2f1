//! Unit tests of `engine` in `plies-tafl-otep`, a child module so they reach its private items.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use super::*;
use plies_tafl::variants::variant;

const BRANDUB_START: &str = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

fn brandub_engine() -> OtepEngine {
    let mut e = OtepEngine::new(Duration::from_millis(20));
    let rules = variant("brandub").unwrap().rules;
    assert_eq!(e.handle(&format!("rules {rules}")), Vec::<String>::new());
    e
}

/// The line gets exactly one `error 0` reply.
fn assert_error(e: &mut OtepEngine, line: &str) {
    let out = e.handle(line);
    assert_eq!(out.len(), 1, "{line}: {out:?}");
    assert!(out[0].starts_with("error 0 "), "{line}: {out:?}");
    assert!(
        out[0].bytes().all(|b| b.is_ascii_graphic() || b == b' '),
        "{out:?}"
    );
}

/// The engine still plays a legal move for the side to move.
fn assert_still_plays(e: &mut OtepEngine) {
    let state = *e.record().current();
    let side = if state.side_to_move() == Side::First {
        "attackers"
    } else {
        "defenders"
    };
    let out = e.handle(&format!("play {side}"));
    let mv = out
        .iter()
        .find_map(|l| l.strip_prefix("move "))
        .unwrap_or_else(|| panic!("no move: {out:?}"));
    assert!(state.parse_move(mv).is_ok(), "{mv}");
}

#[test]
fn analyze_rejects_bad_counts_and_times() {
    let mut e = brandub_engine();
    for line in [
        "analyze 1 nan",
        "analyze 1 NaN",
        "analyze 1 inf",
        "analyze 1 -inf",
        "analyze 1 infinity",
        "analyze 1 -1",
        "analyze 1 0",
        "analyze 1 1e300",
        "analyze 1 3601",
        "analyze 0 1",
        "analyze -1 1",
        "analyze 99999999999 1",
        "analyze x 1",
        "analyze 1",
        "analyze",
        "analyze 1 1 1",
    ] {
        assert_error(&mut e, line);
    }
    let out = e.handle("analyze 2 0.05");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].starts_with("analysis 1 "), "{out:?}");
    assert_still_plays(&mut e);
}

#[test]
fn clock_rejects_bad_numbers() {
    let mut e = brandub_engine();
    for line in [
        "clock",
        "clock 1000 1000 1 1",
        "clock 1000 1000 1 1 1 1",
        "clock nan 1000 1 1 1",
        "clock inf 1000 1 1 1",
        "clock 1000 -5 1 1 1",
        "clock -1* 1000 1 1 1",
        "clock 1000 1000 -1 1 1",
        "clock 1000 1000 1 -1 1",
        "clock 1.5 1000 1 1 1",
        "clock 99999999999999999999 1000 1 1 1",
        "clock 9999999999999 1000 1 1 1",
        "clock 1000 1000 999999 1 1",
        "clock 1000** 1000 1 1 1",
        "clock *1000 1000 1 1 1",
    ] {
        assert_error(&mut e, line);
    }
    assert_eq!(e.clock, None, "a bad clock line must not set the clock");
    assert_still_plays(&mut e);
}

#[test]
fn clock_reads_main_time_and_overtime_as_the_protocol_says() {
    let c = parse_clock("60000 30000* 10 3 2").unwrap();
    assert_eq!(c.main_ms, [60000, 0]);
    assert_eq!(c.in_overtime, [false, true]);
    assert_eq!(c.period_left_ms, [0, 30000]);
    assert_eq!((c.overtime_s, c.overtime_left), (10, [3, 2]));
    // -1: no main time.
    assert_eq!(parse_clock("-1 -1 5 1 1").unwrap().main_ms, [0, 0]);
    let mut e = brandub_engine();
    e.handle("clock 5000* 5000* 5 1 1");
    assert_eq!(e.budget(Side::First), Duration::from_millis(3000));
    e.handle("clock 30000 0* 5 1 1");
    assert_eq!(e.budget(Side::First), Duration::from_millis(1000 + 3000));
    // No time left in the period: think briefly, do not fail.
    assert_eq!(e.budget(Side::Second), Duration::from_millis(20));
}

#[test]
fn non_utf8_and_long_lines_get_an_error_and_the_engine_carries_on() {
    let mut e = brandub_engine();
    let out = e.handle_bytes(b"play \xff\xfeattackers\n");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].starts_with("error 0 "), "{out:?}");
    assert_still_plays(&mut e);

    let rules = variant("brandub").unwrap().rules;
    let mut input = Vec::new();
    input.extend_from_slice(format!("rules {rules}\r\n").as_bytes());
    input.extend_from_slice(b"\xc3\x28 bad\n");
    input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
    input.extend_from_slice(b"\nanalyze 1 nan\nplay attackers\ngoodbye\nplay attackers\n");
    let mut output = Vec::new();
    run_engine(input.as_slice(), &mut output, Duration::from_millis(20)).unwrap();
    let text = String::from_utf8(output).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("status")).collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[0], "hello");
    for l in &lines[1..4] {
        assert!(l.starts_with("error 0 "), "{lines:?}");
    }
    let mv = lines[4].strip_prefix("move ").expect("a move");
    let start = Tafl::parse(rules).unwrap();
    assert!(start.parse_move(mv).is_ok(), "{mv}");
}

#[test]
fn unknown_commands_and_bad_arguments_get_an_error() {
    let mut e = brandub_engine();
    for line in [
        "frobnicate",
        "status hi",
        "PLAY attackers",
        "play",
        "play nobody",
        "side",
        "side both",
        "rules",
        "rules dim:7 start:/7/7/7/7/7/7/7/",
        "rules dim:7 bogus:y start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
        "rules brandub",
        "position /3t3/",
        "position",
        "move /zz/",
        "opponent-move",
        "opponent-move a1-a1 /3t3/",
        "opponent-move d7-c7 /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ extra",
        "finish 9",
        "finish x",
        "error",
        "error x",
    ] {
        assert_error(&mut e, line);
    }
    // None of that changed the game.
    assert!(e.record().moves().is_empty());
    assert_eq!(e.record().current().board().to_otn(7), BRANDUB_START);
    assert_still_plays(&mut e);
    assert!(e.handle("").is_empty());
    assert!(e.handle("start").is_empty());
    assert!(e.handle("goodbye").is_empty());
    assert!(e.finished());
}

#[test]
fn side_before_a_game_leaves_the_board_alone() {
    let mut e = brandub_engine();
    assert!(e.handle("side defenders").is_empty());
    assert_eq!(e.record().current().side_to_move(), Side::First);
    // After a position record, side says who is to move.
    assert!(e.handle(&format!("position {BRANDUB_START}")).is_empty());
    assert!(e.handle("side defenders").is_empty());
    assert_eq!(e.record().current().side_to_move(), Side::Second);
    assert_still_plays(&mut e);
}

#[test]
fn a_resent_opponent_move_after_an_error_is_not_an_error() {
    let mut e = brandub_engine();
    let after = "/3t3/3t3/3T3/t1TKTtt/3T3/1t1t3/3t3/";
    assert!(e.handle(&format!("opponent-move b4-b6 {after}")).is_empty());
    assert!(!e.handle("play defenders").is_empty());
    assert!(e.handle("error 2").is_empty());
    assert!(e.handle(&format!("opponent-move b4-b6 {after}")).is_empty());
    assert_eq!(e.record().moves().len(), 1);
    assert_eq!(e.record().current().side_to_move(), Side::Second);
    assert_still_plays(&mut e);
}

#[test]
fn error_replies_are_short_printable_ascii() {
    let line = error(&format!("caf\u{e9}\tbad {}", "y".repeat(500)));
    assert!(line.starts_with("error 0 caf??bad y"), "{line}");
    assert!(line.len() < 220, "{}", line.len());
    assert!(line.bytes().all(|b| b.is_ascii_graphic() || b == b' '));
}

/// The options parse as documented; bad ones are one-line errors naming the argument.
#[test]
fn engine_options() {
    let args = |text: &str| -> Vec<String> { text.split_whitespace().map(String::from).collect() };
    assert_eq!(EngineOptions::parse(&[]), Ok(EngineOptions::default()));
    let o = EngineOptions::parse(&args("--max-time 30 --move-time 7")).unwrap();
    assert_eq!(o.move_time, Duration::from_millis(7));
    assert_eq!(o.max_time, Some(Duration::from_millis(30)));
    for (bad, named) in [
        ("--move-time", "--move-time"),
        ("--move-time 0", "'0'"),
        ("--max-time -5", "'-5'"),
        ("--move-time 99999999999999999999", "99999999999999999999"),
        ("--speed 3", "'--speed'"),
    ] {
        let err = EngineOptions::parse(&args(bad)).unwrap_err();
        assert!(err.contains(named), "{bad}: {err}");
        assert!(!err.contains('\n'), "{bad}: {err}");
    }
}

/// A think cap bounds searches the host allows much longer: a one-hour `analyze` and a
/// clock with hours left both answer within a second.
#[test]
fn the_think_cap_bounds_every_search() {
    let mut e = brandub_engine().with_think_cap(Duration::from_millis(30));
    let start = std::time::Instant::now();
    let out = e.handle("analyze 1 3600");
    assert!(out[0].starts_with("analysis 1 "), "{out:?}");
    assert!(e.handle("clock 36000000 36000000 0 0 0").is_empty());
    let out = e.handle("play attackers");
    assert!(out.iter().any(|l| l.starts_with("move ")), "{out:?}");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn a_move_searched_before_an_opponent_move_is_not_played_after_it() {
    // The host moved the board (`opponent-move`) after our `play`: the stored move belongs to
    // the old position and once panicked in the hashing of the new one.
    let mut e = OtepEngine::new(Duration::from_millis(20));
    for line in [
        &format!("rules dim:7 name:Brandub atkf:y start:{BRANDUB_START}"),
        &format!("position {BRANDUB_START}"),
        "play defenders",
        "opponent-move d3-c3",
        &format!("move {BRANDUB_START}"),
    ] {
        let out = e.handle(line);
        assert!(
            out.iter().all(|l| !l.starts_with("error")),
            "{line}: {out:?}"
        );
    }
    // The host's board is taken; the engine goes on playing legal moves.
    assert!(*e.record().current().board() == Board::parse(BRANDUB_START, 7, false).unwrap());
    assert_still_plays(&mut e);
}

#[test]
fn a_stored_move_is_played_only_in_its_own_position() {
    let mut e = brandub_engine();
    e.handle(&format!("position {BRANDUB_START}"));
    let out = e.handle("play attackers");
    let sent = out
        .iter()
        .find_map(|l| l.strip_prefix("move "))
        .expect("a move")
        .to_string();
    let pending = e.pending.expect("stored");
    let start = *e.record().current();
    assert_eq!(
        pending.move_in(&start),
        Some(start.parse_move(&sent).unwrap())
    );
    let moved = start.play(pending.mv);
    assert_eq!(pending.move_in(&moved), None, "another position");
    // Confirmed by the host: played on our board.
    e.handle("move");
    assert_eq!(e.record().moves().len(), 1);
}
