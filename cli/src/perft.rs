//! `perft`: counts the leaf positions of the move tree, optionally per root move (divide).
//!
//! Key invariant: with `--divide` the total printed is the sum of the per-move counts of
//! [`perft_divide`], which equals [`perft`] at the same depth.

use std::io::Write;
use std::time::Instant;

use serde_json::json;

use crate::error::CliError;
use crate::position::{PositionArgs, start_position};
use crate::text::rate;
use clap::Args;
use plies::Notation;
use plies::harness::{PerftConvention, perft, perft_divide};

/// The deepest `perft` accepted: far beyond what any game finishes in a day, and small enough
/// that a typo (`--depth 4000000000`) is an error rather than a run that never ends.
pub(crate) const MAX_PERFT_DEPTH: u32 = 64;
/// The `--convention` parser: one of the names [`PerftConvention`] parses, listed for clap.
fn convention() -> impl clap::builder::TypedValueParser<Value = PerftConvention> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["leaf", "stop"])
        .try_map(|name| name.parse::<PerftConvention>())
}

/// `perft`.
#[derive(Args, Debug)]
pub(crate) struct PerftArgs {
    #[command(flatten)]
    pub start: PositionArgs,
    /// Plies to count (at most 64).
    #[arg(long, short = 'd')]
    pub depth: u32,
    /// How finished games before the last ply count: `stop` (only positions at the full depth
    /// count, as in chess and in perft data files; the default) or `leaf` (a game-ending move
    /// is one leaf at any depth, the Onitama community's numbers).
    #[arg(long, default_value = "stop", ignore_case = true, value_parser = convention())]
    pub convention: PerftConvention,
    /// Also print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// End with one JSON line: depth, convention, nodes, seconds.
    #[arg(long)]
    pub json: bool,
}

/// Runs `perft`.
pub(super) fn run<G: Notation>(args: &PerftArgs, output: &mut dyn Write) -> Result<(), CliError> {
    let convention = args.convention;
    let state: G = start_position(&args.start)?;
    let depth = args.depth;
    if depth > MAX_PERFT_DEPTH {
        return Err(CliError::Invalid(format!(
            "bad --depth {depth}: perft counts at most {} plies",
            MAX_PERFT_DEPTH
        )));
    }
    let start = Instant::now();
    let nodes = if args.divide && depth > 0 {
        let mut total = 0;
        for (mv, count) in perft_divide(&state, depth, convention) {
            writeln!(output, "{:<16} {count}", state.format_move(mv))?;
            total += count;
        }
        total
    } else {
        perft(&state, depth, convention)
    };
    let seconds = start.elapsed().as_secs_f64();
    writeln!(output, "perft {depth} ({convention}): {nodes} nodes")?;
    writeln!(
        output,
        "time {seconds:.3} s, {:.0} nodes/s",
        rate(nodes, seconds)
    )?;
    if args.json {
        let line = json!({
            "depth": depth,
            "convention": convention.to_string(),
            "nodes": nodes,
            "seconds": seconds,
        });
        writeln!(output, "{line}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{last_json, run_invalid, run_ok, run_usage};

    /// Perft of TwoPiles counted by hand: from (2,1) the moves are a1, a2, b1; their
    /// children (1,1), (0,1), (2,0) have 2, 1 and 2 moves (no game ends before depth 2).
    #[test]
    fn counts_and_divides() {
        let out = run_ok("perft --position \"2 1 1\" --depth 2");
        assert!(out.contains("perft 2 (stop): 5 nodes"), "{out}");
        let out = run_ok("perft --position \"2 1 1\" --depth 2 --divide");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 5, "{out}");
        assert_eq!(lines[0].split_whitespace().collect::<Vec<_>>(), ["a1", "2"]);
        assert_eq!(lines[1].split_whitespace().collect::<Vec<_>>(), ["a2", "1"]);
        assert_eq!(lines[2].split_whitespace().collect::<Vec<_>>(), ["b1", "2"]);
        assert!(lines[3].contains("5 nodes"));
        assert!(lines[4].contains("nodes/s"));
    }

    /// From (1,1): a1 and b1 each leave (0,1)/(1,0) with one move that ends the game. At depth
    /// 3 the finished positions after two plies count once with `leaf`, not at all with `stop`,
    /// the default (that of `PerftConvention::default()` and of perft data files); the output
    /// and the JSON line name the convention.
    #[test]
    fn conventions_differ_on_early_ends_and_stop_is_the_default() {
        let default = run_ok("perft --position \"1 1 1\" --depth 3 --json");
        assert!(default.contains("perft 3 (stop): 0 nodes"), "{default}");
        let stop = last_json(&default);
        assert_eq!(stop["nodes"], 0);
        assert_eq!(stop["depth"], 3);
        assert_eq!(stop["convention"], "stop");
        assert!(stop["seconds"].as_f64().is_some());
        assert_eq!(
            plies::harness::PerftConvention::default().to_string(),
            "stop"
        );
        let leaf = run_ok("perft --position \"1 1 1\" --depth 3 --convention leaf --json");
        assert!(leaf.contains("perft 3 (leaf): 2 nodes"), "{leaf}");
        assert_eq!(last_json(&leaf)["nodes"], 2);
        assert_eq!(last_json(&leaf)["convention"], "leaf");
    }

    #[test]
    fn moves_then_perft() {
        // 7 5 after a1 b3: (6,2), first player to move again: a1 a2 a3 b1 b2 = 5 moves.
        let out = run_ok("perft --moves \"A1 b3\" --depth 1 --json");
        assert_eq!(last_json(&out)["nodes"], 5);
    }

    /// A depth past the cap is a one-line error, found before any counting starts.
    #[test]
    fn depth_is_capped() {
        let cap = super::MAX_PERFT_DEPTH;
        let err = run_invalid(&format!("perft --depth {}", cap + 1));
        assert!(err.contains(&format!("--depth {}", cap + 1)), "{err}");
        assert!(err.contains(&cap.to_string()), "{err}");
        let err = run_invalid("perft --depth 4294967295");
        assert!(err.contains("4294967295"), "{err}");
        // The cap itself is accepted (TwoPiles from 1 1 ends within three plies).
        let out = run_ok(&format!("perft --position \"1 1 1\" --depth {cap}"));
        assert!(out.contains(&format!("perft {cap} (stop)")), "{out}");
    }

    #[test]
    fn bad_convention() {
        let err = run_usage("perft --depth 1 --convention both");
        assert!(
            err.contains("--convention") && err.contains("both"),
            "{err}"
        );
    }
}
