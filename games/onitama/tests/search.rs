//! Onitama through the core searchers: immediate wins are found and scored as wins, the full PVS
//! agrees with plain minimax on root values of a few positions, and every rung of the quiescence
//! ladder agrees with minimax-with-quiescence.

use plies::search::minimax::Minimax;
use plies::search::pvs::{Pvs, PvsConfig};
use plies::{Notation, Score, SearchLimits, Searcher};
use plies_onitama::{MaterialEvaluator, Onitama, PstEvaluator};

fn small_table() -> PvsConfig {
    PvsConfig {
        tt_mb: 1,
        ..PvsConfig::full()
    }
}

#[test]
fn finds_the_temple_win_in_one() {
    // Red's master on c4 holds Ox: c4-c5 wins at once (and nothing else does).
    let pos = Onitama::parse_position("5/2R2/5/4B/b1r2 r rooster,ox tiger,boar dragon").unwrap();
    let mut pvs = Pvs::new(PstEvaluator::default(), small_table());
    let result = pvs.search(&pos, &SearchLimits::depth(4));
    assert_eq!(result.score, Score::win_in(1));
    let mv = result.best_move.expect("a move");
    assert_eq!(pos.format_move(mv), "ox c4-c5");
}

#[test]
fn pvs_agrees_with_minimax_on_the_root_value() {
    for text in [
        "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon",
        "bbBbb/5/5/3R1/rr1rr b crane,horse tiger,ox rooster",
        "1bB1b/2b2/2r2/1R3/r3r b boar,goose rabbit,eel cobra",
    ] {
        let pos = Onitama::parse_position(text).unwrap();
        for depth in 1..=3 {
            let mut minimax = Minimax::new(MaterialEvaluator);
            let mut pvs = Pvs::new(MaterialEvaluator, small_table());
            let expected = minimax.search(&pos, &SearchLimits::depth(depth)).score;
            let got = pvs.search(&pos, &SearchLimits::depth(depth)).score;
            assert_eq!(got, expected, "{text} depth {depth}");
        }
    }
}

#[test]
fn quiescence_ladder_agrees_with_minimax_with_quiescence() {
    for text in [
        "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon",
        "bbBbb/5/5/3R1/rr1rr b crane,horse tiger,ox rooster",
        "1bB1b/2b2/2r2/1R3/r3r b boar,goose rabbit,eel cobra",
        "b1B1b/1b3/1rr2/3b1/r1R1r r crab,dragon monkey,tiger mantis",
    ] {
        let mut qnodes = 0;
        let pos = Onitama::parse_position(text).unwrap();
        let reference = Minimax::with_quiescence(PstEvaluator::default());
        for depth in 1..=3 {
            let values = reference.root_values(&pos, depth);
            let best = values.iter().map(|&(_, v)| v).max().unwrap();
            for (name, config) in PvsConfig::quiescence_ladder() {
                let result = Pvs::new(PstEvaluator::default(), config)
                    .search(&pos, &SearchLimits::depth(depth));
                assert_eq!(result.score, best, "{name} {text} depth {depth}");
                let mv = result.best_move.unwrap();
                assert!(
                    values.iter().any(|&(m, v)| m == mv && v == best),
                    "{name} {text} depth {depth}: {}",
                    pos.format_move(mv)
                );
                qnodes += result.stats.qnodes;
            }
        }
        assert!(
            text.contains("rrRrr") || qnodes > 0,
            "{text}: no quiescence"
        );
    }
}

#[test]
fn quiescence_sees_a_capture_beyond_the_horizon() {
    // Red's student on c2 can take the blue student on c3 (ox or boar), but the blue master
    // takes back with tiger (c5-c3): plain minimax at depth 1 counts the capture as a gain,
    // quiescence sees the recapture.
    let pos = Onitama::parse_position("2B2/5/2b2/2r2/r1R1r r ox,boar tiger,crab horse").unwrap();
    let plain = Minimax::new(MaterialEvaluator).search(&pos, &SearchLimits::depth(1));
    let quiet = Minimax::with_quiescence(MaterialEvaluator).search(&pos, &SearchLimits::depth(1));
    assert!(
        quiet.score < plain.score,
        "{} vs {}",
        quiet.score,
        plain.score
    );
}
