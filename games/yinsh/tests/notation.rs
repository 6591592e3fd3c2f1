//! Yinsh text: bad moves and positions give errors naming the offending token, case does not
//! matter in moves, and inconsistent positions are rejected.

use plies::{Game, Notation};
use plies_yinsh::Yinsh;

const EMPTY_BOARD: &str = "..../......./......../........./........../........./........../........./......../......./....";

#[test]
fn bad_moves_name_the_token() {
    let start = Yinsh::start_position();
    for (text, token) in [
        ("z9", "z9"),
        ("a1", "a1"),
        ("e5-", "e5-"),
        ("xq3", "q3"),
        ("e5-e6", "e5-e6"),
    ] {
        let err = start.parse_move(text).unwrap_err();
        assert_eq!(err.token, token, "{text}: {err}");
    }
    assert_eq!(
        start.parse_move("E5").unwrap(),
        start.parse_move("e5").unwrap()
    );
    let opened = start.play_line("g2 c6 f2 d4 e1 e4 h3 a4 d1 f6").unwrap();
    assert!(opened.parse_move("G2-G5").is_ok());
    assert!(opened.parse_move("g2-g9").is_ok());
    assert!(opened.parse_move("g2-h2").is_err(), "h2 is not a point");
    assert!(
        opened.parse_move("e5").is_err(),
        "no placing after the opening"
    );
    let mut moves = Vec::new();
    opened.generate_moves(&mut moves);
    assert_eq!(moves.len(), 52);
}

#[test]
fn bad_positions_name_the_token() {
    let cases = [
        (format!("{EMPTY_BOARD} w place 0-0 0"), None),
        (format!("{EMPTY_BOARD} x place 0-0 0 normal"), Some("x")),
        (format!("{EMPTY_BOARD} w dance 0-0 0 normal"), Some("dance")),
        (format!("{EMPTY_BOARD} w place 0:0 0 normal"), Some("0:0")),
        (format!("{EMPTY_BOARD} w place 0-0 x normal"), Some("x")),
        (format!("{EMPTY_BOARD} w place 0-0 0 turbo"), Some("turbo")),
        (format!("{EMPTY_BOARD}/. w place 0-0 0 normal"), None),
        (
            EMPTY_BOARD.replacen("....", "..Q.", 1) + " w place 0-0 0 normal",
            Some("Q"),
        ),
        (
            EMPTY_BOARD.replacen("....", "...", 1) + " w place 0-0 0 normal",
            Some("..."),
        ),
        // Inconsistent: moving before the rings are placed; a row phase without a row.
        (format!("{EMPTY_BOARD} w move 0-0 0 normal"), None),
        (format!("{EMPTY_BOARD} w row:w 0-0 0 normal"), None),
    ];
    for (text, token) in cases {
        let err = Yinsh::parse_position(&text).unwrap_err();
        if let Some(token) = token {
            assert_eq!(err.token, token, "{text}: {err}");
        }
    }
    let blitz = Yinsh::parse_position(&format!("{EMPTY_BOARD} w place 0-0 0 blitz")).unwrap();
    assert!(blitz.is_blitz());
    assert_eq!(
        Yinsh::parse_position(&blitz.format_position()).unwrap(),
        blitz
    );
}
