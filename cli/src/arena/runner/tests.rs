use super::*;
use crate::arena::openings::random_openings;
use crate::arena::record::GameResult;
use plies::Side;
use plies::agent::{RandomAgent, SearchAgent};
use plies::search::AlphaBeta;
use plies::testing::{PileDifference, TwoPiles};

fn arena(workers: usize, seed: u64) -> Arena<TwoPiles> {
    let engines = vec![
        Engine::new("alphabeta", || -> Box<dyn Agent<TwoPiles>> {
            Box::new(SearchAgent::new(Box::new(AlphaBeta::new(PileDifference))))
        }),
        Engine::new("random", || -> Box<dyn Agent<TwoPiles>> {
            Box::new(RandomAgent::new(99))
        }),
    ];
    let openings = random_openings(&TwoPiles::new(11, 10, Side::First), 5, 8, 2);
    let config = ArenaConfig {
        limits: SearchLimits::depth(6),
        workers,
        seed,
        ..ArenaConfig::default()
    };
    Arena::new(engines, openings, config).with_notation()
}

#[test]
fn same_records_whatever_the_workers_and_resumable() {
    let one = arena(1, 3);
    let mut seen = Vec::new();
    let a = one.run(&one.head_to_head(), &[], &mut |r, p| seen.push((r.id, p)));
    assert_eq!(a.len(), 16);
    assert!(a.iter().enumerate().all(|(i, r)| r.id == i));
    assert_eq!(
        seen.last().unwrap().1,
        Progress {
            done: 16,
            total: 16
        }
    );
    assert!(a.iter().any(|r| r.stats[0].moves + r.stats[1].moves > 0));
    let two = arena(2, 3);
    let b = two.run(&two.head_to_head(), &[], &mut |_, _| {});
    let key = |rs: &[GameRecord]| -> Vec<(GameResult, Vec<String>)> {
        rs.iter().map(|r| (r.result, r.moves.clone())).collect()
    };
    assert_eq!(key(&a), key(&b));
    // Resume: hand back the first 5 records; only the other 11 are played.
    let mut played = 0;
    let c = one.run(&one.head_to_head(), &a[..5], &mut |_, _| played += 1);
    assert_eq!(played, 11);
    assert_eq!(key(&a), key(&c));
    // Another run seed changes the random agent's games.
    let other = arena(1, 4);
    let d = other.run(&other.head_to_head(), &[], &mut |_, _| {});
    assert_ne!(key(&a), key(&d));
}

#[test]
fn an_engine_can_play_itself() {
    let arena = arena(1, 0);
    let schedule = Schedule::pairings(&[(0, 0)], arena.openings().len());
    let records = arena.run(&schedule, &[], &mut |_, _| {});
    assert_eq!(records.len(), 16);
    for pair in records.chunks(2) {
        assert_eq!(pair[0].engines, [0, 0]);
        assert_eq!(pair[0].moves, pair[1].moves, "both copies play alike");
    }
}

#[test]
fn a_stop_raised_by_the_callback_starts_no_other_game() {
    let mut arena = arena(1, 0);
    let stop = Arc::new(AtomicBool::new(false));
    arena.config.stop = Some(Arc::clone(&stop));
    let records = arena.run(&arena.head_to_head(), &[], &mut |_, progress| {
        if progress.done == 3 {
            stop.store(true, Ordering::Relaxed);
        }
    });
    assert_eq!(records.len(), 3);
}

#[test]
fn a_raised_stop_flag_plays_nothing_more() {
    let mut stopped = arena(1, 0);
    stopped.config.stop = Some(Arc::new(AtomicBool::new(true)));
    let records = stopped.run(&stopped.head_to_head(), &[], &mut |_, _| {});
    assert!(records.is_empty());
}

#[test]
fn head_to_head_swaps_colours_per_opening() {
    let s = Schedule::head_to_head(3);
    assert_eq!(s.len(), 6);
    for (i, task) in s.tasks.iter().enumerate() {
        assert_eq!(task.id, i);
        assert_eq!(task.opening, i / 2);
        let expected = if i % 2 == 0 { [0, 1] } else { [1, 0] };
        assert_eq!(task.engines, expected);
    }
}

#[test]
fn round_robin_meets_every_pair_with_both_colours() {
    let s = Schedule::round_robin(4, 2);
    assert_eq!(s.len(), 6 * 2 * 2);
    for a in 0..4 {
        for b in 0..4 {
            if a != b {
                let games = s.tasks.iter().filter(|t| t.engines == [a, b]).count();
                assert_eq!(games, 2, "{a} as first against {b}, once per opening");
            }
        }
    }
    assert!(Schedule::round_robin(1, 5).is_empty());
}
