//! The conformance suite: rules invariants every [`Game`] with a [`Notation`] must keep, checked
//! at every position of seeded random games.
//!
//! Checked at each position (see [`Check`] for the full list): legal moves are unique and
//! generation appends; the noisy moves are exactly the legal moves whose class is noisy; a move
//! classed as a win ends the game in the mover's favour and vice versa; the incremental hash
//! equals the from-scratch hash; the outcome is `Some` exactly when there is no move; move
//! indices are below a bound that stays constant along the game and are distinct; moves and
//! positions survive a round trip through their text, upper-cased and one-word move text
//! included; the optional threat hooks keep their contract against play (evasions leave out
//! only moves that lose at once, threat moves threaten); malformed
//! text is rejected with an error, and no text (truncated, garbled) makes the parser panic.
//! After each game (cut after a move that ends it by repetition, as a record would be), its
//! record in the game's format and in the plain one reads back as the same start and moves,
//! and no truncated record makes the reader panic.
//!
//! Key invariant: [`check_conformance`] is deterministic in its seed, and the first broken
//! invariant is reported with the position in notation and the move at fault.

mod generation;
mod threats;

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

use ahash::AHashMap;

use crate::game::{Game, GameHistory, MoveClass, Outcome};
use crate::harness::random::random_game;
use crate::notation::{Notation, read_plain_record, write_plain_record};
use crate::rng::SplitMix64;

/// Which invariant a [`ConformanceFailure`] broke.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Check {
    /// A legal move was generated twice.
    DuplicateMove,
    /// `generate_moves` or `generate_noisy_moves` cleared or changed what was in the buffer.
    GenerationAppends,
    /// A noisy move is not legal, or is legal but classed quiet.
    NoisyMove,
    /// A legal move with a noisy class is missing from the noisy moves.
    NoisyMissing,
    /// A move classed [`MoveClass::Win`] does not win at once, or a move that wins at once is not
    /// classed a win.
    WinClass,
    /// The incremental hash differs from the from-scratch hash.
    Hash,
    /// `outcome()` is `Some` while moves remain, or `None` without any move.
    Outcome,
    /// `move_index` is not below `move_index_bound`, or two legal moves share an index.
    MoveIndex,
    /// `move_index_bound` changed along a game.
    MoveIndexBound,
    /// `parse_move(format_move(m))` is not `m`.
    MoveRoundTrip,
    /// Upper-cased move text does not parse to the same move.
    MoveCase,
    /// The one-word form of a move ([`Notation::format_move_token`]) has a space or does not
    /// parse to the same move.
    MoveToken,
    /// `parse_position(format_position(p))` fails or differs (hash, side, outcome, moves, text).
    PositionRoundTrip,
    /// Malformed move or position text was accepted.
    MalformedAccepted,
    /// A parser or formatter panicked.
    Panic,
    /// `generate_quiet_moves` is not exactly the legal moves classed quiet.
    QuietMoves,
    /// `move_from_index` answered with a move that is not the legal move of that index.
    MoveFromIndex,
    /// A game's record (`write_record` or the plain format) does not read back as its start
    /// and moves.
    RecordRoundTrip,
    /// `generate_evasions` gave evasions in a position that is not threatened, appended moves
    /// while returning `false`, gave an illegal move, or left out a move that does not lose at
    /// once.
    Evasions,
    /// `generate_threat_moves` gave a move that is not a legal quiet move, or after which the
    /// opponent is not to move threatened.
    ThreatMove,
}

/// The first broken invariant: which check, where, and with which move.
#[derive(Clone, Debug)]
pub struct ConformanceFailure {
    /// The invariant that failed.
    pub check: Check,
    /// The position in the game's notation.
    pub position: String,
    /// The move at fault, as `format_move` writes it followed by its `Debug` form, if one is.
    pub mv: Option<String>,
    /// What exactly went wrong.
    pub detail: String,
    /// The moves from the start position to this one, then `from` and the start position.
    pub line: String,
}

impl fmt::Display for ConformanceFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "conformance check {:?} failed: {}",
            self.check, self.detail
        )?;
        writeln!(f, "  position: {}", self.position)?;
        if let Some(mv) = &self.mv {
            writeln!(f, "  move:     {mv}")?;
        }
        write!(f, "  reached by: {}", self.line)
    }
}

impl std::error::Error for ConformanceFailure {}

/// What a passing run covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConformanceReport {
    /// Random games played.
    pub games: usize,
    /// Of those, games that reached their end within the ply limit.
    pub finished_games: usize,
    /// Positions checked.
    pub positions: usize,
    /// Legal moves checked (round trips, indices, classes).
    pub moves: usize,
    /// The most legal moves seen in one position.
    pub max_moves: usize,
}

impl fmt::Display for ConformanceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} games ({} finished), {} positions, {} moves checked, at most {} moves in a position",
            self.games, self.finished_games, self.positions, self.moves, self.max_moves
        )
    }
}

/// Text no game should accept as a move or a position.
const MALFORMED: [&str; 4] = ["", "   ", "@@garbage##", "zz99-zz99 ??"];

/// Plays `games` seeded random games of at most `max_plies` plies from each start position and
/// checks every invariant at every position passed through.
pub fn check_conformance<G: Notation>(
    starts: &[G],
    seed: u64,
    games: usize,
    max_plies: usize,
) -> Result<ConformanceReport, ConformanceFailure> {
    let mut report = ConformanceReport::default();
    let mut rng = SplitMix64::new(seed);
    let mut checker = Checker::<G>::default();
    for start in starts {
        let bound = start.move_index_bound();
        let start_text = no_panic("format_position", || start.format_position())
            .unwrap_or_else(|e| format!("<{e}>"));
        for game_number in 0..games {
            let positions = random_game(start, &mut rng, max_plies);
            report.games += 1;
            let mut line = Vec::new();
            let mut played = Vec::new();
            for (ply, state) in positions.iter().enumerate() {
                checker.context = Context {
                    line: format!("[{}] from {start_text}", line.join(" ")),
                };
                if state.move_index_bound() != bound {
                    return Err(checker.fail(
                        Check::MoveIndexBound,
                        state,
                        None,
                        format!(
                            "bound {} here, {bound} at the start",
                            state.move_index_bound()
                        ),
                    ));
                }
                let fuzz = game_number == 0 && ply % 8 == 0;
                let moves = checker.check_position(state, fuzz)?;
                report.positions += 1;
                report.moves += moves;
                report.max_moves = report.max_moves.max(moves);
                if let Some(next) = positions.get(ply + 1) {
                    // Recover the move played, for the failure line, by matching the child hash.
                    let mut legal = Vec::new();
                    state.generate_moves(&mut legal);
                    if let Some(&mv) = legal.iter().find(|&&m| state.play(m).hash() == next.hash())
                    {
                        line.push(state.format_move(mv));
                        played.push(mv);
                    }
                }
            }
            if positions.last().is_some_and(|p| p.outcome().is_some()) {
                report.finished_games += 1;
            }
            checker.check_record(start, &played, game_number == 0)?;
        }
    }
    Ok(report)
}

#[derive(Default)]
struct Context {
    line: String,
}

struct Checker<G: Game> {
    moves: Vec<G::Move>,
    noisy: Vec<G::Move>,
    context: Context,
}

impl<G: Game> Default for Checker<G> {
    fn default() -> Self {
        Checker {
            moves: Vec::new(),
            noisy: Vec::new(),
            context: Context::default(),
        }
    }
}

/// Runs `f`, turning a panic into a [`Check::Panic`] description.
fn no_panic<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| format!("{what} panicked"))
}

impl<G: Notation> Checker<G> {
    fn fail(
        &self,
        check: Check,
        state: &G,
        mv: Option<G::Move>,
        detail: String,
    ) -> ConformanceFailure {
        let position = no_panic("format_position", || state.format_position())
            .unwrap_or_else(|e| format!("<{e}>"));
        let mv = mv.map(|m| {
            let text = no_panic("format_move", || state.format_move(m)).unwrap_or_else(|e| e);
            format!("{text} ({m:?})")
        });
        ConformanceFailure {
            check,
            position,
            mv,
            detail,
            line: self.context.line.clone(),
        }
    }

    /// Checks one position; returns its number of legal moves.
    fn check_position(&mut self, state: &G, fuzz: bool) -> Result<usize, ConformanceFailure> {
        if state.hash() != state.hash_from_scratch() {
            let detail = format!(
                "incremental {:#018x}, from scratch {:#018x}",
                state.hash(),
                state.hash_from_scratch()
            );
            return Err(self.fail(Check::Hash, state, None, detail));
        }
        let mut moves = std::mem::take(&mut self.moves);
        let mut noisy = std::mem::take(&mut self.noisy);
        let result = self
            .check_moves(state, &mut moves, &mut noisy)
            .and_then(|()| self.check_notation(state, &moves, fuzz))
            .map(|()| moves.len());
        self.moves = moves;
        self.noisy = noisy;
        result
    }

    fn check_moves(
        &self,
        state: &G,
        moves: &mut Vec<G::Move>,
        noisy: &mut Vec<G::Move>,
    ) -> Result<(), ConformanceFailure> {
        moves.clear();
        state.generate_moves(moves);
        match (state.outcome(), moves.is_empty()) {
            (Some(outcome), false) => {
                let detail = format!("outcome {outcome:?} but {} legal moves", moves.len());
                return Err(self.fail(Check::Outcome, state, None, detail));
            }
            (None, true) => {
                let detail = "no legal move but the outcome is None".to_string();
                return Err(self.fail(Check::Outcome, state, None, detail));
            }
            _ => {}
        }
        if moves.is_empty() {
            return Ok(());
        }
        // Generation appends: a buffer holding one move keeps it and grows by the move count.
        let mut buffer = vec![moves[0]];
        state.generate_moves(&mut buffer);
        if buffer.len() != moves.len() + 1 || buffer[0] != moves[0] || buffer[1..] != moves[..] {
            let detail = "generate_moves did not append the same moves to a non-empty buffer";
            return Err(self.fail(Check::GenerationAppends, state, None, detail.to_string()));
        }
        for (i, &mv) in moves.iter().enumerate() {
            if moves[..i].contains(&mv) {
                return Err(self.fail(
                    Check::DuplicateMove,
                    state,
                    Some(mv),
                    "generated twice".into(),
                ));
            }
        }
        self.check_move_indices(state, moves)?;
        self.check_classes(state, moves, noisy)?;
        self.check_quiet_moves(state, moves, noisy)?;
        self.check_move_from_index(state, moves)?;
        self.check_threats(state, moves)
    }

    fn check_move_indices(&self, state: &G, moves: &[G::Move]) -> Result<(), ConformanceFailure> {
        let bound = state.move_index_bound();
        // Tafl and Yinsh positions have hundreds of moves: a hash map keeps this linear.
        let mut seen: AHashMap<usize, G::Move> = AHashMap::with_capacity(moves.len());
        for &mv in moves {
            let index = state.move_index(mv);
            if index >= bound {
                let detail = format!("move_index {index} not below move_index_bound {bound}");
                return Err(self.fail(Check::MoveIndex, state, Some(mv), detail));
            }
            if let Some(&other) = seen.get(&index) {
                let detail = format!(
                    "move_index {index} shared with {} ({other:?})",
                    state.format_move(other)
                );
                return Err(self.fail(Check::MoveIndex, state, Some(mv), detail));
            }
            seen.insert(index, mv);
        }
        Ok(())
    }

    fn check_classes(
        &self,
        state: &G,
        moves: &[G::Move],
        noisy: &mut Vec<G::Move>,
    ) -> Result<(), ConformanceFailure> {
        noisy.clear();
        state.generate_noisy_moves(noisy);
        let mut buffer = vec![moves[0]];
        state.generate_noisy_moves(&mut buffer);
        if buffer.len() != noisy.len() + 1 || buffer[0] != moves[0] || buffer[1..] != noisy[..] {
            let detail = "generate_noisy_moves did not append the same moves to a non-empty buffer";
            return Err(self.fail(Check::GenerationAppends, state, None, detail.to_string()));
        }
        for (i, &mv) in noisy.iter().enumerate() {
            if !moves.contains(&mv) {
                let detail = "noisy move is not a legal move".to_string();
                return Err(self.fail(Check::NoisyMove, state, Some(mv), detail));
            }
            if !state.classify(mv).is_noisy() {
                let detail = "noisy move is classed Quiet".to_string();
                return Err(self.fail(Check::NoisyMove, state, Some(mv), detail));
            }
            if noisy[..i].contains(&mv) {
                let detail = "noisy move generated twice".to_string();
                return Err(self.fail(Check::DuplicateMove, state, Some(mv), detail));
            }
        }
        let mover = state.side_to_move();
        for &mv in moves {
            let class = state.classify(mv);
            if class.is_noisy() && !noisy.contains(&mv) {
                let detail = format!("classed {class:?} but missing from generate_noisy_moves");
                return Err(self.fail(Check::NoisyMissing, state, Some(mv), detail));
            }
            let wins = state.play(mv).outcome() == Some(Outcome::Win(mover));
            if wins != (class == MoveClass::Win) {
                let detail = format!("classed {class:?}, but winning at once is {wins}");
                return Err(self.fail(Check::WinClass, state, Some(mv), detail));
            }
            let child = state.play(mv);
            if child.hash() != child.hash_from_scratch() {
                let detail = format!(
                    "after this move: incremental {:#018x}, from scratch {:#018x}",
                    child.hash(),
                    child.hash_from_scratch()
                );
                return Err(self.fail(Check::Hash, state, Some(mv), detail));
            }
        }
        Ok(())
    }

    fn check_notation(
        &self,
        state: &G,
        moves: &[G::Move],
        fuzz: bool,
    ) -> Result<(), ConformanceFailure> {
        let panic = |e: String, mv: Option<G::Move>| self.fail(Check::Panic, state, mv, e);
        for &mv in moves {
            let text = no_panic("format_move", || state.format_move(mv))
                .map_err(|e| panic(e, Some(mv)))?;
            let parsed = no_panic("parse_move", || state.parse_move(&text))
                .map_err(|e| panic(e, Some(mv)))?;
            match parsed {
                Ok(back) if back == mv => {}
                Ok(back) => {
                    let detail = format!("'{text}' parses to {back:?}");
                    return Err(self.fail(Check::MoveRoundTrip, state, Some(mv), detail));
                }
                Err(e) => {
                    let detail = format!("'{text}' is rejected: {e}");
                    return Err(self.fail(Check::MoveRoundTrip, state, Some(mv), detail));
                }
            }
            let token = no_panic("format_move_token", || state.format_move_token(mv))
                .map_err(|e| panic(e, Some(mv)))?;
            let parsed = no_panic("parse_move", || state.parse_move(&token))
                .map_err(|e| panic(e, Some(mv)))?;
            if token.contains(char::is_whitespace) || parsed.as_ref().ok() != Some(&mv) {
                let detail = format!("the one-word form '{token}' gives {parsed:?}");
                return Err(self.fail(Check::MoveToken, state, Some(mv), detail));
            }
            let upper = text.to_uppercase();
            let parsed = no_panic("parse_move", || state.parse_move(&upper))
                .map_err(|e| panic(e, Some(mv)))?;
            if parsed.as_ref().ok() != Some(&mv) {
                let detail = format!("'{upper}' gives {parsed:?}");
                return Err(self.fail(Check::MoveCase, state, Some(mv), detail));
            }
            if fuzz {
                for end in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
                    let prefix = &text[..end];
                    let _ = no_panic("parse_move", || state.parse_move(prefix)).map_err(|e| {
                        panic(format!("{e} on the truncated text '{prefix}'"), Some(mv))
                    })?;
                }
            }
        }
        for bad in MALFORMED {
            let parsed =
                no_panic("parse_move", || state.parse_move(bad)).map_err(|e| panic(e, None))?;
            if let Ok(mv) = parsed {
                let detail = format!("move text '{bad}' accepted");
                return Err(self.fail(Check::MalformedAccepted, state, Some(mv), detail));
            }
            let parsed = no_panic("parse_position", || G::parse_position(bad))
                .map_err(|e| panic(e, None))?;
            if parsed.is_ok() {
                let detail = format!("position text '{bad}' accepted");
                return Err(self.fail(Check::MalformedAccepted, state, None, detail));
            }
        }
        self.check_position_text(state, moves, fuzz)
    }

    /// The record of `moves` from `start` (cut where a repetition ends the game) in the game's
    /// format and in the plain one reads back as `start` and those moves; with `fuzz`, no
    /// truncation of the game's record makes the reader panic.
    fn check_record(
        &self,
        start: &G,
        moves: &[G::Move],
        fuzz: bool,
    ) -> Result<(), ConformanceFailure> {
        let mut history = GameHistory::new(start);
        let mut state = start.clone();
        let mut length = moves.len();
        for (ply, &mv) in moves.iter().enumerate() {
            let mover = state.side_to_move();
            state = state.play(mv);
            if history.play(mover, &state).is_some() {
                length = ply + 1;
                break;
            }
        }
        let moves = &moves[..length];
        let panic = |e: String| self.fail(Check::Panic, start, None, e);
        let own = no_panic("write_record", || start.write_record(moves)).map_err(panic)?;
        let plain =
            no_panic("write_plain_record", || write_plain_record(start, moves)).map_err(panic)?;
        for (format, text) in [("game's", &own), ("plain", &plain)] {
            let read = if format == "plain" {
                no_panic("read_plain_record", || read_plain_record::<G>(text))
            } else {
                no_panic("read_record", || G::read_record(text))
            }
            .map_err(panic)?;
            let detail = match read {
                Ok((back, read_moves)) if back.hash() == start.hash() && read_moves == moves => {
                    continue;
                }
                Ok((back, read_moves)) => format!(
                    "the {format} record reads as {} moves from '{}', not {} from the start",
                    read_moves.len(),
                    back.format_position(),
                    moves.len()
                ),
                Err(e) => format!("the {format} record is rejected: {e}"),
            };
            return Err(self.fail(
                Check::RecordRoundTrip,
                start,
                None,
                format!("{detail}; the record:\n{text}"),
            ));
        }
        if fuzz {
            // Cut at every line end, and one byte before it (inside the line's last word).
            let ends = own.match_indices('\n').map(|(i, _)| i);
            let cuts = ends.flat_map(|i| [i, i.saturating_sub(1)]);
            for end in cuts.filter(|&i| own.is_char_boundary(i)) {
                let prefix = &own[..end];
                let _ = no_panic("read_record", || G::read_record(prefix))
                    .map_err(|e| panic(format!("{e} on a record cut after {end} bytes")))?;
            }
        }
        Ok(())
    }

    fn check_position_text(
        &self,
        state: &G,
        moves: &[G::Move],
        fuzz: bool,
    ) -> Result<(), ConformanceFailure> {
        let panic = |e: String| self.fail(Check::Panic, state, None, e);
        let text = no_panic("format_position", || state.format_position()).map_err(panic)?;
        let parsed = no_panic("parse_position", || G::parse_position(&text)).map_err(panic)?;
        let back = match parsed {
            Ok(back) => back,
            Err(e) => {
                let detail = format!("'{text}' is rejected: {e}");
                return Err(self.fail(Check::PositionRoundTrip, state, None, detail));
            }
        };
        let mut back_moves = Vec::new();
        back.generate_moves(&mut back_moves);
        let problem = if back.hash() != state.hash() {
            Some(format!(
                "hash {:#018x}, was {:#018x}",
                back.hash(),
                state.hash()
            ))
        } else if back.side_to_move() != state.side_to_move() {
            Some(format!("side to move {:?}", back.side_to_move()))
        } else if back.outcome() != state.outcome() {
            Some(format!(
                "outcome {:?}, was {:?}",
                back.outcome(),
                state.outcome()
            ))
        } else if back_moves.len() != moves.len() || moves.iter().any(|m| !back_moves.contains(m)) {
            Some(format!("moves {back_moves:?}, were {moves:?}"))
        } else if back.format_position() != text {
            Some(format!("formats as '{}'", back.format_position()))
        } else {
            None
        };
        if let Some(problem) = problem {
            let detail = format!("'{text}' reads back differently: {problem}");
            return Err(self.fail(Check::PositionRoundTrip, state, None, detail));
        }
        if fuzz {
            for end in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
                let prefix = &text[..end];
                let _ = no_panic("parse_position", || G::parse_position(prefix))
                    .map_err(|e| panic(format!("{e} on the truncated text '{prefix}'")))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
