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
//! store falls), or it leaves the level; so a level has no cycles and is solved in rising order
//! of that sum, each layout once, on any number of threads (the values are unique, so the table
//! does not depend on the threads).
//!
//! **Layouts.** The side to move's pits `a..` then the opponent's pits `a..`, numbered by the
//! colex rank of their stars-and-bars bars among all layouts of `k` seeds over `2 × pits` pits
//! (C(k + 2p − 1, 2p − 1) layouts in level `k`; Kalah(6,·) holds C(K + 12, 12) layouts up to `K`
//! seeds, a byte each). A number is a sum of terms the mover's row decides and terms the seeds
//! of that row and the opponent's row decide, so the builder takes the pairs of one row of each
//! side: it works out the mover's moves once for a row and numbers the successors of every
//! opponent row by additions.
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

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

use plies::memory::{AllocError, zeroed_vec};
use plies::solve::{Probe, TableValue};
use plies::{Game, Side};

use crate::{CaptureRule, Kalah, MAX_PITS, MAX_SEEDS, Sow};

mod level;

pub use level::Level;

/// The most pits on a board, both sides.
const CELLS: usize = 2 * MAX_PITS;

/// A layout: the side to move's pits `0..pits`, then the opponent's `pits..2 * pits`.
type Cells = [u8; CELLS];

/// Binomial coefficients C(n, r) for `n ≤ max_n` and `r ≤` [`CELLS`], for the numbering of
/// layouts: one flat table, `r` major, so a number's terms (one `r` each) read one row each.
struct Binomials {
    /// Values of `n` a row holds: `0..stride`.
    stride: usize,
    table: Vec<u64>,
}

impl Binomials {
    fn new(max_n: usize) -> Binomials {
        let stride = max_n + 1;
        let mut table = vec![0u64; (CELLS + 1) * stride];
        table[..stride].fill(1);
        for r in 1..=CELLS {
            for n in r..stride {
                table[r * stride + n] = table[(r - 1) * stride + n - 1] + table[r * stride + n - 1];
            }
        }
        Binomials { stride, table }
    }

    #[inline]
    fn get(&self, n: usize, r: usize) -> u64 {
        self.table[r * self.stride + n]
    }
}

/// The rules a layout is played by: board size, capture rule, and what sowing each pit's seeds
/// does, worked out once.
struct Rules {
    pits: usize,
    capture: CaptureRule,
    /// Per pit and seed count (`pit * (MAX_SEEDS + 1) + seeds`), what sowing them does.
    steps: Vec<Step>,
}

/// What sowing one pit's seeds does, whatever else lies on the board.
#[derive(Copy, Clone, Default)]
struct Step {
    /// The seeds it adds to each pit, a byte a pit in layout order (no byte overflows: at most
    /// [`MAX_SEEDS`] seeds are in play).
    add: u128,
    /// The seeds it sows into the mover's store.
    gain: u8,
    /// Where its last seed lands, a place on the ring: the mover's pits `0..pits`, its store
    /// `pits`, then the opponent's pits.
    last: u8,
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

/// One move of the side to move's row, worked out before the opponent's row is known
/// ([`Rules::reach`]); [`Rules::land`] finishes it on an opponent's row.
#[derive(Copy, Clone, Default)]
struct Reach {
    /// The mover's row after sowing.
    sown: u64,
    /// The seeds it adds to the opponent's row.
    spill: u64,
    /// The seeds it sows into the mover's store.
    gain: u8,
    /// The last seed reached the store.
    again: bool,
    /// The mover's pit the last seed made one (a capture, as the opponent's row decides), or
    /// [`NO_PIT`].
    capture: u8,
}

/// A move finished on an opponent's row: both rows after it (the mover's first) and the seeds
/// it put in the mover's store.
struct Landed {
    mine: u64,
    theirs: u64,
    gain: u8,
    /// It captured.
    took: bool,
}

impl Rules {
    /// The rules of `pits` pits a side under `capture`. Seed `t` of `n` sown from a pit lands
    /// `t` places on around the ring of pits and the mover's store (the opponent's store is
    /// skipped), so the place `d + 1` on gets one seed a whole lap, plus one when `d` is below
    /// what is left after the laps.
    fn new(pits: usize, capture: CaptureRule) -> Rules {
        let ring = 2 * pits + 1;
        let mut steps = vec![Step::default(); pits * (MAX_SEEDS + 1)];
        for pit in 0..pits {
            for seeds in 1..=MAX_SEEDS {
                let (laps, rest) = (seeds / ring, seeds % ring);
                let on = |place: usize| {
                    let ahead = (place + ring - pit - 1) % ring;
                    (laps + usize::from(ahead < rest)) as u128
                };
                let mut add = 0;
                for cell in 0..2 * pits {
                    add |= on(if cell < pits { cell } else { cell + 1 }) << (8 * cell);
                }
                steps[pit * (MAX_SEEDS + 1) + seeds] = Step {
                    add,
                    gain: on(pits) as u8,
                    last: ((pit + seeds) % ring) as u8,
                };
            }
        }
        Rules {
            pits,
            capture,
            steps,
        }
    }

    /// Sows pit `pit` (it holds seeds) of the mover's row `row`, whatever the opponent's row.
    #[inline]
    fn reach(&self, row: u64, pit: usize) -> Reach {
        let p = self.pits;
        let step = self.steps[pit * (MAX_SEEDS + 1) + usize::from(row.to_le_bytes()[pit])];
        let sown = (row & !pit_byte(pit)) + (step.add as u64 & row_mask(p));
        let at = usize::from(step.last);
        Reach {
            sown,
            spill: (step.add >> (8 * p)) as u64,
            gain: step.gain,
            again: at == p,
            capture: if at < p && (sown >> (8 * at)) as u8 == 1 {
                at as u8
            } else {
                NO_PIT
            },
        }
    }

    /// Finishes the move `reach` on the opponent's row `row`: its spill, then the capture the
    /// rule makes of a last seed in an own empty pit.
    #[inline]
    fn land(&self, reach: &Reach, row: u64) -> Landed {
        let mut landed = Landed {
            mine: reach.sown,
            theirs: row + reach.spill,
            gain: reach.gain,
            took: false,
        };
        if reach.capture != NO_PIT {
            let at = usize::from(reach.capture);
            let opposite = self.pits - 1 - at;
            let there = (landed.theirs >> (8 * opposite)) as u8;
            if there > 0 || self.capture == CaptureRule::Empty {
                landed.gain += 1 + there;
                landed.mine &= !pit_byte(at);
                landed.theirs &= !pit_byte(opposite);
                landed.took = true;
            }
        }
        landed
    }

    /// The two rows of a layout, the side to move's first.
    #[inline]
    fn rows(&self, cells: &Cells) -> (u64, u64) {
        let board = u128::from_le_bytes(*cells);
        (
            board as u64 & row_mask(self.pits),
            (board >> (8 * self.pits)) as u64,
        )
    }

    /// Sows the mover's pit `pit` (it holds seeds).
    #[inline]
    fn sow(&self, cells: &Cells, pit: usize) -> Sown {
        let (mine, theirs) = self.rows(cells);
        let reach = self.reach(mine, pit);
        let landed = self.land(&reach, theirs);
        let (first, second) = if reach.again {
            (landed.mine, landed.theirs)
        } else {
            (landed.theirs, landed.mine)
        };
        let next = u128::from(first) | (u128::from(second) << (8 * self.pits));
        Sown {
            next: next.to_le_bytes(),
            gain: landed.gain,
            again: reach.again,
        }
    }

    /// Whether the side to move has no seed (the game is over).
    #[inline]
    fn over(&self, cells: &Cells) -> bool {
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
    /// C(n, r) for every number of a layout ([`MarginTables::rank`]) up to the largest level.
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
    /// # Errors
    /// A level the system has no memory for (the levels below it are built and reported).
    ///
    /// # Panics
    /// A board or level outside those bounds.
    pub fn build(
        pits: usize,
        capture: CaptureRule,
        max_seeds: usize,
        threads: usize,
        progress: &mut dyn FnMut(BuildProgress),
    ) -> Result<MarginTables, AllocError> {
        assert!((1..=MAX_PITS).contains(&pits), "1..={MAX_PITS} pits");
        assert!(max_seeds <= 127, "at most 127 seeds in a table");
        let mut tables = MarginTables {
            rules: Rules::new(pits, capture),
            binomials: Binomials::new(max_seeds + CELLS),
            levels: Vec::with_capacity(max_seeds + 1),
        };
        let rows = Rows::new(&tables, max_seeds)?;
        let mut bytes = 0;
        for seeds in 0..=max_seeds {
            let level = tables.solve_level(&rows, seeds, threads.max(1))?;
            bytes += level.len() as u64;
            tables.levels.push(level);
            progress(BuildProgress {
                seeds,
                layouts: tables.levels[seeds].len() as u64,
                bytes,
            });
        }
        Ok(tables)
    }

    /// Bytes the builder holds besides the tables, while building those of every level up to
    /// `seeds` seeds on a board of `pits` pits a side: every row of one player's pits, sorted.
    #[must_use]
    pub fn rows_bytes(pits: usize, seeds: usize) -> u64 {
        Binomials::new(seeds + pits).get(seeds + pits, pits) * ROW_BYTES as u64
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

    /// The number of layout `cells` in its level: the colex rank of its bars. Stars and bars:
    /// a layout of `k` seeds over `P` pits is the set of the `P − 1` bar positions
    /// `b_j = (x_0 + … + x_j) + j` among `k + P − 1`, numbered `Σ_j C(b_j, j + 1)`. The terms of
    /// the side to move's row ([`Self::first`]) depend on that row alone, the others on its seed
    /// count and the opponent's row ([`Self::second`]).
    #[inline]
    fn rank(&self, cells: &Cells) -> u64 {
        let (mine, theirs) = self.rules.rows(cells);
        self.first(mine) + self.second(row_seeds(mine), theirs)
    }

    /// The terms of a layout's number that its first row `row` (a byte a pit) decides. One
    /// multiplication makes every prefix sum (a byte each: no sum passes 255).
    #[inline]
    fn first(&self, row: u64) -> u64 {
        let bars = (row.wrapping_mul(ONES) + STEPS).to_le_bytes();
        let mut index = 0;
        for (j, &bar) in bars[..self.rules.pits].iter().enumerate() {
            index += self.binomials.get(usize::from(bar), j + 1);
        }
        index
    }

    /// The terms of a layout's number that its second row `row` decides, after a first row of
    /// `before` seeds.
    #[inline]
    fn second(&self, before: usize, row: u64) -> u64 {
        let p = self.rules.pits;
        let sums = row.wrapping_mul(ONES).to_le_bytes();
        let mut index = 0;
        for (j, &sum) in sums[..p - 1].iter().enumerate() {
            index += self
                .binomials
                .get(before + usize::from(sum) + p + j, p + j + 1);
        }
        index
    }

    /// The stored value of a layout of a solved level.
    #[inline]
    fn lookup(&self, cells: &Cells, seeds: usize) -> i8 {
        self.levels[seeds][self.rank(cells) as usize]
    }

    /// Solves level `seeds` from the levels below, in rising order of the seeds' distance to
    /// their owners' stores (a move within the level lowers it), so every layout a move reaches
    /// is solved before the layout itself. A distance's layouts are the pairs of a row of the
    /// side to move and one of the opponent whose distances and seeds add up; they do not reach
    /// each other and are shared among the threads a block of pairs at a time.
    fn solve_level(
        &self,
        rows: &Rows,
        seeds: usize,
        threads: usize,
    ) -> Result<Vec<i8>, AllocError> {
        let p = self.rules.pits;
        let size = MarginTables::level_size(p, seeds);
        let level: Vec<AtomicU8> =
            zeroed_vec(usize::try_from(size).map_err(|_| AllocError { bytes: usize::MAX })?)?;
        let walk = Walk {
            tables: self,
            rows,
            level: &level,
            seeds,
        };
        let threads = if size < PARALLEL_FROM { 1 } else { threads };
        for distance in seeds..=seeds * p {
            let mut blocks = Vec::new();
            for mine in 0..=seeds {
                let theirs = seeds - mine;
                for near in mine..=(mine * p).min(distance) {
                    let (us, them) = (rows.group(mine, near), rows.group(theirs, distance - near));
                    if us.is_empty() || them.is_empty() {
                        continue;
                    }
                    let per = (BLOCK / them.len()).max(1);
                    for start in us.clone().step_by(per) {
                        blocks.push((mine, start..(start + per).min(us.end), them.clone()));
                    }
                }
            }
            let next = AtomicUsize::new(0);
            let work = || {
                let mut high = Vec::new();
                while let Some((mine, us, them)) = blocks.get(next.fetch_add(1, Ordering::Relaxed))
                {
                    walk.block(*mine, us.clone(), them.clone(), &mut high);
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
        }
        // The same memory (an in-place collect), bytes read back as the signed values stored.
        Ok(level.into_iter().map(|v| v.into_inner() as i8).collect())
    }
}

/// `1` in every byte of a row.
const ONES: u64 = u64::MAX / 0xff;
/// `j` in byte `j` of a row.
const STEPS: u64 = 0x0706_0504_0302_0100;
/// No pit.
const NO_PIT: u8 = u8::MAX;

/// The seeds of a row (a byte a pit).
#[inline]
fn row_seeds(row: u64) -> usize {
    (row.wrapping_mul(ONES) >> 56) as usize
}

/// The byte of pit `pit` of a row.
#[inline]
fn pit_byte(pit: usize) -> u64 {
    0xff << (8 * pit)
}

/// The bytes of a row of `pits` pits.
#[inline]
fn row_mask(pits: usize) -> u64 {
    u64::MAX >> (64 - 8 * pits)
}

/// A row being sorted (group, number, row) and then kept (row, number).
const ROW_BYTES: usize = size_of::<(usize, u64, u64)>() + 2 * size_of::<u64>();

/// Layouts below this many are solved on one thread.
const PARALLEL_FROM: u64 = 1 << 16;
/// Layouts a thread takes at a time, about.
const BLOCK: usize = 1 << 14;

/// Every row of one side (a byte a pit) with at most the tables' seeds, grouped by seeds and
/// distance to the store, ordered by [`MarginTables::first`] within a group.
struct Rows {
    /// Distances a seed count may have: `0..span`.
    span: usize,
    /// Where each group (`seeds * span + distance`) starts in `rows`, and the end.
    starts: Vec<usize>,
    rows: Vec<u64>,
    /// Each row's [`MarginTables::first`].
    first: Vec<u64>,
}

impl Rows {
    /// Every row of the tables' board with at most `max_seeds` seeds: C(max_seeds + pits, pits)
    /// of them, [`ROW_BYTES`] each while they are sorted.
    fn new(tables: &MarginTables, max_seeds: usize) -> Result<Rows, AllocError> {
        fn room<T>(len: u64) -> Result<Vec<T>, AllocError> {
            let refused = AllocError {
                bytes: usize::try_from(len)
                    .unwrap_or(usize::MAX)
                    .saturating_mul(size_of::<T>()),
            };
            let len = usize::try_from(len).map_err(|_| refused)?;
            let mut v = Vec::new();
            v.try_reserve_exact(len).map_err(|_| refused)?;
            Ok(v)
        }
        fn fill(row: &mut [u8; 8], pit: usize, pits: usize, left: usize, f: &mut impl FnMut(u64)) {
            if pit == pits {
                f(u64::from_le_bytes(*row));
                return;
            }
            for count in 0..=left {
                row[pit] = count as u8;
                fill(row, pit + 1, pits, left - count, f);
            }
            row[pit] = 0;
        }
        let p = tables.rules.pits;
        let span = max_seeds * p + 1;
        let count = tables.binomials.get(max_seeds + p, p);
        let mut keyed: Vec<(usize, u64, u64)> = room(count)?;
        let mut rows = room(count)?;
        let mut first = room(count)?;
        fill(&mut [0; 8], 0, p, max_seeds, &mut |row| {
            let bytes = row.to_le_bytes();
            let distance: usize = (0..p).map(|j| usize::from(bytes[j]) * (p - j)).sum();
            keyed.push((row_seeds(row) * span + distance, tables.first(row), row));
        });
        keyed.sort_unstable();
        let mut starts = vec![0; (max_seeds + 1) * span + 1];
        for &(group, _, _) in &keyed {
            starts[group + 1] += 1;
        }
        for g in 1..starts.len() {
            starts[g] += starts[g - 1];
        }
        rows.extend(keyed.iter().map(|&(_, _, row)| row));
        first.extend(keyed.iter().map(|&(_, number, _)| number));
        Ok(Rows {
            span,
            starts,
            rows,
            first,
        })
    }

    /// The rows of `seeds` seeds at `distance`.
    #[inline]
    fn group(&self, seeds: usize, distance: usize) -> std::ops::Range<usize> {
        if distance >= self.span {
            return 0..0;
        }
        let g = seeds * self.span + distance;
        self.starts[g]..self.starts[g + 1]
    }
}

/// The level being solved.
struct Walk<'a> {
    tables: &'a MarginTables,
    rows: &'a Rows,
    /// The level's values, signed bytes stored as unsigned.
    level: &'a [AtomicU8],
    seeds: usize,
}

impl Walk<'_> {
    /// Solves the layouts of the mover's rows `us` (of `mine` seeds) against the opponent's rows
    /// `them`; `high` is scratch.
    fn block(
        &self,
        mine: usize,
        us: std::ops::Range<usize>,
        them: std::ops::Range<usize>,
        high: &mut Vec<u64>,
    ) {
        let t = self.tables;
        let rows = self.rows;
        let p = t.rules.pits;
        let k = self.seeds;
        let theirs = k - mine;
        high.clear();
        high.extend(
            rows.rows[them.clone()]
                .iter()
                .map(|&row| t.second(mine, row)),
        );
        for a in us {
            let row = rows.rows[a];
            let low = rows.first[a];
            if row == 0 {
                for &h in high.iter() {
                    self.level[(low + h) as usize].store(-(k as i8) as u8, Ordering::Relaxed);
                }
                continue;
            }
            // The mover's moves, and for each that stays in its row the terms of the next layout's
            // number that the sown row decides.
            let mut reach = [(Reach::default(), 0); MAX_PITS];
            let mut n = 0;
            for (pit, &count) in row.to_le_bytes()[..p].iter().enumerate() {
                if count > 0 {
                    let r = t.rules.reach(row, pit);
                    let base = if r.spill == 0 && !r.again {
                        t.second(theirs, r.sown)
                    } else {
                        0
                    };
                    reach[n] = (r, base);
                    n += 1;
                }
            }
            let reach = &reach[..n];
            for (b, &h) in them.clone().zip(high.iter()) {
                let value = self.value(reach, rows.rows[b], rows.first[b]);
                self.level[(low + h) as usize].store(value as u8, Ordering::Relaxed);
            }
        }
    }

    /// The value of the layout whose mover's moves are `reach` (each with its base, see
    /// [`Self::block`]) and whose opponent's row is `row` (numbered `first` as a first row).
    /// Every successor is numbered first and read after, so the reads overlap.
    #[inline]
    fn value(&self, reach: &[(Reach, u64)], row: u64, first: u64) -> i8 {
        let t = self.tables;
        let k = self.seeds;
        let mut next = [(0usize, 0u64, 0i32, false); MAX_PITS];
        for (m, (r, base)) in reach.iter().enumerate() {
            let landed = t.rules.land(r, row);
            let index = if r.again {
                t.first(landed.mine) + t.second(row_seeds(landed.mine), landed.theirs)
            } else if r.spill == 0 && !landed.took {
                first + base
            } else {
                t.first(landed.theirs) + t.second(row_seeds(landed.theirs), landed.mine)
            };
            next[m] = (
                k - usize::from(landed.gain),
                index,
                i32::from(landed.gain),
                r.again,
            );
        }
        let mut best = i32::MIN;
        for &(left, index, gain, again) in &next[..reach.len()] {
            let after = i32::from(if left == k {
                self.level[index as usize].load(Ordering::Relaxed) as i8
            } else {
                t.levels[left][index as usize]
            });
            best = best.max(gain + if again { after } else { -after });
        }
        best as i8
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
    /// Seeds in the pits: the larger, the more work the bounds stand for.
    seeds: u8,
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

/// How far a search has got: given after each MTD(f) pass.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchProgress {
    /// The least margin (side to move's view, from here on) the search has proven so far.
    pub lower: i32,
    /// The most.
    pub upper: i32,
    /// Positions searched so far.
    pub nodes: u64,
}

/// Bytes [`solve_margin`]'s transposition table of `2^tt_bits` slots takes.
#[must_use]
pub fn search_bytes(tt_bits: u32) -> u64 {
    (1u64 << tt_bits.saturating_sub(1)) * size_of::<[Slot; 2]>() as u64
}

/// The exact value of `state`: the final store difference with best play (see the module docs),
/// by MTD(f) over an alpha-beta search that reads `tables` (built for the same board and capture
/// rule) and a transposition table of `2^tt_bits` slots, calling `progress` after each pass.
///
/// # Errors
/// No memory for the transposition table.
///
/// # Panics
/// Tables of another board size or capture rule.
pub fn solve_margin(
    state: &Kalah,
    tables: &MarginTables,
    tt_bits: u32,
    progress: &mut dyn FnMut(SearchProgress),
) -> Result<Solution, AllocError> {
    assert!(
        state.pits() == tables.rules.pits && state.capture_rule() == tables.rules.capture,
        "tables of another board or capture rule"
    );
    let me = state.side_to_move();
    let stores = i32::from(state.store(me)) - i32::from(state.store(me.opponent()));
    let (cells, seeds) = layout(state);
    let buckets = 1usize << tt_bits.saturating_sub(1);
    let mut tt = Vec::new();
    tt.try_reserve_exact(buckets).map_err(|_| AllocError {
        bytes: buckets.saturating_mul(size_of::<[Slot; 2]>()),
    })?;
    tt.resize(buckets, [Slot::default(); 2]);
    let mut search = Search {
        tables,
        tt,
        mask: buckets - 1,
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
        progress(SearchProgress {
            lower,
            upper,
            nodes: search.nodes,
        });
    }
    // A best move: the first (the stored one first) that a null-window search shows reaches the
    // value.
    let stored = search
        .probe(Search::key(&cells))
        .map(|slot| usize::from(slot.best));
    let best = stored
        .into_iter()
        .chain((0..tables.rules.pits).filter(|&pit| Some(pit) != stored))
        .filter(|&pit| cells[pit] > 0)
        .find(|&pit| {
            let sown = tables.rules.sow(&cells, pit);
            let gain = i32::from(sown.gain);
            let left = seeds - gain;
            if sown.again {
                search.search(&sown.next, left, lower - gain - 1, lower - gain) >= lower - gain
            } else {
                search.search(&sown.next, left, gain - lower, gain - lower + 1) <= gain - lower
            }
        })
        .map(|pit| Sow(pit as u8));
    let mine = stores + lower;
    Ok(Solution {
        south_margin: if me == Side::First { mine } else { -mine },
        best,
        nodes: search.nodes,
        table_hits: search.table_hits,
    })
}

/// The alpha-beta search of [`solve_margin`].
struct Search<'a> {
    tables: &'a MarginTables,
    /// Buckets of two slots: the one standing for the most seeds, and the latest.
    tt: Vec<[Slot; 2]>,
    mask: usize,
    nodes: u64,
    table_hits: u64,
}

/// A move of a searched position: the layout after it and what it gained.
#[derive(Copy, Clone, Default)]
struct Child {
    next: Cells,
    gain: i32,
    again: bool,
    pit: u8,
}

impl Search<'_> {
    fn key(cells: &Cells) -> u128 {
        u128::from_le_bytes(*cells)
    }

    fn bucket(&self, key: u128) -> usize {
        let mixed =
            (key as u64 ^ ((key >> 64) as u64).rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        ((mixed ^ (mixed >> 31)) as usize) & self.mask
    }

    /// The stored bounds of the layout `key`, if either slot of its bucket holds them.
    fn probe(&self, key: u128) -> Option<Slot> {
        self.tt[self.bucket(key)]
            .into_iter()
            .find(|slot| slot.used && slot.board == key)
    }

    /// Stores `slot`: in the first place of its bucket when it stands for at least as many
    /// seeds as the one there (which moves to the second), else in the second.
    fn store(&mut self, slot: Slot) {
        let at = self.bucket(slot.board);
        let bucket = &mut self.tt[at];
        if bucket[0].board == slot.board || !bucket[0].used {
            bucket[0] = slot;
        } else if slot.seeds >= bucket[0].seeds {
            if bucket[1].board != slot.board {
                bucket[1] = bucket[0];
            }
            bucket[0] = slot;
        } else {
            bucket[1] = slot;
        }
    }

    /// The margin of `cells` (with `seeds` in the pits) for the side to move, fail-soft within
    /// `(alpha, beta)`.
    fn search(&mut self, cells: &Cells, seeds: i32, mut alpha: i32, mut beta: i32) -> i32 {
        let tables = self.tables;
        let rules = &tables.rules;
        let most = tables.max_seeds() as i32;
        if seeds <= most {
            self.table_hits += 1;
            return i32::from(tables.lookup(cells, seeds as usize));
        }
        if rules.over(cells) {
            return -seeds;
        }
        self.nodes += 1;
        let key = Search::key(cells);
        let found = self.probe(key);
        let (mut lower, mut upper) = (-seeds, seeds);
        if let Some(slot) = found {
            lower = i32::from(slot.lower);
            upper = i32::from(slot.upper);
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut best = i32::MIN;
        let mut best_pit = 0;
        // Every move; those into the tables are exact and read at once.
        let mut children = [Child::default(); MAX_PITS];
        let mut n = 0;
        for pit in 0..rules.pits {
            if cells[pit] == 0 {
                continue;
            }
            let sown = rules.sow(cells, pit);
            let gain = i32::from(sown.gain);
            let left = seeds - gain;
            if left <= most {
                self.table_hits += 1;
                let after = i32::from(tables.lookup(&sown.next, left as usize));
                let value = gain + if sown.again { after } else { -after };
                if value > best {
                    (best, best_pit) = (value, pit);
                }
                continue;
            }
            children[n] = Child {
                next: sown.next,
                gain,
                again: sown.again,
                pit: pit as u8,
            };
            n += 1;
        }
        alpha = alpha.max(best);
        // Enhanced transposition cut-off: a move whose stored bounds already reach beta.
        if alpha < beta {
            for child in &children[..n] {
                if let Some(slot) = self.probe(Search::key(&child.next)) {
                    let least = if child.again {
                        child.gain + i32::from(slot.lower)
                    } else {
                        child.gain - i32::from(slot.upper)
                    };
                    if least > best {
                        (best, best_pit) = (least, usize::from(child.pit));
                    }
                }
            }
            alpha = alpha.max(best);
        }
        if alpha < beta {
            // Order: the stored best move, extra turns (nearest the store first), then the most
            // seeds gained, then from the pit nearest the store.
            let first = found.map(|slot| slot.best);
            let rank = |c: &Child| {
                let stored = Some(c.pit) == first;
                (stored, c.again, c.gain, c.pit)
            };
            let children = &mut children[..n];
            children.sort_unstable_by_key(|c| std::cmp::Reverse(rank(c)));
            for child in children.iter() {
                let left = seeds - child.gain;
                let gain = child.gain;
                let value = if child.again {
                    gain + self.search(&child.next, left, alpha - gain, beta - gain)
                } else {
                    gain - self.search(&child.next, left, gain - beta, gain - alpha)
                };
                if value > best {
                    (best, best_pit) = (value, usize::from(child.pit));
                }
                alpha = alpha.max(best);
                if alpha >= beta {
                    break;
                }
            }
        }
        if best <= alpha0 {
            upper = upper.min(best);
        } else if best >= beta0 {
            lower = lower.max(best);
        } else {
            lower = best;
            upper = best;
        }
        self.store(Slot {
            board: key,
            lower: lower as i16,
            upper: upper as i16,
            best: best_pit as u8,
            seeds: seeds as u8,
            used: true,
        });
        best
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// Every layout of `seeds` seeds over `parts` pits, by plain recursion.
    fn all_layouts(parts: usize, seeds: usize) -> Vec<Cells> {
        fn fill(cells: &mut Cells, at: usize, parts: usize, left: usize, out: &mut Vec<Cells>) {
            if at == parts - 1 {
                cells[at] = left as u8;
                out.push(*cells);
                return;
            }
            for count in 0..=left {
                cells[at] = count as u8;
                fill(cells, at + 1, parts, left - count, out);
            }
            cells[at] = 0;
        }
        let mut out = Vec::new();
        fill(&mut [0; CELLS], 0, parts, seeds, &mut out);
        out
    }

    /// Sows pit `pit` seed by seed: the layout after (the next side to move's view), the seeds
    /// put in the mover's store, and whether the mover moves again.
    fn sow_slowly(
        pits: usize,
        capture: CaptureRule,
        cells: &Cells,
        pit: usize,
    ) -> (Cells, i32, bool) {
        // The ring: the mover's pits, its store (None), the opponent's pits.
        let ring: Vec<Option<usize>> = (0..pits)
            .map(Some)
            .chain([None])
            .chain((pits..2 * pits).map(Some))
            .collect();
        let mut board = *cells;
        let mut hand = board[pit];
        board[pit] = 0;
        let mut gain = 0;
        let mut place = pit;
        while hand > 0 {
            place = (place + 1) % ring.len();
            match ring[place] {
                Some(cell) => board[cell] += 1,
                None => gain += 1,
            }
            hand -= 1;
        }
        if let Some(cell) = ring[place]
            && cell < pits
            && board[cell] == 1
        {
            let opposite = 2 * pits - 1 - cell;
            if board[opposite] > 0 || capture == CaptureRule::Empty {
                gain += 1 + i32::from(board[opposite]);
                board[cell] = 0;
                board[opposite] = 0;
            }
        }
        let again = ring[place].is_none();
        if !again {
            let (mine, theirs) = board.split_at_mut(pits);
            mine.swap_with_slice(&mut theirs[..pits]);
        }
        (board, gain, again)
    }

    /// A layout's margin by a memoised recursion over the rules alone, no tables.
    fn reference(
        pits: usize,
        capture: CaptureRule,
        cells: &Cells,
        memo: &mut HashMap<Cells, i32>,
    ) -> i32 {
        let seeds: i32 = cells.iter().map(|&c| i32::from(c)).sum();
        if cells[..pits].iter().all(|&c| c == 0) {
            return -seeds;
        }
        if let Some(&v) = memo.get(cells) {
            return v;
        }
        let value = (0..pits)
            .filter(|&pit| cells[pit] > 0)
            .map(|pit| {
                let (next, gain, again) = sow_slowly(pits, capture, cells, pit);
                let after = reference(pits, capture, &next, memo);
                gain + if again { after } else { -after }
            })
            .max()
            .expect("a seed to sow");
        memo.insert(*cells, value);
        value
    }

    #[test]
    fn every_layout_has_its_own_number() {
        for pits in [1, 2, 3, 6] {
            let tables = MarginTables::build(pits, CaptureRule::Opposite, 0, 1, &mut |_| {})
                .expect("memory");
            let t = MarginTables {
                binomials: Binomials::new(40),
                ..tables
            };
            for seeds in [0, 1, 2, 5, 7] {
                let size = MarginTables::level_size(pits, seeds);
                let mut seen = vec![false; size as usize];
                let layouts = all_layouts(2 * pits, seeds);
                assert_eq!(layouts.len() as u64, size, "{pits} pits, {seeds} seeds");
                for cells in &layouts {
                    let index = t.rank(cells) as usize;
                    assert!(!seen[index], "{pits} pits, {seeds} seeds: {index} twice");
                    seen[index] = true;
                }
            }
        }
    }

    #[test]
    fn levels_solved_by_distance_equal_a_memoised_recursion() {
        for capture in [CaptureRule::Opposite, CaptureRule::Empty] {
            for (pits, most) in [(1, 12), (2, 12), (3, 10), (6, 8)] {
                for threads in [1, 2] {
                    let tables = MarginTables::build(pits, capture, most, threads, &mut |_| {})
                        .expect("memory");
                    let mut memo = HashMap::new();
                    for seeds in 0..=most {
                        for cells in all_layouts(2 * pits, seeds) {
                            assert_eq!(
                                i32::from(tables.lookup(&cells, seeds)),
                                reference(pits, capture, &cells, &mut memo),
                                "{capture:?}, {pits} pits: {cells:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
