//! Kalah solved exactly: tables of every position with at most `K` seeds left in the pits, and a
//! search from any position down to them.
//!
//! **Why tables by seeds in play.** Seeds only ever leave the pits (for a store), so the positions
//! with at most `K` seeds in the pits are closed under moves: a level `k` (exactly `k` seeds in
//! the pits) reaches itself and the levels below. What is still to be won from a position does
//! not depend on the stores: [`MarginTables`] keeps, for every layout of `k` seeds over the
//! pits, the **margin** the side to move gains from here on with best play (the seeds it will
//! still put in its store, less those the opponent will), one signed byte, `-k..=k`. A
//! position's result is then its store difference plus that margin, from the side to move's
//! view. Within a level a move either puts no seed in a store and captures nothing, and then
//! moves seeds towards its own store (the sum over seeds of their distance to their owner's
//! store falls), or it leaves the level; so a level has no cycles and is solved by one recursion
//! over its layouts, memoised in the table, on any number of threads (the values are unique, so
//! the table does not depend on the threads).
//!
//! **Layouts.** The side to move's pits `a..` then the opponent's pits `a..`, numbered in
//! lexicographic order among all layouts of `k` seeds over `2 × pits` pits (stars and bars:
//! C(k + 2p − 1, 2p − 1) layouts in level `k`; Kalah(6,·) holds C(K + 12, 12) layouts up to `K`
//! seeds, a byte each).
//!
//! **The search** ([`solve_margin`]): MTD(f) over a fail-soft alpha-beta with a transposition
//! table on the exact board (no hash collisions can change a value), extra turns searched
//! first, tables answering every position with at most `K` seeds in the pits.
//!
//! [`MarginTables`] also implements [`Probe`], so the library's searchers use them as endgame
//! tables (win, loss or draw: the store difference plus the margin decides).
//!
//! Key invariant: `value(layout)` is the largest, over the legal moves, of the seeds the move
//! puts in the mover's store plus the next layout's value (the same side moves again) or minus it
//! (the turn passes); a layout whose side to move has no seed is worth minus every seed left.

use std::sync::atomic::{AtomicI8, AtomicU64, Ordering};

use plies::solve::{Probe, TableValue};
use plies::{Game, Side};

use crate::{CaptureRule, Kalah, MAX_PITS, Sow};

/// The most pits on a board, both sides.
const CELLS: usize = 2 * MAX_PITS;
/// Not computed yet.
const UNSET: i8 = i8::MIN;
/// Layouts handed to a thread at a time.
const CHUNK: u64 = 1 << 14;

/// A layout: the side to move's pits `0..pits`, then the opponent's `pits..2 * pits`.
type Cells = [u8; CELLS];

/// Binomial coefficients C(n, r) for the ranking of layouts.
struct Binomials {
    rows: Vec<[u64; CELLS + 1]>,
}

impl Binomials {
    fn new(max_n: usize) -> Binomials {
        let mut rows = vec![[0u64; CELLS + 1]; max_n + 1];
        for n in 0..=max_n {
            rows[n][0] = 1;
            for r in 1..=CELLS.min(n) {
                rows[n][r] = rows[n - 1][r - 1] + if r < n { rows[n - 1][r] } else { 0 };
            }
        }
        Binomials { rows }
    }

    #[inline]
    fn get(&self, n: usize, r: usize) -> u64 {
        self.rows[n][r]
    }
}

/// The rules a layout is played by: board size and capture rule.
#[derive(Copy, Clone)]
struct Rules {
    pits: usize,
    capture: CaptureRule,
}

/// What one move does to a layout.
struct Sown {
    /// The layout after the move, from the next side to move's view.
    next: Cells,
    /// Seeds the move put in the mover's store (sown there or captured).
    gain: u8,
    /// The mover moves again (its last seed reached its store).
    again: bool,
}

impl Rules {
    /// Sows the mover's pit `pit` (it holds seeds).
    #[inline]
    fn sow(self, cells: &Cells, pit: usize) -> Sown {
        let p = self.pits;
        let ring = 2 * p + 1;
        let mut board = *cells;
        let mut seeds = board[pit];
        board[pit] = 0;
        let mut gain = 0u8;
        let mut at = pit;
        while seeds > 0 {
            at += 1;
            if at == ring {
                at = 0;
            }
            match at.cmp(&p) {
                std::cmp::Ordering::Less => board[at] += 1,
                std::cmp::Ordering::Equal => gain += 1,
                std::cmp::Ordering::Greater => board[at - 1] += 1,
            }
            seeds -= 1;
        }
        let again = at == p;
        if at < p && board[at] == 1 {
            let opposite = 2 * p - 1 - at;
            if board[opposite] > 0 || self.capture == CaptureRule::Empty {
                gain += 1 + board[opposite];
                board[at] = 0;
                board[opposite] = 0;
            }
        }
        let next = if again {
            board
        } else {
            let mut turned = [0u8; CELLS];
            turned[..p].copy_from_slice(&board[p..2 * p]);
            turned[p..2 * p].copy_from_slice(&board[..p]);
            turned
        };
        Sown { next, gain, again }
    }

    /// Whether the side to move has no seed (the game is over).
    #[inline]
    fn over(self, cells: &Cells) -> bool {
        cells[..self.pits].iter().all(|&s| s == 0)
    }
}

/// How far a build has got: given after each level.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BuildProgress {
    /// The level just solved (seeds in the pits).
    pub seeds: usize,
    /// Its layouts.
    pub layouts: u64,
    /// Bytes held by all levels so far.
    pub bytes: u64,
}

/// The margin tables of one board size and capture rule, up to some number of seeds in the
/// pits (see the module docs).
pub struct MarginTables {
    rules: Rules,
    binomials: Binomials,
    levels: Vec<Vec<i8>>,
}

impl MarginTables {
    /// Layouts of `seeds` seeds over the pits of a board of `pits` pits a side.
    #[must_use]
    pub fn level_size(pits: usize, seeds: usize) -> u64 {
        let parts = 2 * pits;
        Binomials::new(seeds + parts).get(seeds + parts - 1, parts - 1)
    }

    /// Bytes the tables of every level up to `seeds` take on a board of `pits` pits a side.
    #[must_use]
    pub fn bytes_up_to(pits: usize, seeds: usize) -> u64 {
        (0..=seeds).map(|k| MarginTables::level_size(pits, k)).sum()
    }

    /// Builds the tables of `pits` pits a side (`1..=8`) under `capture`, every level up to
    /// `max_seeds` seeds (at most 127) in the pits, on `threads` threads, calling `progress`
    /// after each level.
    ///
    /// # Panics
    /// A board or level outside those bounds.
    pub fn build(
        pits: usize,
        capture: CaptureRule,
        max_seeds: usize,
        threads: usize,
        progress: &mut dyn FnMut(BuildProgress),
    ) -> MarginTables {
        assert!((1..=MAX_PITS).contains(&pits), "1..={MAX_PITS} pits");
        assert!(max_seeds <= 127, "at most 127 seeds in a table");
        let mut tables = MarginTables {
            rules: Rules { pits, capture },
            binomials: Binomials::new(max_seeds + CELLS + 1),
            levels: Vec::with_capacity(max_seeds + 1),
        };
        let mut bytes = 0;
        for seeds in 0..=max_seeds {
            let level = tables.solve_level(seeds, threads.max(1));
            bytes += level.len() as u64;
            tables.levels.push(level);
            progress(BuildProgress {
                seeds,
                layouts: tables.levels[seeds].len() as u64,
                bytes,
            });
        }
        tables
    }

    /// The most seeds in the pits a position the tables answer may hold.
    #[must_use]
    pub fn max_seeds(&self) -> usize {
        self.levels.len() - 1
    }

    /// Bytes the tables hold.
    #[must_use]
    pub fn bytes(&self) -> u64 {
        self.levels.iter().map(|l| l.len() as u64).sum()
    }

    /// What the side to move of `state` gains from here on with best play (seeds it still puts
    /// in its store less those the opponent does), or `None` when the tables do not hold it
    /// (more seeds in the pits, another board size or capture rule).
    #[must_use]
    pub fn margin(&self, state: &Kalah) -> Option<i32> {
        if state.pits() != self.rules.pits || state.capture_rule() != self.rules.capture {
            return None;
        }
        let (cells, seeds) = layout(state);
        if seeds > self.max_seeds() {
            return None;
        }
        Some(i32::from(self.lookup(&cells, seeds)))
    }

    /// The number of layout `cells` (of `seeds` seeds) in its level.
    #[inline]
    fn rank(&self, cells: &Cells, seeds: usize) -> u64 {
        let parts = 2 * self.rules.pits;
        let mut left = seeds;
        let mut index = 0;
        for (i, &count) in cells[..parts - 1].iter().enumerate() {
            let x = usize::from(count);
            if x > 0 {
                let m = parts - 2 - i;
                index += self.binomials.get(left + m + 1, m + 1)
                    - self.binomials.get(left - x + m + 1, m + 1);
                left -= x;
            }
        }
        index
    }

    /// The layout numbered `index` among those of `seeds` seeds (inverse of [`Self::rank`]).
    fn unrank(&self, mut index: u64, seeds: usize) -> Cells {
        let parts = 2 * self.rules.pits;
        let mut cells = [0u8; CELLS];
        let mut left = seeds;
        for (i, cell) in cells[..parts - 1].iter_mut().enumerate() {
            let m = parts - 2 - i;
            let mut x = 0;
            // Layouts whose pit i holds x: those of the rest, C(left - x + m, m).
            loop {
                let with_x = self.binomials.get(left - x + m, m);
                if index < with_x {
                    break;
                }
                index -= with_x;
                x += 1;
            }
            *cell = x as u8;
            left -= x;
        }
        cells[parts - 1] = left as u8;
        cells
    }

    /// The stored value of a layout of a solved level.
    #[inline]
    fn lookup(&self, cells: &Cells, seeds: usize) -> i8 {
        self.levels[seeds][self.rank(cells, seeds) as usize]
    }

    /// Solves level `seeds` from the levels below.
    fn solve_level(&self, seeds: usize, threads: usize) -> Vec<i8> {
        let size = self
            .binomials
            .get(seeds + 2 * self.rules.pits - 1, 2 * self.rules.pits - 1);
        let level: Vec<AtomicI8> = (0..size).map(|_| AtomicI8::new(UNSET)).collect();
        let next = AtomicU64::new(0);
        let work = || {
            loop {
                let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                if start >= size {
                    return;
                }
                let mut cells = self.unrank(start, seeds);
                for index in start..(start + CHUNK).min(size) {
                    if level[index as usize].load(Ordering::Relaxed) == UNSET {
                        let value = self.value_in_level(&level, &cells, seeds);
                        level[index as usize].store(value, Ordering::Relaxed);
                    }
                    next_layout(&mut cells, 2 * self.rules.pits);
                }
            }
        };
        if threads == 1 {
            work();
        } else {
            std::thread::scope(|scope| {
                for _ in 0..threads {
                    scope.spawn(work);
                }
            });
        }
        level.into_iter().map(AtomicI8::into_inner).collect()
    }

    /// The value of a layout of the level being solved: moves within the level recurse (and
    /// store what they find), moves out of it read the levels below.
    fn value_in_level(&self, level: &[AtomicI8], cells: &Cells, seeds: usize) -> i8 {
        if self.rules.over(cells) {
            return -(seeds as i8);
        }
        let mut best = i32::MIN;
        for pit in 0..self.rules.pits {
            if cells[pit] == 0 {
                continue;
            }
            let sown = self.rules.sow(cells, pit);
            let left = seeds - usize::from(sown.gain);
            let after = if left == seeds {
                let index = self.rank(&sown.next, seeds) as usize;
                let known = level[index].load(Ordering::Relaxed);
                if known == UNSET {
                    let value = self.value_in_level(level, &sown.next, seeds);
                    level[index].store(value, Ordering::Relaxed);
                    value
                } else {
                    known
                }
            } else {
                self.lookup(&sown.next, left)
            };
            let after = i32::from(after);
            let value = i32::from(sown.gain) + if sown.again { after } else { -after };
            best = best.max(value);
        }
        best as i8
    }
}

/// The next layout in lexicographic order (the order of the numbering), in place; the last one
/// stays as it is.
fn next_layout(cells: &mut Cells, parts: usize) {
    let Some(last) = (0..parts).rev().find(|&i| cells[i] > 0) else {
        return;
    };
    if last == parts - 1 {
        if parts >= 2 {
            cells[parts - 2] += 1;
            cells[parts - 1] -= 1;
        }
    } else if last > 0 {
        cells[last - 1] += 1;
        cells[parts - 1] = cells[last] - 1;
        cells[last] = 0;
    }
}

/// The layout of `state` from its side to move's view, and its seeds in the pits.
fn layout(state: &Kalah) -> (Cells, usize) {
    let p = state.pits();
    let me = state.side_to_move();
    let mut cells = [0u8; CELLS];
    for pit in 0..p {
        cells[pit] = state.seeds(me, pit);
        cells[p + pit] = state.seeds(me.opponent(), pit);
    }
    let seeds = cells.iter().map(|&s| usize::from(s)).sum();
    (cells, seeds)
}

impl Probe<Kalah> for MarginTables {
    /// A win, loss or draw (its length unknown): the store difference plus the margin.
    fn probe(&self, state: &Kalah) -> Option<TableValue> {
        let margin = self.margin(state)?;
        let me = state.side_to_move();
        let stores = i32::from(state.store(me)) - i32::from(state.store(me.opponent()));
        Some(match (stores + margin).cmp(&0) {
            std::cmp::Ordering::Greater => TableValue::Won,
            std::cmp::Ordering::Less => TableValue::Lost,
            std::cmp::Ordering::Equal => TableValue::Draw,
        })
    }
}

/// One slot of the search's transposition table.
#[derive(Copy, Clone, Default)]
struct Slot {
    /// The layout (pits, seed counts as bytes) and side-independent: the layout is from the
    /// side to move's view, so this is the whole position the value depends on.
    board: u128,
    lower: i16,
    upper: i16,
    best: u8,
    used: bool,
}

/// What [`solve_margin`] found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The final store difference with best play from the first side's (South's) view.
    pub south_margin: i32,
    /// A best move of the side to move (`None` for a finished game).
    pub best: Option<Sow>,
    /// Positions searched (table look-ups not counted).
    pub nodes: u64,
    /// Positions answered by the tables.
    pub table_hits: u64,
}

/// The exact value of `state`: the final store difference with best play (see the module docs),
/// by MTD(f) over an alpha-beta search that reads `tables` (built for the same board and capture
/// rule) and a transposition table of `2^tt_bits` slots.
///
/// # Panics
/// Tables of another board size or capture rule.
#[must_use]
pub fn solve_margin(state: &Kalah, tables: &MarginTables, tt_bits: u32) -> Solution {
    assert!(
        state.pits() == tables.rules.pits && state.capture_rule() == tables.rules.capture,
        "tables of another board or capture rule"
    );
    let me = state.side_to_move();
    let stores = i32::from(state.store(me)) - i32::from(state.store(me.opponent()));
    let (cells, seeds) = layout(state);
    let mut search = Search {
        tables,
        tt: vec![Slot::default(); 1 << tt_bits],
        mask: (1 << tt_bits) - 1,
        nodes: 0,
        table_hits: 0,
    };
    let seeds = seeds as i32;
    let (mut lower, mut upper) = (-seeds, seeds);
    let mut guess = 0;
    while lower < upper {
        let beta = if guess == lower { guess + 1 } else { guess };
        guess = search.search(&cells, seeds, beta - 1, beta);
        if guess < beta {
            upper = guess;
        } else {
            lower = guess;
        }
    }
    let root = search.tt[search.slot(&cells)];
    let best = if root.used && root.board == Search::key(&cells) {
        Some(Sow(root.best))
    } else {
        // The root was a table look-up (or its slot was taken): the first move keeping the value.
        (0..tables.rules.pits)
            .filter(|&pit| cells[pit] > 0)
            .find(|&pit| {
                let sown = tables.rules.sow(&cells, pit);
                let gain = i32::from(sown.gain);
                let left = seeds - gain;
                let after = search.search(&sown.next, left, -left - 1, left + 1);
                gain + if sown.again { after } else { -after } == lower
            })
            .map(|pit| Sow(pit as u8))
    };
    let mine = stores + lower;
    Solution {
        south_margin: if me == Side::First { mine } else { -mine },
        best,
        nodes: search.nodes,
        table_hits: search.table_hits,
    }
}

/// The alpha-beta search of [`solve_margin`].
struct Search<'a> {
    tables: &'a MarginTables,
    tt: Vec<Slot>,
    mask: usize,
    nodes: u64,
    table_hits: u64,
}

impl Search<'_> {
    fn key(cells: &Cells) -> u128 {
        u128::from_le_bytes(*cells)
    }

    fn slot(&self, cells: &Cells) -> usize {
        let key = Search::key(cells);
        let mixed =
            (key as u64 ^ ((key >> 64) as u64).rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        ((mixed ^ (mixed >> 31)) as usize) & self.mask
    }

    /// The margin of `cells` (with `seeds` in the pits) for the side to move, fail-soft within
    /// `(alpha, beta)`.
    fn search(&mut self, cells: &Cells, seeds: i32, mut alpha: i32, mut beta: i32) -> i32 {
        let rules = self.tables.rules;
        if seeds as usize <= self.tables.max_seeds() {
            self.table_hits += 1;
            return i32::from(self.tables.lookup(cells, seeds as usize));
        }
        if rules.over(cells) {
            return -seeds;
        }
        self.nodes += 1;
        let at = self.slot(cells);
        let key = Search::key(cells);
        let mut first = None;
        let slot = self.tt[at];
        if slot.used && slot.board == key {
            let lower = i32::from(slot.lower);
            let upper = i32::from(slot.upper);
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            first = Some(usize::from(slot.best));
        }
        // Order: the stored best move, then extra turns (nearest the store first), then the rest
        // from the pit nearest the store.
        let p = rules.pits;
        let mut order = [0usize; MAX_PITS];
        let mut count = 0;
        if let Some(pit) = first {
            order[0] = pit;
            count = 1;
        }
        for extra in [true, false] {
            for pit in (0..p).rev() {
                let s = usize::from(cells[pit]);
                if s == 0 || Some(pit) == first {
                    continue;
                }
                if (s % (2 * p + 1) == p - pit) == extra {
                    order[count] = pit;
                    count += 1;
                }
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut best = i32::MIN;
        let mut best_pit = order[0];
        for &pit in &order[..count] {
            let sown = rules.sow(cells, pit);
            let gain = i32::from(sown.gain);
            let left = seeds - gain;
            let value = if sown.again {
                gain + self.search(&sown.next, left, alpha - gain, beta - gain)
            } else {
                gain - self.search(&sown.next, left, gain - beta, gain - alpha)
            };
            if value > best {
                best = value;
                best_pit = pit;
            }
            if best > alpha {
                alpha = best;
            }
            if alpha >= beta {
                break;
            }
        }
        let (mut lower, mut upper) = (-seeds, seeds);
        if slot.used && slot.board == key {
            lower = i32::from(slot.lower);
            upper = i32::from(slot.upper);
        }
        if best <= alpha0 {
            upper = upper.min(best);
        } else if best >= beta0 {
            lower = lower.max(best);
        } else {
            lower = best;
            upper = best;
        }
        self.tt[at] = Slot {
            board: key,
            lower: lower as i16,
            upper: upper as i16,
            best: best_pit as u8,
            used: true,
        };
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_are_numbered_in_order_and_back() {
        for pits in [1, 2, 3, 6] {
            let tables = MarginTables::build(pits, CaptureRule::Opposite, 0, 1, &mut |_| {});
            let binomials = Binomials::new(40);
            for seeds in [0, 1, 2, 5] {
                let size = binomials.get(seeds + 2 * pits - 1, 2 * pits - 1);
                let t = MarginTables {
                    rules: tables.rules,
                    binomials: Binomials::new(40),
                    levels: Vec::new(),
                };
                let mut cells = [0u8; CELLS];
                cells[2 * pits - 1] = seeds as u8;
                for index in 0..size {
                    assert_eq!(t.rank(&cells, seeds), index, "{pits} pits, {seeds} seeds");
                    assert_eq!(t.unrank(index, seeds), cells);
                    let sum: usize = cells.iter().map(|&c| usize::from(c)).sum();
                    assert_eq!(sum, seeds);
                    next_layout(&mut cells, 2 * pits);
                }
            }
        }
    }
}
