//! Hand-made positions for the rules added after the first version: middleweight king
//! (`ks:m`), speed limits (`spd`), shieldwalls without the flanking rule (`swf:n`) and
//! fortress squares (`afor`/`dfor` with their `h`/`p`/`s` sets); and the keys still rejected.
//!
//! Key invariant: every expectation is derived from the rules text (docs/rules/tafl.md, OpenTafl's
//! notation spec and its rules descriptions), never from running the crate.

use crate::common::{self, after, has};
use plies::{Game, Notation, Outcome, Side};
use plies_tafl::Tafl;

/// A position under the OTN `rules` (without `start:`) with `pieces` and `side` to move.
fn pos(rules: &str, dim: usize, pieces: &[(&str, char)], side: char) -> Tafl {
    let record = common::board_text(dim, pieces);
    Tafl::parse_position(&format!("dim:{dim} {rules} turn:{side} start:{record}")).unwrap()
}

fn moves(state: &Tafl) -> Vec<String> {
    let mut list = Vec::new();
    state.generate_moves(&mut list);
    let mut out: Vec<String> = list.iter().map(|&m| state.format_move(m)).collect();
    out.sort();
    out
}

#[test]
fn middleweight_king_is_taken_against_the_edge_when_every_side_is_closed() {
    // King on d1 (bottom edge), attackers on c1 and e1; an attacker arrives on d2. Every
    // neighbour on the board is an attacker: captured under ks:m, not under ks:s (a strong
    // king needs four sides, so never on the edge).
    let pieces = [
        ("d1", 'K'),
        ("c1", 't'),
        ("e1", 't'),
        ("g2", 't'),
        ("b6", 'T'),
    ];
    let m = pos("ks:m surf:n", 7, &pieces, 'a');
    let taken = after(&m, "g2-d2");
    assert!(!has(&taken, "d1"));
    assert_eq!(taken.outcome(), Some(Outcome::Win(Side::First)));
    let s = pos("ks:s surf:n", 7, &pieces, 'a');
    let safe = after(&s, "g2-d2");
    assert!(has(&safe, "d1"));
    assert_eq!(safe.outcome(), None);
}

#[test]
fn middleweight_king_needs_all_four_sides_in_the_open() {
    // No throne (cen:). King on c3; two attackers on opposite sides capture a weak king but
    // not a middleweight one; closing all four sides does.
    let two = [("c3", 'K'), ("b3", 't'), ("d7", 't'), ("b6", 'T')];
    let weak_taken = after(&pos("ks:w surf:n cen:", 7, &two, 'a'), "d7-d3");
    assert!(!has(&weak_taken, "c3"));
    let mid = after(&pos("ks:m surf:n cen:", 7, &two, 'a'), "d7-d3");
    assert!(has(&mid, "c3"));
    let four = [
        ("c3", 'K'),
        ("b3", 't'),
        ("c2", 't'),
        ("c4", 't'),
        ("d7", 't'),
        ("b6", 'T'),
    ];
    let mid_four = after(&pos("ks:m surf:n cen:", 7, &four, 'a'), "d7-d3");
    assert!(!has(&mid_four, "c3"));
}

#[test]
fn middleweight_king_counts_hostile_squares() {
    // King on b1 next to the corner a1 (hostile to all by default): attackers on c1 and an
    // attacker arriving on b2 close every side on the board.
    let pieces = [
        ("b1", 'K'),
        ("c1", 't'),
        ("g2", 't'),
        ("b6", 'T'),
        ("f6", 't'),
    ];
    let m = after(&pos("ks:m surf:n", 7, &pieces, 'a'), "g2-b2");
    assert!(!has(&m, "b1"));
}

#[test]
fn speed_limits_shorten_every_slide() {
    // spd:1: each piece moves one square. A lone attacker on d4 (no throne) has four moves.
    let p = pos(
        "spd:1 surf:n cen:",
        7,
        &[("d4", 't'), ("b6", 'K'), ("f2", 'T')],
        'a',
    );
    assert_eq!(moves(&p), ["d4-c4", "d4-d3", "d4-d5", "d4-e4"]);
    // spd:2,-1,: attackers up to two squares, defenders unlimited.
    let p = pos(
        "spd:2,-1, surf:n cen:",
        7,
        &[("d4", 't'), ("b7", 'K'), ("f2", 'T')],
        'a',
    );
    assert_eq!(moves(&p).len(), 8);
    let d = pos(
        "spd:2,-1, surf:n cen:",
        7,
        &[("d4", 't'), ("b7", 'K'), ("f2", 'T')],
        'd',
    );
    // King b7: a7 and g7 are corners (the king may stop there): a7, c7..g7 along the rank,
    // b6..b1 down the file; taflman f2: a2..e2 and g2, f3..f7 and f1.
    assert_eq!(moves(&d).len(), 1 + 5 + 6 + 5 + 1 + 5 + 1);
    assert!(Tafl::parse_position("dim:7 spd:1,2,3,4 start:/7/7/7/3K3/7/7/7/").is_err());
    assert!(Tafl::parse_position("dim:7 spd:0 start:/7/7/7/3K3/7/7/7/").is_err());
    let back = Tafl::parse_position(&p.to_text()).unwrap();
    assert_eq!(moves(&back), moves(&p));
}

#[test]
fn shieldwall_without_flanking_rule_closes_from_the_front() {
    // Defenders c1, d1 on the bottom edge; attackers bracket them on b1 and e1; c2 already
    // in front; an attacker arrives on d2. With swf:n the closed wall is captured; with the
    // flanking rule (swf:y) only a move onto the edge captures, so nothing happens.
    let pieces = [
        ("c1", 'T'),
        ("d1", 'T'),
        ("b1", 't'),
        ("e1", 't'),
        ("c2", 't'),
        ("d6", 't'),
        ("g7", 'K'),
    ];
    let rules = "sw:s surf:n cor: cen:";
    let no_flank = after(&pos(&format!("{rules} swf:n"), 7, &pieces, 'a'), "d6-d2");
    assert!(!has(&no_flank, "c1") && !has(&no_flank, "d1"));
    let flank = after(&pos(&format!("{rules} swf:y"), 7, &pieces, 'a'), "d6-d2");
    assert!(has(&flank, "c1") && has(&flank, "d1"));
    // An open end (e1 empty) means no wall either way.
    let open: Vec<(&str, char)> = pieces.iter().copied().filter(|p| p.0 != "e1").collect();
    let not_closed = after(&pos(&format!("{rules} swf:n"), 7, &open, 'a'), "d6-d2");
    assert!(has(&not_closed, "c1") && has(&not_closed, "d1"));
}

#[test]
fn fortress_squares_restrict_and_are_hostile() {
    // A defender fortress on d3 (defaults: hostile to attackers, only defenders stop there,
    // everyone passes). An attacker on d4 is captured by a defender arriving on d5.
    let pieces = [("d4", 't'), ("f5", 'T'), ("b6", 'K'), ("f1", 't')];
    let p = pos("dfor:d3 surf:n cen:", 7, &pieces, 'd');
    let next = after(&p, "f5-d5");
    assert!(!has(&next, "d4"));
    // Attackers may not stop on it but may pass through it.
    let a = pos(
        "dfor:d3 surf:n cen:",
        7,
        &[("d4", 't'), ("b6", 'K'), ("f6", 'T')],
        'a',
    );
    let list = moves(&a);
    assert!(!list.contains(&"d4-d3".to_string()));
    assert!(list.contains(&"d4-d2".to_string()));
    // dfors:K: only the king may stop there; aforh/afor: an attacker fortress hostile to
    // defenders captures a defender against it.
    let p = pos(
        "afor:d3 surf:n cen:",
        7,
        &[("d4", 'T'), ("f5", 't'), ("b6", 'K'), ("f6", 'T')],
        'a',
    );
    assert!(!has(&after(&p, "f5-d5"), "d4"));
    let p = pos(
        "afor:d3 aforh: surf:n cen:",
        7,
        &[("d4", 'T'), ("f5", 't'), ("b6", 'K'), ("f6", 'T')],
        'a',
    );
    assert!(has(&after(&p, "f5-d5"), "d4"));
    let back = Tafl::parse_position(&p.to_text()).unwrap();
    assert_eq!(back.rules(), p.rules());
}

#[test]
fn berserk_and_king_jumps_are_still_rejected() {
    let err = Tafl::parse_position("dim:7 ber:c start:/7/7/7/3K3/7/7/7/").unwrap_err();
    assert!(err.to_string().contains("ber"), "{err}");
    let err = Tafl::parse_position("dim:7 kj:r start:/7/7/7/3K3/7/7/7/").unwrap_err();
    assert!(err.to_string().contains("kj"), "{err}");
    let err = Tafl::parse_position("dim:7 start:/7/7/7/3K3/3N3/7/7/").unwrap_err();
    assert!(err.to_string().contains('N'), "{err}");
}
