//! A tactics suite of king escapes and king captures: positions taken from real games a few
//! plies before their end, each kept with its forced result as proven by an exhaustive search,
//! and how a searcher's answer on them is judged.
//!
//! A suite file holds one position per line, `POSITION | PROOF | SOURCE`:
//! - POSITION is position text (see [`crate::notation`]), usually a variant name, a board
//!   record and the side to move: `copenhagen /3t1ttt3/.../ d`;
//! - PROOF is `win N` (the side to move forces a win within N plies, and not within fewer) or
//!   `loss N` (whatever the side to move plays, it loses within N plies, and it can hold out
//!   that long);
//! - SOURCE names the game and ply the position comes from (free text without `|`).
//!
//! Blank lines and lines starting with `#` are skipped.
//!
//! Key invariant: a proof is found and checked by [`prove`], an exhaustive search over every
//! move by the rules alone (no evaluation, no pruning besides stopping at the first win or
//! refutation; a table of answers keyed by position hash and its killers only share and order
//! the work), so it is independent of the searchers the suite judges; repetition is not part of
//! a position, so proofs ignore it (a line of a few plies cannot repeat a position three times
//! anyway).

use std::collections::HashMap;
use std::fmt;

use plies::{Game, Notation, Outcome, Score};

use crate::state::{Tafl, TaflMove};

/// The proven result of a suite position, for its side to move. Ordered wins first, then
/// losses, each by plies.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Proof {
    /// The side to move forces a win within this many plies, and not within fewer.
    Win(u32),
    /// The side to move loses within this many plies whatever it plays, and its best defence
    /// lasts that long.
    Loss(u32),
}

impl Proof {
    /// The exact score of the proof at the root of a search.
    #[must_use]
    pub fn score(self) -> Score {
        match self {
            Proof::Win(n) => Score::win_in(n),
            Proof::Loss(n) => Score::loss_in(n),
        }
    }

    /// Parses `win N` or `loss N`.
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn parse(text: &str) -> Result<Proof, String> {
        let mut words = text.split_whitespace();
        let (Some(kind), Some(plies), None) = (words.next(), words.next(), words.next()) else {
            return Err(format!("proof `{text}`: expected `win N` or `loss N`"));
        };
        let plies: u32 = plies
            .parse()
            .ok()
            .filter(|&n| n > 0 && n < Score::MAX_PLY)
            .ok_or_else(|| format!("proof `{text}`: `{plies}` is not a ply count"))?;
        match kind {
            "win" if plies % 2 == 1 => Ok(Proof::Win(plies)),
            "loss" if plies.is_multiple_of(2) => Ok(Proof::Loss(plies)),
            "win" | "loss" => Err(format!(
                "proof `{text}`: a win takes an odd number of plies, a loss an even one"
            )),
            _ => Err(format!("proof `{text}`: expected `win N` or `loss N`")),
        }
    }
}

impl fmt::Display for Proof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Proof::Win(n) => write!(f, "win {n}"),
            Proof::Loss(n) => write!(f, "loss {n}"),
        }
    }
}

/// One suite position with its proof.
#[derive(Clone, Debug)]
pub struct Tactic {
    /// The position.
    pub position: Tafl,
    /// Its text as written in the suite file.
    pub text: String,
    /// The proven result for the side to move.
    pub proof: Proof,
    /// Where it comes from (game and ply).
    pub source: String,
}

impl Tactic {
    /// The suite file line of this position.
    #[must_use]
    pub fn line(&self) -> String {
        format!("{} | {} | {}", self.text, self.proof, self.source)
    }
}

/// A suite file line that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "suite line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SuiteError {}

/// Reads a suite file (see the module docs).
///
/// # Errors
/// The first line that is not a suite position, with what is wrong with it.
pub fn parse_suite(text: &str) -> Result<Vec<Tactic>, SuiteError> {
    let mut tactics = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let error = |message: String| SuiteError {
            line: index + 1,
            message,
        };
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [text, proof, source] = fields[..] else {
            return Err(error(format!(
                "expected `POSITION | PROOF | SOURCE`, found {} field(s)",
                fields.len()
            )));
        };
        let position = Tafl::parse_position(text).map_err(|e| error(e.to_string()))?;
        if position.outcome().is_some() {
            return Err(error("the position is already decided".into()));
        }
        let proof = Proof::parse(proof).map_err(error)?;
        tactics.push(Tactic {
            position,
            text: text.to_string(),
            proof,
            source: source.to_string(),
        });
    }
    Ok(tactics)
}

/// The compact position text of `state` under the built-in variant `variant` (whose rules it
/// must have): `NAME /record/ a|d`.
#[must_use]
pub fn position_text(variant: &str, state: &Tafl) -> String {
    let text = state.to_text();
    let record = text
        .split_once(" start:")
        .map_or("", |(_, record)| record.trim());
    let side = if state.side_to_move() == plies::Side::First {
        "a"
    } else {
        "d"
    };
    format!("{variant} {record} {side}")
}

/// How a searcher's score for a suite position compares with its proof.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Answer {
    /// The score has the proof's sign: a win where the side to move wins (the searcher found
    /// it), a loss where it loses (the searcher sees the loss coming).
    Solved,
    /// A heuristic score (or none): the searcher did not see the result.
    Missed,
    /// A decisive score the proof contradicts: the wrong sign, or a win or loss sooner than the
    /// proof allows. A correct searcher never answers this.
    Wrong,
}

/// Judges a searcher's `score` (its root score; `None` when it has none) against `proof`.
#[must_use]
pub fn judge(proof: Proof, score: Option<Score>) -> Answer {
    let Some(score) = score.filter(|s| s.is_decisive()) else {
        return Answer::Missed;
    };
    let plies = score.plies_to_end().unwrap_or(0);
    match proof {
        Proof::Win(n) if score.is_win() && plies >= n => Answer::Solved,
        Proof::Loss(n) if score.is_loss() && plies >= n => Answer::Solved,
        _ => Answer::Wrong,
    }
}

/// The proof search ran out of its budget of positions.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Exhausted;

impl fmt::Display for Exhausted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the proof search ran out of its budget of positions")
    }
}

impl std::error::Error for Exhausted {}

/// The shortest forced result of `state` within `max_plies` plies, found by exhaustive search:
/// `Ok(Some(proof))`, `Ok(None)` when neither side forces the end that soon, or
/// `Err(Exhausted)` once `budget` positions have been made without an answer.
///
/// Tries 1, 2, 3, ... plies in turn: a win within an odd number of plies, a loss within an even
/// one; the first that holds is the shortest, so the proof is exact. A finished `state` has no
/// proof (`Ok(None)`).
///
/// # Errors
/// [`Exhausted`] when the budget ran out first.
pub fn prove(state: &Tafl, max_plies: u32, budget: u64) -> Result<Option<Proof>, Exhausted> {
    prove_plies(state, 1..=max_plies, budget)
}

/// [`prove`] for a position whose game `winner` won: only a win for `winner` is looked for (a
/// win within an odd number of plies when `winner` is to move, else a loss within an even
/// one), so the proof costs about half as much; `Ok(None)` when there is none that soon.
///
/// # Errors
/// [`Exhausted`] when the budget ran out first.
pub fn prove_win_of(
    state: &Tafl,
    winner: plies::Side,
    max_plies: u32,
    budget: u64,
) -> Result<Option<Proof>, Exhausted> {
    let first = if state.side_to_move() == winner { 1 } else { 2 };
    prove_plies(state, (first..=max_plies).step_by(2), budget)
}

/// The first of `plies` (ascending) within which `state` is won (odd) or lost (even).
fn prove_plies(
    state: &Tafl,
    plies: impl Iterator<Item = u32>,
    budget: u64,
) -> Result<Option<Proof>, Exhausted> {
    if state.outcome().is_some() {
        return Ok(None);
    }
    let mut prover = Prover {
        left: budget,
        known: HashMap::new(),
        killers: vec![None; Score::MAX_PLY as usize + 1],
    };
    for plies in plies {
        if !plies.is_multiple_of(2) {
            if prover.wins(state, plies)? {
                return Ok(Some(Proof::Win(plies)));
            }
        } else if prover.loses(state, plies)? {
            return Ok(Some(Proof::Loss(plies)));
        }
    }
    Ok(None)
}

/// The exhaustive search of [`prove`], counting the positions it makes. Its table and killers
/// only order and share work: every answer is still decided over every move.
struct Prover {
    /// Positions it may still make.
    left: u64,
    /// Answers already found: (position hash, plies) to whether its side to move wins within
    /// that many plies (odd) or loses within them (even).
    known: HashMap<(u64, u32), bool>,
    /// The last move that decided a node with this many plies left (a win found, or a
    /// defence that holds): tried first at the next such node.
    killers: Vec<Option<TaflMove>>,
}

impl Prover {
    /// Makes the position after `mv`, charging the budget.
    fn play(&mut self, state: &Tafl, mv: TaflMove) -> Result<Tafl, Exhausted> {
        self.left = self.left.checked_sub(1).ok_or(Exhausted)?;
        Ok(state.play(mv))
    }

    /// `moves` with the killer of `plies` first when it is among them.
    fn killer_first(&self, moves: &mut [TaflMove], plies: u32) {
        if let Some(killer) = self.killers[plies as usize]
            && let Some(at) = moves.iter().position(|&mv| mv == killer)
        {
            moves[..=at].rotate_right(1);
        }
    }

    /// Does the side to move force a win within `plies` (odd) plies?
    fn wins(&mut self, state: &Tafl, plies: u32) -> Result<bool, Exhausted> {
        let mover = state.side_to_move();
        if let Some(outcome) = state.outcome() {
            return Ok(outcome == Outcome::Win(mover));
        }
        if let Some(&known) = self.known.get(&(state.hash(), plies)) {
            return Ok(known);
        }
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        self.killer_first(&mut moves, plies);
        let killer = self.killers[plies as usize];
        let mut open = Vec::new();
        let mut found = None;
        for (index, &mv) in moves.iter().enumerate() {
            let next = self.play(state, mv)?;
            let won = match next.outcome() {
                Some(outcome) => outcome == Outcome::Win(mover),
                // The killer is searched at once: when it wins, the other moves need no look.
                None if plies >= 3 && index == 0 && Some(mv) == killer => {
                    self.loses(&next, plies - 1)?
                }
                None => {
                    if plies >= 3 {
                        open.push((mv, next));
                    }
                    false
                }
            };
            if won {
                found = Some(mv);
                break;
            }
        }
        if found.is_none() {
            // Moves that threaten to win at once are the likeliest wins: first.
            open.sort_by_key(|(_, next)| !next.is_threatened());
            for (mv, next) in &open {
                if self.loses(next, plies - 1)? {
                    found = Some(*mv);
                    break;
                }
            }
        }
        if found.is_some() {
            self.killers[plies as usize] = found;
        }
        self.known.insert((state.hash(), plies), found.is_some());
        Ok(found.is_some())
    }

    /// Does the side to move lose within `plies` (even) plies whatever it plays?
    fn loses(&mut self, state: &Tafl, plies: u32) -> Result<bool, Exhausted> {
        let mover = state.side_to_move();
        if let Some(outcome) = state.outcome() {
            return Ok(outcome == Outcome::Win(mover.opponent()));
        }
        if let Some(&known) = self.known.get(&(state.hash(), plies)) {
            return Ok(known);
        }
        // The game's answers to a threat are the likeliest defences: first.
        let mut moves = Vec::new();
        state.generate_evasions(&mut moves);
        let first = moves.len();
        state.generate_moves(&mut moves);
        // Every move once: the evasions, then the other moves in generation order.
        let mut kept = first;
        for index in first..moves.len() {
            let mv = moves[index];
            if !moves[..first].contains(&mv) {
                moves[kept] = mv;
                kept += 1;
            }
        }
        moves.truncate(kept);
        self.killer_first(&mut moves, plies);
        let mut lost = true;
        for mv in moves {
            let next = self.play(state, mv)?;
            let loses = match next.outcome() {
                Some(outcome) => outcome == Outcome::Win(mover.opponent()),
                None => self.wins(&next, plies - 1)?,
            };
            if !loses {
                self.killers[plies as usize] = Some(mv);
                lost = false;
                break;
            }
        }
        self.known.insert((state.hash(), plies), lost);
        Ok(lost)
    }
}
