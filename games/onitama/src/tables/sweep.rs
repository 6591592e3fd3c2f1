//! The fast solver of one deal's tables: the same values as the reference solver
//! (`build.rs`), found by pulling from successors instead of counting moves.
//!
//! Each layout's 30 card arrangements are the bits of one word: wins in bits 0-29, losses in
//! bits 32-61 (both for a hole), and a byte a position holds the distance once decided. Step by
//! step in plies, a *win phase* decides the wins in `d` (odd) and a *loss phase* the losses in
//! `d + 1`:
//! - only layouts that may have changed are looked at: the predecessors (a red move undone, or a
//!   pass) of the layouts of the mirror material that changed in the phase before;
//! - a win phase reads only loss bits and writes only win bits, a loss phase the other way
//!   round; a layout's word is written only by the task that owns it (the one of its blue
//!   pieces), with a plain store. So no phase reads what it writes, and the result is the same
//!   for any thread count;
//! - a task takes one set of blue pieces: every successor of its layouts (blue's pieces are the
//!   mover's after the turn) lies in one block of the mirror material ([`Material`]), which
//!   stays in cache;
//! - a win is pushed: the arrangements just decided as losses (kept per layout for one phase)
//!   are pulled back through each move undone, and every arrangement so reached is won (an
//!   open position cannot have a move to an older loss, so any loss is one in `d - 1`);
//! - a loss is pulled: only the arrangements pulled back from new wins are candidates, and
//!   one is lost when every quiet move and pass leads to a won successor, checked with the 30
//!   arrangements at once and stopped as soon as every candidate escapes; when a task has many
//!   candidates, the win bits of its block are first copied in one sequential read;
//! - captures lead into smaller, solved materials, which never change: the wins by a capture
//!   are found once at the start and kept by their distance, and a loss held up only by a
//!   capture into a longer win is kept for the step that distance comes due.
//!
//! Key invariant: after the phase of distance `d`, every position won or lost in at most `d`
//! plies is decided with its distance, and nothing else.

use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, Ordering::Relaxed};

use plies::bits::set_bits;
use plies::solve::{MAX_LOSS, MAX_WIN, Table, TableError, TableValue};
use rayon::prelude::*;

use super::build::{Board, Cards, Material, nth, place};
use super::numbering::{CHOOSE, unrank};
use crate::state::{BLUE_TEMPLE, RED_TEMPLE};

/// All 30 arrangements.
const ALL: u32 = (1 << 30) - 1;
/// All 25 squares.
const SQUARES: u32 = (1 << 25) - 1;
/// The longest distance counted while building (a byte a position).
const LONGEST: u32 = 254;

/// A square set turned round (a1 to e5).
#[inline]
pub(super) fn turn(bits: u32) -> u32 {
    bits.reverse_bits() >> 7
}

/// The win and loss bits of a word.
#[inline]
pub(super) fn split(word: u64) -> (u32, u32) {
    (word as u32 & ALL, (word >> 32) as u32 & ALL)
}

/// The words of a solved table (wins in bits 0-29, losses in 32-61, both for a hole), as the
/// solver of larger materials reads them.
pub(super) fn words_of(material: Material, table: &Table) -> Vec<u64> {
    (0..material.layouts())
        .into_par_iter()
        .map(|layout| {
            let mut word = 0u64;
            for a in 0..30 {
                match table.value(layout * 30 + a) {
                    Some(TableValue::Win(_) | TableValue::Won) => word |= 1 << a,
                    Some(TableValue::Loss(_) | TableValue::Lost) => word |= 1 << (a + 32),
                    Some(TableValue::Draw) => {}
                    None => word |= (1 << a) | (1 << (a + 32)),
                }
            }
            word
        })
        .collect()
}

/// A solved smaller material, read by captures.
#[derive(Copy, Clone)]
pub(super) struct Solved<'a> {
    pub(super) material: Material,
    pub(super) table: &'a Table,
    pub(super) words: &'a [u64],
}

/// A material being solved.
struct Work<'a> {
    material: Material,
    /// The mirror material (where red's moves lead), an index into the group.
    mirror: usize,
    /// Where red's captures lead (`None`: blue has no student).
    capture: Option<Solved<'a>>,
    words: Vec<AtomicU64>,
    distances: Vec<AtomicU8>,
    /// The layouts changed in the phase before and in this one (a bit each), by parity.
    changed: [Vec<AtomicU64>; 2],
    /// The arrangements decided in the phase before and in this one, per layout, by parity
    /// (valid where `changed` is set; 0 elsewhere).
    fresh: [Vec<AtomicU32>; 2],
}

/// Positions decided at a distance known in advance: `(material, layout, arrangements)` by
/// distance.
type Pending = Vec<Vec<(u32, u32, u32)>>;

/// The two kinds of phase.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Phase {
    Win,
    Loss,
}

/// What a step reports.
pub(super) struct Step {
    /// Positions up to this many plies from the end are decided.
    pub(super) plies: u32,
    /// Positions decided at that distance.
    pub(super) decided: u64,
}

/// Solves `group` (one material, or a material and its mirror), with `smaller(material)` the
/// solved table and words of a smaller one, on `pool`. Returns the group's tables and words.
pub(super) fn solve_group<'a>(
    cards: &Cards,
    group: &[Material],
    smaller: &dyn Fn(Material) -> Solved<'a>,
    pool: Option<&rayon::ThreadPool>,
    progress: &mut dyn FnMut(Step),
) -> Result<Vec<(Table, Vec<u64>)>, TableError> {
    let works: Vec<Work<'a>> = group
        .iter()
        .map(|&material| {
            let layouts = material.layouts() as usize;
            let words32 = || (0..layouts).map(|_| AtomicU32::new(0)).collect();
            let bitset = || {
                (0..layouts.div_ceil(64))
                    .map(|_| AtomicU64::new(0))
                    .collect()
            };
            Work {
                material,
                mirror: group
                    .iter()
                    .position(|g| g.red == material.blue && g.blue == material.red)
                    .expect("a group holds the mirror of each of its materials"),
                capture: (material.blue > 0)
                    .then(|| smaller(Material::new(material.blue - 1, material.red))),
                words: (0..layouts).map(|_| AtomicU64::new(0)).collect(),
                distances: (0..layouts * 30).map(|_| AtomicU8::new(0)).collect(),
                fresh: [words32(), words32()],
                changed: [bitset(), bitset()],
            }
        })
        .collect();
    let solver = Solver {
        cards,
        works: &works,
        pool,
    };
    let longest = solver.run(progress)?;
    let convert = || {
        works
            .into_iter()
            .map(|work| work.into_table(longest))
            .collect()
    };
    match pool {
        Some(pool) => pool.install(convert),
        None => convert(),
    }
}

impl Work<'_> {
    /// The table and words of the solved material; `longest` is the longest distance decided.
    fn into_table(self, longest: u32) -> Result<(Table, Vec<u64>), TableError> {
        let words: Vec<u64> = self.words.into_iter().map(AtomicU64::into_inner).collect();
        let distances: Vec<u8> = self
            .distances
            .into_iter()
            .map(AtomicU8::into_inner)
            .collect();
        let value = |index: u64| {
            let (won, lost) = split(words[(index / 30) as usize]);
            let bit = 1 << (index % 30);
            let d = u32::from(distances[index as usize]);
            match (won & bit != 0, lost & bit != 0) {
                (true, true) => None,
                (true, false) => Some(TableValue::Win(d)),
                (false, true) => Some(TableValue::Loss(d)),
                (false, false) => Some(TableValue::Draw),
            }
        };
        let size = self.material.layouts() * 30;
        let table = if longest <= MAX_WIN.min(MAX_LOSS) {
            Table::from_entries(
                (0..size)
                    .into_par_iter()
                    .map(|i| Table::entry(value(i)).expect("a distance that fits"))
                    .collect(),
            )
        } else {
            Table::from_values(size, &value)?
        };
        Ok((table, words))
    }

    /// Marks the arrangements `new` of `layout` changed in the sets of parity `parity`.
    #[inline]
    fn mark_changed(&self, parity: usize, layout: usize, new: u32) {
        let fresh = &self.fresh[parity][layout];
        let (word, bit) = (&self.changed[parity][layout / 64], 1u64 << (layout % 64));
        if word.load(Relaxed) & bit == 0 {
            // The first change of the phase: what `fresh` held is from two phases ago.
            fresh.store(new, Relaxed);
            word.fetch_or(bit, Relaxed);
        } else {
            fresh.store(fresh.load(Relaxed) | new, Relaxed);
        }
    }

    /// Decides the arrangements `bits` of `layout` (those still open) as `phase` at distance
    /// `d`, marks the layout changed; returns how many were decided. Only the owner of the
    /// layout calls this during a phase.
    fn decide(&self, layout: usize, bits: u32, phase: Phase, d: u32, parity: usize) -> u64 {
        let word = self.words[layout].load(Relaxed);
        let (won, lost) = split(word);
        let new = bits & !(won | lost);
        if new == 0 {
            return 0;
        }
        let shift = if phase == Phase::Win { 0 } else { 32 };
        self.words[layout].store(word | (u64::from(new) << shift), Relaxed);
        for a in set_bits(new) {
            self.distances[layout * 30 + a as usize].store(d as u8, Relaxed);
        }
        self.mark_changed(parity, layout, new);
        u64::from(new.count_ones())
    }
}

struct Solver<'a, 'b> {
    cards: &'a Cards,
    works: &'a [Work<'b>],
    /// The pool to run on (the global one when `None`).
    pool: Option<&'a rayon::ThreadPool>,
}

/// What one task of a phase gives back: positions decided, and losses held up by a capture
/// into a longer win.
type Outcome = (u64, Vec<(u32, u32, u32, u32)>);

/// A task's scratch space: per red piece set of the task's block, the arrangements that may
/// have changed (by a move, by a pass), and the list of the sets marked.
struct Scratch {
    marks: Vec<(u32, u32)>,
    list: Vec<(u32, u32, u32)>,
    /// The win bits of the block of successors, when copied.
    block: Vec<u32>,
    /// Per candidate of `list`: its layout and word.
    loaded: Vec<(usize, u64)>,
}

impl Solver<'_, '_> {
    /// Runs `f` in the solver's pool.
    fn par<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match self.pool {
            Some(pool) => pool.install(f),
            None => f(),
        }
    }

    /// Solves the group; returns the longest distance decided.
    fn run(&self, progress: &mut dyn FnMut(Step)) -> Result<u32, TableError> {
        let mut parity = 0;
        let (mut wins, mut losses) = self.par(|| self.start(parity));
        let mut longest = 0;
        let mut d = 1u32;
        loop {
            for phase in [Phase::Win, Phase::Loss] {
                let plies = if phase == Phase::Win { d } else { d + 1 };
                let pending = if phase == Phase::Win {
                    &mut wins
                } else {
                    &mut losses
                };
                let items = pending
                    .get_mut(plies as usize)
                    .map(std::mem::take)
                    .unwrap_or_default();
                // Read what the phase before changed, write this phase's changes.
                let read = parity;
                parity ^= 1;
                if plies > LONGEST && (!items.is_empty() || self.any_changed(read)) {
                    return Err(TableError::TooLong { index: 0, plies });
                }
                let mut decided = self.par(|| self.apply(items, phase, plies, parity));
                let (swept, held) = self.par(|| self.sweep(phase, plies, read, parity));
                decided += swept;
                for (distance, w, layout, bits) in held {
                    let distance = distance as usize;
                    if losses.len() <= distance {
                        losses.resize_with(distance + 1, Vec::new);
                    }
                    losses[distance].push((w, layout, bits));
                }
                self.par(|| {
                    for work in self.works {
                        work.changed[read]
                            .par_iter()
                            .enumerate()
                            .for_each(|(i, word)| {
                                for bit in set_bits64(word.load(Relaxed)) {
                                    work.fresh[read][i * 64 + bit as usize].store(0, Relaxed);
                                }
                                word.store(0, Relaxed);
                            });
                    }
                });
                if decided > 0 {
                    longest = plies;
                }
                progress(Step { plies, decided });
            }
            let later = |p: &Pending| p.iter().skip(d as usize + 2).any(|v| !v.is_empty());
            if !self.any_changed(parity) && !later(&wins) && !later(&losses) {
                return Ok(longest);
            }
            d += 2;
        }
    }

    /// Whether any layout is marked changed in the bit sets of `parity`.
    fn any_changed(&self, parity: usize) -> bool {
        self.works
            .iter()
            .any(|w| w.changed[parity].par_iter().any(|x| x.load(Relaxed) != 0))
    }

    /// Decides the finished positions (the losses in 0 are marked changed in `parity`), and
    /// notes the captures: the wins by a capture by their distance, and the positions whose
    /// every move is a capture into a win by the distance they are lost in.
    fn start(&self, parity: usize) -> (Pending, Pending) {
        let mut wins = Pending::new();
        let mut losses = Pending::new();
        for w in 0..self.works.len() {
            // Task by task (one set of blue pieces each): the captures of a task lead into a
            // few blocks of the smaller material, which stay in cache.
            let own = self.works[w].material;
            let other = self.works[self.works[w].mirror].material;
            let n = u32::from(own.red) + 1;
            let parts: Vec<(Pending, Pending)> = (0..other.movers)
                .into_par_iter()
                .map(|mover| {
                    let mut wins = Pending::new();
                    let mut losses = Pending::new();
                    let (set, set_master) = other.mover_pieces(mover);
                    let (blue, blue_master) = (turn(set), turn(set_master));
                    for i in 0..other.opponents {
                        let red = unrank(u64::from(i / n), n as usize, blue);
                        let board = Board {
                            red,
                            blue,
                            red_master: nth(red, i % n),
                            blue_master,
                        };
                        let layout = own.layout(&board);
                        self.start_layout(w, layout, &board, parity, &mut wins, &mut losses);
                    }
                    (wins, losses)
                })
                .collect();
            for (pw, pl) in parts {
                append(&mut wins, pw);
                append(&mut losses, pl);
            }
        }
        (wins, losses)
    }

    fn start_layout(
        &self,
        w: usize,
        layout: u32,
        board: &Board,
        parity: usize,
        wins: &mut Pending,
        losses: &mut Pending,
    ) {
        let work = &self.works[w];
        let l = layout as usize;
        let all = u64::from(ALL);
        match (
            board.blue_master == RED_TEMPLE,
            board.red_master == BLUE_TEMPLE,
        ) {
            (true, true) => return work.words[l].store(all | (all << 32), Relaxed),
            (true, false) => {
                work.words[l].store(all << 32, Relaxed);
                return work.mark_changed(parity, l, ALL);
            }
            // Not reachable by play (red moved last), but finished: a win in 0.
            (false, true) => return work.words[l].store(all, Relaxed),
            (false, false) => {}
        }
        let cards = self.cards;
        // The quiet moves per card, the cards that move some piece, the captures.
        let mut quiet = [0u32; 5];
        let mut movable = 0usize;
        let mut captures = false;
        for (c, count) in quiet.iter_mut().enumerate() {
            for from in set_bits(board.red) {
                let to = cards.targets[c][0][from as usize] & !board.red;
                if to != 0 {
                    movable |= 1 << c;
                    *count += (to & !board.blue).count_ones();
                    captures |= to & board.blue != 0;
                }
            }
        }
        if !captures {
            return;
        }
        // Arrangements whose every move is a capture: the longest capture into a win counts.
        let mut only_captures = 0u32;
        for a in set_bits(ALL & !cards.passing[movable]) {
            let (c1, c2) = cards.hand(a as usize);
            if quiet[c1] + quiet[c2] == 0 {
                only_captures |= 1 << a;
            }
        }
        let mut best_win = [u32::MAX; 30];
        let mut longest_loss = [0u32; 30];
        // Arrangements with a capture that does not lose.
        let mut saved = 0u32;
        for c in 0..5 {
            let holds = cards.holds[c];
            for from in set_bits(board.red) {
                let to = cards.targets[c][0][from as usize] & board.blue;
                for to in set_bits(to) {
                    if 1 << to == board.blue_master {
                        for a in set_bits(holds) {
                            best_win[a as usize] = 1;
                        }
                        saved |= holds;
                        continue;
                    }
                    let solved = work.capture.expect("a student to capture");
                    let next = after(board, from, to);
                    let index = solved.material.layout(&next) as usize;
                    let (won, lost) = split(solved.words[index]);
                    let lost = cards.pull(c, lost) & holds;
                    let won = cards.pull(c, won) & holds;
                    saved |= holds & !won;
                    for a in set_bits(lost | (won & only_captures)) {
                        let at = index as u64 * 30 + u64::from(cards.next[a as usize][c]);
                        match solved.table.value(at) {
                            Some(TableValue::Loss(e)) => {
                                let best = &mut best_win[a as usize];
                                *best = (*best).min(e + 1);
                            }
                            Some(TableValue::Win(e)) => {
                                let longest = &mut longest_loss[a as usize];
                                *longest = (*longest).max(e);
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        for a in 0..30 {
            let bit = 1u32 << a;
            if best_win[a] != u32::MAX {
                note(wins, best_win[a], w, layout, bit);
            } else if saved & only_captures & bit == 0 && only_captures & bit != 0 {
                // Every move is a capture into a win: lost after the longest.
                note(losses, longest_loss[a] + 1, w, layout, bit);
            }
        }
    }

    /// Decides the positions known in advance, `items`, as `phase` at distance `d`.
    fn apply(&self, mut items: Vec<(u32, u32, u32)>, phase: Phase, d: u32, parity: usize) -> u64 {
        if items.is_empty() {
            return 0;
        }
        items.par_sort_unstable();
        // One item a layout, so that each is written by one thread.
        let mut merged: Vec<(u32, u32, u32)> = Vec::with_capacity(items.len());
        for (w, layout, bits) in items {
            match merged.last_mut() {
                Some(last) if (last.0, last.1) == (w, layout) => last.2 |= bits,
                _ => merged.push((w, layout, bits)),
            }
        }
        merged
            .par_iter()
            .map(|&(w, layout, bits)| {
                self.works[w as usize].decide(layout as usize, bits, phase, d, parity)
            })
            .sum()
    }

    /// One phase over every material: the predecessors of the layouts changed in the phase
    /// before (bit sets `read`) are checked; changes are marked in `write`.
    fn sweep(&self, phase: Phase, d: u32, read: usize, write: usize) -> Outcome {
        let mut total: Outcome = (0, Vec::new());
        for w in 0..self.works.len() {
            let work = &self.works[w];
            let other = &self.works[work.mirror];
            let block = other.material.opponents as usize;
            let (decided, held) = (0..other.material.movers)
                .into_par_iter()
                .map_init(
                    || Scratch {
                        marks: vec![(0, 0); block],
                        list: Vec::new(),
                        block: Vec::with_capacity(block),
                        loaded: Vec::new(),
                    },
                    |scratch, mover| self.task(w, mover, phase, d, read, write, scratch),
                )
                .reduce(
                    || (0, Vec::new()),
                    |mut a, b| {
                        a.0 += b.0;
                        a.1.extend(b.1);
                        a
                    },
                );
            total.0 += decided;
            total.1.extend(held);
        }
        total
    }

    /// The task of material `w` whose blue pieces are, turned round, the mover `mover` of the
    /// mirror material: checks its layouts that are predecessors of a changed layout of that
    /// mover's block.
    #[allow(clippy::too_many_arguments)]
    fn task(
        &self,
        w: usize,
        mover: u32,
        phase: Phase,
        d: u32,
        read: usize,
        write: usize,
        scratch: &mut Scratch,
    ) -> Outcome {
        let own = &self.works[w];
        let other = &self.works[own.mirror];
        let block = other.material.opponents as usize;
        let base = mover as usize * block;
        let changed = &other.changed[read];
        let first = base / 64;
        let last = (base + block - 1) / 64;
        if changed[first..=last].iter().all(|x| x.load(Relaxed) == 0) {
            return (0, Vec::new());
        }
        let (set, set_master) = other.material.mover_pieces(mover);
        let blue = turn(set);
        let blue_master = turn(set_master);
        let n = u32::from(own.material.red) + 1;
        // Free indices: of the squares blue leaves (own red sets) and of those the successor's
        // mover leaves (the successor's opponent sets).
        let own_free = free_indices(blue);
        let next_free = free_indices(set);
        self.gather(
            other,
            read,
            (base, block),
            (set, blue, n),
            &own_free,
            scratch,
        );
        let next = |red: u32, red_master: u32| {
            let pieces = turn(red);
            (rank_in(&next_free, pieces) * n + place(turn(red_master), pieces)) as usize
        };
        // The candidates' layouts, then their words: independent loads, issued together.
        scratch.loaded.clear();
        scratch
            .loaded
            .extend(scratch.list.iter().map(|&(red, red_master, _)| {
                let board = Board {
                    red,
                    blue,
                    red_master,
                    blue_master,
                };
                (own.material.layout(&board) as usize, 0)
            }));
        for (layout, word) in &mut scratch.loaded {
            *word = own.words[*layout].load(Relaxed);
        }
        // Many candidates read the block of successors: copied at once (a sequential read),
        // its win bits do not change in a loss phase.
        let local = phase == Phase::Loss && scratch.list.len() * 256 >= block;
        if local {
            scratch.block.clear();
            scratch.block.extend(
                other.words[base..base + block]
                    .iter()
                    .map(|w| split(w.load(Relaxed)).0),
            );
        }
        let block_wins = &scratch.block;
        let won_after = |red: u32, red_master: u32| {
            let at = next(red, red_master);
            if local {
                block_wins[at]
            } else {
                split(other.words[base + at].load(Relaxed)).0
            }
        };
        let mut outcome: Outcome = (0, Vec::new());
        for (k, &(red, red_master, i)) in scratch.list.iter().enumerate() {
            let (moves, passes) = std::mem::take(&mut scratch.marks[i as usize]);
            let (layout, word) = scratch.loaded[k];
            let (won, lost) = split(word);
            let open = ALL & !(won | lost);
            if open & (moves | passes) == 0 {
                continue;
            }
            let board = Board {
                red,
                blue,
                red_master,
                blue_master,
            };
            let bits = match phase {
                Phase::Win => {
                    let passes = passes & open & !moves;
                    let passing = if passes != 0 {
                        self.cards.passing[self.cards.movable(&board)]
                    } else {
                        0
                    };
                    open & (moves | (passes & passing))
                }
                Phase::Loss => {
                    let at = (w as u32, layout as u32);
                    let open = open & (moves | passes);
                    self.losses(own, &board, open, &won_after, d, at, &mut outcome.1)
                }
            };
            if bits != 0 {
                outcome.0 += own.decide(layout, bits, phase, d, write);
            }
        }
        scratch.list.clear();
        outcome
    }

    /// Marks in `scratch` the predecessors of the layouts of `other`'s block (`base`, `block`
    /// layouts) changed in the phase before (sets `read`): per red piece set of the task (blue
    /// pieces `blue`, the block's mover `set`, `n` red pieces, numbered by `own_free`), the
    /// arrangements reached by a move undone and by a pass.
    fn gather(
        &self,
        other: &Work<'_>,
        read: usize,
        (base, block): (usize, usize),
        (set, blue, n): (u32, u32, u32),
        own_free: &[u8; 25],
        scratch: &mut Scratch,
    ) {
        let changed = &other.changed[read];
        let (first, last) = (base / 64, (base + block - 1) / 64);
        let cards = self.cards;
        let mut mark = |red: u32, red_master: u32, moves: u32, passes: u32| {
            let i = (rank_in(own_free, red) * n + place(red_master, red)) as usize;
            let marked = &mut scratch.marks[i];
            if *marked == (0, 0) {
                scratch.list.push((red, red_master, i as u32));
            }
            marked.0 |= moves;
            marked.1 |= passes;
        };
        for (word, bits) in changed.iter().enumerate().take(last + 1).skip(first) {
            for bit in set_bits64(bits.load(Relaxed)) {
                let index = word * 64 + bit as usize;
                if index < base || index >= base + block {
                    continue;
                }
                let new = other.fresh[read][index].load(Relaxed);
                let opponent = (index - base) as u32;
                let pieces = unrank(u64::from(opponent / n), n as usize, set);
                let red = turn(pieces);
                let red_master = turn(nth(pieces, opponent % n));
                let empty = !(red | blue) & SQUARES;
                let mut passes = 0;
                for c in 0..5 {
                    let pulled = cards.pull(c, new);
                    if pulled == 0 {
                        continue;
                    }
                    passes |= pulled;
                    cards.unmoves(c, red, red_master, empty, |pieces, master| {
                        mark(pieces, master, pulled, 0);
                    });
                }
                if passes != 0 {
                    mark(red, red_master, 0, passes);
                }
            }
        }
    }

    /// The arrangements of `open` whose every move leads to a win of the opponent in less
    /// than `d` plies; those held up only by a capture into a longer win go to `held` as
    /// `(distance of the loss, material, layout, arrangement)`.
    #[allow(clippy::too_many_arguments)]
    fn losses(
        &self,
        own: &Work<'_>,
        board: &Board,
        open: u32,
        won_after: &dyn Fn(u32, u32) -> u32,
        d: u32,
        (w, layout): (u32, u32),
        held: &mut Vec<(u32, u32, u32, u32)>,
    ) -> u32 {
        let cards = self.cards;
        let mut escape = 0u32;
        'cards: for c in 0..5 {
            if open & cards.holds[c] & !escape == 0 {
                continue;
            }
            for from in set_bits(board.red) {
                let from_bit = 1u32 << from;
                let master = board.red_master == from_bit;
                let to = cards.targets[c][0][from as usize] & !board.red & !board.blue;
                for to in set_bits(to) {
                    let to_bit = 1u32 << to;
                    let red = board.red ^ from_bit ^ to_bit;
                    let red_master = if master { to_bit } else { board.red_master };
                    let won = won_after(red, red_master);
                    escape |= cards.pull(c, !won & ALL);
                    if open & !escape == 0 {
                        break 'cards;
                    }
                }
            }
        }
        let mut lost = open & !escape;
        if lost == 0 {
            return 0;
        }
        let passing = cards.passing[self.cards.movable(board)] & lost;
        if passing != 0 {
            let won = won_after(board.red, board.red_master);
            for c in 0..5 {
                lost &= !(cards.pull(c, !won & ALL) & passing);
            }
        }
        let Some(solved) = own.capture else {
            return lost;
        };
        // Captures: into a draw or a loss of the opponent escape; into a longer win, held.
        let mut longest = [0u32; 30];
        for c in 0..5 {
            let holds = cards.holds[c];
            if lost & holds == 0 {
                continue;
            }
            for from in set_bits(board.red) {
                for to in set_bits(cards.targets[c][0][from as usize] & board.blue) {
                    if 1 << to == board.blue_master {
                        lost &= !holds;
                        continue;
                    }
                    let after = after(board, from, to);
                    let index = solved.material.layout(&after) as usize;
                    let (won, _) = split(solved.words[index]);
                    lost &= !(cards.pull(c, !won & ALL) & holds);
                    for a in set_bits(lost & holds) {
                        let at = index as u64 * 30 + u64::from(cards.next[a as usize][c]);
                        if let Some(TableValue::Win(e)) = solved.table.value(at)
                            && e >= d
                        {
                            longest[a as usize] = longest[a as usize].max(e);
                        }
                    }
                }
            }
        }
        for a in set_bits(lost) {
            if longest[a as usize] > 0 {
                lost &= !(1 << a);
                held.push((longest[a as usize] + 1, w, layout, 1 << a));
            }
        }
        lost
    }
}

/// The board after red moves the piece on `from` to `to`, capturing what is there, seen by
/// blue (turned round, colours swapped).
#[inline]
pub(super) fn after(board: &Board, from: u32, to: u32) -> Board {
    let (from_bit, to_bit) = (1u32 << from, 1u32 << to);
    let red = board.red & !from_bit | to_bit;
    let red_master = if board.red_master == from_bit {
        to_bit
    } else {
        board.red_master
    };
    Board {
        red: turn(board.blue & !to_bit),
        blue: turn(red),
        red_master: turn(board.blue_master),
        blue_master: turn(red_master),
    }
}

/// The set bits of a 64-bit word, lowest first.
#[inline]
pub(super) fn set_bits64(mut bits: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let bit = bits.trailing_zeros();
            bits &= bits - 1;
            bit
        })
    })
}

/// For every square not in `taken`, its index among those squares.
#[inline]
pub(super) fn free_indices(taken: u32) -> [u8; 25] {
    let mut free = [0u8; 25];
    let mut i = 0;
    for (square, index) in free.iter_mut().enumerate() {
        if taken & (1 << square) == 0 {
            *index = i;
            i += 1;
        }
    }
    free
}

/// The rank of the set `bits` among the squares `free` numbers (see `super::rank`).
#[inline]
pub(super) fn rank_in(free: &[u8; 25], bits: u32) -> u32 {
    let mut rank = 0;
    for (i, square) in set_bits(bits).enumerate() {
        rank += CHOOSE[usize::from(free[square as usize])][i + 1] as u32;
    }
    rank
}

/// Notes `(w, layout, bit)` under `distance`.
fn note(into: &mut Pending, distance: u32, w: usize, layout: u32, bit: u32) {
    let distance = distance as usize;
    if into.len() <= distance {
        into.resize_with(distance + 1, Vec::new);
    }
    match into[distance].last_mut() {
        Some(last) if (last.0, last.1) == (w as u32, layout) => last.2 |= bit,
        _ => into[distance].push((w as u32, layout, bit)),
    }
}

/// Adds the lists of `from` to those of `into`, distance by distance.
fn append(into: &mut Pending, from: Pending) {
    if into.len() < from.len() {
        into.resize_with(from.len(), Vec::new);
    }
    for (i, f) in into.iter_mut().zip(from) {
        i.extend(f);
    }
}
