//! Hand-made positions for each rule: custodial capture, hostile squares, king strength,
//! shieldwalls, edge forts, encirclement, escapes, no-move loss, repetition.
//!
//! Key invariant: every expectation is derived from the rules text (docs/rules/tafl.md and the
//! Copenhagen rules), never from running the crate.

use crate::common::{self, after, has};
use plies::{Game, Notation, Outcome, Side};
use plies_tafl::{GameRecord, Tafl};

/// A position of `variant` with `pieces` (square, letter) and `side` (`a`/`d`) to move.
fn pos(variant: &str, dim: usize, pieces: &[(&str, char)], side: char) -> Tafl {
    let record = common::board_text(dim, pieces);
    Tafl::parse_position(&format!("{variant} {record} {side}")).unwrap()
}

#[test]
fn custodial_capture_and_safe_entry() {
    let p = pos(
        "copenhagen",
        11,
        &[
            ("e5", 't'),
            ("d6", 'T'),
            ("c5", 't'),
            ("f6", 'K'),
            ("h8", 'T'),
        ],
        'a',
    );
    // Attacker c5-c6 sandwiches d6 against... nothing at e6: no capture.
    assert!(has(&after(&p, "c5-c6"), "d6"));
    // Defender on d5 between c5 and e5 arrives: safe.
    let q = pos(
        "copenhagen",
        11,
        &[
            ("e5", 't'),
            ("c5", 't'),
            ("d8", 'T'),
            ("f6", 'K'),
            ("h8", 'T'),
        ],
        'd',
    );
    assert!(has(&after(&q, "d8-d5"), "d5"));
    // Attacker e5-e6 with c6 attacker: d6 captured.
    let r = pos(
        "copenhagen",
        11,
        &[
            ("e5", 't'),
            ("d6", 'T'),
            ("c6", 't'),
            ("h2", 'K'),
            ("h8", 'T'),
        ],
        'a',
    );
    let s = after(&r, "e5-e6");
    assert!(!has(&s, "d6"));
    assert_eq!(
        r.format_move_full(r.parse_move("e5-e6").unwrap()),
        "e5-e6xd6"
    );
}

#[test]
fn corners_and_throne_are_hostile() {
    // Copenhagen: corner a1 hostile to defenders; b1 captured by an attacker reaching c1.
    let p = pos(
        "copenhagen",
        11,
        &[("b1", 'T'), ("c3", 't'), ("h8", 'K')],
        'a',
    );
    assert!(!has(&after(&p, "c3-c1"), "b1"));
    // Empty throne f6 hostile to defenders in Copenhagen: e6 captured from d6.
    let q = pos(
        "copenhagen",
        11,
        &[("e6", 'T'), ("d3", 't'), ("h8", 'K')],
        'a',
    );
    assert!(!has(&after(&q, "d3-d6"), "e6"));
    // Brandub (cenh: cenhe:): the throne is hostile to nobody.
    let b = pos("brandub", 7, &[("c4", 'T'), ("b2", 't'), ("f6", 'K')], 'a');
    assert!(has(&after(&b, "b2-b4"), "c4"));
}

#[test]
fn strong_king_needs_four_and_throne_side_counts() {
    // Copenhagen king on g6 next to the throne f6: three attackers plus the throne capture.
    let p = pos(
        "copenhagen",
        11,
        &[
            ("g6", 'K'),
            ("g7", 't'),
            ("g5", 't'),
            ("i6", 't'),
            ("b2", 'T'),
        ],
        'a',
    );
    assert_eq!(
        after(&p, "i6-h6").outcome(),
        Some(Outcome::Win(Side::First))
    );
    // Away from the throne, three attackers are not enough.
    let q = pos(
        "copenhagen",
        11,
        &[
            ("h8", 'K'),
            ("h9", 't'),
            ("h7", 't'),
            ("j8", 't'),
            ("b2", 'T'),
        ],
        'a',
    );
    assert_eq!(after(&q, "j8-i8").outcome(), None);
    // On the edge the king cannot be captured.
    let e = pos(
        "copenhagen",
        11,
        &[
            ("f1", 'K'),
            ("e1", 't'),
            ("h1", 't'),
            ("f3", 't'),
            ("b5", 'T'),
        ],
        'a',
    );
    let e2 = after(&e, "f3-f2");
    assert!(e2.king_square().is_some());
    // Brandub's weak king: two attackers on a line.
    let b = pos(
        "brandub",
        7,
        &[("c6", 'K'), ("b6", 't'), ("e5", 't'), ("f2", 'T')],
        'a',
    );
    assert_eq!(after(&b, "e5-d5").outcome(), None);
    assert_eq!(after(&b, "e5-e6").outcome(), None);
    let b2 = pos(
        "brandub",
        7,
        &[("c6", 'K'), ("b6", 't'), ("d2", 't'), ("f2", 'T')],
        'a',
    );
    assert_eq!(
        after(&b2, "d2-d6").outcome(),
        Some(Outcome::Win(Side::First))
    );
}

#[test]
fn shieldwalls_capture_with_corner_but_not_the_king() {
    // Defenders e1 f1 on the edge, attackers in front on e2 f2, attacker d1 brackets; g1
    // arrives from g4 and captures both.
    let p = pos(
        "copenhagen",
        11,
        &[
            ("e1", 'T'),
            ("f1", 'T'),
            ("e2", 't'),
            ("f2", 't'),
            ("d1", 't'),
            ("g4", 't'),
            ("h8", 'K'),
        ],
        'a',
    );
    let q = after(&p, "g4-g1");
    assert!(!has(&q, "e1") && !has(&q, "f1"));
    // Closed by the corner a1 (strong shieldwall): b1 c1 with attackers in front, d1 arrives.
    let c = pos(
        "copenhagen",
        11,
        &[
            ("b1", 'T'),
            ("c1", 'T'),
            ("b2", 't'),
            ("c2", 't'),
            ("d4", 't'),
            ("h8", 'K'),
        ],
        'a',
    );
    let c2 = after(&c, "d4-d1");
    assert!(!has(&c2, "b1") && !has(&c2, "c1"));
    // The king in the row stays.
    let k = pos(
        "copenhagen",
        11,
        &[
            ("e1", 'T'),
            ("f1", 'K'),
            ("e2", 't'),
            ("f2", 't'),
            ("d1", 't'),
            ("g4", 't'),
            ("h8", 'T'),
        ],
        'a',
    );
    let k2 = after(&k, "g4-g1");
    assert!(!has(&k2, "e1") && has(&k2, "f1"));
    // A gap in the front saves the wall.
    let g = pos(
        "copenhagen",
        11,
        &[
            ("e1", 'T'),
            ("f1", 'T'),
            ("e2", 't'),
            ("d1", 't'),
            ("g4", 't'),
            ("h8", 'K'),
        ],
        'a',
    );
    let g2 = after(&g, "g4-g1");
    assert!(has(&g2, "e1") && has(&g2, "f1"));
}

#[test]
fn escapes_forts_encirclement_and_no_moves() {
    let p = pos(
        "copenhagen",
        11,
        &[("a5", 'K'), ("f7", 't'), ("j10", 'T')],
        'd',
    );
    assert_eq!(
        after(&p, "a5-a1").outcome(),
        Some(Outcome::Win(Side::Second))
    );
    // Tablut escapes on any edge square.
    let t = pos("tablut", 9, &[("c5", 'K'), ("g7", 't'), ("h8", 'T')], 'd');
    assert_eq!(
        after(&t, "c5-a5").outcome(),
        Some(Outcome::Win(Side::Second))
    );
    // Edge fort: king e1 with defenders d1 d2 d3 e3 f3 f2 f1 (all uncapturable: e3 alone could
    // be taken between d3 and f3), moving into it.
    let f = pos(
        "copenhagen",
        11,
        &[
            ("e2", 'K'),
            ("d1", 'T'),
            ("d2", 'T'),
            ("e3", 'T'),
            ("d3", 'T'),
            ("f3", 'T'),
            ("f2", 'T'),
            ("f1", 'T'),
            ("h8", 't'),
            ("b9", 't'),
        ],
        'd',
    );
    assert_eq!(
        after(&f, "e2-e1").outcome(),
        Some(Outcome::Win(Side::Second))
    );
    // Without d3 and f3, e3 can be captured: no fort.
    let weak = pos(
        "copenhagen",
        11,
        &[
            ("e2", 'K'),
            ("d1", 'T'),
            ("d2", 'T'),
            ("e3", 'T'),
            ("f2", 'T'),
            ("f1", 'T'),
            ("h8", 't'),
        ],
        'd',
    );
    assert_eq!(after(&weak, "e2-e1").outcome(), None);
    // Encirclement: attackers ring the box e5..g6 holding king and defender; g9-g7 closes it.
    let pieces = [
        ("e4", 't'),
        ("f4", 't'),
        ("g4", 't'),
        ("d5", 't'),
        ("h5", 't'),
        ("d6", 't'),
        ("h6", 't'),
        ("e7", 't'),
        ("f7", 't'),
        ("g9", 't'),
        ("f6", 'K'),
        ("f5", 'T'),
    ];
    let e = pos("copenhagen", 11, &pieces, 'a');
    assert_eq!(e.outcome(), None);
    assert_eq!(after(&e, "g9-g8").outcome(), None);
    assert_eq!(
        after(&e, "g9-g7").outcome(),
        Some(Outcome::Win(Side::First))
    );
    // A side with no legal move loses: the lone attacker b1 is boxed in by d2-b2.
    let n = pos(
        "copenhagen",
        11,
        &[("b1", 't'), ("c1", 'T'), ("d2", 'T'), ("h8", 'K')],
        'd',
    );
    assert_eq!(
        after(&n, "d2-b2").outcome(),
        Some(Outcome::Win(Side::Second))
    );
    assert_eq!(after(&n, "d2-d3").outcome(), None);
}

#[test]
fn threefold_repetition_per_tfr() {
    let start = pos(
        "copenhagen",
        11,
        &[("f6", 'K'), ("c3", 't'), ("h8", 'T'), ("e8", 't')],
        'a',
    );
    let mut rec = GameRecord::new(start);
    for mv in [
        "c3-c4", "h8-h9", "c4-c3", "h9-h8", "c3-c4", "h8-h9", "c4-c3", "h9-h8",
    ] {
        assert_eq!(rec.current().outcome(), None, "{mv}");
        rec.play_text(mv).unwrap();
    }
    // The start position occurs the third time after the defenders' h9-h8: tfr:w, the mover
    // (defenders) loses.
    assert!(rec.ended_by_repetition());
    assert_eq!(rec.current().outcome(), Some(Outcome::Win(Side::First)));
}

#[test]
fn rules_strings_errors_name_the_key() {
    let err =
        Tafl::parse_position("dim:11 ks:q start:/11/11/11/11/11/5K5/11/11/11/11/11/").unwrap_err();
    assert!(err.to_string().contains("ks"), "{err}");
    let err = Tafl::parse_position("dim:23 start:/").unwrap_err();
    assert!(err.to_string().contains("dim"), "{err}");
    // An unknown key (a typo would silently change the rules) is an error naming it.
    let err = Tafl::parse_position("dim:7 foo:bar start:/7/7/7/3K3/7/7/7/").unwrap_err();
    assert!(err.to_string().contains("'foo'"), "{err}");
    assert!(Tafl::parse_position("dim:7 start:/7/7/7/3K3/7/7/7/").is_ok());
    assert!(Tafl::parse_position("nosuchvariant").is_err());
    assert!(Tafl::parse_position("brandub /3t3/ a").is_err());
    let huge = "brandub /99999999999999999999999t/7/7/7/7/7/7/ a";
    assert!(Tafl::parse_position(huge).is_err());
    assert!(Tafl::parse_position("brandub /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ x").is_err());
    let p = Tafl::parse_position("brandub").unwrap();
    assert!(p.parse_move("a4-a7").is_err()); // corner: king only
    assert!(p.parse_move("zz-a1").is_err());
    assert!(p.parse_move("d7-d6").is_err());
    assert!(p.parse_move("d7-c7").is_ok());
}

#[test]
fn otg_round_trip() {
    let start = Tafl::parse_position("brandub").unwrap();
    let mut rec = GameRecord::new(start);
    for mv in ["d7-c7", "d5-c5", "a4-a5", "c5-c6xc7"] {
        rec.play_text(mv).unwrap();
    }
    let text = rec.to_otg(&[("event", "test")]);
    let back = GameRecord::from_otg(&text).unwrap();
    assert_eq!(back.moves(), rec.moves());
    assert_eq!(back.current().hash(), rec.current().hash());
}

/// The game's record format is OpenTafl's .otg: written with the rules string and full OTN
/// moves, read back; plain records (`position ...`) are read too; errors name the ply.
#[test]
fn records_are_otg() {
    assert_eq!(Tafl::record_format().extension, "otg");
    let start = Tafl::parse_position("brandub").unwrap();
    let moves = start.parse_line("d7-c7 d5-c5 a4-a5 c5-c6").unwrap();
    let same = |(back, back_moves): (Tafl, Vec<_>)| {
        assert_eq!(back.format_position(), start.format_position());
        assert_eq!(back.hash(), start.hash());
        assert_eq!(back_moves, moves);
    };
    let text = start.write_record(&moves);
    assert!(
        text.ends_with("\n1. d7-c7 d5-c5\n2. a4-a5 c5-c6\n"),
        "{text}"
    );
    same(Tafl::read_record(&text).unwrap());
    same(Tafl::read_record(&plies::write_plain_record(&start, &moves)).unwrap());
    let error = Tafl::read_record(&text.replace("c5-c6", "c5-c2")).unwrap_err();
    assert!(error.reason.starts_with("ply 4:"), "{error}");
    let error = Tafl::read_record("[event:x]\nnot a rules string\n1. d7-c7\n").unwrap_err();
    assert!(error.reason.starts_with("rules string:"), "{error}");
}

/// A set-up as people type it: a position (a variant's name, a rules string or a written
/// position) and moves on one line, read by `read_record` (plain format) and by
/// `read_plain_record`.
#[test]
fn a_record_may_give_the_position_and_moves_on_one_line() {
    let brandub = Tafl::parse_position("brandub").unwrap();
    let moves = brandub.parse_line("d7-c7 d5-c5 a4-a5").unwrap();
    let written = brandub.play_line("d7-c7").unwrap();
    for text in [
        "brandub d7-c7 d5-c5 a4-a5".to_string(),
        "Brandubh 1. d7-c7 d5-c5\n2. a4-a5".to_string(),
        format!("{} d7-c7 d5-c5 a4-a5", brandub.format_position()),
        format!("position {} d7-c7 d5-c5\na4-a5", brandub.format_position()),
        format!(
            "{} d7-c7 d5-c5 a4-a5",
            plies_tafl::variant("brandub").unwrap().rules
        ),
    ] {
        for (start, read) in [
            Tafl::read_record(&text).unwrap_or_else(|e| panic!("{text}: {e}")),
            plies::read_plain_record::<Tafl>(&text).unwrap(),
        ] {
            assert_eq!(start.hash(), brandub.hash(), "{text}");
            assert_eq!(read, moves, "{text}");
        }
    }
    // A written position (board and side) before the moves.
    let text = format!("brandub {} d d5-c5", written.board().to_otn(7));
    let (start, read) = Tafl::read_record(&text).unwrap();
    assert_eq!((start.hash(), read), (written.hash(), moves[1..2].to_vec()));
    // Moves alone start at Copenhagen, as before.
    let (start, read) = Tafl::read_record("d1-d4 e5-e3").unwrap();
    assert_eq!(
        (start.hash(), read.len()),
        (Tafl::start_position().hash(), 2)
    );
}

#[test]
fn a_one_line_set_up_that_fits_nothing_names_what_is_wrong() {
    let error = |text: &str| {
        let plain = plies::read_plain_record::<Tafl>(text)
            .expect_err(text)
            .to_string();
        let record = Tafl::read_record(text).expect_err(text).to_string();
        assert_eq!(plain, record);
        assert!(!plain.contains('\n'), "{plain}");
        plain
    };
    // A good position, then an illegal move.
    assert_eq!(
        error("brandub d7-c7 d5-d7"),
        "'d5-d7': line 1: after the position 'brandub': move 2 ('d5-d7'): not a legal move here"
    );
    // A bad rules value before the moves: the position's error.
    let text = "dim:7 name:Brandub atkf:q start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ d7-c7";
    assert_eq!(
        error(text),
        "'atkf:q': line 1: rules key 'atkf': expected y or n"
    );
    // A square off the board in the first move: the moves' error, which points farther
    // than the position's (about the first word).
    assert_eq!(
        error("a4-a12 b2-b3"),
        "'a12': line 1: move 1 ('a4-a12'): not a square of this 11x11 board"
    );
    // Moves whose first one reads: the moves' error.
    assert!(error("d1-d4 d11-d12").starts_with("'d12': line 1: move 2 ('d11-d12'): "));
    // A misspelt variant name: both readings' errors.
    let both = error("brandubx d7-c7");
    assert!(
        both.starts_with("line 1: neither a position ('brandubx': unknown variant; known: "),
        "{both}"
    );
    assert!(
        both.ends_with(
            "nor moves from the start ('brandubx': move 1 ('brandubx'): expected a move like a4-a1)"
        ),
        "{both}"
    );
    // An .otg record with tags keeps the .otg error.
    let tagged = Tafl::read_record("[event:x]\nbrandubx d7-c7\n").unwrap_err();
    assert!(tagged.reason.starts_with("rules string:"), "{tagged}");
}
