//! The arena on Onitama: a searcher crushes a random mover, self-play at fixed depth is
//! symmetric, runs repeat exactly, colours alternate, and the ply cap draws.

use plies::agent::{Agent, RandomAgent, SearchAgent};
use plies::search::{AlphaBeta, Pvs, PvsConfig, SearchLimits};
use plies::{Game, Notation, Side};
use plies_cli::arena::{
    Arena, ArenaConfig, Engine, GameRecord, GameResult, Standings, Termination, random_openings,
};
use plies_onitama::{Onitama, PstEvaluator};

/// Deals from the benchmark list (red to move).
const DEALS: [&str; 4] = [
    "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon",
    "bbBbb/5/5/5/rrRrr r monkey,frog elephant,boar cobra",
    "bbBbb/5/5/5/rrRrr r crab,frog crane,horse tiger",
    "bbBbb/5/5/5/rrRrr r ox,boar horse,elephant crab",
];

fn deals() -> Vec<Onitama> {
    DEALS
        .iter()
        .map(|text| Onitama::parse_position(text).unwrap())
        .collect()
}

fn pvs(name: &str) -> Engine<Onitama> {
    Engine::new(name, || -> Box<dyn Agent<Onitama>> {
        let config = PvsConfig {
            tt_mb: 1,
            ..PvsConfig::full()
        };
        Box::new(SearchAgent::new(Box::new(Pvs::new(
            PstEvaluator::default(),
            config,
        ))))
    })
}

fn random() -> Engine<Onitama> {
    Engine::new("random", || -> Box<dyn Agent<Onitama>> {
        Box::new(RandomAgent::new(7))
    })
}

fn run(
    engines: Vec<Engine<Onitama>>,
    openings: Vec<Onitama>,
    config: ArenaConfig,
) -> Vec<GameRecord> {
    let arena = Arena::new(engines, openings, config).with_notation();
    arena.run(&arena.head_to_head(), &[], &mut |_, _| {})
}

#[test]
fn depth_three_crushes_random_with_either_colour() {
    let mut openings = deals();
    openings.extend(random_openings(&Onitama::start_position(), 11, 4, 2));
    let config = ArenaConfig {
        limits: SearchLimits::depth(3),
        max_plies: 300,
        ..ArenaConfig::default()
    };
    let records = run(vec![pvs("pvs"), random()], openings, config);
    assert_eq!(records.len(), 16);
    let names = vec!["pvs".to_string(), "random".to_string()];
    let standings = Standings::new(&names, &records);
    let pvs_line = &standings.engines[0];
    assert!(pvs_line.wdl.wins >= 15, "{}", standings.table());
    assert!(
        pvs_line.elo.lower.is_none_or(|lower| lower > 200.0),
        "{:?}",
        pvs_line.elo
    );
    for side in Side::BOTH {
        let won = records
            .iter()
            .filter(|r| r.side_of(0) == Some(side) && r.result == GameResult::win_for(side))
            .count();
        assert!(won >= 7, "pvs won only {won} of 8 as {side:?}");
    }
    println!("{}", standings.table());
    assert_eq!(standings.forfeits, 0);
    assert!(
        pvs_line.stats.mean_depth().is_some_and(|d| d >= 2.5),
        "depth 3 except for forced wins"
    );
}

#[test]
fn self_play_is_symmetric_and_colours_alternate() {
    let config = ArenaConfig {
        limits: SearchLimits::depth(2),
        max_plies: 60,
        ..ArenaConfig::default()
    };
    let records = run(vec![pvs("a"), pvs("b")], deals(), config);
    assert_eq!(records.len(), 2 * DEALS.len());
    for pair in records.chunks(2) {
        let (even, odd) = (&pair[0], &pair[1]);
        assert_eq!(even.opening, odd.opening);
        let start = Onitama::parse_position(DEALS[even.opening]).unwrap();
        assert_eq!(even.opening_position, Some(start.format_position()));
        assert_eq!(even.names, ["a", "b"]);
        assert_eq!(odd.names, ["b", "a"]);
        assert_eq!(even.engines, [0, 1]);
        assert_eq!(odd.engines, [1, 0]);
        // Same configuration with colours swapped: the very same game, won by the same colour.
        assert_eq!(even.moves, odd.moves);
        assert_eq!(even.result, odd.result);
        assert_eq!(even.wdl_for(0), odd.wdl_for(0).flipped());
        // The recorded moves replay legally from the opening to the recorded end.
        let end = start.play_line(&even.moves.join(" ")).unwrap();
        assert_eq!(
            end.outcome().is_some(),
            even.termination == Termination::Rules
        );
        assert_eq!(even.plies as usize, even.moves.len());
    }
    // Self-play scores exactly 50%.
    let standings = Standings::new(&["a".into(), "b".into()], &records);
    assert_eq!(standings.engines[0].wdl, standings.engines[0].wdl.flipped());
    assert_eq!(standings.engines[0].elo.elo, Some(0.0));
}

#[test]
fn runs_repeat_exactly_at_fixed_depth() {
    let make = || {
        let engines = vec![
            pvs("pvs"),
            Engine::new("alphabeta", || -> Box<dyn Agent<Onitama>> {
                Box::new(SearchAgent::new(Box::new(AlphaBeta::new(
                    PstEvaluator::default(),
                ))))
            }),
        ];
        let openings = random_openings(&Onitama::start_position(), 5, 3, 4);
        let config = ArenaConfig {
            limits: SearchLimits::depth(2),
            max_plies: 80,
            seed: 9,
            ..ArenaConfig::default()
        };
        run(engines, openings, config)
    };
    let key = |records: Vec<GameRecord>| -> Vec<_> {
        records
            .into_iter()
            .map(|r| (r.result, r.moves, r.stats.map(|s| (s.moves, s.nodes))))
            .collect()
    };
    assert_eq!(key(make()), key(make()));
}

#[test]
fn the_ply_cap_draws_every_game() {
    let config = ArenaConfig {
        limits: SearchLimits::depth(1),
        max_plies: 2,
        ..ArenaConfig::default()
    };
    let records = run(vec![pvs("pvs"), random()], deals(), config);
    for record in &records {
        assert_eq!(record.result, GameResult::Draw);
        assert_eq!(record.termination, Termination::PlyCap);
        assert_eq!(record.plies, 2);
    }
    let standings = Standings::new(&["pvs".into(), "random".into()], &records);
    assert_eq!(standings.ply_caps, records.len());
}

#[test]
fn time_limited_games_on_two_workers_finish_legally() {
    let config = ArenaConfig {
        limits: SearchLimits::time(std::time::Duration::from_millis(5)),
        max_plies: 12,
        workers: 2,
        ..ArenaConfig::default()
    };
    let records = run(vec![pvs("pvs"), random()], deals()[..2].to_vec(), config);
    assert_eq!(records.len(), 4);
    for record in &records {
        assert!(
            !matches!(record.termination, Termination::Forfeit { .. }),
            "{record:?}"
        );
        let start = Onitama::parse_position(record.opening_position.as_deref().unwrap()).unwrap();
        assert!(start.play_line(&record.moves.join(" ")).is_ok());
    }
}
