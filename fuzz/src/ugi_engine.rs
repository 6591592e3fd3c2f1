//! The `ugi-engine` target: UGI host lines fed to the Kalah engine (`kalah ugi` through
//! [`plies_cli::run`], in process) as its whole stdin.
//!
//! Key invariant: whatever the lines, the engine ends at the end of its input (a running search
//! is stopped there), never panics, writes only whole UTF-8 lines, and every `bestmove` and
//! `response` line is exactly two tokens (what tournament managers read). Lines setting `Hash`
//! or `Threads` are left out: a legal 64 GB table or 256 threads would test the machine, not
//! the engine.
//!
//! An input starting `#race` is a host racing the engine instead (`race`): games of
//! [`RACE_GOS`] `go`s, each sent the moment the previous `bestmove` is read, the input's lines
//! in between; every `go` must get exactly one `bestmove` and none may be refused.

use std::io::Write;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

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
            "setoption name Move Overhead value 0\n",
            "setoption name Clear Hash\n",
            "setoption name Searcher value\n",
            "go mate 3\n",
            "go\n",
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
        b"#race\nisready\nquery p1turn\n\nquery gameover\n".to_vec(),
    ]
}

fn run(input: &[u8]) {
    if let Some(lines) = input.strip_prefix(b"#race") {
        race(lines);
        return;
    }
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

/// `go`s per game of a race.
pub const RACE_GOS: usize = 200;

/// Games per race.
const RACE_GAMES: usize = 2;

/// How long a race waits for a `bestmove` before calling it lost.
const RACE_WAIT: Duration = Duration::from_secs(10);

/// The engine's stdout in a race, waking the host at each write. The flush of a `bestmove`
/// takes [`SLOW_FLUSH`]: a slow pipe, where the host reads the line while the engine's write
/// of it has not returned yet (the window in which the old engine refused the next `go`).
#[derive(Clone, Default)]
struct Watched(Arc<(Mutex<Vec<u8>>, Condvar)>, bool);

impl Write for Watched {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let (text, grew) = &*self.0;
        text.lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(bytes);
        grew.notify_all();
        self.1 |= bytes.starts_with(b"bestmove");
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        if self.1 {
            self.1 = false;
            std::thread::sleep(SLOW_FLUSH);
        }
        Ok(())
    }
}

/// How long a flush of the engine's output takes in a race.
const SLOW_FLUSH: Duration = Duration::from_micros(300);

impl Watched {
    /// The move of the first whole `bestmove` line from byte `from` on (waiting for it, at
    /// most [`RACE_WAIT`]), and where the text after it starts.
    fn next_bestmove(&self, from: usize) -> (String, usize) {
        let (text, grew) = &*self.0;
        let since = Instant::now();
        let mut text = text.lock().unwrap_or_else(|e| e.into_inner());
        let mut at = from;
        loop {
            while let Some(end) = text[at..].iter().position(|&b| b == b'\n') {
                let line = String::from_utf8_lossy(&text[at..at + end]).into_owned();
                at += end + 1;
                if let Some(mv) = line.strip_prefix("bestmove ") {
                    return (mv.to_string(), at);
                }
            }
            let left = RACE_WAIT.checked_sub(since.elapsed()).unwrap_or_else(|| {
                panic!(
                    "a go got no bestmove in {RACE_WAIT:?}; the engine said:\n{}",
                    String::from_utf8_lossy(&text)
                )
            });
            text = grew
                .wait_timeout(text, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

/// A host racing the engine: [`RACE_GAMES`] games of [`RACE_GOS`] `go`s, each sent the moment
/// the previous `bestmove` is read, every other one with the position of the game so far and
/// one of `lines` (the input's, `go`s and lines that would test the machine left out) before
/// it. Panics
/// when a `go` is refused or gets no `bestmove`, or gets more than one.
fn race(lines: &[u8]) {
    let extra: Vec<String> = String::from_utf8_lossy(lines)
        .lines()
        .map(str::trim)
        .filter(|line| {
            let lower = line.to_ascii_lowercase();
            !lower.starts_with("go")
                && !lower.starts_with("quit")
                && !["hash", "threads", "weights", "tables"]
                    .iter()
                    .any(|word| lower.contains(word))
        })
        .take(64)
        .map(str::to_string)
        .collect();
    let (to, from): (Sender<String>, Receiver<String>) = channel();
    let out = Watched::default();
    let mut output = out.clone();
    let engine = std::thread::spawn(move || {
        let spec = GameCli::new("kalah", evaluator(StoreDifference::default()));
        let mut input = plies_cli::ChannelInput::new(from);
        let args = ["kalah", "ugi"].map(String::from);
        plies_cli::run(&spec, args, &mut input, &mut output).expect("the engine runs");
    });
    let send = |line: &str| {
        let _ = to.send(format!("{line}\n"));
    };
    let gos = [
        "go depth 1",
        "go nodes 16",
        "go depth 2",
        "go nodes 40 p1time 100 p2time 100 p1inc 1 p2inc 1",
    ];
    let mut read = 0;
    let mut sent = 0;
    for game in 0..RACE_GAMES {
        send("uginewgame");
        let mut moves: Vec<String> = Vec::new();
        for i in 0..RACE_GOS {
            // Every other `go` comes straight after the `bestmove` before it (a search of the
            // same position again); the others after one of the input's lines and the
            // position of the game so far.
            if i % 2 == 0 {
                if let Some(line) = extra.get((game * RACE_GOS + i) % extra.len().max(1)) {
                    send(line);
                }
                if moves.is_empty() {
                    send("position startpos");
                } else {
                    send(&format!("position startpos moves {}", moves.join(" ")));
                }
            }
            send(gos[i % gos.len()]);
            sent += 1;
            let (mv, next) = out.next_bestmove(read);
            read = next;
            if mv == "0000" {
                moves.clear(); // the game is over (or the line before spoilt it): a new one
            } else if i % 2 == 1 {
                moves.push(mv);
            }
        }
    }
    send("isready");
    drop(to);
    engine.join().expect("the engine thread ends");
    let text = out.text();
    assert!(
        !text.contains("a search is running"),
        "a go was refused after bestmove:\n{text}"
    );
    let answered = text.lines().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(answered, sent, "not one bestmove per go:\n{text}");
}
