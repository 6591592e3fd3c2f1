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
    type Err = String;

    /// `leaf` or `stop`, any case.
    fn from_str(s: &str) -> Result<PerftConvention, String> {
        match s.to_ascii_lowercase().as_str() {
            "leaf" => Ok(PerftConvention::Leaf),
            "stop" => Ok(PerftConvention::Stop),
            _ => Err(format!(
                "'{s}': expected a perft convention 'leaf' or 'stop'"
            )),
        }
    }
}

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
            "convention" => convention = rest.parse().map_err(error)?,
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
mod tests {
    use super::*;
    use crate::game::Side;
    use crate::testing::TwoPiles;

    /// Independent brute force over the piles themselves (not through `Game`): a move takes 1–3
    /// from a pile; emptying both piles ends the game; extra turns do not change the count.
    fn brute(piles: [u8; 2], depth: u32, convention: PerftConvention, is_root: bool) -> u64 {
        let over = piles == [0, 0];
        if depth == 0 {
            return 1;
        }
        if over {
            return match convention {
                PerftConvention::Leaf if !is_root => 1,
                _ => 0,
            };
        }
        let mut total = 0;
        for p in 0..2 {
            for c in 1..=3u8 {
                if c <= piles[p] {
                    let mut next = piles;
                    next[p] -= c;
                    total += brute(next, depth - 1, convention, false);
                }
            }
        }
        total
    }

    #[test]
    fn matches_brute_force_in_both_conventions() {
        for a in 0..6u8 {
            for b in 0..5u8 {
                for depth in 0..7 {
                    for convention in [PerftConvention::Leaf, PerftConvention::Stop] {
                        let state = TwoPiles::new(a, b, Side::First);
                        assert_eq!(
                            perft(&state, depth, convention),
                            brute([a, b], depth, convention, true),
                            "piles ({a}, {b}) depth {depth} {convention}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn conventions_differ_when_games_end_early() {
        let state = TwoPiles::new(1, 1, Side::First);
        // Depth 3: both lines end after two plies, so stop counts nothing and leaf counts 2.
        assert_eq!(perft(&state, 3, PerftConvention::Stop), 0);
        assert_eq!(perft(&state, 3, PerftConvention::Leaf), 2);
    }

    #[test]
    fn divide_adds_up() {
        let state = TwoPiles::new(5, 4, Side::Second);
        for convention in [PerftConvention::Leaf, PerftConvention::Stop] {
            for depth in 1..6 {
                let parts = perft_divide(&state, depth, convention);
                assert_eq!(parts.len(), 6);
                let sum: u64 = parts.iter().map(|&(_, n)| n).sum();
                assert_eq!(sum, perft(&state, depth, convention));
            }
        }
    }

    #[test]
    fn convention_text() {
        for c in [PerftConvention::Leaf, PerftConvention::Stop] {
            assert_eq!(c.to_string().parse::<PerftConvention>(), Ok(c));
        }
        assert_eq!("LEAF".parse(), Ok(PerftConvention::Leaf));
        assert!(
            "leaves"
                .parse::<PerftConvention>()
                .unwrap_err()
                .contains("leaves")
        );
    }

    fn file_for(a: u8, b: u8, depths: &[u32], convention: PerftConvention) -> String {
        let mut text = format!("# generated\nconvention {convention}\nposition {a} {b} 1\n");
        for &d in depths {
            let n = brute([a, b], d, convention, true);
            text.push_str(&format!("perft {d} {n}\n"));
        }
        text
    }

    #[test]
    fn file_runner_passes_and_skips() {
        let mut text = file_for(4, 3, &[1, 2, 3, 4], PerftConvention::Leaf);
        text.push_str("\n\n");
        text.push_str(&file_for(2, 2, &[1, 2, 5], PerftConvention::Stop));
        let report = run_perft_file::<TwoPiles>(&text, u64::MAX).unwrap();
        assert_eq!(report.passed, 7);
        assert!(report.skipped.is_empty());
        let capped = run_perft_file::<TwoPiles>(&text, 40).unwrap();
        assert_eq!(capped.passed + capped.skipped.len(), 7);
        assert!(!capped.skipped.is_empty());
        assert!(capped.nodes < report.nodes);
    }

    #[test]
    fn file_runner_reports_mismatch_with_line() {
        let wrong = brute([3, 3], 2, PerftConvention::Stop, true) + 1;
        let text = format!("position 3 3 1\nperft 1 6\nperft 2 {wrong}\n");
        let err = run_perft_file::<TwoPiles>(&text, u64::MAX).unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.reason.contains(&format!("expected {wrong}")), "{err}");
        assert!(err.reason.contains("depth 2"), "{err}");
        assert!(err.to_string().contains("line 3"), "{err}");
    }

    #[test]
    fn file_runner_rejects_malformed_lines() {
        let cases = [
            ("perft 1 6", 1, "before any position"),
            ("position 3 3 9", 1, "'9'"),
            ("position 3 3 1\nperft x 6", 2, "'x'"),
            ("position 3 3 1\nperft 1", 2, "perft <depth> <nodes>"),
            ("position 3 3 1\nperft 1 many", 2, "'many'"),
            ("convention deep", 1, "'deep'"),
            ("# ok\nbogus 1", 2, "'bogus'"),
        ];
        for (text, line, needle) in cases {
            let err = run_perft_file::<TwoPiles>(text, u64::MAX).unwrap_err();
            assert_eq!(err.line, line, "{text}");
            assert!(err.to_string().contains(needle), "{text}: {err}");
        }
    }
}
