//! Reading boardspace-style SGF (GM[24]) records: placements, human (`place` + `drop`) and
//! robot (`move`) ring moves, a row and a ring removal, `Done`, and errors naming the command.
//!
//! Key invariant: the record is written by hand in the documented command format; the expected
//! moves are the GIPF-style text of the same decisions.

use plies::{Game, Notation, Side};
use plies_yinsh::{Phase, read_sgf};

/// Opening 1 of docs/rules/yinsh.md, then a few ring moves.
const RECORD: &str = "(;GM[24]VV[1]SU[Yinsh]
; P0[1 Start P0]
; P0[2 place wr G 2]; P1[3 place br C 6]; P0[4 place wr F 2]; P1[5 place br D 4]
; P0[6 place wr E 1]; P1[7 place br E 4]; P0[8 place wr H 3]; P1[9 place br A 4]
; P0[10 place wr D 1]; P1[11 place br F 6]
; P0[12 place w G 2] ; P0[13 drop board G 5] ; P0[14 Done]
; P1[15 move C 6 C 7] ; P1[16 Done]
; P0[17 move G 5 G 6])";

#[test]
fn reads_a_record() {
    let game = read_sgf(RECORD).unwrap();
    assert_eq!(game.moves.len(), 13);
    let start = plies_yinsh::Yinsh::start_position();
    let expected = start
        .play_line("g2 c6 f2 d4 e1 e4 h3 a4 d1 f6 g2-g5 c6-c7 g5-g6")
        .unwrap();
    assert_eq!(game.position, expected);
    assert_eq!(game.position.side_to_move(), Side::Second);
    assert_eq!(game.position.phase(), Phase::Move);
    assert!(!game.resigned);
    assert_eq!(start.format_line(&game.moves).split(' ').count(), 13);
}

#[test]
fn errors_name_the_command() {
    let err = read_sgf("(;GM[24]; P0[1 place wr Z 9])").unwrap_err();
    assert_eq!(err.token, "1 place wr Z 9");
    let err = read_sgf("(;GM[24]; P0[1 fly wr G 2])").unwrap_err();
    assert_eq!(err.token, "1 fly wr G 2");
    let err = read_sgf("(;GM[21]; P0[1 place wr G 2])").unwrap_err();
    assert!(err.reason.contains("GM[24]"));
    // Legal notation, illegal here: a ring move during placement.
    let err = read_sgf("(;GM[24]; P0[1 move G 2 G 3])").unwrap_err();
    assert!(err.reason.contains("move 1"), "{err}");
}

#[test]
fn resign_ends_the_record() {
    let game = read_sgf("(;GM[24]; P0[1 place wr G 2]; P1[2 Resign]; P0[3 place wr F 2])").unwrap();
    assert_eq!(game.moves.len(), 1);
    assert!(game.resigned);
}

/// A full engine-against-engine game (with rows and ring removals), in GIPF-style text.
const GAME: &str = "e5 f7 g6 e4 f4 g5 c4 d6 h8 i9 c4-c7 e4-b4 e5-e3 d6-c6 c7-e7 g5-d5 f4-f2 \
    f7-f3 h8-d4 i9-g7 f2-c2 c6-c8 g6-b6 d5-f5 d4-f6 f5-h7 e3-h6 f3-d3 b6-b5 c8-c5 h6-h5 b4-g4 \
    f6-c3 d3-g3 e7-e2 c5-f8 b5-b3 f8-f9 h5-a5 f9-d7 a5-a4 h7-h4 e2-d2 g7-i7 d2-d1 d7-b7 \
    xc7-g7 xb7 a4-d7 xa4-e4 xb3 i7-i5 xe3-i7 xh4 c2-e4 g3-e1 e4-e6 xa5-e5 xc3 g4-d4 d7-d5 \
    d4-g7 e6-h6 xc6-g6 xd1";

/// `e5` → `E 5`.
fn spaced(cell: &str) -> String {
    format!("{} {}", cell[..1].to_ascii_uppercase(), &cell[1..])
}

#[test]
fn a_whole_game_with_removals_reads_back() {
    let start = plies_yinsh::Yinsh::start_position();
    let mut state = start.clone();
    let mut record = String::from("(;GM[24]");
    for (n, text) in GAME.split_whitespace().enumerate() {
        let player = if state.side_to_move() == Side::First {
            0
        } else {
            1
        };
        let colour = if player == 0 { "w" } else { "b" };
        let command = if let Some(rest) = text.strip_prefix('x') {
            match rest.split_once('-') {
                Some((a, b)) => format!("remove {colour} {} {}", spaced(a), spaced(b)),
                None => format!("remove {colour}r {}", spaced(rest)),
            }
        } else if let Some((a, b)) = text.split_once('-') {
            if n % 2 == 0 {
                format!("move {} {}", spaced(a), spaced(b))
            } else {
                // The human form: marker into the ring, then drop the ring.
                record.push_str(&format!("; P{player}[{n} place {colour} {}]", spaced(a)));
                format!("drop board {}", spaced(b))
            }
        } else {
            format!("place {colour}r {}", spaced(text))
        };
        record.push_str(&format!("; P{player}[{n} {command}]; P{player}[{n} Done]"));
        state = state.play(state.parse_move(text).unwrap());
    }
    record.push(')');
    let game = read_sgf(&record).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game.position, state);
    assert_eq!(game.moves.len(), GAME.split_whitespace().count());
    assert!(game.position.outcome().is_some());
}

/// `write_sgf` writes robot ring moves, `Done` where the turn passes, and reads back; a game
/// from any position but the empty board is written in the plain format instead.
#[test]
fn written_records_read_back() {
    let start = plies_yinsh::Yinsh::start_position();
    let moves = start
        .parse_line("g2 c6 f2 d4 e1 e4 h3 a4 d1 f6 g2-g5 c6-c7")
        .unwrap();
    let text = plies_yinsh::write_sgf(&moves);
    assert!(
        text.contains("; P0[1 place wr G 2]\n; P0[2 Done ]\n; P1[3 place br C 6]"),
        "{text}"
    );
    assert!(text.contains("move G 2 G 5]"), "{text}");
    assert_eq!(read_sgf(&text).unwrap().moves, moves);
    assert_eq!(start.write_record(&moves), text);
    let placed = start.play_line("g2 c6 f2 d4 e1 e4 h3 a4 d1 f6").unwrap();
    let later = placed.parse_line("g2-g5 c6-c7").unwrap();
    let plain = placed.write_record(&later);
    assert!(plain.starts_with("position "), "{plain}");
    let (back, back_moves) = plies_yinsh::Yinsh::read_record(&plain).unwrap();
    assert_eq!((back, back_moves), (placed, later));
}
