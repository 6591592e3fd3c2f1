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

/// The points of a picture: `(column letter, row number, symbol)` read off the text, the
/// letter from the letter line under the point's column.
fn picture_points(text: &str) -> Vec<(char, usize, char)> {
    let lines: Vec<&str> = text.lines().collect();
    let letter_line = lines
        .iter()
        .position(|l| l.starts_with("A "))
        .expect("a line of column letters");
    let letters = lines[letter_line].as_bytes();
    let mut points = Vec::new();
    for line in &lines[..letter_line] {
        let bytes = line.as_bytes();
        let mut x = 0;
        while x < bytes.len() {
            if bytes[x] == b' ' {
                x += 1;
                continue;
            }
            let symbol = bytes[x] as char;
            let digits: String = line[x + 1..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            assert!(
                !digits.is_empty(),
                "no row number after {symbol:?} in {line:?}"
            );
            assert!(
                letters.get(x).is_some_and(u8::is_ascii_uppercase),
                "no column letter under {symbol}{digits} in {line:?}"
            );
            points.push((letters[x] as char, digits.parse().unwrap(), symbol));
            x += 1 + digits.len();
        }
    }
    points
}

#[test]
fn the_picture_labels_every_point_with_its_column_and_row() {
    use plies_yinsh::board::{CELLS, parse_cell};
    let mut state = Yinsh::start_position();
    let mut rng = plies::rng::SplitMix64::new(11);
    let mut moves = Vec::new();
    let mut pictures = 0;
    for ply in 0..120 {
        if ply % 6 == 0 {
            let text = state.display_board();
            let points = picture_points(&text);
            assert_eq!(points.len(), CELLS, "{text}");
            let mut seen = [false; CELLS];
            for &(letter, row, symbol) in &points {
                // The label is the notation's name of the point: it parses to that cell...
                let name = format!("{letter}{row}");
                let cell = parse_cell(&name).unwrap_or_else(|| panic!("{name} in\n{text}"));
                assert!(!seen[cell], "{name} twice");
                seen[cell] = true;
                // ... and the symbol is what stands there (0 empty, 1/2 rings, 3/4 markers).
                let expected = ['.', 'W', 'B', 'w', 'b'][usize::from(state.cell(cell))];
                assert_eq!(symbol, expected, "{name} in\n{text}");
                if symbol == '.' && state.phase() == plies_yinsh::Phase::Place {
                    let mv = state.parse_move(&name.to_lowercase()).unwrap();
                    assert_eq!(state.format_move(mv), name.to_lowercase());
                }
            }
            // The README's row ranges: A2-A5, B1-B7, ... K7-K10.
            for (letter, low, high) in [('A', 2, 5), ('B', 1, 7), ('E', 1, 10), ('K', 7, 10)] {
                let rows: Vec<usize> = points
                    .iter()
                    .filter(|p| p.0 == letter)
                    .map(|p| p.1)
                    .collect();
                assert_eq!(rows.iter().min(), Some(&low), "{letter}");
                assert_eq!(rows.iter().max(), Some(&high), "{letter}");
                assert_eq!(rows.len(), high - low + 1, "{letter}");
            }
            pictures += 1;
        }
        moves.clear();
        state.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        state = state.play(moves[rng.below(moves.len())]);
    }
    assert!(pictures >= 5, "{pictures} pictures");
}
