//! `classify`, `generate_noisy_moves` and `generate_quiet_moves` (which avoid playing most
//! moves) against the plain definition, by playing every move: a move is a win when the game
//! ends at once in the mover's favour, a capture when the opponent loses a piece, else quiet.
//! Positions: every position of the real Copenhagen records (edge forts, shieldwalls and
//! endgames included) and random games of every built-in variant.
//!
//! Key invariant: the reference classes come from `play` and piece counts only.

use plies::harness::random_game;
use plies::rng::SplitMix64;
use plies::{Game, MoveClass, Notation, Outcome};
use plies_tafl::{Tafl, VARIANTS, from_rules, start_of};

const DATA: &str = include_str!("data/copenhagen.csv");

fn reference(state: &Tafl, mv: <Tafl as Game>::Move) -> MoveClass {
    let side = state.side_to_move();
    let next = state.play(mv);
    if next.outcome() == Some(Outcome::Win(side)) {
        MoveClass::Win
    } else if next.piece_count(side.opponent()) < state.piece_count(side.opponent()) {
        MoveClass::Capture
    } else {
        MoveClass::Quiet
    }
}

/// Checks one position; returns the number of moves checked.
fn check(state: &Tafl) -> usize {
    let mut all = Vec::new();
    state.generate_moves(&mut all);
    let mut noisy = Vec::new();
    state.generate_noisy_moves(&mut noisy);
    let mut quiet = Vec::new();
    state.generate_quiet_moves(&mut quiet);
    for &mv in &all {
        let want = reference(state, mv);
        let text = state.format_move(mv);
        assert_eq!(state.classify(mv), want, "{text} in {}", state.to_text());
        assert_eq!(
            noisy.contains(&mv),
            want.is_noisy(),
            "{text} noisy in {}",
            state.to_text()
        );
        assert_eq!(
            quiet.contains(&mv),
            !want.is_noisy(),
            "{text} quiet in {}",
            state.to_text()
        );
        assert_eq!(state.move_from_index(state.move_index(mv)), Some(mv));
    }
    assert_eq!(noisy.len() + quiet.len(), all.len());
    all.len()
}

#[test]
fn classes_match_play_on_the_copenhagen_records() {
    let stride = if cfg!(debug_assertions) { 97 } else { 1 };
    let mut checked = 0;
    for line in DATA.lines().skip(1).step_by(stride) {
        let moves = line.split(',').next().unwrap();
        let mut state = start_of("copenhagen").unwrap();
        for token in moves.split_whitespace() {
            if token == "timeout" || state.outcome().is_some() {
                break;
            }
            checked += check(&state);
            let simple: String = token.split('x').next().unwrap().to_string();
            state = state.play(state.parse_move(&simple).unwrap());
        }
    }
    println!("{checked} moves checked");
    assert!(checked > 1000);
}

#[test]
fn classes_match_play_in_random_games() {
    let games = if cfg!(debug_assertions) { 1 } else { 40 };
    let mut rng = SplitMix64::new(77);
    let mut checked = 0;
    for v in VARIANTS {
        let start = from_rules(v.rules).unwrap();
        for _ in 0..games {
            for state in random_game(&start, &mut rng, 300) {
                checked += check(&state);
            }
        }
    }
    println!("{checked} moves checked");
}

#[test]
fn classes_match_play_under_the_added_rules() {
    const LAYOUT: &str = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
    let rules = [
        "dim:11 ks:m sw:s swf:n efe:y",
        "dim:11 ks:m sw:w swf:n spd:3 afor:b2,j10 dfor:c3,i9 surf:y",
        "dim:11 ks:c esc:e spd:2,-1, dfor:e5,g7 dfors:K linc:y",
    ];
    let games = if cfg!(debug_assertions) { 1 } else { 40 };
    let mut rng = SplitMix64::new(78);
    let mut checked = 0;
    for r in rules {
        let start = from_rules(&format!("{r} start:{LAYOUT}")).unwrap();
        for _ in 0..games {
            for state in random_game(&start, &mut rng, 300) {
                checked += check(&state);
            }
        }
    }
    println!("{checked} moves checked");
}
