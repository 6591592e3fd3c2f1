//! Notation tests: the exact text format of the rules document, round trips, case-insensitive
//! input, and errors that name the offending token.

use plies::{Game, Notation, Side};
use plies_onitama::{Card, Move, Onitama, START_POSITION, Square};

#[test]
fn start_position_text() {
    let start = Onitama::start_position();
    assert_eq!(
        START_POSITION,
        "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon"
    );
    assert_eq!(start.format_position(), START_POSITION);
    assert_eq!(start.side_to_move(), Side::First);
    assert_eq!(start.hand(Side::First), [Card::MONKEY, Card::CRANE]);
    assert_eq!(start.hand(Side::Second), [Card::TIGER, Card::CRAB]);
    assert_eq!(start.side_card(), Card::DRAGON);
    assert_eq!(start.master(Side::Second), Some(Square::C5));
    assert_eq!(start.students(Side::First).count(), 4);
}

#[test]
fn positions_round_trip() {
    for text in [
        "bbBbb/5/5/5/rrRrr b elephant,horse boar,ox crab",
        "4R/4r/4r/B3r/4r r tiger,ox crab,boar horse",
        "bbBbb/5/5/3R1/rr1rr b crane,horse tiger,ox rooster",
        "5/1b3/2R2/3B1/5 r kirin,seasnake giraffe,sable otter",
        "1b3/5/5/5/2B2 r dog,fox bear,panda viper",
    ] {
        let pos = Onitama::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        // Hands are written lower card id first (the order of the rules' card table).
        assert_eq!(pos.format_position(), text);
        assert_eq!(Onitama::parse_position(&pos.format_position()), Ok(pos));
    }
}

#[test]
fn hands_are_sets() {
    let text = "bbBbb/5/5/5/rrRrr b horse,elephant ox,boar crab";
    let pos = Onitama::parse_position(text).unwrap();
    assert_eq!(
        pos.format_position(),
        "bbBbb/5/5/5/rrRrr b elephant,horse boar,ox crab"
    );
    assert_eq!(Onitama::parse_position(&pos.format_position()), Ok(pos));
}

#[test]
fn input_is_case_insensitive_and_hand_order_free() {
    let a = Onitama::parse_position("bbBbb/5/5/5/rrRrr B HORSE,Elephant ox,BOAR Crab").unwrap();
    let b = Onitama::parse_position("bbBbb/5/5/5/rrRrr b elephant,horse boar,ox crab").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.hash(), b.hash());
    let start = Onitama::start_position();
    assert_eq!(
        start.parse_move("MONKEY B1-C2"),
        start.parse_move("monkey b1-c2")
    );
}

#[test]
fn sea_snake_spellings() {
    for name in [
        "seasnake",
        "sea-snake",
        "sea_snake",
        "SEA-SNAKE",
        "SeaSnake",
    ] {
        assert_eq!(
            Card::parse(name).map(Card::name),
            Some("seasnake"),
            "{name}"
        );
    }
    let pos =
        Onitama::parse_position("bbBbb/5/5/5/rrRrr r sea-snake,ox tiger,crab dragon").unwrap();
    assert_eq!(
        pos.format_position(),
        "bbBbb/5/5/5/rrRrr r ox,seasnake tiger,crab dragon"
    );
    let mv = pos.parse_move("sea-snake a1-a2").unwrap();
    assert_eq!(pos.format_move(mv), "seasnake a1-a2");
}

#[test]
fn moves_format_and_play_lines() {
    let start = Onitama::start_position();
    let mv = start.parse_move("monkey b1-c2").unwrap();
    assert_eq!(
        mv,
        Move::new(
            Card::MONKEY,
            Square::parse("b1").unwrap(),
            Square::parse("c2").unwrap()
        )
    );
    assert_eq!(start.format_move(mv), "monkey b1-c2");
    assert_eq!(start.words_per_move(), 2);
    let line = "monkey b1-c2 tiger b5-b3 dragon c2-a3";
    let end = start.play_line(line).unwrap();
    let moves = [mv, start.play(mv).parse_move("tiger b5-b3").unwrap()];
    assert_eq!(start.format_line(&moves), "monkey b1-c2 tiger b5-b3");
    assert_eq!(end.side_to_move(), Side::Second);
    let err = start.play_line("monkey b1-c2 tiger b5-b4").unwrap_err();
    assert!(err.to_string().contains("move 2"), "{err}");
}

/// `(text, offending token, a word of the reason)`.
fn expect_position_error(text: &str, token: &str, reason: &str) {
    let err = Onitama::parse_position(text).expect_err(text);
    assert_eq!(err.token, token, "{text}: {err}");
    assert!(err.reason.contains(reason), "{text}: {err}");
}

#[test]
fn position_errors_name_the_token() {
    expect_position_error("", "", "expected 5 fields");
    expect_position_error(
        "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab",
        "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab",
        "found 4",
    );
    expect_position_error(
        "bbBbb/5/5/rrRrr r monkey,crane tiger,crab dragon",
        "bbBbb/5/5/rrRrr",
        "5 ranks",
    );
    expect_position_error(
        "bbBbx/5/5/5/rrRrr r monkey,crane tiger,crab dragon",
        "bbBbx",
        "'x'",
    );
    expect_position_error(
        "bbBbb/6/5/5/rrRrr r monkey,crane tiger,crab dragon",
        "6",
        "'6'",
    );
    expect_position_error(
        "bbBbbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon",
        "bbBbbb",
        "6 squares",
    );
    expect_position_error(
        "bbBb/5/5/5/rrRrr r monkey,crane tiger,crab dragon",
        "bbBb",
        "4 squares",
    );
    expect_position_error(
        "bbBbb/5/5/5/rRRrr r monkey,crane tiger,crab dragon",
        "bbBbb/5/5/5/rRRrr",
        "2 masters",
    );
    expect_position_error(
        "bbBbb/5/5/r4/rrRrr r monkey,crane tiger,crab dragon",
        "bbBbb/5/5/r4/rrRrr",
        "5 students",
    );
    expect_position_error(
        "bbb1b/5/5/5/rr1rr r monkey,crane tiger,crab dragon",
        "bbb1b/5/5/5/rr1rr",
        "both sides have won",
    );
    expect_position_error(
        "bbRbb/5/5/5/rrBrr r monkey,crane tiger,crab dragon",
        "bbRbb/5/5/5/rrBrr",
        "both sides have won",
    );
    expect_position_error(
        "bbBbb/5/5/5/rrRrr x monkey,crane tiger,crab dragon",
        "x",
        "'r' or 'b'",
    );
    expect_position_error(
        "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crap dragon",
        "crap",
        "unknown card",
    );
    expect_position_error(
        "bbBbb/5/5/5/rrRrr r monkey tiger,crab dragon",
        "monkey",
        "two card names",
    );
    expect_position_error(
        "bbBbb/5/5/5/rrRrr r monkey,crane,ox tiger,crab dragon",
        "monkey,crane,ox",
        "two card names",
    );
    expect_position_error(
        "bbBbb/5/5/5/rrRrr r monkey,crane tiger,monkey dragon",
        "monkey",
        "twice",
    );
    expect_position_error(
        "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab crane",
        "crane",
        "twice",
    );
}

fn expect_move_error(pos: &Onitama, text: &str, token: &str, reason: &str) {
    let err = pos.parse_move(text).expect_err(text);
    assert_eq!(err.token, token, "{text}: {err}");
    assert!(err.reason.contains(reason), "{text}: {err}");
}

#[test]
fn move_errors_name_the_token() {
    let start = Onitama::start_position();
    expect_move_error(&start, "", "", "expected '<card> <from>-<to>'");
    expect_move_error(&start, "monkey", "monkey", "expected '<card> <from>-<to>'");
    expect_move_error(
        &start,
        "monkey b1 c2",
        "monkey b1 c2",
        "expected '<card> <from>-<to>'",
    );
    expect_move_error(&start, "monky b1-c2", "monky", "unknown card");
    expect_move_error(&start, "tiger b1-b3", "tiger", "not in red's hand");
    expect_move_error(&start, "monkey b1c2", "b1c2", "<from>-<to>");
    expect_move_error(&start, "monkey b0-c2", "b0", "a square");
    expect_move_error(&start, "monkey b1-f2", "f2", "a square");
    expect_move_error(&start, "monkey b3-c4", "b3", "no red piece on b3");
    expect_move_error(&start, "monkey b1-b2", "b1-b2", "does not move");
    expect_move_error(&start, "crane b1-c1", "b1-c1", "does not move");
    expect_move_error(
        &start,
        "monkey pass",
        "pass",
        "only legal when no piece can move",
    );
    let pass = Onitama::parse_position("4R/4r/4r/B3r/4r r tiger,ox crab,boar horse").unwrap();
    expect_move_error(&pass, "ox e2-e3", "e3", "holds a red piece");
    let over = Onitama::parse_position("2R2/5/5/B4/5 b tiger,ox crab,boar horse").unwrap();
    expect_move_error(&over, "crab a2-a3", "crab a2-a3", "over");
}

#[test]
fn display_board_shows_labels_and_cards() {
    let board = Onitama::start_position().display_board();
    for needle in [
        "5 | b b B b b",
        "1 | r r R r r",
        "a b c d e",
        "red",
        "monkey",
        "tiger",
        "side",
        "dragon",
        "red to move",
    ] {
        assert!(board.contains(needle), "{needle} missing in\n{board}");
    }
    let over = Onitama::parse_position("2R2/5/5/B4/5 b tiger,ox crab,boar horse").unwrap();
    assert!(over.display_board().contains("red wins"));
}

/// A set-up as people type it: the position and the moves on one line, read as the plain
/// record's first line (the page's set-up box sends such text to `read_record`).
#[test]
fn a_record_may_give_the_position_and_moves_on_one_line() {
    let moves = "monkey b1-c2 tiger b5-b3 dragon c2-a3";
    let expected = Onitama::start_position().play_line(moves).unwrap();
    for text in [
        format!("{START_POSITION} {moves}"),
        format!("position {START_POSITION} {moves}"),
        format!("{START_POSITION} 1. monkey:b1-c2 tiger b5-b3\n2. dragon c2-a3"),
    ] {
        let (start, read) = Onitama::read_record(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(start.format_position(), START_POSITION);
        assert_eq!(start.format_line(&read), moves);
        let end = read.iter().fold(start, |state, &mv| state.play(mv));
        assert_eq!(end.format_position(), expected.format_position());
    }
    // Another position: blue to move first.
    let blue = "bbBbb/5/5/5/rrRrr b elephant,horse boar,ox crab";
    let (start, read) = Onitama::read_record(&format!("{blue} boar b5-b4")).unwrap();
    assert_eq!((start.format_position().as_str(), read.len()), (blue, 1));
    // What read before reads the same: moves alone start at the start position.
    let (start, read) = Onitama::read_record(moves).unwrap();
    assert_eq!(
        (start.format_position().as_str(), read.len()),
        (START_POSITION, 3)
    );
}

fn record_error(text: &str) -> String {
    let error = Onitama::read_record(text).expect_err(text).to_string();
    assert!(!error.contains('\n'), "{error}");
    error
}

#[test]
fn a_one_line_set_up_that_fits_nothing_names_what_is_wrong() {
    // A card misspelt in the position: the position's error, not "unknown card name" about
    // the board.
    let text = "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragonn monkey b1-c2";
    assert_eq!(record_error(text), "'dragonn': line 1: unknown card name");
    // A good position, then a bad move: the move's error after the position.
    let text = format!("{START_POSITION} monkey b1-c2 tiger b5-b1");
    let error = record_error(&text);
    assert!(
        error.starts_with("'b5-b1': line 1: after the position 'bbBbb/5/5/5/rrRrr r "),
        "{error}"
    );
    assert!(error.contains(": move 2 ('tiger b5-b1'): "), "{error}");
    // Moves whose first one reads: the moves' error.
    let error = record_error("monkey b1-c2 tigr b5-b3");
    assert!(error.starts_with("'tigr': line 1: move 2 ('tigr b5-b3'): unknown card"));
    // A misspelt first move: both readings' errors.
    let error = record_error("tigr b5-b3");
    assert!(error.starts_with("line 1: neither a position ('tigr b5-b3': expected 5 fields"));
    assert!(error.ends_with("nor moves from the start ('tigr': unknown card name)"));
}
