//! The UGI engine on the toy game `TwoPiles` (piles `a b side`, moves `a2`), driven line by
//! line as a host drives it: each script line is sent once the engine's answers so far hold
//! what the line before it waits for.
//!
//! Key invariant: the expected moves come from the searcher run in process on the same
//! position, never from the engine under test; each reproduction of a fixed bug waits for an
//! answer the old engine never gave (the wait fails after 20 s) or counts what it got wrong.

use std::collections::HashMap;
use std::io::{BufRead, Read, Write};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use plies::Notation;
use plies::search::{SearchLimits, SearchStats};
use plies::solve::{Probe, TableValue};
use plies::testing::{PileDifference, TwoPiles};
use plies::{Evaluator, Score};

use super::*;
use crate::evaluator;

/// The engine's output, shared with the test; each flush takes `.1` (a slow pipe: the host
/// reads a line while the engine's write of it has not returned yet).
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>, Duration);

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
        std::thread::sleep(self.1);
        Ok(())
    }
}

/// A host's lines. A line `@wait TEXT` is not sent: it waits until the output holds `TEXT`
/// one more time than when the previous `@wait` for it ended (at most 20 s). A line `@open`
/// is not sent either: it opens [`GATE`] (the gated table build goes on).
struct Script {
    lines: Vec<Vec<u8>>,
    next: usize,
    at: usize,
    out: Shared,
    seen: HashMap<String, usize>,
    /// When each line was taken whole by the engine, and when each `@wait` ended.
    log: Arc<Mutex<Vec<(String, Instant)>>>,
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
            log: Arc::default(),
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
            // At once at first, as a quick host answers; then without burning a core.
            if since.elapsed() < Duration::from_millis(100) {
                std::thread::yield_now();
            } else {
                std::thread::sleep(Duration::from_millis(1));
            }
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
            let line = line.trim_end();
            if line == "@open" {
                GATE.store(true, Ordering::SeqCst);
                self.next += 1;
                continue;
            }
            match line.strip_prefix("@wait ") {
                Some(text) => {
                    self.wait(text);
                    self.log
                        .lock()
                        .unwrap()
                        .push((line.to_string(), Instant::now()));
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
            let line = String::from_utf8_lossy(&self.lines[self.next]);
            let line = line.trim_end().to_string();
            self.log.lock().unwrap().push((line, Instant::now()));
            self.next += 1;
            self.at = 0;
        }
    }
}

fn spec() -> GameCli<TwoPiles> {
    GameCli::new("twopiles", evaluator(PileDifference))
}

fn args() -> UgiArgs {
    UgiArgs {
        searcher: "pvs".parse().unwrap(),
        tables: crate::tables::TablesArgs::default(),
        store: crate::store::StoreArgs {
            store: Some(crate::store::StoreLocation::Off),
            store_limit: crate::store::DEFAULT_LIMIT.parse().unwrap(),
        },
    }
}

/// Runs the engine on `lines`; everything it wrote.
fn session(lines: &[&str]) -> String {
    session_of(&spec(), lines).0
}

/// Runs the engine of `spec` on `lines`; everything it wrote, and when each line was sent
/// and each `@wait` ended.
fn session_of<G: View>(spec: &GameCli<G>, lines: &[&str]) -> (String, Vec<(String, Instant)>) {
    session_flushing(spec, lines, Duration::ZERO)
}

/// [`session_of`], each flush of the output taking `flush`.
fn session_flushing<G: View>(
    spec: &GameCli<G>,
    lines: &[&str],
    flush: Duration,
) -> (String, Vec<(String, Instant)>) {
    let out = Shared(Arc::default(), flush);
    let mut input = Script::new(lines, &out);
    let log = Arc::clone(&input.log);
    let mut output = out.clone();
    run(spec, &args(), &mut input, &mut output).unwrap();
    let log = log.lock().unwrap().clone();
    (out.text(), log)
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
    let spec: SearcherSpec = "pvs".parse().unwrap();
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
/// carries on (the last `isready` is answered); a `go` it cannot read also gets `bestmove 0000`.
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
        ("query mood", "no position"),
        ("ponderhit", "without a ponder search"),
    ];
    let mut lines: Vec<&str> = cases.iter().map(|(line, _)| *line).collect();
    lines.extend([
        "position fen 6 4 2",
        "query mood",
        "query p1turn",
        "isready",
        "@wait readyok",
    ]);
    let text = session(&lines);
    let errors = lines_starting(&text, "info string error ");
    assert_eq!(errors.len(), cases.len() + 1, "{text}");
    for ((line, words), error) in cases.iter().zip(&errors) {
        assert!(error.contains(words), "{line:?} gave {error:?}");
    }
    assert!(
        errors[cases.len()].contains("unknown query 'mood'"),
        "{text}"
    );
    assert_eq!(lines_starting(&text, "bestmove 0000").len(), 4, "{text}");
    // The position set last stands: side 2 to move.
    assert!(text.contains("response false"), "{text}");
    assert!(text.ends_with("readyok\n"), "{text}");
}

#[test]
fn a_line_that_is_not_utf8_is_an_error() {
    let out = Shared::default();
    let mut input: &[u8] = b"\xff\xfe\nisready\n";
    let mut output = out.clone();
    run(&spec(), &args(), &mut input, &mut output).unwrap();
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
    let (first, second) = (plies::Side::First, plies::Side::Second);
    assert_eq!(go.budget(first, ms(0)), Some(clock.budget(first)));
    assert_eq!(go.budget(second, ms(0)), Some(clock.budget(second)));
    // The move overhead is kept back, down to 1 ms.
    assert_eq!(go.budget(first, ms(10)), Some(clock.budget(first) - ms(10)));
    assert_eq!(go.budget(first, ms(5000)), Some(ms(1)));
    let budget = |text: &str, side| GoArgs::parse(text).unwrap().budget(side, ms(10));
    assert_eq!(budget("movetime 70", first), Some(ms(60)));
    assert_eq!(budget("depth 3", first), None);
    assert_eq!(budget("nodes 3", first), None);
    assert_eq!(budget("infinite", first), None);
    // No limit for the side to move: the default budget.
    let default = Some(DEFAULT_MOVETIME - ms(10));
    assert_eq!(budget("", first), default);
    assert_eq!(budget("movestogo 10", first), default);
    assert_eq!(budget("p2time 1000 p2inc 100", first), default);
    assert_eq!(budget("p1inc 100", first), default);
    assert_eq!(budget("ponder", first), default);
    // 970 ms usable after the margin: a 25th (38) plus 3/4 of the increment (75), less 10.
    assert_eq!(budget("p2time 1000 p2inc 100", second), Some(ms(103)));
}

/// Every `go` sent the moment the previous `bestmove` is out is accepted (the old engine
/// refused some: the finished search was collected only once its thread had exited), also
/// with `isready` or `query` in between. A slow flush holds the search thread in its write of
/// `bestmove` while the host already reads it, which made the old engine refuse every time.
#[test]
fn go_right_after_bestmove_is_accepted() {
    const GOS: usize = 240;
    let mut lines = vec!["position fen 9 7 1".to_string()];
    for i in 0..GOS {
        lines.push(
            match i % 4 {
                0 => "go depth 1",
                1 => "go nodes 20",
                2 => "go movetime 1",
                _ => "go p1time 100 p2time 100 p1inc 1 p2inc 1",
            }
            .to_string(),
        );
        lines.push("@wait bestmove".into());
        match i % 3 {
            0 => lines.push("isready".into()),
            1 => lines.push("query p1turn".into()),
            _ => {}
        }
    }
    lines.extend(["isready".into(), "@wait readyok".into()]);
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let (text, _) = session_flushing(&spec(), &lines, Duration::from_micros(300));
    assert_eq!(text.matches("search is running").count(), 0, "{text}");
    assert_eq!(lines_starting(&text, "bestmove ").len(), GOS);
    assert!(!text.contains("error"), "{text}");
}

/// A `go` the engine cannot read gets its error and `bestmove 0000`: a host never waits.
#[test]
fn an_unreadable_go_is_answered_bestmove_0000() {
    let cases = [
        "go mate 3",
        "go depth 0",
        "go p1time -5 p2time 100",
        "go movetime 123456789012345678901234567890",
        "go searchmoves a1",
    ];
    let mut lines = vec!["position startpos"];
    for case in cases {
        lines.extend([case, "@wait bestmove"]);
    }
    let text = session(&lines);
    assert_eq!(
        lines_starting(&text, "bestmove "),
        vec!["bestmove 0000"; cases.len()],
        "{text}"
    );
    assert_eq!(
        lines_starting(&text, "info string error go").len(),
        cases.len(),
        "{text}"
    );
}

/// The pile difference, slowly (a millisecond an evaluation): searches that take seconds.
#[derive(Clone, Copy, Debug, Default)]
struct SlowPiles;

impl Evaluator<TwoPiles> for SlowPiles {
    fn evaluate(&self, state: &TwoPiles) -> Score {
        std::thread::sleep(Duration::from_millis(1));
        PileDifference.evaluate(state)
    }
}

fn slow_spec() -> GameCli<TwoPiles> {
    GameCli::new("twopiles", evaluator(SlowPiles))
}

/// A `go` with no limit for the side to move (bare, `movestogo` only, the other side's clock
/// only) searches the default budget instead of until the game is solved.
#[test]
fn go_without_a_limit_for_the_mover_searches_the_default_time() {
    let cases = ["go", "go movestogo 10", "go p2time 1000 p2inc 100"];
    let mut lines = vec!["position fen 15 15 1"];
    for case in cases {
        lines.extend([case, "@wait bestmove"]);
    }
    let (text, log) = session_of(&slow_spec(), &lines);
    assert_eq!(
        text.matches("info string go gave no limit for the side to move: searching 990 ms")
            .count(),
        cases.len(),
        "{text}"
    );
    for case in cases {
        let sent = log.iter().find(|(line, _)| line == case).unwrap().1;
        let answered = log
            .iter()
            .find(|(line, at)| line == "@wait bestmove" && *at > sent)
            .unwrap()
            .1;
        let took = answered - sent;
        assert!(took < Duration::from_secs(5), "{case}: {took:?}");
    }
    assert!(!text.contains("error"), "{text}");
}

/// A search silent for a second (a long iteration) says `info currmove M currmovenumber N
/// nodes N nps N time MS`: a legal root move, its number, and a node count that grows.
#[test]
fn a_long_iteration_says_it_is_at_work() {
    let (text, _) = session_of(
        &slow_spec(),
        &["position fen 15 15 1", "go movetime 4000", "@wait bestmove"],
    );
    let keepalive: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("info currmove "))
        .collect();
    assert!(!keepalive.is_empty(), "{text}");
    let root = TwoPiles::parse_position("15 15 1").unwrap();
    let mut seen = 0;
    for line in keepalive {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.len(), 11, "{line}");
        assert_eq!(
            (words[1], words[3], words[5], words[7], words[9]),
            ("currmove", "currmovenumber", "nodes", "nps", "time"),
            "{line}"
        );
        assert!(root.parse_move(words[2]).is_ok(), "{line}");
        assert!(words[4].parse::<u32>().unwrap() >= 1, "{line}");
        let nodes: u64 = words[6].parse().unwrap();
        assert!(nodes > seen, "{text}");
        seen = nodes;
    }
}

/// After a `position` that failed the engine has no position: `go` and `query` are refused
/// until a valid one comes.
#[test]
fn a_failed_position_leaves_none() {
    let text = session(&[
        "position fen 6 4 2",
        "position startpos moves a1 c9",
        "go depth 2",
        "@wait bestmove",
        "query p1turn",
        "position fen 6 4 1 moves a1",
        "position nonsense",
        "go movetime 10",
        "@wait bestmove",
        "position startpos",
        "go depth 2",
        "@wait bestmove",
        "query p1turn",
        "@wait response",
    ]);
    let best = lines_starting(&text, "bestmove ");
    assert_eq!(best[..2], ["bestmove 0000", "bestmove 0000"], "{text}");
    assert_eq!(
        best[2],
        format!("bestmove {}", in_process("7 5 1", 2)),
        "{text}"
    );
    assert_eq!(
        lines_starting(&text, "info string error no position").len(),
        3,
        "{text}"
    );
    assert_eq!(
        lines_starting(&text, "response "),
        ["response true"],
        "{text}"
    );
}

/// Options apply whatever their order: `Hash` is kept while a searcher without a table is
/// chosen (no error, then or later) and applies again to `pvs`.
#[test]
fn options_apply_in_any_order() {
    let text = session(&[
        "setoption name Hash value 8",
        "setoption name Searcher value mcts",
        "setoption name Threads value 2",
        "setoption name Ponder value true",
        "position startpos",
        "go nodes 200",
        "@wait bestmove",
        "setoption name Searcher value minimax",
        "setoption name Hash value 4",
        "setoption name Searcher value pvs",
        "setoption name Threads value 1",
        "go depth 2",
        "@wait bestmove",
        "isready",
        "@wait readyok",
    ]);
    assert!(!text.contains("error"), "{text}");
    let spec = |lines: &[&str]| {
        let cli = spec();
        let source = TableSource::new(&cli, &crate::tables::TablesArgs::default(), 1).unwrap();
        let mut engine = Engine::new(&cli, SearcherSpec::default(), source).unwrap();
        for line in lines {
            engine.set_option(line).unwrap();
        }
        engine.settings.spec().to_string()
    };
    assert_eq!(
        spec(&["name Hash value 8", "name Searcher value mcts"]),
        "mcts"
    );
    assert_eq!(
        spec(&[
            "name Searcher value mcts",
            "name Hash value 8",
            "name Threads value 2",
            "name Searcher value pvs"
        ]),
        "pvs:tt=8,threads=2"
    );
    assert_eq!(
        spec(&["name Searcher value pvs:tt=32", "name Threads value 3"]),
        "pvs:tt=32,threads=3"
    );
}

/// Lines of up to `MAX_LINE` bytes before the newline are read; a longer one is an error and
/// only it is skipped (the old engine counted the newline, and ate the next line).
/// `Hash` at the advertised maximum aborted the engine on a failed 64 GB allocation: a table
/// the machine cannot hold is an error naming the limit, and the engine keeps its searcher.
#[test]
fn a_hash_the_machine_cannot_hold_is_an_error_not_an_abort() {
    let max = crate::memory::max_tt_mb();
    if max >= plies::spec::MAX_TT_MB {
        eprintln!("skipped: this machine allows the largest table ({max} MB)");
        return;
    }
    let hash = format!("setoption name Hash value {}", plies::spec::MAX_TT_MB);
    let text = session(&[
        "ugi",
        &hash,
        "isready",
        "@wait readyok",
        "position startpos",
        "go depth 2",
        "@wait bestmove",
    ]);
    let errors = lines_starting(&text, "info string error");
    assert_eq!(errors.len(), 1, "{text}");
    assert!(errors[0].contains(&format!("{max} MB")), "{text}");
    // What the handshake advertises is what the machine allows.
    let advertised = format!("option name Hash type spin default 16 min 1 max {max}");
    assert_eq!(lines_starting(&text, &advertised).len(), 1, "{text}");
    assert_eq!(lines_starting(&text, "bestmove").len(), 1, "{text}");
    assert_eq!(lines_starting(&text, "readyok").len(), 1, "{text}");
}

/// `MultiPV 3`: each iteration reports three root moves (`multipv 1..3`), the first the
/// search's own line; `MultiPV 1` is the plain report again.
#[test]
fn multipv_reports_several_lines() {
    let text = session(&[
        "setoption name MultiPV value 3",
        "position fen 7 5 1",
        "go depth 3",
        "@wait bestmove",
        "setoption name MultiPV value 1",
        "go depth 3",
        "@wait bestmove",
    ]);
    assert!(!text.contains("error"), "{text}");
    let deepest: Vec<&str> = lines_starting(&text, "info depth 3 ");
    let numbered: Vec<&str> = deepest
        .iter()
        .copied()
        .filter(|l| l.contains(" multipv "))
        .collect();
    assert_eq!(numbered.len(), 3, "{text}");
    for (k, line) in numbered.iter().enumerate() {
        assert!(
            line.contains(&format!(" multipv {} score ", k + 1)),
            "{line}"
        );
    }
    let first = |line: &str| {
        line.split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string()
    };
    let moves: Vec<String> = numbered.iter().map(|l| first(l)).collect();
    assert!(
        moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2],
        "{text}"
    );
    let best = lines_starting(&text, "bestmove");
    assert_eq!(best[0], format!("bestmove {}", moves[0]), "{text}");
    // Back to one line: no multipv field.
    assert_eq!(deepest.len(), 4, "{text}");
    assert!(!deepest[3].contains("multipv"), "{text}");
    assert_eq!(best[1], best[0], "{text}");
}

#[test]
fn the_longest_line_is_read_and_the_next_line_kept() {
    let mut input = Vec::new();
    for length in [MAX_LINE - 1, MAX_LINE, MAX_LINE + 1, 3 * MAX_LINE] {
        input.extend(std::iter::repeat_n(b' ', length));
        input.extend(b"\nisready\n");
    }
    // The last line, without a newline, of exactly MAX_LINE bytes.
    let last = b"query p1turn";
    input.extend(std::iter::repeat_n(b' ', MAX_LINE - last.len()));
    input.extend(last);
    let out = Shared::default();
    let mut output = out.clone();
    run(&spec(), &args(), &mut &input[..], &mut output).unwrap();
    let error = format!("info string error line too long (over {MAX_LINE} bytes)\n");
    assert_eq!(
        out.text(),
        format!("readyok\nreadyok\n{error}readyok\n{error}readyok\nresponse true\n")
    );
}

/// `setoption name Weights value` with nothing after it (UCI's way to clear a string option)
/// is the game's own evaluator, as `<empty>` is; the new options are listed and taken.
#[test]
fn empty_weights_and_the_host_options() {
    let text = session(&[
        "ugi",
        "setoption name Weights value",
        "setoption name Weights value <empty>",
        "setoption name Move Overhead value 50",
        "setoption name Clear Hash",
        "setoption name Searcher value pvs:tt=4",
        "setoption name Searcher value alphabeta",
        "setoption name Move Overhead value -1",
        "position startpos",
        "go depth 2",
        "@wait bestmove",
    ]);
    let errors = lines_starting(&text, "info string error");
    assert_eq!(errors.len(), 1, "{text}");
    assert!(
        errors[0].contains("Move Overhead '-1': expected 0..=5000"),
        "{text}"
    );
    assert!(
        text.contains("option name Move Overhead type spin default 10 min 0 max 5000"),
        "{text}"
    );
    assert!(
        text.contains("option name Clear Hash type button\n"),
        "{text}"
    );
    let combo = lines_starting(&text, "option name Searcher ")[0];
    assert!(
        combo.starts_with("option name Searcher type combo default pvs var "),
        "{combo}"
    );
    for name in SearcherSpec::names() {
        assert!(combo.contains(&format!(" var {name}")), "{name}: {combo}");
    }
}

/// A proven score is `mate N` in moves (plies halved, rounded up); table hits are told.
#[test]
fn mate_scores_are_in_moves_and_table_hits_are_told() {
    let state = TwoPiles::start_position();
    let iteration = |score: Score, table_hits: u64| Iteration {
        depth: 3,
        seldepth: 3,
        score,
        pv: Default::default(),
        more_lines: Vec::new(),
        stats: SearchStats {
            endgame_hits: table_hits,
            ..SearchStats::default()
        },
    };
    for (score, mate) in [
        (Score::win_in(1), " mate 1 "),
        (Score::win_in(3), " mate 2 "),
        (Score::win_in(4), " mate 2 "),
        (Score::loss_in(2), " mate -1 "),
        (Score::loss_in(5), " mate -3 "),
    ] {
        let line = info_line(&state, &iteration(score, 0), "");
        assert!(line.contains(mate), "{score:?}: {line}");
        assert!(!line.contains("tbhits"), "{line}");
    }
    let line = info_line(&state, &iteration(Score::cp(5), 17), "");
    assert!(
        line.contains(" score cp 5 ") && line.contains(" tbhits 17 "),
        "{line}"
    );
}

/// Opens the gated table build of [`gated_tables`].
static GATE: AtomicBool = AtomicBool::new(false);

/// Exact values of every `TwoPiles` position, from the side to move's view.
struct Solved(HashMap<(u8, u8, bool), TableValue>);

impl Solved {
    fn value(&mut self, state: &TwoPiles) -> TableValue {
        let key = (
            state.piles[0],
            state.piles[1],
            state.to_move == plies::Side::First,
        );
        if let Some(&value) = self.0.get(&key) {
            return value;
        }
        let value = match state.outcome() {
            Some(Outcome::Win(side)) if side == state.to_move => TableValue::Win(0),
            Some(_) => TableValue::Loss(0),
            None => {
                let mut moves = Vec::new();
                state.generate_moves(&mut moves);
                let mut best: Option<TableValue> = None;
                for mv in moves {
                    let next = state.play(mv);
                    let mut value = self.value(&next);
                    if next.to_move != state.to_move {
                        value = match value {
                            TableValue::Win(d) => TableValue::Loss(d),
                            TableValue::Loss(d) => TableValue::Win(d),
                            TableValue::Won => TableValue::Lost,
                            TableValue::Lost => TableValue::Won,
                            TableValue::Draw => TableValue::Draw,
                        };
                    }
                    let value = match value {
                        TableValue::Win(d) => TableValue::Win(d + 1),
                        TableValue::Loss(d) => TableValue::Loss(d + 1),
                        other => other,
                    };
                    let rank = |v: TableValue| match v {
                        TableValue::Win(d) => 1000 - i64::from(d),
                        TableValue::Draw | TableValue::Won | TableValue::Lost => 0,
                        TableValue::Loss(d) => -1000 + i64::from(d),
                    };
                    if best.is_none_or(|b| rank(value) > rank(b)) {
                        best = Some(value);
                    }
                }
                best.unwrap_or(TableValue::Draw)
            }
        };
        self.0.insert(key, value);
        value
    }
}

impl Probe<TwoPiles> for Solved {
    fn probe(&self, state: &TwoPiles) -> Option<TableValue> {
        self.0
            .get(&(
                state.piles[0],
                state.piles[1],
                state.to_move == plies::Side::First,
            ))
            .copied()
    }
}

/// Every position up to 15 stones a pile, solved.
fn solved() -> Arc<dyn Probe<TwoPiles>> {
    let mut solved = Solved(HashMap::new());
    for a in 0..16 {
        for b in 0..16 {
            for side in [plies::Side::First, plies::Side::Second] {
                solved.value(&TwoPiles::new(a, b, side));
            }
        }
    }
    Arc::new(solved)
}

/// A table build that waits for [`GATE`].
fn gated_tables(
    _: &TwoPiles,
    _: u8,
    _: Option<&std::path::Path>,
    _: usize,
    log: &mut dyn FnMut(&str),
) -> Result<Arc<dyn Probe<TwoPiles>>, String> {
    log("building");
    while !GATE.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(1));
    }
    Ok(solved())
}

/// A table build that takes a minute.
fn endless_tables(
    _: &TwoPiles,
    _: u8,
    _: Option<&std::path::Path>,
    _: usize,
    log: &mut dyn FnMut(&str),
) -> Result<Arc<dyn Probe<TwoPiles>>, String> {
    log("building for a minute");
    std::thread::sleep(Duration::from_secs(60));
    Ok(solved())
}

fn spec_with_tables(build: crate::endgame::TableBuilder<TwoPiles>) -> GameCli<TwoPiles> {
    GameCli {
        endgame_tables: Some(crate::endgame::EndgameTables {
            default_pieces: 2,
            pieces: (2, 4),
            key: |_| "all".to_string(),
            build,
            files: |_, _| Vec::new(),
            sets: None,
        }),
        ..spec()
    }
}

/// Tables are built in the background: `isready` is answered at once during the build, a
/// search before they are ready goes without them and says so, and the next search after
/// they are ready uses them.
#[test]
fn tables_are_built_in_the_background() {
    let (text, log) = session_of(
        &spec_with_tables(gated_tables),
        &[
            "position fen 6 4 1",
            "isready",
            "@wait readyok",
            "isready",
            "@wait readyok",
            "go depth 3",
            "@wait bestmove",
            "@open",
            "@wait tables ready",
            "go depth 3",
            "@wait bestmove",
        ],
    );
    let lines: Vec<&str> = text.lines().collect();
    let first_best = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    let without = lines
        .iter()
        .position(|l| *l == "info string tables not built yet: this search goes without them")
        .unwrap();
    assert!(without < first_best, "{text}");
    assert!(text.contains("info string tables building\n"), "{text}");
    assert!(
        !lines[..first_best].iter().any(|l| l.contains("tbhits")),
        "{text}"
    );
    assert!(
        lines[first_best..].iter().any(|l| l.contains(" tbhits ")),
        "{text}"
    );
    assert_eq!(text.matches("not built yet").count(), 1, "{text}");
    // `isready` was answered while the build waited: how long each took.
    let worst = worst_latency(&log, "isready", "@wait readyok");
    assert!(worst < Duration::from_secs(2), "isready took {worst:?}");
    eprintln!("worst isready latency during the build: {worst:?}");
}

/// The longest time from sending `line` to the end of the `wait` after it.
fn worst_latency(log: &[(String, Instant)], line: &str, wait: &str) -> Duration {
    log.iter()
        .enumerate()
        .filter(|(_, (l, _))| l == line)
        .map(|(i, (_, sent))| {
            let answered = log[i..].iter().find(|(l, _)| l == wait).unwrap().1;
            answered - *sent
        })
        .max()
        .unwrap()
}

/// `quit` (or the end of the input) during a table build ends the engine at once.
#[test]
fn quit_during_a_table_build_ends_the_engine() {
    let started = Instant::now();
    let (text, _) = session_of(
        &spec_with_tables(endless_tables),
        &[
            "position fen 6 4 1",
            "isready",
            "@wait readyok",
            "@wait tables building",
            "go depth 2",
            "@wait bestmove",
            "quit",
        ],
    );
    assert!(started.elapsed() < Duration::from_secs(10), "{text}");
    assert!(text.contains("not built yet"), "{text}");
}

/// Onitama's real tables, built in the background for the position's deal, are used by the
/// next search; `isready` is answered during the build.
#[test]
fn onitama_tables_are_built_for_the_position() {
    let cli = GameCli {
        endgame_tables: Some(crate::endgame::EndgameTables {
            default_pieces: 3,
            pieces: (2, 10),
            key: plies_onitama::tables::deal_key,
            build: plies_onitama::tables::build_for,
            files: plies_onitama::tables::files_for,
            sets: None,
        }),
        ..GameCli::new(
            "onitama",
            crate::tunable_evaluator(plies_onitama::PstEvaluator::default()),
        )
    };
    let endgame = "5/2B2/5/1R3/2r2 r monkey,crane tiger,crab dragon";
    let position = format!("position fen {endgame}");
    let dir = std::env::temp_dir().join(format!("plies-ugi-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let tables_dir = format!("setoption name TablesDir value {}", dir.display());
    let (text, log) = session_of(
        &cli,
        &[
            "ugi",
            "@wait ugiok",
            "setoption name Tables value 99",
            &tables_dir,
            "setoption name Tables value 3",
            &position,
            "isready",
            "@wait readyok",
            "@wait tables ready",
            "go depth 4",
            "@wait bestmove",
            "setoption name Tables value off",
            "position startpos",
            "isready",
            "@wait readyok",
        ],
    );
    assert!(
        text.contains("option name Tables type string default 3"),
        "{text}"
    );
    assert!(text.contains("info string error bad Tables '99'"), "{text}");
    assert_eq!(
        text.matches("info string tables 3 pieces for tiger,crab,monkey,crane,dragon")
            .count(),
        1,
        "{text}"
    );
    assert!(text.contains(" tbhits "), "{text}");
    assert!(!text.contains("not built yet"), "{text}");
    let worst = worst_latency(&log, "isready", "@wait readyok");
    eprintln!("worst isready latency (Onitama, 3 pieces): {worst:?}");
    // `TablesDir` holds the deal's directory, and `Tables` kept it.
    let deal = dir.join("tiger-crab-monkey-crane-dragon");
    let files = std::fs::read_dir(&deal).map_or(0, |entries| {
        entries
            .filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "tb"))
            })
            .count()
    });
    assert_eq!(files, 3, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
