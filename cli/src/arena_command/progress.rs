//! The arena's progress bar on stderr: games done out of the schedule, the results so far
//! (W/D/L of the first engine in a match, points per engine in a round robin) and the time left.
//!
//! Key invariant: the bar is drawn only when stderr is a terminal and the run was not asked for
//! machine-readable output (`--json`) nor told `--no-progress`; otherwise it is absent and the
//! output is byte for byte what it would be without it. While it is drawn, everything else the
//! arena prints goes through [`ProgressLine::suspend`], so lines and bar never mix.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::arena::{GameRecord, Wdl};

/// The bar's layout: elapsed time, bar, games, results, time left.
const TEMPLATE: &str = "{elapsed_precise} [{wide_bar}] {pos}/{len} games  {msg}  ETA {eta}";

/// Should a bar be drawn? Only for a person watching: stderr a terminal, no `--json`, no
/// `--no-progress`.
#[must_use]
pub(super) fn is_wanted(json: bool, no_progress: bool, stderr_is_terminal: bool) -> bool {
    stderr_is_terminal && !json && !no_progress
}

/// The results so far, per engine, as the bar's message.
#[derive(Clone, Debug)]
pub(super) struct Tally {
    names: Vec<String>,
    wdl: Vec<Wdl>,
}

impl Tally {
    /// A tally of `records` (the games already played) for engines called `names`.
    #[must_use]
    pub(super) fn new(names: &[String], records: &[GameRecord]) -> Tally {
        let mut tally = Tally {
            names: names.to_vec(),
            wdl: vec![Wdl::default(); names.len()],
        };
        for record in records {
            tally.add(record);
        }
        tally
    }

    /// Counts one more game.
    pub(super) fn add(&mut self, record: &GameRecord) {
        let [first, second] = record.engines;
        // A game of an engine against itself counts once for it (from the first seat).
        let distinct = if first == second { 1 } else { 2 };
        for &engine in &record.engines[..distinct] {
            if let Some(wdl) = self.wdl.get_mut(engine) {
                wdl.add(record.wdl_for(engine));
            }
        }
    }

    /// `pvs W 3 D 1 L 2` for a match (the first engine's view), `pvs 4.5  mcts 2  random 0.5`
    /// (points) for a round robin.
    #[must_use]
    pub(super) fn message(&self) -> String {
        if self.names.len() == 2 {
            let wdl = self.wdl[0];
            format!(
                "{} W {} D {} L {}",
                self.names[0], wdl.wins, wdl.draws, wdl.losses
            )
        } else {
            let points: Vec<String> = self
                .names
                .iter()
                .zip(&self.wdl)
                .map(|(name, wdl)| format!("{name} {}", wdl.wins as f64 + wdl.draws as f64 / 2.0))
                .collect();
            points.join("  ")
        }
    }
}

/// The bar, or nothing when it is not wanted.
pub(super) struct ProgressLine {
    bar: Option<ProgressBar>,
    tally: Tally,
}

impl ProgressLine {
    /// A bar over `total` games, `done` of them already played (counted in `tally`), drawn on
    /// stderr when [`is_wanted`] (given whether stderr is a terminal now).
    #[must_use]
    pub(super) fn new(
        total: usize,
        done: usize,
        tally: Tally,
        json: bool,
        no_progress: bool,
    ) -> ProgressLine {
        let wanted = is_wanted(json, no_progress, std::io::stderr().is_terminal());
        let bar = wanted.then(|| {
            let style = ProgressStyle::with_template(TEMPLATE)
                .expect("a valid template")
                .progress_chars("=> ");
            let bar =
                ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr())
                    .with_style(style)
                    .with_message(tally.message());
            // Games of an earlier run count as done, but not in the rate behind the ETA.
            bar.set_position(done.min(total) as u64);
            bar.reset_eta();
            bar.enable_steady_tick(Duration::from_millis(500));
            bar
        });
        ProgressLine { bar, tally }
    }

    /// Is a bar drawn?
    #[cfg(test)]
    #[must_use]
    pub(super) fn is_shown(&self) -> bool {
        self.bar.is_some()
    }

    /// One more game finished: counts it and moves the bar.
    pub(super) fn game(&mut self, record: &GameRecord, done: usize) {
        self.tally.add(record);
        if let Some(bar) = &self.bar {
            bar.set_message(self.tally.message());
            bar.set_position(done as u64);
        }
    }

    /// Runs `f` (which prints) with the bar cleared, then draws it again.
    pub(super) fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Removes the bar (the table follows).
    pub(super) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::{GameResult, SideStats, Termination};

    fn game(engines: [usize; 2], result: GameResult) -> GameRecord {
        GameRecord {
            id: 0,
            opening: 0,
            opening_position: None,
            engines,
            names: engines.map(|e| format!("e{e}")),
            result,
            termination: Termination::Rules,
            plies: 1,
            moves: Vec::new(),
            stats: [SideStats::default(); 2],
        }
    }

    #[test]
    fn only_a_person_at_a_terminal_gets_a_bar() {
        assert!(is_wanted(false, false, true));
        assert!(!is_wanted(true, false, true), "--json");
        assert!(!is_wanted(false, true, true), "--no-progress");
        assert!(!is_wanted(false, false, false), "stderr redirected");
        // Under `cargo test` with --json the bar is never drawn, whatever stderr is.
        let line = ProgressLine::new(4, 0, Tally::new(&[], &[]), true, false);
        assert!(!line.is_shown());
        assert_eq!(line.suspend(|| 7), 7);
        line.finish();
    }

    #[test]
    fn a_match_shows_the_first_engine_and_a_round_robin_points() {
        let names = ["pvs".to_string(), "mcts".to_string()];
        let played = [
            game([0, 1], GameResult::FirstWins),
            game([1, 0], GameResult::FirstWins),
        ];
        let mut tally = Tally::new(&names, &played);
        assert_eq!(tally.message(), "pvs W 1 D 0 L 1");
        tally.add(&game([1, 0], GameResult::Draw));
        assert_eq!(tally.message(), "pvs W 1 D 1 L 1");
        let three = ["a".to_string(), "b".to_string(), "c".to_string()];
        let mut tally = Tally::new(&three, &[game([0, 2], GameResult::SecondWins)]);
        tally.add(&game([1, 2], GameResult::Draw));
        tally.add(&game([1, 1], GameResult::FirstWins));
        assert_eq!(tally.message(), "a 0  b 1.5  c 1.5");
    }
}
