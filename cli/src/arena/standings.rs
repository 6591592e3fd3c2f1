//! Totals of a set of game records: per engine and per pairing wins/draws/losses with Elo, the
//! colour balance, and the printable results table.
//!
//! Key invariant: everything here is computed from [`GameRecord`]s alone (no game types), so a
//! table can be rebuilt from a JSON-lines file of records; each engine's Elo is its score
//! against all the games it played (for a head-to-head match: against the other engine).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::arena::elo::{EloEstimate, Wdl};
use crate::arena::record::{GameRecord, GameResult, SideStats, Termination};

/// One engine's line of the results.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct EngineLine {
    /// The engine's name.
    pub name: String,
    /// Its results over all its games.
    pub wdl: Wdl,
    /// Elo against its opponents, with the 95% interval.
    pub elo: EloEstimate,
    /// Its moves, nodes, depths and time summed over its games.
    pub stats: SideStats,
}

/// The totals of a set of records.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Standings {
    /// Games counted.
    pub games: usize,
    /// One line per engine, in engine-index order.
    pub engines: Vec<EngineLine>,
    /// `pairs[a][b]`: engine `a`'s results against engine `b`.
    pub pairs: Vec<Vec<Wdl>>,
    /// Games won by the side that moved as [`plies::Side::First`].
    pub first_wins: usize,
    /// Games won by [`plies::Side::Second`].
    pub second_wins: usize,
    /// Drawn games (by the rules or the ply cap).
    pub draws: usize,
    /// Of the draws, those by the ply cap.
    pub ply_caps: usize,
    /// Games lost by an illegal or missing move (an external engine's crash, hang or garbage
    /// included).
    pub forfeits: usize,
    /// Games lost on time (a clock time control).
    pub time_losses: usize,
    /// Moves played in all games.
    pub plies: u64,
}

impl Standings {
    /// Totals of `records` for engines called `names` (indexed as in the records).
    ///
    /// # Panics
    /// If a record names an engine index outside `names`.
    #[must_use]
    pub fn new(names: &[String], records: &[GameRecord]) -> Standings {
        let n = names.len();
        let mut engines: Vec<EngineLine> = names
            .iter()
            .map(|name| EngineLine {
                name: name.clone(),
                wdl: Wdl::default(),
                elo: Wdl::default().elo(),
                stats: SideStats::default(),
            })
            .collect();
        let mut pairs = vec![vec![Wdl::default(); n]; n];
        let mut s = Standings {
            games: records.len(),
            engines: Vec::new(),
            pairs: Vec::new(),
            first_wins: 0,
            second_wins: 0,
            draws: 0,
            ply_caps: 0,
            forfeits: 0,
            time_losses: 0,
            plies: 0,
        };
        for record in records {
            let [a, b] = record.engines;
            assert!(
                a < n && b < n,
                "record {} names an unknown engine",
                record.id
            );
            for (colour, &engine) in record.engines.iter().enumerate() {
                let line = &mut engines[engine];
                line.wdl.add(record.wdl_for(engine));
                let stats = &record.stats[colour];
                line.stats.moves += stats.moves;
                line.stats.nodes += stats.nodes;
                line.stats.depth_sum += stats.depth_sum;
                line.stats.depthless_moves += stats.depthless_moves;
                line.stats.seconds += stats.seconds;
                line.stats.max_seconds = line.stats.max_seconds.max(stats.max_seconds);
                line.stats.open_moves += stats.open_moves;
                line.stats.open_seconds += stats.open_seconds;
            }
            if a != b {
                pairs[a][b].add(record.wdl_for(a));
                pairs[b][a].add(record.wdl_for(b));
            }
            match record.result {
                GameResult::FirstWins => s.first_wins += 1,
                GameResult::SecondWins => s.second_wins += 1,
                GameResult::Draw => s.draws += 1,
            }
            match record.termination {
                Termination::PlyCap => s.ply_caps += 1,
                Termination::Forfeit { .. } => s.forfeits += 1,
                Termination::OutOfTime { .. } => s.time_losses += 1,
                Termination::Rules => {}
            }
            s.plies += u64::from(record.plies);
        }
        for line in &mut engines {
            line.elo = line.wdl.elo();
        }
        s.engines = engines;
        s.pairs = pairs;
        s
    }

    /// The printable table: one row per engine (games, W, D, L, score, Elo with its 95%
    /// interval, mean depth (`-` for an engine that does not search by depth), thousands of nodes per second, mean milliseconds per move, mean per open move
    /// (no proven result in sight) and longest milliseconds per
    /// move), the pairings when there are more
    /// than two engines, and a line on colours, draws and game length.
    #[must_use]
    pub fn table(&self) -> String {
        let width = self
            .engines
            .iter()
            .map(|e| e.name.len())
            .max()
            .unwrap_or(0)
            .max(6);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<width$} {:>6} {:>5} {:>5} {:>5} {:>7}  {:<34} {:>6} {:>8} {:>8} {:>8} {:>8}",
            "engine",
            "games",
            "W",
            "D",
            "L",
            "score",
            "Elo [95% interval]",
            "depth",
            "knodes/s",
            "ms/move",
            "open ms",
            "max ms"
        );
        for e in &self.engines {
            let (depth, knps) = if e.stats.nodes == 0 {
                ("-".to_string(), "-".to_string())
            } else {
                let seconds = e.stats.seconds.max(1e-9);
                (
                    // No depth for an engine that does not search by depth (MCTS).
                    e.stats
                        .mean_depth()
                        .map_or_else(|| "-".to_string(), |d| format!("{d:.2}")),
                    format!("{:.0}", e.stats.nodes as f64 / seconds / 1000.0),
                )
            };
            let _ = writeln!(
                out,
                "{:<width$} {:>6} {:>5} {:>5} {:>5} {:>6.1}%  {:<34} {:>6} {:>8} {:>8.1} {:>8.1} {:>8.1}",
                e.name,
                e.wdl.games(),
                e.wdl.wins,
                e.wdl.draws,
                e.wdl.losses,
                100.0 * e.elo.score,
                e.elo.to_string(),
                depth,
                knps,
                e.stats.mean_ms(),
                e.stats.mean_open_ms(),
                1e3 * e.stats.max_seconds
            );
        }
        if self.engines.len() > 2 {
            let _ = writeln!(out, "pairings (row engine's W-D-L and Elo against column):");
            for (a, row) in self.pairs.iter().enumerate() {
                for (b, wdl) in row.iter().enumerate() {
                    if a < b && wdl.games() > 0 {
                        let _ = writeln!(
                            out,
                            "  {} vs {}: {}-{}-{}  {}",
                            self.engines[a].name,
                            self.engines[b].name,
                            wdl.wins,
                            wdl.draws,
                            wdl.losses,
                            wdl.elo()
                        );
                    }
                }
            }
        }
        let mean = if self.games == 0 {
            0.0
        } else {
            self.plies as f64 / self.games as f64
        };
        let _ = writeln!(
            out,
            "{} games: first player won {}, second won {}, draws {} (ply cap {}), forfeits {}, \
             lost on time {}, mean length {:.1} plies",
            self.games,
            self.first_wins,
            self.second_wins,
            self.draws,
            self.ply_caps,
            self.forfeits,
            self.time_losses,
            mean
        );
        out
    }

    /// The totals as one line of JSON.
    #[must_use]
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("standings always serialize")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::record::SideStats;

    fn game(
        id: usize,
        engines: [usize; 2],
        result: GameResult,
        termination: Termination,
    ) -> GameRecord {
        GameRecord {
            id,
            opening: id / 2,
            opening_position: None,
            engines,
            names: ["?".into(), "?".into()],
            result,
            termination,
            plies: 10,
            moves: Vec::new(),
            stats: [SideStats {
                moves: 5,
                nodes: 1000,
                depth_sum: 20,
                depthless_moves: 0,
                seconds: 0.5,
                max_seconds: 0.01 * id as f64,
                open_moves: 4,
                open_seconds: 0.48,
            }; 2],
        }
    }

    #[test]
    fn totals_by_engine_pair_and_colour() {
        let names = vec!["a".to_string(), "b".to_string(), "c".to_string()];
        let records = [
            game(0, [0, 1], GameResult::FirstWins, Termination::Rules), // a beats b
            game(1, [1, 0], GameResult::FirstWins, Termination::Rules), // b beats a
            game(2, [0, 2], GameResult::Draw, Termination::PlyCap),     // a draws c
            game(3, [2, 0], GameResult::SecondWins, Termination::Rules), // a beats c
        ];
        let s = Standings::new(&names, &records);
        assert_eq!(s.games, 4);
        assert_eq!(s.engines[0].wdl, Wdl::new(2, 1, 1));
        assert_eq!(s.engines[1].wdl, Wdl::new(1, 0, 1));
        assert_eq!(s.engines[2].wdl, Wdl::new(0, 1, 1));
        assert_eq!(s.pairs[0][1], Wdl::new(1, 0, 1));
        assert_eq!(s.pairs[0][2], Wdl::new(1, 1, 0));
        assert_eq!(s.pairs[2][0], Wdl::new(0, 1, 1));
        assert_eq!(
            (s.first_wins, s.second_wins, s.draws, s.ply_caps),
            (2, 1, 1, 1)
        );
        assert_eq!(s.engines[0].stats.moves, 20);
        assert_eq!(s.engines[0].stats.mean_depth(), Some(4.0));
        // 2 s over 20 moves; the longest move is that of the last game engine 0 played.
        assert!((s.engines[0].stats.mean_ms() - 100.0).abs() < 1e-9);
        // 1.92 s over the 16 open moves (the other 4 had a proven result).
        assert!((s.engines[0].stats.mean_open_ms() - 120.0).abs() < 1e-9);
        assert!((s.engines[0].stats.max_seconds - 0.03).abs() < 1e-12);
        assert!((s.engines[1].stats.max_seconds - 0.01).abs() < 1e-12);
        let table = s.table();
        assert!(table.contains("ms/move"), "{table}");
        assert!(table.contains("100.0"), "{table}");
        assert!(
            table.contains("open ms") && table.contains("120.0"),
            "{table}"
        );
        assert!(table.contains("a vs c: 1-1-0"), "{table}");
        assert!(table.contains("ply cap 1"), "{table}");
        let json: serde_json::Value = serde_json::from_str(&s.to_json_line()).unwrap();
        assert_eq!(json["engines"][0]["wdl"]["wins"], 2);
    }

    /// An engine that does not search by depth (MCTS: every move depthless) shows `-` for its
    /// depth; one that does shows its mean over the moves that had a depth.
    #[test]
    fn an_engine_without_depths_shows_none() {
        let names = vec!["mcts".to_string(), "pvs".to_string()];
        let mut record = game(0, [0, 1], GameResult::FirstWins, Termination::Rules);
        record.stats[0].depth_sum = 0;
        record.stats[0].depthless_moves = 5;
        record.stats[1].depth_sum = 12;
        record.stats[1].depthless_moves = 2;
        let s = Standings::new(&names, &[record]);
        assert_eq!(s.engines[0].stats.mean_depth(), None);
        assert_eq!(s.engines[1].stats.mean_depth(), Some(4.0));
        let table = s.table();
        // The depth column: right-aligned under its heading, six wide.
        let header = table.lines().next().unwrap();
        let end = header.find(" depth").unwrap() + " depth".len();
        let depth_of = |name: &str| {
            let row = table.lines().find(|l| l.starts_with(name)).unwrap();
            row[end - 6..end].trim().to_string()
        };
        assert_eq!(depth_of("mcts"), "-", "{table}");
        assert_eq!(depth_of("pvs"), "4.00", "{table}");
    }
}
