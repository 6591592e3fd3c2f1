//! The plain record format on the toy game `TwoPiles` (piles `a b side`, moves `a2`).

use super::*;
use crate::testing::TwoPiles;

fn take(state: &TwoPiles, text: &str) -> <TwoPiles as Game>::Move {
    state.parse_move(text).unwrap()
}

#[test]
fn a_plain_record_reads_back_as_written() {
    let start = TwoPiles::parse_position("6 4 2").unwrap();
    let first = take(&start, "a2");
    let second = take(&start.play(first), "b3");
    let text = start.write_record(&[first, second]);
    assert_eq!(text, "position 6 4 2\na2\nb3\n");
    let (read_start, moves) = TwoPiles::read_record(&text).unwrap();
    assert_eq!(read_start.format_position(), "6 4 2");
    assert_eq!(moves, vec![first, second]);
    assert_eq!(TwoPiles::record_format(), PLAIN_RECORD);
}

#[test]
fn reading_is_lenient_about_layout() {
    // A bare position line, comments, blank lines, move numbers, several moves on a line.
    let text = "# a game\n\n6 4 2\n1. a2 b3\n  # note\n2. a1\n";
    let (start, moves) = read_plain_record::<TwoPiles>(text).unwrap();
    assert_eq!(start.format_position(), "6 4 2");
    assert_eq!(moves.len(), 3);
    let mut expected = start.clone();
    for text in ["a2", "b3", "a1"] {
        let mv = take(&expected, text);
        expected = expected.play(mv);
    }
    let end = moves.iter().fold(start, |s, &m| s.play(m));
    assert_eq!(end.format_position(), expected.format_position());
}

#[test]
fn without_a_position_the_game_starts_at_the_start() {
    let (start, moves) = read_plain_record::<TwoPiles>("a1\nb1").unwrap();
    assert_eq!(
        start.format_position(),
        TwoPiles::start_position().format_position()
    );
    assert_eq!(moves.len(), 2);
    let (start, moves) = read_plain_record::<TwoPiles>("").unwrap();
    assert_eq!(
        start.format_position(),
        TwoPiles::start_position().format_position()
    );
    assert!(moves.is_empty());
}

#[test]
fn errors_name_the_line_and_the_move() {
    // b5 is not a move (counts are 1..3); it is on line 4.
    let error = read_plain_record::<TwoPiles>("position 6 4 1\na1\n\nb5\n").unwrap_err();
    assert_eq!(error.token, "b5");
    assert!(error.reason.starts_with("line 4:"), "{error}");
    // An illegal second move on a line of two.
    let error = read_plain_record::<TwoPiles>("position 1 1 1\na1 a1").unwrap_err();
    assert!(error.reason.starts_with("line 2:"), "{error}");
    // A bad position after `position `.
    let error = read_plain_record::<TwoPiles>("position 6 99 1").unwrap_err();
    assert_eq!(error.token, "99");
    assert!(error.reason.starts_with("line 1:"), "{error}");
}

#[test]
fn move_numbers_are_only_digits_and_a_dot() {
    assert!(is_move_number("12."));
    assert!(!is_move_number("."));
    assert!(!is_move_number("a2."));
    assert!(!is_move_number("12"));
}
