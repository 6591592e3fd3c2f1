//! The fast solver of one deal's tables: every position with red to move (blue to move is the
//! same position turned round, see [`super::DealTables`]), the 30 card arrangements of a piece
//! layout solved together as the bits of one word, by retrograde analysis ply by ply.
//!
//! Numbering of a material (`red` and `blue` students): a layout is
//! `((red master * 24 + blue master among the other 24) * C(23, blue) + blue students' rank)
//! * C(23 - blue, red) + red students' rank` (ranks in the combinatorial number system over the
//! squares left), and a position is `layout * 30 + arrangement`.
//!
//! A red move from material `(a, b)` turns, seen from blue (the board turned round and the
//! colours swapped), into a red-to-move position of `(b, a)`, or of `(b - 1, a)` after a capture.
//! So `(a, b)` and `(b, a)` are solved together, after every smaller material.
//!
//! Key invariant: at step `k` every position won or lost in at most `k` plies is decided and
//! nothing else; step `k` first decides the losses in `k + 1` (predecessors of the wins in `k`
//! whose every move now leads to a win of the opponent in at most `k`), then the wins in
//! `k + 1` (predecessors of the losses in `k`). The win words hold exactly the wins of at most
//! `k` plies while the losses are checked, so the result does not depend on the thread count.

use std::sync::atomic::{AtomicU8, AtomicU32, Ordering::Relaxed};

use plies::bits::set_bits;
use plies::solve::{MAX_LOSS, MAX_WIN, Table, TableError, TableValue};
use rayon::prelude::*;

use super::numbering::{CHOOSE, rank, unrank};
use crate::card::{Card, TARGETS};
use crate::state::{BLUE_TEMPLE, RED_TEMPLE};

/// All 30 arrangements.
const ALL: u32 = (1 << 30) - 1;
/// Frontier items handed to a thread at a time.
const CHUNK: usize = 1024;

/// The five dealt cards and what the solver needs of them.
pub(super) struct Cards {
    /// Red's hand per arrangement (a bit set over the deal's card indices).
    hands: [u8; 30],
    /// `by_hands[red hand][blue hand]`: the arrangement, 255 for none.
    by_hands: [[u8; 32]; 32],
    /// `next[a][c]`: the arrangement after red plays card `c` in arrangement `a`, seen from blue
    /// (hands swapped), or 255 when red does not hold `c`.
    pub(super) next: [[u8; 5]; 30],
    /// `pull[c][byte][v]`: the arrangements `a` whose `next[a][c]` is among the bits `v` of
    /// byte `byte` of a word.
    pull: Box<[[[u32; 256]; 4]; 5]>,
    /// The arrangements in which red holds card `c`.
    pub(super) holds: [u32; 5],
    /// `passing[m]`: the arrangements in which red holds none of the cards of the set `m` (the
    /// cards red can move a piece with): red must pass there.
    pub(super) passing: [u32; 32],
    /// `targets[c][side][square]`.
    pub(super) targets: [[[u32; 25]; 2]; 5],
}

impl Cards {
    /// The tables of a deal, cards in the order given.
    pub(super) fn new(deal: [Card; 5]) -> Cards {
        let mut arrangements = [(0, 0, 0); 30];
        let mut by_hands = [[255u8; 32]; 32];
        let mut n = 0;
        for red in 0u8..32 {
            for blue in 0u8..32 {
                if red.count_ones() != 2 || blue.count_ones() != 2 || red & blue != 0 {
                    continue;
                }
                let side = (!(red | blue) & 31).trailing_zeros() as u8;
                arrangements[n] = (red, blue, side);
                by_hands[red as usize][blue as usize] = n as u8;
                n += 1;
            }
        }
        debug_assert_eq!(n, 30);
        let mut next = [[255u8; 5]; 30];
        let mut holds = [0u32; 5];
        for (a, &(red, blue, side)) in arrangements.iter().enumerate() {
            for c in 0..5 {
                if red & (1 << c) != 0 {
                    holds[c] |= 1 << a;
                    let kept = red & !(1 << c) | (1 << side);
                    next[a][c] = by_hands[blue as usize][kept as usize];
                }
            }
        }
        let mut pull = Box::new([[[0u32; 256]; 4]; 5]);
        for (a, row) in next.iter().enumerate() {
            for (c, &to) in row.iter().enumerate() {
                if to == 255 {
                    continue;
                }
                let (byte, bit) = (usize::from(to / 8), to % 8);
                for v in 0..256 {
                    if v & (1 << bit) != 0 {
                        pull[c][byte][v] |= 1 << a;
                    }
                }
            }
        }
        let mut passing = [0u32; 32];
        for (m, word) in passing.iter_mut().enumerate() {
            for (a, &(red, _, _)) in arrangements.iter().enumerate() {
                if usize::from(red) & m == 0 {
                    *word |= 1 << a;
                }
            }
        }
        let targets = deal.map(|card| TARGETS[card.id()]);
        Cards {
            hands: arrangements.map(|(red, _, _)| red),
            by_hands,
            next,
            pull,
            holds,
            passing,
            targets,
        }
    }

    /// The arrangement of the given hands (bit sets over the deal's card indices).
    pub(super) fn arrangement(&self, red: u8, blue: u8) -> Option<usize> {
        let a = *self
            .by_hands
            .get(usize::from(red))?
            .get(usize::from(blue))?;
        (a != 255).then_some(usize::from(a))
    }

    /// The two cards of red's hand in arrangement `a`.
    #[inline]
    pub(super) fn hand(&self, a: usize) -> (usize, usize) {
        let red = self.hands[a];
        let first = red.trailing_zeros() as usize;
        (first, (red & (red - 1)).trailing_zeros() as usize)
    }

    /// The arrangements `a` in which red plays `c` into one of the arrangements `bits`.
    #[inline]
    pub(super) fn pull(&self, c: usize, bits: u32) -> u32 {
        let t = &self.pull[c];
        t[0][(bits & 255) as usize]
            | t[1][((bits >> 8) & 255) as usize]
            | t[2][((bits >> 16) & 255) as usize]
            | t[3][(bits >> 24) as usize]
    }

    /// Every quiet move of card `c` undone from red's pieces `red` (master `red_master`) into
    /// the empty squares `empty`: `undone(pieces, master)` gets red's pieces and master before
    /// the move.
    #[inline]
    pub(super) fn unmoves(
        &self,
        c: usize,
        red: u32,
        red_master: u32,
        empty: u32,
        mut undone: impl FnMut(u32, u32),
    ) {
        let back = &self.targets[c][1];
        for to in set_bits(red) {
            let to_bit = 1u32 << to;
            for from in set_bits(back[to as usize] & empty) {
                let from_bit = 1u32 << from;
                let master = if red_master == to_bit {
                    from_bit
                } else {
                    red_master
                };
                undone(red ^ to_bit ^ from_bit, master);
            }
        }
    }

    /// The cards red can move some piece with (a set over the deal's indices).
    #[inline]
    pub(super) fn movable(&self, board: &Board) -> usize {
        let mut m = 0;
        for c in 0..5 {
            let t = &self.targets[c][0];
            if set_bits(board.red).any(|s| t[s as usize] & !board.red != 0) {
                m |= 1 << c;
            }
        }
        m
    }
}

/// A board with red to move: all pieces and the masters of each side (bit sets of squares).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) struct Board {
    pub(super) red: u32,
    pub(super) blue: u32,
    pub(super) red_master: u32,
    pub(super) blue_master: u32,
}

/// A square set turned round (a1 to e5).
#[inline]
fn turn(bits: u32) -> u32 {
    bits.reverse_bits() >> 7
}

impl Board {
    /// The board after red's pieces are as given and blue's lost `captured`, seen by blue:
    /// turned round, colours swapped, so that red (the old blue) is to move.
    #[inline]
    fn seen_by_blue(&self, red: u32, red_master: u32, captured: u32) -> Board {
        Board {
            red: turn(self.blue & !captured),
            blue: turn(red),
            red_master: turn(self.blue_master),
            blue_master: turn(red_master),
        }
    }

    /// Blue's master on red's temple (blue has won), red's on blue's (red has won).
    #[inline]
    fn finished(&self) -> (bool, bool) {
        (
            self.blue_master == RED_TEMPLE,
            self.red_master == BLUE_TEMPLE,
        )
    }
}

/// A material: how many students each side has, and the size of its numbering.
///
/// A layout is `mover * opponents + opponent`: `mover` numbers red's pieces (the set of its
/// `red + 1` squares among 25, ranked, times `red + 1`, plus which of them is the master) and
/// `opponent` blue's the same way among the squares red leaves. Mover-outer: every successor of
/// the layouts with one blue set (the red move leaves blue's pieces, which are the mover's after
/// the turn) lies in one block of `opponents` layouts of the mirror material.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) struct Material {
    pub(super) red: u8,
    pub(super) blue: u8,
    /// Red's piece sets with the master marked: `C(25, red + 1) * (red + 1)`.
    pub(super) movers: u32,
    /// Blue's, among the squares red leaves: `C(24 - red, blue + 1) * (blue + 1)`.
    pub(super) opponents: u32,
}

/// The index of the piece `one` (a single bit) among the pieces `set`, lowest square first.
#[inline]
pub(super) fn place(one: u32, set: u32) -> u32 {
    (set & one.wrapping_sub(1)).count_ones()
}

/// The `n`-th lowest set bit of `set`, as a single bit.
#[inline]
pub(super) fn nth(mut set: u32, n: u32) -> u32 {
    for _ in 0..n {
        set &= set - 1;
    }
    set & set.wrapping_neg()
}

impl Material {
    pub(super) fn new(red: u8, blue: u8) -> Material {
        let (r, b) = (usize::from(red), usize::from(blue));
        Material {
            red,
            blue,
            movers: (CHOOSE[25][r + 1] * (r as u64 + 1)) as u32,
            opponents: (CHOOSE[24 - r][b + 1] * (b as u64 + 1)) as u32,
        }
    }

    /// The number of layouts.
    pub(super) fn layouts(&self) -> u64 {
        u64::from(self.movers) * u64::from(self.opponents)
    }

    /// The number of red's pieces `set` with its master `master` (see [`Material`]).
    #[inline]
    pub(super) fn mover(&self, set: u32, master: u32) -> u32 {
        rank(set, 0) as u32 * (u32::from(self.red) + 1) + place(master, set)
    }

    /// Red's pieces and master of mover number `mover`.
    #[inline]
    pub(super) fn mover_pieces(&self, mover: u32) -> (u32, u32) {
        let n = u32::from(self.red) + 1;
        let set = unrank(u64::from(mover / n), n as usize, 0);
        (set, nth(set, mover % n))
    }

    /// The layout number of `board` (which must have this material).
    #[inline]
    pub(super) fn layout(&self, board: &Board) -> u32 {
        let opponent = rank(board.blue, board.red) as u32 * (u32::from(self.blue) + 1)
            + place(board.blue_master, board.blue);
        self.mover(board.red, board.red_master) * self.opponents + opponent
    }

    /// The board of layout `layout`.
    #[inline]
    pub(super) fn board(&self, layout: u32) -> Board {
        let (red, red_master) = self.mover_pieces(layout / self.opponents);
        let opponent = layout % self.opponents;
        let n = u32::from(self.blue) + 1;
        let blue = unrank(u64::from(opponent / n), n as usize, red);
        Board {
            red,
            blue,
            red_master,
            blue_master: nth(blue, opponent % n),
        }
    }
}

/// A material being solved: distances, and the arrangements decided as wins and as losses
/// (both for a hole).
struct Work {
    material: Material,
    /// Per position: its distance to the end once decided.
    values: Vec<AtomicU8>,
    wins: Vec<AtomicU32>,
    losses: Vec<AtomicU32>,
    /// Per position: the moves inside the group not yet known to lose ([`NEVER`] when a
    /// capture does not lose: the position is never lost).
    remaining: Vec<AtomicU8>,
}

/// A move count that never reaches 0 (a position has at most 40 moves).
const NEVER: u8 = u8::MAX;

/// What a position's captures (its moves out of the group) are worth, per arrangement.
struct Captures {
    /// The shortest win by a capture, `u32::MAX` if none.
    best_win: [u32; 30],
    /// The longest of the opponent's wins after a capture (0 if none).
    longest_loss: [u32; 30],
    /// Arrangements with a capture that is a draw.
    drawn: u32,
}

/// Arrangements of layouts: per material of the group, `(layout, arrangements)`.
type Frontier = Vec<Vec<(u32, u32)>>;

/// Frontiers by step (for values known before their step comes).
type Pending = Vec<Frontier>;

/// What a build step reports.
pub(super) struct Step {
    /// The step: positions up to this many plies from the end are decided.
    pub(super) plies: u32,
    /// Positions decided in this step.
    pub(super) decided: u64,
}

/// Solves `group` (one material, or a material and its mirror `(b, a)`), with `solved` giving
/// the table of a smaller material, on the current rayon pool.
/// Returns the tables of the group in its order.
pub(super) fn solve_group<'a>(
    cards: &Cards,
    group: &[Material],
    solved: &dyn Fn(Material) -> &'a Table,
    pool: Option<&rayon::ThreadPool>,
    progress: &mut dyn FnMut(Step),
) -> Result<Vec<Table>, TableError> {
    let works: Vec<Work> = group
        .iter()
        .map(|&material| {
            let layouts = material.layouts() as usize;
            Work {
                material,
                values: (0..layouts * 30).map(|_| AtomicU8::new(0)).collect(),
                wins: (0..layouts).map(|_| AtomicU32::new(0)).collect(),
                losses: (0..layouts).map(|_| AtomicU32::new(0)).collect(),
                remaining: (0..layouts * 30).map(|_| AtomicU8::new(0)).collect(),
            }
        })
        .collect();
    let places = group
        .iter()
        .map(|m| {
            let mirror = group
                .iter()
                .position(|g| g.red == m.blue && g.blue == m.red)
                .expect("a group holds the mirror of each of its materials");
            let capture = (m.blue > 0).then(|| {
                let material = Material::new(m.blue - 1, m.red);
                (material, solved(material))
            });
            (mirror, capture)
        })
        .collect();
    let longest = GroupSolver {
        cards,
        works: &works,
        places,
        pool,
    }
    .run(progress)?;
    let mut tables = Vec::new();
    for mut work in works {
        work.remaining = Vec::new();
        let value = |index: u64| {
            let (layout, a) = ((index / 30) as usize, index % 30);
            let won = work.wins[layout].load(Relaxed) & (1 << a) != 0;
            let lost = work.losses[layout].load(Relaxed) & (1 << a) != 0;
            let d = u32::from(work.values[index as usize].load(Relaxed));
            match (won, lost) {
                (true, true) => None,
                (true, false) => Some(TableValue::Win(d)),
                (false, true) => Some(TableValue::Loss(d)),
                (false, false) => Some(TableValue::Draw),
            }
        };
        let size = work.material.layouts() * 30;
        let table = if longest <= MAX_WIN.min(MAX_LOSS) {
            // One byte a position, every entry fits: converted on the pool.
            let convert = || -> Vec<u8> {
                (0..size)
                    .into_par_iter()
                    .map(|i| Table::entry(value(i)).expect("a distance that fits"))
                    .collect()
            };
            Table::from_entries(match pool {
                Some(pool) => pool.install(convert),
                None => convert(),
            })
        } else {
            Table::from_values(size, &value)?
        };
        tables.push(table);
    }
    Ok(tables)
}

struct GroupSolver<'a> {
    cards: &'a Cards,
    works: &'a [Work],
    /// Per material of the group: where its moves lead (the mirror material in the group) and
    /// where its captures lead (a solved smaller material), from the mover's opponent's view.
    places: Vec<(usize, Option<(Material, &'a Table)>)>,
    /// The pool to run on (the global one when `None`).
    pool: Option<&'a rayon::ThreadPool>,
}

fn empty(groups: usize) -> Frontier {
    vec![Vec::new(); groups]
}

fn merge(into: &mut Frontier, from: Frontier) {
    for (i, f) in into.iter_mut().zip(from) {
        i.extend(f);
    }
}

fn count(f: &Frontier) -> u64 {
    f.iter()
        .flatten()
        .map(|&(_, bits)| u64::from(bits.count_ones()))
        .sum()
}

fn add(into: &mut Pending, from: Pending, groups: usize) {
    if into.len() < from.len() {
        into.resize_with(from.len(), || empty(groups));
    }
    for (i, f) in into.iter_mut().zip(from) {
        merge(i, f);
    }
}

fn take(pending: &mut Pending, step: u32) -> Option<Frontier> {
    pending.get_mut(step as usize).map(std::mem::take)
}

impl GroupSolver<'_> {
    /// Runs `f` in the solver's pool.
    fn par<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match self.pool {
            Some(pool) => pool.install(f),
            None => f(),
        }
    }

    /// Solves the group; returns the longest distance decided.
    fn run(&self, progress: &mut dyn FnMut(Step)) -> Result<u32, TableError> {
        let groups = self.works.len();
        // Step 0: finished positions, and the value of every move that leaves the group.
        let (mut lost, mut pending_wins, mut pending_losses) = self.start();
        let mut won = empty(groups);
        progress(Step {
            plies: 0,
            decided: count(&lost),
        });
        let mut k = 0u32;
        loop {
            let later = |p: &Pending| p.iter().skip(k as usize).any(|f| count(f) > 0);
            if count(&won) == 0
                && count(&lost) == 0
                && !later(&pending_wins)
                && !later(&pending_losses)
            {
                return Ok(k);
            }
            // Losses first (they read the win words; wins in k + 1 are not losses in k + 1).
            let known = take(&mut pending_losses, k).unwrap_or_else(|| empty(groups));
            let (new_lost, later_losses) = self.losses(&won, &known, k)?;
            add(&mut pending_losses, later_losses, groups);
            let pending = take(&mut pending_wins, k + 1).unwrap_or_else(|| empty(groups));
            let new_won = self.wins(&lost, &pending, k)?;
            won = new_won;
            lost = new_lost;
            // In layout order, neighbours have their predecessors close together.
            self.par(|| {
                for list in won.iter_mut().chain(lost.iter_mut()) {
                    list.par_sort_unstable();
                }
            });
            k += 1;
            progress(Step {
                plies: k,
                decided: count(&won) + count(&lost),
            });
        }
    }

    /// Runs `f` on every item of `items` on the rayon pool; collects what it outputs.
    fn each(
        &self,
        items: &Frontier,
        f: &(dyn Fn(usize, u32, u32, &mut Frontier) + Sync),
    ) -> Frontier {
        let groups = self.works.len();
        let tasks: Vec<(usize, &[(u32, u32)])> = items
            .iter()
            .enumerate()
            .flat_map(|(w, list)| list.chunks(CHUNK).map(move |c| (w, c)))
            .collect();
        let parts: Vec<Frontier> = self.par(|| {
            tasks
                .par_iter()
                .map(|&(w, chunk)| {
                    let mut out = empty(groups);
                    for &(layout, bits) in chunk {
                        f(w, layout, bits, &mut out);
                    }
                    out
                })
                .collect()
        });
        let mut out = empty(groups);
        for part in parts {
            merge(&mut out, part);
        }
        out
    }

    /// Decides the finished positions (the losses in 0 are returned) and notes the value of
    /// every capture (moves that leave the group): wins pending by their step, and loss checks
    /// due at the step of the longest capture that loses.
    fn start(&self) -> (Frontier, Pending, Pending) {
        let groups = self.works.len();
        let mut lost = empty(groups);
        let mut wins = Pending::new();
        let mut losses = Pending::new();
        for w in 0..groups {
            let layouts = self.works[w].material.layouts() as u32;
            let span = (CHUNK * 16) as u32;
            let starts: Vec<u32> = (0..layouts).step_by(span as usize).collect();
            let parts: Vec<(Frontier, Pending, Pending)> = self.par(|| {
                starts
                    .par_iter()
                    .map(|&start| {
                        let mut lost = empty(groups);
                        let mut wins = Pending::new();
                        let mut losses = Pending::new();
                        for layout in start..start.saturating_add(span).min(layouts) {
                            self.start_layout(w, layout, &mut lost, &mut wins, &mut losses);
                        }
                        (lost, wins, losses)
                    })
                    .collect()
            });
            for (l, pw, pc) in parts {
                merge(&mut lost, l);
                add(&mut wins, pw, groups);
                add(&mut losses, pc, groups);
            }
        }
        (lost, wins, losses)
    }

    fn start_layout(
        &self,
        w: usize,
        layout: u32,
        lost: &mut Frontier,
        wins: &mut Pending,
        losses: &mut Pending,
    ) {
        let groups = self.works.len();
        let work = &self.works[w];
        let board = work.material.board(layout);
        let l = layout as usize;
        // (Finished positions are decided in 0 plies: their distances stay 0.)
        match board.finished() {
            (true, true) => {
                // A hole: never a predecessor nor a successor; both words full mark it.
                work.wins[l].store(ALL, Relaxed);
                work.losses[l].store(ALL, Relaxed);
                return;
            }
            (true, false) => {
                work.losses[l].store(ALL, Relaxed);
                lost[w].push((layout, ALL));
                return;
            }
            (false, true) => {
                // Not reachable by play (red moved last), but finished: a win in 0. Its
                // predecessors would all be finished positions, so it tells no one.
                work.wins[l].store(ALL, Relaxed);
                return;
            }
            (false, false) => {}
        }
        let captures = self.captures(w, &board);
        // The moves inside the group, per card; the cards red can move with at all.
        let mut quiet = [0u8; 5];
        let mut movable = 0usize;
        for (c, count) in quiet.iter_mut().enumerate() {
            let targets = &self.cards.targets[c][0];
            for from in set_bits(board.red) {
                let to = targets[from as usize] & !board.red;
                *count += (to & !board.blue).count_ones() as u8;
                if to != 0 {
                    movable |= 1 << c;
                }
            }
        }
        let passing = self.cards.passing[movable];
        let note = |into: &mut Pending, step: u32, bit: u32| {
            let step = step as usize;
            if into.len() <= step {
                into.resize_with(step + 1, || empty(groups));
            }
            match into[step][w].last_mut() {
                Some((last, bits)) if *last == layout => *bits |= bit,
                _ => into[step][w].push((layout, bit)),
            }
        };
        for a in 0..30 {
            let bit = 1u32 << a;
            let count = if captures.best_win[a] != u32::MAX {
                note(wins, captures.best_win[a], bit);
                NEVER
            } else if captures.drawn & bit != 0 {
                NEVER
            } else if passing & bit != 0 {
                2
            } else {
                let (c1, c2) = self.cards.hand(a);
                quiet[c1] + quiet[c2]
            };
            if count == 0 {
                // Every move is a capture and loses: lost after the longest.
                note(losses, captures.longest_loss[a], bit);
            }
            work.remaining[l * 30 + a].store(count, Relaxed);
        }
    }

    /// The value of each capture of `board` (material `w`) per arrangement.
    fn captures(&self, w: usize, board: &Board) -> Captures {
        let mut captures = Captures {
            best_win: [u32::MAX; 30],
            longest_loss: [0; 30],
            drawn: 0,
        };
        let capture = self.places[w].1;
        for c in 0..5 {
            let targets = &self.cards.targets[c][0];
            let holds = self.cards.holds[c];
            for from in set_bits(board.red) {
                for to in set_bits(targets[from as usize] & board.blue) {
                    let to_bit = 1u32 << to;
                    if to_bit == board.blue_master {
                        for a in set_bits(holds) {
                            captures.best_win[a as usize] = 1;
                        }
                        continue;
                    }
                    let (material, table) = capture.expect("a student to capture");
                    let next = self.after(board, from, to, to_bit);
                    let base = u64::from(material.layout(&next)) * 30;
                    for a in set_bits(holds) {
                        let a = a as usize;
                        match table.value(base + u64::from(self.cards.next[a][c])) {
                            Some(TableValue::Loss(d)) => {
                                captures.best_win[a] = captures.best_win[a].min(d + 1);
                            }
                            Some(TableValue::Win(d)) => {
                                captures.longest_loss[a] = captures.longest_loss[a].max(d);
                            }
                            _ => captures.drawn |= 1 << a,
                        }
                    }
                }
            }
        }
        captures
    }

    /// The board after red moves the piece on `from` to `to` (capturing what is in `captured`),
    /// seen by blue.
    #[inline]
    fn after(&self, board: &Board, from: u32, to: u32, captured: u32) -> Board {
        let (from_bit, to_bit) = (1u32 << from, 1u32 << to);
        let red = board.red & !from_bit | to_bit;
        let master = if board.red_master == from_bit {
            to_bit
        } else {
            board.red_master
        };
        board.seen_by_blue(red, master, captured)
    }

    /// Calls `f(material, layout, board, arrangements)` for every predecessor of the
    /// arrangements `bits` of `board` (material `w`): the positions with a red move (not a
    /// capture) or a pass that leads there, with the arrangements that do.
    fn predecessors(
        &self,
        w: usize,
        board: &Board,
        bits: u32,
        f: &mut dyn FnMut(usize, u32, &Board, u32),
    ) {
        let pw = self.places[w].0;
        let material = self.works[pw].material;
        // The board just after red's move, from red's side (blue to move).
        let after = Board {
            red: turn(board.blue),
            blue: turn(board.red),
            red_master: turn(board.blue_master),
            blue_master: turn(board.red_master),
        };
        if after.blue_master == RED_TEMPLE {
            // Blue had won before red's move.
            return;
        }
        let empty = !(after.red | after.blue) & ((1 << 25) - 1);
        for c in 0..5 {
            let pulled = self.cards.pull(c, bits);
            if pulled == 0 {
                continue;
            }
            let back = &self.cards.targets[c][1];
            for to in set_bits(after.red) {
                let to_bit = 1u32 << to;
                let is_master = to_bit == after.red_master;
                for from in set_bits(back[to as usize] & empty) {
                    let from_bit = 1u32 << from;
                    if is_master && from_bit == BLUE_TEMPLE {
                        // Red had won before this move.
                        continue;
                    }
                    let before = Board {
                        red: after.red & !to_bit | from_bit,
                        red_master: if is_master {
                            from_bit
                        } else {
                            after.red_master
                        },
                        ..after
                    };
                    f(pw, material.layout(&before), &before, pulled);
                }
            }
        }
        // Passes: red could move no piece, with either card of its hand.
        if after.red_master == BLUE_TEMPLE {
            return;
        }
        let passing = self.cards.passing[self.cards.movable(&after)];
        if passing == 0 {
            return;
        }
        let layout = material.layout(&after);
        for c in 0..5 {
            let pulled = self.cards.pull(c, bits) & passing;
            if pulled != 0 {
                f(pw, layout, &after, pulled);
            }
        }
    }

    /// Marks the arrangements `bits` of `layout` (material `w`) as wins (`win`) or losses at
    /// the distance `entry` (`None`: too long, reported after the step); those not marked
    /// before go to `out`.
    fn mark(
        &self,
        w: usize,
        layout: u32,
        bits: u32,
        win: bool,
        entry: Option<u8>,
        out: &mut Frontier,
    ) {
        let work = &self.works[w];
        let l = layout as usize;
        let words = if win { &work.wins } else { &work.losses };
        let new = bits & !words[l].fetch_or(bits, Relaxed);
        if new == 0 {
            return;
        }
        if let Some(byte) = entry {
            for a in set_bits(new) {
                work.values[l * 30 + a as usize].store(byte, Relaxed);
            }
        }
        out[w].push((layout, new));
    }

    /// The wins in `k + 1`: predecessors of `lost` (the losses in `k`) and `pending`.
    fn wins(&self, lost: &Frontier, pending: &Frontier, k: u32) -> Result<Frontier, TableError> {
        let entry = u8::try_from(k + 1).ok().filter(|&d| d < u8::MAX);
        let decide = |w: usize, layout: u32, bits: u32, out: &mut Frontier| {
            let bits = bits & !self.works[w].losses[layout as usize].load(Relaxed);
            self.mark(w, layout, bits, true, entry, out);
        };
        let mut out = self.each(pending, &|w, layout, bits, out| {
            decide(w, layout, bits, out)
        });
        let more = self.each(lost, &|w, layout, bits, out| {
            let board = self.works[w].material.board(layout);
            self.predecessors(w, &board, bits, &mut |pw, p_layout, _, p_bits| {
                decide(pw, p_layout, p_bits, out);
            });
        });
        merge(&mut out, more);
        too_long(&out, entry, k + 1)?;
        Ok(out)
    }

    /// The losses in `k + 1`: `pending` (positions whose every move is known to lose, the
    /// longest in `k` plies), and the predecessors of `won` (the wins in `k`) whose last move
    /// not known to lose this was. Those whose longest losing capture is longer are returned
    /// apart, by the step of that capture.
    fn losses(
        &self,
        won: &Frontier,
        pending: &Frontier,
        k: u32,
    ) -> Result<(Frontier, Pending), TableError> {
        let groups = self.works.len();
        let entry = u8::try_from(k + 1).ok().filter(|&d| d < u8::MAX);
        let decide = |w: usize, layout: u32, bits: u32, out: &mut Frontier| {
            self.mark(w, layout, bits, false, entry, out);
        };
        let mut out = self.each(pending, &|w, layout, bits, out| {
            let work = &self.works[w];
            let bits = bits & !work.wins[layout as usize].load(Relaxed);
            decide(w, layout, bits, out);
        });
        // Positions lost only after a longer capture: (step, material, layout, arrangements).
        let later = std::sync::Mutex::new(Vec::new());
        let more = self.each(won, &|w, layout, bits, out| {
            let board = self.works[w].material.board(layout);
            self.predecessors(w, &board, bits, &mut |pw, p_layout, p_board, p_bits| {
                let work = &self.works[pw];
                let l = p_layout as usize;
                let open = p_bits & !(work.wins[l].load(Relaxed) | work.losses[l].load(Relaxed));
                let mut lost = 0u32;
                for a in set_bits(open) {
                    if work.remaining[l * 30 + a as usize].fetch_sub(1, Relaxed) == 1 {
                        lost |= 1 << a;
                    }
                }
                if lost == 0 {
                    return;
                }
                let captures = self.captures(pw, p_board);
                let mut now = 0u32;
                for a in set_bits(lost) {
                    let longest = captures.longest_loss[a as usize];
                    if longest <= k {
                        now |= 1 << a;
                    } else {
                        let mut later = later.lock().unwrap_or_else(|e| e.into_inner());
                        later.push((longest, pw, p_layout, 1u32 << a));
                    }
                }
                if now != 0 {
                    decide(pw, p_layout, now, out);
                }
            });
        });
        merge(&mut out, more);
        too_long(&out, entry, k + 1)?;
        let mut pending = Pending::new();
        for (step, w, layout, bits) in later.into_inner().unwrap_or_else(|e| e.into_inner()) {
            let step = step as usize;
            if pending.len() <= step {
                pending.resize_with(step + 1, || empty(groups));
            }
            pending[step][w].push((layout, bits));
        }
        Ok((out, pending))
    }
}

/// An error naming the first position decided at `plies` when that is longer than the solver
/// counts (`entry` is `None`).
fn too_long(out: &Frontier, entry: Option<u8>, plies: u32) -> Result<(), TableError> {
    if entry.is_some() {
        return Ok(());
    }
    match out.iter().flatten().next() {
        Some(&(layout, bits)) => Err(TableError::TooLong {
            index: u64::from(layout) * 30 + u64::from(bits.trailing_zeros()),
            plies,
        }),
        None => Ok(()),
    }
}
