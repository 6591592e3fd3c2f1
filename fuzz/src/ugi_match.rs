//! `plies-fuzz ugi-match`: a host that drives a UGI engine the way a tournament manager such as
//! cutegames does, and counts every way the engine can fail its host: hangs, refused commands,
//! time losses and crashes.
//!
//! One engine process plays both sides of every game (so a `go` comes right after the engine's
//! own `bestmove`, the race a manager hits when both players are one engine; now and then a
//! second `go` on the same position follows a `bestmove` at once), options are set
//! in a seeded random order after the handshake, every `isready` must be answered within a
//! second, `isready` and `query gameover` come before some `go`s and `isready` during some
//! searches, and some positions are first analysed with `go infinite` and `stop`. The
//! host is the arbiter: the game's rules (this crate's copy of each game) judge every move, and
//! a side whose move takes more than its clock loses on time.
//!
//! The process itself (start, bounded lines, deadlines, killing one that lingers) is the
//! shared [`EngineProcess`] the UGI and OTEP agents drive; this module adds only the host's
//! words and its bookkeeping.
//!
//! Key invariant: the report counts only what the engine did; a run is clean when hangs,
//! refusals, time losses, illegal moves and crashes are all 0.

use std::time::{Duration, Instant};

use plies::agent::process::{EngineProcess, ProcessError};
use plies::rng::SplitMix64;
use plies::{Game, GameHistory, Notation};

/// How a run is played.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The engine command, split at spaces.
    pub command: String,
    /// Each side's clock at the start, in milliseconds.
    pub base_ms: u64,
    /// Added after each move, in milliseconds.
    pub inc_ms: u64,
    /// Seed of the host's choices.
    pub seed: u64,
    /// A game still running after this many plies is a draw.
    pub max_plies: u32,
}

/// What the engine did over a run.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    /// Games played to their end.
    pub games: u32,
    /// Moves asked for.
    pub moves: u64,
    /// Commands never answered (`go` without `bestmove`, `isready` without `readyok` within
    /// its timeout, a handshake without `ugiok`).
    pub hangs: u32,
    /// `info string error` lines in answer to a command the host sent in good form.
    pub refusals: u32,
    /// Moves that took more than the mover's clock.
    pub time_losses: u32,
    /// `bestmove` texts that were no legal move.
    pub illegal: u32,
    /// Engine processes that exited while the host still talked to them.
    pub crashes: u32,
    /// The slowest `readyok`, in milliseconds.
    pub worst_isready_ms: u128,
    /// The slowest `bestmove` after a `stop`, in milliseconds.
    pub worst_stop_ms: u128,
    /// One line per failure (the first 20), with the last lines exchanged.
    pub failures: Vec<String>,
}

impl MatchReport {
    /// No hang, refusal, time loss, illegal move or crash.
    #[must_use]
    pub fn is_clean(&self) -> bool {
        self.hangs + self.refusals + self.time_losses + self.illegal + self.crashes == 0
    }

    fn fail(&mut self, line: String) {
        if self.failures.len() < 20 {
            self.failures.push(line);
        }
    }
}

impl std::fmt::Display for MatchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} games, {} moves: {} hangs, {} refusals, {} time losses, {} illegal moves, \
             {} crashes; worst isready {} ms, worst stop {} ms",
            self.games,
            self.moves,
            self.hangs,
            self.refusals,
            self.time_losses,
            self.illegal,
            self.crashes,
            self.worst_isready_ms,
            self.worst_stop_ms
        )?;
        for failure in &self.failures {
            write!(f, "\n  {failure}")?;
        }
        Ok(())
    }
}

/// The engine process, with what the host remembers of the exchange.
struct Engine {
    process: EngineProcess,
    /// The last lines sent (`>`) and received (`<`), for the report of a failure.
    recent: std::collections::VecDeque<String>,
    /// Answers read while waiting for another (a `bestmove` that came before a `readyok`),
    /// kept for the wait that wants them.
    pending: Vec<String>,
}

impl Engine {
    /// Starts `command`, split at spaces.
    fn start(command: &str) -> Result<Engine, ProcessError> {
        let words: Vec<&str> = command.split_whitespace().collect();
        Ok(Engine {
            process: EngineProcess::spawn(&words)?,
            recent: std::collections::VecDeque::new(),
            pending: Vec::new(),
        })
    }

    fn note(&mut self, line: String) {
        if self.recent.len() == 12 {
            self.recent.pop_front();
        }
        self.recent.push_back(line);
    }

    /// The last lines exchanged, one string.
    fn transcript(&self) -> String {
        self.recent.iter().cloned().collect::<Vec<_>>().join(" | ")
    }

    /// Sends `line`. An engine that no longer reads is not an error here: the next wait
    /// finds it gone.
    fn send(&mut self, line: &str) {
        self.note(format!("> {}", plies::excerpt(line)));
        let _ = self.process.send(line);
    }

    /// Reads lines until one starts with `prefix` (returned) within `timeout`; refusals seen on
    /// the way are counted.
    ///
    /// # Errors
    /// [`ProcessError::Timeout`] when nothing came in time, another when the engine is gone.
    fn wait_for(
        &mut self,
        prefix: &str,
        timeout: Duration,
        refusals: &mut Vec<String>,
    ) -> Result<String, ProcessError> {
        if let Some(at) = self.pending.iter().position(|l| l.starts_with(prefix)) {
            return Ok(self.pending.remove(at));
        }
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.process.next_line(deadline)?;
            self.note(format!("< {}", plies::excerpt(&line)));
            if line.starts_with(prefix) {
                return Ok(line);
            } else if line.starts_with("info string error") {
                refusals.push(line);
            } else if ["bestmove", "readyok", "response"]
                .iter()
                .any(|a| line.starts_with(a))
            {
                self.pending.push(line);
            }
        }
    }

    /// Says `quit`, and kills the engine if it is still there 2 s later.
    fn quit(mut self) {
        self.note("> quit".into());
        self.process.quit("quit", Duration::from_secs(2));
    }
}

/// Whether a wait that failed with `err` means the engine exited (a crash), rather than hung.
fn exited(err: &ProcessError) -> bool {
    matches!(err, ProcessError::Ended(_) | ProcessError::Closed(_))
}

/// The options the engine advertised, as `(name, type, min, max)` (numbers only for spins).
fn advertised(lines: &[String]) -> Vec<(String, String, i64, i64)> {
    lines
        .iter()
        .filter_map(|line| {
            let rest = line.strip_prefix("option name ")?;
            let (name, rest) = rest.split_once(" type ")?;
            let kind = rest.split_whitespace().next()?.to_string();
            let number = |key: &str| {
                let mut words = rest.split_whitespace();
                words.find(|w| *w == key)?;
                words.next()?.parse::<i64>().ok()
            };
            Some((
                name.to_string(),
                kind,
                number("min").unwrap_or(0),
                number("max").unwrap_or(0),
            ))
        })
        .collect()
}

/// A `setoption` line for one advertised option with a value it takes (small tables and one
/// thread, so games stay cheap), or `None` for options left alone.
fn option_line(
    (name, kind, min, max): &(String, String, i64, i64),
    rng: &mut SplitMix64,
) -> Option<String> {
    let value = match (name.as_str(), kind.as_str()) {
        ("Hash", _) => (*min.max(&1) + rng.below(8) as i64).min(*max).to_string(),
        ("Threads", _) => "1".to_string(),
        ("Move Overhead", "spin") => (*min + rng.below(20) as i64).min(*max).to_string(),
        ("Ponder", "check") => "false".to_string(),
        ("Searcher", _) => "pvs".to_string(),
        (_, "button") => return Some(format!("setoption name {name}")),
        _ => return None,
    };
    Some(format!("setoption name {name} value {value}"))
}

/// `count` openings: `opening_plies` seeded random moves from each of `starts` in turn.
#[must_use]
pub fn openings<G: Game>(starts: &[G], count: usize, plies: u32, seed: u64) -> Vec<G> {
    (0..count)
        .filter_map(|i| {
            let start = &starts[i % starts.len()];
            let seed = seed
                .wrapping_add(i as u64)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
            plies_cli::arena::random_openings(start, seed, 1, plies).pop()
        })
        .collect()
}

/// Plays a game from each of `openings` with the rules of `G` and says what the engine did.
///
/// # Errors
/// The engine cannot be started.
pub fn run_match<G: Notation>(
    settings: &MatchSettings,
    openings: &[G],
) -> Result<MatchReport, ProcessError> {
    let mut report = MatchReport::default();
    let mut rng = SplitMix64::new(settings.seed);
    let mut engine = Engine::start(&settings.command)?;
    let mut refusals = Vec::new();
    let mut handshake = Vec::new();
    engine.send("ugi");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match engine.process.next_line(deadline) {
            Ok(line) if line == "ugiok" => break,
            Ok(line) => handshake.push(line),
            Err(err) => {
                report.hangs += 1;
                report.fail(format!("no ugiok within 10 s: {err}"));
                engine.quit();
                return Ok(report);
            }
        }
    }
    let mut options = advertised(&handshake);
    // Options in any order, as managers send them.
    for i in (1..options.len()).rev() {
        options.swap(i, rng.below(i + 1));
    }
    for option in &options {
        if let Some(line) = option_line(option, &mut rng) {
            engine.send(&line);
        }
    }
    for (number, opening) in openings.iter().enumerate() {
        if let Err(err) = play_game(
            &mut engine,
            opening,
            settings,
            &mut rng,
            &mut report,
            &mut refusals,
        ) {
            // The engine exited (a crash), or hung past every timeout (counted already):
            // either way a fresh one plays on.
            if exited(&err) {
                report.crashes += 1;
                report.fail(format!("game {}: {err}", number + 1));
            }
            engine.quit();
            engine = Engine::start(&settings.command)?;
            engine.send("ugi");
            let _ = engine.wait_for("ugiok", Duration::from_secs(10), &mut refusals);
        }
        report.games += 1;
        for line in refusals.drain(..) {
            report.refusals += 1;
            report.fail(format!("game {}: {line}", number + 1));
        }
    }
    engine.quit();
    Ok(report)
}

/// `isready`, answered within a second.
///
/// # Errors
/// The engine is gone, or still silent a minute later.
fn ready(
    engine: &mut Engine,
    report: &mut MatchReport,
    refusals: &mut Vec<String>,
) -> Result<(), ProcessError> {
    let sent = Instant::now();
    engine.send("isready");
    match engine.wait_for("readyok", Duration::from_secs(1), refusals) {
        Ok(_) => {
            report.worst_isready_ms = report.worst_isready_ms.max(sent.elapsed().as_millis());
            Ok(())
        }
        Err(ProcessError::Timeout) => {
            report.hangs += 1;
            report.fail("isready unanswered for 1 s".into());
            // It may still come: read it before going on, so lines stay in step.
            engine
                .wait_for("readyok", Duration::from_secs(60), refusals)
                .map(|_| ())
        }
        Err(err) => Err(err),
    }
}

/// One game from `opening`, to its end or to the first move that loses it (on time, or
/// illegal).
///
/// # Errors
/// The engine exited, or hung past every timeout (the hang is counted already).
fn play_game<G: Notation>(
    engine: &mut Engine,
    opening: &G,
    settings: &MatchSettings,
    rng: &mut SplitMix64,
    report: &mut MatchReport,
    refusals: &mut Vec<String>,
) -> Result<(), ProcessError> {
    engine.send("uginewgame");
    ready(engine, report, refusals)?;
    let mut clock = [settings.base_ms as i64; 2];
    let mut state = opening.clone();
    let mut history = GameHistory::new(&state);
    let mut moves: Vec<String> = Vec::new();
    let fen = opening.format_position();
    for _ in 0..settings.max_plies {
        if state.outcome().is_some() {
            break;
        }
        let mover = state.side_to_move().index();
        let position = if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {}", moves.join(" "))
        };
        engine.send(&position);
        probe_before_go(engine, rng, report, refusals)?;
        let sent = Instant::now();
        engine.send(&format!(
            "go p1time {} p2time {} p1inc {} p2inc {}",
            clock[0].max(1),
            clock[1].max(1),
            settings.inc_ms,
            settings.inc_ms
        ));
        report.moves += 1;
        // Sometimes `isready` while the engine thinks: it must come back at once.
        if rng.below(8) == 0 {
            let asked = Instant::now();
            engine.send("isready");
            match engine.wait_for("readyok", Duration::from_secs(1), refusals) {
                Ok(_) => {
                    report.worst_isready_ms =
                        report.worst_isready_ms.max(asked.elapsed().as_millis());
                }
                Err(ProcessError::Timeout) => {
                    report.hangs += 1;
                    report.fail("isready during a search unanswered for 1 s".into());
                }
                Err(err) => return Err(err),
            }
        }
        let budget = Duration::from_millis(clock[mover].max(0) as u64 + 5_000);
        let best = match engine.wait_for("bestmove", budget, refusals) {
            Ok(line) => line,
            Err(ProcessError::Timeout) => {
                report.hangs += 1;
                report.fail(format!("go unanswered: {}", engine.transcript()));
                // A stop must bring the answer out.
                let stopped = Instant::now();
                engine.send("stop");
                let answered = engine.wait_for("bestmove", Duration::from_secs(5), refusals);
                report.worst_stop_ms = report.worst_stop_ms.max(stopped.elapsed().as_millis());
                answered?
            }
            Err(err) => return Err(err),
        };
        let used = sent.elapsed().as_millis() as i64;
        go_after_bestmove(engine, rng, report, refusals)?;
        clock[mover] -= used;
        if clock[mover] < 0 {
            report.time_losses += 1;
            report.fail(format!(
                "time loss: a move took {used} ms with {} ms left",
                clock[mover] + used
            ));
            return Ok(());
        }
        clock[mover] += settings.inc_ms as i64;
        let token = best
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string();
        let Ok(mv) = state.parse_move(&token) else {
            report.illegal += 1;
            report.fail(format!("illegal bestmove '{token}' after {position}"));
            return Ok(());
        };
        let mover_side = state.side_to_move();
        state = state.play(mv);
        moves.push(token);
        if history.play(mover_side, &state).is_some() {
            break; // a repetition ends the game
        }
    }
    Ok(())
}

/// Before a `go`, now and then: `isready`, `query gameover`, or an analysis the host ends with
/// `stop`, each of which must be answered at once.
///
/// # Errors
/// The engine is gone, or hung (counted already).
fn probe_before_go(
    engine: &mut Engine,
    rng: &mut SplitMix64,
    report: &mut MatchReport,
    refusals: &mut Vec<String>,
) -> Result<(), ProcessError> {
    // Now and then the host checks on the engine first, as managers do.
    match rng.below(10) {
        0 => ready(engine, report, refusals)?,
        1 => {
            engine.send("query gameover");
            if engine
                .wait_for("response", Duration::from_secs(1), refusals)
                .is_err()
            {
                report.hangs += 1;
                report.fail("query gameover unanswered for 1 s".into());
            }
        }
        _ => {}
    }
    // Now and then an analysis the host ends with `stop`: the answer must come at once.
    if rng.below(10) == 0 {
        engine.send("go infinite");
        std::thread::sleep(Duration::from_millis(10 + rng.below(40) as u64));
        let stopped = Instant::now();
        engine.send("stop");
        match engine.wait_for("bestmove", Duration::from_secs(1), refusals) {
            Ok(_) => {
                report.worst_stop_ms = report.worst_stop_ms.max(stopped.elapsed().as_millis());
            }
            Err(err @ ProcessError::Timeout) => {
                report.hangs += 1;
                report.fail(format!("stop unanswered for 1 s: {}", engine.transcript()));
                return Err(err);
            }
            Err(err) => return Err(err),
        }
    }
    Ok(())
}

/// Right after a `bestmove`, now and then: a second `go` on the same position (an analysis of
/// the move just made, off the clock), which must be searched, not refused.
///
/// # Errors
/// The engine is gone, or hung (counted already).
fn go_after_bestmove(
    engine: &mut Engine,
    rng: &mut SplitMix64,
    report: &mut MatchReport,
    refusals: &mut Vec<String>,
) -> Result<(), ProcessError> {
    // Now and then a second `go` on the same position right after `bestmove` (an
    // analysis of the move just made, off the clock): it must be searched, not refused.
    if rng.below(4) == 0 {
        engine.send("go movetime 5");
        match engine.wait_for("bestmove", Duration::from_secs(5), refusals) {
            Ok(_) => {}
            Err(ProcessError::Timeout) => {
                report.hangs += 1;
                let transcript = engine.transcript();
                report.fail(format!(
                    "a go right after bestmove unanswered: {transcript}"
                ));
                engine.send("stop");
                engine.wait_for("bestmove", Duration::from_secs(5), refusals)?;
            }
            Err(err) => return Err(err),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `sh` engine in a file of its own: the handshake, `readyok`, a `response` to `query`,
    /// and on `go` the line `on_go` (a shell command).
    #[cfg(unix)]
    fn script_engine(name: &str, on_go: &str) -> (std::path::PathBuf, String) {
        let path =
            std::env::temp_dir().join(format!("plies-ugi-match-{}-{name}.sh", std::process::id()));
        let script = format!(
            "while read -r line; do case \"$line\" in \
             ugi) echo 'id name scripted'; echo ugiok ;; \
             isready) echo readyok ;; \
             query*) echo 'response false' ;; \
             go*) {on_go} ;; \
             quit) exit 0 ;; \
             esac; done\n"
        );
        std::fs::write(&path, script).unwrap();
        let command = format!("sh {}", path.display());
        (path, command)
    }

    #[cfg(unix)]
    fn kalah_match(command: String, games: usize) -> MatchReport {
        let settings = MatchSettings {
            command,
            base_ms: 10_000,
            inc_ms: 0,
            seed: 3,
            max_plies: 40,
        };
        let starts = [plies_kalah::Kalah::start_position()];
        run_match(&settings, &openings(&starts, games, 2, 3)).unwrap()
    }

    /// An engine that exits when asked for a move crashes once per game, and a fresh one is
    /// started for the next game; one that answers no legal move loses each game by it.
    #[cfg(unix)]
    #[test]
    fn crashes_and_illegal_moves_are_counted_per_game() {
        let (path, command) = script_engine("crash", "exit 3");
        let report = kalah_match(command, 3);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(report.games, 3, "{report}");
        assert_eq!(report.crashes, 3, "{report}");
        assert_eq!(
            report.illegal + report.hangs + report.time_losses,
            0,
            "{report}"
        );
        assert!(!report.is_clean());
        assert!(report.failures[0].contains("the engine ended"), "{report}");

        let (path, command) = script_engine("illegal", "echo 'bestmove z9'");
        let report = kalah_match(command, 2);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(report.games, 2, "{report}");
        assert_eq!(report.illegal, 2, "{report}");
        assert_eq!(
            report.crashes + report.hangs + report.time_losses,
            0,
            "{report}"
        );
    }

    /// An engine that cannot be started is an error, not a report.
    #[test]
    fn an_engine_that_does_not_start_is_an_error() {
        let settings = MatchSettings {
            command: "plies-no-such-engine-here".into(),
            base_ms: 1000,
            inc_ms: 0,
            seed: 1,
            max_plies: 10,
        };
        let starts = [plies_kalah::Kalah::start_position()];
        let err = run_match(&settings, &starts).unwrap_err();
        assert!(matches!(err, ProcessError::Spawn { .. }), "{err}");
    }

    #[test]
    fn options_are_read_from_the_handshake() {
        let lines = [
            "id name x".to_string(),
            "option name Hash type spin default 16 min 1 max 1024".to_string(),
            "option name Move Overhead type spin default 10 min 0 max 5000".to_string(),
            "option name Clear Hash type button".to_string(),
        ];
        let options = advertised(&lines);
        assert_eq!(options.len(), 3);
        assert_eq!(options[0], ("Hash".into(), "spin".into(), 1, 1024));
        let mut rng = SplitMix64::new(1);
        let line = option_line(&options[1], &mut rng).unwrap();
        assert!(
            line.starts_with("setoption name Move Overhead value "),
            "{line}"
        );
        assert_eq!(
            option_line(&options[2], &mut rng).unwrap(),
            "setoption name Clear Hash"
        );
    }
}
