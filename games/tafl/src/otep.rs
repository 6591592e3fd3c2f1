//! The engine side of the OpenTafl Engine Protocol (OTEP): [`OtepEngine`] turns each host
//! line into reply lines, [`run_engine`] drives it over stdin/stdout.
//!
//! Key invariants: the engine keeps its own game ([`GameRecord`], so repetition counts), and
//! uses the host's position records only as a fallback when a move cannot be applied; unknown
//! lines are ignored; a malformed line gets `error 0 <reason>` and the game goes on; nothing
//! the host sends can panic the engine.

use std::io::{BufRead, Write};
use std::time::Duration;

use plies::search::{Pvs, PvsConfig, SearchLimits, Searcher};
use plies::{Game, Notation, Side};

use crate::board::Board;
use crate::eval::TaflEvaluator;
use crate::record::GameRecord;
use crate::state::{Tafl, TaflMove};

/// Clock state from the host's last `clock` line.
#[derive(Copy, Clone, Debug, Default)]
struct Clock {
    main_ms: [u64; 2],
    overtime_s: u64,
    overtime_left: [u64; 2],
}

/// The OTEP engine: game state, searcher and clock.
pub struct OtepEngine {
    record: GameRecord,
    searcher: Pvs<Tafl, TaflEvaluator>,
    clock: Option<Clock>,
    default_move_time: Duration,
    /// Our move sent to the host and not yet confirmed.
    pending: Option<TaflMove>,
    done: bool,
}

fn side_word(word: &str) -> Option<Side> {
    match word {
        "attackers" => Some(Side::First),
        "defenders" => Some(Side::Second),
        _ => None,
    }
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
            pending: None,
            done: false,
        }
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

    /// Handles one host line, returning the lines to send back.
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        let line = line.trim();
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "rules" => match Tafl::parse(rest) {
                Ok(start) => {
                    self.record = GameRecord::new(start);
                    self.searcher.clear();
                    self.pending = None;
                    vec![]
                }
                Err(e) => vec![format!("error 0 bad rules: {e}")],
            },
            "position" => self.position(rest, None),
            "side" | "finish" | "status" => vec![],
            "clock" => match parse_clock(rest) {
                Some(c) => {
                    self.clock = Some(c);
                    vec![]
                }
                None => vec![format!("error 0 bad clock line: {rest}")],
            },
            "play" => match side_word(rest) {
                Some(side) => self.play(side),
                None => vec![format!("error 0 bad side: {rest}")],
            },
            "move" => {
                if let Some(mv) = self.pending.take()
                    && self.record.current().outcome().is_none()
                {
                    self.record.play(mv);
                }
                self.check_record(rest)
            }
            "opponent-move" => self.opponent_move(rest),
            "error" => {
                self.pending = None;
                vec![]
            }
            "analyze" => self.analyze(rest),
            "goodbye" => {
                self.done = true;
                vec![]
            }
            _ => vec![],
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
            Err(e) => vec![format!("error 0 bad position: {e}")],
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
            Err(e) => vec![format!("error 0 bad position: {e}")],
        }
    }

    fn opponent_move(&mut self, rest: &str) -> Vec<String> {
        let mut words = rest.split_whitespace();
        let moves = words.next().unwrap_or("");
        let record = words.next().unwrap_or("");
        for text in moves.split('|').filter(|m| !m.is_empty()) {
            if let Err(e) = self.record.play_text(text) {
                let mut out = vec![format!("error 0 cannot apply opponent move: {e}")];
                if !record.is_empty() {
                    let mover = self.record.current().side_to_move();
                    out.extend(self.position(record, Some(mover.opponent())));
                }
                return out;
            }
        }
        self.check_record(record)
    }

    fn budget(&self, side: Side) -> Duration {
        let Some(c) = self.clock else {
            return self.default_move_time;
        };
        let i = side.index();
        let main = c.main_ms[i];
        let overtime = if c.overtime_left[i] > 0 {
            c.overtime_s * 1000
        } else {
            0
        };
        let ms = if main > 0 {
            main / 30 + overtime * 3 / 5
        } else {
            overtime * 3 / 5
        };
        Duration::from_millis(ms.max(20))
    }

    fn play(&mut self, side: Side) -> Vec<String> {
        let state = *self.record.current();
        if state.side_to_move() != side {
            return vec![format!("error 0 it is not the {side:?} side's turn here")];
        }
        if state.outcome().is_some() {
            return vec!["error 0 the game is over".to_string()];
        }
        let result = self.searcher.search(
            &state,
            &SearchLimits::time(self.budget(side)).with_history(self.record.history()),
        );
        let mv = result.best_move.or_else(|| {
            let mut moves = Vec::new();
            state.generate_moves(&mut moves);
            moves.first().copied()
        });
        match mv {
            Some(mv) => {
                self.pending = Some(mv);
                vec![
                    format!(
                        "status depth {} score {} nodes {}",
                        result.depth,
                        result.score.raw(),
                        result.stats.nodes
                    ),
                    format!("move {}", state.format_move(mv)),
                ]
            }
            None => vec!["error 0 no legal move".to_string()],
        }
    }

    fn analyze(&mut self, rest: &str) -> Vec<String> {
        let mut words = rest.split_whitespace();
        let n: Option<u32> = words.next().and_then(|w| w.parse().ok());
        let secs: Option<f64> = words.next().and_then(|w| w.parse().ok());
        let (Some(_n), Some(secs)) = (n, secs) else {
            return vec![format!("error 0 bad analyze line: {rest}")];
        };
        let state = *self.record.current();
        let time = Duration::from_secs_f64(secs.clamp(0.01, 3600.0));
        let limits = SearchLimits::time(time).with_history(self.record.history());
        let result = self.searcher.search(&state, &limits);
        if result.pv.is_empty() {
            return vec!["analysis 0".to_string()];
        }
        vec![format!(
            "analysis 1 {} {}",
            state.format_line(&result.pv).replace(' ', "|"),
            result.score.raw()
        )]
    }
}

fn parse_clock(rest: &str) -> Option<Clock> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    if words.len() < 5 {
        return None;
    }
    // Times may be -1 (no main time) and carry a `*` (that side's clock is running).
    let num = |w: &str| {
        w.trim_end_matches('*')
            .parse::<i64>()
            .ok()
            .map(|v| v.max(0) as u64)
    };
    Some(Clock {
        main_ms: [num(words[0])?, num(words[1])?],
        overtime_s: num(words[2])?,
        overtime_left: [num(words[3])?, num(words[4])?],
    })
}

/// Runs the engine: prints `hello`, then answers host lines until `goodbye` or end of input.
pub fn run_engine(
    input: impl BufRead,
    mut output: impl Write,
    move_time: Duration,
) -> std::io::Result<()> {
    let mut engine = OtepEngine::new(move_time);
    writeln!(output, "hello")?;
    output.flush()?;
    for line in input.lines() {
        let line = line?;
        for reply in engine.handle(&line) {
            writeln!(output, "{reply}")?;
        }
        output.flush()?;
        if engine.finished() {
            break;
        }
    }
    Ok(())
}
