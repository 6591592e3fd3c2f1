//! [`Level`]: the Kalah positions of one seed count, numbered for the library's generic table
//! solver ([`plies::solve::Solver`]), which then solves them for win, draw or loss with the
//! distance (`solve`) or without it, in bits (`solve_wdl`). The margin tables of the parent
//! module are the faster way to solve Kalah; this set is how the generic solver is shown on it
//! and checked against them.
//!
//! Key invariant: `index(&position(i)?) == Some(i)` for every number `i` of the set, and
//! `position(index(s)?)` is `s` for every position `s` the set holds.

use plies::solve::PositionSet;
use plies::{Game, Side};

use crate::{CaptureRule, Kalah, MAX_PITS, MAX_SEEDS};

/// The positions of a board of `pits` pits a side under one capture rule with exactly
/// `in_pits` seeds in the pits and `total` seeds on the board, either side to move, that are
/// not finished games. A move either keeps the seeds in the pits or moves some to a store, so
/// the levels of one total with fewer seeds in the pits hold every successor that leaves this
/// one (solve them first and probe them as the solver's outside).
///
/// Numbers: the layout of the pits (South's `a..`, then North's) by the colex rank of its
/// stars-and-bars bars, then South's store, then the side to move. A layout whose side to move
/// has no seed is a finished game and its number a hole.
#[derive(Clone, Debug)]
pub struct Level {
    pits: usize,
    capture: CaptureRule,
    total: u8,
    in_pits: u8,
    /// `C(n, r)` at `r * (n_max + 1) + n`, for `n ≤ in_pits + 2 * pits` and `r < 2 * pits`.
    binomials: Vec<u64>,
    /// Layouts of `in_pits` seeds over the `2 * pits` pits.
    layouts: u64,
}

impl Level {
    /// The level of `in_pits` seeds in the pits of a board of `pits` pits a side with `total`
    /// seeds in all, under `capture`.
    ///
    /// # Errors
    /// A board plies does not play (`pits` outside `1..=`[`MAX_PITS`], more than [`MAX_SEEDS`]
    /// seeds), or more seeds in the pits than on the board.
    pub fn new(pits: usize, capture: CaptureRule, total: u8, in_pits: u8) -> Result<Level, String> {
        if !(1..=MAX_PITS).contains(&pits) {
            return Err(format!("{pits} pits a side: plies plays 1..={MAX_PITS}"));
        }
        if usize::from(total) > MAX_SEEDS || in_pits > total {
            return Err(format!(
                "{in_pits} seeds in the pits of {total} on the board: at most {MAX_SEEDS} seeds, \
                 and no more in the pits than on the board"
            ));
        }
        let cells = 2 * pits;
        let stride = usize::from(in_pits) + cells;
        let mut binomials = vec![0u64; cells * stride];
        binomials[..stride].fill(1);
        for r in 1..cells {
            for n in r..stride {
                binomials[r * stride + n] =
                    binomials[(r - 1) * stride + n - 1] + binomials[r * stride + n - 1];
            }
        }
        let mut level = Level {
            pits,
            capture,
            total,
            in_pits,
            binomials,
            layouts: 0,
        };
        level.layouts = level.choose(usize::from(in_pits) + cells - 1, cells - 1);
        Ok(level)
    }

    /// The seeds in the pits of every position of the level.
    #[must_use]
    pub fn in_pits(&self) -> u8 {
        self.in_pits
    }

    fn choose(&self, n: usize, r: usize) -> u64 {
        let stride = usize::from(self.in_pits) + 2 * self.pits;
        if n < r {
            0
        } else {
            self.binomials[r * stride + n]
        }
    }

    /// South's store counts `0..stores`.
    fn stores(&self) -> u64 {
        u64::from(self.total - self.in_pits) + 1
    }
}

impl PositionSet<Kalah> for Level {
    fn size(&self) -> u64 {
        self.layouts * self.stores() * 2
    }

    fn index(&self, state: &Kalah) -> Option<u64> {
        if state.pits() != self.pits || state.capture_rule() != self.capture {
            return None;
        }
        // (Checked first: the rank's binomials hold this level's seed counts only.)
        let in_pits = state.seeds_on_side(Side::First) + state.seeds_on_side(Side::Second);
        let south = state.store(Side::First);
        let total = in_pits + u32::from(south) + u32::from(state.store(Side::Second));
        if in_pits != u32::from(self.in_pits)
            || total != u32::from(self.total)
            || state.outcome().is_some()
        {
            return None;
        }
        let mut rank = 0;
        let mut bar = 0;
        for cell in 0..2 * self.pits - 1 {
            let (side, pit) = if cell < self.pits {
                (Side::First, cell)
            } else {
                (Side::Second, cell - self.pits)
            };
            bar += usize::from(state.seeds(side, pit));
            rank += self.choose(bar + cell, cell + 1);
        }
        Some((rank * self.stores() + u64::from(south)) * 2 + state.side_to_move().index() as u64)
    }

    fn position(&self, index: u64) -> Option<Kalah> {
        if index >= self.size() {
            return None;
        }
        let side = if index.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        };
        let south = (index / 2 % self.stores()) as u8;
        let mut rank = index / 2 / self.stores();
        // The bars from the last: bar j is the largest b with C(b, j + 1) ≤ what is left.
        let cells = 2 * self.pits;
        let mut seeds = [0u8; 2 * MAX_PITS];
        let mut above = usize::from(self.in_pits) + cells - 1;
        for j in (0..cells - 1).rev() {
            let mut b = above - 1;
            while self.choose(b, j + 1) > rank {
                b -= 1;
            }
            rank -= self.choose(b, j + 1);
            seeds[j + 1] = (above - b - 1) as u8;
            above = b;
        }
        seeds[0] = above as u8;
        let north = self.total - self.in_pits - south;
        let state = Kalah::from_rows(
            &seeds[..self.pits],
            south,
            &seeds[self.pits..cells],
            north,
            side,
        )
        .ok()?
        .with_capture(self.capture);
        state.outcome().is_none().then_some(state)
    }
}
