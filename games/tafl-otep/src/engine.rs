//! The engine side of the OpenTafl Engine Protocol (OTEP, OpenTafl's `engine-protocol.txt`):
//! [`OtepEngine`] turns each host line into reply lines, [`run_engine`] drives it over
//! stdin/stdout.
//!
//! Key invariants: the engine keeps its own game ([`GameRecord`], so repetition counts), and
//! uses the host's position records only as a fallback when a move cannot be applied; the move
//! it sent is played on `move` only in the position it was searched in, and only if legal there; every
//! line it cannot act on (unknown command, bad numbers, NaN/infinite/negative/huge times, bad
//! move or position text, bytes that are not UTF-8, over-long lines) gets one
//! `error 0 <reason>` reply in plain ASCII and the game goes on; nothing the host sends can
//! panic or stop the engine except `goodbye` and the end of input.
//!
//! `side` only moves the turn when the board came from a `position` command (analysis or
//! replay, where OpenTafl sends `position`, `side`, `analyze`); in a game, where the protocol
//! text has a host send `side` before the start, it changes nothing, so the board cannot drift.
//! Clock values follow the protocol text: a bare number is main time left, a number with `*`
//! is what is left of the current overtime period (main time spent).

use std::io::{BufRead, ErrorKind, Write};
use std::time::Duration;

use plies::search::{Pvs, PvsConfig, SearchLimits, Searcher};
use plies::{Game, Notation, Side};

use plies_tafl::board::Board;
use plies_tafl::eval::TaflEvaluator;
use plies_tafl::record::GameRecord;
use plies_tafl::state::{Tafl, TaflMove};

/// The longest input line the engine reads (a 19x19 rules string is under 1 KiB); the rest of
/// a longer line is skipped and the line answered with an error.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// The largest clock time accepted, in milliseconds (30 days).
pub const MAX_CLOCK_MS: u64 = 30 * 24 * 3600 * 1000;
/// The longest overtime period accepted, in seconds (one day).
pub const MAX_OVERTIME_S: u64 = 24 * 3600;
/// The longest `analyze` time accepted, in seconds (one hour).
pub const MAX_ANALYZE_S: f64 = 3600.0;

/// Clock state from the host's last `clock` line; index 0 attackers, 1 defenders.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Clock {
    /// Main time left (0 when there is none or it is spent).
    main_ms: [u64; 2],
    /// Whether the side's main time is spent (its value carried `*`).
    in_overtime: [bool; 2],
    /// What is left of the current overtime period, when `in_overtime`.
    period_left_ms: [u64; 2],
    /// Length of one overtime period.
    overtime_s: u64,
    /// Overtime periods left.
    overtime_left: [u64; 2],
}

/// The OTEP engine: game state, searcher and clock.
pub struct OtepEngine {
    record: GameRecord,
    searcher: Pvs<Tafl, TaflEvaluator>,
    clock: Option<Clock>,
    default_move_time: Duration,
    /// The longest the engine thinks per move or analysis, whatever the clock or the host says.
    think_cap: Option<Duration>,
    /// Our move sent to the host and not yet confirmed, with the hash of the position it was
    /// searched in: it is played on `move` only in that position, and only if legal there.
    pending: Option<Pending>,
    /// The board came from a `position` command and no move was made since: `side` and
    /// `play` may set the side to move.
    side_settable: bool,
    done: bool,
}

/// A move we sent, keyed by the position it was searched in.
#[derive(Copy, Clone, Debug)]
struct Pending {
    /// [`Game::hash`] of the position the move was found in.
    position: u64,
    /// The move.
    mv: TaflMove,
}

impl Pending {
    /// The move, if `state` is the position it was searched in and it is legal there.
    fn move_in(self, state: &Tafl) -> Option<TaflMove> {
        if state.hash() != self.position || state.outcome().is_some() {
            return None;
        }
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        moves.contains(&self.mv).then_some(self.mv)
    }
}

fn side_word(word: &str) -> Option<Side> {
    match word {
        "attackers" => Some(Side::First),
        "defenders" => Some(Side::Second),
        _ => None,
    }
}

fn side_name(side: Side) -> &'static str {
    if side == Side::First {
        "attackers"
    } else {
        "defenders"
    }
}

/// An `error 0` (non-critical) reply: one line of printable ASCII, at most about 200 bytes,
/// whatever the reason quotes from the input.
fn error(reason: &str) -> String {
    let mut clean: String = reason
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .take(200)
        .collect();
    if reason.chars().count() > 200 {
        clean.push_str("...");
    }
    format!("error 0 {clean}")
}

impl OtepEngine {
    /// An engine playing Copenhagen until told other rules, thinking `default_move_time` per
    /// move when the host sends no clock.
    #[must_use]
    pub fn new(default_move_time: Duration) -> OtepEngine {
        OtepEngine {
            record: GameRecord::new(Tafl::start_position()),
            searcher: Pvs::new(TaflEvaluator::default(), PvsConfig::full()),
            clock: None,
            default_move_time,
            think_cap: None,
            pending: None,
            side_settable: false,
            done: false,
        }
    }

    /// The engine with a cap on every think (a move or an analysis): it never searches longer
    /// than `cap`, whatever time the host's clock or `analyze` line allows.
    #[must_use]
    pub fn with_think_cap(mut self, cap: Duration) -> OtepEngine {
        self.think_cap = Some(cap);
        self
    }

    /// `time` within the think cap, if any.
    fn capped(&self, time: Duration) -> Duration {
        self.think_cap.map_or(time, |cap| time.min(cap))
    }

    /// Whether the host said `goodbye`.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.done
    }

    /// The current game.
    #[must_use]
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    /// Handles one raw input line (without or with its `\n` / `\r\n`): bytes that are not
    /// UTF-8 get an error reply instead of being read as a command.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Vec<String> {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        match std::str::from_utf8(line) {
            Ok(text) => self.handle(text),
            Err(_) => vec![error(&format!(
                "input line of {} bytes is not UTF-8 text (OTEP lines are US-ASCII)",
                line.len()
            ))],
        }
    }

    /// Handles one host line, returning the lines to send back.
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        let line = line.trim();
        if line.is_empty() {
            return vec![];
        }
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "rules" => match Tafl::parse(rest) {
                Ok(start) if rest.starts_with("dim:") => {
                    self.record = GameRecord::new(start);
                    self.searcher.clear();
                    self.pending = None;
                    self.clock = None;
                    self.side_settable = false;
                    vec![]
                }
                Ok(_) => vec![error(&format!(
                    "bad rules: expected an OTN rules string starting with dim:, got '{rest}'"
                ))],
                Err(e) => vec![error(&format!("bad rules: {e}"))],
            },
            "position" => {
                let out = self.position(rest, None);
                if out.is_empty() {
                    self.side_settable = true;
                }
                out
            }
            "side" => self.side(rest),
            "clock" => match parse_clock(rest) {
                Ok(c) => {
                    self.clock = Some(c);
                    vec![]
                }
                Err(e) => vec![error(&format!("bad clock line '{rest}': {e}"))],
            },
            "play" => match side_word(rest) {
                Some(side) => self.play(side),
                None => vec![error(&format!(
                    "bad side '{rest}': expected attackers or defenders"
                ))],
            },
            "move" => {
                // A move searched in another position (the host moved the board since, e.g. by
                // an `opponent-move`) is dropped: the host's board then decides.
                if let Some(mv) = self
                    .pending
                    .take()
                    .and_then(|p| p.move_in(self.record.current()))
                {
                    self.record.play(mv);
                    self.side_settable = false;
                }
                self.check_record(rest)
            }
            "opponent-move" => self.opponent_move(rest),
            "error" => {
                // The host refused our move; it re-sends the board and asks again.
                self.pending = None;
                match rest.split_whitespace().next().map(str::parse::<i32>) {
                    Some(Ok(_)) => vec![],
                    _ => vec![error(&format!("bad error line: '{line}'"))],
                }
            }
            "finish" => {
                self.pending = None;
                self.clock = None;
                match rest.parse::<u8>() {
                    Ok(0..=3) => vec![],
                    _ => vec![error(&format!(
                        "bad finish code '{rest}': expected 0, 1, 2 or 3"
                    ))],
                }
            }
            "analyze" => self.analyze(rest),
            "goodbye" => {
                self.done = true;
                vec![]
            }
            // Announcements that need no action here.
            "hello" | "start" => vec![],
            _ => vec![error(&format!("unknown command '{command}'"))],
        }
    }

    /// `side attackers|defenders`: after a `position` command, the side to move there; in a
    /// game, which side the host wants us to play (the next `play` says it again), so the
    /// board is left alone.
    fn side(&mut self, rest: &str) -> Vec<String> {
        let Some(side) = side_word(rest) else {
            return vec![error(&format!(
                "bad side '{rest}': expected attackers or defenders"
            ))];
        };
        if self.side_settable {
            self.set_side_to_move(side);
        }
        vec![]
    }

    fn set_side_to_move(&mut self, side: Side) {
        let current = *self.record.current();
        if current.side_to_move() != side {
            self.record = GameRecord::new(Tafl::new(current.rules(), *current.board(), side));
        }
    }

    /// Resets the board to a host position record (keeping the rules); `side` to move, or the
    /// current side if not given.
    fn position(&mut self, record: &str, side: Option<Side>) -> Vec<String> {
        let current = *self.record.current();
        match Board::parse(record, current.rules().dim, false) {
            Ok(board) => {
                let side = side.unwrap_or(current.side_to_move());
                self.record = GameRecord::new(Tafl::new(current.rules(), board, side));
                vec![]
            }
            Err(e) => vec![error(&format!("bad position: {e}"))],
        }
    }

    /// If the host's board differs from ours, take the host's.
    fn check_record(&mut self, record: &str) -> Vec<String> {
        if record.is_empty() {
            return vec![];
        }
        let current = *self.record.current();
        match Board::parse(record, current.rules().dim, false) {
            Ok(board) if board == *current.board() => vec![],
            Ok(_) => self.position(record, Some(current.side_to_move())),
            Err(e) => vec![error(&format!("bad position: {e}"))],
        }
    }

    fn opponent_move(&mut self, rest: &str) -> Vec<String> {
        let mut words = rest.split_whitespace();
        let moves = words.next().unwrap_or("");
        let record = words.next().unwrap_or("");
        if moves.split('|').all(str::is_empty) {
            return vec![error(
                "opponent-move needs a move: opponent-move <move-list> <position>",
            )];
        }
        if let Some(extra) = words.next() {
            return vec![error(&format!(
                "opponent-move takes <move-list> <position>, not '{extra}' after them"
            ))];
        }
        let dim = self.record.current().rules().dim;
        let board = if record.is_empty() {
            None
        } else {
            match Board::parse(record, dim, false) {
                Ok(b) => Some(b),
                Err(e) => return vec![error(&format!("bad position: {e}"))],
            }
        };
        for text in moves.split('|').filter(|m| !m.is_empty()) {
            if let Err(e) = self.record.play_text(text) {
                // After refusing our move the host re-sends the opponent's last move with the
                // board after it: that board is ours already.
                if board == Some(*self.record.current().board()) {
                    return vec![];
                }
                let mut out = vec![error(&format!("cannot apply opponent move: {e}"))];
                if !record.is_empty() {
                    let mover = self.record.current().side_to_move();
                    out.extend(self.position(record, Some(mover.opponent())));
                }
                return out;
            }
            self.side_settable = false;
        }
        self.check_record(record)
    }

    fn budget(&self, side: Side) -> Duration {
        let Some(c) = self.clock else {
            return self.default_move_time;
        };
        let i = side.index();
        let ms = if c.in_overtime[i] {
            c.period_left_ms[i] * 3 / 5
        } else {
            let overtime = if c.overtime_left[i] > 0 {
                c.overtime_s * 1000
            } else {
                0
            };
            c.main_ms[i] / 30 + overtime * 3 / 5
        };
        Duration::from_millis(ms.max(20))
    }

    fn play(&mut self, side: Side) -> Vec<String> {
        if self.side_settable {
            self.set_side_to_move(side);
        }
        let state = *self.record.current();
        if state.side_to_move() != side {
            return vec![error(&format!(
                "it is not the {}' turn here",
                side_name(side)
            ))];
        }
        if state.outcome().is_some() {
            return vec![error("the game is over")];
        }
        let limits = SearchLimits::time(self.capped(self.budget(side)));
        let result = self
            .searcher
            .search_in(&state, self.record.history(), &limits);
        let mv = result.best_move.or_else(|| {
            let mut moves = Vec::new();
            state.generate_moves(&mut moves);
            moves.first().copied()
        });
        match mv {
            Some(mv) => {
                self.pending = Some(Pending {
                    position: state.hash(),
                    mv,
                });
                // No score when the search completed no iteration (its score is a placeholder).
                let score = result
                    .known_score()
                    .map_or_else(String::new, |s| format!(" score {}", s.raw()));
                vec![
                    format!(
                        "status depth {}{score} nodes {}",
                        result.depth, result.stats.nodes
                    ),
                    format!("move {}", state.format_move(mv)),
                ]
            }
            None => vec![error("no legal move")],
        }
    }

    fn analyze(&mut self, rest: &str) -> Vec<String> {
        // One line is enough: engines may return fewer lines than asked for.
        let (_count, secs) = match parse_analyze(rest) {
            Ok(v) => v,
            Err(e) => return vec![error(&format!("bad analyze line '{rest}': {e}"))],
        };
        let state = *self.record.current();
        if state.outcome().is_some() {
            return vec![error("cannot analyze: the game is over")];
        }
        let time = self.capped(Duration::from_secs_f64(secs.max(0.01)));
        let limits = SearchLimits::time(time);
        let result = self
            .searcher
            .search_in(&state, self.record.history(), &limits);
        let line = if result.pv.is_empty() {
            result.best_move.map(|m| vec![m]).unwrap_or_default()
        } else {
            result.pv.to_vec()
        };
        if line.is_empty() {
            return vec![error("cannot analyze: no legal move")];
        }
        vec![format!(
            "analysis 1 {} {}",
            state.format_line(&line).replace(' ', "|"),
            result.score.raw()
        )]
    }
}

/// `analyze <number> <seconds>`: a count of at least 1 and a finite time in (0, an hour].
fn parse_analyze(rest: &str) -> Result<(u32, f64), String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let [n, secs] = words.as_slice() else {
        return Err("expected analyze <number> <seconds>".into());
    };
    let n: u32 = n
        .parse()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| format!("'{n}' is not a move count (1 or more)"))?;
    let secs: f64 = secs
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s <= MAX_ANALYZE_S)
        .ok_or_else(|| {
            format!("'{secs}' is not a time in seconds (more than 0, at most {MAX_ANALYZE_S})")
        })?;
    Ok((n, secs))
}

/// One `[millis][*]` clock field: `(ms, in_overtime)`; `-1` (no main time) reads as 0.
fn clock_time(word: &str) -> Result<(u64, bool), String> {
    let (digits, star) = match word.strip_suffix('*') {
        Some(d) => (d, true),
        None => (word, false),
    };
    let bad = || format!("'{word}' is not a time in milliseconds (0..{MAX_CLOCK_MS}, optional *)");
    match digits.parse::<i64>() {
        Ok(-1) if !star => Ok((0, false)),
        Ok(v) if v >= 0 && v.unsigned_abs() <= MAX_CLOCK_MS => Ok((v.unsigned_abs(), star)),
        _ => Err(bad()),
    }
}

/// `clock <att-ms>[*] <def-ms>[*] <overtime-s> <att-overtimes> <def-overtimes>`.
fn parse_clock(rest: &str) -> Result<Clock, String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let [att, def, ot, att_n, def_n] = words.as_slice() else {
        return Err(format!("expected 5 fields, found {}", words.len()));
    };
    let (att, att_ot) = clock_time(att)?;
    let (def, def_ot) = clock_time(def)?;
    let overtime_s = ot
        .parse::<u64>()
        .ok()
        .filter(|&s| s <= MAX_OVERTIME_S)
        .ok_or_else(|| {
            format!("'{ot}' is not an overtime length in seconds (0..{MAX_OVERTIME_S})")
        })?;
    let count = |w: &str| {
        w.parse::<u32>()
            .map(u64::from)
            .map_err(|_| format!("'{w}' is not a count of overtime periods"))
    };
    let main = |ms: u64, ot: bool| if ot { 0 } else { ms };
    let left = |ms: u64, ot: bool| if ot { ms } else { 0 };
    Ok(Clock {
        main_ms: [main(att, att_ot), main(def, def_ot)],
        in_overtime: [att_ot, def_ot],
        period_left_ms: [left(att, att_ot), left(def, def_ot)],
        overtime_s,
        overtime_left: [count(att_n)?, count(def_n)?],
    })
}

/// Reads one line's bytes (up to and including `\n`) into `buf`, keeping at most
/// [`MAX_LINE_BYTES`] and skipping the rest. Returns `(bytes read, whether it was cut)`;
/// 0 bytes read means end of input.
fn read_line_bytes(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<(usize, bool)> {
    let mut total = 0;
    let mut cut = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok((total, cut));
        }
        let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(buf.len());
        if used > room {
            cut = true;
        }
        buf.extend_from_slice(&chunk[..used.min(room)]);
        input.consume(used);
        total += used;
        if done {
            return Ok((total, cut));
        }
    }
}

/// The engine's command-line options: `[--move-time MS] [--max-time MS]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Time per move when the host sends no clock (default 1000 ms).
    pub move_time: Duration,
    /// The longest think whatever the clock says ([`OtepEngine::with_think_cap`]); none by
    /// default.
    pub max_time: Option<Duration>,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            move_time: Duration::from_millis(1000),
            max_time: None,
        }
    }
}

impl EngineOptions {
    /// The usage line of the options.
    pub const USAGE: &'static str = "[--move-time MS] [--max-time MS]";

    /// Parses the options (the arguments after the program name or `otep` command); an error
    /// is one line naming the bad argument.
    pub fn parse(args: &[String]) -> Result<EngineOptions, String> {
        let mut options = EngineOptions::default();
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let slot = match flag.as_str() {
                "--move-time" => None,
                "--max-time" => Some(()),
                other => {
                    return Err(format!(
                        "unknown argument '{}': expected {}",
                        other.escape_debug(),
                        Self::USAGE
                    ));
                }
            };
            let Some(value) = it.next() else {
                return Err(format!("{flag} needs a value in milliseconds"));
            };
            let ms: u64 = value
                .parse()
                .ok()
                .filter(|&ms| (1..=MAX_CLOCK_MS).contains(&ms))
                .ok_or_else(|| {
                    format!(
                        "{flag} '{}': expected milliseconds, 1..={MAX_CLOCK_MS}",
                        value.escape_debug()
                    )
                })?;
            match slot {
                None => options.move_time = Duration::from_millis(ms),
                Some(()) => options.max_time = Some(Duration::from_millis(ms)),
            }
        }
        Ok(options)
    }
}

/// Runs the engine: prints `hello`, then answers host lines until `goodbye` or end of input.
/// Input is read as bytes, so a line that is not UTF-8 (or is too long) is answered with an
/// error and the engine carries on.
pub fn run_engine(
    input: impl BufRead,
    output: impl Write,
    move_time: Duration,
) -> std::io::Result<()> {
    run_engine_with(
        input,
        output,
        EngineOptions {
            move_time,
            max_time: None,
        },
    )
}

/// [`run_engine`] with all the [`EngineOptions`].
pub fn run_engine_with(
    mut input: impl BufRead,
    mut output: impl Write,
    options: EngineOptions,
) -> std::io::Result<()> {
    let mut engine = OtepEngine::new(options.move_time);
    if let Some(cap) = options.max_time {
        engine = engine.with_think_cap(cap);
    }
    tracing::debug!(line = "hello", "otep sent");
    writeln!(output, "hello")?;
    output.flush()?;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let (read, cut) = read_line_bytes(&mut input, &mut buf)?;
        if read == 0 {
            break;
        }
        tracing::debug!(
            line = %String::from_utf8_lossy(&buf).trim_end_matches(['\r', '\n']),
            cut,
            "otep received"
        );
        let replies = if cut {
            vec![error(&format!(
                "input line longer than {MAX_LINE_BYTES} bytes skipped"
            ))]
        } else {
            engine.handle_bytes(&buf)
        };
        for reply in replies {
            tracing::debug!(line = %reply, "otep sent");
            writeln!(output, "{reply}")?;
        }
        output.flush()?;
        if engine.finished() {
            break;
        }
    }
    Ok(())
}

/// One line of an OTEP transcript (see [`transcript_section`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TranscriptLine {
    /// `host> text`: a line the host sends.
    Host(String),
    /// `engine> text`: a line the engine sends.
    Engine(String),
    /// `late> text`: a line the engine sends after a pause, still busy with its last move
    /// (OpenTafl prints search statistics after its `move`); a scripted engine given a host
    /// line before its late lines are out crashes, as OpenTafl does.
    Late(String),
}

/// The lines of section `name` of an OTEP transcript. Sections open with `== name ==`; lines
/// start with `host> `, `engine> ` or `late> ` ([`TranscriptLine`]); other lines are comments.
/// `None` when the transcript has no such section. The transcript test and the scripted
/// engine (`tafl-otep-script`) read `tests/data/otep-transcript.txt` with it.
#[must_use]
pub fn transcript_section(text: &str, name: &str) -> Option<Vec<TranscriptLine>> {
    let mut lines = None;
    for raw in text.lines() {
        let raw = raw.trim_end();
        if let Some(title) = raw.strip_prefix("== ").and_then(|t| t.strip_suffix(" ==")) {
            if lines.is_some() {
                break;
            }
            if title == name {
                lines = Some(Vec::new());
            }
        } else if let Some(list) = lines.as_mut() {
            if let Some(l) = raw.strip_prefix("host> ") {
                list.push(TranscriptLine::Host(l.to_string()));
            } else if let Some(l) = raw.strip_prefix("engine> ") {
                list.push(TranscriptLine::Engine(l.to_string()));
            } else if let Some(l) = raw.strip_prefix("late> ") {
                list.push(TranscriptLine::Late(l.to_string()));
            }
        }
    }
    lines
}

/// The arguments of an OTEP binary after the program name, as text; the error names the first
/// that is not UTF-8 (where `std::env::args` would panic).
pub fn utf8_args(
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Result<Vec<String>, String> {
    args.into_iter()
        .enumerate()
        .skip(1)
        .map(|(index, arg)| {
            arg.into_string().map_err(|arg| {
                format!(
                    "argument {index} is not UTF-8 text: {}",
                    arg.to_string_lossy()
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
