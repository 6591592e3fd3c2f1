//! Onitama through the core searchers: immediate wins are found and scored as wins, and the
//! full PVS agrees with plain minimax on root values of a few positions.

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
