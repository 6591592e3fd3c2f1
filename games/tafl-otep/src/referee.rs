//! The host side of OTEP: [`run_match`] launches two engine processes and plays games between
//! them over the given variants with a per-move clock, writing an .otg record per game and a
//! result summary.
//!
//! Key invariants: the referee owns the game ([`GameRecord`], repetition per the rules); an
//! engine that does not answer in time or dies loses the game; one that sends an illegal move
//! is told `error 2` and asked again as the protocol document says (`opponent-move` with the
//! move before and the board, then `clock` and `play`), and loses once it has used up
//! [`MatchConfig::retries`]. Engines are always sent `goodbye` and waited for (killed if they
//! hang). It speaks OTEP as OpenTafl hosts a game: `rules` to both engines, then per turn
//! `clock` (a valid one, [`clock_line`]) and `play` to the mover, `move <board>` back to it
//! and `opponent-move <a1-a2> <board>` (simple moves) to the other, `finish` and `goodbye`
//! at the end; never `side` or `position`, which OpenTafl sends only for analysis.
//!
//! Compatibility: after its `move` an engine is let [`Settle`] (read until it is quiet, for a
//! bounded time) before it is sent anything else. OpenTafl's engine goes on printing search
//! statistics after its move and crashes when a command arrives meanwhile; an opponent that
//! answers at once would otherwise send it `play` while it still prints.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use plies::agent::process::EngineProcess;
use plies::{Game, Notation, Outcome, Side};

use plies_tafl::record::GameRecord;
use plies_tafl::state::Tafl;

/// One OTEP engine process (the agent of [`crate::agent`] drives one too): the shared process
/// lifecycle ([`EngineProcess`]) with OTEP's `hello` and `goodbye`.
pub(crate) struct Engine(EngineProcess);

/// How long an engine may take to say `hello`.
const HELLO_WAIT: Duration = Duration::from_secs(10);

/// How long an engine may take to end after `goodbye` before it is killed.
const GOODBYE_GRACE: Duration = Duration::from_secs(2);

impl Engine {
    /// Starts `command` (split at whitespace) and waits for its `hello`.
    pub(crate) fn launch(command: &str) -> Result<Engine, String> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let mut engine = Engine(EngineProcess::spawn(&words).map_err(|e| e.to_string())?);
        engine
            .expect("hello", HELLO_WAIT)
            .map_err(|e| format!("'{command}' did not say hello: {e}"))?;
        Ok(engine)
    }

    /// Sends one line (a dead engine shows up as a missing answer, so a failed write is not
    /// an error here).
    pub(crate) fn send(&mut self, line: &str) {
        let _ = self.0.send(line);
    }

    /// Waits for a line starting with `word`, skipping others; returns the rest of the line.
    pub(crate) fn expect(&mut self, word: &str, timeout: Duration) -> Result<String, String> {
        self.0
            .wait_for(Instant::now() + timeout, |line| {
                let (w, rest) = line.split_once(' ').unwrap_or((line, ""));
                (w == word).then(|| rest.trim().to_string())
            })
            .map_err(|e| e.to_string())
    }

    /// Lets the engine settle after its move: reads its lines (logged, otherwise ignored)
    /// until it has been silent for `settle.quiet`, for at most `settle.limit` or until
    /// `deadline`, whichever comes first (a dead engine counts as quiet; the next read says it
    /// exited).
    pub(crate) fn settle(&mut self, settle: Settle, deadline: Option<Instant>) {
        if settle.quiet.is_zero() {
            return;
        }
        let mut end = Instant::now() + settle.limit;
        if let Some(deadline) = deadline {
            end = end.min(deadline);
        }
        while self
            .0
            .next_line(end.min(Instant::now() + settle.quiet))
            .is_ok()
        {
            if Instant::now() >= end {
                return;
            }
        }
    }

    /// Answers the illegal move `text` as the protocol document says: `error 2`, then, when a
    /// retry is left (`retry`), the opponent's last move and the board again (`last_told`) so
    /// that the engine can ask for the next `play`. Returns the reason the move loses when no
    /// retry is left (`retries` used so far, `error` why it is illegal).
    pub(crate) fn refuse(
        &mut self,
        text: &str,
        error: &str,
        retries: u32,
        retry: bool,
        last_told: Option<&str>,
    ) -> Option<String> {
        self.send("error 2");
        let text = plies::excerpt(text);
        if !retry {
            let after = match retries {
                0 => String::new(),
                1 => " (after 1 retry)".to_string(),
                n => format!(" (after {n} retries)"),
            };
            return Some(format!("move '{text}' is not a legal move{after}: {error}"));
        }
        tracing::info!(engine = %self.0.command(), %text, "illegal move, asked again");
        if let Some(line) = last_told {
            self.send(line);
        }
        None
    }

    /// `goodbye`, then waits for the process to end (killed after [`GOODBYE_GRACE`]).
    pub(crate) fn quit(mut self) {
        self.0.quit("goodbye", GOODBYE_GRACE);
    }
}

/// How long a host lets an engine settle after its `move` before it sends the engine anything
/// else (see the module docs): until the engine has been silent for `quiet`, at most `limit`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Settle {
    /// The silence that counts as settled; zero sends the next command at once.
    pub quiet: Duration,
    /// The longest wait, however much the engine still says.
    pub limit: Duration,
}

impl Settle {
    /// The default: quiet for 200 ms, at most 2 s (OpenTafl's statistics after a move are
    /// written in well under that).
    pub const DEFAULT: Settle = Settle {
        quiet: Duration::from_millis(200),
        limit: Duration::from_secs(2),
    };

    /// No settling: the next command goes at once.
    pub const NONE: Settle = Settle {
        quiet: Duration::ZERO,
        limit: Duration::ZERO,
    };

    /// Reads `MS` or `QUIET_MS/LIMIT_MS` (milliseconds; `0` for [`Settle::NONE`]).
    ///
    /// # Errors
    /// A number that is not whole milliseconds up to a minute, or a limit below the quiet
    /// time, in one line.
    pub fn parse(text: &str) -> Result<Settle, String> {
        let ms = |part: &str| -> Result<Duration, String> {
            part.trim()
                .parse::<u64>()
                .ok()
                .filter(|&ms| ms <= 60_000)
                .map(Duration::from_millis)
                .ok_or_else(|| format!("settle '{text}': expected milliseconds up to 60000"))
        };
        let (quiet, limit) = match text.split_once('/') {
            Some((quiet, limit)) => (ms(quiet)?, ms(limit)?),
            None => {
                let quiet = ms(text)?;
                (quiet, quiet.max(Settle::DEFAULT.limit))
            }
        };
        if limit < quiet {
            return Err(format!(
                "settle '{text}': the limit is below the quiet time"
            ));
        }
        Ok(Settle { quiet, limit })
    }
}

impl Default for Settle {
    fn default() -> Settle {
        Settle::DEFAULT
    }
}

/// Settings of a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Command lines of the two engines (program and arguments, split on whitespace).
    pub engines: [String; 2],
    /// OTN rules strings of the variants to play.
    pub variants: Vec<String>,
    /// Games per variant (sides alternate: even games engine 0 attacks).
    pub games_per_variant: usize,
    /// Thinking time per move. From 1 s up it is sent to the engines as a `clock` (no main
    /// time, one overtime period of that many whole seconds: see [`clock_line`]); below 1 s no
    /// clock is sent and engines use their own default move time (a test setting).
    pub move_time: Duration,
    /// Extra time allowed for process and pipe latency before a move is forfeited.
    pub grace: Duration,
    /// Plies after which a game is adjudicated a draw.
    pub max_plies: usize,
    /// Where the .otg records go (created if missing).
    pub out_dir: PathBuf,
    /// How engines are let settle after each move.
    pub settle: Settle,
    /// Illegal moves an engine may answer with a retry per move before it loses the game.
    pub retries: u32,
}

/// The result of one game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Variant name.
    pub variant: String,
    /// Which engine (0/1) played the attackers.
    pub attacker_engine: usize,
    /// How it ended (`None`: adjudicated draw at the ply cap).
    pub outcome: Option<Outcome>,
    /// Why, in words (e.g. "king captured", "engine 1: the engine said nothing in time (it hangs)").
    pub reason: String,
    /// Plies played.
    pub plies: usize,
    /// Illegal moves answered with `error 2` and a new `play` in this game.
    pub retried: usize,
    /// The .otg file written.
    pub record_path: PathBuf,
}

/// Plays the match and returns every game's result.
pub fn run_match(config: &MatchConfig) -> Result<Vec<GameResult>, String> {
    std::fs::create_dir_all(&config.out_dir)
        .map_err(|e| format!("cannot create {}: {e}", config.out_dir.display()))?;
    let mut results = Vec::new();
    for rules in &config.variants {
        let start = Tafl::parse(rules).map_err(|e| format!("bad variant rules: {e}"))?;
        for game in 0..config.games_per_variant {
            let attacker_engine = game % 2;
            let number = results.len() + 1;
            let result = play_game(config, rules, start, attacker_engine, number)?;
            results.push(result);
        }
    }
    Ok(results)
}

/// The `clock` line for a per-move time, or `None` below 1 s (no clock is sent then).
///
/// OTEP times are milliseconds of main time, or, followed by `*`, what is left of the current
/// overtime period once main time is spent; then the overtime period length in seconds and
/// the periods left for each side. A per-move clock is "no main time, in overtime, a whole
/// period of the move time left, one period": `clock 5000* 5000* 5 1 1` for 5 s. (`0*` would
/// say no time is left: OpenTafl's engine then plans a negative think time and fails.) It is
/// sent right before `play`, as OpenTafl itself does, because engines read it when asked to
/// play.
#[must_use]
pub fn clock_line(move_time: Duration) -> Option<String> {
    let secs = move_time.as_secs();
    (secs >= 1).then(|| {
        let ms = secs * 1000;
        format!("clock {ms}* {ms}* {secs} 1 1")
    })
}

fn finish_code(outcome: Option<Outcome>) -> u8 {
    match outcome {
        None | Some(Outcome::Draw) => 1,
        Some(Outcome::Win(Side::First)) => 2,
        Some(Outcome::Win(Side::Second)) => 3,
    }
}

fn play_game(
    config: &MatchConfig,
    rules: &str,
    start: Tafl,
    attacker_engine: usize,
    number: usize,
) -> Result<GameResult, String> {
    let mut engines = [
        Engine::launch(&config.engines[0])?,
        Engine::launch(&config.engines[1])?,
    ];
    // As OpenTafl hosts a game: `rules` only. `side` belongs to analysis (after `position`);
    // OpenTafl's engine reads it as "this side is to move", so sent before a game it turns
    // the engine's board to the wrong side. `play` names the side instead.
    for e in &mut engines {
        e.send(&format!("rules {rules}"));
    }
    let mut record = GameRecord::new(start);
    let mut outcome = None;
    let mut reason = String::from("ply limit");
    // The last `opponent-move` line each engine was sent, sent again when it retries a move.
    let mut last_told: [Option<String>; 2] = [None, None];
    let mut retried = 0;
    while record.moves().len() < config.max_plies {
        let state = *record.current();
        if let Some(o) = state.outcome() {
            outcome = Some(o);
            reason = if record.ended_by_repetition() {
                "threefold repetition".into()
            } else {
                "rules".into()
            };
            break;
        }
        let side = state.side_to_move();
        let mover = if side == Side::First {
            attacker_engine
        } else {
            1 - attacker_engine
        };
        let word = if side == Side::First {
            "attackers"
        } else {
            "defenders"
        };
        match ask_move(
            config,
            &mut engines[mover],
            &state,
            word,
            last_told[mover].as_deref(),
        ) {
            Ok((mv, retries)) => {
                retried += retries;
                let full = state.format_move(mv);
                record.play(mv);
                let board = record.current().board().to_otn(start.rules().dim);
                engines[mover].send(&format!("move {board}"));
                let told = format!("opponent-move {full} {board}");
                engines[1 - mover].send(&told);
                last_told[1 - mover] = Some(told);
            }
            Err((why, retries)) => {
                retried += retries;
                outcome = Some(Outcome::Win(side.opponent()));
                reason = format!("engine {mover}: {why}");
                break;
            }
        }
    }
    if outcome.is_none()
        && let Some(o) = record.current().outcome()
    {
        outcome = Some(o);
        reason = if record.ended_by_repetition() {
            "threefold repetition".into()
        } else {
            "rules".into()
        };
    }
    for e in &mut engines {
        e.send(&format!("finish {}", finish_code(outcome)));
    }
    for e in engines {
        e.quit();
    }
    let variant = if start.rules().name.is_empty() {
        format!("{}x{}", start.rules().dim, start.rules().dim)
    } else {
        start.rules().name.clone()
    };
    let result_tag = match outcome {
        Some(Outcome::Win(Side::First)) => "1",
        Some(Outcome::Win(Side::Second)) => "-1",
        _ => "0",
    };
    let attackers = config.engines[attacker_engine].clone();
    let defenders = config.engines[1 - attacker_engine].clone();
    let text = record.to_otg(&[
        ("event", "plies referee"),
        ("variant", &variant),
        ("attackers", &attackers),
        ("defenders", &defenders),
        ("result", result_tag),
        ("termination", &reason),
    ]);
    let path = config.out_dir.join(format!("game{number:03}.otg"));
    write_file(&path, &text)?;
    Ok(GameResult {
        variant,
        attacker_engine,
        outcome,
        reason,
        plies: record.moves().len(),
        retried,
        record_path: path,
    })
}

/// Asks `engine` for its move as `word` (`attackers`/`defenders`) in `state`: `clock` and
/// `play`, then its `move`, after which it is let settle. An illegal move is answered with
/// `error 2`, `last_told` again (the opponent's move and the board) and a new `play`, up to
/// [`MatchConfig::retries`] times. Returns the move and the retries used, or why the engine
/// loses and the retries used.
fn ask_move(
    config: &MatchConfig,
    engine: &mut Engine,
    state: &Tafl,
    word: &str,
    last_told: Option<&str>,
) -> Result<(<Tafl as Game>::Move, usize), (String, usize)> {
    let mut retries = 0;
    loop {
        if let Some(clock) = clock_line(config.move_time) {
            engine.send(&clock);
        }
        engine.send(&format!("play {word}"));
        let text = engine
            .expect("move", config.move_time + config.grace)
            .map_err(|e| (e, retries as usize))?;
        engine.settle(config.settle, None);
        match state.parse_move(&text) {
            Ok(mv) => return Ok((mv, retries as usize)),
            Err(e) => {
                let retry = retries < config.retries;
                let refused = engine.refuse(&text, &e.to_string(), retries, retry, last_told);
                if let Some(why) = refused {
                    return Err((format!("illegal move: {why}"), retries as usize));
                }
                retries += 1;
            }
        }
    }
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// A results summary: one line per game and the score of each engine (win 1, draw 1/2).
#[must_use]
pub fn summary(results: &[GameResult]) -> String {
    let mut s = String::new();
    let mut points = [0.0f64; 2];
    for (i, r) in results.iter().enumerate() {
        let winner = match r.outcome {
            Some(Outcome::Win(Side::First)) => Some(r.attacker_engine),
            Some(Outcome::Win(Side::Second)) => Some(1 - r.attacker_engine),
            _ => None,
        };
        match winner {
            Some(w) => points[w] += 1.0,
            None => {
                points[0] += 0.5;
                points[1] += 0.5;
            }
        }
        let retried = match r.retried {
            0 => String::new(),
            1 => ", 1 move retried".to_string(),
            n => format!(", {n} moves retried"),
        };
        s += &format!(
            "game {:3} {:<16} attackers: engine {}  {:>4} plies  {}  ({}{retried})  {}\n",
            i + 1,
            r.variant,
            r.attacker_engine,
            r.plies,
            match winner {
                Some(w) => format!("engine {w} wins"),
                None => "draw".to_string(),
            },
            r.reason,
            r.record_path.display()
        );
    }
    s += &format!("score: engine 0 {} - engine 1 {}\n", points[0], points[1]);
    s
}
