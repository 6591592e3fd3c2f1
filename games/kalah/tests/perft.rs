//! Kalah perft against an independent, deliberately naive move generator written here: rows as
//! `Vec`s, sowing by walking an explicit list of the holes the mover may drop seeds into.
//!
//! Key invariant: no number in this file comes from the code under test; the reference counts
//! and the reference children are computed by the naive generator, and the two must agree move
//! for move (children compared as position text) as well as in total.

use std::collections::BTreeSet;

use plies::harness::random_playout_positions;
use plies::harness::{PerftConvention, perft};
use plies::{Game, Notation};
use plies_kalah::{CaptureRule, Kalah};

/// A hole seeds can be dropped into: a pit of one side, or a store.
#[derive(Copy, Clone, PartialEq)]
enum Hole {
    Pit(usize, usize),
    Store(usize),
}

/// The naive position: `rows[side][pit]`, `stores[side]`, side 0 = south.
#[derive(Clone)]
struct Naive {
    rows: [Vec<u32>; 2],
    stores: [u32; 2],
    mover: usize,
    /// The "empty capture" variant: a last seed in an own empty pit is taken to the store even
    /// when the facing pit is empty.
    empty_capture: bool,
}

impl Naive {
    fn from_text(text: &str) -> Naive {
        let words: Vec<&str> = text.split(' ').collect();
        let row = |w: &str| -> (Vec<u32>, u32) {
            let (pits, store) = w.split_once('|').unwrap();
            (
                pits.split(',').map(|p| p.parse().unwrap()).collect(),
                store.parse().unwrap(),
            )
        };
        let (south, s) = row(words[0]);
        let (north, n) = row(words[1]);
        Naive {
            rows: [south, north],
            stores: [s, n],
            mover: usize::from(words[2] == "n"),
            empty_capture: words.get(3) == Some(&"empty-capture"),
        }
    }

    fn text(&self) -> String {
        let row = |side: usize| {
            let pits: Vec<String> = self.rows[side].iter().map(u32::to_string).collect();
            format!("{}|{}", pits.join(","), self.stores[side])
        };
        let side = if self.mover == 0 { "s" } else { "n" };
        let rules = if self.empty_capture {
            " empty-capture"
        } else {
            ""
        };
        format!("{} {} {side}{rules}", row(0), row(1))
    }

    fn over(&self) -> bool {
        self.rows[self.mover].iter().all(|&s| s == 0)
    }

    /// The holes the mover sows into, as a cycle: its pits, its store, the opponent's pits.
    fn cycle(&self) -> Vec<Hole> {
        let me = self.mover;
        let you = 1 - me;
        let n = self.rows[0].len();
        let mut holes: Vec<Hole> = (0..n).map(|p| Hole::Pit(me, p)).collect();
        holes.push(Hole::Store(me));
        holes.extend((0..n).map(|p| Hole::Pit(you, p)));
        holes
    }

    fn children(&self) -> Vec<Naive> {
        if self.over() {
            return Vec::new();
        }
        let me = self.mover;
        let you = 1 - me;
        let n = self.rows[0].len();
        let cycle = self.cycle();
        let mut result = Vec::new();
        for pit in 0..n {
            let seeds = self.rows[me][pit];
            if seeds == 0 {
                continue;
            }
            let mut next = self.clone();
            next.rows[me][pit] = 0;
            let mut at = pit;
            let mut last = Hole::Pit(me, pit);
            for _ in 0..seeds {
                at = (at + 1) % cycle.len();
                last = cycle[at];
                match last {
                    Hole::Pit(side, p) => next.rows[side][p] += 1,
                    Hole::Store(side) => next.stores[side] += 1,
                }
            }
            match last {
                Hole::Store(_) => {} // extra turn: the mover stays
                Hole::Pit(side, p) => {
                    // My pit p faces the opponent's pit n-1-p.
                    let facing = n - 1 - p;
                    let takes = next.rows[you][facing] > 0 || self.empty_capture;
                    if side == me && next.rows[me][p] == 1 && takes {
                        next.stores[me] += 1 + next.rows[you][facing];
                        next.rows[me][p] = 0;
                        next.rows[you][facing] = 0;
                    }
                    next.mover = you;
                }
            }
            if next.over() {
                for side in 0..2 {
                    let rest: u32 = next.rows[side].iter().sum();
                    next.stores[side] += rest;
                    next.rows[side].iter_mut().for_each(|s| *s = 0);
                }
            }
            result.push(next);
        }
        result
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.children().iter().map(|c| c.perft(depth - 1)).sum()
    }
}

/// Leaves exactly `depth` plies deep, by the library's generic perft through the `Game` trait
/// (chess-like convention: a finished game ends its branch without counting).
fn game_perft(state: &Kalah, depth: u32) -> u64 {
    perft(state, depth, PerftConvention::Stop)
}

/// The children as text, through the trait and through the naive generator, must be equal
/// sets, down to `depth` plies.
fn same_children(state: &Kalah, depth: u32) {
    if depth == 0 {
        return;
    }
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    let ours: BTreeSet<String> = moves
        .iter()
        .map(|&m| state.play(m).format_position())
        .collect();
    let naive = Naive::from_text(&state.format_position());
    let theirs: BTreeSet<String> = naive.children().iter().map(Naive::text).collect();
    assert_eq!(ours, theirs, "children of {}", state.format_position());
    for &mv in &moves {
        same_children(&state.play(mv), depth - 1);
    }
}

#[test]
fn start_positions_match_the_naive_generator() {
    for (pits, seeds, depth) in [(6, 4, 6), (6, 3, 5), (4, 3, 6), (3, 2, 7), (1, 1, 3)] {
        let start = Kalah::new(pits, seeds).unwrap();
        let naive = Naive::from_text(&start.format_position());
        for d in 1..=depth {
            let expected = naive.perft(d);
            assert_eq!(
                game_perft(&start, d),
                expected,
                "Kalah({pits},{seeds}) depth {d}"
            );
        }
        same_children(&start, 3);
    }
}

#[test]
fn the_empty_capture_variant_matches_the_naive_generator() {
    // Whether the rule changed some count (else this would test nothing).
    let mut differs = false;
    for (pits, seeds, depth) in [(6, 4, 6), (6, 5, 5), (4, 3, 6), (3, 2, 7)] {
        let start = Kalah::new(pits, seeds)
            .unwrap()
            .with_capture(CaptureRule::Empty);
        let text = start.format_position();
        assert!(text.ends_with(" empty-capture"), "{text}");
        let naive = Naive::from_text(&text);
        assert!(naive.empty_capture);
        let plain = Naive::from_text(&Kalah::new(pits, seeds).unwrap().format_position());
        for d in 1..=depth {
            let expected = naive.perft(d);
            assert_eq!(
                game_perft(&start, d),
                expected,
                "Kalah({pits},{seeds}) empty capture, depth {d}"
            );
            differs |= expected != plain.perft(d);
        }
        same_children(&start, 3);
    }
    assert!(differs, "the rules never differ");
    for position in random_playout_positions(
        &Kalah::start_position().with_capture(CaptureRule::Empty),
        23,
        40,
        40,
    ) {
        let naive = Naive::from_text(&position.format_position());
        for d in 1..=4 {
            assert_eq!(
                game_perft(&position, d),
                naive.perft(d),
                "{} depth {d}",
                position.format_position()
            );
        }
        same_children(&position, 2);
    }
}

#[test]
fn random_positions_match_the_naive_generator() {
    let start = Kalah::start_position();
    for position in random_playout_positions(&start, 17, 40, 40) {
        let naive = Naive::from_text(&position.format_position());
        for d in 1..=4 {
            assert_eq!(
                game_perft(&position, d),
                naive.perft(d),
                "{} depth {d}",
                position.format_position()
            );
        }
        same_children(&position, 2);
    }
}

#[test]
fn the_naive_generator_knows_the_opening() {
    // Hand-checked: from the start every pit has 4 seeds, so all 6 moves are legal, and only
    // pit c (4 seeds: d, e, f, store) ends in the store and gives an extra turn.
    let naive = Naive::from_text("4,4,4,4,4,4|0 4,4,4,4,4,4|0 s");
    let children = naive.children();
    assert_eq!(children.len(), 6);
    assert_eq!(children.iter().filter(|c| c.mover == 0).count(), 1);
    assert_eq!(children[2].text(), "4,4,0,5,5,5|1 4,4,4,4,4,4|0 s");
}
