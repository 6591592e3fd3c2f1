//! External engines in the arena: [`UgiAgent`] plays through an engine process that speaks UGI
//! (`docs/ugi.md`), with plies as the arbiter (its own rules decide legality and results).
//!
//! Per game the agent sends `uginewgame` and `isready`; per move `position fen <start> moves
//! ...` (the game's start position and every move since, so the engine's repetition history is
//! the game's) and `go` with the move's limits (`p1time p2time p1inc p2inc` under a clock,
//! else `movetime`, and `depth`/`nodes` when set); it reads `info` lines for depth, nodes and
//! score until `bestmove`.
//!
//! Key invariants: whatever the process does (exits, hangs, writes garbage, an illegal move or
//! endless output), [`Agent::choose`] returns by its deadline and never panics: an
//! [`AgentError::Failed`] saying what happened, and the process killed, so the next game starts a fresh one. A
//! process is always told `quit` and reaped (killed when it lingers) when the agent lets it go.

use std::time::{Duration, Instant};

use plies::agent::process::{EngineProcess, ProcessError};
use plies::agent::{Agent, AgentError, Choice};
use plies::search::SearchLimits;
use plies::{GameHistory, Notation, Score, Side, excerpt};

/// How long an engine may take to finish after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(1);

/// Extra time a clocked engine is waited for beyond its clock: past it the move is lost on time
/// anyway; the slack only makes sure the host's measurement, not the wait, decides.
const CLOCK_SLACK: Duration = Duration::from_millis(50);

/// When the agent starts a new engine process.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Restart {
    /// One process for the whole match, started again only after it failed (the default: the
    /// engine keeps its table from move to move).
    Never,
    /// A fresh process for every move (what driving an engine one process per move costs).
    EveryMove,
}

/// An external UGI engine as an `--engine ugi:...` spec gives it: the command that starts it,
/// the options it is set, when it is restarted, and how long it may stay silent.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UgiEngine {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// `setoption name NAME value VALUE` sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// When to start a fresh process.
    pub restart: Restart,
    /// How long the engine may stay silent when no clock or move time bounds the wait (the
    /// handshake, `isready`, a search limited by depth or nodes); past it the engine hangs.
    pub timeout: Duration,
}

impl UgiEngine {
    /// The default [`UgiEngine::timeout`].
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

    /// Reads the part of a spec after `ugi:`: optional `key=value:` settings, then the command
    /// line (split at whitespace). Settings: `option.NAME=VALUE` (a `setoption`),
    /// `restart=game|move`, `timeout=SECONDS`. `option.Hash=64:restart=move:./engine --quiet`.
    ///
    /// # Errors
    /// A bad setting or no command, in one line naming it.
    pub fn parse(text: &str) -> Result<UgiEngine, UgiEngineError> {
        Self::parse_text(text).map_err(UgiEngineError::Spec)
    }

    /// [`UgiEngine::parse`], with the reason as text.
    fn parse_text(text: &str) -> Result<UgiEngine, String> {
        let mut engine = UgiEngine {
            command: Vec::new(),
            options: Vec::new(),
            restart: Restart::Never,
            timeout: Self::DEFAULT_TIMEOUT,
        };
        let mut rest = text;
        loop {
            let (segment, after) = rest.split_once(':').unwrap_or((rest, ""));
            let Some((key, value)) = segment.split_once('=') else {
                break;
            };
            let key = key.trim();
            let value = value.trim();
            if let Some(name) = key.strip_prefix("option.") {
                if name.trim().is_empty() {
                    return Err(format!("'{segment}': no option name"));
                }
                engine.options.push((name.to_string(), value.to_string()));
            } else if key == "restart" {
                engine.restart = match value {
                    "game" => Restart::Never,
                    "move" => Restart::EveryMove,
                    _ => {
                        return Err(format!(
                            "'{segment}': expected restart=game or restart=move"
                        ));
                    }
                };
            } else if key == "timeout" {
                let seconds = value
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s > 0.0 && *s <= 86_400.0)
                    .ok_or_else(|| format!("'{segment}': expected seconds in (0, 86400]"))?;
                engine.timeout = Duration::from_secs_f64(seconds);
            } else {
                break;
            }
            rest = after;
        }
        engine.command = rest.split_whitespace().map(String::from).collect();
        if engine.command.is_empty() {
            return Err("no engine command after the settings".into());
        }
        Ok(engine)
    }

    /// Starts the engine, completes the handshake and lets it go again: an engine that cannot
    /// be started or does not speak UGI is an error before the first game.
    ///
    /// # Errors
    /// What went wrong, in one line.
    pub fn check(&self) -> Result<(), UgiEngineError> {
        Process::start(self, Instant::now() + self.timeout)
            .map(drop)
            .map_err(UgiEngineError::Start)
    }
}

/// Why an external UGI engine cannot be used. Displays as one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UgiEngineError {
    /// The spec after `ugi:` is bad (a setting, or no command): why, naming the part.
    Spec(String),
    /// The engine cannot be started, or does not complete the handshake: why.
    Start(String),
}

impl std::fmt::Display for UgiEngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UgiEngineError::Spec(why) | UgiEngineError::Start(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for UgiEngineError {}

/// A UGI engine process: the shared process lifecycle ([`EngineProcess`]) with UGI's
/// handshake, and `quit` when it is let go.
struct Process(EngineProcess);

impl Process {
    /// Starts the process and completes the handshake by `deadline`: `ugi` until `ugiok`, the
    /// options, then `isready` until `readyok`.
    fn start(engine: &UgiEngine, deadline: Instant) -> Result<Process, String> {
        let mut process = Process(EngineProcess::spawn(&engine.command).map_err(one_line)?);
        process.send("ugi")?;
        process
            .0
            .wait_for(deadline, |line| (line == "ugiok").then_some(()))
            .map_err(|e| format!("no ugiok: {e}"))?;
        for (name, value) in &engine.options {
            process.send(&format!("setoption name {name} value {value}"))?;
        }
        process.ready(deadline)?;
        Ok(process)
    }

    /// Sends one line.
    fn send(&mut self, line: &str) -> Result<(), String> {
        self.0.send(line).map_err(one_line)
    }

    /// `isready` until `readyok`.
    fn ready(&mut self, deadline: Instant) -> Result<(), String> {
        self.send("isready")?;
        self.0
            .wait_for(deadline, |line| (line == "readyok").then_some(()))
            .map_err(|e| format!("no readyok: {e}"))
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.0.quit("quit", QUIT_GRACE);
    }
}

/// A process error as the agent's one-line reason.
fn one_line(error: ProcessError) -> String {
    error.to_string()
}

/// What an engine's `info` lines said about its search.
#[derive(Default)]
struct Seen {
    depth: Option<u32>,
    nodes: u64,
    score: Option<Score>,
}

impl Seen {
    /// Takes `depth`, `nodes` and `score cp|mate` from an `info` line (other lines and words
    /// ignored, as the protocol asks of a host).
    fn read(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return;
        }
        while let Some(word) = words.next() {
            match word {
                "depth" => {
                    if let Some(depth) = words.next().and_then(|w| w.parse().ok()) {
                        self.depth = Some(depth);
                    }
                }
                "nodes" => {
                    if let Some(nodes) = words.next().and_then(|w| w.parse().ok()) {
                        self.nodes = nodes;
                    }
                }
                "score" => {
                    let kind = words.next();
                    let value = words.next().and_then(|w| w.parse::<i64>().ok());
                    self.score = match (kind, value) {
                        (Some("cp"), Some(cp)) => {
                            Some(Score::cp(cp.clamp(-1_000_000, 1_000_000) as i32))
                        }
                        (Some("mate"), Some(plies)) => {
                            let plies = plies.unsigned_abs().min(u64::from(Score::MAX_PLY)) as u32;
                            Some(if value.is_some_and(|v| v > 0) {
                                Score::win_in(plies)
                            } else {
                                Score::loss_in(plies)
                            })
                        }
                        _ => self.score,
                    };
                }
                "pv" | "string" => return,
                _ => {}
            }
        }
    }
}

/// An [`Agent`] playing through an external UGI engine process (see the module docs).
///
/// The process is started and told of a new game in [`Agent::new_game`], outside the time the
/// arena charges for a move; a process let go during a move (after a failure, or after each move
/// with [`Restart::EveryMove`]) is told `quit` and reaped only at the next
/// [`Agent::observe`] or [`Agent::new_game`], so a slow exit is never charged to a clock.
pub struct UgiAgent {
    engine: UgiEngine,
    process: Option<Process>,
    /// Processes let go, to reap outside a move's time.
    retired: Vec<Process>,
    /// Why the process could not be started or readied for the current game.
    broken: Option<String>,
    /// The current game's start position, as the engine is sent it.
    start: Option<String>,
    /// The current game's moves so far, as tokens.
    moves: Vec<String>,
}

impl UgiAgent {
    /// An agent for `engine`; its process starts with the first game.
    #[must_use]
    pub fn new(engine: UgiEngine) -> UgiAgent {
        UgiAgent {
            engine,
            process: None,
            retired: Vec::new(),
            broken: None,
            start: None,
            moves: Vec::new(),
        }
    }

    /// Lets the process go (it is reaped later, see the type's docs).
    fn retire(&mut self) {
        if let Some(process) = self.process.take() {
            self.retired.push(process);
        }
    }

    /// Starts the process if there is none and tells it of a new game.
    fn prepare(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + self.engine.timeout;
        if self.process.is_none() {
            self.process = Some(Process::start(&self.engine, deadline)?);
        }
        let process = self.process.as_mut().expect("started above");
        process.send("uginewgame")?;
        process.ready(deadline)
    }

    /// One move: the game so far and `go` sent, the `bestmove` read as a move of `state`.
    fn ask<G: Notation>(
        &mut self,
        state: &G,
        budget: &SearchLimits,
    ) -> Result<Choice<G::Move>, String> {
        if let Some(why) = self.broken.clone() {
            return Err(why);
        }
        let started = Instant::now();
        let (go, wait) = go_line(budget, state.side_to_move(), self.engine.timeout);
        // The wait counts from the move's start (a restart's handshake included).
        let deadline = started + wait;
        if self.process.is_none() {
            self.process = Some(Process::start(
                &self.engine,
                deadline.min(started + self.engine.timeout),
            )?);
        }
        let process = self.process.as_mut().expect("started above");
        let start = self.start.get_or_insert_with(|| state.format_position());
        let mut position = format!("position fen {start}");
        if !self.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&self.moves.join(" "));
        }
        process.0.drain();
        process.send(&position)?;
        process.send(&go)?;
        let mut seen = Seen::default();
        let token = process
            .0
            .wait_for(deadline, |line| {
                let mut words = line.split_whitespace();
                match words.next() {
                    Some("bestmove") => Some(words.next().unwrap_or("").to_string()),
                    _ => {
                        seen.read(line);
                        None
                    }
                }
            })
            .map_err(|e| format!("no bestmove: {e}"))?;
        if token.is_empty() || token == "0000" {
            return Err(format!(
                "bestmove '{token}' (no move) in a position with legal moves"
            ));
        }
        let mv = state
            .parse_move(&token)
            .map_err(|e| format!("bestmove '{}' is not a legal move: {e}", excerpt(&token)))?;
        if self.engine.restart == Restart::EveryMove {
            self.retire();
        }
        Ok(Choice {
            mv,
            score: seen.score,
            depth: seen.depth,
            nodes: seen.nodes,
        })
    }
}

/// The `go` line for a move by `side` within `budget`, and how long to wait for its `bestmove`:
/// under a clock, what the clock has left; with a move time, twice it (at least a second more);
/// otherwise `timeout`.
fn go_line(budget: &SearchLimits, side: Side, timeout: Duration) -> (String, Duration) {
    let mut go = String::from("go");
    let wait = if let Some(clock) = &budget.clock {
        let ms = |d: Duration| d.as_millis();
        go += &format!(
            " p1time {} p2time {} p1inc {} p2inc {}",
            ms(clock.remaining[0]),
            ms(clock.remaining[1]),
            ms(clock.increment[0]),
            ms(clock.increment[1])
        );
        clock.remaining[side.index()] + CLOCK_SLACK
    } else if let Some(time) = budget.time {
        go += &format!(" movetime {}", time.as_millis().max(1));
        time + time.max(Duration::from_secs(1))
    } else {
        timeout
    };
    if let Some(depth) = budget.depth {
        go += &format!(" depth {depth}");
    }
    if let Some(nodes) = budget.nodes {
        go += &format!(" nodes {nodes}");
    }
    (go, wait)
}

impl<G: Notation> Agent<G> for UgiAgent {
    fn name(&self) -> String {
        format!("ugi:{}", self.engine.command.join(" "))
    }

    fn new_game(&mut self, _seed: u64) {
        self.retired.clear();
        self.start = None;
        self.moves.clear();
        self.broken = self.prepare().err();
        if self.broken.is_some() {
            self.retire();
            self.retired.clear();
        }
    }

    fn choose(
        &mut self,
        state: &G,
        _history: &GameHistory,
        budget: &SearchLimits,
    ) -> Result<Choice<G::Move>, AgentError> {
        self.ask(state, budget).map_err(|why| {
            // Whatever state it is in, the next game starts a fresh process.
            self.retire();
            AgentError::Failed(why.into())
        })
    }

    fn observe(&mut self, before: &G, mv: G::Move) {
        self.retired.clear();
        self.start.get_or_insert_with(|| before.format_position());
        self.moves.push(before.format_move_token(mv));
    }
}

#[cfg(test)]
mod tests;
