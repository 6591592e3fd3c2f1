//! The UGI engine on the toy game `TwoPiles` (piles `a b side`, moves `a2`), driven line by
//! line as a host drives it: each script line is sent once the engine's answers so far hold
//! what the line before it waits for.
//!
//! Key invariant: the expected moves come from the searcher run in process on the same
//! position, never from the engine under test.

use std::io::{BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use plies::Notation;
use plies::search::SearchLimits;
use plies::testing::{PileDifference, TwoPiles};

use super::*;
use crate::evaluator;

/// The engine's output, shared with the test.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Shared {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A host's lines. A line `@wait TEXT` is not sent: it waits until the output holds `TEXT`
/// one more time than when the previous `@wait` for it ended (at most 20 s).
struct Script {
    lines: Vec<Vec<u8>>,
    next: usize,
    at: usize,
    out: Shared,
    seen: std::collections::HashMap<String, usize>,
}

impl Script {
    fn new(lines: &[&str], out: &Shared) -> Script {
        Script {
            lines: lines
                .iter()
                .map(|l| format!("{l}\n").into_bytes())
                .collect(),
            next: 0,
            at: 0,
            out: out.clone(),
            seen: Default::default(),
        }
    }

    fn wait(&mut self, text: &str) {
        let want = self.seen.get(text).copied().unwrap_or(0) + 1;
        let since = Instant::now();
        while self.out.text().matches(text).count() < want {
            assert!(
                since.elapsed() < Duration::from_secs(20),
                "waited in vain for {text:?}; the engine said:\n{}",
                self.out.text()
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        self.seen.insert(text.to_string(), want);
    }
}

impl Read for Script {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Script {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.next < self.lines.len() {
            let line = String::from_utf8_lossy(&self.lines[self.next]).into_owned();
            match line.trim_end().strip_prefix("@wait ") {
                Some(text) => {
                    self.wait(text);
                    self.next += 1;
                }
                None => break,
            }
        }
        Ok(self.lines.get(self.next).map_or(&[][..], |l| &l[self.at..]))
    }
    fn consume(&mut self, n: usize) {
        self.at += n;
        if self.next < self.lines.len() && self.at >= self.lines[self.next].len() {
            self.next += 1;
            self.at = 0;
        }
    }
}

fn spec() -> GameCli<TwoPiles> {
    GameCli::new("twopiles", evaluator(PileDifference))
}

/// Runs the engine on `lines`; everything it wrote.
fn session(lines: &[&str]) -> String {
    let out = Shared::default();
    let mut input = Script::new(lines, &out);
    let mut output = out.clone();
    let args = UgiArgs {
        searcher: "pvs".into(),
        tables: crate::tables::TablesArgs::default(),
    };
    run(&spec(), &args, &mut input, &mut output).unwrap();
    out.text()
}

fn lines_starting<'t>(text: &'t str, prefix: &str) -> Vec<&'t str> {
    text.lines().filter(|l| l.starts_with(prefix)).collect()
}

/// `isready` was answered while the search ran: `readyok` comes before `bestmove`.
fn assert_readyok_first(text: &str) {
    let lines: Vec<&str> = text.lines().collect();
    let ready = lines.iter().position(|l| *l == "readyok").unwrap();
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove "))
        .unwrap();
    assert!(ready < best, "isready answered during the search: {text}");
}

/// The move the in-process searcher picks at `depth` in `position`.
fn in_process(position: &str, depth: u32) -> String {
    let state = TwoPiles::parse_position(position).unwrap();
    let spec = parse_searcher("pvs").unwrap();
    let mut searcher = evaluator(PileDifference).searcher(&spec, None).unwrap();
    let result = searcher.search(&state, &SearchLimits::depth(depth));
    state.format_move_token(result.best_move.unwrap())
}

#[test]
fn handshake_names_the_engine_and_its_options() {
    let text = session(&["ugi", "isready"]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("id name plies twopiles "), "{text}");
    assert_eq!(lines[1], "id author the plies developers");
    for option in ["Hash", "Threads", "Searcher", "Ponder"] {
        assert!(
            text.contains(&format!("option name {option} type ")),
            "{option}: {text}"
        );
    }
    let ugiok = lines.iter().position(|l| *l == "ugiok").unwrap();
    assert_eq!(lines.get(ugiok + 1), Some(&"readyok"), "{text}");
    assert!(!text.contains("error"), "{text}");
}

/// The exchange cutegames performs for each move (as its `play_game` and `UGIEngine` send
/// it): readiness, a new game, the position sent twice around `query gameover`, `query
/// p1turn` to find the mover, a clocked `go`, and `query result` at the end.
#[test]
fn the_cutegames_exchange() {
    let text = session(&[
        "ugi",
        "@wait ugiok",
        "isready",
        "@wait readyok",
        "uginewgame",
        "position startpos",
        "query p1turn",
        "@wait response",
        "isready",
        "@wait readyok",
        "position startpos",
        "position startpos",
        "query gameover",
        "@wait response",
        "go p1time 1000 p2time 1000 p1inc 10 p2inc 10",
        "@wait bestmove",
        "position startpos moves a1",
        "query p1turn",
        "@wait response",
        "position startpos moves a1",
        "query result",
        "@wait response",
        "quit",
    ]);
    let responses = lines_starting(&text, "response ");
    assert_eq!(
        responses,
        [
            "response true",
            "response false",
            "response false",
            "response none"
        ],
        "{text}"
    );
    let best = lines_starting(&text, "bestmove ");
    assert_eq!(best.len(), 1, "{text}");
    let words: Vec<&str> = best[0].split_whitespace().collect();
    assert_eq!(words.len(), 2, "exactly two tokens: {text}");
    let start = TwoPiles::start_position();
    assert!(start.parse_move(words[1]).is_ok(), "{text}");
    assert!(!text.contains("error"), "{text}");
}

/// `go depth N` answers what the same searcher in process answers at depth N, with one info
/// line per depth; the table kept from the previous search changes nothing at a fixed depth.
#[test]
fn fixed_depth_is_the_in_process_search() {
    for (position, depth) in [("7 5 1", 4), ("6 4 2", 5), ("3 3 1", 6)] {
        let text = session(&[
            &format!("position fen {position}"),
            &format!("go depth {depth}"),
            "@wait bestmove",
            &format!("go depth {depth}"),
            "@wait bestmove",
        ]);
        let expected = in_process(position, depth);
        assert_eq!(
            lines_starting(&text, "bestmove "),
            [
                format!("bestmove {expected}"),
                format!("bestmove {expected}")
            ],
            "{text}"
        );
        let infos = lines_starting(&text, "info depth ");
        assert!(infos.len() >= depth as usize, "{text}");
        let last = infos.last().unwrap();
        for field in [
            " seldepth ",
            " score ",
            " time ",
            " nodes ",
            " nps ",
            " hashfull ",
            " pv ",
        ] {
            assert!(last.contains(field), "{field}: {last}");
        }
    }
}

/// An infinite search answers only after `stop`; `isready` is answered while it runs.
#[test]
fn stop_and_isready_during_an_infinite_search() {
    let text = session(&[
        "position fen 15 15 1",
        "go infinite",
        "@wait info depth",
        "isready",
        "@wait readyok",
        "stop",
        "@wait bestmove",
        "isready",
        "@wait readyok",
    ]);
    assert_readyok_first(&text);
}

/// `quit` (or the end of the input) during a search ends the engine.
#[test]
fn quit_during_a_search_ends_it() {
    let started = Instant::now();
    let text = session(&[
        "position fen 15 15 1",
        "go infinite",
        "@wait info depth",
        "quit",
    ]);
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(lines_starting(&text, "bestmove ").len(), 1, "{text}");
    let text = session(&["go infinite", "@wait info depth"]);
    assert_eq!(lines_starting(&text, "bestmove ").len(), 1, "{text}");
}

/// A ponder search answers after `ponderhit` and its budget, not before.
#[test]
fn ponderhit_turns_the_ponder_search_into_the_real_one() {
    let text = session(&[
        "setoption name Ponder value true",
        "position fen 15 15 1",
        "go ponder p1time 2000 p2time 2000",
        "@wait info depth",
        "isready",
        "@wait readyok",
        "ponderhit",
        "@wait bestmove",
    ]);
    assert_readyok_first(&text);
    assert!(!text.contains("error"), "{text}");
}

/// A finished game: `query` says so and `go` answers `bestmove 0000`.
#[test]
fn a_finished_game_is_reported() {
    let text = session(&[
        "position fen 1 1 1 moves a1 b1",
        "query gameover",
        "query result",
        "go depth 3",
        "@wait bestmove",
    ]);
    assert_eq!(
        lines_starting(&text, "response "),
        ["response true", "response p2win"],
        "{text}"
    );
    assert_eq!(
        lines_starting(&text, "bestmove "),
        ["bestmove 0000"],
        "{text}"
    );
}

/// Every malformed line gets `info string error ...` naming what is wrong, and the engine
/// carries on (the last `isready` is answered); a bad position leaves the old one.
#[test]
fn malformed_lines_are_errors_and_the_engine_carries_on() {
    let cases = [
        ("fly away", "unknown command 'fly'"),
        ("position", "expected 'position startpos'"),
        ("position fen 99 1 1", "bad position"),
        ("position startpos moves a1 c9", "move 2 ('c9')"),
        ("go depth 0", "go depth 0"),
        ("go depth x", "expected a whole number"),
        ("go sideways", "unknown argument 'sideways'"),
        ("go movetime", "a number is missing"),
        ("setoption name Hash value lots", "Hash 'lots'"),
        ("setoption name Colour value red", "no option 'Colour'"),
        ("setoption name Searcher value nosuch", "Searcher"),
        ("setoption Hash 5", "expected 'setoption name"),
        ("query mood", "unknown query 'mood'"),
        ("ponderhit", "without a ponder search"),
    ];
    let mut lines: Vec<&str> = vec!["position fen 6 4 2"];
    lines.extend(cases.iter().map(|(line, _)| *line));
    lines.extend(["query p1turn", "isready", "@wait readyok"]);
    let text = session(&lines);
    let errors = lines_starting(&text, "info string error ");
    assert_eq!(errors.len(), cases.len(), "{text}");
    for ((line, words), error) in cases.iter().zip(&errors) {
        assert!(error.contains(words), "{line:?} gave {error:?}");
    }
    // The position of the first line stands: side 2 to move.
    assert!(text.contains("response false"), "{text}");
    assert!(text.ends_with("readyok\n"), "{text}");
}

#[test]
fn a_line_that_is_not_utf8_is_an_error() {
    let out = Shared::default();
    let mut input: &[u8] = b"\xff\xfe\nisready\n";
    let mut output = out.clone();
    let args = UgiArgs {
        searcher: "pvs".into(),
        tables: crate::tables::TablesArgs::default(),
    };
    run(&spec(), &args, &mut input, &mut output).unwrap();
    assert_eq!(
        out.text(),
        "info string error a line that is not UTF-8\nreadyok\n"
    );
}

#[test]
fn go_budgets_from_the_movers_clock() {
    let ms = Duration::from_millis;
    let clock = plies::search::Clock {
        remaining: [ms(1000), ms(500)],
        increment: [ms(10), ms(20)],
    };
    let go = GoArgs::parse("p1time 1000 p2time 500 p1inc 10 p2inc 20").unwrap();
    assert_eq!(
        go.budget(plies::Side::First),
        Some(clock.budget(plies::Side::First))
    );
    assert_eq!(
        go.budget(plies::Side::Second),
        Some(clock.budget(plies::Side::Second))
    );
    assert_eq!(
        GoArgs::parse("movetime 70")
            .unwrap()
            .budget(plies::Side::First),
        Some(Duration::from_millis(70))
    );
    assert_eq!(
        GoArgs::parse("depth 3").unwrap().budget(plies::Side::First),
        None
    );
}
