//! `cargo run --example kalah -- [depth] [position]`: the tutorial game Kalah played engine
//! against engine from the start (or the given position) to the end, one line per move.
//!
//! Key invariant: the game itself lives in `game.rs`, written against the public traits only;
//! this file only drives a searcher.
#![forbid(unsafe_code)]

mod game;

use std::process::ExitCode;

use game::{Kalah, StoreDifference};
use plies::search::{Pvs, PvsConfig};
use plies::{Game, Notation, Outcome, SearchLimits, Searcher, Side};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth = match args.first().map(|a| a.parse::<u32>()) {
        None => 10,
        Some(Ok(depth)) if (1..=30).contains(&depth) => depth,
        Some(_) => {
            eprintln!("'{}': expected a search depth 1..=30", args[0]);
            return ExitCode::from(2);
        }
    };
    let mut state = if args.len() > 1 {
        match Kalah::parse_position(&args[1..].join(" ")) {
            Ok(state) => state,
            Err(e) => {
                eprintln!("bad position: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        Kalah::start_position()
    };
    println!("{}\n", state.display_board());
    let mut searcher = Pvs::new(StoreDifference::default(), PvsConfig::full());
    let limits = SearchLimits::depth(depth);
    let mut ply = 1;
    while state.outcome().is_none() {
        let result = searcher.search(&state, &limits);
        let Some(mv) = result.best_move else { break };
        let mover = if state.side_to_move() == Side::First {
            "south"
        } else {
            "north"
        };
        println!(
            "{ply:>3}. {mover} plays {}  (score {}, pv {}, {} nodes)",
            state.format_move(mv),
            result.score,
            state.format_line(&result.pv),
            result.stats.nodes
        );
        state = state.play(mv);
        ply += 1;
    }
    println!("\n{}\n{}", state.display_board(), state.format_position());
    let (south, north) = (state.store(Side::First), state.store(Side::Second));
    match state.outcome() {
        Some(Outcome::Win(Side::First)) => println!("south wins {south}-{north}"),
        Some(Outcome::Win(Side::Second)) => println!("north wins {north}-{south}"),
        Some(Outcome::Draw) => println!("draw {south}-{north}"),
        None => println!("unfinished"),
    }
    ExitCode::SUCCESS
}
