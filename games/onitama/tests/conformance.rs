//! The conformance suite on Onitama: several deals (base and Sensei's Path cards), random games
//! to their end, every rules invariant at every position.
//!
//! Key invariant: the start positions are written in the project notation
//! (docs/rules/onitama.md), not produced by the crate.

use plies::Notation;
use plies::harness::check_conformance;
use plies_onitama::Onitama;

/// Deals from the rules document's perft tables, its pass test, two Sensei's Path deals, and
/// (added below) the default start.
pub const DEALS: [&str; 7] = [
    "bbBbb/5/5/5/rrRrr b horse,elephant ox,boar crab",
    "bbBbb/5/5/5/rrRrr r rooster,tiger rabbit,cobra frog",
    "bbBbb/5/5/5/rrRrr r goose,dragon mantis,eel crane",
    "bbBbb/5/5/5/rrRrr b monkey,tiger crab,dragon mantis",
    "4R/4r/4r/B3r/4r r tiger,ox crab,boar horse",
    "bbBbb/5/5/5/rrRrr b kirin,phoenix seasnake,fox giraffe",
    "bbBbb/5/5/5/rrRrr r turtle,dog bear,panda viper",
];

#[test]
fn onitama_conforms() {
    let mut starts: Vec<Onitama> = DEALS
        .iter()
        .map(|d| Onitama::parse_position(d).unwrap_or_else(|e| panic!("{d}: {e}")))
        .collect();
    starts.push(Onitama::start_position());
    let report = check_conformance(&starts, 77, 40, 150).unwrap_or_else(|f| panic!("{f}"));
    println!("onitama conformance: {report}");
    assert_eq!(report.games, 8 * 40);
    assert!(report.finished_games > 0);
}
