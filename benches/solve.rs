//! The library's generic table solver ([`plies::solve::Solver`]) on Kalah: every level of a
//! Kalah(6) board with [`TOTAL`] seeds in all ([`plies_kalah::solve::Level`], the levels with
//! fewer seeds in the pits probed as the outside), solved with distances (`solve`, a byte a
//! position) and for win, draw or loss only (`solve_wdl`, two bits a position, looking again
//! only near a change), on two threads. Throughput: positions of the levels (holes included).
//!
//! Key invariant: before timing, the two solvers' tables are checked to agree position by
//! position (the bits are the distances' outcomes), and every timed solve asserts its counts of
//! wins, losses and draws against those of the other solver's first run, so a faster number
//! cannot come from less work.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use plies::Side;
use plies::solve::{PositionSet, Solver, Table, TableValue};
use plies_kalah::solve::Level;
use plies_kalah::{CaptureRule, Kalah};

/// Seeds on the board, all in the pits at the top level.
const TOTAL: u8 = 10;
/// Pits a side.
const PITS: usize = 6;
/// Threads of every solve.
const THREADS: usize = 2;

/// The levels of the board and their tables, solved in order, by `solve_wdl` or by `solve`.
fn solve_levels(bits: bool) -> Vec<(Level, Table)> {
    let mut levels: Vec<(Level, Table)> = Vec::new();
    for in_pits in 0..=TOTAL {
        let level = Level::new(PITS, CaptureRule::Empty, TOTAL, in_pits).expect("a level");
        let below = |state: &Kalah| {
            let seeds = Side::BOTH
                .iter()
                .map(|&side| state.seeds_on_side(side) as usize)
                .sum::<usize>();
            let (set, table) = levels.get(seeds)?;
            table.probe(set, state)
        };
        let solver = Solver::new(&level).threads(THREADS).outside(&below);
        let table = if bits {
            solver.solve_wdl(&mut |_| {})
        } else {
            solver.solve(&mut |_| {})
        }
        .expect("solvable");
        levels.push((level, table));
    }
    levels
}

/// Wins, losses and draws over every level.
fn counts(levels: &[(Level, Table)]) -> [u64; 3] {
    levels.iter().fold([0; 3], |sum, (_, table)| {
        let c = table.counts();
        [sum[0] + c[0], sum[1] + c[1], sum[2] + c[2]]
    })
}

fn bench(c: &mut Criterion) {
    let distances = solve_levels(false);
    let bits = solve_levels(true);
    for ((level, full), (_, wdl)) in distances.iter().zip(&bits) {
        for index in 0..level.size() {
            assert_eq!(
                wdl.value(index),
                full.value(index).map(TableValue::outcome_only),
                "level {} #{index}",
                level.in_pits()
            );
        }
    }
    let expected = counts(&distances);
    assert!(expected.iter().all(|&n| n > 10_000), "{expected:?}");
    let size: u64 = distances.iter().map(|(level, _)| level.size()).sum();
    let mut group = c.benchmark_group(format!("solve_kalah_6_{TOTAL}"));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(10))
        .throughput(Throughput::Elements(size));
    for (name, wdl) in [("distances", false), ("win_draw_loss", true)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let levels = solve_levels(black_box(wdl));
                assert_eq!(counts(&levels), expected);
                levels
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
