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
//! (until the first iteration that finds the win). Arguments after `--`:
//! `--searcher SPEC` searches with a searcher spec ([`plies::spec::SearcherSpec`], e.g.
//! `pvs:ext=off,lmr=off,tt=64`; default `pvs`, like the `bench` command), `--depth 10` changes
//! the depth, `--deals 1` runs only the first deal, `--no-sample` skips the sample,
//! `--verbose` prints every iteration; `--overshoot 1000` instead runs 1000 searches of 50 ms
//! and prints the largest overshoot.
//! Wall time is noisy on a shared machine: compare states, the CPU seconds printed beside the wall
//! time (the thread's own run time, from `/proc/thread-self/schedstat`) and
//! `valgrind --tool=callgrind` instruction counts too.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use plies::search::{Pvs, PvsConfig};
use plies::search::{SearchLimits, Searcher};
use plies::spec::SearcherSpec;
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

/// The report's settings, from its arguments (see the module docs).
struct Options {
    searcher: SearcherSpec,
    depth: u32,
    deals: usize,
    sample: bool,
    verbose: bool,
    overshoot: u32,
}

impl Options {
    /// Reads the arguments; `cargo bench` adds `--bench`, which is ignored.
    fn parse(args: impl Iterator<Item = String>) -> Result<Options, String> {
        let mut options = Options {
            searcher: SearcherSpec::default(),
            depth: 12,
            deals: DEALS.len(),
            sample: true,
            verbose: false,
            overshoot: 0,
        };
        let mut args = args.peekable();
        while let Some(arg) = args.next() {
            let mut value =
                |name: &str| args.next().ok_or_else(|| format!("{name} expects a value"));
            let number = |text: String| {
                text.parse::<u32>()
                    .map_err(|_| format!("'{text}': expected a number"))
            };
            match arg.as_str() {
                "--bench" => {}
                "--searcher" => {
                    options.searcher = value("--searcher")?
                        .parse()
                        .map_err(|e: plies::spec::SpecError| e.to_string())?;
                }
                "--depth" => options.depth = number(value("--depth")?)?,
                "--deals" => options.deals = number(value("--deals")?)? as usize,
                "--no-sample" => options.sample = false,
                "--verbose" => options.verbose = true,
                "--overshoot" => options.overshoot = number(value("--overshoot")?)?,
                other => return Err(format!("unknown argument '{other}'")),
            }
        }
        Ok(options)
    }
}

/// Searches `text` within `limits` (with `prove`: until the first iteration with a decisive
/// score) and prints one line; returns the states, the seconds and the CPU seconds.
fn run(
    options: &Options,
    label: &str,
    text: &str,
    limits: &SearchLimits,
    prove: bool,
) -> (u64, f64, f64) {
    let position = Onitama::parse_position(text).expect("valid position");
    let mut pvs = options
        .searcher
        .build::<Onitama, _>(PstEvaluator::tuned())
        .expect("a table this machine can hold");
    let verbose = options.verbose;
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
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("report: {e}");
            std::process::exit(2);
        }
    };
    if options.overshoot > 0 {
        overshoot(options.overshoot);
        return;
    }
    let depth = options.depth;
    let deals = options.deals;
    let (mut total, mut secs, mut cpu) = (0, 0.0, 0.0);
    for (i, deal) in DEALS.iter().take(deals).enumerate() {
        let limits = SearchLimits::depth(depth);
        let (nodes, time, used) = run(&options, &format!("deal {}", i + 1), deal, &limits, false);
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
    let default_config = options.searcher == SearcherSpec::default();
    let signature = BENCH_SIGNATURES.iter().find(|s| s.depth == depth);
    if let (true, true, Some(signature)) = (default_config, deals >= DEALS.len(), signature) {
        assert_eq!(
            total, signature.nodes,
            "search signature changed for the eight deals at depth {depth}"
        );
    }
    if options.sample {
        run(&options, "sample", SAMPLE, &SearchLimits::default(), true);
    }
}
