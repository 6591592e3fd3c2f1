//! The ordering tables a search learns as it goes: killer moves (per ply) and the history
//! heuristic (per side and move index). [`crate::search::ordering::MovePicker`] reads them.
//!
//! Key invariant: nothing here allocates after construction; scores stay below the picker's
//! killer rank (history is halved before any score passes `HISTORY_MAX`).

use crate::game::Side;

/// History scores are halved once one of them would exceed this, so quiets stay below killers.
pub(crate) const HISTORY_MAX: i32 = 1 << 24;

/// Two killer moves per ply: quiet moves that recently caused a beta cutoff at that ply.
#[derive(Clone, Debug)]
pub struct Killers<M> {
    slots: Vec<[Option<M>; 2]>,
}

impl<M: Copy + PartialEq> Killers<M> {
    /// Killer slots for plies `0..plies`.
    #[must_use]
    pub fn new(plies: usize) -> Killers<M> {
        Killers {
            slots: vec![[None; 2]; plies],
        }
    }

    /// Forgets every killer.
    pub fn clear(&mut self) {
        self.slots.fill([None; 2]);
    }

    /// The killers of `ply`, most recent first.
    #[inline]
    #[must_use]
    pub fn at(&self, ply: usize) -> [Option<M>; 2] {
        self.slots[ply]
    }

    /// Records that `mv` caused a cutoff at `ply`.
    #[inline]
    pub fn record(&mut self, ply: usize, mv: M) {
        let slot = &mut self.slots[ply];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
    }
}

/// The history heuristic: per side and move index ([`crate::Game::move_index`]), how often and how
/// deep a quiet move caused a beta cutoff.
#[derive(Clone, Debug)]
pub struct History {
    table: Vec<i32>,
    bound: usize,
}

impl History {
    /// An empty table for move indices below `bound`.
    #[must_use]
    pub fn new(bound: usize) -> History {
        History {
            table: vec![0; 2 * bound],
            bound,
        }
    }

    /// The move-index bound the table was built for.
    #[must_use]
    pub fn bound(&self) -> usize {
        self.bound
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    /// Halves every score (between searches: old knowledge counts less).
    pub fn age(&mut self) {
        for value in &mut self.table {
            *value /= 2;
        }
    }

    /// The score of move index `index` for `side`.
    #[inline]
    #[must_use]
    pub fn score(&self, side: Side, index: usize) -> i32 {
        self.table[side.index() * self.bound + index]
    }

    /// Rewards a quiet cutoff of `side`'s move `index` at remaining `depth` by `depth²`.
    #[inline]
    pub fn reward(&mut self, side: Side, index: usize, depth: u32) {
        let depth = depth.min(1 << 10) as i32;
        let slot = side.index() * self.bound + index;
        self.table[slot] += depth * depth;
        if self.table[slot] > HISTORY_MAX {
            self.age();
        }
    }
}
