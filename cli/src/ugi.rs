//! `ugi`: the game as a persistent engine speaking the Universal Game Interface (UGI: UCI
//! generalised to any sequential game, as in kz04px/cutegames' `ugi.md`), for GUIs, scripts
//! and tournament managers. One process plays a whole match: its table and history persist
//! from move to move (`uginewgame` clears them).
//!
//! The conventions of every plies game, as `docs/ugi.md` writes them down:
//! - `position fen <text>` takes the rest of the line up to ` moves ` as the game's position
//!   text (positions contain spaces); `position startpos` is the game's start position. After
//!   a `position` that fails the engine has no position until a valid one comes.
//! - A move is one word: the game's move text with its spaces written `:` (Onitama's
//!   `monkey a1-b2` is `monkey:a1-b2`), as `bestmove`, `pv` and `moves` write and read it.
//! - `go p1time p2time p1inc p2inc` (p1 = the game's first player), `movetime`, `depth`,
//!   `nodes`, `infinite`, `ponder` (then `ponderhit`); a `go` with no limit for the side to
//!   move searches [`DEFAULT_MOVETIME`]. `info` lines carry `depth`, `seldepth`, `score cp N`
//!   (from the side to move's view) or `score mate N` (moves to the end: plies halved, rounded
//!   up; negative when losing), `time`, `nodes`, `nps`, `hashfull`, `tbhits` and `pv`; a
//!   search silent for a second says `info currmove M currmovenumber N nodes N nps N time MS`.
//! - `query gameover|p1turn|result` answers `response true|false` and
//!   `response p1win|p2win|draw|none`, repetitions of the `moves` list counted.
//!
//! Key invariants: input is read while a search runs or tables are built, so `stop`,
//! `isready` and `quit` are answered at once; every `go` the engine accepts gets exactly one
//! `bestmove`, and one it refuses (unreadable, no position, a finished game) gets `info string
//! error ...` and `bestmove 0000`; once `bestmove` is written the engine is idle (the next `go`
//! is accepted). A malformed line is answered `info string error <what is wrong>` and the
//! engine carries on; the end of the input is `quit` (an engine never depends on receiving
//! it). Endgame tables are built on a detached thread: `quit` never waits for them.

use std::io::{BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

use clap::Args;
use plies::search::{Clock, Iteration, SearchLimits, SearchProgress, SearchResult, Searcher};
use plies::spec::SearcherSpec;
use plies::{Game, GameHistory, Notation, Outcome, Side};
use plies_view::View;

use crate::engine::EvaluatorFactory;
use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::store::StoreArgs;
use crate::tables::{Layers, Note, NoteSink, TableSource, TablesArgs, parse_layers};

/// Options of the `ugi` command (the rest are UGI options, set with `setoption`).
#[derive(Args, Debug)]
pub(crate) struct UgiArgs {
    /// The searcher to start with (a spec: `pvs`, `mcts`, `pvs:tt=64`, ...); the `Searcher`
    /// option changes it.
    #[arg(long, default_value = "pvs", value_parser = clap::value_parser!(SearcherSpec))]
    pub searcher: SearcherSpec,
    /// Endgame tables (the `Tables` and `TablesDir` options change them), built in the
    /// background for the position of a `position` command whose tables are not at hand yet.
    #[command(flatten)]
    pub tables: TablesArgs,
    /// The position store the `OwnBook` option answers from.
    #[command(flatten)]
    pub store: StoreArgs,
}

/// The most bytes a line may hold before its newline; longer ones are an error.
const MAX_LINE: usize = 1 << 20;

/// What a `go` with no limit for the side to move searches (before the move overhead).
pub(crate) const DEFAULT_MOVETIME: Duration = Duration::from_millis(1000);

/// The `MultiPV` option's maximum: root moves reported with their lines.
const MAX_MULTIPV: usize = 64;

/// The `BookSeed` option's maximum (spin options are 32-bit in many hosts).
const MAX_BOOK_SEED: usize = i32::MAX as usize;

/// The `Move Overhead` option's default, in milliseconds.
const DEFAULT_OVERHEAD_MS: usize = 10;

/// The `Move Overhead` option's maximum, in milliseconds.
const MAX_OVERHEAD_MS: usize = 5000;

/// How long a search may be silent before an `info nodes ... time` line says it is still at work.
const KEEPALIVE: Duration = Duration::from_secs(1);

/// Where the engine writes, shared by the reading loop, the search and the table relay.
type Output<'o> = Mutex<&'o mut (dyn Write + Send)>;

/// Writes one line and flushes it. A closed output (the host went away) is not an error the
/// engine could report anywhere: the next read ends the session.
fn send(out: &Output<'_>, line: &str) {
    let mut out = out.lock().unwrap_or_else(PoisonError::into_inner);
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn error(out: &Output<'_>, what: &str) {
    send(
        out,
        &format!("info string error {}", crate::text::one_line(what)),
    );
}

/// One line of input.
enum Line {
    /// The input ended (or broke): `quit`.
    End,
    /// More than [`MAX_LINE`] bytes before the newline; the rest of that line (only) was
    /// skipped.
    TooLong,
    /// A line, its newline removed.
    Text,
}

/// Reads one line into `line`: at most [`MAX_LINE`] bytes before its newline, in memory
/// bounded by that whatever the input holds.
fn read_line(input: &mut (dyn BufRead + Send), line: &mut Vec<u8>) -> Line {
    line.clear();
    let mut limited = Read::take(&mut *input, MAX_LINE as u64 + 1);
    if !matches!(limited.read_until(b'\n', line), Ok(n) if n > 0) {
        return Line::End;
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        return Line::Text;
    }
    if line.len() <= MAX_LINE {
        return Line::Text; // the last line, without a newline
    }
    // Skip to the end of this line, a buffer at a time.
    loop {
        let (skip, found) = match input.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(buffer) => match buffer.iter().position(|&b| b == b'\n') {
                Some(at) => (at + 1, true),
                None => (buffer.len(), false),
            },
        };
        input.consume(skip);
        if found {
            break;
        }
    }
    Line::TooLong
}

/// Runs the engine until `quit` or the end of `input`.
pub(crate) fn run<G: View>(
    spec: &GameCli<G>,
    args: &UgiArgs,
    input: &mut (dyn BufRead + Send),
    output: &mut (dyn Write + Send),
) -> Result<(), CliError> {
    let (relay_to, relay_from) = channel();
    let source = TableSource::new(spec, &args.tables, 2)?.with_sink(relay_sink(relay_to));
    let mut engine = Engine::new(spec, args.searcher.clone(), source)
        .map_err(|e| CliError::Invalid(format!("bad --searcher: {e}")))?;
    engine.book.store = args.store.open_shared(spec.name)?;
    let out: Output<'_> = Mutex::new(output);
    let closing = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (out_ref, closing_ref) = (&out, &closing);
        scope.spawn(move || relay(relay_from, closing_ref, out_ref));
        let mut running: Option<Running<'_, G>> = None;
        let mut line = Vec::new();
        loop {
            let read = read_line(input, &mut line);
            // A search that has answered is over: the engine is idle again.
            if running.as_ref().is_some_and(Running::answered) {
                engine.join(running.take(), &out);
            }
            match read {
                Line::End => break, // the end of the input (or a broken one) is `quit`
                Line::TooLong => {
                    error(&out, &format!("line too long (over {MAX_LINE} bytes)"));
                    continue;
                }
                Line::Text => {}
            }
            let Ok(text) = std::str::from_utf8(&line) else {
                error(&out, "a line that is not UTF-8");
                continue;
            };
            let text = text.trim();
            let (command, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
            let rest = rest.trim();
            match command {
                "" => {}
                "quit" => break,
                "isready" => {
                    if running.is_none() {
                        engine.ensure_searcher(&out);
                    }
                    send(&out, "readyok");
                }
                "stop" => engine.join(running.take(), &out),
                "ponderhit" => match &mut running {
                    Some(search) if search.pondering => search.ponderhit(scope),
                    _ => error(&out, "ponderhit without a ponder search"),
                },
                "go" if running.is_some() => {
                    // Its `bestmove` is the running search's, after `stop`.
                    error(&out, "a search is running; send stop first");
                }
                "go" => match engine.go(rest, scope, &out) {
                    Ok(search) => running = Some(search),
                    Err(what) => {
                        error(&out, &what);
                        send(&out, "bestmove 0000");
                    }
                },
                "query" => {
                    if let Err(what) = engine.query(rest, &out) {
                        error(&out, &what);
                    }
                }
                _ => {
                    // Everything else changes the engine: a running search ends first (its
                    // bestmove comes before the change).
                    engine.join(running.take(), &out);
                    if let Err(what) = engine.command(command, rest, &out) {
                        error(&out, &what);
                    }
                }
            }
        }
        engine.join(running.take(), &out);
        closing.store(true, Ordering::Release);
    });
    Ok(())
}

/// Writes the lines of the table builds (threads of their own that cannot hold the output)
/// until the engine closes.
fn relay(lines: Receiver<String>, closing: &AtomicBool, out: &Output<'_>) {
    loop {
        match lines.recv_timeout(Duration::from_millis(20)) {
            Ok(line) => send(out, &line),
            Err(RecvTimeoutError::Timeout) => {
                if closing.load(Ordering::Acquire) {
                    return;
                }
            }
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}

/// What the reading loop and a search thread share about the search.
#[derive(Default)]
struct Flags {
    /// Set when the search itself has returned.
    done: AtomicBool,
    /// While set, a returned search waits before answering (`go infinite`, or `go ponder`
    /// until its `ponderhit`).
    hold: AtomicBool,
    /// Set just before `bestmove` is written: the search is over, the engine idle once the
    /// thread is joined.
    answered: AtomicBool,
}

/// A search on its own thread.
struct Running<'scope, G: Game> {
    handle: ScopedJoinHandle<'scope, Box<dyn Searcher<G>>>,
    /// Ends the search (and, after an infinite or ponder search, lets its bestmove out).
    stop: Arc<AtomicBool>,
    flags: Arc<Flags>,
    /// A `go ponder` search not yet hit.
    pondering: bool,
    /// `go infinite`: it answers only after `stop`, `ponderhit` or not.
    infinite: bool,
    /// The time the search may take once a ponder search is hit.
    budget: Option<Duration>,
}

impl<'scope, G: Game> Running<'scope, G> {
    /// Whether the search has answered (`bestmove` is written or being written).
    fn answered(&self) -> bool {
        self.flags.answered.load(Ordering::Acquire)
    }

    /// The ponder search becomes the real one: it may go on for its budget from now, and
    /// answers when done.
    fn ponderhit<'env>(&mut self, scope: &'scope Scope<'scope, 'env>) {
        self.pondering = false;
        if !self.infinite {
            self.flags.hold.store(false, Ordering::Release);
        }
        let Some(deadline) = self.budget.and_then(|b| Instant::now().checked_add(b)) else {
            return; // no time limit: depth, nodes, or `stop`
        };
        let stop = Arc::clone(&self.stop);
        let flags = Arc::clone(&self.flags);
        scope.spawn(move || {
            while Instant::now() < deadline && !flags.done.load(Ordering::Relaxed) {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            stop.store(true, Ordering::Relaxed);
        });
    }
}

/// The searcher settings, as the options set them.
#[derive(Clone)]
struct Settings<G: Game> {
    /// The `Searcher` option (or `--searcher`).
    searcher: SearcherSpec,
    /// The `Hash` option, once set: the table size of a `pvs` searcher (kept while another
    /// searcher is chosen).
    hash_mb: Option<usize>,
    /// The `Threads` option, once set: the threads of a searcher that takes more than one
    /// (kept while another is chosen).
    threads: Option<usize>,
    factory: EvaluatorFactory<G>,
}

impl<G: Game> Settings<G> {
    /// The searcher the settings make: the `Searcher` spec with `Hash` and `Threads` in it
    /// where they apply.
    fn spec(&self) -> SearcherSpec {
        let mut spec = self.searcher.clone();
        if let (SearcherSpec::Pvs(config), Some(mb)) = (&mut spec, self.hash_mb) {
            config.tt_mb = mb;
        }
        if let Some(threads) = self.threads
            && matches!(spec, SearcherSpec::Pvs(_) | SearcherSpec::Mcts { .. })
        {
            // In range: the option was checked when set.
            let _ = spec.set_threads(threads);
        }
        spec
    }

    fn build(&self) -> Result<Box<dyn Searcher<G>>, String> {
        let spec = self.spec();
        self.factory
            .searcher(&spec, None)
            .map_err(|e| format!("searcher {spec}: {e}"))
    }
}

/// The position the host set, with the game that led to it.
struct Position<G> {
    state: G,
    history: GameHistory,
    /// The outcome a repetition in the `moves` list gave, if any.
    repetition: Option<Outcome>,
}

impl<G: Game> Position<G> {
    /// The game `moves` from `start` (each legal in turn), repetitions counted.
    fn new(start: G, moves: Vec<G::Move>) -> Result<Position<G>, String> {
        let mut history = GameHistory::new(&start);
        let mut state = start;
        let mut repetition = None;
        for (number, mv) in moves.into_iter().enumerate() {
            if repetition.is_some() {
                return Err(format!(
                    "move {}: the game is already over (a repetition)",
                    number + 1
                ));
            }
            let mover = state.side_to_move();
            state = state.play(mv);
            repetition = history.play(mover, &state);
        }
        Ok(Position {
            state,
            history,
            repetition,
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome().or(self.repetition)
    }
}

/// The engine's endgame tables: a source (whose notes go to the relay) and what the searcher
/// has.
struct Tables<G: Game> {
    source: Arc<TableSource<G>>,
    /// The key of the tables the searcher has (or refused); `None`: it has none.
    key: Option<String>,
}

impl<G: Game> Tables<G> {
    /// Another source (another `Tables` or `TablesDir`): what the old one was building is
    /// left to its thread, and no longer used.
    fn replace(&mut self, source: TableSource<G>) {
        self.source = Arc::new(source);
        self.key = None;
    }

    /// Starts reading or building the tables of `state` on a thread of their own, unless
    /// they are ready, on their way, or failed; the source tells their progress and end
    /// through the relay.
    fn request(&self, state: &G) {
        self.source.request(state);
    }

    /// Gives `searcher` the tables of `state` if they are ready; otherwise it searches
    /// without tables (said in an `info string`), and they are made ready for a later search.
    /// With `--tables-wait` the source is returned instead: the search waits for them on its
    /// own thread ([`wait_for_tables`]).
    fn equip(
        &mut self,
        searcher: &mut dyn Searcher<G>,
        state: &G,
        out: &Output<'_>,
    ) -> Option<Arc<TableSource<G>>> {
        // The key, and the upgrade's pieces once those tables are ready: a change is taken.
        let key = self.source.label(state);
        if key == self.key {
            if key.is_some() {
                // The upgrade (if any) is built once these are there.
                self.request(state);
            }
            return None;
        }
        let Some(key) = key else {
            let _ = searcher.set_endgame_tables(None);
            self.key = None;
            return None;
        };
        if let Some(probe) = self.source.ready(state) {
            // A searcher that cannot use tables is told once per key.
            if let Err(why) = searcher.set_endgame_tables(Some(probe)) {
                error(out, &format!("endgame tables not used: {why}"));
                let _ = searcher.set_endgame_tables(None);
            }
            self.key = Some(key);
            return None;
        }
        let _ = searcher.set_endgame_tables(None);
        self.key = None;
        self.request(state);
        if self.source.failure(state).is_some() {
            return None;
        }
        if self.source.waits() {
            send(
                out,
                "info string tables not built yet: this search waits for them",
            );
            return Some(Arc::clone(&self.source));
        }
        send(
            out,
            "info string tables not built yet: this search goes without them",
        );
        None
    }
}

/// Waits (`--tables-wait`) until `source` has the tables of `state`, they failed, or `stop`
/// is raised, and gives them to `searcher`. Runs on the search's thread: the engine answers
/// `isready` and `stop` meanwhile.
fn wait_for_tables<G: Game>(
    source: &TableSource<G>,
    searcher: &mut dyn Searcher<G>,
    state: &G,
    stop: &AtomicBool,
) {
    while !stop.load(Ordering::Relaxed) && source.failure(state).is_none() {
        if let Some(probe) = source.ready(state) {
            // A searcher that refuses them was told so when they were first offered.
            let _ = searcher.set_endgame_tables(Some(probe));
            return;
        }
        source.request(state);
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Where a UGI engine's table notes go: `info string` lines through the relay.
fn relay_sink(relay: Sender<String>) -> NoteSink {
    Arc::new(move |note| {
        let line = match note {
            Note::Line(line) => format!("info string tables {}", crate::text::one_line(&line)),
            Note::Ready(_) => "info string tables ready for the next search".to_string(),
            Note::Failed(why) => format!(
                "info string error endgame tables not used: {}",
                crate::text::one_line(&why)
            ),
        };
        let _ = relay.send(line);
    })
}

/// Locks `mutex`, whatever a panicking holder left.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The engine between searches: its settings, its searcher and the game.
struct Engine<'a, G: View> {
    spec: &'a GameCli<G>,
    settings: Settings<G>,
    /// The searcher of `settings`; away while a search runs (and `None` only after a search
    /// thread failed and no searcher could be built again).
    searcher: Option<Box<dyn Searcher<G>>>,
    /// The `Move Overhead` option: kept back from each timed move's budget.
    overhead: Duration,
    /// The `MultiPV` option: the root moves each iteration reports, with their lines.
    multipv: usize,
    /// The position to search; `None` after a `position` that failed.
    position: Option<Position<G>>,
    tables: Tables<G>,
    /// The position store as a book (the `OwnBook` option).
    book: book::Book,
}

impl<'a, G: View> Engine<'a, G> {
    /// The engine with `searcher` (built now: an error is the searcher's).
    fn new(
        spec: &'a GameCli<G>,
        searcher: SearcherSpec,
        source: TableSource<G>,
    ) -> Result<Engine<'a, G>, String> {
        let settings = Settings {
            searcher,
            hash_mb: None,
            threads: None,
            factory: spec.evaluator.clone(),
        };
        let searcher = settings.build()?;
        let start = G::start_position();
        Ok(Engine {
            spec,
            settings,
            searcher: Some(searcher),
            overhead: Duration::from_millis(DEFAULT_OVERHEAD_MS as u64),
            multipv: 1,
            position: Some(Position::new(start, Vec::new())?),
            tables: Tables {
                source: Arc::new(source),
                key: None,
            },
            book: book::Book {
                store: None,
                on: false,
                file: None,
                pick: crate::book::Pick::Weighted,
                seed: 1,
                games: 0,
            },
        })
    }

    /// Builds the searcher again if there is none (after a search thread failed): with the
    /// settings, or else the default searcher.
    fn ensure_searcher(&mut self, out: &Output<'_>) {
        if self.searcher.is_some() {
            return;
        }
        self.tables.key = None;
        match self.settings.build() {
            Ok(searcher) => self.searcher = Some(searcher),
            Err(what) => {
                error(out, &format!("{what}; back to the default searcher"));
                self.settings.searcher = SearcherSpec::default();
                self.settings.hash_mb = None;
                self.settings.threads = None;
                self.searcher = self.settings.build().ok();
            }
        }
    }

    /// Waits for `search` (stopping it) and takes its searcher back. A search thread that
    /// failed before answering is answered `bestmove 0000`.
    fn join(&mut self, search: Option<Running<'_, G>>, out: &Output<'_>) {
        let Some(search) = search else {
            return;
        };
        search.stop.store(true, Ordering::Relaxed);
        search.flags.hold.store(false, Ordering::Release);
        let answered = Arc::clone(&search.flags);
        match search.handle.join() {
            Ok(searcher) => self.searcher = Some(searcher),
            Err(_) => {
                error(out, "the search failed; a new searcher is built");
                if !answered.answered.load(Ordering::Acquire) {
                    send(out, "bestmove 0000");
                }
            }
        }
    }

    /// The commands that change the engine.
    fn command(&mut self, command: &str, rest: &str, out: &Output<'_>) -> Result<(), String> {
        match command {
            "ugi" => {
                self.identify(out);
                Ok(())
            }
            "uginewgame" => {
                if let Some(searcher) = &mut self.searcher {
                    searcher.clear();
                }
                self.book.games += 1;
                // The start position until a `position` names the game's: its tables are asked
                // for then (a host sends one before `go`; building the start's for nothing
                // would take the cores from the games being played).
                self.position = Some(Position::new(G::start_position(), Vec::new())?);
                Ok(())
            }
            "setoption" => self.set_option(rest),
            "position" => {
                // A failed `position` leaves none: `go` is refused until a valid one comes.
                self.position = None;
                let position = self.parse_position(rest)?;
                // A new deal's tables are built now, in the background.
                self.tables.request(&position.state);
                self.position = Some(position);
                Ok(())
            }
            "debug" | "register" => Ok(()),
            other => Err(format!("unknown command '{}'", plies::excerpt(other))),
        }
    }

    fn identify(&self, out: &Output<'_>) {
        send(
            out,
            &format!(
                "id name plies {} {}",
                self.spec.name,
                env!("CARGO_PKG_VERSION")
            ),
        );
        send(out, "id author the plies developers");
        let spec = self.settings.spec();
        let hash = match &spec {
            SearcherSpec::Pvs(config) if config.tt_mb > 0 => config.tt_mb,
            _ => plies::search::PvsConfig::full().tt_mb,
        };
        send(
            out,
            &format!(
                "option name Hash type spin default {hash} min 1 max {}",
                crate::memory::max_tt_mb()
            ),
        );
        send(
            out,
            &format!(
                "option name Threads type spin default {} min 1 max {}",
                spec.threads(),
                plies::search::MAX_THREADS
            ),
        );
        send(
            out,
            &format!(
                "option name Move Overhead type spin default {} min 0 max {MAX_OVERHEAD_MS}",
                self.overhead.as_millis()
            ),
        );
        send(out, "option name Clear Hash type button");
        send(
            out,
            &format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
        );
        let current = self.settings.searcher.to_string();
        let mut names: Vec<String> = SearcherSpec::names()
            .into_iter()
            .map(str::to_string)
            .collect();
        if !names.contains(&current) {
            names.insert(0, current.clone());
        }
        let vars: String = names.iter().map(|name| format!(" var {name}")).collect();
        send(
            out,
            &format!("option name Searcher type combo default {current}{vars}"),
        );
        if self.settings.factory.parameter_names().is_some() {
            send(out, "option name Weights type string default <empty>");
        }
        send(out, "option name Ponder type check default false");
        send(out, "option name OwnBook type check default false");
        send(out, "option name Book type string default <empty>");
        send(
            out,
            "option name BookPick type combo default weighted var weighted var best",
        );
        send(
            out,
            &format!("option name BookSeed type spin default 1 min 0 max {MAX_BOOK_SEED}"),
        );
        if self.spec.endgame_tables.is_some() {
            // `off`, the most pieces (the game's range, checked when set), or `N,M`.
            let current = match (
                self.tables.source.pieces(),
                self.tables.source.upgrade_pieces(),
            ) {
                (0, _) => "off".to_string(),
                (n, Some(m)) => format!("{n},{m}"),
                (n, None) => n.to_string(),
            };
            send(
                out,
                &format!("option name Tables type string default {current}"),
            );
            send(out, "option name TablesDir type string default <empty>");
        }
        send(out, "ugiok");
    }

    /// `setoption name <name> [value <value>]`. A value that cannot be had (a searcher that
    /// cannot be built) is an error, and the engine keeps its settings and searcher.
    fn set_option(&mut self, rest: &str) -> Result<(), String> {
        let (name, value) = parse_setoption(rest)?;
        let value = value.as_str();
        let mut next = self.settings.clone();
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "hash" => next.hash_mb = Some(spin("Hash", value, 1, plies::spec::MAX_TT_MB)?),
            "threads" => {
                next.threads = Some(spin("Threads", value, 1, plies::search::MAX_THREADS)?);
            }
            "searcher" => {
                next.searcher = value.parse().map_err(|e| format!("Searcher: {e}"))?;
            }
            "weights" => {
                // Empty (UCI's way to clear a string option) or `<empty>`: the game's own.
                next.factory = if value.is_empty() || value == "<empty>" {
                    self.spec.evaluator.clone()
                } else {
                    self.spec
                        .evaluator
                        .with_weights_path(std::path::Path::new(value))
                        .map_err(|e| e.to_string())?
                };
            }
            "multipv" => {
                self.multipv = spin("MultiPV", value, 1, MAX_MULTIPV)?;
                return Ok(());
            }
            "move overhead" => {
                let ms = spin("Move Overhead", value, 0, MAX_OVERHEAD_MS)?;
                self.overhead = Duration::from_millis(ms as u64);
                return Ok(());
            }
            "clear hash" => {
                if let Some(searcher) = &mut self.searcher {
                    searcher.clear();
                }
                return Ok(());
            }
            "ownbook" | "book" | "bookpick" | "bookseed" => {
                return self.set_book_option(&lower, value);
            }
            "ponder" => {
                // The host decides when to ponder (`go ponder`); the option only says it may.
                if value != "true" && value != "false" {
                    return Err(format!(
                        "Ponder '{}': expected true or false",
                        plies::excerpt(value)
                    ));
                }
                return Ok(());
            }
            "tables" | "tablesdir" => return self.set_tables_option(&lower, value),
            _ => return Err(format!("no option '{}'", plies::excerpt(&name))),
        }
        let weights = name.eq_ignore_ascii_case("weights");
        if !weights && next.spec() == self.settings.spec() && self.searcher.is_some() {
            // Kept for a searcher it applies to; this one is unchanged (its table too).
            self.settings = next;
            return Ok(());
        }
        // Built now, so that a value that cannot be had is reported to the line that set it.
        let searcher = next
            .build()
            .map_err(|e| format!("{e}; the searcher stays {}", self.settings.spec()))?;
        self.settings = next;
        self.searcher = Some(searcher);
        self.tables.key = None;
        Ok(())
    }

    /// Sets the book option `name` (lower case: `ownbook`, `book`, `bookpick`, `bookseed`).
    fn set_book_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "ownbook" => {
                self.book.on = match value {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(format!(
                            "OwnBook '{}': expected true or false",
                            plies::excerpt(value)
                        ));
                    }
                };
            }
            "book" => {
                // Empty (UCI's way to clear a string option) or `<empty>`: no book.
                self.book.file = if value.is_empty() || value == "<empty>" {
                    None
                } else {
                    let book =
                        crate::book::Book::read::<G>(std::path::Path::new(value), self.spec.name)
                            .map_err(|e| format!("Book: {e}"))?;
                    Some(Arc::new(book))
                };
            }
            "bookpick" => {
                self.book.pick = crate::book::Pick::parse(value).ok_or_else(|| {
                    format!(
                        "BookPick '{}': expected weighted or best",
                        plies::excerpt(value)
                    )
                })?;
            }
            "bookseed" => {
                self.book.seed = spin("BookSeed", value, 0, MAX_BOOK_SEED)? as u64;
            }
            _ => return Err(format!("no option '{}'", plies::excerpt(name))),
        }
        Ok(())
    }

    /// Sets the tables option `name` (lower case: `tables`, `tablesdir`).
    fn set_tables_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "tables" => {
                let Layers { pieces, upgrade } =
                    parse_layers(self.spec.endgame_tables.as_ref(), value, "Tables")?;
                let source = self.tables.source.with_pieces(pieces);
                let source = match upgrade {
                    Some(upgrade) => source.with_upgrade(upgrade),
                    None => source,
                };
                self.replace_tables(source);
            }
            "tablesdir" => {
                if self.spec.endgame_tables.is_none() {
                    return Err("TablesDir: this game has no endgame tables".into());
                }
                let dir = (!value.is_empty() && value != "<empty>")
                    .then(|| std::path::PathBuf::from(value));
                let source = self.tables.source.with_dir(dir);
                self.replace_tables(source);
            }
            _ => return Err(format!("no option '{}'", plies::excerpt(name))),
        }
        Ok(())
    }

    /// Another table source: the next `position` (or `go`) asks it for tables.
    fn replace_tables(&mut self, source: TableSource<G>) {
        self.tables.replace(source);
    }

    /// `startpos|fen <text> [moves <m1> <m2> ...]`.
    fn parse_position(&self, rest: &str) -> Result<Position<G>, String> {
        let (base, moves) = match rest.split_once(" moves") {
            Some((base, moves)) if moves.is_empty() || moves.starts_with(char::is_whitespace) => {
                (base.trim(), moves.trim())
            }
            _ => (rest.trim(), ""),
        };
        let start = if base == "startpos" {
            G::start_position()
        } else if let Some(text) = base.strip_prefix("fen ") {
            G::parse_position(text.trim()).map_err(|e| format!("bad position: {e}"))?
        } else {
            return Err("expected 'position startpos' or 'position fen <position>', then optionally 'moves ...'".into());
        };
        let mut state = start.clone();
        let mut played = Vec::new();
        for (number, token) in moves.split_whitespace().enumerate() {
            let mv = state.parse_move(token).map_err(|e| {
                format!(
                    "move {} ('{}'): {}",
                    number + 1,
                    plies::excerpt(token),
                    e.reason
                )
            })?;
            played.push(mv);
            state = state.play(mv);
        }
        Position::new(start, played)
    }

    fn query(&self, rest: &str, out: &Output<'_>) -> Result<(), String> {
        let position = self.position.as_ref().ok_or(NO_POSITION)?;
        let answer = match rest {
            "gameover" => position.outcome().is_some().to_string(),
            "p1turn" => (position.state.side_to_move() == Side::First).to_string(),
            "result" => match position.outcome() {
                Some(Outcome::Win(Side::First)) => "p1win",
                Some(Outcome::Win(Side::Second)) => "p2win",
                Some(Outcome::Draw) => "draw",
                None => "none",
            }
            .to_string(),
            other => {
                return Err(format!(
                    "unknown query '{}': expected gameover, p1turn or result",
                    plies::excerpt(other)
                ));
            }
        };
        send(out, &format!("response {answer}"));
        Ok(())
    }

    /// Starts a search of the position on a thread of its own. An error refuses the `go`
    /// (the caller answers it `bestmove 0000`).
    fn go<'scope, 'env>(
        &mut self,
        rest: &str,
        scope: &'scope Scope<'scope, 'env>,
        out: &'scope Output<'env>,
    ) -> Result<Running<'scope, G>, String>
    where
        G: 'scope,
    {
        let go = GoArgs::parse(rest)?;
        let position = self.position.as_ref().ok_or(NO_POSITION)?;
        if position.outcome().is_some() {
            return Err("the game is over: no move to search".into());
        }
        let state = position.state.clone();
        let history = position.history.clone();
        self.ensure_searcher(out);
        let Some(mut searcher) = self.searcher.take() else {
            return Err("no searcher could be built".into());
        };
        if !(go.infinite || go.ponder) {
            match self.book.answer(&state, go.depth) {
                Ok(Some(lines)) => return Ok(answered(scope, out, searcher, lines)),
                Ok(None) => {}
                Err(line) => send(out, &line),
            }
        }
        let wait = self.tables.equip(&mut *searcher, &state, out);
        let side = state.side_to_move();
        let budget = go.budget(side, self.overhead);
        if go.unlimited_for(side) {
            send(
                out,
                &format!(
                    "info string go gave no limit for the side to move: searching {} ms",
                    budget.map_or(0, |b| b.as_millis())
                ),
            );
        }
        let stop = Arc::new(AtomicBool::new(false));
        let flags = Arc::new(Flags::default());
        flags
            .hold
            .store(go.infinite || go.ponder, Ordering::Release);
        let mut limits = SearchLimits::default();
        if let Some(depth) = go.depth {
            limits.depth = Some(depth);
        }
        limits.nodes = go.nodes;
        limits.multipv = self.multipv;
        if !(go.infinite || go.ponder) {
            limits.time = budget;
            // A proven result ends a timed search; a fixed depth is searched to exactly it.
            limits.stop_when_proven = go.depth.is_none();
        }
        let limits = limits.with_stop(Arc::clone(&stop));
        let (thread_stop, thread_flags) = (Arc::clone(&stop), Arc::clone(&flags));
        let handle = scope.spawn(move || {
            if let Some(source) = wait {
                wait_for_tables(&*source, &mut *searcher, &state, &thread_stop);
            }
            let result = search_reporting(&mut *searcher, &state, &history, &limits, out);
            thread_flags.done.store(true, Ordering::Release);
            // An infinite search, or a ponder search not yet hit, answers only when told to.
            while thread_flags.hold.load(Ordering::Acquire) && !thread_stop.load(Ordering::Relaxed)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            let best = result
                .best_move
                .map_or_else(|| "0000".to_string(), |mv| state.format_move_token(mv));
            // Idle from here: the next `go` joins this thread instead of being refused.
            thread_flags.answered.store(true, Ordering::Release);
            send(out, &format!("bestmove {best}"));
            searcher
        });
        Ok(Running {
            handle,
            stop,
            flags,
            pondering: go.ponder,
            infinite: go.infinite,
            budget,
        })
    }
}

/// A `go` answered without searching: `lines` written on a thread of its own (the last one
/// `bestmove`), which hands `searcher` back as a search's does.
fn answered<'scope, 'env, G: View + 'scope>(
    scope: &'scope Scope<'scope, 'env>,
    out: &'scope Output<'env>,
    searcher: Box<dyn Searcher<G>>,
    lines: Vec<String>,
) -> Running<'scope, G> {
    let flags = Arc::new(Flags::default());
    let thread_flags = Arc::clone(&flags);
    let handle = scope.spawn(move || {
        thread_flags.done.store(true, Ordering::Release);
        thread_flags.answered.store(true, Ordering::Release);
        for line in &lines {
            send(out, line);
        }
        searcher
    });
    Running {
        handle,
        stop: Arc::new(AtomicBool::new(false)),
        flags,
        pondering: false,
        infinite: false,
        budget: None,
    }
}

/// The error of a command that needs a position when the last `position` failed.
const NO_POSITION: &str = "no position: the last 'position' failed; send a valid one";

/// Runs the search, writing an `info` line after each iteration and `info currmove M
/// currmovenumber N nodes N nps N time MS` when it has been silent for [`KEEPALIVE`].
fn search_reporting<G: View>(
    searcher: &mut dyn Searcher<G>,
    state: &G,
    history: &GameHistory,
    limits: &SearchLimits,
    out: &Output<'_>,
) -> SearchResult<G::Move> {
    let started = Instant::now();
    let last = Mutex::new(started);
    let (finished, quiet) = channel::<()>();
    let progress = Arc::new(SearchProgress::new());
    let limits = SearchLimits {
        progress: Some(Arc::clone(&progress)),
        ..limits.clone()
    };
    std::thread::scope(|inner| {
        let (last_ref, progress_ref) = (&last, &progress);
        inner.spawn(move || keepalive(quiet, last_ref, state, progress_ref, started, out));
        let result = searcher.search_with(state, history, &limits, &mut |it| {
            for line in info_lines(state, it) {
                send(out, &line);
            }
            *lock(&last) = Instant::now();
        });
        drop(finished); // ends the keepalive at once
        result
    })
}

/// Writes `info [currmove M currmovenumber N] nodes N nps N time MS` whenever the search of
/// `state` has said nothing for [`KEEPALIVE`], until it ends (`finished` closes), from what
/// the searcher told `progress` ([`SearchLimits::progress`]).
fn keepalive<G: View>(
    finished: Receiver<()>,
    last: &Mutex<Instant>,
    state: &G,
    progress: &SearchProgress,
    started: Instant,
    out: &Output<'_>,
) {
    let mut root_moves = Vec::new();
    state.generate_moves(&mut root_moves);
    loop {
        let wait = KEEPALIVE.saturating_sub(lock(last).elapsed());
        match finished.recv_timeout(wait) {
            Err(RecvTimeoutError::Timeout) => {
                let mut last = lock(last);
                if last.elapsed() >= KEEPALIVE {
                    let ms = started.elapsed().as_millis();
                    let nodes = progress.nodes();
                    let nps = (u128::from(nodes) * 1000).checked_div(ms).unwrap_or(0);
                    let current = progress.root_move().and_then(|(index, number)| {
                        let mv = root_moves
                            .iter()
                            .find(|&&mv| state.move_index(mv) == index)?;
                        let text = state.format_move_token(*mv);
                        Some(format!("currmove {text} currmovenumber {number} "))
                    });
                    let current = current.unwrap_or_default();
                    send(
                        out,
                        &format!("info {current}nodes {nodes} nps {nps} time {ms}"),
                    );
                    *last = Instant::now();
                }
            }
            _ => return,
        }
    }
}

/// `name <name> [value <value>]`: the name (its words joined by one space) and the value (the
/// rest of the line after the word `value`, trimmed; empty when there is none).
fn parse_setoption(rest: &str) -> Result<(String, String), String> {
    const USAGE: &str = "expected 'setoption name <name> value <value>'";
    let body = rest
        .strip_prefix("name")
        .filter(|body| body.starts_with(char::is_whitespace))
        .ok_or(USAGE)?
        .trim();
    let split = body.match_indices("value").map(|(at, _)| at).find(|&at| {
        let after = &body[at + "value".len()..];
        body[..at].ends_with(char::is_whitespace)
            && (after.is_empty() || after.starts_with(char::is_whitespace))
    });
    let (name, value) = match split {
        Some(at) => (&body[..at], body[at + "value".len()..].trim()),
        None => (body, ""),
    };
    let name: Vec<&str> = name.split_whitespace().collect();
    if name.is_empty() {
        return Err(USAGE.into());
    }
    Ok((name.join(" "), value.to_string()))
}

/// The value of a spin option `name`: a whole number in `min..=max`.
fn spin(name: &str, value: &str, min: usize, max: usize) -> Result<usize, String> {
    value
        .parse::<usize>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| format!("{name} '{}': expected {min}..={max}", plies::excerpt(value)))
}

/// The arguments of `go`.
#[derive(Debug, Default, PartialEq)]
struct GoArgs {
    time: [Option<u64>; 2],
    inc: [u64; 2],
    movetime: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    infinite: bool,
    ponder: bool,
}

impl GoArgs {
    fn parse(rest: &str) -> Result<GoArgs, String> {
        let mut go = GoArgs::default();
        let mut words = rest.split_whitespace();
        while let Some(word) = words.next() {
            let mut number = |what: &str| -> Result<u64, String> {
                let value = words
                    .next()
                    .ok_or_else(|| format!("go {what}: a number is missing"))?;
                value.parse::<u64>().map_err(|_| {
                    format!(
                        "go {what} '{}': expected a whole number of at most {}",
                        plies::excerpt(value),
                        u64::MAX
                    )
                })
            };
            match word {
                "p1time" | "wtime" => go.time[0] = Some(number(word)?),
                "p2time" | "btime" => go.time[1] = Some(number(word)?),
                "p1inc" | "winc" => go.inc[0] = number(word)?,
                "p2inc" | "binc" => go.inc[1] = number(word)?,
                "movetime" => go.movetime = Some(number(word)?),
                "depth" => {
                    let depth = number(word)?;
                    let max = u64::from(plies::Score::MAX_PLY - 1);
                    if depth == 0 || depth > max {
                        return Err(format!("go depth {depth}: expected 1..={max}"));
                    }
                    go.depth = Some(depth as u32);
                }
                "nodes" => go.nodes = Some(number(word)?.max(1)),
                "movestogo" => {
                    number(word)?;
                }
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                other => {
                    return Err(format!("go: unknown argument '{}'", plies::excerpt(other)));
                }
            }
        }
        Ok(go)
    }

    /// Whether `go` gave no limit at all for the side to move (then it searches
    /// [`DEFAULT_MOVETIME`]).
    fn unlimited_for(&self, side: Side) -> bool {
        self.movetime.is_none()
            && self.time[side.index()].is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
            && !self.infinite
    }

    /// The time for a search by `side`, `overhead` kept back (at least 1 ms): `movetime`, or a
    /// share of its clock ([`Clock::budget`]); with neither, no time limit when `depth`,
    /// `nodes` or `infinite` limit the search, else [`DEFAULT_MOVETIME`].
    fn budget(&self, side: Side, overhead: Duration) -> Option<Duration> {
        let keep =
            |time: Duration| Some(time.saturating_sub(overhead).max(Duration::from_millis(1)));
        if let Some(ms) = self.movetime {
            return keep(Duration::from_millis(ms));
        }
        if let Some(clock) = self.clock(side) {
            return keep(clock.budget(side));
        }
        if self.unlimited_for(side) {
            return keep(DEFAULT_MOVETIME);
        }
        None
    }

    /// The clock `go` gave, if it gave the time of `side` (a missing other side or increment
    /// counts as zero).
    fn clock(&self, side: Side) -> Option<Clock> {
        self.time[side.index()]?;
        let ms = |value: Option<u64>| Duration::from_millis(value.unwrap_or(0));
        Some(Clock {
            remaining: [ms(self.time[0]), ms(self.time[1])],
            increment: [ms(Some(self.inc[0])), ms(Some(self.inc[1]))],
        })
    }
}

/// The `info` lines of a completed iteration: [`info_line`], and with MultiPV one line per
/// further root move (`multipv 2`, `multipv 3`, ...; the first then says `multipv 1`).
fn info_lines<G: Notation>(state: &G, it: &Iteration<G::Move>) -> Vec<String> {
    if it.more_lines.is_empty() {
        return vec![info_line(state, it, "")];
    }
    let mut lines = vec![info_line(state, it, " multipv 1")];
    for (number, line) in it.more_lines.iter().enumerate() {
        lines.push(format!(
            "info depth {} seldepth {} multipv {} score {} time {} nodes {} pv{}",
            it.depth,
            it.seldepth.max(it.depth),
            number + 2,
            score_text(line.score),
            it.stats.elapsed.as_millis(),
            it.stats.nodes,
            pv_text(state, &line.pv)
        ));
    }
    lines
}

/// A score as UGI writes it: `cp N`, or a proven result as `mate N` in moves as UCI hosts read
/// it: the plies to the end halved, rounded up (negative when the side to move loses).
fn score_text(score: plies::Score) -> String {
    match score.plies_to_end() {
        Some(plies) => {
            let moves = plies.div_ceil(2).max(1);
            if score.is_win() {
                format!("mate {moves}")
            } else {
                format!("mate -{moves}")
            }
        }
        None => format!("cp {}", score.raw()),
    }
}

/// ` m1 m2 ...`: a line's moves as tokens, each after a space.
fn pv_text<G: Notation>(state: &G, line: &[G::Move]) -> String {
    let mut pv = String::new();
    let mut at = state.clone();
    for &mv in line {
        pv.push(' ');
        pv += &at.format_move_token(mv);
        at = at.play(mv);
    }
    pv
}

/// `info depth .. seldepth .. score .. time .. nodes .. nps .. hashfull .. [tbhits ..] pv ..`
/// (the score as [`score_text`] writes it; `multipv`, empty or ` multipv 1`, after seldepth).
fn info_line<G: Notation>(state: &G, it: &Iteration<G::Move>, multipv: &str) -> String {
    let score = score_text(it.score);
    let ms = it.stats.elapsed.as_millis();
    let nps = (u128::from(it.stats.nodes) * 1000)
        .checked_div(ms)
        .unwrap_or(0);
    let hashfull = (it.stats.tt_fill * 1000.0).round().clamp(0.0, 1000.0) as u32;
    let tbhits = match it.stats.endgame_hits {
        0 => String::new(),
        hits => format!(" tbhits {hits}"),
    };
    format!(
        "info depth {} seldepth {}{multipv} score {score} time {ms} nodes {} nps {nps} hashfull {hashfull}{tbhits} pv{}",
        it.depth,
        it.seldepth.max(it.depth),
        it.stats.nodes,
        pv_text(state, &it.pv)
    )
}

mod book;

#[cfg(test)]
mod tests;
