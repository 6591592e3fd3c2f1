//! Replays the 1,752 real Copenhagen games (tests/data/copenhagen.csv, CC0, from
//! aagenielsen.dk via the dcampbell24/hnefatafl repository; see README there) under the
//! built-in official-repetition Copenhagen rules.
//!
//! Checked for every record: every recorded move is legal, the pieces it captures are exactly
//! the recorded ones (the king excepted: king captures are not written), the capture totals
//! match the record's columns, and the result agrees with the final position. Records that go
//! on after the game is over, that end by repetition, or whose recorded result is not reached
//! (resignation, timeout, unfinished) are exceptions: counted and printed, never skipped
//! silently.

use std::collections::BTreeMap;

use plies::{Game, Notation, Outcome, Side};
use plies_tafl::board::parse_square;
use plies_tafl::{GameRecord, Tafl, start_of};

const DATA: &str = include_str!("data/copenhagen.csv");

/// How one record ended in the replay.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    /// Replayed to its end; result consistent with the final position.
    Consistent,
    /// Recorded result not reached by the moves (resignation/timeout/unfinished record).
    ResultNotReached,
    /// The game was already over under these rules before the record's last move.
    ContinuesAfterEnd,
    /// Threefold repetition ended the game under the official rule on the last move.
    Repetition,
    /// Threefold repetition ended the game under the official rule, and the record goes on.
    ContinuesAfterRepetition,
    /// A recorded move is illegal (a failure).
    IllegalMove(String),
    /// Captures differ from the record (a failure).
    CaptureMismatch(String),
    /// The final position's winner contradicts the recorded status (a failure).
    WrongResult(String),
    /// Capture totals differ from the record's columns (a failure).
    WrongTotals(String),
}

fn replay(line: &str) -> Verdict {
    let fields: Vec<&str> = line.split(',').collect();
    assert_eq!(fields.len(), 4, "bad csv line {line}");
    let (moves, att_caps, def_caps, status) = (fields[0], fields[1], fields[2], fields[3]);
    let start: Tafl = start_of("copenhagen_official").unwrap();
    let mut record = GameRecord::new(start);
    let mut totals = [0usize; 2];
    let mut verdict = None;
    for token in moves.split_whitespace() {
        if token == "timeout" {
            break;
        }
        let state = *record.current();
        if state.outcome().is_some() {
            verdict = Some(if record.ended_by_repetition() {
                Verdict::ContinuesAfterRepetition
            } else {
                Verdict::ContinuesAfterEnd
            });
            break;
        }
        let mut parts = token.split('x');
        let move_text = parts.next().unwrap();
        let mut recorded: Vec<usize> = parts
            .map(|sq| parse_square(sq, 11).unwrap_or_else(|| panic!("bad square {sq}")))
            .collect();
        recorded.sort_unstable();
        recorded.dedup();
        let mv = match state.parse_move(move_text) {
            Ok(mv) => mv,
            Err(e) => {
                return Verdict::IllegalMove(format!(
                    "{token} (ply {}): {e}",
                    record.moves().len() + 1
                ));
            }
        };
        let king = state.king_square();
        let mut captured: Vec<usize> = state
            .captured_by(mv)
            .into_iter()
            .filter(|&sq| Some(sq) != king)
            .collect();
        captured.sort_unstable();
        if captured != recorded {
            return Verdict::CaptureMismatch(format!(
                "{token} (ply {}): captured {captured:?}, recorded {recorded:?}",
                record.moves().len() + 1
            ));
        }
        totals[state.side_to_move().index()] += token.matches('x').count();
        record.play(mv);
    }
    let (a, d): (usize, usize) = (att_caps.parse().unwrap(), def_caps.parse().unwrap());
    if verdict.is_none() && totals != [a, d] {
        return Verdict::WrongTotals(format!("replayed {totals:?}, recorded [{a}, {d}]"));
    }
    if let Some(v) = verdict {
        return v;
    }
    let outcome = record.current().outcome();
    let expected = match status {
        "White" => Some(Outcome::Win(Side::Second)),
        "Black" => Some(Outcome::Win(Side::First)),
        "Draw" => Some(Outcome::Draw),
        _ => None,
    };
    match (outcome, expected) {
        (None, _) => Verdict::ResultNotReached,
        (Some(o), Some(e)) if o == e => {
            if record.ended_by_repetition() {
                Verdict::Repetition
            } else {
                Verdict::Consistent
            }
        }
        (Some(_), _) if record.ended_by_repetition() => Verdict::Repetition,
        (Some(o), _) => Verdict::WrongResult(format!("position says {o:?}, record says {status}")),
    }
}

#[test]
fn copenhagen_records_replay() {
    let lines: Vec<&str> = DATA.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1_752);
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let v = replay(line);
        let key = match &v {
            Verdict::Consistent => "consistent",
            Verdict::ResultNotReached => {
                "exception: result not reached (resigned/timeout/unfinished)"
            }
            Verdict::ContinuesAfterEnd => "exception: record continues after the game ended",
            Verdict::Repetition => "exception: ended by threefold repetition on the last move",
            Verdict::ContinuesAfterRepetition => {
                "exception: record continues after a threefold repetition"
            }
            Verdict::IllegalMove(_) => "FAILURE: illegal move",
            Verdict::CaptureMismatch(_) => "FAILURE: capture mismatch",
            Verdict::WrongResult(_) => "FAILURE: wrong result",
            Verdict::WrongTotals(_) => "FAILURE: capture totals",
        };
        *counts.entry(key).or_default() += 1;
        if key.starts_with("FAILURE") {
            failures.push(format!("record {} : {v:?}", i + 1));
        }
    }
    for (k, n) in &counts {
        println!("{n:5}  {k}");
    }
    for f in failures.iter().take(40) {
        println!("{f}");
    }
    assert!(failures.is_empty(), "{} records fail", failures.len());
    // Sample checks by hand: the unreached results are resignations (mostly a king next to an
    // open corner, or a hopeless king); under these rules no record goes on after a decided
    // game except after a threefold repetition.
    assert_eq!(counts.values().sum::<usize>(), lines.len());
    assert!(
        !counts.contains_key("exception: record continues after the game ended"),
        "{counts:?}"
    );
}
