//! The search knows threefold repetition: for each `tfr` policy (w, l, d, the official
//! Copenhagen defenders-lose rule, i) a position where one move would make the third
//! occurrence, searched by PVS with and without the game's history; and real Copenhagen games
//! replayed through the generic game loop's bookkeeping ([`plies::GameHistory`], what the arena
//! and `play` use) end by repetition exactly where [`GameRecord`] says.
//!
//! Key invariant: expectations come from the rules text (docs/rules/tafl.md), not from the searcher.

use plies::search::{Minimax, Pvs, PvsConfig};
use plies::search::{SearchLimits, Searcher};
use plies::{Game, GameHistory, Notation, Outcome, Score, Side};
use plies_tafl::rules::Repetition;
use plies_tafl::{GameRecord, Tafl, TaflEvaluator, start_of};

use crate::common;

/// A Copenhagen position under `repetition` where the attackers shuttle c3-c4-c3 and the
/// defenders h8-h9-h8, `first` moving first; after seven moves the other side to move would make
/// the start position occur the third time with its next shuttle move. Returns the record and
/// that move.
fn shuttle(repetition: Repetition, first: Side) -> (GameRecord, plies_tafl::TaflMove) {
    let text = common::board_text(11, &[("f6", 'K'), ("c3", 't'), ("h8", 'T'), ("e8", 't')]);
    let base = Tafl::parse_position(&format!("copenhagen {text} a")).unwrap();
    let mut rules = base.rules().clone();
    rules.repetition = repetition;
    let rules: &'static plies_tafl::Rules = Box::leak(Box::new(rules));
    let start = Tafl::new(rules, *base.board(), first);
    let mut record = GameRecord::new(start);
    let (attackers, defenders) = (["c3-c4", "c4-c3"], ["h8-h9", "h9-h8"]);
    let (a, b) = if first == Side::First {
        (attackers, defenders)
    } else {
        (defenders, attackers)
    };
    for i in 0..7 {
        let pair = if i % 2 == 0 { a } else { b };
        record.play_text(pair[(i / 2) % 2]).unwrap();
    }
    assert_eq!(record.current().side_to_move(), first.opponent());
    let repeat = record.current().parse_move(b[1]).unwrap();
    assert_eq!(record.current().play(repeat).hash(), start.hash());
    assert!(record.current().outcome().is_none());
    (record, repeat)
}

/// The depth-1 minimax value of `mv` with and without the history.
fn one_ply(record: &GameRecord, mv: plies_tafl::TaflMove) -> (Score, Score) {
    let mm = Minimax::new(TaflEvaluator::default());
    let state = record.current();
    let find = |values: Vec<(plies_tafl::TaflMove, Score)>| {
        values.into_iter().find(|&(m, _)| m == mv).unwrap().1
    };
    (
        find(mm.root_values_in(state, record.history(), 1)),
        find(mm.root_values(state, 1)),
    )
}

fn pvs() -> Pvs<Tafl, TaflEvaluator> {
    Pvs::new(TaflEvaluator::default(), PvsConfig::full())
}

#[test]
fn mover_loses_w_the_search_avoids_the_repetition_only_with_the_history() {
    let (record, repeat) = shuttle(Repetition::MoverLoses, Side::Second);
    let (seen, blind) = one_ply(&record, repeat);
    assert_eq!(seen, Score::loss_in(1));
    assert!(!blind.is_decisive());
    let result = pvs().search_in(record.current(), record.history(), &SearchLimits::depth(4));
    assert_ne!(result.best_move, Some(repeat));
    // The king escapes soon whatever the attackers do, but not as soon as the repetition loses.
    assert_ne!(result.score, Score::loss_in(1));
}

#[test]
fn mover_wins_l_the_search_seeks_the_repetition_only_with_the_history() {
    let (record, repeat) = shuttle(Repetition::MoverWins, Side::Second);
    let result = pvs().search_in(record.current(), record.history(), &SearchLimits::depth(4));
    assert_eq!(result.best_move, Some(repeat));
    assert_eq!(result.score, Score::win_in(1));
    let blind = pvs().search(record.current(), &SearchLimits::depth(4));
    assert_ne!(blind.score, Score::win_in(1));
}

#[test]
fn defenders_lose_copenhagen_attackers_seek_it_and_defenders_avoid_it() {
    // The attackers complete the repetition: the defenders lose, so the attackers want it.
    let (record, repeat) = shuttle(Repetition::DefendersLose, Side::Second);
    let result = pvs().search_in(record.current(), record.history(), &SearchLimits::depth(4));
    assert_eq!(result.best_move, Some(repeat));
    assert_eq!(result.score, Score::win_in(1));
    let blind = pvs().search(record.current(), &SearchLimits::depth(4));
    assert_ne!(blind.score, Score::win_in(1));
    // With the attackers moving first the defenders would complete it: they lose by it, so
    // they avoid it.
    let (record, repeat) = shuttle(Repetition::DefendersLose, Side::First);
    let (seen, blind) = one_ply(&record, repeat);
    assert_eq!(seen, Score::loss_in(1));
    assert!(!blind.is_decisive());
    let result = pvs().search_in(record.current(), record.history(), &SearchLimits::depth(4));
    assert_ne!(result.best_move, Some(repeat));
}

#[test]
fn draw_d_the_repetition_is_worth_a_draw_with_the_history() {
    let (record, repeat) = shuttle(Repetition::Draw, Side::Second);
    let (seen, blind) = one_ply(&record, repeat);
    assert_eq!(seen, Score::DRAW);
    assert!(!blind.is_decisive());
    // The attackers can always take the draw: with the history the search never scores below
    // it, and takes it exactly when it knows nothing better.
    let result = pvs().search_in(record.current(), record.history(), &SearchLimits::depth(4));
    assert!(result.score >= Score::DRAW);
    if result.score == Score::DRAW {
        assert_eq!(result.best_move, Some(repeat));
    }
}

#[test]
fn ignore_i_the_history_changes_nothing() {
    let (record, _) = shuttle(Repetition::Ignore, Side::Second);
    assert!(!record.current().has_repetition_rule());
    let seen = pvs().search_in(record.current(), record.history(), &SearchLimits::depth(4));
    let blind = pvs().search(record.current(), &SearchLimits::depth(4));
    assert_eq!(seen.stats.nodes, blind.stats.nodes);
    assert_eq!((seen.score, seen.best_move), (blind.score, blind.best_move));
    // While with a rule the same search differs.
    let (record, _) = shuttle(Repetition::MoverLoses, Side::Second);
    let seen = pvs().search_in(record.current(), record.history(), &SearchLimits::depth(4));
    let blind = pvs().search(record.current(), &SearchLimits::depth(4));
    assert_ne!(seen.stats.nodes, blind.stats.nodes);
}

#[test]
fn real_copenhagen_games_end_by_repetition_in_the_game_loop_as_the_record_says() {
    let data = include_str!("data/copenhagen.csv");
    let mut ended = 0;
    for line in data.lines() {
        let moves = line.split(',').next().unwrap_or("");
        let start: Tafl = start_of("copenhagen_official").unwrap();
        let mut record = GameRecord::new(start);
        let mut state = start;
        let mut history = GameHistory::new(&state);
        let mut loop_end = None;
        for (ply, token) in moves.split_whitespace().enumerate() {
            if token == "timeout" || record.current().outcome().is_some() {
                break;
            }
            let text = token.split('x').next().unwrap();
            let Ok(mv) = record.play_text(text) else {
                break;
            };
            let mover = state.side_to_move();
            state = state.play(mv);
            if let Some(outcome) = history.play(mover, &state) {
                loop_end = Some((ply + 1, outcome));
                break;
            }
        }
        if record.ended_by_repetition() {
            ended += 1;
            let expected = (record.moves().len(), record.current().outcome().unwrap());
            assert_eq!(loop_end, Some(expected), "{moves}");
            // The official rule: the defenders lose.
            assert_eq!(expected.1, Outcome::Win(Side::First));
        } else {
            assert_eq!(loop_end, None, "{moves}");
        }
    }
    eprintln!("{ended} real games end by repetition");
    assert!(ended >= 1, "no game of the data ends by repetition");
}
