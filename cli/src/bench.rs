//! `bench`: the game's fixed positions searched with the full `pvs` searcher; the node counts are
//! a signature of the search, checked against the ones the game recorded.
//!
//! Two forms:
//! - the quick bench (`bench`): each bench position searched to the bench depth;
//! - the whole benchmark (`bench --full`, or `bench --depths 8,10`): each bench position searched
//!   once, by iterative deepening, to the deepest depth of the game's [`BenchSuite::ladder`],
//!   reported at every ladder depth (time to depth, states, states/s); then each
//!   [`BenchProof`] position searched until its score is a proven win or loss.
//!
//! Key invariants: each search uses a fresh searcher (nothing carried over) and no time limit, so
//! every node count depends only on the code; the totals are compared with the game's recorded
//! [`BenchSignature`](plies::harness::BenchSignature)s and proof counts, and a mismatch is printed and ends the command with an
//! error (exit code 1), so a changed search must update its signatures deliberately. Figures for
//! positions the game did not choose (`--position`, `--moves`) are never checked.

mod full;

use std::io::Write;
use std::time::Instant;

use clap::Args;
use serde_json::json;

use crate::engine::{check_depth, searcher};
use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::position::{PositionArgs, play_moves};
use crate::text::rate;
use plies::Notation;
use plies::harness::{BenchProof, BenchSuite};
use plies::search::{SearchLimits, Searcher};
use plies::spec::SearcherSpec;

/// `bench`.
#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    #[command(flatten)]
    pub start: PositionArgs,
    /// Depth instead of the game's bench depth (checked only where the game recorded a signature).
    #[arg(long, short = 'd', conflicts_with_all = ["full", "depths"], value_parser = clap::value_parser!(u32).range(1..=crate::engine::MAX_DEPTH))]
    pub depth: Option<u32>,
    /// The whole benchmark: the game's depth ladder over the bench positions, then its proof
    /// positions searched to their proven result.
    #[arg(long)]
    pub full: bool,
    /// The ladder depths instead of the game's, comma-separated (e.g. `8,10,12`); without
    /// `--full` the proof positions are skipped.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=crate::engine::MAX_DEPTH))]
    pub depths: Option<Vec<u32>>,
    /// Search threads (more than 1: Lazy SMP, whose node counts vary from run to run, so no
    /// signature is checked; compare times to depth with 1 thread).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// End with one JSON line: nodes, seconds, nodes_per_second, signature (and with the ladder,
    /// per depth and per proof).
    #[arg(long)]
    pub json: bool,
}

/// Collects the outcome of the signature checks of one run.
#[derive(Debug, Default)]
struct Checks {
    checked: usize,
    mismatches: Vec<String>,
}

impl Checks {
    /// Compares `nodes` with `expected` (if recorded); returns the note printed beside it.
    fn check(&mut self, what: &str, nodes: u64, expected: Option<u64>) -> String {
        match expected {
            None => "signature not recorded".to_string(),
            Some(want) if want == nodes => {
                self.checked += 1;
                "signature ok".to_string()
            }
            Some(want) => {
                self.checked += 1;
                self.mismatches
                    .push(format!("{what}: {nodes} nodes, expected {want}"));
                format!("SIGNATURE MISMATCH (expected {want})")
            }
        }
    }

    /// `ok`, `mismatch` or `unchecked`, for the JSON line.
    fn summary(&self) -> &'static str {
        if !self.mismatches.is_empty() {
            "mismatch"
        } else if self.checked > 0 {
            "ok"
        } else {
            "unchecked"
        }
    }

    /// Prints the verdict line (before any JSON line).
    fn report(&self, output: &mut dyn Write) -> Result<(), CliError> {
        if self.mismatches.is_empty() {
            if self.checked > 0 {
                writeln!(output, "signatures: {} checked, all ok", self.checked)?;
            } else {
                writeln!(
                    output,
                    "signatures: none recorded for this run; to record one, add the depth and \
                     its node total above to the game's bench suite \
                     (GameCli::bench, BenchSuite::signatures)"
                )?;
            }
        } else {
            writeln!(
                output,
                "signatures: {} of {} MISMATCHED",
                self.mismatches.len(),
                self.checked
            )?;
        }
        Ok(())
    }

    /// A mismatch becomes the command's error.
    fn finish(self) -> Result<(), CliError> {
        if self.mismatches.is_empty() {
            return Ok(());
        }
        Err(CliError::Invalid(format!(
            "bench signature mismatch ({}); if the search was changed on purpose, record the new \
             counts in the game's bench suite",
            self.mismatches.join("; ")
        )))
    }
}

/// Runs `bench` (see the module docs). `--position` replaces the game's bench positions by one;
/// `--moves` is played from each position.
/// Makes a fresh bench searcher (the full `pvs`, with the requested threads).
type Engine<'a, G> = dyn Fn() -> Result<Box<dyn Searcher<G>>, CliError> + 'a;

pub(super) fn run<G: Notation>(
    spec: &GameCli<G>,
    args: &BenchArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let suite = &spec.bench;
    let threads = args.threads;
    let make = move || -> Result<Box<dyn Searcher<G>>, CliError> {
        searcher(&spec.evaluator, &SearcherSpec::default(), Some(threads))
    };
    make()?;
    // Signatures hold for the game's own positions searched by one thread.
    let own_positions = args.start.position.is_none() && args.start.moves.is_none() && threads == 1;
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
    if args.full || args.depths.is_some() {
        let ladder = match &args.depths {
            Some(depths) => depths.clone(),
            None if suite.ladder.is_empty() => vec![spec.bench_depth],
            None => suite.ladder.to_vec(),
        };
        let proofs = if args.full && own_positions {
            suite.proofs
        } else {
            &[]
        };
        let expected = own_positions.then_some(suite);
        let plan = full::Plan {
            positions: &positions,
            depths: &ladder,
            proofs,
            expected,
        };
        return full::run(&make, &plan, args.json, output);
    }
    let depth = check_depth(args.depth.unwrap_or(spec.bench_depth))?;
    let limits = SearchLimits::depth(depth);
    let mut total_nodes = 0;
    let start = Instant::now();
    for (number, state) in positions.iter().enumerate() {
        let mut engine = make()?;
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
    let mut checks = Checks::default();
    let expected = if own_positions {
        suite.signature(depth)
    } else {
        None
    };
    let note = checks.check(&format!("depth {depth} total"), total_nodes, expected);
    writeln!(output, "depth {depth}, {} positions", positions.len())?;
    writeln!(output, "total nodes {total_nodes} ({note})")?;
    writeln!(output, "total time {seconds:.3} s")?;
    writeln!(output, "nodes/s {nps:.0}")?;
    checks.report(output)?;
    if args.json {
        let line = json!({
            "depth": depth,
            "nodes": total_nodes,
            "seconds": seconds,
            "nodes_per_second": nps,
            "signature": checks.summary(),
        });
        writeln!(output, "{line}")?;
    }
    checks.finish()
}

#[cfg(test)]
mod tests;
