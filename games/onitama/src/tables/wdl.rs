//! The win/draw/loss solver: which positions are won, lost or drawn, without their distances,
//! for the materials too large to keep a byte a position (the planes of `docs/tables-design.md`
//! §2).
//!
//! Each layout is one word, wins in bits 0-29 and losses in bits 32-61 (both for a hole), as in
//! the distance solver (`sweep.rs`), and nothing else is kept once solved: 8 bytes per 30
//! positions. While solving, bit 63 of the word says whether a capture may still save an
//! arrangement ([`CAPTURE_DRAWS`]), a layout also holds the arrangements already pulled back (4
//! bytes), and each group of layouts a mark (a byte): about 12 bytes per layout, which is what
//! lets 8 pieces fit.
//!
//! The solver numbers layouts in its own order ([`Order`]): by red's piece set, then blue's
//! among the squares left, then the two masters within them. A *group* is the layouts of one
//! pair of piece sets, differing only in which pieces are the masters (at most 25 words, side
//! by side); a *block* is every group of one red piece set. A task owns one blue piece set: its
//! own layouts are a group per red piece set, read and written a group at a time, and every
//! quiet move and pass of them leads into the one block of the mirror material whose red set is
//! the blue set turned round, which the task reads in order. The planes are turned into the
//! files' order ([`Material`]'s mover-outer numbering, the same layouts per red piece set) when
//! the group is solved. The solver works by events, not by plies:
//! - a start pass decides the finished layouts and the captures (into the smaller materials,
//!   already solved);
//! - every change (arrangements newly won or lost) is marked on the changed layout's group (a
//!   byte) and block (a byte); the task whose block of successors holds the group takes the
//!   marks, consumes them, and pulls the changes back through each move undone: a new loss
//!   makes its predecessors won at once, a new win makes them candidates, and a candidate is
//!   lost when every move leads to a won successor (checked for its 30 arrangements at once,
//!   quiet moves first, stopped as soon as each escapes, captures read only for what is left);
//! - tasks read what other tasks write while the pass runs. A task publishes its marks when it
//!   ends: a sequentially consistent fence after its words and before its groups' marks,
//!   another before the blocks' marks; a reader clears a block's mark, fences, clears and
//!   collects the groups' marks, fences, and only then reads the words. So a mark a reader
//!   cleared announced a word the reader sees, and a mark it missed stays for the next pass;
//!   the passes end when a pass finds no block marked. Marks are plain stores, not
//!   read-modify-writes: each group is written by one task, and a locked instruction per
//!   change cost a fifth of the solver's time.
//!
//! Key invariant: marks only follow from marks (a win from a lost successor, a loss from
//! successors all won), so the result is the least fixpoint of those two rules whatever the
//! order of the tasks: the same planes for any thread count, and equal to the wins and losses of
//! the distance solver.

use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, Ordering, fence};

use plies::bits::set_bits;
use plies::memory::{AllocError, zeroed_vec};
use rayon::prelude::*;

use super::build::{Board, Cards, Material, nth, place};
use super::numbering::{CHOOSE, Sets, rank, unrank};
use super::sweep::{free_indices, rank_in, split, turn};
use crate::state::{BLUE_TEMPLE, RED_TEMPLE};

/// All 30 arrangements.
const ALL: u32 = (1 << 30) - 1;
/// All 25 squares.
const SQUARES: u32 = (1 << 25) - 1;
/// A layout's word while solving: some capture of a student leads into a drawn position, so a
/// capture may save an open arrangement. Without it no capture does (a capture into a loss of
/// the opponent won the arrangement at the start, one into a win saves nothing), and the loss
/// check skips the captures. Cleared before the words are handed out.
const CAPTURE_DRAWS: u64 = 1 << 63;

const RELAXED: Ordering = Ordering::Relaxed;

/// The most tasks (blue piece sets) a thread takes as one piece of a pass. Left to itself, rayon
/// cuts a pass into a few long runs of tasks, and in the late passes the few tasks with work
/// to do sit close together (their sets share pieces), in one thread's run; shorter runs let
/// the other threads take them over.
const TASKS_AT_ONCE: usize = 64;

/// The solver's order of a material's layouts: `group · size + i · blue + j`, where `group` is
/// `rank(red's set) · sets + rank(blue's set among the squares red's leaves)`, `i` red's master
/// within its set and `j` blue's, lowest square first. A block, the groups of one red set, holds
/// the same layouts as [`Material`]'s numbers of that set, so turning one order into the other
/// moves words only within a block ([`Order::reorder_for_files`]).
#[derive(Copy, Clone)]
struct Order {
    /// Red's pieces.
    red: u32,
    /// Blue's pieces.
    blue: u32,
    /// The layouts of a group: `red · blue`.
    size: usize,
    /// The groups of a block: blue's piece sets among the squares one red set leaves.
    sets: u32,
    /// The layouts of a block: `sets · size`.
    block: usize,
    /// The blocks: red's piece sets.
    blocks: u32,
}

impl Order {
    fn new(material: Material) -> Order {
        let (r, b) = (usize::from(material.red), usize::from(material.blue));
        let sets = CHOOSE[24 - r][b + 1] as u32;
        let size = (r + 1) * (b + 1);
        Order {
            red: r as u32 + 1,
            blue: b as u32 + 1,
            size,
            sets,
            block: sets as usize * size,
            blocks: CHOOSE[25][r + 1] as u32,
        }
    }

    /// The first layout of the group of red's pieces `red` and blue's `blue`.
    #[inline]
    fn group(&self, red: u32, blue: u32) -> usize {
        (rank(red, 0) as usize * self.sets as usize + rank(blue, red) as usize) * self.size
    }

    /// The layout with the `i`-th red master and the `j`-th blue master (lowest square first)
    /// of the group starting at `group`.
    #[inline]
    fn layout(&self, group: usize, i: u32, j: usize) -> usize {
        group + (i * self.blue) as usize + j
    }

    /// The words in this order, turned into the files' order in place, a block at a time.
    fn reorder_for_files(&self, words: &mut [u64]) {
        let (red, blue, sets) = (self.red as usize, self.blue as usize, self.sets as usize);
        words.par_chunks_mut(self.block).for_each_init(
            || Vec::with_capacity(self.block),
            |copy, block| {
                copy.clear();
                copy.extend_from_slice(block);
                // In the files: red's master, then blue's set, then blue's master.
                for (k, group) in copy.chunks_exact(self.size).enumerate() {
                    for i in 0..red {
                        let at = i * sets * blue + k * blue;
                        block[at..at + blue].copy_from_slice(&group[i * blue..(i + 1) * blue]);
                    }
                }
            },
        );
    }
}

/// A material being solved.
struct Work<'a> {
    material: Material,
    order: Order,
    /// The mirror material (where red's quiet moves lead), an index into the group.
    mirror: usize,
    /// The words of the material red's captures lead into (`None`: blue has no student).
    capture: Option<(Material, &'a [u64])>,
    /// Per layout ([`Order`]): its word (wins in bits 0-29, losses in bits 32-61), written by
    /// the task that owns the layout.
    words: Vec<AtomicU64>,
    /// Per layout: the arrangements already pulled back, written by the one task that reads
    /// the layout's block.
    pulled: Vec<AtomicU32>,
    /// Per group: 1 when a layout of it changed since its block was last read.
    marks: Vec<AtomicU8>,
    /// Per block: 1 when a group of it may be marked.
    dirty: Vec<AtomicU8>,
}

impl Work<'_> {
    /// Decides `wins` and `losses` (among the open arrangements) of `layout`, whose word was
    /// `word`; only the caller's task writes it. The change goes to `changed`, to be marked by
    /// [`Work::publish`] when the task ends. Returns the positions decided.
    #[inline]
    fn decide(
        &self,
        changed: &mut Vec<usize>,
        layout: usize,
        word: u64,
        wins: u32,
        losses: u32,
    ) -> u64 {
        let (won, lost) = split(word);
        let open = ALL & !(won | lost);
        let (wins, losses) = (wins & open, losses & open & !wins);
        if wins | losses == 0 {
            return 0;
        }
        self.words[layout].store(word | u64::from(wins) | u64::from(losses) << 32, RELAXED);
        changed.push(layout);
        u64::from((wins | losses).count_ones())
    }

    /// Marks the groups of the layouts `changed` (their words stored by this task) and their
    /// blocks, and empties `changed`. The fences order words before marks before blocks'
    /// marks, as the reader ([`Solver::take_marks`]) clears and reads them the other way round.
    fn publish(&self, changed: &mut Vec<usize>) {
        if changed.is_empty() {
            return;
        }
        fence(Ordering::SeqCst);
        for &layout in changed.iter() {
            self.marks[layout / self.order.size].store(1, RELAXED);
        }
        fence(Ordering::SeqCst);
        for &layout in changed.iter() {
            self.dirty[layout / self.order.block].store(1, RELAXED);
        }
        changed.clear();
    }
}

/// Where red's captures lead from the layouts of one blue set: a capture of the student on a
/// square leaves blue (the mover after the turn) one set of pieces, so every capture of that
/// student lands in one block of the smaller material, numbered by red's pieces after the move.
/// Read from here, a capture costs the rank of red's pieces, not the whole layout's.
struct Captures<'a> {
    /// The smaller material's words (in the files' order).
    words: &'a [u64],
    /// Per square of a blue student: the first layout of the block its capture leads into, and
    /// the free-square indices of that block (blue's pieces left, turned round, taken).
    blocks: [(usize, [u8; 25]); 25],
    /// Red's pieces (the opponent's after the turn).
    n: u32,
}

impl<'a> Captures<'a> {
    /// The captures of `own`'s layouts whose blue pieces are `blue`, master `blue_master`;
    /// `None` when blue has no student.
    fn new(own: &Work<'a>, blue: u32, blue_master: u32) -> Option<Captures<'a>> {
        let (material, words) = own.capture?;
        let mut blocks = [(0, [0u8; 25]); 25];
        for to in set_bits(blue & !blue_master) {
            let left = turn(blue & !(1 << to));
            let mover = material.mover(left, turn(blue_master));
            blocks[to as usize] = (
                mover as usize * material.opponents as usize,
                free_indices(left),
            );
        }
        Some(Captures {
            words,
            blocks,
            n: u32::from(own.material.red) + 1,
        })
    }

    /// The captures of `own`'s layouts whose blue pieces are `blue`, for each choice of blue's
    /// master (lowest square first).
    fn all(own: &Work<'a>, blue: u32) -> Vec<Option<Captures<'a>>> {
        set_bits(blue)
            .map(|master| Captures::new(own, blue, 1 << master))
            .collect()
    }

    /// The word of the position after red's piece on `from` captures the student on `to`
    /// (`board`: before the move).
    #[inline]
    fn word(&self, board: &Board, from: u32, to: u32) -> u64 {
        let (from_bit, to_bit) = (1u32 << from, 1u32 << to);
        let red = board.red ^ from_bit ^ to_bit;
        let master = if board.red_master == from_bit {
            to_bit
        } else {
            board.red_master
        };
        let (pieces, master) = (turn(red), turn(master));
        let (base, free) = &self.blocks[to as usize];
        self.words[base + (rank_in(free, pieces) * self.n + place(master, pieces)) as usize]
    }
}

/// The win bits after a capture, as [`capture_escapes`] and [`losses`] read them.
#[inline]
fn won_after_capture<'c>(
    captures: &'c Option<Captures<'_>>,
) -> impl Fn(&Board, u32, u32) -> u32 + 'c {
    move |board, from, to| {
        captures
            .as_ref()
            .expect("a student to capture")
            .word(board, from, to) as u32
            & ALL
    }
}

/// A task's scratch space: per layout of the task, the arrangements pulled back from new
/// losses (won) and from new wins (to check), and the list of the layouts marked.
#[derive(Default)]
struct Scratch {
    /// Per layout (empty until the first task that gathers), all default between tasks.
    marks: Vec<Marks>,
    /// The layouts marked: red's pieces and master, blue's master (its index), local number.
    list: Vec<(u32, u32, u32, u32)>,
    /// Per candidate of `list`: its layout and word.
    loaded: Vec<(usize, u64)>,
    /// The words of the block of successors, when copied.
    block: Vec<u64>,
    /// The first layouts of the task's own groups, and their words (in a dense pass).
    groups: Vec<usize>,
    words: Vec<u64>,
    /// The marks taken from the block: local numbers of its changed groups.
    taken: Vec<u32>,
    /// The task's own layouts it changed, to publish when it ends.
    changed: Vec<usize>,
    /// Red's piece sets of the task's groups in the order of their rank (in a dense pass), or
    /// the opponent sets of the block's groups (when many of them changed).
    reds: Vec<u32>,
}

/// What a predecessor layout was marked with.
#[derive(Copy, Clone, Default, PartialEq, Eq)]
struct Marks {
    /// Won by a move into a new loss.
    wins: u32,
    /// Won by a pass into a new loss (if red must pass there).
    pass_wins: u32,
    /// To check: a move led into a new win.
    check: u32,
}

/// Solves `group` (one material, or a material and its mirror) to win/draw/loss words (in the
/// files' order, [`Material::layout`]), with `smaller(material)` the words of a smaller, solved
/// material, on `pool`. A refused allocation is an error.
pub(super) fn solve_group<'a>(
    cards: &Cards,
    group: &[Material],
    smaller: &dyn Fn(Material) -> &'a [u64],
    pool: Option<&rayon::ThreadPool>,
    progress: &mut dyn FnMut(u32, u64),
) -> Result<Vec<Vec<u64>>, AllocError> {
    let works = group
        .iter()
        .map(|&material| {
            let layouts = material.layouts() as usize;
            let order = Order::new(material);
            Ok(Work {
                material,
                order,
                mirror: group
                    .iter()
                    .position(|g| g.red == material.blue && g.blue == material.red)
                    .expect("a group holds the mirror of each of its materials"),
                capture: (material.blue > 0).then(|| {
                    let m = Material::new(material.blue - 1, material.red);
                    (m, smaller(m))
                }),
                words: zeroed_vec(layouts)?,
                pulled: zeroed_vec(layouts)?,
                marks: zeroed_vec(layouts / order.size)?,
                dirty: zeroed_vec(order.blocks as usize)?,
            })
        })
        .collect::<Result<Vec<Work<'a>>, AllocError>>()?;
    let solver = Solver {
        cards,
        works: &works,
    };
    let par = |f: &(dyn Fn() -> u64 + Sync)| match pool {
        Some(pool) => pool.install(f),
        None => f(),
    };
    par(&|| {
        for work in &works {
            map_pages(&work.words, |word| word.store(0, RELAXED));
            map_pages(&work.pulled, |pulled| pulled.store(0, RELAXED));
        }
        0
    });
    progress(0, par(&|| solver.start()));
    let mut pass = 1;
    while par(&|| {
        u64::from(
            works
                .iter()
                .any(|w| w.dirty.par_iter().any(|x| x.load(RELAXED) != 0)),
        )
    }) != 0
    {
        progress(
            pass,
            par(&|| (0..works.len()).map(|w| solver.sweep(w)).sum()),
        );
        pass += 1;
    }
    let mut solved = Vec::with_capacity(works.len());
    for work in works {
        let order = work.order;
        let mut words: Vec<u64> = work
            .words
            .into_iter()
            .map(|word| word.into_inner() & !CAPTURE_DRAWS)
            .collect();
        match pool {
            Some(pool) => pool.install(|| order.reorder_for_files(&mut words)),
            None => order.reorder_for_files(&mut words),
        }
        solved.push(words);
    }
    Ok(solved)
}

/// Has the system map every page of `array` now, in parallel, each huge page (2 MB) written
/// once (a zero, by `zero`) by one thread. Left to the passes, a page of `pulled` is first read
/// (the system's shared zero page) and faulted again when written, and two threads writing the
/// same untouched page both fault on it; mapped here, the passes fault on none. Where huge pages
/// are off this maps one small page in 512, which changes nothing.
fn map_pages<T: Sync>(array: &[T], zero: impl Fn(&T) + Sync) {
    array
        .par_chunks((2 << 20) / size_of::<T>())
        .for_each(|chunk| zero(&chunk[0]));
}

struct Solver<'a, 'b> {
    cards: &'a Cards,
    works: &'a [Work<'b>],
}

/// What a task knows of its block: its own material and the mirror, where the block starts,
/// the blue pieces of its layouts (`set` is them turned round, the block's red set), and the
/// free-square indices of its own red pieces and of the block's opponents.
struct Block<'a, 'b> {
    own: &'a Work<'b>,
    other: &'a Work<'b>,
    base: usize,
    set: u32,
    blue: u32,
    /// Per index of blue's master (lowest square first): where the successors' layouts with
    /// that master start within their group (blue's master is their mover's).
    offsets: [u32; 8],
    own_free: [u8; 25],
    /// Per square of red's pieces (seen by red) and `i`: what the square it turns into adds to
    /// the successor's rank of the opponent's pieces as their `i`-th lowest (`C(free index, i)`,
    /// the free index in the successor's numbering).
    ranks: [[u32; 8]; 25],
}

impl Block<'_, '_> {
    fn new<'a, 'b>(own: &'a Work<'b>, other: &'a Work<'b>, task: Task) -> Block<'a, 'b> {
        let set = unrank(u64::from(task.set), own.order.blue as usize, 0);
        let blue = turn(set);
        let mut offsets = [0u32; 8];
        for (j, master) in set_bits(blue).enumerate() {
            offsets[j] = place(turn(1 << master), set) * own.order.red;
        }
        Block {
            own,
            other,
            base: task.set as usize * other.order.block,
            set,
            blue,
            offsets,
            own_free: free_indices(blue),
            ranks: rank_terms(set),
        }
    }

    /// The local number, in the block, of the successor where red's pieces are `red` with
    /// the master on `red_master` and blue's master is its `j`-th piece: red's pieces turned
    /// round are its opponent's, ranked from the top square down (the lowest once turned), the
    /// master counted from the top.
    #[inline]
    fn next(&self, red: u32, red_master: u32, j: usize) -> usize {
        self.rank(red) as usize * self.own.order.size
            + (self.offsets[j] + above(red, red_master)) as usize
    }

    /// The rank of red's pieces `red`, turned round, as the successor's opponent set.
    #[inline]
    fn rank(&self, red: u32) -> u32 {
        let mut rank = 0;
        let mut bits = red;
        let mut i = 1;
        while bits != 0 {
            let square = 31 - bits.leading_zeros();
            rank += self.ranks[square as usize][i];
            bits ^= 1 << square;
            i += 1;
        }
        rank
    }

    /// The task's own layout of red's pieces `red` (master `red_master`) and blue's master
    /// the `j`-th.
    #[inline]
    fn layout(&self, red: u32, red_master: u32, j: usize) -> usize {
        let order = &self.own.order;
        order.layout(order.group(red, self.blue), place(red_master, red), j)
    }
}

/// Per square of red's pieces (seen by red) and `i`: what the square adds to the rank, among the
/// squares `set` leaves, of red's pieces turned round when it is their `i`-th from the top
/// ([`Block::ranks`]).
fn rank_terms(set: u32) -> [[u32; 8]; 25] {
    let free = free_indices(set);
    std::array::from_fn(|square| {
        let row = &CHOOSE[usize::from(free[24 - square])];
        std::array::from_fn(|i| row[i] as u32)
    })
}

/// A task of material `w`: its layouts' blue piece set, as the red set (a block) of the mirror.
#[derive(Copy, Clone)]
struct Task {
    w: usize,
    set: u32,
}

impl Solver<'_, '_> {
    /// The start pass: finished layouts, captures, and the arrangements lost at once (every
    /// move a capture into a win of the opponent). Returns the positions decided.
    fn start(&self) -> u64 {
        (0..self.works.len())
            .map(|w| {
                let other = &self.works[self.works[w].mirror];
                (0..other.order.blocks)
                    .into_par_iter()
                    .with_max_len(TASKS_AT_ONCE)
                    .map(|set| self.start_task(Task { w, set }))
                    .sum::<u64>()
            })
            .sum()
    }

    fn start_task(&self, task: Task) -> u64 {
        let own = &self.works[task.w];
        let other = &self.works[own.mirror];
        let n = own.order.red;
        let blue = turn(unrank(u64::from(task.set), own.order.blue as usize, 0));
        let captures = Captures::all(own, blue);
        let mut decided = 0;
        let mut changed = Vec::new();
        let mut moves = StartMoves {
            attacked: [0; 5],
            movable: 0,
            quiet: 0,
            captures: Vec::new(),
        };
        // A red piece set at a time: its layouts (a master each side) are one group, and what
        // red's pieces can do does not depend on which of them are the masters.
        for red in Sets::new(n as usize, blue).take(other.order.sets as usize) {
            moves.generate(self.cards, red, blue);
            let first = own.order.group(red, blue);
            for i in 0..n {
                for (j, captures) in captures.iter().enumerate() {
                    let board = Board {
                        red,
                        blue,
                        red_master: nth(red, i),
                        blue_master: nth(blue, j as u32),
                    };
                    let layout = own.order.layout(first, i, j);
                    decided +=
                        self.start_layout(own, &moves, captures, &mut changed, layout, &board);
                }
            }
        }
        own.publish(&mut changed);
        decided
    }

    fn start_layout(
        &self,
        own: &Work<'_>,
        moves: &StartMoves,
        captures: &Option<Captures<'_>>,
        changed: &mut Vec<usize>,
        layout: usize,
        board: &Board,
    ) -> u64 {
        let all = u64::from(ALL);
        match (
            board.blue_master == RED_TEMPLE,
            board.red_master == BLUE_TEMPLE,
        ) {
            (true, true) => {
                own.words[layout].store(all | all << 32, RELAXED);
                return 0;
            }
            (true, false) => return own.decide(changed, layout, 0, 0, ALL),
            // Not reachable by play (red moved last), but finished: won, and no predecessor.
            (false, true) => {
                own.words[layout].store(all, RELAXED);
                return 0;
            }
            (false, false) => {}
        }
        let cards = self.cards;
        // Taking the master first: a card that takes it wins in every arrangement holding it,
        // whose captures of students (read from the smaller tables) then decide nothing.
        let mut wins = 0u32;
        for (c, &attacked) in moves.attacked.iter().enumerate() {
            if attacked & board.blue_master != 0 {
                wins |= cards.holds[c];
            }
        }
        let mut saved = 0u32;
        for &(c, from, to) in &moves.captures {
            let holds = cards.holds[c];
            if holds & !wins == 0 || 1 << to == board.blue_master {
                continue;
            }
            let captures = captures.as_ref().expect("a student to capture");
            let (won, lost) = split(captures.word(board, from, to));
            wins |= cards.pull(c, lost) & holds;
            saved |= cards.pull(c, ALL & !won) & holds;
        }
        // Arrangements with no quiet move and no pass: every move is a capture, and unless one
        // is saved by it, every one leads into a win of the opponent.
        let only_captures = ALL & !cards.passing[moves.movable] & !moves.quiet;
        let word = if saved & !wins != 0 {
            own.words[layout].store(CAPTURE_DRAWS, RELAXED);
            CAPTURE_DRAWS
        } else {
            0
        };
        own.decide(changed, layout, word, wins, only_captures & !saved & !wins)
    }

    /// One pass over the tasks of material `w`. Returns the positions decided.
    fn sweep(&self, w: usize) -> u64 {
        let own = &self.works[w];
        let other = &self.works[own.mirror];
        (0..other.order.blocks)
            .into_par_iter()
            .with_max_len(TASKS_AT_ONCE)
            .map_init(Scratch::default, |scratch, set| {
                self.task(Task { w, set }, scratch)
            })
            .sum()
    }

    /// The task's pass: takes the marks of its block of successors, pulls them back to its
    /// own layouts, and decides what they make won or lost.
    fn task(&self, task: Task, scratch: &mut Scratch) -> u64 {
        let own = &self.works[task.w];
        let other = &self.works[own.mirror];
        let dirty = &other.dirty[task.set as usize];
        if dirty.load(RELAXED) == 0 {
            return 0;
        }
        let block = Block::new(own, other, task);
        self.take_marks(dirty, &block, &mut scratch.taken);
        // So many groups of the block changed that pulling every move of the task's open
        // layouts costs less than pulling each change back: a quarter of the block or more.
        let decided = if scratch.taken.is_empty() {
            0
        } else if scratch.taken.len() * 4 >= other.order.sets as usize {
            match own.order.blue {
                1 => self.pull_all::<1>(&block, scratch),
                2 => self.pull_all::<2>(&block, scratch),
                3 => self.pull_all::<3>(&block, scratch),
                4 => self.pull_all::<4>(&block, scratch),
                5 => self.pull_all::<5>(&block, scratch),
                nb => unreachable!("at most four blue students, not {}", nb - 1),
            }
        } else {
            // Made at the first task that needs it: a run of tasks is made a scratch each, and in
            // the late passes most tasks have nothing to do.
            if scratch.marks.is_empty() {
                scratch.marks.resize(other.order.block, Marks::default());
            }
            self.gather(&block, scratch);
            let decided = self.evaluate(&block, scratch);
            scratch.list.clear();
            decided
        };
        own.publish(&mut scratch.changed);
        decided
    }

    /// Takes the marks of the block (its mark `dirty`, found set) into `taken`: the block's
    /// mark cleared, then each marked group's, with fences between so that the words read after
    /// this are at least those the marks announced (see the module docs).
    fn take_marks(&self, dirty: &AtomicU8, block: &Block<'_, '_>, taken: &mut Vec<u32>) {
        taken.clear();
        let other = block.other;
        dirty.store(0, RELAXED);
        fence(Ordering::SeqCst);
        let first = block.base / other.order.size;
        for (i, mark) in other.marks[first..first + other.order.sets as usize]
            .iter()
            .enumerate()
        {
            if mark.load(RELAXED) != 0 {
                mark.store(0, RELAXED);
                taken.push(i as u32);
            }
        }
        fence(Ordering::SeqCst);
    }

    /// The dense pass of a task: takes every mark of its block, copies the block, and decides
    /// each open layout of the task from all its moves (a win from any move into a loss, a loss
    /// when no move escapes). `NB` is blue's pieces, as in [`Moves::pulled`].
    fn pull_all<const NB: usize>(&self, block: &Block<'_, '_>, scratch: &mut Scratch) -> u64 {
        let Block {
            own,
            other,
            base,
            blue,
            ..
        } = *block;
        let n = own.order.red;
        let size = other.order.block;
        scratch.block.clear();
        scratch.block.extend(
            other.words[base..base + size]
                .iter()
                .map(|w| w.load(RELAXED)),
        );
        for (pulled, &word) in other.pulled[base..base + size].iter().zip(&scratch.block) {
            let (won, lost) = split(word);
            if pulled.load(RELAXED) != won | lost {
                pulled.store(won | lost, RELAXED);
            }
        }
        let group = own.order.size;
        let cards = self.cards;
        let words = &scratch.block;
        let captures = Captures::all(own, blue);
        let mut decided = 0;
        let mut moves = Moves::default();
        // The task's groups, then their words: independent loads, issued together.
        scratch.reds.clear();
        scratch.groups.clear();
        for red in Sets::new(n as usize, blue).take(other.order.sets as usize) {
            scratch.reds.push(red);
            scratch.groups.push(own.order.group(red, blue));
        }
        scratch.words.clear();
        for &first in &scratch.groups {
            scratch.words.extend(
                own.words[first..first + group]
                    .iter()
                    .map(|w| w.load(RELAXED)),
            );
        }
        for (k, (&red, &first)) in scratch.reds.iter().zip(&scratch.groups).enumerate() {
            let loaded = &scratch.words[k * group..(k + 1) * group];
            let open = loaded.iter().fold(0, |open, &word| {
                let (won, lost) = split(word);
                open | (ALL & !(won | lost))
            });
            if open == 0 {
                continue;
            }
            let (size, ranks) = (own.order.size as u32, &block.ranks);
            match n {
                1 => moves.generate::<1>(cards, red, blue, size, ranks, open),
                2 => moves.generate::<2>(cards, red, blue, size, ranks, open),
                3 => moves.generate::<3>(cards, red, blue, size, ranks, open),
                4 => moves.generate::<4>(cards, red, blue, size, ranks, open),
                5 => moves.generate::<5>(cards, red, blue, size, ranks, open),
                n => unreachable!("at most four red students, not {}", n - 1),
            }
            for i in 0..n {
                let red_master = nth(red, i);
                let row = own.order.layout(0, i, 0);
                let words_i = &loaded[row..row + NB];
                let mut open = [0u32; 8];
                for (open, &word) in open.iter_mut().zip(words_i) {
                    let (won, lost) = split(word);
                    *open = ALL & !(won | lost);
                }
                // Finished layouts (a master on its goal, holes) were decided at the start.
                if open[..NB].iter().all(|&open| open == 0) {
                    continue;
                }
                let pulled = moves.pulled::<NB>(cards, i as usize, &open, |at| words[at], block);
                for (j, captures) in captures.iter().enumerate() {
                    let (open, word) = (open[j], words_i[j]);
                    if open == 0 {
                        continue;
                    }
                    let (wins, escape) = pulled[j];
                    let losses = open & !wins & !escape;
                    let losses = if losses != 0 && word & CAPTURE_DRAWS != 0 {
                        let board = Board {
                            red,
                            blue,
                            red_master,
                            blue_master: nth(blue, j as u32),
                        };
                        let won_after_capture = won_after_capture(captures);
                        losses & !capture_escapes(cards, &board, losses, &won_after_capture)
                    } else {
                        losses
                    };
                    let at = own.order.layout(0, i, j);
                    decided += own.decide(&mut scratch.changed, first + at, word, wins, losses);
                }
            }
        }
        decided
    }

    /// Pulls each change taken from the block (`scratch.taken`) back through every move undone
    /// into `scratch`: a new loss makes the predecessor's arrangement won, a new win makes it
    /// one to check.
    fn gather(&self, block: &Block<'_, '_>, scratch: &mut Scratch) {
        let Block {
            own,
            other,
            base,
            set,
            blue,
            ref own_free,
            ..
        } = *block;
        let (n, size) = (own.order.red, own.order.size as u32);
        let cards = self.cards;
        // Many changes: the block's opponent sets listed once, in order, instead of unranked
        // one group at a time.
        let sets = other.order.sets;
        let listed = scratch.taken.len() * 8 >= sets as usize;
        if listed {
            scratch.reds.clear();
            scratch
                .reds
                .extend(Sets::new(n as usize, set).take(sets as usize));
        }
        // Per index of the successor's mover master: blue's master's index in the task.
        let mut masters = [0u32; 8];
        for (i, master) in set_bits(set).enumerate() {
            masters[i] = place(turn(1 << master), blue);
        }
        let mut mark = |pieces: u32, master: u32, j: u32, marks: Marks| {
            let group = (rank_in(own_free, pieces) * size) as usize;
            let i = own.order.layout(group, place(master, pieces), j as usize);
            let marked = &mut scratch.marks[i];
            if *marked == Marks::default() {
                scratch.list.push((pieces, master, j, i as u32));
            }
            marked.wins |= marks.wins;
            marked.pass_wins |= marks.pass_wins;
            marked.check |= marks.check;
        };
        for &group in &scratch.taken {
            let first = base + (group * size) as usize;
            let mut pieces = 0;
            for w in 0..size {
                let index = first + w as usize;
                let pulled = other.pulled[index].load(RELAXED);
                let (won, lost) = split(other.words[index].load(RELAXED));
                let (won, lost) = (won & !pulled, lost & !pulled);
                if won | lost == 0 {
                    continue;
                }
                other.pulled[index].store(pulled | won | lost, RELAXED);
                if pieces == 0 {
                    pieces = if listed {
                        scratch.reds[group as usize]
                    } else {
                        unrank(u64::from(group), n as usize, set)
                    };
                }
                let j = masters[(w / n) as usize];
                let red = turn(pieces);
                let red_master = turn(nth(pieces, w % n));
                let empty = !(red | blue) & SQUARES;
                let mut pass = Marks::default();
                for c in 0..5 {
                    let wins = cards.pull(c, lost);
                    let check = cards.pull(c, won);
                    if wins | check == 0 {
                        continue;
                    }
                    pass.pass_wins |= wins;
                    pass.check |= check;
                    let marks = Marks {
                        wins,
                        pass_wins: 0,
                        check,
                    };
                    cards.unmoves(c, red, red_master, empty, |pieces, master| {
                        mark(pieces, master, j, marks);
                    });
                }
                if pass != Marks::default() {
                    mark(red, red_master, j, pass);
                }
            }
        }
    }

    /// Decides the layouts marked in `scratch`: returns the positions decided.
    fn evaluate(&self, block: &Block<'_, '_>, scratch: &mut Scratch) -> u64 {
        let Block {
            own,
            other,
            base,
            blue,
            ..
        } = *block;
        let cards = self.cards;
        // Many candidates: the win bits of the block copied at once (a sequential read); a win
        // written after the copy is marked, and read in the next pass.
        let size = other.order.block;
        let local = scratch.list.len() * 32 >= size;
        if local {
            scratch.block.clear();
            scratch.block.extend(
                other.words[base..base + size]
                    .iter()
                    .map(|w| w.load(RELAXED)),
            );
        }
        let block_wins = &scratch.block;
        let won_after = |at: usize| {
            if local {
                block_wins[at] as u32
            } else {
                other.words[base + at].load(RELAXED) as u32
            }
        };
        // The candidates' layouts, then their words: independent loads, issued together.
        scratch.loaded.clear();
        scratch.loaded.extend(
            scratch
                .list
                .iter()
                .map(|&(red, red_master, j, _)| (block.layout(red, red_master, j as usize), 0)),
        );
        for (layout, word) in &mut scratch.loaded {
            *word = own.words[*layout].load(RELAXED);
        }
        let captures = Captures::all(own, blue);
        let mut decided = 0;
        for (k, &(red, red_master, j, i)) in scratch.list.iter().enumerate() {
            let marks = std::mem::take(&mut scratch.marks[i as usize]);
            let (layout, word) = scratch.loaded[k];
            let (won, lost) = split(word);
            let open = ALL & !(won | lost);
            let touched = open & (marks.wins | marks.pass_wins | marks.check);
            if touched == 0 {
                continue;
            }
            let board = Board {
                red,
                blue,
                red_master,
                blue_master: nth(blue, j),
            };
            let passing = if (marks.pass_wins | marks.check) & touched != 0 {
                cards.passing[cards.movable(&board)]
            } else {
                0
            };
            let wins = open & (marks.wins | (marks.pass_wins & passing));
            let check = open & marks.check & !wins;
            let losses = if check != 0 {
                let j = j as usize;
                let won_after = |red, red_master| won_after(block.next(red, red_master, j));
                let won_after_capture = won_after_capture(&captures[j]);
                let captures = (word & CAPTURE_DRAWS != 0).then_some(&won_after_capture);
                losses(cards, &board, check, passing, won_after, captures)
            } else {
                0
            };
            decided += own.decide(&mut scratch.changed, layout, word, wins, losses);
        }
        decided
    }
}

/// What one red piece set can do against one blue set, whichever pieces are the masters: the
/// start pass's view of a group.
struct StartMoves {
    /// Per card: the squares red's pieces reach (not their own).
    attacked: [u32; 5],
    /// The cards red can move a piece with (captures included).
    movable: usize,
    /// The arrangements in which red holds a card with a quiet move.
    quiet: u32,
    /// The captures: card, from, to.
    captures: Vec<(usize, u32, u32)>,
}

impl StartMoves {
    /// What `red` can do against `blue`, in place of what was there.
    #[inline]
    fn generate(&mut self, cards: &Cards, red: u32, blue: u32) {
        self.attacked = [0; 5];
        self.movable = 0;
        self.quiet = 0;
        self.captures.clear();
        for c in 0..5 {
            for from in set_bits(red) {
                let to = cards.targets[c][0][from as usize] & !red;
                if to == 0 {
                    continue;
                }
                self.attacked[c] |= to;
                self.movable |= 1 << c;
                if to & !blue != 0 {
                    self.quiet |= cards.holds[c];
                }
                self.captures
                    .extend(set_bits(to & blue).map(|to| (c, from, to)));
            }
        }
    }
}

/// The index of the master `master` among the pieces `set` counted from the top square: the
/// successor numbers the turned pieces from the lowest square, which was the top one.
#[inline]
fn above(set: u32, master: u32) -> u32 {
    (set & !((master << 1) - 1)).count_ones()
}

/// The quiet moves of one red piece set, card by card, each as where its successors lie in the
/// block: shared by every choice of red's master.
#[derive(Default)]
struct Moves {
    /// Per card: how many quiet moves, and where they start in `list`.
    cards: [(u8, u8); 5],
    /// Per move: the first word of the successors' group in the block (the rank of red's
    /// pieces after it, as the successor's opponent set, times the group's size), and the
    /// squares from and to with the index of the moved piece in the successor ([`above`] of
    /// its square after the move).
    list: Vec<(u32, [u8; 4])>,
    /// The cards red can move a piece with (captures included).
    movable: usize,
    /// The first word of the group a pass leads into (red's pieces unmoved).
    pass: u32,
    /// Red's pieces.
    red: u32,
}

impl Moves {
    /// The quiet moves of `red` against `blue`, `size` the layouts of a group and `ranks` what
    /// a square adds to the rank of a successor's opponent set ([`Block::ranks`]): those of the
    /// cards red holds in some arrangement of `open` (the others are left out, as no open
    /// arrangement plays them). `N` is red's pieces, so that the loops over them are unrolled.
    #[inline]
    fn generate<const N: usize>(
        &mut self,
        cards: &Cards,
        red: u32,
        blue: u32,
        size: u32,
        ranks: &[[u32; 8]; 25],
        open: u32,
    ) {
        self.list.clear();
        self.movable = 0;
        self.red = red;
        // Red's pieces from the top square down, as the successor ranks them. Per piece that
        // moves: the others, and what they add to the rank when `k` of them stay above the
        // square it arrives on (the others below it count one place further down).
        let mut pieces = [0u32; N];
        let mut bits = red;
        for piece in &mut pieces {
            *piece = 31 - bits.leading_zeros();
            bits ^= 1 << *piece;
        }
        self.pass = pieces
            .iter()
            .enumerate()
            .map(|(m, &square)| ranks[square as usize][m + 1])
            .sum::<u32>()
            * size;
        let mut others = [[0u32; 4]; N];
        let mut sums = [[0u32; 5]; N];
        for f in 0..N {
            let mut o = 0;
            for (m, &square) in pieces.iter().enumerate() {
                if m != f {
                    others[f][o] = square;
                    o += 1;
                }
            }
            for k in 0..N {
                sums[f][k] = others[f][..N - 1]
                    .iter()
                    .enumerate()
                    .map(|(m, &square)| ranks[square as usize][m + 1 + usize::from(m >= k)])
                    .sum();
            }
        }
        for c in 0..5 {
            let start = self.list.len();
            let played = open & cards.holds[c] != 0;
            for f in 0..N {
                let from = pieces[f];
                let targets = cards.targets[c][0][from as usize] & !red;
                if targets != 0 {
                    self.movable |= 1 << c;
                }
                if !played {
                    continue;
                }
                for to in set_bits(targets & !blue) {
                    // The moved piece's index in the successor: the others above its square.
                    let k = others[f][..N - 1].iter().filter(|&&q| q > to).count();
                    let rank = sums[f][k] + ranks[to as usize][k + 1];
                    self.list
                        .push((rank * size, [from as u8, to as u8, k as u8, 0]));
                }
            }
            self.cards[c] = (start as u8, (self.list.len() - start) as u8);
        }
    }

    /// What the moves and the pass make of the open arrangements of the layouts of red's
    /// generated pieces with the master the `i`-th (lowest square first): `open[j]` those of
    /// the layout whose blue master is its `j`-th piece, `word(at)` the successor's word at
    /// local number `at` of `block`. Per blue master: the arrangements won (a move into a
    /// loss) and those that escape (a move into a position not won by the opponent). The
    /// successors of one move for each blue master lie in one group, read together; moves of
    /// one card are gathered before they are pulled back: a card's pull is a map of bits, so
    /// it commutes with `|`. `NB` is blue's pieces, so that the loops over blue's masters
    /// are unrolled and their words kept in registers.
    #[inline]
    fn pulled<const NB: usize>(
        &self,
        cards: &Cards,
        i: usize,
        open: &[u32; 8],
        word: impl Fn(usize) -> u64,
        block: &Block<'_, '_>,
    ) -> [(u32, u32); 8] {
        let offsets: [u32; NB] = std::array::from_fn(|j| block.offsets[j]);
        let any = open.iter().fold(0, |any, &open| any | open);
        let mut out = [(0u32, 0u32); 8];
        // The master's square, and its index in a successor where another piece moved: the
        // pieces above it, less the one that left from above it, plus the one that arrived
        // above it.
        let master = nth(self.red, i as u32).trailing_zeros() as u8;
        let unmoved = above(self.red, 1 << master);
        for c in 0..5 {
            let (start, count) = self.cards[c];
            if any & cards.holds[c] == 0 || count == 0 {
                continue;
            }
            // Whole words OR-ed (the losses in the high half) and AND-ed (the wins in the low
            // half), split once the card's moves are read.
            let (mut any_word, mut all_word) = ([0u64; NB], [u64::MAX; NB]);
            for &(base, [from, to, to_above, _]) in
                &self.list[usize::from(start)..usize::from(start + count)]
            {
                let index = if from == master {
                    u32::from(to_above)
                } else {
                    unmoved + u32::from(to > master) - u32::from(from > master)
                };
                let at = base + index;
                for (j, &offset) in offsets.iter().enumerate() {
                    let word = word((at + offset) as usize);
                    any_word[j] |= word;
                    all_word[j] &= word;
                }
            }
            for j in 0..NB {
                if open[j] & cards.holds[c] != 0 {
                    let (_, lost_any) = split(any_word[j]);
                    let (won_all, _) = split(all_word[j]);
                    out[j].0 |= cards.pull(c, lost_any);
                    out[j].1 |= cards.pull(c, ALL & !won_all);
                }
            }
        }
        let passing = cards.passing[self.movable];
        if passing & any != 0 {
            let at = self.pass + unmoved;
            for (j, &offset) in offsets.iter().enumerate() {
                if passing & open[j] == 0 {
                    continue;
                }
                let (won, lost) = split(word((at + offset) as usize));
                for c in 0..5 {
                    out[j].0 |= cards.pull(c, lost) & passing;
                    out[j].1 |= cards.pull(c, ALL & !won) & passing;
                }
            }
        }
        for (out, &open) in out.iter_mut().zip(open) {
            *out = (out.0 & open, out.1 & open);
        }
        out
    }
}

/// The arrangements of `check` that a capture of a student saves (leads into a position not
/// won by the opponent: `won_after_capture(board, from, to)` gives its win bits); taking the
/// master wins, so such an arrangement is never open.
fn capture_escapes(
    cards: &Cards,
    board: &Board,
    check: u32,
    won_after_capture: &impl Fn(&Board, u32, u32) -> u32,
) -> u32 {
    let mut escape = 0u32;
    for c in 0..5 {
        if check & cards.holds[c] & !escape == 0 {
            continue;
        }
        for from in set_bits(board.red) {
            let to = cards.targets[c][0][from as usize] & board.blue & !board.blue_master;
            for to in set_bits(to) {
                let won = won_after_capture(board, from, to);
                escape |= cards.pull(c, ALL & !won);
            }
        }
    }
    escape & check
}

/// The arrangements of `check` whose every move and pass leads into a win of the opponent
/// (`won_after`: the win bits after red's pieces are as given, by a quiet move;
/// `won_after_capture`: after a capture, as in [`capture_escapes`], `None` when no capture
/// can save an open arrangement, [`CAPTURE_DRAWS`]); `passing` the arrangements in which red
/// must pass.
fn losses(
    cards: &Cards,
    board: &Board,
    check: u32,
    passing: u32,
    won_after: impl Fn(u32, u32) -> u32,
    won_after_capture: Option<&impl Fn(&Board, u32, u32) -> u32>,
) -> u32 {
    let mut escape = 0u32;
    let pass = check & passing;
    if pass != 0 {
        let won = won_after(board.red, board.red_master) & ALL;
        for c in 0..5 {
            escape |= cards.pull(c, ALL & !won) & pass;
        }
    }
    let check = check & !passing;
    'cards: for c in 0..5 {
        if check & cards.holds[c] & !escape == 0 {
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
                escape |= cards.pull(c, ALL & !won_after(red, red_master));
                if check & !escape == 0 {
                    break 'cards;
                }
            }
        }
    }
    // Left unescaped by the quiet moves: a capture of a student may still save it.
    if let Some(won_after_capture) = won_after_capture
        && check & !escape != 0
    {
        escape |= capture_escapes(cards, board, check & !escape, won_after_capture);
    }
    (check | pass) & !escape
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Card;

    /// Every quiet move [`Moves::generate`] lists, for red sets of one to five pieces (four
    /// students and the master), points at the successor's group and master index as the
    /// numbering module ranks them: red's pieces after the move, turned round, among the squares
    /// blue's (turned round) leave, and the moved piece's place among them.
    #[test]
    fn every_generated_move_leads_to_the_successor_ranked_from_scratch() {
        fn check<const N: usize>(cards: &Cards, seed: &mut u64) {
            let mut next = |below: u32| {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                (*seed % u64::from(below)) as u32
            };
            let mut pick = |count: usize, taken: u32| {
                let mut set = 0u32;
                while (set.count_ones() as usize) < count {
                    let square = next(25);
                    if (set | taken) & 1 << square == 0 {
                        set |= 1 << square;
                    }
                }
                set
            };
            for _ in 0..200 {
                let red = pick(N, 0);
                let blue = pick(1 + (red.count_ones() as usize % 5), red);
                let ranks = rank_terms(turn(blue));
                let size = 7;
                let mut moves = Moves::default();
                moves.generate::<N>(cards, red, blue, size, &ranks, ALL);
                let ranked = |red: u32| rank(turn(red), turn(blue)) as u32 * size;
                assert_eq!(moves.pass, ranked(red));
                let mut listed: Vec<(u32, [u8; 4])> = moves.list.clone();
                let mut expected = Vec::new();
                for c in 0..5 {
                    for from in set_bits(red) {
                        let targets = cards.targets[c][0][from as usize] & !red & !blue;
                        for to in set_bits(targets) {
                            let after = red ^ 1 << from ^ 1 << to;
                            let index = place(turn(1 << to), turn(after)) as u8;
                            expected.push((ranked(after), [from as u8, to as u8, index, 0]));
                        }
                    }
                }
                listed.sort_unstable();
                expected.sort_unstable();
                assert_eq!(listed, expected, "red {red:#x} blue {blue:#x}");
            }
        }
        let deal = ["ox", "boar", "horse", "elephant", "crab"]
            .map(|name| Card::parse(name).expect("a card"));
        let cards = Cards::new(deal);
        let mut seed = 0x9e37_79b9_7f4a_7c15;
        check::<1>(&cards, &mut seed);
        check::<2>(&cards, &mut seed);
        check::<3>(&cards, &mut seed);
        check::<4>(&cards, &mut seed);
        check::<5>(&cards, &mut seed);
    }

    /// The solver's number of every layout, reordered for the files, lands on the layout's
    /// number in the files ([`Material::layout`], independent code).
    #[test]
    fn the_solver_order_turns_into_the_files_order() {
        for (red, blue) in [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (0, 3)] {
            let material = Material::new(red, blue);
            let order = Order::new(material);
            let layouts = material.layouts();
            let mut words = vec![u64::MAX; layouts as usize];
            for layout in 0..layouts as u32 {
                let board = material.board(layout);
                let at = order.layout(
                    order.group(board.red, board.blue),
                    place(board.red_master, board.red),
                    place(board.blue_master, board.blue) as usize,
                );
                assert_eq!(words[at], u64::MAX, "{red}v{blue}: two layouts at {at}");
                words[at] = u64::from(layout);
            }
            order.reorder_for_files(&mut words);
            for (at, &word) in words.iter().enumerate() {
                assert_eq!(word, at as u64, "{red}v{blue}: layout {at}");
            }
        }
    }
}
