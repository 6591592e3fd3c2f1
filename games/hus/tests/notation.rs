//! Hus text: bad moves and positions give errors naming the offending token; the position
//! format round-trips; the board picture shows both rows of both players.

use plies::{Game, Notation, Side};
use plies_hus::{Hus, Pit};

const START: &str = "2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,0,0,0,0,0,0,0,0 \
                     2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,0,0,0,0,0,0,0,0 0 0";

#[test]
fn the_start_in_the_document_format() {
    let start = Hus::parse_position(START).unwrap();
    assert_eq!(start, Hus::start_position());
    assert_eq!(start.side_to_move(), Side::First);
    assert_eq!(start.parse_move(" 14 ").unwrap(), Pit(14));
}

#[test]
fn bad_moves_name_the_token() {
    let start = Hus::start_position();
    for (text, token) in [
        ("32", "32"),
        ("-1", "-1"),
        ("x", "x"),
        ("", ""),
        ("25", "25"),
    ] {
        let err = start.parse_move(text).unwrap_err();
        assert_eq!(err.token, token, "{text}: {err}");
    }
}

#[test]
fn bad_positions_name_the_token() {
    let rows: Vec<&str> = START.split_whitespace().collect();
    let (p0, p1) = (rows[0], rows[1]);
    let cases = [
        (format!("{p0} {p1} 2 0"), "2"),
        (format!("{p0} {p1} 0 x"), "x"),
        (format!("{p0} 1,2 0 0"), "1,2"),
        (format!("{} {p1} 0 0", p0.replacen("2", "y", 1)), "y"),
        (format!("{} {p1} 0 0", p0.replacen("2", "200", 1)), "200"),
    ];
    for (text, token) in cases {
        let err = Hus::parse_position(&text).unwrap_err();
        assert_eq!(err.token, token, "{text}: {err}");
    }
    // 97 seeds: rejected with the whole text named.
    let extra = p0.replacen("2", "3", 1);
    assert!(Hus::parse_position(&format!("{extra} {p1} 0 0")).is_err());
    assert!(Hus::parse_position(&format!("{p0} {p1} 0")).is_err());
}

#[test]
fn the_picture_has_four_rows() {
    let text = Hus::start_position().display_board();
    assert_eq!(text.lines().filter(|l| l.starts_with('P')).count(), 4);
}
