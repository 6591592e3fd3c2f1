//! Endgame tables: every position of a set solved by retrograde analysis, win, loss or draw with
//! the distance to the end in plies, for any game that can number the positions of the set.
//!
//! A game opts in by implementing [`PositionSet`] for a set of its positions (all positions of
//! some material, say): a numbering `0..size` with [`PositionSet::index`] and
//! [`PositionSet::position`] inverse to each other (a number may name no position: a hole).
//! [`Solver`] then solves the set. Moves may leave it (a capture to smaller material): such
//! successors are looked up with a probe the caller gives ([`Solver::outside`], typically the
//! tables of the smaller sets, solved first), or are finished games ([`Game::outcome`]).
//! [`Table`] holds the result, one byte per position, and is saved and loaded in a versioned,
//! checksummed format ([`Table::write`], [`Table::read`]). [`Solver::solve_wdl`] finds the same
//! wins and losses without their distances, in two bits a position, looking again only at the
//! open positions of blocks of numbers whose moves lead into a block that changed: for sets too
//! big for a byte a position, or where win, draw or loss is all that is asked.
//!
//! The values are those of the game played without a repetition rule: a position from which
//! neither side can force the end is a draw ([`TableValue::Draw`]), whatever a repetition rule
//! would make of the cycle. Extra turns are allowed: a successor with the same side to move
//! counts as it is, one with the other side to move with its value turned over.
//!
//! Key invariant: a position is a win in `d` plies when its best move leads to a position lost in
//! `d - 1` for the opponent (or won in `d - 1` for the mover, after an extra turn), and `d` is the
//! smallest such; a loss in `d` when every move leads to a win for the opponent and the longest
//! takes `d - 1`; a terminal position is won or lost in 0. The solver decides the positions of
//! distance `k` in pass `k` from values of distance below `k` only, so its tables do not depend
//! on the number of threads or their timing.

use std::io::{Read, Write};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, Ordering};

use crate::eval::Score;
use crate::game::{Game, Outcome};
use crate::memory::AllocError;

mod blocks;
mod wdl;

use blocks::{BLOCK, Links, Notes};

/// A set of positions numbered `0..size`: what a [`Table`] is built for (see the module docs).
pub trait PositionSet<G: Game>: Sync {
    /// How many numbers the set uses (holes included).
    fn size(&self) -> u64;

    /// The number of `state` in the set, or `None` when the set does not hold it.
    fn index(&self, state: &G) -> Option<u64>;

    /// The position numbered `index`, or `None` for a number that names no position (a hole).
    /// `index(&position(i)?) == Some(i)` for every `i` in `0..size`.
    fn position(&self, index: u64) -> Option<G>;
}

/// A [`PositionSet`] that can also go backwards: the positions of the set with a move to a
/// given one. [`Solver::solve_retrograde`] then visits each position a few times instead of once
/// a pass.
pub trait Predecessors<G: Game>: PositionSet<G> {
    /// Appends the number of every position of the set with a move to `state`, once for each
    /// such move (a position with two moves to `state` twice).
    fn predecessors(&self, state: &G, out: &mut Vec<u64>);
}

/// What the searchers ask of endgame tables: the exact value of a position, or `None` when no
/// table holds it. Implemented by whatever holds a game's tables and knows which set a position
/// belongs to.
pub trait Probe<G: Game>: Send + Sync {
    /// The value of `state` for its side to move, if a table holds it.
    fn probe(&self, state: &G) -> Option<TableValue>;
}

/// A solved value, from the side to move's view.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum TableValue {
    /// The side to move wins in this many plies with best play (0: the game is over, won).
    Win(u32),
    /// The side to move loses in this many plies with best play (0: the game is over, lost).
    Loss(u32),
    /// Neither side can force the end (or the game ended drawn).
    Draw,
    /// The side to move wins, in a number of plies the table does not store (a win/draw/loss
    /// table); scored as a win in [`UNKNOWN_PLIES`] more plies.
    Won,
    /// The side to move loses, in a number of plies the table does not store; scored as a loss
    /// in [`UNKNOWN_PLIES`] more plies.
    Lost,
}

/// The distance a [`TableValue::Won`] or [`TableValue::Lost`] is scored at: longer than any
/// table stores, so that a search prefers a win of known length and puts off a loss of known
/// length less than one of unknown length.
pub const UNKNOWN_PLIES: u32 = 500;

impl TableValue {
    /// The search score of this value at a node `ply` plies below the search root (wins and
    /// losses counted from the root, as the searchers score a finished game).
    #[must_use]
    pub fn score_at(self, ply: u32) -> Score {
        match self {
            TableValue::Win(d) => Score::win_in((ply + d).min(Score::MAX_PLY)),
            TableValue::Loss(d) => Score::loss_in((ply + d).min(Score::MAX_PLY)),
            TableValue::Draw => Score::DRAW,
            TableValue::Won => Score::win_in((ply + UNKNOWN_PLIES).min(Score::MAX_PLY)),
            TableValue::Lost => Score::loss_in((ply + UNKNOWN_PLIES).min(Score::MAX_PLY)),
        }
    }

    /// The same value without its distance: [`TableValue::Won`] for any win, [`TableValue::Lost`]
    /// for any loss.
    #[must_use]
    pub fn outcome_only(self) -> TableValue {
        match self {
            TableValue::Win(_) | TableValue::Won => TableValue::Won,
            TableValue::Loss(_) | TableValue::Lost => TableValue::Lost,
            TableValue::Draw => TableValue::Draw,
        }
    }

    /// The value of a finished game for its side to move.
    fn terminal<G: Game>(state: &G, outcome: Outcome) -> TableValue {
        match outcome.winner() {
            Some(side) if side == state.side_to_move() => TableValue::Win(0),
            Some(_) => TableValue::Loss(0),
            None => TableValue::Draw,
        }
    }

    /// What a move to a position of this value is worth to the mover: the same value when the
    /// mover moves again there, turned over otherwise; one ply further away.
    pub(crate) fn seen_by_mover(self, same_side: bool) -> TableValue {
        match (self, same_side) {
            (TableValue::Win(d), true) | (TableValue::Loss(d), false) => TableValue::Win(d + 1),
            (TableValue::Loss(d), true) | (TableValue::Win(d), false) => TableValue::Loss(d + 1),
            (TableValue::Won, true) | (TableValue::Lost, false) => TableValue::Won,
            (TableValue::Lost, true) | (TableValue::Won, false) => TableValue::Lost,
            (TableValue::Draw, _) => TableValue::Draw,
        }
    }
}

/// The byte a position is stored as: see [`Entry::encode`].
const UNKNOWN: u8 = 0;
/// A number that names no position.
const HOLE: u8 = 1;
/// Wins are stored as `WIN_BASE + d`, `d` in `0..=MAX_WIN`.
const WIN_BASE: u8 = 2;
/// Losses are stored as `LOSS_BASE + d`, `d` in `0..=MAX_LOSS`.
const LOSS_BASE: u8 = 128;

/// The longest win a table stores, in plies.
pub const MAX_WIN: u32 = (LOSS_BASE - WIN_BASE - 1) as u32;
/// The longest loss a table stores, in plies.
pub const MAX_LOSS: u32 = (u8::MAX - LOSS_BASE) as u32;

/// One stored position: unknown (a draw once solved), a hole, or a win or loss with its distance.
struct Entry;

impl Entry {
    fn encode(value: TableValue) -> Option<u8> {
        match value {
            TableValue::Win(d) if d <= MAX_WIN => Some(WIN_BASE + d as u8),
            TableValue::Loss(d) if d <= MAX_LOSS => Some(LOSS_BASE + d as u8),
            TableValue::Draw => Some(UNKNOWN),
            _ => None,
        }
    }

    /// The value of a stored byte; `None` for a hole.
    fn decode(byte: u8) -> Option<TableValue> {
        match byte {
            UNKNOWN => Some(TableValue::Draw),
            HOLE => None,
            b if b >= LOSS_BASE => Some(TableValue::Loss(u32::from(b - LOSS_BASE))),
            b => Some(TableValue::Win(u32::from(b - WIN_BASE))),
        }
    }
}

/// Why a set could not be solved or a table read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TableError {
    /// A win or loss longer than a table stores ([`MAX_WIN`], [`MAX_LOSS`]).
    TooLong {
        /// The position's number.
        index: u64,
        /// Its distance to the end.
        plies: u32,
    },
    /// The set's numbering is broken: `position(i)` gave a position whose `index` is not `i`.
    BadNumbering {
        /// The number.
        index: u64,
    },
    /// A file that is not a table of this format, or one for another set, or damaged.
    BadFile(String),
    /// The system refused the memory a solve needs.
    Memory(AllocError),
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableError::TooLong { index, plies } => write!(
                f,
                "position {index} is decided in {plies} plies, more than a table stores \
                 ({MAX_WIN} for a win, {MAX_LOSS} for a loss)"
            ),
            TableError::BadNumbering { index } => write!(
                f,
                "the set's numbering is broken: position({index}) has another index"
            ),
            TableError::BadFile(why) => write!(f, "not a usable table: {why}"),
            TableError::Memory(e) => write!(f, "cannot solve the set: {e}"),
        }
    }
}

impl std::error::Error for TableError {}

/// How far a solve has got, given after each pass.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct SolveProgress {
    /// The pass just finished (pass `k` decides the positions `k` plies from the end).
    pub pass: u32,
    /// Positions decided so far (wins and losses; holes not counted).
    pub decided: u64,
    /// Positions in the set (holes not counted).
    pub positions: u64,
    /// Positions the pass went through, their moves looked at or their value checked.
    pub looked_at: u64,
}

/// Looks up a successor outside the set: its value, or `None` when it is unknown (then the
/// solver treats it as a draw, so nothing is proven through it). [`Solver::solve`] and
/// [`Solver::solve_retrograde`] need distances: a [`TableValue::Won`] or [`TableValue::Lost`]
/// proves nothing there either (give them distance tables); [`Solver::solve_wdl`] takes both.
pub type OutsideProbe<'a, G> = &'a (dyn Fn(&G) -> Option<TableValue> + Sync);

/// Solves a [`PositionSet`] (see the module docs).
pub struct Solver<'a, G: Game, S: PositionSet<G>> {
    set: &'a S,
    outside: Option<OutsideProbe<'a, G>>,
    threads: usize,
}

/// Positions handed to a thread at a time.
const CHUNK: u64 = 4096;

impl<'a, G: Game, S: PositionSet<G>> Solver<'a, G, S> {
    /// A one-thread solver of `set` whose moves never leave it (or only to finished games).
    #[must_use]
    pub fn new(set: &'a S) -> Solver<'a, G, S> {
        Solver {
            set,
            outside: None,
            threads: 1,
        }
    }

    /// Successors outside the set are looked up with `probe`.
    #[must_use]
    pub fn outside(mut self, probe: OutsideProbe<'a, G>) -> Solver<'a, G, S> {
        self.outside = Some(probe);
        self
    }

    /// Solves with `threads` threads (at least 1); the table is the same for any count.
    #[must_use]
    pub fn threads(mut self, threads: usize) -> Solver<'a, G, S> {
        self.threads = threads.max(1);
        self
    }

    /// Solves the set, calling `progress` after each pass.
    ///
    /// # Errors
    /// A distance longer than a table stores, or a broken numbering.
    pub fn solve(&self, progress: &mut dyn FnMut(SolveProgress)) -> Result<Table, TableError> {
        let size = self.set.size();
        let entries: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(UNKNOWN)).collect();
        // Pass 0: holes, finished games, and a check of the numbering.
        let positions = AtomicU64::new(0);
        let decided = AtomicU64::new(0);
        self.parallel(size, CHUNK, &|index| {
            let Some(state) = self.set.position(index) else {
                entries[index as usize].store(HOLE, Ordering::Relaxed);
                return Ok(());
            };
            if self.set.index(&state) != Some(index) {
                return Err(TableError::BadNumbering { index });
            }
            positions.fetch_add(1, Ordering::Relaxed);
            if let Some(outcome) = state.outcome() {
                let value = TableValue::terminal(&state, outcome);
                if value != TableValue::Draw {
                    decided.fetch_add(1, Ordering::Relaxed);
                }
                let byte = Entry::encode(value).expect("distance 0 fits");
                entries[index as usize].store(byte, Ordering::Relaxed);
            }
            Ok(())
        })?;
        let positions = positions.into_inner();
        progress(SolveProgress {
            pass: 0,
            decided: decided.load(Ordering::Relaxed),
            positions,
            looked_at: positions,
        });
        // The longest distance met so far, inside the set or out: once a pass decides nothing
        // and every known distance is behind it, nothing can be decided any more.
        let longest = AtomicU64::new(0);
        // Per block of numbers: what its open positions move into (listed in pass 1), and the
        // last pass that decided one of its positions. A position is decided in pass `k` only
        // through a successor decided in pass `k - 1` (or an outside value of distance
        // `k - 1`), so from pass 2 on a block is looked at only when one of those changed.
        let blocks = size.div_ceil(BLOCK) as usize;
        let links: Vec<OnceLock<Links>> = (0..blocks).map(|_| OnceLock::new()).collect();
        let changed: Vec<AtomicU32> = (0..blocks).map(|_| AtomicU32::new(0)).collect();
        let mut pass = 1u32;
        loop {
            let found = AtomicU64::new(0);
            let seen = AtomicU64::new(0);
            self.parallel(blocks as u64, 1, &|block| {
                let b = block as usize;
                if pass > 1
                    && links[b].get().is_some_and(|links| {
                        !links.changed_since(&changed, pass - 1) && !links.wakes_in(pass)
                    })
                {
                    return Ok(());
                }
                let mut notes = (pass == 1).then(Notes::default);
                let mut moves = Vec::new();
                let (mut found_here, mut looked) = (0, 0);
                for index in block * BLOCK..((block + 1) * BLOCK).min(size) {
                    if entries[index as usize].load(Ordering::Relaxed) != UNKNOWN {
                        continue;
                    }
                    let Some(state) = self.set.position(index) else {
                        continue;
                    };
                    if state.outcome().is_some() {
                        continue;
                    }
                    looked += 1;
                    let value = self.decide(
                        &state,
                        pass,
                        (&entries, &longest),
                        &mut moves,
                        notes.as_mut(),
                    );
                    if let Some(value) = value {
                        let byte = Entry::encode(value)
                            .ok_or(TableError::TooLong { index, plies: pass })?;
                        entries[index as usize].store(byte, Ordering::Relaxed);
                        changed[b].store(pass, Ordering::Relaxed);
                        found_here += 1;
                    }
                }
                if let Some(listed) = notes.and_then(Notes::finish) {
                    let _ = links[b].set(listed);
                }
                found.fetch_add(found_here, Ordering::Relaxed);
                seen.fetch_add(looked, Ordering::Relaxed);
                Ok(())
            })?;
            let found = found.into_inner();
            decided.fetch_add(found, Ordering::Relaxed);
            progress(SolveProgress {
                pass,
                decided: decided.load(Ordering::Relaxed),
                positions,
                looked_at: seen.into_inner(),
            });
            if found == 0 && u64::from(pass) > longest.load(Ordering::Relaxed) {
                break;
            }
            if found > 0 {
                longest.fetch_max(u64::from(pass), Ordering::Relaxed);
            }
            pass += 1;
        }
        Ok(Table::from_entries(
            entries.into_iter().map(AtomicU8::into_inner).collect(),
        ))
    }

    /// The value of `state` if its distance is exactly `pass`, from values below `pass` only
    /// (`entries`, and the longest distance met, raised here); `moves` is a buffer, and what the
    /// moves lead into is noted in `notes` (all of them unless it is decided a win).
    fn decide(
        &self,
        state: &G,
        pass: u32,
        (entries, longest): (&[AtomicU8], &AtomicU64),
        moves: &mut Vec<G::Move>,
        mut notes: Option<&mut Notes>,
    ) -> Option<TableValue> {
        moves.clear();
        state.generate_moves(moves);
        let mover = state.side_to_move();
        let mut all_lost = true;
        for &mv in moves.iter() {
            let next = state.play(mv);
            let value = if let Some(outcome) = next.outcome() {
                Some(TableValue::terminal(&next, outcome))
            } else if let Some(index) = self.set.index(&next) {
                if let Some(notes) = notes.as_deref_mut() {
                    notes.target(index);
                }
                let byte = entries[index as usize].load(Ordering::Relaxed);
                // Only values of earlier passes count (this pass may be writing others).
                match Entry::decode(byte) {
                    Some(value @ (TableValue::Win(d) | TableValue::Loss(d))) if d < pass => {
                        Some(value)
                    }
                    _ => None,
                }
            } else {
                let value = self.outside.and_then(|probe| probe(&next));
                if let Some(TableValue::Win(d) | TableValue::Loss(d)) = value {
                    longest.fetch_max(u64::from(d) + 1, Ordering::Relaxed);
                    if let Some(notes) = notes.as_deref_mut() {
                        notes.wake(d + 1);
                    }
                }
                value
            };
            match value.map(|v| v.seen_by_mover(next.side_to_move() == mover)) {
                // (A shorter win would have been found in the pass of its distance.)
                Some(TableValue::Win(d)) if d == pass => return Some(TableValue::Win(d)),
                Some(TableValue::Loss(d)) if d <= pass => {}
                _ => all_lost = false,
            }
        }
        // Every move loses, the longest in `pass` plies (a shorter longest would have been seen
        // in an earlier pass). A position with no move is a finished game; one that is not
        // (a broken rule) stays a draw, as in the retrograde solver.
        (all_lost && !moves.is_empty()).then_some(TableValue::Loss(pass))
    }

    /// Runs `work` on every index in `0..size` on the solver's threads, `chunk` indices handed
    /// out at a time.
    fn parallel(
        &self,
        size: u64,
        chunk: u64,
        work: &(dyn Fn(u64) -> Result<(), TableError> + Sync),
    ) -> Result<(), TableError> {
        let next = AtomicU64::new(0);
        let run = || -> Result<(), TableError> {
            loop {
                let start = next.fetch_add(chunk, Ordering::Relaxed);
                if start >= size {
                    return Ok(());
                }
                for index in start..(start + chunk).min(size) {
                    work(index)?;
                }
            }
        };
        if self.threads == 1 {
            return run();
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..self.threads).map(|_| scope.spawn(run)).collect();
            // Every thread is joined; the first error (in thread order) is the answer.
            let results: Vec<Result<(), TableError>> = handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect();
            results.into_iter().collect()
        })
    }
}

impl<G: Game, S: Predecessors<G>> Solver<'_, G, S> {
    /// Solves the set by retrograde analysis: the positions decided at distance `k` are taken in
    /// turn and their predecessors told (a loss for the side to move makes each predecessor
    /// whose mover is the other side a win in `k + 1`; a win counts one more lost move of such a
    /// predecessor, which is lost in `k + 1` once none is left). Each position's moves are
    /// generated once. Same table as [`Solver::solve`] (one thread).
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn solve_retrograde(
        &self,
        progress: &mut dyn FnMut(SolveProgress),
    ) -> Result<Table, TableError> {
        let mut state = Retrograde::new(self.set.size());
        let positions = self.retrograde_start(&mut state)?;
        let mut decided: u64 = state.queue.first().map_or(0, |q| q.len() as u64);
        progress(SolveProgress {
            pass: 0,
            decided,
            positions,
            looked_at: positions,
        });
        let mut distance = 0u32;
        while (distance as usize) < state.queue.len() {
            let queued = state.queue[distance as usize].len() as u64;
            decided += self.retrograde_distance(&mut state, distance)?;
            if distance > 0 {
                progress(SolveProgress {
                    pass: distance,
                    decided,
                    positions,
                    looked_at: queued,
                });
            }
            distance += 1;
        }
        Ok(Table::from_entries(state.entries))
    }

    /// The first step: holes, finished games (queued at distance 0), the numbering checked, and
    /// for every other position its moves counted and those leaving the set (finished games,
    /// probes) taken into account. Returns the number of positions (holes not counted).
    fn retrograde_start(&self, state: &mut Retrograde) -> Result<u64, TableError> {
        let mut positions = 0;
        let mut moves = Vec::new();
        for index in 0..self.set.size() {
            let i = index as usize;
            let Some(position) = self.set.position(index) else {
                state.entries[i] = HOLE;
                continue;
            };
            if self.set.index(&position) != Some(index) {
                return Err(TableError::BadNumbering { index });
            }
            positions += 1;
            if let Some(outcome) = position.outcome() {
                let value = TableValue::terminal(&position, outcome);
                if value != TableValue::Draw {
                    state.entries[i] = Entry::encode(value).expect("distance 0 fits");
                    state.push(0, index);
                }
                continue;
            }
            moves.clear();
            position.generate_moves(&mut moves);
            self.count_moves(state, index, &position, &moves);
        }
        Ok(positions)
    }

    /// Counts the moves of a position not finished: successors inside the set (finished or not)
    /// tell it their value later; finished games and positions outside it are known now.
    fn count_moves(&self, state: &mut Retrograde, index: u64, position: &G, moves: &[G::Move]) {
        let i = index as usize;
        let mover = position.side_to_move();
        let mut open = 0u16;
        for &mv in moves {
            let next = position.play(mv);
            let known = if self.set.index(&next).is_some() {
                open += 1;
                continue;
            } else if let Some(outcome) = next.outcome() {
                Some(TableValue::terminal(&next, outcome))
            } else {
                self.outside.and_then(|probe| probe(&next))
            };
            match known.map(|v| v.seen_by_mover(next.side_to_move() == mover)) {
                Some(TableValue::Win(d)) => state.best_win[i] = state.best_win[i].min(d),
                Some(TableValue::Loss(d)) => {
                    state.longest_loss[i] = state.longest_loss[i].max(d);
                }
                // A draw or an unknown value: this move is never lost.
                _ => open += 1,
            }
        }
        state.remaining[i] = open;
        if state.best_win[i] != u32::MAX {
            state.push(state.best_win[i], index);
        } else if open == 0 && !moves.is_empty() {
            state.push(state.longest_loss[i], index);
        }
    }

    /// Takes the positions queued at `distance`: decides those whose distance it is (distance
    /// 0 was decided at the start) and tells their predecessors. Returns how many it decided.
    fn retrograde_distance(
        &self,
        state: &mut Retrograde,
        distance: u32,
    ) -> Result<u64, TableError> {
        let bucket = std::mem::take(&mut state.queue[distance as usize]);
        let mut decided = 0;
        let mut before = Vec::new();
        for index in bucket {
            let i = index as usize;
            if distance > 0 {
                if state.entries[i] != UNKNOWN {
                    continue;
                }
                let value = if state.best_win[i] == distance {
                    TableValue::Win(distance)
                } else if state.remaining[i] == 0 && state.best_win[i] == u32::MAX {
                    TableValue::Loss(distance)
                } else {
                    continue;
                };
                state.entries[i] = Entry::encode(value).ok_or(TableError::TooLong {
                    index,
                    plies: distance,
                })?;
                decided += 1;
            }
            let Some(position) = self.set.position(index) else {
                continue;
            };
            before.clear();
            self.set.predecessors(&position, &mut before);
            self.tell_predecessors(state, &position, i, &before);
        }
        Ok(decided)
    }

    /// Tells the predecessors `before` of the decided `position` (number `i`) its value: a
    /// shorter win for some, one more lost move for others (queued once all are lost).
    fn tell_predecessors(&self, state: &mut Retrograde, position: &G, i: usize, before: &[u64]) {
        let value = Entry::decode(state.entries[i]).expect("not a hole");
        for &from in before {
            let j = from as usize;
            if state.entries[j] != UNKNOWN {
                continue;
            }
            let Some(prev) = self.set.position(from) else {
                continue;
            };
            let same = prev.side_to_move() == position.side_to_move();
            match value.seen_by_mover(same) {
                TableValue::Win(d) => {
                    if d < state.best_win[j] {
                        state.best_win[j] = d;
                        state.push(d, from);
                    }
                }
                TableValue::Loss(d) => {
                    state.longest_loss[j] = state.longest_loss[j].max(d);
                    state.remaining[j] -= 1;
                    if state.remaining[j] == 0 && state.best_win[j] == u32::MAX {
                        state.push(state.longest_loss[j], from);
                    }
                }
                // (A table's own values always carry their distance.)
                TableValue::Draw | TableValue::Won | TableValue::Lost => {}
            }
        }
    }
}

/// What [`Solver::solve_retrograde`] keeps per position while it works.
struct Retrograde {
    entries: Vec<u8>,
    /// Per undecided position: moves not yet known to lose.
    remaining: Vec<u16>,
    /// The longest known loss.
    longest_loss: Vec<u32>,
    /// A win candidate (its shortest known win), `u32::MAX` if none.
    best_win: Vec<u32>,
    /// `queue[d]`: positions whose value may be decided at distance `d` (checked when taken).
    queue: Vec<Vec<u64>>,
}

impl Retrograde {
    fn new(size: u64) -> Retrograde {
        let count = usize::try_from(size).expect("a set that fits in memory");
        Retrograde {
            entries: vec![UNKNOWN; count],
            remaining: vec![0; count],
            longest_loss: vec![0; count],
            best_win: vec![u32::MAX; count],
            queue: Vec::new(),
        }
    }

    fn push(&mut self, d: u32, index: u64) {
        let d = d as usize;
        if self.queue.len() <= d {
            self.queue.resize_with(d + 1, Vec::new);
        }
        self.queue[d].push(index);
    }
}

/// A solved set: one byte per position number (see the module docs), two when a distance is
/// longer than a byte stores (a wide table, [`Table::from_values`]), or two bits when it holds
/// win, draw or loss only ([`Solver::solve_wdl`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Table {
    /// One byte per position, two (little-endian) in a wide table, or four positions a byte in
    /// a win/draw/loss table (position `i` in bits `2 * (i % 4)` and up of byte `i / 4`).
    entries: Vec<u8>,
    format: Format,
    /// How many position numbers the table covers.
    size: u64,
}

/// How a [`Table`] stores a position; the number is the format's code in a file.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Format {
    /// A byte a position ([`Entry`]).
    Byte = 1,
    /// Two bytes a position ([`WideEntry`]).
    Wide = 2,
    /// Two bits a position: [`WDL_DRAW`], [`WDL_WON`], [`WDL_LOST`] or [`WDL_HOLE`].
    Wdl = 3,
}

/// The two bits of a draw (or a position no side can force) in a win/draw/loss table.
const WDL_DRAW: u8 = 0;
/// The two bits of a win for the side to move.
const WDL_WON: u8 = 1;
/// The two bits of a loss for the side to move.
const WDL_LOST: u8 = 2;
/// The two bits of a number that names no position.
const WDL_HOLE: u8 = 3;

/// Wide entries: wins are `WIDE_WIN_BASE + d`, losses `WIDE_LOSS_BASE + d`.
const WIDE_WIN_BASE: u16 = 2;
const WIDE_LOSS_BASE: u16 = 0x8000;

/// One position of a wide table: as [`Entry`], in 16 bits.
struct WideEntry;

impl WideEntry {
    fn encode(value: Option<TableValue>) -> Option<u16> {
        match value {
            None => Some(u16::from(HOLE)),
            Some(TableValue::Draw) => Some(u16::from(UNKNOWN)),
            Some(TableValue::Win(d)) if d < u32::from(WIDE_LOSS_BASE - WIDE_WIN_BASE) => {
                Some(WIDE_WIN_BASE + d as u16)
            }
            Some(TableValue::Loss(d)) if d <= u32::from(u16::MAX - WIDE_LOSS_BASE) => {
                Some(WIDE_LOSS_BASE + d as u16)
            }
            _ => None,
        }
    }

    fn decode(entry: u16) -> Option<TableValue> {
        match entry {
            0 => Some(TableValue::Draw),
            1 => None,
            e if e >= WIDE_LOSS_BASE => Some(TableValue::Loss(u32::from(e - WIDE_LOSS_BASE))),
            e => Some(TableValue::Win(u32::from(e - WIDE_WIN_BASE))),
        }
    }
}

/// The first bytes of a table file.
const MAGIC: &[u8; 8] = b"PLIESTB\0";
/// The format version this build reads and writes.
const VERSION: u32 = 2;

impl Table {
    /// How many position numbers the table covers.
    #[must_use]
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Bytes the entries take: one a position, two in a wide table, a quarter in a
    /// win/draw/loss table.
    #[must_use]
    pub fn bytes(&self) -> u64 {
        self.entries.len() as u64
    }

    /// Bytes the entries of `size` positions take in `format`.
    fn bytes_for(format: Format, size: u64) -> Option<u64> {
        match format {
            Format::Byte => Some(size),
            Format::Wide => size.checked_mul(2),
            Format::Wdl => Some(size.div_ceil(4)),
        }
    }

    /// The win/draw/loss table of `size` positions from the solver's marks: won, lost, and
    /// open (a position that is neither is a hole, unless won or lost).
    fn from_marks(
        size: u64,
        won: &[std::sync::atomic::AtomicU64],
        lost: &[std::sync::atomic::AtomicU64],
        open: &[std::sync::atomic::AtomicU64],
    ) -> Table {
        let mut entries = Vec::with_capacity(size.div_ceil(4) as usize);
        for ((won, lost), open) in won.iter().zip(lost).zip(open) {
            let (won, lost) = (won.load(Ordering::Relaxed), lost.load(Ordering::Relaxed));
            let hole = !(won | lost | open.load(Ordering::Relaxed));
            for quarter in 0..16 {
                let mut byte = 0;
                for k in 0..4 {
                    let bit = 1u64 << (quarter * 4 + k);
                    let code = if won & bit != 0 {
                        WDL_WON
                    } else if lost & bit != 0 {
                        WDL_LOST
                    } else if hole & bit != 0 {
                        WDL_HOLE
                    } else {
                        WDL_DRAW
                    };
                    byte |= code << (2 * k);
                }
                entries.push(byte);
            }
        }
        entries.truncate(size.div_ceil(4) as usize);
        Table {
            entries,
            format: Format::Wdl,
            size,
        }
    }

    /// A table of the given entries, one byte per position number, as [`Table::entry`] writes
    /// them (for a game that solves its sets with its own solver and keeps the same format).
    /// Every byte is some entry, so any vector is a table.
    #[must_use]
    pub fn from_entries(entries: Vec<u8>) -> Table {
        Table {
            size: entries.len() as u64,
            entries,
            format: Format::Byte,
        }
    }

    /// The table of `size` positions whose values `value` gives (`None`: a hole): one byte a
    /// position when every distance fits ([`MAX_WIN`], [`MAX_LOSS`]), two otherwise (up to
    /// 32,765 plies).
    ///
    /// # Errors
    /// A distance longer than even a wide table stores.
    pub fn from_values(
        size: u64,
        value: &dyn Fn(u64) -> Option<TableValue>,
    ) -> Result<Table, TableError> {
        let count = usize::try_from(size).expect("a table that fits in memory");
        let mut entries = Vec::with_capacity(count);
        for index in 0..size {
            match Table::entry(value(index)) {
                Some(byte) => entries.push(byte),
                None => return Table::wide_from_values(size, value),
            }
        }
        Ok(Table::from_entries(entries))
    }

    fn wide_from_values(
        size: u64,
        value: &dyn Fn(u64) -> Option<TableValue>,
    ) -> Result<Table, TableError> {
        let count = usize::try_from(size).expect("a table that fits in memory");
        let mut entries = Vec::with_capacity(count * 2);
        for index in 0..size {
            let v = value(index);
            let entry = WideEntry::encode(v).ok_or(TableError::TooLong {
                index,
                plies: match v {
                    Some(TableValue::Win(d) | TableValue::Loss(d)) => d,
                    _ => 0,
                },
            })?;
            entries.extend_from_slice(&entry.to_le_bytes());
        }
        Ok(Table {
            entries,
            format: Format::Wide,
            size,
        })
    }

    /// The byte a table stores for `value` (`None`: a hole), or `None` when the distance is
    /// longer than a table stores ([`MAX_WIN`], [`MAX_LOSS`]). Draws are 0, so a zeroed table
    /// is all draws.
    #[must_use]
    pub fn entry(value: Option<TableValue>) -> Option<u8> {
        match value {
            Some(value) => Entry::encode(value),
            None => Some(HOLE),
        }
    }

    /// The value of position number `index`; `None` for a hole or a number beyond the table.
    #[must_use]
    pub fn value(&self, index: u64) -> Option<TableValue> {
        if index >= self.size {
            return None;
        }
        let i = usize::try_from(index).ok()?;
        match self.format {
            Format::Byte => Entry::decode(self.entries[i]),
            Format::Wide => WideEntry::decode(u16::from_le_bytes([
                self.entries[2 * i],
                self.entries[2 * i + 1],
            ])),
            Format::Wdl => match (self.entries[i / 4] >> (2 * (i % 4))) & 3 {
                WDL_DRAW => Some(TableValue::Draw),
                WDL_WON => Some(TableValue::Won),
                WDL_LOST => Some(TableValue::Lost),
                _ => None,
            },
        }
    }

    /// The value of `state` if `set` (the set the table was built for) holds it.
    #[must_use]
    pub fn probe<G: Game>(&self, set: &impl PositionSet<G>, state: &G) -> Option<TableValue> {
        self.value(set.index(state)?)
    }

    /// Counts of wins, losses and draws (holes not counted).
    #[must_use]
    pub fn counts(&self) -> [u64; 3] {
        let mut counts = [0; 3];
        for index in 0..self.size() {
            match self.value(index) {
                Some(TableValue::Win(_) | TableValue::Won) => counts[0] += 1,
                Some(TableValue::Loss(_) | TableValue::Lost) => counts[1] += 1,
                Some(TableValue::Draw) => counts[2] += 1,
                None => {}
            }
        }
        counts
    }

    /// Writes the table: a header naming the format, its version, how a position is stored (1:
    /// a byte, 2: two bytes, 3: two bits, win/draw/loss only) and `key` (what the table is of: the game, the set, its rules; [`Table::read`] refuses a
    /// table of another key), the entries, and a checksum of everything before it.
    ///
    /// # Errors
    /// Only the writer's.
    pub fn write(&self, key: &str, out: &mut dyn Write) -> std::io::Result<()> {
        let mut header = Vec::new();
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.extend_from_slice(&(self.format as u32).to_le_bytes());
        header.extend_from_slice(&(key.len() as u64).to_le_bytes());
        header.extend_from_slice(key.as_bytes());
        header.extend_from_slice(&self.size().to_le_bytes());
        let mut sum = Checksum::new();
        sum.add(&header);
        sum.add(&self.entries);
        out.write_all(&header)?;
        out.write_all(&self.entries)?;
        out.write_all(&sum.value().to_le_bytes())?;
        out.flush()
    }

    /// Reads a table [`Table::write`] wrote for `key`, of `size` position numbers.
    ///
    /// # Errors
    /// [`TableError::BadFile`] naming what is wrong: not a table file, another version, another
    /// key or size, cut short, trailing bytes, a byte no table holds, or a wrong checksum.
    pub fn read(key: &str, size: u64, input: &mut dyn Read) -> Result<Table, TableError> {
        let bad = |why: String| TableError::BadFile(why);
        let mut sum = Checksum::new();
        let mut take = |n: usize, what: &str| -> Result<Vec<u8>, TableError> {
            let mut bytes = Vec::new();
            input
                .take(n as u64)
                .read_to_end(&mut bytes)
                .map_err(|e| bad(format!("cannot read {what}: {e}")))?;
            if bytes.len() < n {
                return Err(bad(format!("cut short in {what}")));
            }
            Ok(bytes)
        };
        let magic = take(MAGIC.len(), "the header")?;
        if magic != MAGIC {
            return Err(bad("not a plies table file".into()));
        }
        let version = u32::from_le_bytes(take(4, "the header")?.try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}, this build reads {VERSION}"
            )));
        }
        let width = u32::from_le_bytes(take(4, "the header")?.try_into().expect("4 bytes"));
        let format = match width {
            1 => Format::Byte,
            2 => Format::Wide,
            3 => Format::Wdl,
            _ => return Err(bad(format!("entry format {width}, not 1, 2 or 3"))),
        };
        let key_len = u64::from_le_bytes(take(8, "the header")?.try_into().expect("8 bytes"));
        if key_len != key.len() as u64 {
            return Err(bad("a table of another set (key length differs)".into()));
        }
        let file_key = take(key.len(), "the key")?;
        if file_key != key.as_bytes() {
            return Err(bad(format!(
                "a table of '{}', not '{key}'",
                String::from_utf8_lossy(&file_key)
            )));
        }
        let file_size = u64::from_le_bytes(take(8, "the header")?.try_into().expect("8 bytes"));
        if file_size != size {
            return Err(bad(format!("{file_size} positions, expected {size}")));
        }
        let count = Table::bytes_for(format, size)
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| bad("too big for this machine".into()))?;
        let entries = take(count, "the entries")?;
        let stored = u64::from_le_bytes(take(8, "the checksum")?.try_into().expect("8 bytes"));
        let mut rest = [0u8; 1];
        if input.read(&mut rest).map_err(|e| bad(e.to_string()))? != 0 {
            return Err(bad("bytes after the checksum".into()));
        }
        sum.add(MAGIC);
        sum.add(&version.to_le_bytes());
        sum.add(&width.to_le_bytes());
        sum.add(&key_len.to_le_bytes());
        sum.add(key.as_bytes());
        sum.add(&file_size.to_le_bytes());
        sum.add(&entries);
        if sum.value() != stored {
            return Err(bad(
                "the checksum does not match (the file is damaged)".into()
            ));
        }
        Ok(Table {
            entries,
            format,
            size,
        })
    }
}

/// A 64-bit FNV-1a checksum (detects damage, not tampering).
struct Checksum(u64);

impl Checksum {
    fn new() -> Checksum {
        Checksum(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn value(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests;
