//! An OTEP engine process as a [`plies::agent::Agent`]: [`OtepAgent`], so that tournament code
//! built on the `Agent` trait (the plies arena's `--engine otep:COMMAND`) plays OpenTafl
//! engines with plies as the arbiter.
//!
//! Per game the agent starts the engine (`hello`), sends `rules` whose start position is the
//! game's opening (its side to move through `atkf:`), and per move the moves since its last
//! one (`move <board>` confirming its own, `opponent-move <a1-a2> <board>` for the other
//! side's), a `clock` and `play attackers|defenders`, then reads `move <a1-a2>` back. A clock
//! time control is sent as main time (OTEP has no increment: each `clock` line carries the
//! time the host's clock shows); a per-move time as the referee's one-period overtime clock
//! ([`crate::referee::clock_line`], from 1 s); depth and node limits cannot be said in OTEP,
//! so an engine given only those thinks for its own default time.
//!
//! As the referee does ([`crate::referee`]), the agent lets the engine settle after each of
//! its moves (in [`Agent::observe`], outside any clock) and answers an illegal move with
//! `error 2`, the opponent's last move again and a new `play`, up to
//! [`OtepCommand::retries`] times within the move's time.
//!
//! Key invariants: whatever the process does (exits, hangs, writes illegal moves),
//! [`Agent::choose`] returns by its deadline without panicking: an [`AgentError::Failed`]
//! saying what happened, the engine told `error 2` for its last illegal move and then let go
//! (`goodbye`, killed when it lingers). Each game has its own process, as OpenTafl runs its
//! engines; a process is never left running (see [`OtepAgent`] for when it is reaped).

use std::time::{Duration, Instant};

use plies::agent::{Agent, AgentError, Choice};
use plies::search::SearchLimits;
use plies::{Game, GameHistory, Notation, Side};

use plies_tafl::rules::Rules;
use plies_tafl::state::Tafl;

use crate::referee::{Engine, Settle, clock_line};

/// Extra time a clocked engine is waited for beyond its clock (past it the move is lost on
/// time anyway; the slack lets the host's measurement decide).
const CLOCK_SLACK: Duration = Duration::from_millis(50);

/// An OTEP engine as an `--engine otep:...` spec gives it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OtepCommand {
    /// The command line (program and arguments, split at whitespace).
    pub command: String,
    /// How long the engine may stay silent when neither a clock nor a move time bounds the
    /// wait; past it the engine hangs.
    pub timeout: Duration,
    /// How the engine is let settle after each of its moves.
    pub settle: Settle,
    /// Illegal moves answered with a retry per move before the engine loses the game.
    pub retries: u32,
}

impl OtepCommand {
    /// The default [`OtepCommand::timeout`].
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

    /// The default [`OtepCommand::retries`].
    pub const DEFAULT_RETRIES: u32 = 2;

    /// Reads the part of a spec after `otep:`: options `timeout=SECONDS:`,
    /// `settle=MS[/LIMIT_MS]:` ([`Settle::parse`]) and `retries=N:` in any order, then the
    /// command line.
    ///
    /// # Errors
    /// A bad option value or no command, in one line.
    pub fn parse(text: &str) -> Result<OtepCommand, String> {
        let mut engine = OtepCommand {
            command: String::new(),
            timeout: Self::DEFAULT_TIMEOUT,
            settle: Settle::DEFAULT,
            retries: Self::DEFAULT_RETRIES,
        };
        let mut command = text;
        while let Some((key, rest)) = command.split_once('=') {
            if !matches!(key, "timeout" | "settle" | "retries") {
                break;
            }
            let (value, after) = rest.split_once(':').unwrap_or((rest, ""));
            match key {
                "timeout" => {
                    let seconds = value
                        .trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|s| s.is_finite() && *s > 0.0 && *s <= 86_400.0)
                        .ok_or_else(|| {
                            format!("'timeout={value}': expected seconds in (0, 86400]")
                        })?;
                    engine.timeout = Duration::from_secs_f64(seconds);
                }
                "settle" => engine.settle = Settle::parse(value)?,
                _ => {
                    engine.retries = value
                        .trim()
                        .parse::<u32>()
                        .ok()
                        .filter(|&n| n <= 100)
                        .ok_or_else(|| format!("'retries={value}': expected 0 to 100"))?;
                }
            }
            command = after;
        }
        if command.split_whitespace().next().is_none() {
            return Err("no engine command".into());
        }
        engine.command = command.trim().to_string();
        Ok(engine)
    }

    /// Starts the engine until it says `hello` and lets it go again: an engine that cannot be
    /// started is an error before the first game.
    ///
    /// # Errors
    /// What went wrong, in one line.
    pub fn check(&self) -> Result<(), String> {
        Engine::launch(&self.command).map(Engine::quit)
    }
}

/// An [`Agent`] playing tafl through an OTEP engine process (see the module docs).
///
/// The process is started (until `hello`) in [`Agent::new_game`], outside the time the arena
/// charges for a move; one let go during a move (after a failure) is sent `goodbye` and reaped
/// only at the next [`Agent::observe`] or [`Agent::new_game`], so a slow exit is never charged to
/// a clock.
pub struct OtepAgent {
    engine: OtepCommand,
    process: Option<Engine>,
    /// Processes let go, to reap outside a move's time.
    retired: Vec<Engine>,
    /// Why the process could not be started for the current game.
    broken: Option<String>,
    /// The engine has been sent the game's `rules`.
    told_rules: bool,
    /// The current game's start, once known.
    start: Option<Tafl>,
    /// The lines telling the engine of the moves played since it last heard.
    pending: Vec<String>,
    /// The last `opponent-move` line it was sent, sent again when it retries a move.
    last_told: Option<String>,
    /// The position it was last asked about (its hash) and the move it chose there.
    chosen: Option<(u64, <Tafl as Game>::Move)>,
}

impl OtepAgent {
    /// An agent for `engine`; a process starts with each game.
    #[must_use]
    pub fn new(engine: OtepCommand) -> OtepAgent {
        OtepAgent {
            engine,
            process: None,
            retired: Vec::new(),
            broken: None,
            told_rules: false,
            start: None,
            pending: Vec::new(),
            last_told: None,
            chosen: None,
        }
    }

    fn ask(
        &mut self,
        state: &Tafl,
        budget: &SearchLimits,
    ) -> Result<Choice<<Tafl as Game>::Move>, String> {
        if let Some(why) = self.broken.clone() {
            return Err(why);
        }
        let started = Instant::now();
        let Some(process) = self.process.as_mut() else {
            return Err("the engine is gone".into());
        };
        if !self.told_rules {
            let start = self.start.get_or_insert(*state);
            process.send(&format!("rules {}", rules_line(start)));
            self.told_rules = true;
        }
        for line in self.pending.drain(..) {
            if line.starts_with("opponent-move ") {
                self.last_told = Some(line.clone());
            }
            process.send(&line);
        }
        let side = state.side_to_move();
        let deadline = started
            + if let Some(clock) = &budget.clock {
                clock.remaining[side.index()] + CLOCK_SLACK
            } else if let Some(time) = budget.time {
                time + time.max(Duration::from_secs(1))
            } else {
                self.engine.timeout
            };
        let mut retries = 0;
        loop {
            if let Some(clock) = &budget.clock {
                // The mover's clock as it stands now, a retry's time included.
                let spent = started.elapsed();
                let ms = |s: Side| {
                    let left = clock.remaining[s.index()];
                    if s == side {
                        left.saturating_sub(spent)
                    } else {
                        left
                    }
                    .as_millis()
                };
                process.send(&format!(
                    "clock {} {} 0 0 0",
                    ms(Side::First),
                    ms(Side::Second)
                ));
            } else if let Some(line) = budget.time.and_then(clock_line) {
                process.send(&line);
            }
            process.send(&format!("play {}", side_word(side)));
            let left = deadline.saturating_duration_since(Instant::now());
            let text = process
                .expect("move", left)
                .map_err(|e| format!("no move: {e}"))?;
            match state.parse_move(&text) {
                Ok(mv) => {
                    self.chosen = Some((state.hash(), mv));
                    return Ok(Choice::bare(mv));
                }
                Err(e) => {
                    process.settle(self.engine.settle, Some(deadline));
                    let retry = retries < self.engine.retries;
                    let refused = process.refuse(
                        &text,
                        &e.to_string(),
                        retries,
                        retry,
                        self.last_told.as_deref(),
                    );
                    if let Some(why) = refused {
                        return Err(why);
                    }
                    retries += 1;
                }
            }
        }
    }

    /// Lets the process go now; it is told `goodbye` and reaped by [`OtepAgent::reap`].
    fn retire(&mut self) {
        if let Some(process) = self.process.take() {
            self.retired.push(process);
        }
    }

    /// `goodbye` to the processes let go, each waited for (killed when it lingers).
    fn reap(&mut self) {
        for process in self.retired.drain(..) {
            process.quit();
        }
    }
}

/// `attackers` or `defenders`.
fn side_word(side: Side) -> &'static str {
    match side {
        Side::First => "attackers",
        Side::Second => "defenders",
    }
}

/// The OTN rules of `state`'s variant with its board as the start and its side to move first.
fn rules_line(state: &Tafl) -> String {
    let mut rules: Rules = state.rules().clone();
    rules.attackers_first = state.side_to_move() == Side::First;
    rules.to_otn(state.board())
}

impl Agent<Tafl> for OtepAgent {
    fn name(&self) -> String {
        format!("otep:{}", self.engine.command)
    }

    fn new_game(&mut self, _seed: u64) {
        self.retire();
        self.reap();
        self.start = None;
        self.told_rules = false;
        self.pending.clear();
        self.last_told = None;
        self.chosen = None;
        match Engine::launch(&self.engine.command) {
            Ok(process) => {
                self.process = Some(process);
                self.broken = None;
            }
            Err(why) => self.broken = Some(why),
        }
    }

    fn choose(
        &mut self,
        state: &Tafl,
        _history: &GameHistory,
        budget: &SearchLimits,
    ) -> Result<Choice<<Tafl as Game>::Move>, AgentError> {
        self.ask(state, budget).map_err(|why| {
            self.retire();
            AgentError::Failed(why.into())
        })
    }

    fn observe(&mut self, before: &Tafl, mv: <Tafl as Game>::Move) {
        self.reap();
        self.start.get_or_insert(*before);
        let after = before.play(mv);
        let board = after.board().to_otn(after.rules().dim);
        // The engine's own move is confirmed with `move`; the other side's is told in full.
        let own = self.chosen.take() == Some((before.hash(), mv));
        if own && let Some(process) = self.process.as_mut() {
            process.settle(self.engine.settle, None);
        }
        self.pending.push(if own {
            format!("move {board}")
        } else {
            format!("opponent-move {} {board}", before.format_move(mv))
        });
    }
}

impl Drop for OtepAgent {
    fn drop(&mut self) {
        self.retire();
        self.reap();
    }
}
