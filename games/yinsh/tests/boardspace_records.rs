//! Real boardspace.net Yinsh records (tests/data/boardspace, sources in its README) read with
//! [`read_sgf`]: each replays legally to its end, and the game ends as the record says: the
//! winner named in `RE` removed the rings that win, or the other player resigned. Read as
//! trees, with variations added, they are written and read back.
//!
//! Key invariant: the expected results come from the records themselves (their `RE` property
//! and player ids, read here by this test), never from the crate.

use plies::{Game, Notation, Outcome, RecordTree, Side};
use plies_yinsh::{Move, Phase, Yinsh, read_sgf};

/// The records, with their file names.
const RECORDS: [(&str, &str); 5] = [
    (
        "Y-DrMih-Dumbot-2026-02-20-0858.sgf",
        include_str!("data/boardspace/Y-DrMih-Dumbot-2026-02-20-0858.sgf"),
    ),
    (
        "Y-DrMih-Dumbot-2026-02-23-1415.sgf",
        include_str!("data/boardspace/Y-DrMih-Dumbot-2026-02-23-1415.sgf"),
    ),
    (
        "Y-BraveCombo-Dumbot-2026-03-20-0237.sgf",
        include_str!("data/boardspace/Y-BraveCombo-Dumbot-2026-03-20-0237.sgf"),
    ),
    (
        "Y-phiulbrich-BestBot-2026-03-21-2221.sgf",
        include_str!("data/boardspace/Y-phiulbrich-BestBot-2026-03-21-2221.sgf"),
    ),
    (
        "Y-BestBot-BOkpc-2026-03-13-1856.sgf",
        include_str!("data/boardspace/Y-BestBot-BOkpc-2026-03-13-1856.sgf"),
    ),
];

/// The value of the first `name[…]` property of `text`.
fn property<'a>(text: &'a str, name: &str) -> &'a str {
    let start = text.find(&format!("{name}[")).expect("property present") + name.len() + 1;
    let end = text[start..].find(']').expect("property closed");
    &text[start..start + end]
}

/// The side whose player `RE` names as the winner (P0 plays White = `Side::First`).
fn recorded_winner(text: &str) -> Side {
    let id = |value: &str| {
        value
            .trim()
            .trim_start_matches("id")
            .trim()
            .trim_matches('"')
            .to_string()
    };
    let (white, black) = (id(property(text, "P0")), id(property(text, "P1")));
    let result = property(text, "RE");
    match (result.contains(&white), result.contains(&black)) {
        (true, false) => Side::First,
        (false, true) => Side::Second,
        _ => panic!("RE[{result}] names neither {white} nor {black} alone"),
    }
}

/// Decisions the record holds before any resignation, counted from its commands: ring
/// placements, ring moves (`move`, or `place w` + `drop board` as one), row and ring removals.
fn recorded_decisions(text: &str) -> usize {
    let mut count = 0;
    for node in text.split(';').skip(1) {
        let Some(open) = node.find('[') else { continue };
        let command = &node[open + 1..open + node[open..].find(']').unwrap()];
        let words: Vec<&str> = command.split_whitespace().skip(1).collect();
        match words.as_slice() {
            ["Resign", ..] => break,
            ["place", "wr" | "br", ..] | ["drop", "board", ..] | ["move", ..] | ["remove", ..] => {
                count += 1;
            }
            _ => {}
        }
    }
    count
}

#[test]
fn every_record_replays_to_its_recorded_result() {
    for (name, text) in RECORDS {
        let winner = recorded_winner(text);
        let game = read_sgf(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let end = &game.position;
        println!(
            "{name}: {} decisions, rings removed {} - {}, resigned {}",
            game.moves.len(),
            end.removed(Side::First),
            end.removed(Side::Second),
            game.resigned
        );
        assert_eq!(game.moves.len(), recorded_decisions(text), "{name}");
        if game.resigned {
            // The player to move resigned: the game is not over by the rules, and the winner is
            // the other one.
            assert_eq!(end.outcome(), None, "{name}");
            assert_eq!(
                end.side_to_move(),
                winner.opponent(),
                "{name}: who resigned"
            );
            assert_eq!(
                end.phase(),
                Phase::Move,
                "{name}: resigned instead of moving a ring"
            );
        } else {
            assert_eq!(end.outcome(), Some(Outcome::Win(winner)), "{name}");
            assert_eq!(end.removed(winner), 3, "{name}: three rings removed");
            assert!(end.removed(winner.opponent()) < 3, "{name}");
        }
    }
}

/// Each real record, written again by the crate ([`Notation::write_record`], boardspace SGF),
/// reads back as the same decisions, one node each beside the `Start` and `Done` nodes.
#[test]
fn real_records_written_again_read_back() {
    for (name, text) in RECORDS {
        let (start, moves) = Yinsh::read_record(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = start.write_record(&moves);
        assert!(written.starts_with("(;\nGM[24]"), "{name}: {written}");
        let (again, moves_again) = Yinsh::read_record(&written).unwrap();
        assert_eq!(again, start, "{name}");
        assert_eq!(moves_again, moves, "{name}");
        let decisions = written
            .lines()
            .filter(|l| l.starts_with("; P") && !l.contains(" Done ") && !l.contains(" Start "))
            .count();
        assert_eq!(decisions, moves.len(), "{name}");
        // P0 (White) places the first ring, as in the record.
        assert!(written.contains("; P0[1 place wr "), "{name}: {written}");
    }
    assert_eq!(Yinsh::record_format().extension, "sgf");
}

/// Each real record read as a tree ([`Notation::read_record_tree`]) is its line without
/// variations; with a variation added at every branch point of White's choosing (another legal
/// decision), it is written with its variations and reads back as the same tree.
#[test]
fn real_records_read_as_trees() {
    for (name, text) in RECORDS {
        let (start, moves) = Yinsh::read_record(text).unwrap();
        let (tree_start, mut tree) =
            Yinsh::read_record_tree(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(tree_start, start, "{name}");
        assert!(!tree.has_variations(), "{name}");
        assert_eq!(tree.main_line(), moves, "{name}");
        assert_eq!(start.write_record_tree(&tree), start.write_record(&moves));
        let mut state = start.clone();
        let mut at = RecordTree::<Move>::ROOT;
        let mut variations = 0;
        for &mv in &moves {
            let mut legal = Vec::new();
            state.generate_moves(&mut legal);
            if state.side_to_move() == Side::First
                && let Some(&other) = legal.iter().find(|&&other| other != mv)
            {
                tree.add(at, other);
                variations += 1;
            }
            at = tree.children(at)[0];
            state = state.play(mv);
        }
        assert!(variations > 3, "{name}");
        let written = start.write_record_tree(&tree);
        let (again, back) = Yinsh::read_record_tree(&written).unwrap();
        assert_eq!((again, &back), (start, &tree), "{name}");
        assert_eq!(back.main_line(), moves, "{name}");
        assert_eq!(read_sgf(&written).unwrap().moves, moves, "{name}");
    }
}
