//! The win/draw/loss solver, [`Solver::solve_wdl`]: the same wins and losses as
//! [`Solver::solve`] without their distances, in two bits a position, and with less work.
//!
//! What it keeps while it works is three bits a position (won, lost, open: a position whose
//! value is not known yet), in 64-position words. The positions are taken in *blocks* of
//! [`BLOCK`] numbers. The first pass lists, per block, the blocks its moves lead into (its
//! *links*); after that a block is looked at again only when one of its links changed since it
//! was last looked at, and then only its open positions. A value found is used at once by the
//! positions looked at after it (so there are fewer passes than the longest win), and words are
//! read with relaxed loads and written with `fetch_or`/`fetch_and`, which are idempotent.
//!
//! Key invariant: a position is marked won only when one of its moves reaches a position marked
//! lost for the opponent (or won for the mover, after an extra turn), or a finished game or
//! outside value that is such; lost only when every move reaches one marked won for the
//! opponent (or lost for the mover). The marks only grow, and the solver stops after a pass in
//! which a block whose links did not change since its last look could not change either, so
//! the result is the least fixed point of those two rules: exactly the wins and losses of
//! [`Solver::solve`], whatever the threads and their timing.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use super::blocks::{BLOCK, Links, Notes};
use super::{PositionSet, SolveProgress, Solver, Table, TableError, TableValue};
use crate::game::Game;
use crate::memory::zeroed_vec;

/// Words per block.
const BLOCK_WORDS: usize = (BLOCK / 64) as usize;

/// What the solver keeps per position and per block.
struct Marks {
    won: Vec<AtomicU64>,
    lost: Vec<AtomicU64>,
    open: Vec<AtomicU64>,
    /// Per block: the last pass that marked one of its positions won or lost (0: none).
    changed: Vec<AtomicU32>,
}

impl Marks {
    fn new(size: u64) -> Result<Marks, TableError> {
        let words = usize::try_from(size.div_ceil(64)).expect("a set that fits in memory");
        let blocks = words.div_ceil(BLOCK_WORDS);
        Ok(Marks {
            won: zeroed_vec(words).map_err(TableError::Memory)?,
            lost: zeroed_vec(words).map_err(TableError::Memory)?,
            open: zeroed_vec(words).map_err(TableError::Memory)?,
            changed: zeroed_vec(blocks).map_err(TableError::Memory)?,
        })
    }

    /// The value of in-set position `index` as marked so far, for its side to move.
    fn value(&self, index: u64) -> Option<TableValue> {
        let (word, bit) = ((index / 64) as usize, 1u64 << (index % 64));
        if self.won[word].load(Ordering::Relaxed) & bit != 0 {
            Some(TableValue::Won)
        } else if self.lost[word].load(Ordering::Relaxed) & bit != 0 {
            Some(TableValue::Lost)
        } else {
            None
        }
    }

    /// Marks `index` won or lost in `pass` and no longer open.
    fn decide(&self, index: u64, value: TableValue, pass: u32) {
        let (word, bit) = ((index / 64) as usize, 1u64 << (index % 64));
        let marks = if value == TableValue::Won {
            &self.won
        } else {
            &self.lost
        };
        marks[word].fetch_or(bit, Ordering::Relaxed);
        self.open[word].fetch_and(!bit, Ordering::Relaxed);
        self.changed[word / BLOCK_WORDS].store(pass, Ordering::Relaxed);
    }
}

impl<G: Game, S: PositionSet<G>> Solver<'_, G, S> {
    /// Solves the set for win, draw or loss only: [`TableValue::Won`], [`TableValue::Lost`] or
    /// [`TableValue::Draw`] for every position, exactly where [`Solver::solve`] finds a win, a
    /// loss or a draw, in a table of two bits a position (a quarter of [`Solver::solve`]'s) that
    /// works in three bits a position. It looks again only at the open positions of blocks of
    /// numbers whose moves lead into a block that changed (so a numbering that keeps a
    /// position's successors in few blocks makes it fast), and uses each value as soon as it is
    /// found. `progress` is called after each pass; [`SolveProgress::looked_at`] says how many
    /// positions the pass went through. Outside successors ([`Solver::outside`]) count for
    /// their win, draw or loss, whatever their distance.
    ///
    /// # Errors
    /// A broken numbering, or a set too big for this machine's memory.
    pub fn solve_wdl(&self, progress: &mut dyn FnMut(SolveProgress)) -> Result<Table, TableError> {
        let size = self.set.size();
        let marks = Marks::new(size)?;
        let blocks = marks.changed.len();
        // Per block: the blocks its moves lead into (unset: too many to list).
        let links: Vec<OnceLock<Links>> = (0..blocks).map(|_| OnceLock::new()).collect();
        // Per block: the pass it was last looked at in (written only by the thread looking).
        let looked: Vec<AtomicU32> = zeroed_vec(blocks).map_err(TableError::Memory)?;
        let positions = AtomicU64::new(0);
        let decided = AtomicU64::new(0);
        let seen = AtomicU64::new(0);
        // Pass 1: holes, finished games, the numbering checked, each block's links listed and
        // every position looked at once.
        self.parallel(blocks as u64, 1, &|block| {
            let (start, end) = (block * BLOCK, ((block + 1) * BLOCK).min(size));
            let mut notes = Notes::default();
            let mut moves = Vec::new();
            let (mut real, mut found, mut looked_at) = (0, 0, 0);
            for index in start..end {
                let Some(state) = self.set.position(index) else {
                    continue;
                };
                if self.set.index(&state) != Some(index) {
                    return Err(TableError::BadNumbering { index });
                }
                real += 1;
                let (word, bit) = ((index / 64) as usize, 1u64 << (index % 64));
                marks.open[word].fetch_or(bit, Ordering::Relaxed);
                if let Some(outcome) = state.outcome() {
                    let value = TableValue::terminal(&state, outcome).outcome_only();
                    if value != TableValue::Draw {
                        marks.decide(index, value, 1);
                        found += 1;
                    }
                    continue;
                }
                looked_at += 1;
                if let Some(value) = self.decide_wdl(&state, &marks, &mut moves, Some(&mut notes)) {
                    marks.decide(index, value, 1);
                    found += 1;
                }
            }
            looked[block as usize].store(1, Ordering::Relaxed);
            if let Some(listed) = notes.finish() {
                let _ = links[block as usize].set(listed);
            }
            positions.fetch_add(real, Ordering::Relaxed);
            decided.fetch_add(found, Ordering::Relaxed);
            seen.fetch_add(looked_at, Ordering::Relaxed);
            Ok(())
        })?;
        let positions = positions.into_inner();
        progress(SolveProgress {
            pass: 1,
            decided: decided.load(Ordering::Relaxed),
            positions,
            looked_at: seen.swap(0, Ordering::Relaxed),
        });
        let mut pass = 1;
        let mut before = 0;
        while decided.load(Ordering::Relaxed) != before {
            before = decided.load(Ordering::Relaxed);
            pass += 1;
            self.parallel(blocks as u64, 1, &|block| {
                let b = block as usize;
                let last = looked[b].load(Ordering::Relaxed);
                let words = b * BLOCK_WORDS..((b + 1) * BLOCK_WORDS).min(marks.open.len());
                let stale = links[b]
                    .get()
                    .is_none_or(|links| links.changed_since(&marks.changed, last));
                if !stale
                    || marks.open[words.clone()]
                        .iter()
                        .all(|w| w.load(Ordering::Relaxed) == 0)
                {
                    return Ok(());
                }
                looked[b].store(pass, Ordering::Relaxed);
                let (mut found, mut looked_at) = (0, 0);
                let mut moves = Vec::new();
                for word in words {
                    let mut open = marks.open[word].load(Ordering::Relaxed);
                    while open != 0 {
                        let index = word as u64 * 64 + u64::from(open.trailing_zeros());
                        open &= open - 1;
                        let Some(state) = self.set.position(index) else {
                            continue;
                        };
                        looked_at += 1;
                        if let Some(value) = self.decide_wdl(&state, &marks, &mut moves, None) {
                            marks.decide(index, value, pass);
                            found += 1;
                        }
                    }
                }
                decided.fetch_add(found, Ordering::Relaxed);
                seen.fetch_add(looked_at, Ordering::Relaxed);
                Ok(())
            })?;
            progress(SolveProgress {
                pass,
                decided: decided.load(Ordering::Relaxed),
                positions,
                looked_at: seen.swap(0, Ordering::Relaxed),
            });
        }
        Ok(Table::from_marks(
            size,
            &marks.won,
            &marks.lost,
            &marks.open,
        ))
    }

    /// Won or lost for `state`'s mover from what is marked so far, or `None` when not yet known
    /// (a finished game that is a draw included); `moves` is a buffer, and what the moves lead
    /// into is noted in `notes` (all of them unless it is won).
    fn decide_wdl(
        &self,
        state: &G,
        marks: &Marks,
        moves: &mut Vec<G::Move>,
        mut notes: Option<&mut Notes>,
    ) -> Option<TableValue> {
        if state.outcome().is_some() {
            return None;
        }
        moves.clear();
        state.generate_moves(moves);
        let mover = state.side_to_move();
        let mut all_lost = !moves.is_empty();
        for &mv in moves.iter() {
            let next = state.play(mv);
            let value = if let Some(outcome) = next.outcome() {
                Some(TableValue::terminal(&next, outcome))
            } else if let Some(index) = self.set.index(&next) {
                if let Some(notes) = notes.as_deref_mut() {
                    notes.target(index);
                }
                marks.value(index)
            } else {
                self.outside.and_then(|probe| probe(&next))
            };
            match value.map(|v| v.seen_by_mover(next.side_to_move() == mover).outcome_only()) {
                Some(TableValue::Won) => return Some(TableValue::Won),
                Some(TableValue::Lost) => {}
                _ => all_lost = false,
            }
        }
        all_lost.then_some(TableValue::Lost)
    }
}
