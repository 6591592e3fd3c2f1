//! The `ugi-engine` target: UGI host lines fed to the Kalah engine (`kalah ugi` through
//! [`plies_cli::run`], in process) as its whole stdin.
//!
//! Key invariant: whatever the lines, the engine ends at the end of its input (a running search
//! is stopped there), never panics, writes only whole UTF-8 lines, and every `bestmove` and
//! `response` line is exactly two tokens (what tournament managers read). Lines setting `Hash`
//! or `Threads` are left out: a legal 64 GB table or 256 threads would test the machine, not
//! the engine.

use plies_cli::{GameCli, evaluator};
use plies_kalah::StoreDifference;

use crate::driver::Target;

/// The target.
pub fn target() -> Target {
    Target {
        name: "ugi-engine",
        about: "UGI host lines fed to the Kalah engine as its stdin, in process",
        seeds,
        dictionary: &[
            "ugi\n",
            "isready\n",
            "uginewgame\n",
            "position startpos",
            "position fen ",
            " moves ",
            "4,4,4|0 4,4,4|0 n",
            "go depth ",
            "go movetime ",
            "go nodes ",
            "go infinite\n",
            "go ponder ",
            "ponderhit\n",
            "p1time 100 p2time 100 p1inc 1 p2inc 1",
            "stop\n",
            "query gameover\n",
            "query p1turn\n",
            "query result\n",
            "setoption name Searcher value mcts\n",
            "setoption name Ponder value true\n",
            "quit\n",
            "a",
            "f",
            "\n",
        ],
        run,
    }
}

fn seeds() -> Vec<Vec<u8>> {
    vec![
        b"ugi\nisready\nuginewgame\nposition startpos\nquery p1turn\ngo depth 3\nquery gameover\nquit\n"
            .to_vec(),
        b"position startpos moves a b\ngo p1time 100 p2time 100 p1inc 1 p2inc 1\nstop\nquery result\n"
            .to_vec(),
        b"setoption name Ponder value true\ngo ponder movetime 5\nisready\nponderhit\n".to_vec(),
        b"go infinite\nisready\nstop\nposition fen 1,0,0|20 0,0,1|25 s\ngo nodes 50\n".to_vec(),
    ]
}

fn run(input: &[u8]) {
    let kept: Vec<u8> = input
        .split_inclusive(|&b| b == b'\n')
        .filter(|line| {
            let lower = line.to_ascii_lowercase();
            !lower.windows(4).any(|w| w == b"hash") && !lower.windows(7).any(|w| w == b"threads")
        })
        .take(64)
        .flatten()
        .copied()
        .collect();
    let spec = GameCli::new("kalah", evaluator(StoreDifference::default()));
    let mut reader = &kept[..];
    let mut out = Vec::new();
    let args = ["kalah", "ugi"].map(String::from);
    plies_cli::run(&spec, args, &mut reader, &mut out).expect("the engine runs to the end");
    let text = String::from_utf8(out).expect("the engine writes UTF-8");
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "a cut line: {text:?}"
    );
    for line in text.lines() {
        if line.starts_with("bestmove") || line.starts_with("response") {
            assert_eq!(line.split_whitespace().count(), 2, "{line:?}");
        }
    }
}
