//! Onitama through the core searchers: immediate wins are found and scored as wins, the full PVS
//! agrees with plain minimax on root values of a few positions, and every rung of the quiescence
//! ladder agrees with minimax-with-quiescence.

use plies::search::Minimax;
use plies::search::{Pvs, PvsConfig};
use plies::search::{SearchLimits, Searcher};
use plies::{Notation, Score};
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

/// The bench sample: the side to move has a forced win in 19 plies that the full search first
/// sees at a nominal depth well below 19 (through threat extensions).
const PROVEN_SAMPLE: &str = plies_onitama::SAMPLE_POSITION;

/// More nodes than the proof needs by far, and far fewer than deepening until the win lies
/// within the nominal depth (about 150 M): a search still running at the limit failed.
const PROOF_NODES: u64 = 60_000_000;

fn assert_stopped_at_the_proof(result: &plies::search::SearchResult<plies_onitama::Move>) {
    let plies = result.score.plies_to_end();
    assert!(
        result.score.is_win(),
        "{} at depth {}",
        result.score,
        result.depth
    );
    // The proof lies beyond the nominal depth: the early stop is what is tested.
    assert!(plies.unwrap() > result.depth + 1, "{}", result.depth);
    assert!(result.stats.nodes < PROOF_NODES, "{}", result.stats.nodes);
}

#[test]
fn a_proven_win_ends_a_node_limited_search() {
    let pos = Onitama::parse_position(PROVEN_SAMPLE).unwrap();
    let mut pvs = Pvs::new(PstEvaluator::tuned(), PvsConfig::full());
    let result = pvs.search(&pos, &SearchLimits::nodes(PROOF_NODES));
    assert_stopped_at_the_proof(&result);
    // The same with two threads (their node counts are summed against the limit).
    let mut pvs = Pvs::new(PstEvaluator::tuned(), PvsConfig::full().with_threads(2));
    let threaded = pvs.search(&pos, &SearchLimits::nodes(PROOF_NODES));
    assert_stopped_at_the_proof(&threaded);
}

#[test]
fn a_proven_win_ends_analysis_under_a_depth_limit_only_when_asked() {
    let pos = Onitama::parse_position(PROVEN_SAMPLE).unwrap();
    let mut pvs = Pvs::new(PstEvaluator::tuned(), PvsConfig::full());
    let mut depths = Vec::new();
    let result = pvs.search_with(
        &pos,
        &plies::GameHistory::default(),
        &SearchLimits::depth(30).until_proven(),
        &mut |it| depths.push((it.depth, it.score.is_decisive())),
    );
    assert_stopped_at_the_proof(&result);
    // The first decisive iteration is the last one.
    assert_eq!(depths.iter().filter(|&&(_, decisive)| decisive).count(), 1);
    assert_eq!(depths.last(), Some(&(result.depth, true)));
    // Without the flag a fixed depth is searched in full, proof or not.
    let mut pvs = Pvs::new(PstEvaluator::tuned(), PvsConfig::full());
    let fixed = pvs.search(&pos, &SearchLimits::depth(result.depth + 1));
    assert_eq!(fixed.depth, result.depth + 1);
}
