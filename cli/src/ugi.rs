//! `ugi`: the game as a persistent engine speaking the Universal Game Interface (UGI: UCI
//! generalised to any sequential game, as in kz04px/cutegames' `ugi.md`), for GUIs, scripts
//! and tournament managers. One process plays a whole match: its table and history persist
//! from move to move (`uginewgame` clears them).
//!
//! The conventions of every plies game, as `docs/ugi.md` writes them down:
//! - `position fen <text>` takes the rest of the line up to ` moves ` as the game's position
//!   text (positions contain spaces); `position startpos` is the game's start position.
//! - A move is one word: the game's move text with its spaces written `:` (Onitama's
//!   `monkey a1-b2` is `monkey:a1-b2`), as `bestmove`, `pv` and `moves` write and read it.
//! - `go p1time p2time p1inc p2inc` (p1 = the game's first player), `movetime`, `depth`,
//!   `nodes`, `infinite`, `ponder` (then `ponderhit`); `info` lines carry `depth`, `seldepth`,
//!   `score cp N` (from the side to move's view) or `score mate N` (plies to the end, negative
//!   when losing), `time`, `nodes`, `nps`, `hashfull` and `pv`.
//! - `query gameover|p1turn|result` answers `response true|false` and
//!   `response p1win|p2win|draw|none`, repetitions of the `moves` list counted.
//!
//! Key invariants: input is read while a search runs, so `stop`, `isready` and `quit` are
//! answered at once; a malformed line is answered `info string error <what is wrong>` and the
//! engine carries on; the end of the input is `quit` (an engine never depends on receiving it).

use std::io::{BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

use clap::Args;
use plies::search::{Clock, Iteration, SearchLimits, Searcher};
use plies::{Game, GameHistory, Notation, Outcome, Side};
use plies_view::View;

use crate::engine::{EvaluatorFactory, parse_searcher};
use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::tables::{TableSource, TablesArgs, parse_pieces};

/// Options of the `ugi` command (the rest are UGI options, set with `setoption`).
#[derive(Args, Debug)]
pub(crate) struct UgiArgs {
    /// The searcher to start with (a spec: `pvs`, `mcts`, `pvs:tt=64`, ...); the `Searcher`
    /// option changes it.
    #[arg(long, default_value = "pvs")]
    pub searcher: String,
    /// Endgame tables (the `Tables` and `TablesDir` options change them), built for the
    /// position of a `position` command whose tables are not at hand yet.
    #[command(flatten)]
    pub tables: TablesArgs,
}

/// The longest input line read; longer ones are an error.
const MAX_LINE: usize = 1 << 20;

/// Where the engine writes, shared by the reading loop and the search thread.
type Output<'o> = Mutex<&'o mut (dyn Write + Send)>;

/// Writes one line and flushes it. A closed output (the host went away) is not an error the
/// engine could report anywhere: the next read ends the session.
fn send(out: &Output<'_>, line: &str) {
    let mut out = out.lock().unwrap_or_else(PoisonError::into_inner);
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn error(out: &Output<'_>, what: &str) {
    send(out, &format!("info string error {}", crate::one_line(what)));
}

/// Runs the engine until `quit` or the end of `input`.
pub(crate) fn run<G: View>(
    spec: &GameCli<G>,
    args: &UgiArgs,
    input: &mut (dyn BufRead + Send),
    output: &mut (dyn Write + Send),
) -> Result<(), CliError> {
    parse_searcher(&args.searcher)
        .map_err(|e| CliError::Invalid(format!("bad --searcher: {e}")))?;
    let tables = TableSource::new(spec, &args.tables, 2)?;
    let out: Output<'_> = Mutex::new(output);
    let mut engine = Engine::new(spec, &args.searcher, tables);
    std::thread::scope(|scope| {
        let mut running: Option<Running<'_, G>> = None;
        let mut line = Vec::new();
        loop {
            line.clear();
            let mut limited =
                <&mut (dyn BufRead + Send) as Read>::take(&mut *input, MAX_LINE as u64 + 1);
            let read = limited.read_until(b'\n', &mut line);
            if !matches!(read, Ok(n) if n > 0) {
                break; // the end of the input (or a broken one) is `quit`
            }
            if running.as_ref().is_some_and(|r| r.handle.is_finished()) {
                engine.join(running.take(), &out);
            }
            if line.len() > MAX_LINE {
                error(&out, "line too long");
                let mut rest = Vec::new();
                let _ = input.read_until(b'\n', &mut rest);
                continue;
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
                    error(&out, "a search is running; send stop first");
                }
                "go" => match engine.go(rest, scope, &out) {
                    Ok(search) => running = search,
                    Err(what) => error(&out, &what),
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
    });
    Ok(())
}

/// A search on its own thread.
struct Running<'scope, G: Game> {
    handle: ScopedJoinHandle<'scope, Box<dyn Searcher<G>>>,
    /// Ends the search (and, after an infinite or ponder search, lets its bestmove out).
    stop: Arc<AtomicBool>,
    /// Set by the search thread when the search itself has returned.
    done: Arc<AtomicBool>,
    /// A `go ponder` search not yet hit.
    pondering: bool,
    /// The time the search may take once a ponder search is hit.
    budget: Option<Duration>,
}

impl<'scope, G: Game> Running<'scope, G> {
    /// The ponder search becomes the real one: it may go on for its budget from now.
    fn ponderhit<'env>(&mut self, scope: &'scope Scope<'scope, 'env>) {
        self.pondering = false;
        let Some(budget) = self.budget else {
            return; // `go ponder infinite`: it goes on until `stop`
        };
        let stop = Arc::clone(&self.stop);
        let done = Arc::clone(&self.done);
        let deadline = Instant::now() + budget;
        scope.spawn(move || {
            while Instant::now() < deadline && !done.load(Ordering::Relaxed) {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            stop.store(true, Ordering::Relaxed);
        });
    }
}

/// The engine between searches: its settings, its searcher and the game.
struct Engine<'a, G: View> {
    spec: &'a GameCli<G>,
    factory: EvaluatorFactory<G>,
    searcher_text: String,
    hash_mb: Option<usize>,
    threads: usize,
    /// Built at the first `isready` or `go` after a change; away while a search runs.
    searcher: Option<Box<dyn Searcher<G>>>,
    position: G,
    history: GameHistory,
    /// The outcome a repetition in the `moves` list gave, if any.
    repetition: Option<Outcome>,
    /// Where the endgame tables come from.
    tables: TableSource<G>,
    /// The key of the tables the searcher has (`None`: none yet), or of those that failed.
    tables_key: Option<String>,
}

impl<'a, G: View> Engine<'a, G> {
    fn new(spec: &'a GameCli<G>, searcher: &str, tables: TableSource<G>) -> Engine<'a, G> {
        let position = G::start_position();
        Engine {
            spec,
            factory: spec.evaluator.clone(),
            searcher_text: searcher.to_string(),
            hash_mb: None,
            threads: 1,
            searcher: None,
            history: GameHistory::new(&position),
            position,
            repetition: None,
            tables,
            tables_key: None,
        }
    }

    /// Gives the searcher the tables of the position if it has not got them: built (or read)
    /// now, progress and failures told as `info string` lines. A failure is told once per
    /// key; the engine goes on without tables.
    fn ensure_tables(&mut self, out: &Output<'_>) {
        let key = self.tables.key(&self.position);
        if key.is_none() || key == self.tables_key {
            return;
        }
        self.ensure_searcher(out);
        let Some(searcher) = self.searcher.as_mut() else {
            return;
        };
        let probe = self.tables.tables_for(&self.position, &mut |line| {
            send(
                out,
                &format!("info string tables {}", crate::one_line(line)),
            );
        });
        // Tables that cannot be built, or a searcher that cannot use them: none, said so.
        let result = probe.and_then(|probe| searcher.set_endgame_tables(probe));
        if let Err(why) = result {
            error(out, &format!("endgame tables not used: {why}"));
            let _ = searcher.set_endgame_tables(None);
        }
        self.tables_key = key;
    }

    /// The searcher's spec text, with the `Hash` option in it.
    fn spec_text(&self) -> String {
        match self.hash_mb {
            None => self.searcher_text.clone(),
            Some(mb) => {
                let join = if self.searcher_text.contains(':') {
                    ','
                } else {
                    ':'
                };
                format!("{}{join}tt={mb}", self.searcher_text)
            }
        }
    }

    /// Builds the searcher if there is none (after a change of options).
    fn ensure_searcher(&mut self, out: &Output<'_>) {
        if self.searcher.is_some() {
            return;
        }
        self.tables_key = None;
        match self.build() {
            Ok(searcher) => self.searcher = Some(searcher),
            Err(what) => {
                error(out, &format!("{what}; back to the default searcher"));
                self.searcher_text = "pvs".to_string();
                self.hash_mb = None;
                self.threads = 1;
                self.searcher = self.build().ok();
            }
        }
    }

    fn build(&self) -> Result<Box<dyn Searcher<G>>, String> {
        let spec = parse_searcher(&self.spec_text()).map_err(|e| format!("searcher: {e}"))?;
        let mut searcher = self.factory.searcher(&spec, None)?;
        searcher
            .set_threads(self.threads)
            .map_err(|e| format!("Threads {}: {e}", self.threads))?;
        Ok(searcher)
    }

    /// Waits for `search` (stopping it) and takes its searcher back.
    fn join(&mut self, search: Option<Running<'_, G>>, out: &Output<'_>) {
        let Some(search) = search else {
            return;
        };
        search.stop.store(true, Ordering::Relaxed);
        match search.handle.join() {
            Ok(searcher) => self.searcher = Some(searcher),
            Err(_) => error(out, "the search failed; a new searcher is built"),
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
                self.set_game(G::start_position(), Vec::new())
            }
            "setoption" => self.set_option(rest),
            "position" => {
                self.set_position(rest)?;
                // A new deal's tables now, before the host's clock runs at `go`.
                self.ensure_tables(out);
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
        send(
            out,
            &format!(
                "option name Hash type spin default 16 min 1 max {}",
                plies::spec::MAX_TT_MB
            ),
        );
        send(
            out,
            &format!(
                "option name Threads type spin default 1 min 1 max {}",
                plies::search::MAX_THREADS
            ),
        );
        send(out, "option name Searcher type string default pvs");
        if self.factory.parameter_names().is_some() {
            send(out, "option name Weights type string default <empty>");
        }
        send(out, "option name Ponder type check default false");
        if self.spec.endgame_tables.is_some() {
            // `off`, or the most pieces (the game's range, checked when set).
            let current = match self.tables.pieces() {
                0 => "off".to_string(),
                n => n.to_string(),
            };
            send(
                out,
                &format!("option name Tables type string default {current}"),
            );
            send(out, "option name TablesDir type string default <empty>");
        }
        send(out, "ugiok");
    }

    fn set_option(&mut self, rest: &str) -> Result<(), String> {
        let rest = rest
            .strip_prefix("name ")
            .ok_or("expected 'setoption name <name> value <value>'")?;
        let (name, value) = match rest.split_once(" value ") {
            Some((name, value)) => (name.trim(), value.trim()),
            None => (rest.trim(), ""),
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => self.hash_mb = Some(spin("Hash", value, plies::spec::MAX_TT_MB)?),
            "threads" => self.threads = spin("Threads", value, plies::search::MAX_THREADS)?,
            "searcher" => {
                parse_searcher(value).map_err(|e| format!("Searcher: {e}"))?;
                self.searcher_text = value.to_string();
            }
            "weights" => {
                self.factory = if value.is_empty() || value == "<empty>" {
                    self.spec.evaluator.clone()
                } else {
                    self.spec
                        .evaluator
                        .with_weights_path(std::path::Path::new(value))?
                };
            }
            "ponder" => {
                // The host decides when to ponder (`go ponder`); the option only says it may.
                if value != "true" && value != "false" {
                    return Err(format!(
                        "Ponder '{}': expected true or false",
                        plies::excerpt(value)
                    ));
                }
                return Ok(()); // nothing to rebuild
            }
            "tables" => {
                let pieces = parse_pieces(self.spec.endgame_tables.as_ref(), value, "Tables")?;
                self.tables = self.tables.with_pieces(pieces);
                self.tables_key = None;
                return Ok(());
            }
            "tablesdir" => {
                if self.spec.endgame_tables.is_none() {
                    return Err("TablesDir: this game has no endgame tables".into());
                }
                let dir = (!value.is_empty() && value != "<empty>")
                    .then(|| std::path::PathBuf::from(value));
                self.tables = self.tables.with_dir(dir);
                self.tables_key = None;
                return Ok(());
            }
            _ => return Err(format!("no option '{}'", plies::excerpt(name))),
        }
        // Checked now, so that a bad combination is reported to the line that made it.
        self.searcher = Some(self.build()?);
        self.tables_key = None;
        Ok(())
    }

    /// `startpos|fen <text> [moves <m1> <m2> ...]`; on an error the position stays as it was.
    fn set_position(&mut self, rest: &str) -> Result<(), String> {
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
        self.set_game(start, played)
    }

    /// The game `moves` from `start` (each legal in turn), repetitions counted.
    fn set_game(&mut self, start: G, moves: Vec<G::Move>) -> Result<(), String> {
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
        self.position = state;
        self.history = history;
        self.repetition = repetition;
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.position.outcome().or(self.repetition)
    }

    fn query(&self, rest: &str, out: &Output<'_>) -> Result<(), String> {
        let answer = match rest {
            "gameover" => self.outcome().is_some().to_string(),
            "p1turn" => (self.position.side_to_move() == Side::First).to_string(),
            "result" => match self.outcome() {
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

    /// Starts a search of the position on a thread of its own; `None` when there is nothing
    /// to search (the game is over: `bestmove 0000` at once).
    fn go<'scope, 'env>(
        &mut self,
        rest: &str,
        scope: &'scope Scope<'scope, 'env>,
        out: &'scope Output<'env>,
    ) -> Result<Option<Running<'scope, G>>, String>
    where
        G: 'scope,
    {
        let go = GoArgs::parse(rest)?;
        if self.outcome().is_some() {
            error(out, "the game is over: no move to search");
            send(out, "bestmove 0000");
            return Ok(None);
        }
        self.ensure_searcher(out);
        self.ensure_tables(out);
        let Some(mut searcher) = self.searcher.take() else {
            return Err("no searcher could be built".into());
        };
        let side = self.position.side_to_move();
        let budget = go.budget(side);
        let hold = go.infinite || go.ponder;
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let mut limits = SearchLimits::default();
        if let Some(depth) = go.depth {
            limits.depth = Some(depth);
        }
        limits.nodes = go.nodes;
        if !hold {
            limits.time = budget;
            // A proven result ends a timed search; a fixed depth is searched to exactly it.
            limits.stop_when_proven = go.depth.is_none();
        }
        let limits = limits.with_stop(Arc::clone(&stop));
        let state = self.position.clone();
        let history = self.history.clone();
        let (thread_stop, thread_done) = (Arc::clone(&stop), Arc::clone(&done));
        let handle = scope.spawn(move || {
            let result = searcher.search_with(&state, &history, &limits, &mut |it| {
                send(out, &info_line(&state, it));
            });
            thread_done.store(true, Ordering::Relaxed);
            // An infinite or ponder search answers only when told to stop.
            while hold && !thread_stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let best = result
                .best_move
                .map_or_else(|| "0000".to_string(), |mv| state.format_move_token(mv));
            send(out, &format!("bestmove {best}"));
            searcher
        });
        Ok(Some(Running {
            handle,
            stop,
            done,
            pondering: go.ponder,
            budget,
        }))
    }
}

/// The value of a spin option `name`: a whole number in `1..=max`.
fn spin(name: &str, value: &str, max: usize) -> Result<usize, String> {
    value
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| format!("{name} '{}': expected 1..={max}", plies::excerpt(value)))
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
                        "go {what} '{}': expected a whole number",
                        plies::excerpt(value)
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

    /// The time for a search by `side`: `movetime`, or a share of its clock
    /// ([`Clock::budget`]).
    fn budget(&self, side: Side) -> Option<Duration> {
        if let Some(ms) = self.movetime {
            return Some(Duration::from_millis(ms.max(1)));
        }
        self.clock(side).map(|clock| clock.budget(side))
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

/// `info depth .. seldepth .. score .. time .. nodes .. nps .. hashfull .. pv ..`.
fn info_line<G: Notation>(state: &G, it: &Iteration<G::Move>) -> String {
    let score = match it.score.plies_to_end() {
        Some(plies) if it.score.is_win() => format!("mate {plies}"),
        Some(plies) => format!("mate -{plies}"),
        None => format!("cp {}", it.score.raw()),
    };
    let ms = it.stats.elapsed.as_millis();
    let nps = (u128::from(it.stats.nodes) * 1000)
        .checked_div(ms)
        .unwrap_or(0);
    let hashfull = (it.stats.tt_fill * 1000.0).round().clamp(0.0, 1000.0) as u32;
    let mut pv = String::new();
    let mut at = state.clone();
    for &mv in &it.pv {
        pv.push(' ');
        pv += &at.format_move_token(mv);
        at = at.play(mv);
    }
    format!(
        "info depth {} seldepth {} score {score} time {ms} nodes {} nps {nps} hashfull {hashfull} pv{pv}",
        it.depth,
        it.seldepth.max(it.depth),
        it.stats.nodes
    )
}

#[cfg(test)]
mod tests;
