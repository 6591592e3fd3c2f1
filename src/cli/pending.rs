//! Temporary stand-ins for `plies::harness::perft` and `plies::search::searcher_by_name`, with
//! the same signatures, until those land on `main`; removed at the merge.
//!
//! Key invariant: nothing outside `cli` uses this module, so deleting it only touches imports.

use std::fmt;
use std::str::FromStr;

use crate::eval::Evaluator;
use crate::game::Game;
use crate::search::{Minimax, Searcher};

/// How perft counts finished games met before the last ply.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum PerftConvention {
    /// A game-ending move is one leaf at any remaining depth.
    Leaf,
    /// Finished positions count only at exactly the full depth.
    Stop,
}

impl FromStr for PerftConvention {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "leaf" => Ok(PerftConvention::Leaf),
            "stop" => Ok(PerftConvention::Stop),
            _ => Err(format!("'{text}': expected leaf or stop")),
        }
    }
}

impl fmt::Display for PerftConvention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PerftConvention::Leaf => "leaf",
            PerftConvention::Stop => "stop",
        })
    }
}

/// Leaf positions `depth` plies below `state`.
pub fn perft<G: Game>(state: &G, depth: u32, convention: PerftConvention) -> u64 {
    if depth == 0 {
        return 1;
    }
    if state.outcome().is_some() {
        return u64::from(convention == PerftConvention::Leaf);
    }
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| perft(&state.play(mv), depth - 1, convention))
        .sum()
}

/// A searcher by name; every name is plain minimax until the real searchers land.
pub fn searcher_by_name<G: Game>(
    name: &str,
    evaluator: Box<dyn Evaluator<G>>,
) -> Result<Box<dyn Searcher<G>>, String> {
    match name {
        "minimax" | "alphabeta" | "pvs" => Ok(Box::new(Minimax::new(evaluator))),
        _ => Err(format!("'{name}': expected minimax, alphabeta or pvs")),
    }
}
