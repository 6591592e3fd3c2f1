//! Hus against the numbers of the rules document (`docs/rules/hus.md`): perft 1–5 from the start,
//! the three seeded random games (length, winner, first moves, final rows), and an independent
//! slow re-implementation of the sowing rules used to cross-check perft and to give perft 6.
//!
//! Key invariant: every expected number here comes from the rules document or from
//! [`slow_perft`], which shares no code with the crate.

use plies::harness::{PerftConvention, perft};
use plies::{Game, Notation, Outcome, Side};
use plies_hus::{Hus, random_game_moves};

/// Perft from the start, from the rules document.
const PERFT: [u64; 5] = [24, 576, 11_040, 207_443, 3_439_088];

#[test]
fn perft_from_the_start_matches_the_document() {
    let start = Hus::start();
    for (depth, &expected) in (1..=5).zip(PERFT.iter()) {
        assert_eq!(
            perft(&start, depth, PerftConvention::Leaf),
            expected,
            "depth {depth}"
        );
    }
}

fn parse_array(text: &str) -> Vec<u8> {
    text.split(',').map(|s| s.parse().unwrap()).collect()
}

fn check_game(seed: u64, plies: usize, first_moves: &str, finals: Option<(&str, &str)>) {
    let (moves, end) = random_game_moves(&Hus::start(), seed, 100_000);
    assert_eq!(moves.len(), plies, "seed {seed}: game length");
    assert_eq!(
        end.outcome(),
        Some(Outcome::Win(Side::Second)),
        "seed {seed}"
    );
    let expected: Vec<u8> = first_moves.split(' ').map(|m| m.parse().unwrap()).collect();
    let got: Vec<u8> = moves.iter().take(expected.len()).map(|m| m.0).collect();
    assert_eq!(got, expected, "seed {seed}: first moves");
    if let Some((p0, p1)) = finals {
        assert_eq!(
            end.rows()[0].to_vec(),
            parse_array(p0),
            "seed {seed}: final P0"
        );
        assert_eq!(
            end.rows()[1].to_vec(),
            parse_array(p1),
            "seed {seed}: final P1"
        );
    }
}

#[test]
fn seeded_random_game_1() {
    check_game(
        1,
        224,
        "14 9 18 10 15 6 6 19 5 4 3 12 21 24 9 7 20 2 21 21",
        Some((
            "0,0,0,0,0,1,1,1,0,0,0,0,0,1,1,1,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,0",
            "1,5,1,0,0,0,0,0,5,2,2,1,0,1,4,3,0,4,2,7,6,1,2,1,9,1,4,2,3,4,3,15",
        )),
    );
}

#[test]
fn seeded_random_game_2() {
    check_game(
        2,
        148,
        "4 18 8 2 7 14 0 18 14 19",
        Some((
            "0,0,0,0,1,1,1,0,0,0,0,0,1,1,0,0,0,0,0,0,0,0,1,0,1,0,0,0,0,0,0,0",
            "7,0,3,2,0,4,6,0,4,5,1,4,2,2,3,4,0,1,0,10,1,0,1,3,1,6,5,4,1,0,1,8",
        )),
    );
}

#[test]
fn seeded_random_game_3() {
    check_game(3, 176, "11 19 15 18 10 17 3 5 20 27", None);
}

/// A deliberately plain re-implementation: `Vec` rows, player index, round; no hashing.
#[derive(Clone)]
struct Slow {
    rows: [Vec<u32>; 2],
    player: usize,
    round: u32,
}

impl Slow {
    fn children(&self) -> Vec<Slow> {
        let mover = self.player;
        let other = 1 - mover;
        let mut out = Vec::new();
        if self.rows[mover].iter().all(|&s| s < 2) {
            return out;
        }
        for pit in 0..32 {
            if self.rows[mover][pit] < 2 {
                continue;
            }
            let mut next = self.clone();
            let mut hand = next.rows[mover][pit];
            next.rows[mover][pit] = 0;
            let mut at = pit;
            let mut laps = 0;
            let mut finite = true;
            loop {
                for _ in 0..hand {
                    at = (at + 1) % 32;
                    next.rows[mover][at] += 1;
                }
                if next.rows[mover][at] == 1 {
                    break;
                }
                let facing = 32 + 15 - at;
                if self.round > 0 && at >= 16 && next.rows[other][facing] > 0 {
                    hand = next.rows[other][facing] + next.rows[other][at - 16];
                    next.rows[other][facing] = 0;
                    next.rows[other][at - 16] = 0;
                } else {
                    hand = next.rows[mover][at];
                    next.rows[mover][at] = 0;
                }
                laps += 1;
                if laps > 200 {
                    finite = false;
                    break;
                }
            }
            if finite {
                if mover == 1 {
                    next.round += 1;
                }
                next.player = other;
                out.push(next);
            }
        }
        out
    }
}

fn slow_perft(state: &Slow, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let children = state.children();
    if children.is_empty() {
        return 1;
    }
    if depth == 1 {
        return children.len() as u64;
    }
    children.iter().map(|c| slow_perft(c, depth - 1)).sum()
}

fn slow_start() -> Slow {
    let row: Vec<u32> = (0..32).map(|i| if i < 24 { 2 } else { 0 }).collect();
    Slow {
        rows: [row.clone(), row],
        player: 0,
        round: 0,
    }
}

#[test]
fn slow_reference_agrees_with_the_document() {
    let start = slow_start();
    for (depth, &expected) in (1..=4).zip(PERFT.iter()) {
        assert_eq!(slow_perft(&start, depth), expected, "depth {depth}");
    }
}

/// Perft 6, asserted by the bench: run with `--ignored` to recompute it with the slow
/// reference (a few seconds in release).
#[test]
#[ignore = "slow; recomputes the perft(6) constant of benches/perft.rs"]
fn slow_reference_perft_6() {
    let nodes = slow_perft(&slow_start(), 6);
    println!("slow perft(6) = {nodes}");
    assert_eq!(nodes, perft(&Hus::start(), 6, PerftConvention::Leaf));
    assert_eq!(
        nodes,
        include!("../benches/perft6.txt"),
        "update benches/perft6.txt"
    );
}

#[test]
fn the_start_position_text_round_trips() {
    let start = Hus::start();
    let text = start.format_position();
    assert_eq!(Hus::parse_position(&text).unwrap(), start);
}
