//! Perft: counting the leaves of the full game tree to a fixed depth, for any [`Game`], and a
//! runner for perft data files.
//!
//! Two conventions differ only in how finished games inside the tree count:
//! - [`PerftConvention::Leaf`] (the Onitama community's): a move that ends the game is one leaf
//!   whatever depth remains, and is not expanded;
//! - [`PerftConvention::Stop`] (chess-like): only positions exactly `depth` plies deep count, so a
//!   game that ends earlier contributes nothing.
//!
//! At depth 0 both count the root (1). A finished root counts 0 at any depth ≥ 1 in both.
//!
//! Key invariant: no allocation per node. One move buffer per ply is allocated once per call and
//! reused; depth 1 is bulk-counted (the number of legal moves, without playing them).
//!
//! Data file format (one item per line, blank lines and lines starting with `#` ignored):
//! ```text
//! convention leaf            # optional; `leaf` or `stop`, applies to the entries after it
//! position <position text>   # in the game's own notation
//! perft <depth> <nodes>      # one or more, for the last position
//! ```
//! The default convention, before any `convention` line, is `stop`.

use std::fmt;
use std::str::FromStr;

use crate::game::Game;
use crate::notation::Notation;

/// How finished games inside the tree are counted (see the module docs).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum PerftConvention {
    /// A game-ending move is one leaf at any remaining depth and is not expanded.
    Leaf,
    /// Chess-like: only positions at exactly the requested depth count.
    #[default]
    Stop,
}

impl fmt::Display for PerftConvention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PerftConvention::Leaf => "leaf",
            PerftConvention::Stop => "stop",
        })
    }
}

impl FromStr for PerftConvention {
    type Err = ConventionError;

    /// `leaf` or `stop`, any case.
    fn from_str(s: &str) -> Result<PerftConvention, ConventionError> {
        match s.to_ascii_lowercase().as_str() {
            "leaf" => Ok(PerftConvention::Leaf),
            "stop" => Ok(PerftConvention::Stop),
            _ => Err(ConventionError {
                text: s.to_string(),
            }),
        }
    }
}

/// A text that names no [`PerftConvention`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ConventionError {
    /// The text given.
    pub text: String,
}

impl fmt::Display for ConventionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}': expected a perft convention 'leaf' or 'stop'",
            self.text
        )
    }
}

impl std::error::Error for ConventionError {}

/// Typical capacity of one ply's move buffer; buffers grow further if a game needs it.
const BUFFER_CAPACITY: usize = 64;

/// The number of leaves `depth` plies below `state` under `convention`.
pub fn perft<G: Game>(state: &G, depth: u32, convention: PerftConvention) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut buffers = new_buffers::<G>(depth);
    let (root, rest) = buffers.split_first_mut().expect("depth >= 1");
    state.generate_moves(root);
    if depth == 1 {
        return root.len() as u64;
    }
    let mut nodes = 0;
    for &mv in root.iter() {
        nodes += count(&state.play(mv), depth - 1, convention, rest);
    }
    nodes
}

/// Perft split by root move ("divide"): each legal root move with the leaves below it, in
/// generation order. The counts add up to [`perft`] at the same depth (for `depth >= 1`).
pub fn perft_divide<G: Game>(
    state: &G,
    depth: u32,
    convention: PerftConvention,
) -> Vec<(G::Move, u64)> {
    let mut root = Vec::new();
    state.generate_moves(&mut root);
    if depth == 0 {
        return Vec::new();
    }
    let mut buffers = new_buffers::<G>(depth - 1);
    root.into_iter()
        .map(|mv| {
            let nodes = if depth == 1 {
                1
            } else {
                count(&state.play(mv), depth - 1, convention, &mut buffers)
            };
            (mv, nodes)
        })
        .collect()
}

fn new_buffers<G: Game>(depth: u32) -> Vec<Vec<G::Move>> {
    (0..depth)
        .map(|_| Vec::with_capacity(BUFFER_CAPACITY))
        .collect()
}

/// Leaves below a non-root node reached by a move; `depth >= 1`, `buffers.len() >= depth`.
fn count<G: Game>(
    state: &G,
    depth: u32,
    convention: PerftConvention,
    buffers: &mut [Vec<G::Move>],
) -> u64 {
    let (moves, rest) = buffers
        .split_first_mut()
        .expect("one buffer per remaining ply");
    moves.clear();
    state.generate_moves(moves);
    if moves.is_empty() {
        // The move that led here ended the game.
        return match convention {
            PerftConvention::Leaf => 1,
            PerftConvention::Stop => 0,
        };
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &mv in moves.iter() {
        nodes += count(&state.play(mv), depth - 1, convention, rest);
    }
    nodes
}

/// What a perft data file run did.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PerftReport {
    /// Entries computed and matching the expected count.
    pub passed: usize,
    /// Entries not computed because they expect more nodes than the cap: `(line number, line)`.
    pub skipped: Vec<(usize, String)>,
    /// Total leaves counted over the passed entries.
    pub nodes: u64,
}

/// Why a perft data file run failed: the line at fault and what is wrong.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PerftError {
    /// 1-based line number in the file.
    pub line: usize,
    /// The line's text.
    pub content: String,
    /// What went wrong: a malformed line, or a count mismatch with the position and depth.
    pub reason: String,
}

impl fmt::Display for PerftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {} `{}`: {}", self.line, self.content, self.reason)
    }
}

impl std::error::Error for PerftError {}

/// Runs every entry of a perft data file (format in the module docs), skipping those that
/// expect more than `max_nodes` leaves. Fails on the first malformed line or wrong count.
pub fn run_perft_file<G: Notation>(text: &str, max_nodes: u64) -> Result<PerftReport, PerftError> {
    let mut report = PerftReport::default();
    let mut convention = PerftConvention::default();
    let mut position: Option<G> = None;
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let error = |reason: String| PerftError {
            line: index + 1,
            content: line.to_string(),
            reason,
        };
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (keyword, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(k, r)| (k, r.trim()));
        match keyword {
            "convention" => {
                convention = rest
                    .parse()
                    .map_err(|e: ConventionError| error(e.to_string()))?;
            }
            "position" => {
                let state =
                    G::parse_position(rest).map_err(|e| error(format!("bad position: {e}")))?;
                position = Some(state);
            }
            "perft" => {
                let state = position
                    .as_ref()
                    .ok_or_else(|| error("a perft line before any position line".into()))?;
                let words: Vec<&str> = rest.split_whitespace().collect();
                let [depth, expected] = words[..] else {
                    return Err(error("expected 'perft <depth> <nodes>'".into()));
                };
                let depth: u32 = depth
                    .parse()
                    .map_err(|_| error(format!("'{depth}': expected a depth (a number)")))?;
                let expected: u64 = expected
                    .parse()
                    .map_err(|_| error(format!("'{expected}': expected a node count")))?;
                if expected > max_nodes {
                    report.skipped.push((index + 1, line.to_string()));
                    continue;
                }
                let got = perft(state, depth, convention);
                if got != expected {
                    return Err(error(format!(
                        "expected {expected} nodes, got {got} (position '{}', depth {depth}, \
                         convention {convention})",
                        state.format_position()
                    )));
                }
                report.passed += 1;
                report.nodes += got;
            }
            other => {
                return Err(error(format!(
                    "'{other}': expected 'position', 'perft' or 'convention'"
                )));
            }
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests;
