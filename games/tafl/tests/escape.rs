//! The hooks quiescence uses in escape races, against their plain definitions by playing every
//! move: `is_threatened` (attackers to move, the king could escape with one move),
//! `generate_evasions` (every attacker move it leaves out lets the king escape at once) and
//! `generate_threat_moves` (exactly the king's quiet moves after which he could escape).
//! Positions: the real Copenhagen records and random games of every built-in variant.
//!
//! Key invariant: the reference comes from move generation, `play`, outcomes and the rules'
//! escape squares only, never from the escape code under test.

use plies::harness::random_game;
use plies::rng::SplitMix64;
use plies::{Game, Outcome, Side};
use plies_tafl::{Tafl, VARIANTS, from_rules, start_of};

const DATA: &str = include_str!("data/copenhagen.csv");

/// Could the king, were the defenders to move on this board, win by moving to an escape square?
fn could_escape(state: &Tafl) -> bool {
    let Some(king) = state.board().king() else {
        return false;
    };
    let rules = state.rules();
    let free = Tafl::new(rules, *state.board(), Side::Second);
    if free.outcome().is_some() {
        return false;
    }
    let mut moves = Vec::new();
    free.generate_moves(&mut moves);
    moves.iter().any(|&mv| {
        let to = usize::from(mv.to);
        let escape = if rules.edge_escape {
            rules.is_edge(to)
        } else {
            rules.is_corner(to)
        };
        usize::from(mv.from) == king
            && escape
            && free.play(mv).outcome() == Some(Outcome::Win(Side::Second))
    })
}

/// Counts of what one position checked: (threatened positions, threat moves).
fn check(state: &Tafl) -> (usize, usize) {
    let text = format!("{state:?}");
    let mut all = Vec::new();
    state.generate_moves(&mut all);
    let threatened =
        state.outcome().is_none() && state.side_to_move() == Side::First && could_escape(state);
    assert_eq!(state.is_threatened(), threatened, "{text}");
    let mut evasions = Vec::new();
    assert_eq!(state.generate_evasions(&mut evasions), threatened, "{text}");
    if threatened {
        for (i, mv) in evasions.iter().enumerate() {
            assert!(all.contains(mv), "{mv:?} is not legal in {text}");
            assert!(!evasions[..i].contains(mv), "{mv:?} twice in {text}");
        }
        for &mv in all.iter().filter(|mv| !evasions.contains(mv)) {
            let child = state.play(mv);
            assert!(
                child.outcome().is_none() && could_escape(&child),
                "{mv:?} left out but the king cannot escape after it in {text}"
            );
        }
    } else {
        assert!(evasions.is_empty(), "{text}");
    }
    let mut threats = Vec::new();
    state.generate_threat_moves(&mut threats);
    let mut want = Vec::new();
    if state.side_to_move() == Side::Second
        && let Some(king) = state.board().king()
    {
        for &mv in all.iter().filter(|mv| usize::from(mv.from) == king) {
            let child = state.play(mv);
            let quiet = child.outcome().is_none()
                && child.piece_count(Side::First) == state.piece_count(Side::First);
            if quiet && could_escape(&child) {
                want.push(mv);
            }
        }
    }
    threats.sort_by_key(|mv| (mv.from, mv.to));
    want.sort_by_key(|mv| (mv.from, mv.to));
    assert_eq!(threats, want, "threat moves in {text}");
    (usize::from(threatened), threats.len())
}

#[test]
fn escape_hooks_match_play_on_the_copenhagen_records() {
    let stride = if cfg!(debug_assertions) { 97 } else { 3 };
    let (mut threatened, mut threats) = (0, 0);
    for line in DATA.lines().skip(1).step_by(stride) {
        let moves = line.split(',').next().unwrap();
        let mut state = start_of("copenhagen").unwrap();
        for token in moves.split_whitespace() {
            if token == "timeout" || state.outcome().is_some() {
                break;
            }
            let (t, m) = check(&state);
            threatened += t;
            threats += m;
            let simple: String = token.split('x').next().unwrap().to_string();
            state = state.play(plies::Notation::parse_move(&state, &simple).unwrap());
        }
    }
    println!("{threatened} threatened positions, {threats} threat moves");
    if !cfg!(debug_assertions) {
        assert!(threatened > 100 && threats > 100, "{threatened} {threats}");
    }
}

#[test]
fn escape_hooks_match_play_in_random_games() {
    let games = if cfg!(debug_assertions) { 1 } else { 20 };
    let mut rng = SplitMix64::new(91);
    let (mut threatened, mut threats) = (0, 0);
    for v in VARIANTS {
        let start = from_rules(v.rules).unwrap();
        for _ in 0..games {
            for state in random_game(&start, &mut rng, 300) {
                let (t, m) = check(&state);
                threatened += t;
                threats += m;
            }
        }
    }
    println!("{threatened} threatened positions, {threats} threat moves");
    assert!(threatened > 0 && threats > 0);
}
