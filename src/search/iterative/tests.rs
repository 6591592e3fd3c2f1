//! Unit tests of `crate::search::iterative` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;

/// A fake search: depth d scores d, is interrupted at `fail_at`, proves a win at `win_at`.
struct Fake {
    watch: LimitWatch,
    nodes: u64,
    fail_at: u32,
    win_at: u32,
    /// A search asked for this depth completes two deeper (taken over from another thread).
    jump_at: u32,
    /// The plies of the proven result from `win_at` on (0: `win_at` itself).
    proof_plies: u32,
    /// The proven result is a loss, not a win.
    losing: bool,
    pv: Vec<u32>,
}

impl DepthSearch<u32> for Fake {
    fn search_depth(&mut self, depth: u32) -> Option<Score> {
        self.nodes += u64::from(depth) * 10;
        if depth == self.fail_at {
            return None;
        }
        self.pv = (0..depth).collect();
        let plies = if self.proof_plies > 0 {
            self.proof_plies
        } else {
            self.win_at
        };
        Some(if depth >= self.win_at && self.losing {
            Score::loss_in(plies)
        } else if depth >= self.win_at {
            Score::win_in(plies)
        } else {
            Score::cp(depth as i32)
        })
    }
    fn pv(&self) -> &[u32] {
        &self.pv
    }
    fn stats(&self) -> SearchStats {
        SearchStats {
            nodes: self.nodes,
            ..SearchStats::default()
        }
    }
    fn watch(&self) -> &LimitWatch {
        &self.watch
    }
    fn completed_depth(&self, depth: u32) -> u32 {
        if depth == self.jump_at {
            depth + 2
        } else {
            depth
        }
    }
}

fn fake(fail_at: u32, win_at: u32) -> Fake {
    Fake {
        watch: LimitWatch::new(&SearchLimits::default()),
        nodes: 0,
        fail_at,
        win_at,
        jump_at: 0,
        proof_plies: 0,
        losing: false,
        pv: Vec::new(),
    }
}

#[test]
fn keeps_last_completed_iteration() {
    let mut seen = Vec::new();
    let it = deepen(&mut fake(4, 99), 1, 9, false, &mut |i| seen.push(i.depth)).unwrap();
    assert_eq!(seen, [1, 2, 3]);
    assert_eq!((it.depth, it.score, it.pv.len()), (3, Score::cp(3), 3));
    assert_eq!(it.stats.nodes_per_depth, [10, 20, 30]);
    assert!(deepen(&mut fake(1, 99), 1, 9, false, &mut |_| {}).is_none());
}

#[test]
fn a_taken_over_iteration_skips_depths() {
    let mut search = fake(99, 99);
    search.jump_at = 3;
    let mut seen = Vec::new();
    let it = deepen(&mut search, 1, 9, false, &mut |i| seen.push(i.depth)).unwrap();
    assert_eq!(seen, [1, 2, 5, 6, 7, 8, 9]);
    assert_eq!(it.depth, 9);
    // The skipped depths count no nodes of their own.
    assert_eq!(it.stats.nodes_per_depth[..5], [10, 20, 0, 0, 30]);
    // A jump past the last depth stops at it.
    let mut search = fake(99, 99);
    search.jump_at = 8;
    let it = deepen(&mut search, 1, 9, false, &mut |_| {}).unwrap();
    assert_eq!(it.depth, 9);
}

#[test]
fn predicts_from_growth() {
    assert_eq!(predict_next(&[]), 0.0);
    assert!((predict_next(&[0.01]) - 0.04).abs() < 1e-12);
    assert!((predict_next(&[0.01, 0.03]) - 0.09).abs() < 1e-12);
    // Growth is clamped both ways.
    assert!((predict_next(&[0.01, 0.011]) - 0.011 * MIN_GROWTH).abs() < 1e-12);
    assert!((predict_next(&[0.001, 0.1]) - 0.1 * MAX_GROWTH).abs() < 1e-12);
}

#[test]
fn single_depth_and_proof_stop() {
    let it = deepen(&mut fake(99, 99), 5, 5, false, &mut |_| {}).unwrap();
    assert_eq!(it.stats.nodes_per_depth, [0, 0, 0, 0, 50]);
    let it = deepen(&mut fake(99, 3), 1, 9, true, &mut |_| {}).unwrap();
    assert_eq!(it.depth, 3);
    let it = deepen(&mut fake(99, 3), 1, 9, false, &mut |_| {}).unwrap();
    assert_eq!(it.depth, 9);
}

#[test]
fn a_proof_beyond_the_nominal_depth_ends_deepening_too() {
    // From depth 3 on the fake proves a win in 8 plies, further than the iteration's depth
    // (as threat extensions find them): deepening stops there when asked to.
    let mut search = fake(99, 3);
    search.proof_plies = 8;
    let mut seen = Vec::new();
    let it = deepen(&mut search, 1, 30, true, &mut |i| seen.push(i.depth)).unwrap();
    assert_eq!(seen, [1, 2, 3]);
    assert_eq!(it.score, Score::win_in(8));
    // Not asked (a fixed depth for the consistency checks): every depth is searched.
    let mut search = fake(99, 3);
    search.proof_plies = 8;
    let it = deepen(&mut search, 1, 12, false, &mut |_| {}).unwrap();
    assert_eq!((it.depth, it.score), (12, Score::win_in(8)));
    // A loss ends it the same way.
    let mut search = fake(99, 2);
    search.proof_plies = 9;
    search.losing = true;
    let it = deepen(&mut search, 1, 30, true, &mut |_| {}).unwrap();
    assert_eq!((it.depth, it.score), (2, Score::loss_in(9)));
}

#[test]
fn below_the_soft_limit_an_iteration_starts_even_if_it_cannot_finish() {
    // 0.5 s into a 1 s limit, the last iteration took 0.3 s after 0.1 s: the next one
    // (0.9 s predicted) cannot finish. Below the soft limit it starts anyway (the hard
    // limit cuts it, its partial result counts).
    let times = [0.1, 0.3];
    assert!(soft_share(0) > 0.5);
    assert!(should_start(0.5, 1.0, &times, 0));
    // Past the soft limit it starts only an iteration predicted to finish in time.
    let late = soft_share(0) + 0.01;
    assert!(!should_start(late, 1.0, &times, 0));
    assert!(should_start(late, 1.0, &[0.01, 0.02], 0));
    // Never at or after the limit.
    assert!(!should_start(1.0, 1.0, &[0.0, 0.0], 2));
}

#[test]
fn an_unstable_best_move_stretches_the_soft_limit() {
    assert!((soft_share(0) - SOFT_SHARE).abs() < 1e-12);
    assert!(soft_share(1) > soft_share(0));
    assert!(soft_share(2) > soft_share(1));
    assert!(soft_share(2) <= 1.0);
    // Between the stable and the unstable soft limits, with a next iteration that cannot
    // finish: only a best move that changed lately earns it.
    let times = [0.1, 0.4];
    let between = (soft_share(0) + soft_share(1)) / 2.0;
    assert!(!should_start(between, 1.0, &times, 0));
    assert!(should_start(between, 1.0, &times, 1));
    let later = (soft_share(1) + soft_share(2)) / 2.0;
    assert!(!should_start(later, 1.0, &times, 1));
    assert!(should_start(later, 1.0, &times, 2));
}

#[test]
fn the_hard_limit_keeps_a_margin() {
    assert_eq!(
        hard_margin(Duration::from_millis(100)),
        Duration::from_millis(2)
    );
    assert_eq!(hard_margin(Duration::from_secs(10)), MAX_HARD_MARGIN);
    let limits = SearchLimits::time(Duration::from_millis(100));
    let hard = hard_limits(&limits);
    assert_eq!(hard.time, Some(Duration::from_millis(98)));
    // Other limits pass unchanged.
    let depth = hard_limits(&SearchLimits::depth(7));
    assert_eq!((depth.depth, depth.time), (Some(7), None));
}

/// Best moves of the fake per depth: changes at depths 3 and 4.
struct Wobbly {
    inner: Fake,
}

impl DepthSearch<u32> for Wobbly {
    fn search_depth(&mut self, depth: u32) -> Option<Score> {
        let score = self.inner.search_depth(depth);
        self.inner.pv = vec![match depth {
            3 => 7,
            4.. => 8,
            _ => 1,
        }];
        score
    }
    fn pv(&self) -> &[u32] {
        &self.inner.pv
    }
    fn stats(&self) -> SearchStats {
        self.inner.stats()
    }
    fn watch(&self) -> &LimitWatch {
        &self.inner.watch
    }
}

#[test]
fn deepening_without_a_time_limit_ignores_the_clock_and_tracks_best_moves() {
    // Depth-only: every iteration runs (deterministic).
    let mut search = Wobbly {
        inner: fake(99, 99),
    };
    let mut best = Vec::new();
    let it = deepen(&mut search, 1, 6, true, &mut |i| best.push(i.pv[0])).unwrap();
    assert_eq!(it.depth, 6);
    assert_eq!(best, [1, 1, 7, 8, 8, 8]);
}
