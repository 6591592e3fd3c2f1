//! The board picture `play` draws: every square is found by its rank number and file letter
//! (the OTN square name), and the legend line names every symbol the picture uses and says
//! what it is, checked against the position and the rules of every built-in variant.

use plies::rng::SplitMix64;
use plies::{Game, Notation};
use plies_tafl::board::parse_square;
use plies_tafl::{Piece, Tafl, VARIANTS, from_rules};

/// The legend's entries: symbol -> its words (`t attacker` gives `('t', "attacker")`).
fn legend(line: &str) -> Vec<(char, String)> {
    let (entries, _) = line
        .split_once(';')
        .expect("the legend ends with the escape rule");
    entries
        .split("  ")
        .map(|entry| {
            let (symbol, words) = entry.split_once(' ').expect("symbol then words");
            assert_eq!(symbol.chars().count(), 1, "{entry:?}");
            (symbol.chars().next().unwrap(), words.to_string())
        })
        .collect()
}

/// Checks one picture against its position; returns the symbols it used.
fn check_picture(state: &Tafl) -> Vec<char> {
    let text = state.display_board();
    let dim = state.rules().dim;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), dim + 3, "{text}");
    let files: Vec<char> = lines[dim]
        .split_whitespace()
        .map(|f| f.chars().next().unwrap())
        .collect();
    assert_eq!(files.len(), dim, "{text}");
    let legend = legend(lines[dim + 1]);
    let meaning = |symbol: char| -> &str {
        &legend
            .iter()
            .find(|(s, _)| *s == symbol)
            .unwrap_or_else(|| panic!("{symbol:?} is not in the legend {:?}", lines[dim + 1]))
            .1
    };
    let mut used = Vec::new();
    for line in &lines[..dim] {
        let mut words = line.split_whitespace();
        let rank = words.next().unwrap();
        let symbols: Vec<char> = words.map(|w| w.chars().next().unwrap()).collect();
        assert_eq!(symbols.len(), dim, "{line:?}");
        for (&file, &symbol) in files.iter().zip(&symbols) {
            let name = format!("{file}{rank}");
            let sq = parse_square(&name, dim).unwrap_or_else(|| panic!("{name} in\n{text}"));
            let rules = state.rules();
            let words = meaning(symbol);
            match state.board().get(sq) {
                Piece::Attacker => assert_eq!(words, "attacker", "{name}"),
                Piece::Defender => assert_eq!(words, "defender", "{name}"),
                Piece::King => assert_eq!(words, "king", "{name}"),
                Piece::Empty => {
                    let corner = rules.is_corner(sq);
                    let throne = rules.is_throne(sq);
                    // One symbol may stand for corners and throne alike; it names both.
                    assert!(!corner || words.contains("corner"), "{name}: {words}");
                    assert!(!throne || words.contains("throne"), "{name}: {words}");
                    if !corner && !throne {
                        let fortress = rules.is_fortress(sq);
                        assert_eq!(words.contains("fortress"), fortress, "{name}: {words}");
                        assert_eq!(words == "empty", !fortress, "{name}: {words}");
                    }
                }
            }
            if !used.contains(&symbol) {
                used.push(symbol);
            }
        }
    }
    // The legend names only square kinds the variant has.
    let rules = state.rules();
    let names =
        |symbol: char, kind: &str| legend.iter().any(|(s, w)| *s == symbol && w.contains(kind));
    assert_eq!(names('+', "corner"), !rules.corners.is_empty(), "{text}");
    assert_eq!(names('+', "throne"), !rules.thrones.is_empty(), "{text}");
    let forts = !rules.attacker_forts.is_empty() || !rules.defender_forts.is_empty();
    assert_eq!(names('*', "fortress"), forts, "{text}");
    let escape = lines[dim + 1].split_once(';').unwrap().1;
    let edge = state.rules().edge_escape;
    assert_eq!(escape.contains("edge"), edge, "{escape}");
    assert_eq!(escape.contains("corner"), !edge, "{escape}");
    used
}

#[test]
fn every_square_and_symbol_of_every_variant_is_labelled() {
    let mut rng = SplitMix64::new(41);
    let mut moves = Vec::new();
    for variant in VARIANTS {
        let mut state = from_rules(variant.rules).unwrap();
        let mut used = Vec::new();
        for _ in 0..30 {
            for symbol in check_picture(&state) {
                if !used.contains(&symbol) {
                    used.push(symbol);
                }
            }
            moves.clear();
            state.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            state = state.play(moves[rng.below(moves.len())]);
        }
        for piece in ['t', 'T', 'K', '.'] {
            assert!(
                used.contains(&piece),
                "{}: {piece} never drawn",
                variant.name
            );
        }
    }
}

#[test]
fn fortress_squares_are_drawn_and_explained() {
    const LAYOUT: &str = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
    let start = from_rules(&format!(
        "dim:11 ks:c esc:e afor:b2,j10 dfor:c3,i9 cor: start:{LAYOUT}"
    ))
    .unwrap();
    let used = check_picture(&start);
    assert!(used.contains(&'*'), "{}", start.display_board());
    let text = start.display_board();
    assert!(
        !text.contains("corner (empty)") && text.contains("edge"),
        "{text}"
    );
    // Copenhagen has corners and a throne and no fortress.
    let copenhagen = Tafl::start_position().display_board();
    assert!(
        copenhagen.contains("+ corner or throne (empty)"),
        "{copenhagen}"
    );
    assert!(!copenhagen.contains('*'), "{copenhagen}");
}
