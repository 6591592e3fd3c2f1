//! Reading boardspace-style SGF (GM[24]) records: placements, human (`place` + `drop`) and
//! robot (`move`) ring moves, a row and a ring removal, `Done`, and errors naming the command;
//! trees of moves with variations written and read back, and malformed variations refused.
//!
//! Key invariant: the record is written by hand in the documented command format; the expected
//! moves are the GIPF-style text of the same decisions.

use plies::{Game, Notation, RecordTree, Side, excerpt};
use plies_yinsh::{MAX_SGF_DEPTH, Move, Phase, Yinsh, read_sgf, read_sgf_tree, write_sgf};

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

/// The position at node `id` of `tree`.
fn position_at(tree: &RecordTree<Move>, id: usize) -> Yinsh {
    let mut moves = Vec::new();
    let mut at = id;
    while let (Some(parent), Some(mv)) = (tree.parent(at), tree.mv(at)) {
        moves.push(mv);
        at = parent;
    }
    moves
        .iter()
        .rev()
        .fold(Yinsh::start_position(), |state, &mv| state.play(mv))
}

/// The moves of `line` (GIPF-style text) played on from node `at` of `tree`; returns the last
/// node.
fn add_line(tree: &mut RecordTree<Move>, mut at: usize, line: &str) -> usize {
    let position = position_at(tree, at);
    for mv in position.parse_line(line).unwrap() {
        at = tree.add(at, mv);
    }
    at
}

/// The node after `plies` moves along first children from the root.
fn main_node(tree: &RecordTree<Move>, plies: usize) -> usize {
    (0..plies).fold(RecordTree::<Move>::ROOT, |at, _| tree.children(at)[0])
}

/// A tree with variations at the root, within the placement and after ring moves, one inside
/// another, is written as nested SGF game trees and reads back as the same tree; its main line
/// reads as the record's moves.
#[test]
fn a_tree_with_nested_variations_reads_back() {
    let start = Yinsh::start_position();
    let mut tree = RecordTree::new();
    let main = "g2 c6 f2 d4 e1 e4 h3 a4 d1 f6 g2-g5 c6-c7 g5-g6";
    add_line(&mut tree, RecordTree::<Move>::ROOT, main);
    // Another first ring, and three ways on after two placements.
    let other = add_line(&mut tree, RecordTree::<Move>::ROOT, "e5 f7");
    for line in ["g6 e4", "a4", "h8"] {
        add_line(&mut tree, other, line);
    }
    // After White's first ring move: another one for Black, and in it two White answers.
    let white_moved = main_node(&tree, 11);
    let black = add_line(&mut tree, white_moved, "c6-c8");
    add_line(&mut tree, black, "g5-g7");
    add_line(&mut tree, black, "d1-d2 d4-d5");
    assert!(tree.has_variations());

    let text = start.write_record_tree(&tree);
    assert!(
        text.starts_with(
            "(;\nGM[24]VV[2]\nSU[Yinsh]\n; P0[0 Start White]\n(; P0[1 place wr G 2]\n"
        ),
        "{text}"
    );
    // Numbers go on from the branch point: `e5` is node 1 too, Black's other ring move 23.
    assert!(text.contains("(; P0[1 place wr E 5]\n"), "{text}");
    assert!(
        text.contains("(; P1[23 move C 6 C 8]\n; P1[24 Done ]\n(; P0[25 move G 5 G 7]"),
        "{text}"
    );
    assert!(text.ends_with(")\n)\n)\n"), "{text}");
    let depth = text
        .chars()
        .scan(0i32, |depth, c| {
            *depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            Some(*depth)
        })
        .max();
    assert_eq!(depth, Some(4), "{text}");
    assert_eq!(read_sgf_tree(&text).unwrap(), tree);
    let (back_start, back) = Yinsh::read_record_tree(&text).unwrap();
    assert_eq!((back_start, back), (start.clone(), tree.clone()));
    // The main line alone: as `read_sgf` and `read_record` read it.
    let main_moves = start.parse_line(main).unwrap();
    assert_eq!(tree.main_line(), main_moves);
    assert_eq!(read_sgf(&text).unwrap().moves, main_moves);
    assert_eq!(Yinsh::read_record(&text).unwrap().1, main_moves);
    // A tree of one line is written as `write_sgf` writes it.
    let line = RecordTree::from_line(&main_moves);
    assert_eq!(start.write_record_tree(&line), write_sgf(&main_moves));
    assert_eq!(
        start.write_record_tree(&line),
        start.write_record(&main_moves)
    );
    // From another position: the plain format of the main line.
    let placed = start.play_line("g2 c6 f2 d4 e1 e4 h3 a4 d1 f6").unwrap();
    let later = placed.parse_line("g2-g5 c6-c7").unwrap();
    let mut from_placed = RecordTree::from_line(&later);
    from_placed.add(
        RecordTree::<Move>::ROOT,
        placed.parse_move("d1-d2").unwrap(),
    );
    let plain = placed.write_record_tree(&from_placed);
    assert_eq!(plain, placed.write_record(&later));
    assert_eq!(
        Yinsh::read_record_tree(&plain).unwrap(),
        (placed, RecordTree::from_line(&later))
    );
}

/// Hand-written variations: each played from its branch point (Black's `F 2` is legal in the
/// second variation though White took F2 in the first), a human ring move in one, a
/// resignation ending only its own line, parentheses and an escaped `]` inside values.
#[test]
fn variations_are_read_from_their_branch_points() {
    let record = "(;GM[24]C[a note (with parentheses) \\] and an escape]
        ; P0[1 place wr G 2]; P0[2 Done]
        (; P1[3 place br C 6]; P1[4 Done]; P0[5 place wr F 2])
        (; P1[3 place br F 2]; P1[4 Done]
            (; P0[5 place wr A 4])
            (; P0[5 Resign]; P0[6 place wr Z 99]))
        (; P1[3 Resign]))";
    let tree = read_sgf_tree(record).unwrap_or_else(|e| panic!("{e}"));
    let start = Yinsh::start_position();
    let mut expected = RecordTree::new();
    let g2 = add_line(&mut expected, 0, "g2");
    add_line(&mut expected, g2, "c6 f2");
    add_line(&mut expected, g2, "f2 a4");
    assert_eq!(tree, expected);
    let game = read_sgf(record).unwrap();
    assert_eq!(game.moves, start.parse_line("g2 c6 f2").unwrap());
    assert!(!game.resigned, "resignations off the main line");
    // A resignation on the main line ends it, and the record resigned.
    let game =
        read_sgf("(;GM[24]; P0[1 place wr G 2](; P1[2 Resign])(; P1[2 place br C 6]))").unwrap();
    assert!(game.resigned);
    assert_eq!(game.moves.len(), 1);
    // Human ring moves in variations, the picked marker kept per line.
    let mut human = String::from("(;GM[24]");
    for (n, cell) in [
        "G 2", "C 6", "F 2", "D 4", "E 1", "E 4", "H 3", "A 4", "D 1", "F 6",
    ]
    .iter()
    .enumerate()
    {
        let (player, colour) = if n % 2 == 0 { (0, 'w') } else { (1, 'b') };
        human += &format!("; P{player}[{n} place {colour}r {cell}]");
    }
    human += "; P0[20 place w G 2](; P0[21 drop board G 5])(; P0[21 drop board G 3]))";
    let tree = read_sgf_tree(&human).unwrap_or_else(|e| panic!("{e}"));
    let placed = start.play_line("g2 c6 f2 d4 e1 e4 h3 a4 d1 f6").unwrap();
    assert_eq!(tree.main_line().len(), 11);
    let at = main_node(&tree, 10);
    let answers: Vec<String> = tree
        .children(at)
        .iter()
        .map(|&id| placed.format_move(tree.mv(id).unwrap()))
        .collect();
    assert_eq!(answers, ["g2-g5", "g2-g3"]);
}

/// Bad structure and illegal moves in variations give one-line errors, deep nesting included
/// (no stack overflow: the reader loops).
#[test]
fn malformed_variations_are_refused() {
    let head = "(;GM[24]; P0[1 place wr G 2]";
    let deep = format!("{head}{}", "(; P1[2 Done]".repeat(MAX_SGF_DEPTH));
    let very_deep = format!("{head}{}", "(;".repeat(1_000_000));
    for (text, words) in [
        (format!("{head}(; P1[2 place br C 6])"), "not closed"),
        (
            format!("{head}()(; P1[2 place br C 6]))"),
            "an empty game tree",
        ),
        (
            format!("{head}(; P1[2 place br C 6]); P1[3 place br D 4])"),
            "a node after the variations",
        ),
        (
            "(;GM[24]((; P0[1 place wr G 2])))".to_string(),
            "a variation before any node",
        ),
        (format!("{head}(; P1[2 place br C 6)"), "not closed by ']'"),
        (
            format!("{head}(; P1 ; P1[2 place br C 6]))"),
            "'P1' has no value",
        ),
        (
            format!("{head}(; [2 place br C 6]))"),
            "without a property name",
        ),
        (
            format!("{head}(P1[2 place br C 6]))"),
            "a property outside a node",
        ),
        (format!("{head}(; P1[2 place br C 6]}})"), "unexpected '}'"),
        ("GM[24]; P0[1 place wr G 2]".to_string(), "no game tree"),
        (
            format!("{deep}{}", ")".repeat(MAX_SGF_DEPTH + 1)),
            "nested more than",
        ),
        (very_deep, "nested more than"),
        // Legal notation, illegal where the variation plays it.
        (
            format!("{head}(; P1[2 place br C 6])(; P1[2 place br G 2]))"),
            "of a variation",
        ),
        (
            format!("{head}(; P1[2 place br C 6])(; P1[2 fly br G 2]))"),
            "not a Yinsh record command",
        ),
        (
            format!("{head}(; P1[2 drop board C 6]))"),
            "a drop without a marker",
        ),
        // A command over two lines is quoted on one.
        (
            format!("{head}(; P1[2 place\n  br Z 9]))"),
            "'2 place br Z 9': move 2 ('z9')",
        ),
    ] {
        let Err(e) = read_sgf_tree(&text) else {
            panic!("{words}: read {}", excerpt(&text));
        };
        assert!(e.to_string().contains(words), "{e} lacks {words}");
        assert!(!e.to_string().contains('\n'), "{e}");
        assert!(e.to_string().len() < 200, "{e}");
        assert!(Yinsh::read_record_tree(&text).is_err());
        assert!(read_sgf(&text).is_err());
    }
    // What follows the game tree is not read (another game of a collection, say).
    let text = format!("{head}(; P1[2 place br C 6])) (;GM[24]; P0[1 place wr Z 99])))");
    assert_eq!(read_sgf_tree(&text).unwrap().node_count(), 3);
    // As deep as allowed reads.
    let deep = format!(
        "{head}{}{}",
        "(; P1[2 Done]".repeat(MAX_SGF_DEPTH - 1),
        ")".repeat(MAX_SGF_DEPTH)
    );
    assert_eq!(read_sgf_tree(&deep).unwrap().node_count(), 2);
}
