//! The conformance suite on the tutorial game Kalah, several board sizes, plus hand-checked
//! rule examples (extra turn, capture, end sweep) and notation errors.
//!
//! Key invariant: the expected positions here were worked out by hand from the rules in
//! `examples/kalah/game.rs`, not printed by the code.

#[path = "../examples/kalah/game.rs"]
mod game;

use game::{Kalah, Sow};
use plies::harness::check_conformance;
use plies::{Game, MoveClass, Notation, Outcome, Side};

fn position(text: &str) -> Kalah {
    Kalah::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn kalah_conforms_on_several_sizes() {
    let starts: Vec<Kalah> = [(6, 4), (6, 6), (4, 3), (3, 1), (1, 1), (8, 8)]
        .iter()
        .map(|&(pits, seeds)| Kalah::new(pits, seeds).unwrap())
        .collect();
    let report = check_conformance(&starts, 2026, 30, 200).unwrap_or_else(|f| panic!("{f}"));
    println!("kalah conformance: {report}");
    assert_eq!(report.games, 180);
    // Kalah games end: all of them within 200 plies.
    assert_eq!(report.finished_games, 180);
    assert_eq!(report.max_moves, 8);
}

#[test]
fn extra_turn_when_the_last_seed_reaches_the_store() {
    let start = Kalah::start_position();
    let next = start.play(start.parse_move("c").unwrap());
    assert_eq!(next.format_position(), "4,4,0,5,5,5|1 4,4,4,4,4,4|0 s");
    assert_eq!(next.side_to_move(), Side::First);
    // Pit d: 4 seeds into e, f, store, north's a: the turn passes.
    let next = start.play(Sow(3));
    assert_eq!(next.format_position(), "4,4,4,0,5,5|1 5,4,4,4,4,4|0 n");
}

#[test]
fn north_sows_past_its_store_and_skips_souths() {
    // North's f has 9 seeds: north store, south a..f (6), skip south's store, north a, b.
    let state = position("1,1,1,1,1,1|0 1,1,1,1,1,9|0 n");
    let next = state.play(state.parse_move("f").unwrap());
    assert_eq!(next.format_position(), "2,2,2,2,2,2|0 2,2,1,1,1,0|1 s");
}

#[test]
fn capture_takes_the_opposite_pit() {
    // South's a has 1 seed, b is empty; north's e (opposite south's b) has 7.
    let state = position("1,0,3,0,0,0|0 0,0,0,0,7,2|0 s");
    let mv = state.parse_move("a").unwrap();
    assert_eq!(state.classify(mv), MoveClass::Capture);
    let next = state.play(mv);
    assert_eq!(next.format_position(), "0,0,3,0,0,0|8 0,0,0,0,0,2|0 n");
    // Opposite pit empty: no capture, the seed stays.
    let state = position("1,0,3,0,0,0|0 0,0,0,0,0,2|0 s");
    let mv = state.parse_move("a").unwrap();
    assert_eq!(state.classify(mv), MoveClass::Quiet);
    assert_eq!(
        state.play(mv).format_position(),
        "0,1,3,0,0,0|0 0,0,0,0,0,2|0 n"
    );
}

#[test]
fn the_game_ends_when_the_side_to_move_is_empty() {
    // South plays f (1 seed into its store): extra turn, but south has no seed left, so the
    // game ends and north's 3 remaining seeds go to north: 11 + 1 = 12 against 10 + 3 = 13.
    let state = position("0,0,0,0,0,1|11 1,0,2,0,0,0|10 s");
    let mv = state.parse_move("F").unwrap();
    assert_eq!(state.classify(mv), MoveClass::Quiet);
    let end = state.play(mv);
    assert_eq!(end.format_position(), "0,0,0,0,0,0|12 0,0,0,0,0,0|13 s");
    assert_eq!(end.outcome(), Some(Outcome::Win(Side::Second)));
    let mut moves = Vec::new();
    end.generate_moves(&mut moves);
    assert!(moves.is_empty());
    // The same with south 2 seeds ahead in store wins, and is classed a win.
    let state = position("0,0,0,0,0,1|14 1,0,2,0,0,0|10 s");
    assert_eq!(state.classify(Sow(5)), MoveClass::Win);
    assert_eq!(
        state.play(Sow(5)).outcome(),
        Some(Outcome::Win(Side::First))
    );
    // Equal totals: a draw.
    let state = position("0,0,0,0,0,1|12 1,0,2,0,0,0|10 s");
    assert_eq!(state.play(Sow(5)).outcome(), Some(Outcome::Draw));
}

#[test]
fn parsing_sweeps_a_finished_position() {
    let state = position("0,0,0|5 1,2,0|3 S");
    assert_eq!(state.format_position(), "0,0,0|5 0,0,0|6 s");
    assert_eq!(state.outcome(), Some(Outcome::Win(Side::Second)));
}

#[test]
fn bad_text_is_rejected_naming_the_token() {
    let start = Kalah::start_position();
    for (text, token) in [("g", "g"), ("ab", "ab"), ("", ""), ("3", "3")] {
        let err = start.parse_move(text).unwrap_err();
        assert_eq!(err.token, token, "{text}: {err}");
    }
    let empty = start.play(Sow(0));
    assert_eq!(empty.play(Sow(0)).parse_move("a").unwrap_err().token, "a");
    for (text, token) in [
        ("4,4,x|0 4,4,4|0 s", "x"),
        ("4,4,4|0 4,4,4|0 w", "w"),
        ("4,4,4 4,4,4|0 s", "4,4,4"),
        ("4,4,4|0 4,4|0 s", "4,4|0"),
        ("4,4,4|0 4,4,4|0 s extra", "extra"),
        ("4,4,4|0 4,4,4|999 s", "999"),
    ] {
        let err = Kalah::parse_position(text).unwrap_err();
        assert_eq!(err.token, token, "{text}: {err}");
    }
    assert!(Kalah::parse_position("100,100|0 0,0|0 s").is_err());
    assert!(Kalah::parse_position("1,1,1,1,1,1,1,1,1|0 1,1,1,1,1,1,1,1,1|0 s").is_err());
}
