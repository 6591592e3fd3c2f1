//! A search report on Onitama, for profiling and A/B runs: full PVS from the start of the eight
//! bench deals (red to move) to a fixed depth, and the Java engine's sample position to its
//! proven win; prints time, states (positions made, quiescence included, root excluded) and
//! states/s for each. (The criterion bench `search` times the same searches.)
//!
//! Key invariant: with the default configuration, all eight deals and a depth that has a
//! recorded signature (`plies_onitama::bench::BENCH_SIGNATURES`), the total must equal it, or
//! the report fails; a faster number cannot come from less work.
//!
//! `cargo bench -p plies-onitama --bench report` runs depth 12 on every deal and the sample
//! (until the first iteration that finds the win);
//! `PLIES_DEPTH=10` changes the depth, `PLIES_DEALS=1` runs only the first deal,
//! `PLIES_SAMPLE=0` skips the sample, `PLIES_TT_MB=16` sets the table size (default: `PvsConfig::full()`'s, like the `bench` command),
//! `PLIES_ASPIRATION=1|0`, `PLIES_EXTENSIONS=1|0` (threat extensions), `PLIES_LMR=1|0` (late-move
//! reductions) switch those on or off (default: as in `PvsConfig::full()`), `PLIES_VERBOSE=1` prints every iteration;
//! `PLIES_OVERSHOOT=1000` instead runs 1000 searches of 50 ms and prints the largest overshoot.
//! Wall time is noisy on a shared machine: compare states, the CPU seconds printed beside the wall
//! time (the thread's own run time, from `/proc/thread-self/schedstat`) and
//! `valgrind --tool=callgrind` instruction counts too.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use plies::search::{Pvs, PvsConfig};
use plies::search::{SearchLimits, Searcher};
use plies::{Game, Notation};
use plies_onitama::bench::BENCH_SIGNATURES;
use plies_onitama::{BENCH_DEALS as DEALS, Onitama, PstEvaluator, SAMPLE_POSITION as SAMPLE};

/// CPU time this thread has run, from `/proc/thread-self/schedstat` (Linux; 0 elsewhere): unlike
/// wall time it does not grow while other processes hold the core, so A/B comparisons on a
/// loaded machine use it.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

fn env_number(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(default)
}

/// Searches `text` within `limits` (with `prove`: until the first iteration with a decisive
/// score) and prints one line; returns the states, the seconds and the CPU seconds.
fn run(label: &str, text: &str, limits: &SearchLimits, prove: bool) -> (u64, f64, f64) {
    let position = Onitama::parse_position(text).expect("valid position");
    let full = PvsConfig::full();
    let config = PvsConfig {
        tt_mb: env_number("PLIES_TT_MB", full.tt_mb as u32) as usize,
        aspiration: env_number("PLIES_ASPIRATION", u32::from(full.aspiration)) != 0,
        threat_extensions: env_number("PLIES_EXTENSIONS", u32::from(full.threat_extensions)) != 0,
        late_move_reductions: env_number("PLIES_LMR", u32::from(full.late_move_reductions)) != 0,
        ..full
    };
    let mut pvs = Pvs::new(PstEvaluator::tuned(), config);
    let verbose = env_number("PLIES_VERBOSE", 0) != 0;
    let stop = Arc::new(AtomicBool::new(false));
    let limits = limits.clone().with_stop(Arc::clone(&stop));
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let mut proof = None;
    let result = pvs.search_with(&position, &plies::GameHistory::default(), &limits, &mut |it| {
        let s = &it.stats;
        if verbose {
            println!(
                "  depth {:>2} {:>8.3} s {:>11} states ({} q, {} leaves, {} probes, {} cutoffs)  score {}  tt hit {:.2}  fill {:.2}  best-first {:.3}  bf {:.2}",
                it.depth,
                s.elapsed.as_secs_f64(),
                s.nodes,
                s.qnodes,
                s.leaves,
                s.tt_probes,
                s.cutoffs,
                it.score,
                s.tt_hit_rate(),
                s.tt_fill,
                s.best_move_hit_rate(),
                s.branching_factor().unwrap_or(0.0),
            );
        }
        if prove && it.score.is_decisive() && proof.is_none() {
            proof = Some((it.depth, s.elapsed, s.nodes, s.qnodes, it.score));
            stop.store(true, Ordering::Relaxed);
        }
    });
    let cpu = cpu_seconds() - cpu_start;
    let (depth, elapsed, nodes, qnodes, score) = proof.unwrap_or((
        result.depth,
        start.elapsed(),
        result.stats.nodes,
        result.stats.qnodes,
        result.score,
    ));
    let secs = elapsed.as_secs_f64();
    println!(
        "{label:<8} depth {depth:>2} {secs:>8.3} s {nodes:>11} states ({qnodes:>10} q) {:>6.2} M states/s  cpu {cpu:.3} s {:>6.2} M/cpu-s  score {score}  best {}",
        nodes as f64 / secs / 1e6,
        nodes as f64 / cpu / 1e6,
        result
            .best_move
            .map_or_else(|| "-".to_string(), |mv| position.format_move(mv)),
    );
    (nodes, secs, cpu)
}

/// `count` searches of 50 ms each (one searcher, positions from the eight deals and the games
/// they lead to); prints the largest and the mean overshoot of the time limit.
fn overshoot(count: u32) {
    let limit = Duration::from_millis(50);
    let mut pvs = Pvs::new(PstEvaluator::tuned(), PvsConfig::full());
    let mut worst = Duration::ZERO;
    let mut total = Duration::ZERO;
    let mut depths = 0u64;
    let mut position = Onitama::parse_position(DEALS[0]).expect("valid position");
    for i in 0..count {
        if position.outcome().is_some() || i % 40 == 0 {
            position = Onitama::parse_position(DEALS[(i / 40) as usize % DEALS.len()])
                .expect("valid position");
        }
        let start = Instant::now();
        let result = pvs.search(&position, &SearchLimits::time(limit));
        let elapsed = start.elapsed();
        let over = elapsed.saturating_sub(limit);
        worst = worst.max(over);
        total += over;
        depths += u64::from(result.depth);
        position = position.play(result.best_move.expect("a move"));
    }
    println!(
        "overshoot over {count} searches of 50 ms: max {:.3} ms, mean {:.3} ms, mean depth {:.1}",
        worst.as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e3 / f64::from(count),
        depths as f64 / f64::from(count),
    );
}

fn main() {
    let searches = env_number("PLIES_OVERSHOOT", 0);
    if searches > 0 {
        overshoot(searches);
        return;
    }
    let depth = env_number("PLIES_DEPTH", 12);
    let deals = env_number("PLIES_DEALS", 8) as usize;
    let (mut total, mut secs, mut cpu) = (0, 0.0, 0.0);
    for (i, deal) in DEALS.iter().take(deals).enumerate() {
        let limits = SearchLimits::depth(depth);
        let (nodes, time, used) = run(&format!("deal {}", i + 1), deal, &limits, false);
        total += nodes;
        secs += time;
        cpu += used;
    }
    if deals > 0 {
        println!(
            "total    depth {depth:>2} {secs:>8.3} s {total:>11} states {:>18.2} M states/s  cpu {cpu:.3} s {:>6.2} M/cpu-s",
            total as f64 / secs / 1e6,
            total as f64 / cpu / 1e6
        );
    }
    let default_config = [
        "PLIES_TT_MB",
        "PLIES_ASPIRATION",
        "PLIES_EXTENSIONS",
        "PLIES_LMR",
    ]
    .iter()
    .all(|name| std::env::var_os(name).is_none());
    let signature = BENCH_SIGNATURES.iter().find(|s| s.depth == depth);
    if let (true, true, Some(signature)) = (default_config, deals >= DEALS.len(), signature) {
        assert_eq!(
            total, signature.nodes,
            "search signature changed for the eight deals at depth {depth}"
        );
    }
    if env_number("PLIES_SAMPLE", 1) != 0 {
        run("sample", SAMPLE, &SearchLimits::default(), true);
    }
}
