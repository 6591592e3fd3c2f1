//! Unit tests of `crate::search::limits` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;

/// Polls `watch` once per node from `from` to `to`; returns the node it stopped at.
fn run(watch: &mut LimitWatch, from: u64, to: u64) -> Option<u64> {
    (from..to).find(|&nodes| watch.should_stop(nodes))
}

#[test]
fn shared_watches_sum_their_nodes_and_stop_together() {
    let shared = Arc::new(SharedLimits::new());
    let limits = SearchLimits::nodes(2000);
    let mut a = LimitWatch::with_shared(&limits, Arc::clone(&shared));
    let mut b = LimitWatch::with_shared(&limits, Arc::clone(&shared));
    // Each alone is far from the limit; together they reach it.
    assert_eq!(run(&mut a, 0, 1000), None);
    assert_eq!(run(&mut b, 0, 1000), None);
    let stopped = run(&mut a, 1000, 2000).expect("the sum reaches the limit");
    assert!(stopped <= 1000 + 2 * POLL_INTERVAL, "{stopped}");
    assert!(shared.nodes() >= 2000);
    // The other watch stops at its next poll.
    assert!(run(&mut b, 1000, 1000 + POLL_INTERVAL + 1).is_some());
    assert_eq!(
        a.total_nodes(stopped),
        shared.nodes() + stopped - a.reported
    );
}

#[test]
fn any_thread_stops_every_shared_watch() {
    let shared = Arc::new(SharedLimits::new());
    let mut a = LimitWatch::with_shared(&SearchLimits::default(), Arc::clone(&shared));
    let mut b = LimitWatch::with_shared(&SearchLimits::default(), Arc::clone(&shared));
    assert_eq!(run(&mut a, 0, 5000), None);
    shared.raise_stop();
    assert!(shared.is_stop_raised());
    assert!(run(&mut a, 5000, 5000 + POLL_INTERVAL + 1).is_some());
    assert!(run(&mut b, 0, 1).is_some());
    // Flushing reports what a watch has not reported yet.
    let before = shared.nodes();
    b.flush(300);
    assert_eq!(shared.nodes(), before + 300);
    // A watch without shared limits is unaffected and counts only its own nodes.
    let mut alone = LimitWatch::new(&SearchLimits::default());
    assert_eq!(run(&mut alone, 0, 5000), None);
    assert_eq!(alone.total_nodes(77), 77);
}

#[test]
fn an_iteration_another_thread_completed_is_outdated() {
    let shared = Arc::new(SharedLimits::new());
    let mut watch = LimitWatch::with_shared(&SearchLimits::default(), Arc::clone(&shared));
    watch.begin_iteration(5);
    shared.complete(4);
    assert_eq!(run(&mut watch, 0, 1000), None);
    shared.complete(6);
    assert_eq!(shared.completed(), 6);
    shared.complete(2);
    assert_eq!(shared.completed(), 6, "the deepest stays");
    let stopped = run(&mut watch, 1000, 2000).expect("outdated at the next poll");
    assert!(!watch.is_halted());
    // A deeper iteration runs on; a stop flag halts it for good.
    watch.begin_iteration(7);
    assert_eq!(run(&mut watch, stopped, stopped + 1000), None);
    shared.raise_stop();
    assert!(run(&mut watch, stopped + 1000, stopped + 2000).is_some());
    assert!(watch.is_halted());
    watch.begin_iteration(8);
    assert!(watch.should_stop(stopped + 2000));
}

#[test]
fn a_shared_start_moves_the_deadline() {
    let limits = SearchLimits::time(Duration::from_secs(60));
    let earlier = Instant::now() - Duration::from_secs(30);
    let watch = LimitWatch::new(&limits).started_at(earlier);
    assert_eq!(watch.start(), earlier);
    let left = watch.remaining().unwrap();
    assert!(left <= Duration::from_secs(30), "{left:?}");
}

#[test]
fn the_clock_budget_keeps_a_margin() {
    let ms = Duration::from_millis;
    let clock = |left: u64, inc: u64| Clock {
        remaining: [ms(left), ms(7)],
        increment: [ms(inc), ms(0)],
    };
    // A 25th of the clock (less a 30 ms margin) plus three quarters of the increment...
    assert_eq!(clock(10_000, 100).budget(Side::First), ms(9_970 / 25 + 75));
    // ...never more than half of what is left after the margin (a tenth of a short clock)...
    assert_eq!(clock(100, 1_000).budget(Side::First), ms(45));
    // ...and never zero; each side's own clock counts.
    assert_eq!(clock(0, 0).budget(Side::First), ms(1));
    assert_eq!(clock(10_000, 100).budget(Side::Second), ms(1));
}

#[test]
fn the_clock_charges_the_mover_and_adds_its_increment() {
    let ms = Duration::from_millis;
    let mut clock = Clock::new(ms(1_000), ms(10));
    assert!(clock.charge(Side::First, ms(300)));
    assert_eq!(clock.remaining, [ms(710), ms(1_000)]);
    assert!(clock.charge(Side::Second, ms(1_000)));
    assert_eq!(clock.remaining, [ms(710), ms(10)]);
    // More than it had: lost on time, the clock shows zero.
    assert!(!clock.charge(Side::First, ms(711)));
    assert_eq!(clock.remaining, [ms(0), ms(10)]);
}

/// A progress counter sees a search's positions as it polls, trailing by less than a poll
/// interval, and only when one is given.
#[test]
fn progress_counts_the_positions_made() {
    let progress = Arc::new(SearchProgress::new());
    assert_eq!(progress.root_move(), None);
    let limits = SearchLimits {
        progress: Some(Arc::clone(&progress)),
        ..SearchLimits::default()
    };
    let mut watch = LimitWatch::new(&limits);
    for nodes in 0..=1_000 {
        assert!(!watch.should_stop(nodes));
    }
    let counted = progress.nodes();
    assert!(
        counted <= 1_000 && counted > 1_000 - POLL_INTERVAL,
        "{counted}"
    );
    // A second watch on the same counter (another thread of the search) adds its own.
    let mut other = LimitWatch::new(&limits);
    for nodes in 0..=600 {
        assert!(!other.should_stop(nodes));
    }
    assert!(progress.nodes() > counted + 600 - POLL_INTERVAL);
    other.root_move(17, 3);
    assert_eq!(progress.root_move(), Some((17, 3)));
    other.root_move(0, 1);
    assert_eq!(progress.root_move(), Some((0, 1)));
}
