//! Counts of a deal's tables that other generators' counts can be compared with
//! ([`DealTables::stats`]).
//!
//! Key invariant: for every material, `holes + terminal + counted = indexed`, and
//! `won + lost + drawn = counted`; every count is of positions with red to move (each is also
//! the blue-to-move position of the board turned round, counted once).

use plies::solve::TableValue;
use rayon::prelude::*;

use super::DealTables;
use super::build::Material;
use crate::state::{BLUE_TEMPLE, RED_TEMPLE};

/// The counts of one material of a deal's tables (see [`DealTables::stats`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct MaterialStats {
    /// Red's and blue's students.
    pub students: [u8; 2],
    /// Positions numbered: layouts (both masters, the students anywhere else) times the 30
    /// card arrangements, red to move.
    pub indexed: u64,
    /// Numbers no game reaches: both masters on the enemy temples.
    pub holes: u64,
    /// Games already over: exactly one master on the enemy temple (blue's on red's temple: red
    /// has lost; red's on blue's: red has won, which no game reaches with red to move). Not in
    /// `won` or `lost`.
    pub terminal: u64,
    /// The rest: `won + lost + drawn`.
    pub counted: u64,
    /// Won by red, the side to move (a win in 1, by capturing the master or reaching the
    /// temple, included).
    pub won: u64,
    /// Lost by red.
    pub lost: u64,
    /// Drawn (neither side can force a win).
    pub drawn: u64,
    /// The longest win, in plies (of the materials stored with distances).
    pub longest_win: u32,
    /// The longest loss, in plies (of the materials stored with distances).
    pub longest_loss: u32,
}

impl MaterialStats {
    /// Adds `other`'s counts (the longest distances are the larger).
    fn add(&mut self, other: &MaterialStats) {
        self.indexed += other.indexed;
        self.holes += other.holes;
        self.terminal += other.terminal;
        self.counted += other.counted;
        self.won += other.won;
        self.lost += other.lost;
        self.drawn += other.drawn;
        self.longest_win = self.longest_win.max(other.longest_win);
        self.longest_loss = self.longest_loss.max(other.longest_loss);
    }
}

impl DealTables {
    /// The counts of every material the tables hold, smallest first, and their sum last
    /// (`students` of the sum: the most of each side). A scan of every position, on the
    /// current rayon pool.
    #[must_use]
    pub fn stats(&self) -> Vec<MaterialStats> {
        let mut all = Vec::new();
        for (r, row) in self.tables.iter().enumerate() {
            for (b, table) in row.iter().enumerate() {
                let Some(table) = table else { continue };
                let material = Material::new(r as u8, b as u8);
                let mut stats = (0..material.layouts())
                    .into_par_iter()
                    .map(|layout| {
                        let mut stats = MaterialStats {
                            indexed: 30,
                            ..MaterialStats::default()
                        };
                        let board = material.board(layout as u32);
                        let over = [
                            board.blue_master == RED_TEMPLE,
                            board.red_master == BLUE_TEMPLE,
                        ];
                        if over == [true, true] {
                            stats.holes = 30;
                            return stats;
                        }
                        if over.contains(&true) {
                            stats.terminal = 30;
                            return stats;
                        }
                        stats.counted = 30;
                        for a in 0..30 {
                            match table.value(layout * 30 + a) {
                                Some(TableValue::Win(d)) => {
                                    stats.won += 1;
                                    stats.longest_win = stats.longest_win.max(d);
                                }
                                Some(TableValue::Loss(d)) => {
                                    stats.lost += 1;
                                    stats.longest_loss = stats.longest_loss.max(d);
                                }
                                // Planes: no distance to count.
                                Some(TableValue::Won) => stats.won += 1,
                                Some(TableValue::Lost) => stats.lost += 1,
                                _ => stats.drawn += 1,
                            }
                        }
                        stats
                    })
                    .reduce(MaterialStats::default, |mut a, b| {
                        a.add(&b);
                        a
                    });
                stats.students = [r as u8, b as u8];
                all.push(stats);
            }
        }
        all.sort_by_key(|s| (s.students[0] + s.students[1], s.students[1], s.students[0]));
        let mut sum = MaterialStats::default();
        for stats in &all {
            sum.add(stats);
            sum.students = [
                sum.students[0].max(stats.students[0]),
                sum.students[1].max(stats.students[1]),
            ];
        }
        all.push(sum);
        all
    }
}
