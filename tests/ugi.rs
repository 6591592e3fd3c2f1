//! Every bundled game through UGI (`<game> ugi`), driven in process exactly as cutegames
//! drives an engine (its `play_game` and `UGIEngine`, read from its source): `isready`, the
//! position sent twice around `query gameover`, `query p1turn` to find the mover, `go`, and
//! `query result` at the end, each move sent back as the one token `bestmove` gave.
//!
//! Key invariant: the game the engine plays at a fixed depth is the game the same searcher
//! plays in process (one searcher kept for the whole game, as the engine keeps its table), so
//! the protocol changes nothing; the result the engine reports is the rules' result.

use std::io::Write;
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use plies::search::SearchLimits;
use plies::{GameHistory, Outcome, Side};
use plies_cli::{GameCli, evaluator, tunable_evaluator};
use plies_view::View;

/// The engine's stdout.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The host's end of an engine running on a thread.
struct Host {
    to: Sender<String>,
    out: Shared,
    read: usize,
}

impl Host {
    fn start<G: View>(cli: fn() -> GameCli<G>) -> Host {
        Host::start_with(cli, Vec::new())
    }

    /// The engine of `cli` started with `extra` arguments after `ugi`.
    fn start_with<G: View>(cli: fn() -> GameCli<G>, extra: Vec<String>) -> Host {
        let (to, from) = channel();
        let out = Shared::default();
        let mut output = out.clone();
        std::thread::spawn(move || {
            let spec = cli();
            let mut input = plies_cli::ChannelInput::new(from);
            let args = [spec.name.to_string(), "ugi".to_string()]
                .into_iter()
                .chain(extra);
            plies_cli::run(&spec, args, &mut input, &mut output).unwrap();
        });
        Host { to, out, read: 0 }
    }

    fn send(&self, line: &str) {
        self.to.send(format!("{line}\n")).unwrap();
    }

    /// The next line the engine writes that starts with `prefix` (others skipped).
    fn expect(&mut self, prefix: &str) -> String {
        let since = Instant::now();
        loop {
            let text = String::from_utf8_lossy(&self.out.0.lock().unwrap()).into_owned();
            while let Some(end) = text[self.read..].find('\n') {
                let line = text[self.read..self.read + end].to_string();
                self.read += end + 1;
                assert!(!line.contains("error"), "the engine said {line:?}");
                if line.starts_with(prefix) {
                    return line;
                }
            }
            assert!(
                since.elapsed() < Duration::from_secs(60),
                "no {prefix:?} from the engine; it said:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// `query <what>`: the answer after `response `.
    fn query(&mut self, what: &str) -> String {
        self.send(&format!("query {what}"));
        let line = self.expect("response ");
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.len(), 2, "cutegames reads two tokens: {line:?}");
        words[1].to_string()
    }
}

/// Plays a game through UGI as cutegames does, at `depth`; the moves (one token each) and the
/// result the engine reports.
fn through_ugi<G: View>(
    cli: fn() -> GameCli<G>,
    fen: Option<&str>,
    depth: u32,
    max_plies: usize,
) -> (Vec<String>, String) {
    let mut host = Host::start(cli);
    host.send("ugi");
    host.expect("ugiok");
    host.send("isready");
    host.expect("readyok");
    host.send("uginewgame");
    let base = fen.map_or_else(
        || "position startpos".to_string(),
        |f| format!("position fen {f}"),
    );
    let mut moves: Vec<String> = Vec::new();
    let position = |moves: &[String]| {
        if moves.is_empty() {
            base.clone()
        } else {
            format!("{base} moves {}", moves.join(" "))
        }
    };
    while moves.len() < max_plies {
        host.send(&position(&moves));
        let p1 = host.query("p1turn");
        assert!(p1 == "true" || p1 == "false", "{p1}");
        host.send("isready");
        host.expect("readyok");
        host.send(&position(&moves));
        host.send(&position(&moves));
        if host.query("gameover") == "true" {
            break;
        }
        host.send(&format!("go depth {depth}"));
        let line = host.expect("bestmove ");
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.len(), 2, "cutegames reads two tokens: {line:?}");
        moves.push(words[1].to_string());
    }
    host.send(&position(&moves));
    let result = host.query("result");
    host.send("quit");
    (moves, result)
}

/// The same game in process: one `pvs` searcher for the whole game, at `depth`.
fn in_process<G: View>(
    cli: fn() -> GameCli<G>,
    fen: Option<&str>,
    depth: u32,
    max_plies: usize,
) -> (Vec<String>, String) {
    let spec = cli();
    let mut searcher = spec
        .evaluator
        .searcher(&"pvs".parse().unwrap(), None)
        .unwrap();
    let mut state = fen.map_or_else(G::start_position, |f| G::parse_position(f).unwrap());
    let mut history = GameHistory::new(&state);
    let mut repetition = None;
    let mut moves = Vec::new();
    while moves.len() < max_plies && state.outcome().is_none() && repetition.is_none() {
        let result =
            searcher.search_with(&state, &history, &SearchLimits::depth(depth), &mut |_| {});
        let mv = result.best_move.unwrap();
        moves.push(state.format_move_token(mv));
        let mover = state.side_to_move();
        state = state.play(mv);
        repetition = history.play(mover, &state);
    }
    let result = match state.outcome().or(repetition) {
        Some(Outcome::Win(Side::First)) => "p1win",
        Some(Outcome::Win(Side::Second)) => "p2win",
        Some(Outcome::Draw) => "draw",
        None => "none",
    };
    (moves, result.to_string())
}

fn same_game<G: View>(cli: fn() -> GameCli<G>, fen: Option<&str>, depth: u32, max_plies: usize) {
    let (ugi_moves, ugi_result) = through_ugi(cli, fen, depth, max_plies);
    let (moves, result) = in_process(cli, fen, depth, max_plies);
    assert_eq!(ugi_moves, moves);
    assert_eq!(ugi_result, result);
    assert!(!moves.is_empty());
}

#[test]
fn onitama_through_ugi_is_the_in_process_game() {
    same_game(
        || {
            GameCli::new(
                "onitama",
                tunable_evaluator(plies_onitama::PstEvaluator::tuned()),
            )
        },
        None,
        4,
        80,
    );
}

#[test]
fn brandub_through_ugi_is_the_in_process_game() {
    same_game(
        || {
            GameCli::new(
                "tafl",
                tunable_evaluator(plies_tafl::TaflEvaluator::default()),
            )
        },
        Some("brandub"),
        3,
        80,
    );
}

#[test]
fn hus_through_ugi_is_the_in_process_game() {
    same_game(
        || GameCli::new("hus", tunable_evaluator(plies_hus::HusEvaluator::tuned())),
        None,
        3,
        60,
    );
}

#[test]
fn yinsh_through_ugi_is_the_in_process_game() {
    same_game(
        || {
            GameCli::new(
                "yinsh",
                tunable_evaluator(plies_yinsh::YinshEvaluator::tuned()),
            )
        },
        None,
        2,
        40,
    );
}

#[test]
fn kalah_through_ugi_is_the_in_process_game() {
    same_game(
        || GameCli::new("kalah", evaluator(plies_kalah::StoreDifference::default())),
        None,
        5,
        200,
    );
}

fn kalah() -> GameCli<plies_kalah::Kalah> {
    GameCli::new("kalah", evaluator(plies_kalah::StoreDifference::default()))
}

/// A store file of its own for the test `name` (its directory removed when dropped).
struct StoreDir(std::path::PathBuf);

impl StoreDir {
    fn new(name: &str) -> StoreDir {
        let dir = std::env::temp_dir().join(format!("plies-ugi-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        StoreDir(dir)
    }

    fn file(&self) -> String {
        self.0.join("store.sqlite").display().to_string()
    }
}

impl Drop for StoreDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// With `OwnBook` on, a `go` of a position `analyze` stored is answered from the store: the
/// stored depth, best move and line, said to be from the store; a deeper `go depth`, `go
/// infinite` or the option off search instead.
#[test]
fn own_book_answers_from_the_store() {
    let dir = StoreDir::new("book");
    let spec = kalah();
    let args = [
        "kalah",
        "analyze",
        "--depth",
        "6",
        "--json",
        "--store",
        &dir.file(),
    ];
    let mut out = Vec::new();
    let args = args.map(String::from);
    plies_cli::run(&spec, args, &mut std::io::empty(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["source"], "search", "{text}");
    let best = last["best"].as_str().unwrap().replace(' ', ":");

    let mut host = Host::start_with(kalah, vec!["--store".into(), dir.file()]);
    host.send("ugi");
    assert!(
        host.expect("option name OwnBook")
            .contains("type check default false")
    );
    host.expect("ugiok");
    host.send("position startpos");
    // Off: it searches (its first info line is depth 1).
    host.send("go depth 6");
    assert!(!host.expect("info depth").contains("from the store"));
    host.expect("bestmove");
    host.send("setoption name OwnBook value true");
    host.send("go depth 6");
    let info = host.expect("info depth");
    assert!(info.starts_with("info depth 6 "), "{info}");
    assert!(info.contains("string from the store"), "{info}");
    let pv: Vec<String> = last["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| mv.as_str().unwrap().replace(' ', ":"))
        .collect();
    assert!(
        info.contains(&format!(" pv {} string", pv.join(" "))),
        "{info} {pv:?}"
    );
    assert_eq!(host.expect("bestmove"), format!("bestmove {best}"));
    // Deeper than stored: searched.
    host.send("go depth 7");
    assert!(!host.expect("info depth").contains("from the store"));
    host.expect("bestmove");
    // A position not stored: searched.
    host.send(&format!("position startpos moves {best}"));
    host.send("go depth 2");
    assert!(!host.expect("info depth").contains("from the store"));
    host.expect("bestmove");
    host.send("setoption name OwnBook value maybe");
    host.send("isready");
    let mut said = String::new();
    let since = Instant::now();
    while !said.contains("readyok") {
        assert!(since.elapsed() < Duration::from_secs(60), "{said}");
        said = String::from_utf8_lossy(&host.out.0.lock().unwrap()).into_owned();
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(
        said.contains("OwnBook 'maybe': expected true or false"),
        "{said}"
    );
    host.send("quit");
}

/// With `Book` set to a book file, a `go` of a position the book holds is answered with its
/// move (the only one of weight above 0), said to be a book move; a position out of book is
/// searched; `BookPick best` and a `BookSeed` are taken; a bad book file is one error line
/// naming its line (the engine keeps the book it had, as for any option that fails).
#[test]
fn book_answers_go_with_a_book_move() {
    use plies::Notation;
    let dir = StoreDir::new("bookfile");
    let start = plies_kalah::Kalah::start_position().format_position();
    let entry = |mv: &str, weight: u32| {
        format!(
            "{{\"position\":\"{start}\",\"move\":\"{mv}\",\"games\":2,\"wins\":1,\"draws\":0,\
             \"losses\":1,\"weight\":{weight}}}\n"
        )
    };
    let path = dir.0.join("book.jsonl");
    let header = "{\"plies_book\":1,\"game\":\"kalah\"}\n";
    std::fs::write(&path, format!("{header}{}{}", entry("a", 1), entry("b", 0))).unwrap();
    let mut host = Host::start(kalah);
    host.send("ugi");
    assert!(
        host.expect("option name Book ")
            .contains("type string default <empty>")
    );
    host.expect("ugiok");
    host.send(&format!("setoption name Book value {}", path.display()));
    host.send("setoption name BookSeed value 7");
    host.send("position startpos");
    host.send("go depth 4");
    let info = host.expect("info");
    assert_eq!(
        info,
        "info string book move a (2 games, +1 =0 -1, weight 1)"
    );
    assert_eq!(host.expect("bestmove"), "bestmove a");
    host.send("setoption name BookPick value best");
    host.send("uginewgame");
    host.send("position startpos");
    host.send("go movetime 50");
    assert!(host.expect("info").starts_with("info string book move a "));
    assert_eq!(host.expect("bestmove"), "bestmove a");
    // Out of book: searched.
    host.send("position startpos moves a");
    host.send("go depth 2");
    assert!(host.expect("info").starts_with("info depth 1 "));
    host.expect("bestmove");
    // A bad file: one error line naming the line.
    let bad = dir.0.join("bad.jsonl");
    std::fs::write(&bad, format!("{header}{}", entry("z", 1))).unwrap();
    host.send(&format!("setoption name Book value {}", bad.display()));
    host.send("isready");
    let since = Instant::now();
    let said = loop {
        let said = String::from_utf8_lossy(&host.out.0.lock().unwrap()).into_owned();
        if said.contains("readyok") {
            break said;
        }
        assert!(since.elapsed() < Duration::from_secs(60), "{said}");
        std::thread::sleep(Duration::from_millis(1));
    };
    let error = said
        .lines()
        .find(|line| line.starts_with("info string error"))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(
        error.contains("Book: book ") && error.contains(" line 2: move 'z'"),
        "{error}"
    );
    host.send("quit");
}
