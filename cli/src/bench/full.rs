//! `bench --full` / `bench --depths`: the depth ladder over the bench positions (time to each
//! depth of one iterative-deepening search per position) and the proof positions searched until
//! their score is a proven win or loss.
//!
//! Key invariant: a ladder rung reports the statistics of the search *when that iteration
//! completed* (cumulative time and positions from the search's start), so the figure at depth `d`
//! equals what a separate search to depth `d` makes, and the per-depth totals are checked against
//! the same [`super::BenchSignature`]s as the quick bench. (With threads a search may skip a
//! depth, taking over a deeper iteration another thread completed; the skipped rung then reports
//! that deeper iteration, the first time the search got at least that deep.)

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};

use super::{BenchProof, BenchSuite, Checks, Engine};
use crate::engine::check_depth;
use crate::error::CliError;
use crate::text::rate;
use plies::GameHistory;
use plies::Notation;
use plies::Score;
use plies::search::SearchLimits;

/// One position at one ladder depth.
#[derive(Clone, Debug)]
struct Rung {
    seconds: f64,
    nodes: u64,
    score: Score,
    best: String,
}

/// What a full bench runs: the ladder `depths` over `positions`, then the `proofs`; totals are
/// checked against `expected` when given (the game's own positions).
pub(super) struct Plan<'a, G> {
    /// The positions of the ladder.
    pub positions: &'a [G],
    /// The ladder's depths (any order, repeats allowed).
    pub depths: &'a [u32],
    /// The positions searched until proven.
    pub proofs: &'a [BenchProof],
    /// The suite whose signatures the totals must match.
    pub expected: Option<&'a BenchSuite>,
}

/// Node and second totals, and the JSON of what made them.
struct Totals {
    nodes: u64,
    seconds: f64,
    json: Vec<Value>,
}

/// Runs `plan`: the ladder, then the proofs, then the totals and checks.
pub(super) fn run<G: Notation>(
    make: &Engine<'_, G>,
    plan: &Plan<'_, G>,
    json: bool,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let mut depths = plan.depths.to_vec();
    for &depth in &depths {
        check_depth(depth)?;
    }
    depths.sort_unstable();
    depths.dedup();
    if depths.is_empty() {
        return Err(CliError::Invalid("bad --depths: no depth given".into()));
    }
    let name = make()?.name();
    writeln!(
        output,
        "ladder: {} positions, depths {}, {name}, one search per position (time to depth)",
        plan.positions.len(),
        depths
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    )?;
    let rungs = climb(make, plan.positions, &depths, output)?;
    let mut checks = Checks::default();
    let ladder = ladder_totals(&rungs, &depths, plan.expected, &mut checks, output)?;
    let proofs = prove_all(make, plan.proofs, plan.expected, &mut checks, output)?;
    let (total_nodes, total_seconds) =
        (ladder.nodes + proofs.nodes, ladder.seconds + proofs.seconds);
    let nps = rate(total_nodes, total_seconds);
    writeln!(
        output,
        "total (deepest rung + proofs): {total_seconds:.3} s, {total_nodes} states, {:.2} M states/s",
        nps / 1e6
    )?;
    checks.report(output)?;
    if json {
        let line = json!({
            "ladder": ladder.json,
            "proofs": proofs.json,
            "nodes": total_nodes,
            "seconds": total_seconds,
            "nodes_per_second": nps,
            "signature": checks.summary(),
        });
        writeln!(output, "{line}")?;
    }
    checks.finish()
}

/// One search per position to the deepest of `depths` (sorted, not empty), printing each
/// rung; returns `rungs[position][depth index]`.
fn climb<G: Notation>(
    make: &Engine<'_, G>,
    positions: &[G],
    depths: &[u32],
    output: &mut dyn Write,
) -> Result<Vec<Vec<Option<Rung>>>, CliError> {
    let deepest = depths[depths.len() - 1];
    let mut rungs: Vec<Vec<Option<Rung>>> = Vec::with_capacity(positions.len());
    for (number, state) in positions.iter().enumerate() {
        let mut engine = make()?;
        let mut found: Vec<Option<Rung>> = vec![None; depths.len()];
        engine.search_with(
            state,
            &GameHistory::default(),
            &SearchLimits::depth(deepest),
            &mut |it| {
                // A rung is reached by its own iteration or, when threads skip depths (one takes
                // over another's deeper iteration), by the first deeper one.
                for (rung, _) in found
                    .iter_mut()
                    .zip(depths)
                    .filter(|(rung, depth)| **depth <= it.depth && rung.is_none())
                {
                    *rung = Some(Rung {
                        seconds: it.stats.elapsed.as_secs_f64(),
                        nodes: it.stats.nodes,
                        score: it.score,
                        best: it
                            .pv
                            .first()
                            .map_or_else(|| "(none)".to_string(), |&mv| state.format_move(mv)),
                    });
                }
            },
        );
        for (i, rung) in found.iter().enumerate() {
            match rung {
                Some(r) => writeln!(
                    output,
                    "position {:>2} depth {:>2}: {:>9.3} s {:>12} states {:>8.2} M states/s  score {}  best {}",
                    number + 1,
                    depths[i],
                    r.seconds,
                    r.nodes,
                    rate(r.nodes, r.seconds) / 1e6,
                    r.score,
                    r.best
                )?,
                None => writeln!(
                    output,
                    "position {:>2} depth {:>2}: not reached (the game ends sooner)",
                    number + 1,
                    depths[i]
                )?,
            }
        }
        rungs.push(found);
    }
    Ok(rungs)
}

/// Prints and checks each depth's total over the positions; the totals are the deepest
/// rung's.
fn ladder_totals(
    rungs: &[Vec<Option<Rung>>],
    depths: &[u32],
    expected: Option<&BenchSuite>,
    checks: &mut Checks,
    output: &mut dyn Write,
) -> Result<Totals, CliError> {
    let deepest = depths[depths.len() - 1];
    let mut totals = Totals {
        nodes: 0,
        seconds: 0.0,
        json: Vec::new(),
    };
    for (i, &depth) in depths.iter().enumerate() {
        let reached: Vec<&Rung> = rungs.iter().filter_map(|r| r[i].as_ref()).collect();
        let nodes: u64 = reached.iter().map(|r| r.nodes).sum();
        let seconds: f64 = reached.iter().map(|r| r.seconds).sum();
        let note = checks.check(
            &format!("depth {depth} total"),
            nodes,
            expected.and_then(|s| s.signature(depth)),
        );
        writeln!(
            output,
            "depth {depth:>2} total: {seconds:>9.3} s {nodes:>12} states {:>8.2} M states/s  ({note})",
            rate(nodes, seconds) / 1e6
        )?;
        totals.json.push(json!({
            "depth": depth,
            "nodes": nodes,
            "seconds": seconds,
            "nodes_per_second": rate(nodes, seconds),
            "positions": reached.iter().map(|r| json!({"nodes": r.nodes, "seconds": r.seconds})).collect::<Vec<Value>>(),
        }));
        if depth == deepest {
            totals.nodes += nodes;
            totals.seconds += seconds;
        }
    }
    Ok(totals)
}

/// Searches each proof position until proven, printing and checking each.
fn prove_all<G: Notation>(
    make: &Engine<'_, G>,
    proofs: &[BenchProof],
    expected: Option<&BenchSuite>,
    checks: &mut Checks,
    output: &mut dyn Write,
) -> Result<Totals, CliError> {
    let mut totals = Totals {
        nodes: 0,
        seconds: 0.0,
        json: Vec::new(),
    };
    for (number, proof) in proofs.iter().enumerate() {
        let found = prove(make, proof)?;
        let label = format!("proof {}", number + 1);
        let note = checks.check(&label, found.nodes, expected.and(proof.nodes));
        let verdict = if found.proven {
            format!("{} at depth {}", found.score, found.depth)
        } else {
            format!(
                "not proven by depth {} (score {})",
                found.depth, found.score
            )
        };
        writeln!(
            output,
            "{label} ({}): {verdict}, {:.3} s, {} states ({} quiescence), {:.2} M states/s, best {}  ({note})",
            proof.position,
            found.seconds,
            found.nodes,
            found.qnodes,
            rate(found.nodes, found.seconds) / 1e6,
            found.best
        )?;
        totals.nodes += found.nodes;
        totals.seconds += found.seconds;
        totals.json.push(json!({
            "position": proof.position,
            "proven": found.proven,
            "depth": found.depth,
            "score": found.score.to_string(),
            "best": found.best,
            "nodes": found.nodes,
            "qnodes": found.qnodes,
            "seconds": found.seconds,
            "nodes_per_second": rate(found.nodes, found.seconds),
        }));
    }
    Ok(totals)
}

/// What a proof search found.
struct Proof {
    proven: bool,
    depth: u32,
    score: Score,
    best: String,
    nodes: u64,
    qnodes: u64,
    seconds: f64,
}

/// Searches `proof.position` by iterative deepening until an iteration's score is a win or a
/// loss (then stops), or `proof.max_depth` is done. The figures are those of the proving (or
/// last) iteration.
fn prove<G: Notation>(make: &Engine<'_, G>, proof: &BenchProof) -> Result<Proof, CliError> {
    let state = G::parse_position(proof.position).map_err(|e| {
        CliError::Invalid(format!(
            "bad proof position '{}' in the game's bench suite: {e}",
            proof.position
        ))
    })?;
    let max_depth = check_depth(proof.max_depth)?;
    let stop = Arc::new(AtomicBool::new(false));
    let limits = SearchLimits::depth(max_depth).with_stop(Arc::clone(&stop));
    let mut engine = make()?;
    let mut last: Option<Proof> = None;
    engine.search_with(&state, &GameHistory::default(), &limits, &mut |it| {
        let proven = it.score.is_decisive();
        last = Some(Proof {
            proven,
            depth: it.depth,
            score: it.score,
            best: it
                .pv
                .first()
                .map_or_else(|| "(none)".to_string(), |&mv| state.format_move(mv)),
            nodes: it.stats.nodes,
            qnodes: it.stats.qnodes,
            seconds: it.stats.elapsed.as_secs_f64(),
        });
        if proven {
            stop.store(true, Ordering::Relaxed);
        }
    });
    last.ok_or_else(|| {
        CliError::Invalid(format!(
            "proof position '{}' is already over",
            proof.position
        ))
    })
}
