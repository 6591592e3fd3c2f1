//! The conformance suite on the tutorial game Kalah, several board sizes, plus hand-checked
//! rule examples (extra turn, capture, end sweep) and notation errors, and proof that the suite
//! catches each kind of bug in a deliberately broken Kalah.
//!
//! Key invariant: the expected positions here were worked out by hand from the rules in
//! `src/lib.rs`, not printed by the code.

use plies::harness::Check;
use plies::harness::check_conformance;
use plies::{Game, MoveClass, Notation, NotationError, Outcome, Side};
use plies_kalah::{CaptureRule, Kalah, Sow};

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
fn the_empty_capture_variant_conforms() {
    let starts: Vec<Kalah> = [(6, 4), (6, 5), (4, 3), (1, 1)]
        .iter()
        .map(|&(pits, seeds)| {
            Kalah::new(pits, seeds)
                .unwrap()
                .with_capture(CaptureRule::Empty)
        })
        .collect();
    let report = check_conformance(&starts, 2027, 30, 200).unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(report.games, 120);
    assert_eq!(report.finished_games, 120);
}

#[test]
fn empty_capture_takes_the_lone_seed() {
    // As in `capture_takes_the_opposite_pit`, north's e empty: under the variant south's seed
    // landing in its empty b goes to the store alone, and the move is a capture.
    let state = position("1,0,3,0,0,0|0 0,0,0,0,0,2|0 s empty-capture");
    assert_eq!(state.capture_rule(), CaptureRule::Empty);
    let mv = state.parse_move("a").unwrap();
    assert_eq!(state.classify(mv), MoveClass::Capture);
    let next = state.play(mv);
    assert_eq!(
        next.format_position(),
        "0,0,3,0,0,0|1 0,0,0,0,0,2|0 n empty-capture"
    );
    // The rule is part of the position: the same board under each rule hashes differently.
    let plain = position("1,0,3,0,0,0|0 0,0,0,0,0,2|0 s");
    assert_ne!(plain.hash(), state.hash());
    assert_eq!(state.hash(), state.hash_from_scratch());
    // The word is case-insensitive; any other fourth word, or a fifth, is refused.
    assert_eq!(
        position("1,0,3,0,0,0|0 0,0,0,0,0,2|0 s Empty-Capture"),
        state
    );
    for (text, token) in [
        ("4,4,4|0 4,4,4|0 s empty", "empty"),
        ("4,4,4|0 4,4,4|0 s empty-capture x", "x"),
    ] {
        let err = Kalah::parse_position(text).unwrap_err();
        assert_eq!(err.token, token, "{text}: {err}");
    }
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

/// Kalah with one deliberate bug, chosen by `BUG`, to show the suite catches each kind.
#[derive(Clone, Debug)]
struct Bugged<const BUG: u8>(Kalah);

const DUPLICATE_MOVE: u8 = 1;
const NOISY_MISSING: u8 = 2;
const INDEX_COLLISION: u8 = 3;
const WIN_UNCLASSED: u8 = 4;
const CASE_SENSITIVE: u8 = 5;
const EMPTY_ACCEPTED: u8 = 6;
const PANIC_ON_GARBAGE: u8 = 7;
const STALE_HASH: u8 = 8;
const LOSSY_POSITION_TEXT: u8 = 9;
const QUIET_INCLUDES_NOISY: u8 = 10;
const WRONG_INDEX_LOOKUP: u8 = 11;

impl<const BUG: u8> Game for Bugged<BUG> {
    type Move = Sow;
    fn side_to_move(&self) -> Side {
        self.0.side_to_move()
    }
    fn generate_moves(&self, moves: &mut Vec<Sow>) {
        let start = moves.len();
        self.0.generate_moves(moves);
        if BUG == DUPLICATE_MOVE && moves.len() - start > 2 {
            moves.push(moves[start]);
        }
    }
    fn generate_noisy_moves(&self, moves: &mut Vec<Sow>) {
        if BUG != NOISY_MISSING {
            self.0.generate_noisy_moves(moves);
        }
    }
    fn generate_quiet_moves(&self, moves: &mut Vec<Sow>) {
        if BUG == QUIET_INCLUDES_NOISY {
            self.0.generate_moves(moves);
        } else {
            self.0.generate_quiet_moves(moves);
        }
    }
    fn move_from_index(&self, index: usize) -> Option<Sow> {
        // Answers every index below the bound with the pit of that number, legal or not.
        (BUG == WRONG_INDEX_LOOKUP && index < self.0.move_index_bound()).then_some(Sow(index as u8))
    }
    fn play(&self, mv: Sow) -> Self {
        Bugged(self.0.play(mv))
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn hash(&self) -> u64 {
        // A hash that forgets the side to move when updated incrementally.
        if BUG == STALE_HASH && self.0.side_to_move() == Side::Second {
            self.0.hash() ^ 1
        } else {
            self.0.hash()
        }
    }
    fn hash_from_scratch(&self) -> u64 {
        self.0.hash_from_scratch()
    }
    fn move_index(&self, mv: Sow) -> usize {
        if BUG == INDEX_COLLISION {
            usize::from(mv.0 / 2)
        } else {
            self.0.move_index(mv)
        }
    }
    fn move_index_bound(&self) -> usize {
        self.0.move_index_bound()
    }
    fn classify(&self, mv: Sow) -> MoveClass {
        match self.0.classify(mv) {
            MoveClass::Win if BUG == WIN_UNCLASSED => MoveClass::Capture,
            class => class,
        }
    }
}

impl<const BUG: u8> Notation for Bugged<BUG> {
    fn start_position() -> Self {
        Bugged(Kalah::new(4, 3).unwrap())
    }
    fn parse_position(text: &str) -> Result<Self, NotationError> {
        let state = Kalah::parse_position(text)?;
        if BUG == LOSSY_POSITION_TEXT {
            // Forgets the side to move.
            let south = text.split_whitespace().next().unwrap_or_default();
            let north = text.split_whitespace().nth(1).unwrap_or_default();
            return Kalah::parse_position(&format!("{south} {north} s")).map(Bugged);
        }
        Ok(Bugged(state))
    }
    fn format_position(&self) -> String {
        self.0.format_position()
    }
    fn parse_move(&self, text: &str) -> Result<Sow, NotationError> {
        if BUG == CASE_SENSITIVE && text.chars().any(|c| c.is_ascii_uppercase()) {
            return Err(NotationError::new(text, "upper case"));
        }
        if BUG == EMPTY_ACCEPTED && text.is_empty() {
            let mut moves = Vec::new();
            self.0.generate_moves(&mut moves);
            return moves.first().copied().ok_or(NotationError::new("", "none"));
        }
        if BUG == PANIC_ON_GARBAGE && text.starts_with('@') {
            panic!("unexpected character");
        }
        self.0.parse_move(text)
    }
    fn format_move(&self, mv: Sow) -> String {
        self.0.format_move(mv)
    }
}

fn caught<const BUG: u8>() -> Check {
    let start = <Bugged<BUG> as Notation>::start_position();
    let failure = check_conformance(&[start], 5, 20, 200).expect_err("the bug must be caught");
    println!("{failure}");
    assert!(!failure.position.is_empty());
    failure.check
}

#[test]
fn the_suite_catches_broken_variants() {
    let sound = <Bugged<0> as Notation>::start_position();
    check_conformance(&[sound], 5, 20, 200).unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(caught::<DUPLICATE_MOVE>(), Check::DuplicateMove);
    assert_eq!(caught::<NOISY_MISSING>(), Check::NoisyMissing);
    assert_eq!(caught::<INDEX_COLLISION>(), Check::MoveIndex);
    assert_eq!(caught::<WIN_UNCLASSED>(), Check::WinClass);
    assert_eq!(caught::<CASE_SENSITIVE>(), Check::MoveCase);
    assert_eq!(caught::<EMPTY_ACCEPTED>(), Check::MalformedAccepted);
    assert_eq!(caught::<PANIC_ON_GARBAGE>(), Check::Panic);
    assert_eq!(caught::<STALE_HASH>(), Check::Hash);
    assert_eq!(caught::<LOSSY_POSITION_TEXT>(), Check::PositionRoundTrip);
    assert_eq!(caught::<QUIET_INCLUDES_NOISY>(), Check::QuietMoves);
    assert_eq!(caught::<WRONG_INDEX_LOOKUP>(), Check::MoveFromIndex);
}
