//! The plain record format on the toy game `TwoPiles` (piles `a b side`, moves `a2`), and on
//! `Count` (position a number, every move `x`) for the cost of a long first line.

use std::cell::Cell;

use super::*;
use crate::game::{MoveClass, Outcome, Side};
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

/// The start and the position after the moves of a record.
fn read(text: &str) -> (String, Vec<String>, String) {
    let (start, moves) = read_plain_record::<TwoPiles>(text).unwrap_or_else(|e| panic!("{e}"));
    let mut state = start.clone();
    let mut texts = Vec::new();
    for mv in moves {
        texts.push(state.format_move(mv));
        state = state.play(mv);
    }
    (start.format_position(), texts, state.format_position())
}

#[test]
fn the_position_and_moves_may_share_the_first_line() {
    let (start, moves, _) = read("6 4 2 a2 b3");
    assert_eq!(
        (start.as_str(), moves),
        ("6 4 2", vec!["a2".into(), "b3".into()])
    );
    // With `position `, move numbers, and more moves on later lines.
    let (start, moves, _) = read("# set-up\nposition 6 4 2 1. a2 b3\n2. a1\n");
    assert_eq!(start, "6 4 2");
    assert_eq!(moves, ["a2", "b3", "a1"]);
    // What read before reads the same: a bare position, bare moves from the start.
    assert_eq!(read("6 4 2").0, "6 4 2");
    let (start, moves, _) = read("a2 b3");
    assert_eq!(start, TwoPiles::start_position().format_position());
    assert_eq!(moves, ["a2", "b3"]);
}

fn error(text: &str) -> NotationError {
    let error = read_plain_record::<TwoPiles>(text).expect_err(text);
    assert!(error.reason.starts_with("line "), "{error}");
    assert!(!error.to_string().contains('\n'), "{error}");
    error
}

#[test]
fn a_first_line_that_fits_nothing_gets_the_most_useful_error() {
    // Moves from the start whose first move reads: the moves' error.
    let e = error("a1 b9");
    assert_eq!(e.token, "b9");
    assert!(e.reason.starts_with("line 1: move 2 ('b9'): "), "{e}");
    // A position, then moves that do not read: the moves' error after it.
    let e = error("6 4 2 a1 b9");
    assert_eq!(e.token, "b9");
    assert_eq!(
        e.reason,
        "line 1: after the position '6 4 2': move 2 ('b9'): illegal here"
    );
    let e = error("position 6 4 2 a9");
    assert_eq!(
        e.to_string(),
        "'a9': line 1: after the position '6 4 2': illegal here"
    );
    // A position with a bad word, then moves: the position's error (its first three words
    // name the pile), not the moves' about the first word.
    let e = error("6 44 2 a1");
    assert_eq!(e.to_string(), "'44': line 1: expected a pile size 0..15");
    let e = error("position 6 99 1 a1");
    assert_eq!(e.token, "99");
    // Both errors name the same word: both are given.
    let e = error("b5");
    assert_eq!(e.token, "");
    assert_eq!(
        e.reason,
        "line 1: neither a position ('b5': expected '<pile> <pile> <1|2>') nor moves from the \
         start ('b5': illegal here)"
    );
    let e = error("a9 b1");
    assert!(
        e.reason
            .starts_with("line 1: neither a position ('a9 b1': "),
        "{e}"
    );
    assert!(
        e.reason
            .ends_with("nor moves from the start ('a9': move 1 ('a9'): illegal here)")
    );
}

/// A counter: the position is a number, every move `x` adds one; `parse_position` counts its
/// calls (per thread).
#[derive(Clone, Debug)]
struct Count(u32);

thread_local! {
    static POSITIONS_PARSED: Cell<usize> = const { Cell::new(0) };
}

impl Game for Count {
    type Move = u8;
    fn side_to_move(&self) -> Side {
        Side::First
    }
    fn generate_moves(&self, moves: &mut Vec<u8>) {
        moves.push(1);
    }
    fn play(&self, _: u8) -> Count {
        Count(self.0 + 1)
    }
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn hash(&self) -> u64 {
        u64::from(self.0)
    }
    fn hash_from_scratch(&self) -> u64 {
        u64::from(self.0)
    }
    fn move_index(&self, _: u8) -> usize {
        0
    }
    fn move_index_bound(&self) -> usize {
        1
    }
    fn classify(&self, _: u8) -> MoveClass {
        MoveClass::Quiet
    }
}

impl Notation for Count {
    fn start_position() -> Count {
        Count(0)
    }
    fn parse_position(text: &str) -> Result<Count, NotationError> {
        POSITIONS_PARSED.set(POSITIONS_PARSED.get() + 1);
        let text = text.trim();
        text.parse()
            .map(Count)
            .map_err(|_| NotationError::new(text, "expected a number"))
    }
    fn format_position(&self) -> String {
        self.0.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u8, NotationError> {
        if text.trim() == "x" {
            Ok(1)
        } else {
            Err(NotationError::new(text.trim(), "expected x"))
        }
    }
    fn format_move(&self, _: u8) -> String {
        "x".to_string()
    }
}

#[test]
fn a_long_first_line_tries_a_bounded_number_of_positions() {
    let moves = "x ".repeat(20_000);
    for (text, count, token) in [
        (format!("{moves}y"), 0, "y"),
        (format!("7 {moves}y"), 7, "y"),
        (moves.clone(), 0, ""),
        (format!("7 {moves}"), 7, ""),
    ] {
        POSITIONS_PARSED.set(0);
        match read_plain_record::<Count>(&text) {
            Ok((start, read)) => {
                assert_eq!((start.0, read.len(), token), (count, 20_000, ""));
            }
            Err(e) => {
                assert_eq!(e.token, token);
                assert!(e.reason.contains("move 20001 ('y')"), "{e}");
                assert_eq!(
                    e.reason.contains("after the position '7'"),
                    count == 7,
                    "{e}"
                );
            }
        }
        let tried = POSITIONS_PARSED.get();
        assert!(tried <= MAX_POSITION_WORDS + 1, "{tried} positions tried");
    }
    // Long words: only the first bytes are tried as a position, and the error stays short.
    let word = "7".repeat(100_000);
    POSITIONS_PARSED.set(0);
    let e = read_plain_record::<Count>(&format!("{word} {word} x")).unwrap_err();
    assert_eq!(POSITIONS_PARSED.get(), 1);
    assert!(e.to_string().len() < 400, "{e}");
    assert!(e.reason.starts_with("line 1: neither a position ("), "{e}");
}

/// A tree built by hand: its main line, its walk in SGF's order, equality whatever the ids,
/// and the default tree methods keeping the main line only.
#[test]
fn a_record_tree_walks_in_sgf_order() {
    // a (b c (d) e) (f) with moves as numbers: root -> 1 -> {2 -> {3, 4}, 5}, 2 -> 3 -> 6.
    let mut tree: RecordTree<u8> = RecordTree::new();
    let one = tree.add(RecordTree::<u8>::ROOT, 1);
    let two = tree.add(one, 2);
    let five = tree.add(one, 5);
    let three = tree.add(two, 3);
    let four = tree.add(two, 4);
    let six = tree.add(three, 6);
    assert_eq!(
        tree.add(one, 2),
        two,
        "an existing move is followed, not added"
    );
    assert_eq!(tree.node_count(), 7);
    assert_eq!(tree.main_line(), vec![1, 2, 3, 6]);
    assert_eq!((tree.parent(six), tree.mv(six)), (Some(three), Some(6)));
    assert_eq!((tree.parent(0), tree.mv(0)), (None, None));
    assert_eq!(tree.children(two), &[three, four]);
    assert!(tree.has_variations());
    use RecordStep::{Close, Move, Open};
    assert_eq!(
        tree.walk(),
        vec![
            Move(one),
            Open,
            Move(two),
            Open,
            Move(three),
            Move(six),
            Close,
            Open,
            Move(four),
            Close,
            Close,
            Open,
            Move(five),
            Close,
        ]
    );
    // The same tree built in another order is equal; another order of children is not.
    let mut again: RecordTree<u8> = RecordTree::from_line(&[1, 2, 3, 6]);
    again.add(1, 5);
    again.add(2, 4);
    assert_eq!(again, tree);
    let mut swapped: RecordTree<u8> = RecordTree::from_line(&[1, 5]);
    let two = swapped.add(1, 2);
    let three = swapped.add(two, 3);
    swapped.add(three, 6);
    swapped.add(two, 4);
    assert_ne!(swapped, tree);
    let line = RecordTree::from_line(&[1, 2]);
    assert!(!line.has_variations());
    assert_eq!(line.walk(), vec![Move(1), Move(2)]);
    assert_eq!(RecordTree::<u8>::default().walk(), vec![]);

    // The defaults: the main line in the plain format, read back as a tree of one line.
    let start = TwoPiles::parse_position("6 4 2").unwrap();
    let first = take(&start, "a2");
    let second = take(&start.play(first), "b3");
    let other = take(&start, "b1");
    let mut tree = RecordTree::from_line(&[first, second]);
    tree.add(RecordTree::<u8>::ROOT, other);
    let text = start.write_record_tree(&tree);
    assert_eq!(text, "position 6 4 2\na2\nb3\n");
    let (read, read_tree) = TwoPiles::read_record_tree(&text).unwrap();
    assert_eq!(read.format_position(), "6 4 2");
    assert_eq!(read_tree, RecordTree::from_line(&[first, second]));
    assert!(TwoPiles::read_record_tree("6 4 2\na9").is_err());
}

/// A tree a million moves deep is built, walked, compared and dropped without recursion.
#[test]
fn a_deep_record_tree_needs_no_recursion() {
    let mut tree: RecordTree<u32> = RecordTree::new();
    let mut at = RecordTree::<u32>::ROOT;
    for mv in 0..1_000_000 {
        let next = tree.add(at, mv);
        tree.add(at, mv + 1_000_000);
        at = next;
    }
    assert_eq!(tree.main_line().len(), 1_000_000);
    // Each branch point: its two variations, each `Open`, its move, `Close`.
    assert_eq!(tree.walk().len(), 1_000_000 * 6);
    assert_eq!(tree.clone(), tree);
}
