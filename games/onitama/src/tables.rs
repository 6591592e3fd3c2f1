//! Onitama's endgame tables: [`DealTables`], the value of every position of one deal with both
//! masters and at most N pieces, built by a solver of its own when a game starts (or read from
//! a cache directory), and [`MaterialSet`], the same positions numbered for the generic solver
//! of [`plies::solve`] (the reference the fast solver is tested against).
//!
//! A [`MaterialSet`] number is, from the most significant part down: the side to move (2), the
//! arrangement of the five dealt cards (30: red's two, blue's two of the other three, the last
//! on the side), red's master square (25), blue's master square among the other 24, red's
//! students among the 23 squares left (a set ranked in the combinatorial number system), blue's
//! among the rest. [`DealTables`] numbers only red-to-move positions, its own way (see
//! `tables/build.rs`).
//!
//! Key invariants: [`MaterialSet::position`] and [`MaterialSet::index`] are inverse on every
//! number of the set except the holes, the numbers with both masters on the enemy temples (a
//! game cannot get there: it ends when the first arrives); a capture of a student leaves a
//! material for the one with a student less, a capture of a master or a master on the enemy
//! temple ends the game. [`DealTables::value`] of a position equals the generic solver's value
//! of it. A cached table file is opened only when it is a regular file no larger than a table
//! can be (so a FIFO never blocks the build); any file that cannot be used is reported
//! ([`BuildEvent::Rejected`], with the reason) and rebuilt, never silently.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use plies::Side;
use plies::bits::set_bits;
use plies::solve::{PositionSet, Probe, Table, TableError, TableValue};

use crate::card::Card;
use crate::state::{BLUE_TEMPLE, Onitama, RED_TEMPLE};

/// Every position of one deal with both masters, `students[0]` red and `students[1]` blue
/// students (see the module docs).
#[derive(Clone, Debug)]
pub struct MaterialSet {
    /// The five dealt cards, in id order.
    deal: [Card; 5],
    students: [u8; 2],
    /// The arrangements of the deal: red's hand, blue's hand (card indices into `deal`).
    arrangements: Vec<([usize; 2], [usize; 2], usize)>,
}

impl MaterialSet {
    /// The set of `deal` (five distinct cards, in any order) with `red` and `blue` students
    /// (0 to 4 each). Its numbers with both masters on the enemy temples are holes.
    ///
    /// # Panics
    /// If a card is dealt twice or a side has more than four students.
    #[must_use]
    pub fn new(deal: [Card; 5], red: u8, blue: u8) -> MaterialSet {
        let mut deal = deal;
        deal.sort_by_key(|c| c.id());
        assert!(deal.windows(2).all(|w| w[0] != w[1]), "a card dealt twice");
        assert!(red <= 4 && blue <= 4, "at most four students a side");
        let mut arrangements = Vec::with_capacity(30);
        for a in 0..5 {
            for b in a + 1..5 {
                let rest: Vec<usize> = (0..5).filter(|&i| i != a && i != b).collect();
                for c in 0..3 {
                    for d in c + 1..3 {
                        let side = (0..3).find(|&i| i != c && i != d).expect("one left");
                        arrangements.push(([a, b], [rest[c], rest[d]], rest[side]));
                    }
                }
            }
        }
        MaterialSet {
            deal,
            students: [red, blue],
            arrangements,
        }
    }

    /// The set of the same deal with other student counts.
    #[must_use]
    pub fn with_students(&self, red: u8, blue: u8) -> MaterialSet {
        MaterialSet::new(self.deal, red, blue)
    }

    /// The number of students of each side, red first.
    #[must_use]
    pub fn students(&self) -> [u8; 2] {
        self.students
    }

    fn combinations(&self) -> [u64; 2] {
        let [a, b] = self.students.map(usize::from);
        [CHOOSE[23][a], CHOOSE[23 - a][b]]
    }

    /// The index of the card arrangement of `state`, if its cards are this deal's.
    fn arrangement(&self, state: &Onitama) -> Option<usize> {
        let position = |card: Card| self.deal.iter().position(|&c| c == card);
        let mut red = [
            position(state.hand(Side::First)[0])?,
            position(state.hand(Side::First)[1])?,
        ];
        let mut blue = [
            position(state.hand(Side::Second)[0])?,
            position(state.hand(Side::Second)[1])?,
        ];
        red.sort_unstable();
        blue.sort_unstable();
        let side = position(state.side_card())?;
        self.arrangements
            .iter()
            .position(|&(r, b, s)| r == red && b == blue && s == side)
    }
}

impl PositionSet<Onitama> for MaterialSet {
    fn size(&self) -> u64 {
        let [red, blue] = self.combinations();
        2 * 30 * 25 * 24 * red * blue
    }

    fn index(&self, state: &Onitama) -> Option<u64> {
        let red_master = state.master(Side::First)?;
        let blue_master = state.master(Side::Second)?;
        if [1u32 << red_master.index(), 1 << blue_master.index()] == [BLUE_TEMPLE, RED_TEMPLE] {
            return None;
        }
        let red_students = state.students(Side::First).0;
        let blue_students = state.students(Side::Second).0;
        if red_students.count_ones() != u32::from(self.students[0])
            || blue_students.count_ones() != u32::from(self.students[1])
        {
            return None;
        }
        let cards = self.arrangement(state)? as u64;
        let [red_count, blue_count] = self.combinations();
        let rm = red_master.index() as u64;
        let bm = blue_master.index() as u64 - u64::from(blue_master.index() > red_master.index());
        let masters = (1u32 << red_master.index()) | (1 << blue_master.index());
        let rs = rank(red_students, masters);
        let bs = rank(blue_students, masters | red_students);
        let side = state.to_move().index() as u64;
        Some(((((side * 30 + cards) * 25 + rm) * 24 + bm) * red_count + rs) * blue_count + bs)
    }

    fn position(&self, index: u64) -> Option<Onitama> {
        let [red_count, blue_count] = self.combinations();
        let bs = index % blue_count;
        let rest = index / blue_count;
        let rs = rest % red_count;
        let rest = rest / red_count;
        let bm = (rest % 24) as u32;
        let rest = rest / 24;
        let rm = (rest % 25) as u32;
        let rest = rest / 25;
        let cards = (rest % 30) as usize;
        let side = if rest / 30 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let bm = bm + u32::from(bm >= rm);
        let masters = [1u32 << rm, 1u32 << bm];
        if masters == [BLUE_TEMPLE, RED_TEMPLE] {
            return None;
        }
        let taken = masters[0] | masters[1];
        let red_students = unrank(rs, usize::from(self.students[0]), taken);
        let blue_students = unrank(bs, usize::from(self.students[1]), taken | red_students);
        let (red_hand, blue_hand, side_card) = self.arrangements[cards];
        Onitama::from_parts(
            [masters[0] | red_students, masters[1] | blue_students],
            masters,
            [
                red_hand.map(|i| self.deal[i]),
                blue_hand.map(|i| self.deal[i]),
            ],
            self.deal[side_card],
            side,
        )
        .ok()
    }
}

/// The memory this process may still take, if known: the system's available memory (Linux
/// `/proc/meminfo`), or less where a control group limits the process (a container or a
/// cluster job), so that a build too large is refused rather than killed.
fn available_memory() -> Option<u64> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let system = read("/proc/meminfo").and_then(|info| {
        let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    });
    match (system, cgroup_room(&read)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// What the control groups of this process leave of their memory limits (the least over the
/// group and its parents), read through `read` (a path to its text): cgroup v2 (`memory.max`
/// and `memory.current`) or v1 (`memory.limit_in_bytes` and `memory.usage_in_bytes`). `None`
/// when no limit is set or none can be read.
fn cgroup_room(read: &dyn Fn(&str) -> Option<String>) -> Option<u64> {
    let groups = read("/proc/self/cgroup")?;
    let mut room: Option<u64> = None;
    for line in groups.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let (root, limit, usage) = if controllers.is_empty() {
            ("/sys/fs/cgroup", "memory.max", "memory.current")
        } else if controllers.split(',').any(|c| c == "memory") {
            (
                "/sys/fs/cgroup/memory",
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
            )
        } else {
            continue;
        };
        // The group and each parent up to the root: every limit on the way applies.
        let mut dir = path.trim_end_matches('/').to_string();
        loop {
            let number = |file: &str| {
                read(&format!("{root}{dir}/{file}")).and_then(|t| t.trim().parse::<u64>().ok())
            };
            // "max", or a huge number, is no limit.
            if let (Some(limit), Some(usage)) = (number(limit), number(usage))
                && limit < 1 << 60
            {
                let left = limit.saturating_sub(usage);
                room = Some(room.map_or(left, |r| r.min(left)));
            }
            match dir.rfind('/') {
                Some(at) if !dir.is_empty() => dir.truncate(at),
                _ => break,
            }
        }
    }
    room
}

/// One deal's endgame tables: the value of every position with both masters and at most
/// [`DealTables::pieces`] pieces (masters included, at most four students a side), with either
/// side to move, built by [`DealTables::build`].
///
/// Only red-to-move positions are stored: a position with blue to move is the red-to-move
/// position of the board turned round with the colours (and hands) swapped, which has the same
/// value. So a table of `(a, b)` students is also the blue-to-move half of `(b, a)`.
pub struct DealTables {
    /// The canonical deal ([`canonical_deal`]) whose tables these are, in card id order.
    deal: [Card; 5],
    /// Whether the deal asked for is the mirror of `deal`. The tables serve the positions of
    /// both: those of the mirror are looked up reflected.
    mirrored: bool,
    cards: build::Cards,
    pieces: u8,
    /// The most students a side.
    max_side: u8,
    /// The most pieces of the materials stored with distances; larger ones are win/draw/loss.
    distances: u8,
    /// `tables[red students][blue students]`.
    tables: Vec<Vec<Option<Stored>>>,
}

/// The most pieces whose tables keep distances, unless asked otherwise
/// ([`BuildOptions::distances`]): larger materials keep win, draw or loss only (a quarter of a
/// byte a position instead of one, built faster).
pub const DISTANCE_PIECES: u8 = 4;

/// How [`DealTables::build_with`] builds.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct BuildOptions {
    /// The most pieces, masters included (2 to 10).
    pub pieces: u8,
    /// The most students of a side (4 for no limit beyond `pieces`): with 6 pieces and 2, the
    /// materials of at most two students a side.
    pub max_side: u8,
    /// Threads to build on.
    pub threads: usize,
    /// Build with the reference solver (move counting), which the fast one is checked and
    /// measured against (every material with distances).
    pub reference: bool,
    /// The most pieces of the materials built with distances ([`DISTANCE_PIECES`] by default);
    /// the larger ones are built as win/draw/loss planes.
    pub distances: u8,
}

/// Which solver builds the tables.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum SolverKind {
    /// Pull sweeps over blocks (`tables/sweep.rs`).
    Sweep,
    /// Move counting (`tables/build.rs`), the reference.
    Reference,
}

/// What [`DealTables::build`] tells as it goes.
#[derive(Clone, Debug)]
pub enum BuildEvent {
    /// A material's table was read from the cache directory.
    Loaded {
        /// Red's and blue's students.
        students: [u8; 2],
    },
    /// A cached file could not be used: unreadable (permissions), not a regular file, too
    /// large, or not a good table of this material (it is rebuilt and written again).
    Rejected {
        /// The file.
        file: PathBuf,
        /// Why, in one line.
        why: String,
    },
    /// A step of solving a material and its mirror.
    Step {
        /// Red's and blue's students of the first material of the pair.
        students: [u8; 2],
        /// Positions up to this many plies from the end are decided.
        plies: u32,
        /// Positions decided in the step.
        decided: u64,
    },
    /// A material (and its mirror) is solved.
    Solved {
        /// Red's and blue's students of the first material of the pair.
        students: [u8; 2],
        /// Positions of the pair (red to move).
        positions: u64,
        /// Time taken.
        time: Duration,
    },
    /// A table could not be written to the cache directory (the build goes on).
    NotSaved {
        /// The file.
        file: PathBuf,
        /// Why, in one line.
        why: String,
    },
}

/// Why tables could not be built.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BuildError {
    /// Fewer than 2 or more than 10 pieces.
    Pieces(u8),
    /// A card dealt twice.
    Deal(String),
    /// The solver's error (a distance longer than a table stores).
    Solve(TableError),
    /// The system refused the memory a solver asked for.
    Alloc(plies::memory::AllocError),
    /// More memory than the machine has available.
    Memory {
        /// The most pieces asked for.
        pieces: u8,
        /// Bytes the build would need at its peak (an estimate).
        needed: u64,
        /// Bytes available.
        available: u64,
    },
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Pieces(n) => write!(
                f,
                "tables of {n} pieces: give 2 (the masters) to 8 (at most three students a \
                 side beyond 7 pieces: larger materials have more layouts than the numbering \
                 counts)"
            ),
            BuildError::Deal(card) => write!(f, "card '{card}' dealt twice"),
            BuildError::Solve(e) => write!(f, "{e}"),
            BuildError::Alloc(e) => write!(f, "endgame tables: {e}"),
            BuildError::Memory {
                pieces,
                needed,
                available,
            } => write!(
                f,
                "tables of {pieces} pieces need about {:.1} GB of memory, {:.1} GB are available",
                *needed as f64 / 1e9,
                *available as f64 / 1e9
            ),
        }
    }
}

impl std::error::Error for BuildError {}

impl DealTables {
    /// Builds the tables of `deal` (five distinct cards, any order) for every material of at
    /// most `pieces` pieces (2 to 10), smallest first, on `threads` threads. With `cache`, a
    /// material's table is read from that directory when a good file is there, and written
    /// there once solved (a damaged or foreign file is reported and rebuilt).
    ///
    /// # Errors
    /// A piece count out of range, a card dealt twice, or a distance longer than a table
    /// stores.
    pub fn build(
        deal: [Card; 5],
        pieces: u8,
        threads: usize,
        cache: Option<&Path>,
        progress: &mut dyn FnMut(BuildEvent),
    ) -> Result<DealTables, BuildError> {
        let options = BuildOptions {
            pieces,
            max_side: 4,
            threads,
            reference: false,
            distances: DISTANCE_PIECES,
        };
        DealTables::build_with(deal, &options, cache, progress)
    }

    /// [`DealTables::build`] with every option: the materials of at most `options.pieces`
    /// pieces and `options.max_side` students a side, by the fast solver or the reference.
    ///
    /// # Errors
    /// As [`DealTables::build`].
    pub fn build_with(
        deal: [Card; 5],
        options: &BuildOptions,
        cache: Option<&Path>,
        progress: &mut dyn FnMut(BuildEvent),
    ) -> Result<DealTables, BuildError> {
        let BuildOptions {
            pieces,
            max_side,
            threads,
            reference,
            distances,
        } = *options;
        // The reference solver keeps every distance.
        let distances = if reference { pieces } else { distances };
        if !(2..=10).contains(&pieces) {
            return Err(BuildError::Pieces(pieces));
        }
        let mut deal = deal;
        deal.sort_by_key(|c| c.id());
        if let Some(w) = deal.windows(2).find(|w| w[0] == w[1]) {
            return Err(BuildError::Deal(w[0].name().to_string()));
        }
        // A deal and its mirror share their tables: the canonical one is built.
        let (deal, mirrored) = canonical_deal(deal);
        // Layout numbers are 32 bits: 3 students a side (8 pieces) fit, 3 against 4 do not.
        if DealTables::groups(pieces, max_side)
            .iter()
            .flatten()
            .any(|m| m.layouts() > u64::from(u32::MAX))
        {
            return Err(BuildError::Pieces(pieces));
        }
        let needed = DealTables::memory_needed(pieces, max_side, distances);
        if let Some(available) = available_memory()
            && needed > available
        {
            return Err(BuildError::Memory {
                pieces,
                needed,
                available,
            });
        }
        let mut tables = DealTables {
            deal,
            mirrored,
            cards: build::Cards::new(deal),
            pieces,
            max_side,
            distances,
            tables: (0..5).map(|_| (0..5).map(|_| None).collect()).collect(),
        };
        let solver = if reference {
            SolverKind::Reference
        } else {
            SolverKind::Sweep
        };
        // Without a pool of that size (the system refused threads), the global one.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .ok();
        tables.build_all(cache, pool.as_ref(), solver, progress)?;
        Ok(tables)
    }

    /// The materials of at most `pieces` pieces and `max_side` students a side, smallest
    /// first, each with its mirror.
    fn groups(pieces: u8, max_side: u8) -> Vec<Vec<build::Material>> {
        let mut groups = Vec::new();
        for total in 0..=pieces - 2 {
            for red in 0..=total / 2 {
                let blue = total - red;
                if blue > max_side.min(4) {
                    continue;
                }
                let mut group = vec![build::Material::new(red, blue)];
                if red != blue {
                    group.push(build::Material::new(blue, red));
                }
                groups.push(group);
            }
        }
        groups
    }

    /// Bytes a build of `pieces` pieces holds at its peak, about: every table (a byte a
    /// position with distances, a word a layout without), and while the largest pair of
    /// materials is solved, what its solver holds (with distances: a move count a position,
    /// two words a layout and the frontiers; without: the arrangements pulled back, half a word a layout, beside the word).
    fn memory_needed(pieces: u8, max_side: u8, distances: u8) -> u64 {
        let groups = DealTables::groups(pieces, max_side);
        let layouts =
            |g: &Vec<build::Material>| g.iter().map(build::Material::layouts).sum::<u64>();
        let exact = |g: &Vec<build::Material>| 2 + g[0].red + g[0].blue <= distances;
        let tables: u64 = groups
            .iter()
            .map(|g| {
                if exact(g) {
                    layouts(g) * 38
                } else {
                    layouts(g) * 8
                }
            })
            .sum();
        let solving = groups
            .iter()
            .map(|g| {
                if exact(g) {
                    layouts(g) * 68
                } else {
                    layouts(g) * 5
                }
            })
            .max()
            .unwrap_or(0);
        tables + solving
    }

    fn build_all(
        &mut self,
        cache: Option<&Path>,
        pool: Option<&rayon::ThreadPool>,
        solver: SolverKind,
        progress: &mut dyn FnMut(BuildEvent),
    ) -> Result<(), BuildError> {
        // Per material with distances, the words the fast solvers read captures from (until
        // the build ends); planes are their own words.
        let mut words: Vec<Vec<Option<Vec<u64>>>> = vec![vec![None, None, None, None, None]; 5];
        for group in DealTables::groups(self.pieces, self.max_side) {
            let [red, blue] = [group[0].red, group[0].blue];
            let exact = solver == SolverKind::Reference || 2 + red + blue <= self.distances;
            if let Some(dir) = cache
                && self.load_group(dir, &group, exact, progress)
            {
                if solver == SolverKind::Sweep && exact {
                    for material in &group {
                        let (r, b) = (usize::from(material.red), usize::from(material.blue));
                        let Some(Stored::Distances(table)) = &self.tables[r][b] else {
                            unreachable!("a table with distances just read");
                        };
                        let read = || sweep::words_of(*material, table);
                        words[r][b] = Some(match pool {
                            Some(pool) => pool.install(read),
                            None => read(),
                        });
                    }
                }
                continue;
            }
            let start = Instant::now();
            let mut step = |plies, decided| {
                progress(BuildEvent::Step {
                    students: [red, blue],
                    plies,
                    decided,
                });
            };
            let table =
                |m: build::Material| match &self.tables[usize::from(m.red)][usize::from(m.blue)] {
                    Some(Stored::Distances(table)) => table,
                    _ => unreachable!("smaller materials are solved first, with distances"),
                };
            let solved: Vec<(Stored, Option<Vec<u64>>)> = match solver {
                SolverKind::Sweep if !exact => {
                    let smaller = |m: build::Material| {
                        let (r, b) = (usize::from(m.red), usize::from(m.blue));
                        match (&self.tables[r][b], &words[r][b]) {
                            (Some(Stored::Planes(planes)), _) => planes.as_slice(),
                            (_, Some(words)) => words.as_slice(),
                            _ => unreachable!("smaller materials are solved first"),
                        }
                    };
                    wdl::solve_group(&self.cards, &group, &smaller, pool, &mut |pass, decided| {
                        step(pass, decided);
                    })
                    .map_err(BuildError::Alloc)?
                    .into_iter()
                    .map(|planes| (Stored::Planes(planes), None))
                    .collect()
                }
                SolverKind::Sweep => {
                    let smaller = |m: build::Material| {
                        let (r, b) = (usize::from(m.red), usize::from(m.blue));
                        sweep::Solved {
                            material: m,
                            table: table(m),
                            words: words[r][b]
                                .as_deref()
                                .expect("smaller materials are solved first"),
                        }
                    };
                    sweep::solve_group(&self.cards, &group, &smaller, pool, &mut |s| {
                        step(s.plies, s.decided);
                    })
                    .map_err(BuildError::Solve)?
                    .into_iter()
                    .map(|(table, words)| (Stored::Distances(table), Some(words)))
                    .collect()
                }
                SolverKind::Reference => {
                    build::solve_group(&self.cards, &group, &table, pool, &mut |s| {
                        step(s.plies, s.decided);
                    })
                    .map_err(BuildError::Solve)?
                    .into_iter()
                    .map(|table| (Stored::Distances(table), None))
                    .collect()
                }
            };
            progress(BuildEvent::Solved {
                students: [red, blue],
                positions: group.iter().map(|m| m.layouts() * 30).sum(),
                time: start.elapsed(),
            });
            for (material, (stored, material_words)) in group.iter().zip(solved) {
                if let Some(dir) = cache
                    && let Err(why) = self.save(dir, *material, &stored)
                {
                    progress(BuildEvent::NotSaved {
                        file: self.file(dir, *material),
                        why,
                    });
                }
                let (r, b) = (usize::from(material.red), usize::from(material.blue));
                self.tables[r][b] = Some(stored);
                words[r][b] = material_words;
            }
        }
        Ok(())
    }

    /// Whether `material` is stored with distances.
    fn exact(&self, material: build::Material) -> bool {
        2 + material.red + material.blue <= self.distances
    }

    /// What a table file of `material` is named in `dir`.
    fn file(&self, dir: &Path, material: build::Material) -> PathBuf {
        dir.join(file_name(&self.deal, material, self.exact(material)))
    }

    /// The key a table file of `material` is written with.
    fn key(&self, material: build::Material) -> String {
        let names: Vec<&str> = self.deal.iter().map(|c| c.name()).collect();
        format!(
            "onitama red-to-move mover-outer{} deal={} students={}+{}",
            if self.exact(material) { "" } else { " wdl" },
            names.join(",").to_lowercase(),
            material.red,
            material.blue
        )
    }

    /// Reads every table of `group` from `dir` (with distances when `exact`); false (and
    /// nothing kept) unless all are good.
    fn load_group(
        &mut self,
        dir: &Path,
        group: &[build::Material],
        exact: bool,
        progress: &mut dyn FnMut(BuildEvent),
    ) -> bool {
        let mut read = Vec::new();
        for &material in group {
            let file = self.file(dir, material);
            let key = self.key(material);
            let size = material.layouts() * 30;
            let limit = if exact {
                table_file_limit(&key, size)
            } else {
                planes::file_size(&key, material.layouts())
            };
            let mut input = match open_table_file(&file, limit) {
                Ok(Some(input)) => input,
                Ok(None) => return false,
                Err(why) => {
                    progress(BuildEvent::Rejected { file, why });
                    return false;
                }
            };
            let mut input = std::io::BufReader::new(&mut input);
            let stored = if exact {
                Table::read(&key, size, &mut input)
                    .map(Stored::Distances)
                    .map_err(|e| e.to_string())
            } else {
                planes::read(&key, material.layouts(), &mut input).map(Stored::Planes)
            };
            match stored {
                Ok(stored) => read.push((material, stored)),
                Err(why) => {
                    progress(BuildEvent::Rejected { file, why });
                    return false;
                }
            }
        }
        for (material, stored) in read {
            progress(BuildEvent::Loaded {
                students: [material.red, material.blue],
            });
            self.tables[usize::from(material.red)][usize::from(material.blue)] = Some(stored);
        }
        true
    }

    /// Writes `stored` to `dir` under a temporary name, then renames it: a file under the
    /// table's name is always whole.
    fn save(&self, dir: &Path, material: build::Material, stored: &Stored) -> Result<(), String> {
        let file = self.file(dir, material);
        if let Ok(metadata) = std::fs::metadata(&file)
            && !metadata.is_file()
        {
            // A FIFO or device under a table's name is left alone, never replaced.
            return Err("not a regular file; left as it is".into());
        }
        let mut part = file.clone().into_os_string();
        part.push(".part");
        let part = PathBuf::from(part);
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(dir)?;
            let mut out = std::io::BufWriter::new(std::fs::File::create(&part)?);
            match stored {
                Stored::Distances(table) => table.write(&self.key(material), &mut out)?,
                Stored::Planes(words) => planes::write(&self.key(material), words, &mut out)?,
            }
            drop(out);
            std::fs::rename(&part, &file)
        };
        write().map_err(|e| {
            let _ = std::fs::remove_file(&part);
            e.to_string()
        })
    }

    /// The most pieces (masters included) of the positions the tables hold.
    #[must_use]
    pub fn pieces(&self) -> u8 {
        self.pieces
    }

    /// The longest win or loss the tables hold, in plies (a scan of every position).
    #[must_use]
    pub fn longest(&self) -> u32 {
        let mut longest = 0;
        for table in self.tables.iter().flatten().flatten() {
            let Stored::Distances(table) = table else {
                continue;
            };
            for index in 0..table.size() {
                if let Some(TableValue::Win(d) | TableValue::Loss(d)) = table.value(index) {
                    longest = longest.max(d);
                }
            }
        }
        longest
    }

    /// The deal the tables serve, in card id order.
    #[must_use]
    pub fn deal(&self) -> [Card; 5] {
        if self.mirrored {
            let mut deal = self.deal.map(Card::mirror);
            deal.sort_by_key(|c| c.id());
            deal
        } else {
            self.deal
        }
    }

    /// The canonical deal whose tables are built and stored ([`canonical_deal`]), in card id
    /// order.
    #[must_use]
    pub fn canonical(&self) -> [Card; 5] {
        self.deal
    }

    /// Positions stored (red to move; each is also a blue-to-move position): a byte each with
    /// distances, a quarter of one without.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.tables
            .iter()
            .flatten()
            .flatten()
            .map(Stored::size)
            .sum()
    }

    /// Bytes the tables take in memory (and on disk, besides the files' headers): a byte a
    /// position with distances (two in a wide table), a word a layout of 30 positions without.
    #[must_use]
    pub fn bytes(&self) -> u64 {
        self.tables
            .iter()
            .flatten()
            .flatten()
            .map(Stored::bytes)
            .sum()
    }

    /// The value of `state` for its side to move, if it has this deal's cards, both masters,
    /// and few enough pieces.
    #[must_use]
    pub fn value(&self, state: &Onitama) -> Option<TableValue> {
        // Most positions a search asks about have too many pieces: told at once.
        let all = state.pieces(Side::First).0 | state.pieces(Side::Second).0;
        if all.count_ones() > u32::from(self.pieces) {
            return None;
        }
        // A position of the mirror deal is looked up reflected (for a set that is its own
        // mirror, directly).
        let mirrored = !state.deal().iter().all(|card| self.deal.contains(card));
        let index = |card: Card| {
            let card = if mirrored { card.mirror() } else { card };
            self.deal.iter().position(|&c| c == card)
        };
        // A mirrored deal's position is looked up reflected, file a to file e.
        let squares = |bits: u32| if mirrored { reflect(bits) } else { bits };
        let mut hands = [0u8; 2];
        for side in [Side::First, Side::Second] {
            for card in state.hand(side) {
                hands[side.index()] |= 1 << index(card)?;
            }
        }
        let masters = [
            squares(1 << state.master(Side::First)?.index()),
            squares(1 << state.master(Side::Second)?.index()),
        ];
        let pieces = [
            squares(state.pieces(Side::First).0),
            squares(state.pieces(Side::Second).0),
        ];
        let (board, arrangement) = if state.to_move() == Side::First {
            let board = build::Board {
                red: pieces[0],
                blue: pieces[1],
                red_master: masters[0],
                blue_master: masters[1],
            };
            (board, self.cards.arrangement(hands[0], hands[1])?)
        } else {
            let turn = |bits: u32| bits.reverse_bits() >> 7;
            let board = build::Board {
                red: turn(pieces[1]),
                blue: turn(pieces[0]),
                red_master: turn(masters[1]),
                blue_master: turn(masters[0]),
            };
            (board, self.cards.arrangement(hands[1], hands[0])?)
        };
        let red = (board.red & !board.red_master).count_ones() as usize;
        let blue = (board.blue & !board.blue_master).count_ones() as usize;
        let table = self.tables.get(red)?.get(blue)?.as_ref()?;
        let material = build::Material::new(red as u8, blue as u8);
        table.value(u64::from(material.layout(&board)) * 30 + arrangement as u64)
    }
}

impl Probe<Onitama> for DealTables {
    fn probe(&self, state: &Onitama) -> Option<TableValue> {
        self.value(state)
    }
}

/// The win/draw/loss words of every material of at most `pieces` pieces and `max_side`
/// students a side of `deal` (canonical, in id order), by the WDL solver alone, smallest
/// first: `planes[red students][blue students]`.
#[cfg(test)]
fn wdl_planes(
    cards: &build::Cards,
    pieces: u8,
    max_side: u8,
    pool: Option<&rayon::ThreadPool>,
    progress: &mut dyn FnMut([u8; 2], u32, u64),
) -> Vec<Vec<Option<Vec<u64>>>> {
    let mut planes: Vec<Vec<Option<Vec<u64>>>> = vec![vec![None, None, None, None, None]; 5];
    for group in DealTables::groups(pieces, max_side) {
        let students = [group[0].red, group[0].blue];
        let solved = {
            let smaller = |m: build::Material| {
                planes[usize::from(m.red)][usize::from(m.blue)]
                    .as_deref()
                    .expect("smaller materials are solved first")
            };
            wdl::solve_group(cards, &group, &smaller, pool, &mut |pass, decided| {
                progress(students, pass, decided);
            })
            .expect("the test's tables fit in memory")
        };
        for (material, words) in group.iter().zip(solved) {
            planes[usize::from(material.red)][usize::from(material.blue)] = Some(words);
        }
    }
    planes
}

/// The squares `bits` reflected from file a to file e (the temples stay where they are).
fn reflect(bits: u32) -> u32 {
    let mut out = 0;
    for square in set_bits(bits) {
        out |= 1 << (square - square % 5 + 4 - square % 5);
    }
    out
}

/// The deal whose tables serve `deal` (five distinct cards), and whether it is `deal`'s
/// mirror: of the deal and its mirror (every card replaced by [`Card::mirror`], which with the
/// board reflected from file a to file e gives positions of the same values), the one whose
/// card ids, in order, come first. Each card set is canonical or the mirror of one: of the
/// 4,368 sets of five of the 16 base cards, 2,348 are canonical (328 are their own mirror,
/// 2,020 pairs).
#[must_use]
pub fn canonical_deal(deal: [Card; 5]) -> ([Card; 5], bool) {
    let mut deal = deal;
    deal.sort_by_key(|c| c.id());
    let mut image = deal.map(Card::mirror);
    image.sort_by_key(|c| c.id());
    if image.map(Card::id) < deal.map(Card::id) {
        (image, true)
    } else {
        (deal, false)
    }
}

/// Every canonical deal of the 16 base cards ([`canonical_deal`]), 2,348 of them, in the
/// order of their card ids: the card sets whose tables serve every game (a cluster builds
/// them by index into this list).
#[must_use]
pub fn canonical_deals() -> Vec<[Card; 5]> {
    let base: Vec<Card> = Card::all().take(Card::BASE_COUNT).collect();
    let mut deals = Vec::new();
    for a in 0..base.len() {
        for b in a + 1..base.len() {
            for c in b + 1..base.len() {
                for d in c + 1..base.len() {
                    for e in d + 1..base.len() {
                        let deal = [base[a], base[b], base[c], base[d], base[e]];
                        if !canonical_deal(deal).1 {
                            deals.push(deal);
                        }
                    }
                }
            }
        }
    }
    deals
}

/// The start position of each canonical deal ([`canonical_deals`]), in their order: a position
/// of every set of tables a cluster precomputes.
#[must_use]
pub fn set_positions() -> Vec<Onitama> {
    canonical_deals()
        .into_iter()
        .filter_map(|deal| {
            let names: Vec<&str> = deal.iter().map(|c| c.name()).collect();
            let text = format!(
                "bbBbb/5/5/5/rrRrr r {},{} {},{} {}",
                names[0], names[1], names[2], names[3], names[4]
            );
            <Onitama as plies::Notation>::parse_position(&text).ok()
        })
        .collect()
}

/// The name of the table file of `material` of `deal` (in card id order).
fn file_name(deal: &[Card; 5], material: build::Material, exact: bool) -> String {
    let names: Vec<&str> = deal.iter().map(|c| c.name()).collect();
    format!(
        "onitama-{}-{}v{}.{}",
        names.join("-").to_lowercase(),
        material.red,
        material.blue,
        if exact { "tb" } else { "wdl" }
    )
}

/// The names of the files a build of `deal`'s tables up to `pieces` pieces (with distances up
/// to [`DISTANCE_PIECES`]) reads from and writes to its cache directory (for tools that prepare
/// or inspect one).
#[must_use]
pub fn file_names(deal: [Card; 5], pieces: u8) -> Vec<String> {
    let (deal, _) = canonical_deal(deal);
    if !(2..=10).contains(&pieces) {
        return Vec::new();
    }
    DealTables::groups(pieces, 4)
        .iter()
        .flatten()
        .map(|&m| file_name(&deal, m, 2 + m.red + m.blue <= DISTANCE_PIECES))
        .collect()
}

/// The largest a table file of `key` and `size` positions can be: the header (under 64 bytes
/// besides the key), two bytes a position at most, and the checksum.
fn table_file_limit(key: &str, size: u64) -> u64 {
    size.saturating_mul(2)
        .saturating_add(key.len() as u64 + 128)
}

/// The table file `file` opened for reading: `None` when there is none, else an error saying
/// why it cannot be read (refused, not a regular file, larger than `limit` bytes). The checks
/// come before the file is opened, so a FIFO never blocks the reader; what is read of it is
/// bounded by the header ([`Table::read`]).
fn open_table_file(file: &Path, limit: u64) -> Result<Option<std::fs::File>, String> {
    let metadata = match std::fs::metadata(file) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read it: {e}")),
    };
    let check = |metadata: &std::fs::Metadata| {
        if !metadata.is_file() {
            Err("not a regular file".to_string())
        } else if metadata.len() > limit {
            Err(format!("larger than a table can be ({limit} bytes)"))
        } else {
            Ok(())
        }
    };
    check(&metadata)?;
    let input = std::fs::File::open(file).map_err(|e| format!("cannot read it: {e}"))?;
    check(
        &input
            .metadata()
            .map_err(|e| format!("cannot read it: {e}"))?,
    )?;
    Ok(Some(input))
}

/// The canonical deal's card names ([`canonical_deal`]), in card id order: positions of one
/// deal and of its mirror share their tables (the key a command line keeps them by).
#[must_use]
pub fn deal_key(position: &Onitama) -> String {
    let names: Vec<&str> = canonical_deal(position.deal())
        .0
        .iter()
        .map(|c| c.name())
        .collect();
    names.join(",").to_lowercase()
}

/// The tables of `position`'s deal up to `pieces` pieces, built on `threads` threads or read
/// from `dir` (see [`DealTables::build`]), as the searchers take them; `log` is told of files
/// that could not be used or written and, at the end, what was built and how long it took.
///
/// # Errors
/// [`BuildError`] as one line.
pub fn build_for(
    position: &Onitama,
    pieces: u8,
    dir: Option<&Path>,
    threads: usize,
    log: &mut dyn FnMut(&str),
) -> Result<Arc<dyn Probe<Onitama>>, String> {
    let start = Instant::now();
    let mut read = 0;
    let tables = DealTables::build(
        position.deal(),
        pieces,
        threads,
        dir,
        &mut |event| match event {
            BuildEvent::Loaded { .. } => read += 1,
            BuildEvent::Rejected { file, why } => {
                log(&format!("{}: {why}; building it again", file.display()));
            }
            BuildEvent::NotSaved { file, why } => {
                log(&format!("{}: not written: {why}", file.display()));
            }
            BuildEvent::Step { .. } | BuildEvent::Solved { .. } => {}
        },
    )
    .map_err(|e| e.to_string())?;
    let read = if read > 0 {
        format!(" ({read} read from the directory)")
    } else {
        String::new()
    };
    log(&format!(
        "{pieces} pieces for {}: {} positions, {:.2} s{read}",
        deal_key(position),
        tables.positions(),
        start.elapsed().as_secs_f64()
    ));
    Ok(Arc::new(tables))
}

/// The names of the files [`build_for`] reads and writes for `position`'s deal up to `pieces`
/// pieces ([`file_names`] of its deal): a command line that finds them all in its directory
/// reads the tables at once instead of building them.
#[must_use]
pub fn files_for(position: &Onitama, pieces: u8) -> Vec<String> {
    file_names(position.deal(), pieces)
}

mod build;
mod numbering;
mod planes;
mod stats;
mod sweep;
mod wdl;

use numbering::{CHOOSE, rank, unrank};
use planes::Stored;

pub use stats::MaterialStats;

#[cfg(test)]
mod tests;
