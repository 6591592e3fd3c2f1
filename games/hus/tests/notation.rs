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

/// The numbers of a picture line after its 9-character label, one per 3-character column.
fn columns(line: &str) -> Vec<u8> {
    let body = &line[9..];
    assert_eq!(body.len(), 48, "{line:?}");
    (0..16)
        .map(|i| body[3 * i..3 * i + 3].trim().parse().unwrap())
        .collect()
}

#[test]
fn the_picture_labels_every_pit_with_the_number_a_move_uses() {
    // The README's move-text table: 0-15 the outer row left to right from the player's side,
    // 16-31 the inner row right to left. Player 0 sits at the bottom, player 1 at the top
    // (so its left to right is the picture's right to left).
    let p0_outer: Vec<u8> = (0..16).collect();
    let p0_inner: Vec<u8> = (16..32).rev().collect();
    let p1_outer: Vec<u8> = (0..16).rev().collect();
    let p1_inner: Vec<u8> = (16..32).collect();
    let mut state = Hus::start_position();
    let mut moves = Vec::new();
    let mut rng = plies::rng::SplitMix64::new(3);
    for ply in 0..40 {
        let text = state.display_board();
        let lines: Vec<&str> = text.lines().collect();
        let labels: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| l.contains("pit #"))
            .collect();
        assert_eq!(labels.len(), 4, "{text}");
        // Each row of seeds with the label line beside it (above the outer rows on top and
        // below the outer row at the bottom, the inner rows' labels toward the middle).
        let row = |name: &str| *lines.iter().find(|l| l.starts_with(name)).unwrap();
        for (name, label, side, expected) in [
            ("P1 outer", labels[0], Side::Second, &p1_outer),
            ("P1 inner", labels[1], Side::Second, &p1_inner),
            ("P0 inner", labels[2], Side::First, &p0_inner),
            ("P0 outer", labels[3], Side::First, &p0_outer),
        ] {
            let numbers = columns(label);
            assert_eq!(&numbers, expected, "{name} labels in\n{text}");
            for (pit, seeds) in numbers.iter().zip(columns(row(name))) {
                assert_eq!(
                    state.seeds(side, usize::from(*pit)),
                    seeds,
                    "{name} pit {pit}"
                );
                // The label is move text naming that pit of the player to move.
                if side == state.side_to_move()
                    && seeds >= 2
                    && !state.is_infinite(usize::from(*pit))
                {
                    assert_eq!(state.parse_move(&pit.to_string()).unwrap(), Pit(*pit));
                }
            }
        }
        moves.clear();
        state.generate_moves(&mut moves);
        if moves.is_empty() {
            assert!(ply > 0);
            break;
        }
        state = state.play(moves[rng.below(moves.len())]);
    }
}
