//! Unit tests of `view` in `plies-tafl`: the invariants of `plies_view::check_view` along
//! random games of every built-in variant (7x7 to 19x19) and a fortress variant, click paths
//! that spell each move, the pictures of start positions against the variants' rules, and the
//! variants offered to a picker (their positions, names and descriptions).
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use std::collections::HashSet;

use plies::harness::{random_playout_positions, random_playout_positions_with_finished};
use plies::{Game, Notation, Side};
use plies_view::{Picture, View, check_variants, check_view, move_of_clicks};

use crate::board::{Piece, parse_square};
use crate::describe::{full_rules, summary};
use crate::state::Tafl;
use crate::variants::{VARIANTS, from_rules, start_of};

/// A variant with attacker and defender fortress squares and edge escape.
const FORTRESS_RULES: &str = "dim:11 ks:c esc:e afor:b2,j10 dfor:c3,i9 cor: start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

/// The start of every built-in variant and of the fortress variant.
fn starts() -> Vec<Tafl> {
    let mut starts: Vec<Tafl> = VARIANTS.iter().map(|v| start_of(v.name).unwrap()).collect();
    starts.push(from_rules(FORTRESS_RULES).unwrap());
    starts
}

/// Positions of random games from every start, finished ones included.
fn positions() -> Vec<Tafl> {
    let mut out = Vec::new();
    for (seed, start) in starts().iter().enumerate() {
        let seed = seed as u64;
        out.extend(random_playout_positions(start, seed, 30, 150));
        out.extend(random_playout_positions_with_finished(
            start,
            seed + 100,
            10,
            400,
        ));
    }
    out
}

/// The picture of the view (`Tafl::picture` is the text picture of `Notation`).
fn draw(state: &Tafl) -> Picture {
    View::picture(state)
}

fn kind<'a>(picture: &'a Picture, id: &str) -> &'a str {
    let cell = picture.cells.iter().find(|c| c.id == id);
    &cell.unwrap_or_else(|| panic!("no cell {id}")).kind
}

fn kinds_of(picture: &Picture, wanted: &str) -> HashSet<String> {
    let cells = picture.cells.iter().filter(|c| c.kind == wanted);
    cells.map(|c| c.id.clone()).collect()
}

fn set(ids: &[&str]) -> HashSet<String> {
    ids.iter().map(|s| s.to_string()).collect()
}

#[test]
fn random_positions_of_every_variant_pass_the_view_check() {
    let positions = positions();
    assert!(positions.len() > 350);
    let dims: HashSet<usize> = positions.iter().map(|p| p.rules().dim).collect();
    assert_eq!(dims, HashSet::from([7, 9, 11, 19]));
    assert_eq!(check_view(&positions), Ok(positions.len()));
}

#[test]
fn click_paths_spell_the_move_and_lead_to_it() {
    let mut count = 0;
    for state in positions() {
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        for mv in moves {
            let path = state.clicks(mv);
            assert_eq!(move_of_clicks(&state, &path).unwrap(), mv);
            let [from, to] = &path[..] else {
                panic!("two clicks, not {path:?}");
            };
            assert_eq!(state.parse_move(&format!("{from}-{to}")), Ok(mv));
            count += 1;
        }
    }
    assert!(count > 10_000, "{count} moves");
}

#[test]
fn pieces_are_the_board() {
    for state in positions() {
        let picture = draw(&state);
        let dim = state.rules().dim;
        assert_eq!(picture.cells.len(), dim * dim);
        let total = state.piece_count(Side::First) + state.piece_count(Side::Second);
        assert_eq!(picture.pieces.len(), total);
        for piece in &picture.pieces {
            let sq = parse_square(&piece.cell, dim).unwrap();
            let expected = match state.board().get(sq) {
                Piece::Attacker => (Side::First, "attacker"),
                Piece::Defender => (Side::Second, "defender"),
                Piece::King => (Side::Second, "king"),
                Piece::Empty => panic!("a piece drawn on the empty {}", piece.cell),
            };
            assert_eq!((piece.side, piece.kind.as_str()), expected);
        }
    }
}

#[test]
fn copenhagen_start_is_eleven_squares_with_throne_corners_and_37_pieces() {
    let start = Tafl::start_position();
    let picture = draw(&start);
    assert_eq!(picture.cells.len(), 121);
    assert_eq!(kind(&picture, "f6"), "throne");
    assert_eq!(kinds_of(&picture, "throne"), set(&["f6"]));
    assert_eq!(
        kinds_of(&picture, "corner"),
        set(&["a1", "a11", "k1", "k11"])
    );
    assert!(kinds_of(&picture, "fortress").is_empty());
    assert_eq!(kind(&picture, "a2"), "light");
    let at = |id: &str| {
        let cell = picture.cells.iter().find(|c| c.id == id).unwrap();
        (cell.x, cell.y)
    };
    // Rank 1 at the bottom, file a at the left, every cell inside the drawing.
    assert!(at("a1").1 > at("a11").1 && at("a1").0 < at("k1").0);
    for cell in &picture.cells {
        assert!(cell.x - 0.5 >= 0.0 && cell.x + 0.5 <= picture.width);
        assert!(cell.y - 0.5 >= 0.0 && cell.y + 0.5 <= picture.height);
    }
    assert_eq!(picture.pieces.len(), 37);
    let count = |kind: &str, side: Side| {
        let pieces = picture.pieces.iter();
        pieces.filter(|p| p.kind == kind && p.side == side).count()
    };
    assert_eq!(count("attacker", Side::First), 24);
    assert_eq!(count("defender", Side::Second), 12);
    assert_eq!(count("king", Side::Second), 1);
    let king = picture.pieces.iter().find(|p| p.kind == "king").unwrap();
    assert_eq!(king.cell, "f6");
    // The rules document's attackers: d1..h1 and f2 on the south edge.
    for id in ["d1", "e1", "f1", "g1", "h1", "f2"] {
        assert!(
            picture
                .pieces
                .iter()
                .any(|p| p.cell == id && p.kind == "attacker")
        );
    }
    let labels: HashSet<&str> = picture.labels.iter().map(|l| l.text.as_str()).collect();
    let expected = [
        "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "1", "2", "3", "4", "5", "6", "7",
        "8", "9", "10", "11",
    ];
    assert_eq!(labels, expected.into_iter().collect());
    let titles: Vec<&str> = picture.panels.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Copenhagen (11x11): the king escapes on a corner",
            "Attackers: 24",
            "Defenders: 13"
        ]
    );
}

#[test]
fn other_sizes_and_special_squares() {
    let brandub = draw(&start_of("brandub").unwrap());
    assert_eq!(brandub.cells.len(), 49);
    assert_eq!(kinds_of(&brandub, "throne"), set(&["d4"]));
    assert_eq!(kinds_of(&brandub, "corner"), set(&["a1", "a7", "g1", "g7"]));
    assert_eq!(brandub.pieces.len(), 13);
    // Tablut (`cor:` empty): a throne and no corner; edge escape.
    let tablut = draw(&start_of("tablut").unwrap());
    assert_eq!(tablut.cells.len(), 81);
    assert_eq!(kinds_of(&tablut, "throne"), set(&["e5"]));
    assert!(kinds_of(&tablut, "corner").is_empty());
    assert!(tablut.panels[0].title.ends_with("any edge square"));
    // Sea battle (`cor:` and `cen:` empty): plain squares only.
    let sea = draw(&start_of("sea_battle").unwrap());
    assert!(sea.cells.iter().all(|c| c.kind == "light"));
    // Alea Evangelii: 19x19, sixteen corner squares, files a..s.
    let alea = draw(&start_of("alea_evangelii").unwrap());
    assert_eq!(alea.cells.len(), 361);
    assert_eq!((alea.width, alea.height), (20.6, 20.6));
    let corners = [
        "a1", "a2", "b1", "b2", "a18", "b18", "a19", "b19", "r1", "r2", "s1", "s2", "r18", "r19",
        "s18", "s19",
    ];
    assert_eq!(kinds_of(&alea, "corner"), set(&corners));
    assert_eq!(kinds_of(&alea, "throne"), set(&["j10"]));
    assert!(alea.labels.iter().any(|l| l.text == "s"));
    assert!(alea.labels.iter().any(|l| l.text == "19"));
    // Fortress squares of either side.
    let fortress = draw(&from_rules(FORTRESS_RULES).unwrap());
    assert_eq!(
        kinds_of(&fortress, "fortress"),
        set(&["b2", "j10", "c3", "i9"])
    );
    assert!(kinds_of(&fortress, "corner").is_empty());
}

#[test]
fn every_built_in_variant_is_offered_and_its_position_is_its_start() {
    assert_eq!(check_variants::<Tafl>(), Ok(VARIANTS.len()));
    let variants = Tafl::variants();
    let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Copenhagen",
            "Brandub",
            "Brandubh Federation",
            "Tablut",
            "Copenhagen Official",
            "Fetlar",
            "Sea Battle",
            "Tawlbwrdd",
            "Alea Evangelii",
        ]
    );
    assert_eq!(
        variants[0].position,
        Tafl::start_position().format_position()
    );
    for built_in in VARIANTS {
        let start = start_of(built_in.name).unwrap();
        let offered = variants
            .iter()
            .find(|v| v.name.replace(' ', "_").eq_ignore_ascii_case(built_in.name))
            .unwrap_or_else(|| panic!("{} is not offered", built_in.name));
        let read = Tafl::parse_position(&offered.position).unwrap();
        assert_eq!(read.rules(), start.rules(), "{}", built_in.name);
        let board = |t: &Tafl| t.board().to_otn(t.rules().dim);
        assert_eq!(board(&read), board(&start), "{}", built_in.name);
        assert_eq!(
            read.side_to_move(),
            start.side_to_move(),
            "{}",
            built_in.name
        );
        assert_eq!(read.hash(), start.hash(), "{}", built_in.name);
        assert_eq!(read.outcome(), None);
        assert_eq!(read.variant_of().as_deref(), Some(offered.name.as_str()));
    }
}

#[test]
fn a_position_is_of_the_variant_whose_rules_it_carries() {
    for start in starts() {
        let name = start.variant_of();
        let games = random_playout_positions_with_finished(&start, 7, 3, 200);
        for state in games {
            assert_eq!(state.variant_of(), name, "{}", state.format_position());
            let written = Tafl::parse_position(&state.format_position()).unwrap();
            assert_eq!(written.variant_of(), name);
        }
    }
    // A written position by its variant's name, another board and side.
    let brandub = Tafl::parse_position("brandub /7/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ d").unwrap();
    assert_eq!(brandub.variant_of().as_deref(), Some("Brandub"));
    // Custom rules, and a built-in's rules with one rule changed, are of no variant.
    assert_eq!(from_rules(FORTRESS_RULES).unwrap().variant_of(), None);
    let changed = VARIANTS[0].rules.replace("ks:w", "ks:s");
    assert_eq!(from_rules(&changed).unwrap().variant_of(), None);
}

#[test]
fn descriptions_are_one_line_distinct_and_from_the_rules() {
    let variants = Tafl::variants();
    let descriptions: HashSet<&str> = variants.iter().map(|v| v.description.as_str()).collect();
    assert_eq!(descriptions.len(), variants.len());
    let of = |name: &str| {
        let variant = variants.iter().find(|v| v.name == name).unwrap();
        assert!(!variant.description.contains('\n'));
        assert!(variant.rules.lines().count() >= 10, "{}", variant.rules);
        (variant.description.as_str(), variant.rules.as_str())
    };
    let (copenhagen, rules) = of("Copenhagen");
    assert_eq!(
        copenhagen,
        "11x11, 24 attackers v 12 defenders and a king; king escapes to a corner, armed, \
         captured on 4 sides; shieldwalls (corners close them), edge forts, repetition loses \
         for its maker"
    );
    assert!(rules.contains("Throne (f6): Only the king may stop on the throne"));
    assert!(rules.contains("Corners (a1, k1, a11, k11): "));
    assert!(rules.contains("\nShieldwall: "));
    assert!(rules.ends_with("The side that repeats a position the third time loses."));
    let (official, rules) = of("Copenhagen Official");
    assert!(official.ends_with("repetition loses for the defenders"));
    assert!(rules.ends_with("loses for the defenders, whoever repeats it."));
    let (brandub, rules) = of("Brandub");
    assert!(brandub.starts_with("7x7, 8 attackers v 4 defenders and a king;"));
    assert!(brandub.contains("captured on 2 sides; no win by encirclement"));
    assert!(rules.contains("It is hostile to no piece."));
    let (federation, _) = of("Brandubh Federation");
    assert!(federation.contains("captured on 4 sides on or beside the throne, else on 2"));
    let (tablut, rules) = of("Tablut");
    assert!(tablut.contains("king escapes to the edge") && tablut.contains("Linnaean capture"));
    assert!(rules.contains("Corners: none.") && rules.contains("No piece may stop on the throne"));
    let (sea, _) = of("Sea Battle");
    assert!(sea.contains("unarmed") && sea.contains("no throne"));
    let (alea, _) = of("Alea Evangelii");
    assert!(alea.starts_with("19x19, 48 attackers v 24 defenders and a king"));
    assert!(alea.contains("one of 16 corner squares"));
    // Rules outside the built-ins are described too.
    let fortress = from_rules(FORTRESS_RULES).unwrap();
    assert!(summary(&fortress).contains("fortress squares"));
    let rules = full_rules(&fortress);
    assert!(rules.starts_with("Tafl: board 11x11"));
    assert!(rules.contains("Attacker fortresses (b2, j10): Every piece may stop on one"));
    assert!(rules.contains("Defender fortresses (c3, i9): Defenders and the king may stop"));
    let slow = from_rules("dim:7 atkf:n spd:1,2, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap();
    let line = summary(&slow);
    assert!(line.contains("defenders move first"), "{line}");
    assert!(line.contains("attackers move at most 1 square, defenders move at most 2 squares"));
}

/// The special squares carry tafl's own colours (those the page used to know by name); plain
/// squares keep the page's.
#[test]
fn special_squares_have_tafl_colours() {
    for start in starts() {
        let picture = draw(&start);
        let colours: Vec<(&str, String)> = picture
            .cell_colours
            .iter()
            .map(|(kind, colour)| (kind.as_str(), colour.to_string()))
            .collect();
        assert_eq!(
            colours,
            [
                ("corner", "#8d6e63".to_string()),
                ("fortress", "#a1887f".to_string()),
                ("throne", "#c9a227".to_string()),
            ]
        );
        for cell in &picture.cells {
            let coloured = picture.cell_colours.contains_key(&cell.kind);
            assert_eq!(coloured, cell.kind != "light", "{}", cell.id);
        }
    }
}
