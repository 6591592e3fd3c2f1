//! `bench`: the game's fixed positions searched to its fixed depth with the full pvs searcher.
//!
//! Key invariant: each position is searched by a fresh searcher (nothing carried over), so the
//! total node count depends only on the code and is a signature of the search: a change to it
//! must be intentional.

use std::io::Write;
use std::time::Instant;

use serde_json::json;

use super::args::BenchArgs;
use super::{CliError, GameCli, check_depth, play_moves, rate, searcher};
use crate::notation::Notation;
use crate::search::SearchLimits;

/// Runs `bench`. `--position` replaces the game's bench positions by one; `--moves` is played
/// from each position; `--depth` replaces the bench depth.
pub(super) fn run<G: Notation>(
    spec: &GameCli<G>,
    args: &BenchArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let depth = check_depth(args.depth.unwrap_or(spec.bench_depth))?;
    let texts: Vec<&str> = match &args.start.position {
        Some(text) => vec![text.as_str()],
        None => spec.bench_positions.to_vec(),
    };
    let mut positions = Vec::with_capacity(texts.len());
    for text in &texts {
        let state = G::parse_position(text)
            .map_err(|e| CliError::Invalid(format!("bad --position: {e} in '{text}'")))?;
        positions.push(play_moves(state, args.start.moves.as_deref())?);
    }
    let limits = SearchLimits::depth(depth);
    let mut total_nodes = 0;
    let start = Instant::now();
    for (number, state) in positions.iter().enumerate() {
        let mut engine = searcher(spec, "pvs")?;
        let result = engine.search(state, &limits);
        total_nodes += result.stats.nodes;
        writeln!(
            output,
            "position {:>2}: {:>12} nodes {:>8.3} s  best {:<16} score {}",
            number + 1,
            result.stats.nodes,
            result.stats.elapsed.as_secs_f64(),
            result
                .best_move
                .map_or_else(|| "(none)".to_string(), |mv| state.format_move(mv)),
            result.score
        )?;
    }
    let seconds = start.elapsed().as_secs_f64();
    let nps = rate(total_nodes, seconds);
    writeln!(output, "depth {depth}, {} positions", positions.len())?;
    writeln!(output, "total nodes {total_nodes}")?;
    writeln!(output, "total time {seconds:.3} s")?;
    writeln!(output, "nodes/s {nps:.0}")?;
    if args.json {
        let line = json!({
            "depth": depth,
            "nodes": total_nodes,
            "seconds": seconds,
            "nodes_per_second": nps,
        });
        writeln!(output, "{line}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{last_json, run_invalid, run_ok};

    #[test]
    fn benches_every_position_and_totals() {
        let out = run_ok("bench --json");
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("position  1:") && lines[1].starts_with("position  2:"));
        let per_position: u64 = lines[..2]
            .iter()
            .map(|l| l.split_whitespace().nth(2).unwrap().parse::<u64>().unwrap())
            .sum();
        let json = last_json(&out);
        assert_eq!(json["nodes"].as_u64(), Some(per_position));
        assert_eq!(json["depth"], 5);
        assert!(json["seconds"].as_f64().is_some() && json["nodes_per_second"].is_number());
        assert!(out.contains(&format!("total nodes {per_position}")));
    }

    #[test]
    fn deterministic_signature() {
        let a = last_json(&run_ok("bench --json"))["nodes"].clone();
        let b = last_json(&run_ok("bench --json"))["nodes"].clone();
        assert_eq!(a, b);
    }

    #[test]
    fn one_position_and_depth() {
        let out = run_ok("bench --position \"3 3 1\" --depth 2 --json");
        assert_eq!(out.lines().filter(|l| l.starts_with("position")).count(), 1);
        assert_eq!(last_json(&out)["depth"], 2);
        assert!(run_invalid("bench --depth 0").contains("--depth"));
    }
}
