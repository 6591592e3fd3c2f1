//! One iteration of [`super::Pvs`]'s iterative deepening: the root search at one depth (with a
//! full window) and what [`crate::search::iterative::deepen`] reads
//! between iterations (principal variation, statistics, limits).
//!
//! Key invariant: an iteration that a limit interrupts returns `None` and changes neither the
//! remembered principal variation, so the answer stays that of the last
//! completed iteration.

use super::thread::ThreadSearch;
use crate::eval::{Evaluator, Score};
use crate::game::Game;
use crate::search::iterative::DepthSearch;
use crate::search::limits::LimitWatch;
use crate::search::searcher::{Pv, RootLine};
use crate::search::stats::SearchStats;

impl<G: Game, E: Evaluator<G>> ThreadSearch<'_, G, E> {
    /// MultiPV: after the first line of an iteration `depth` plies deep, the next best root
    /// moves, each by a full-window search of the root without the moves of the lines before
    /// it, until [`super::thread::RootState::multipv`] lines or no move is left. A limit that
    /// cuts a further line drops it (and those after it); the first line, the best move and
    /// what an interrupted iteration would answer are kept as they were.
    fn search_more_lines(&mut self, depth: u32) {
        self.iteration.more_lines.clear();
        if self.iteration.multipv <= 1 {
            return;
        }
        let best = self.iteration.best;
        let mut excluded: Vec<G::Move> = self
            .iteration
            .best_line
            .first()
            .copied()
            .into_iter()
            .collect();
        while !excluded.is_empty() && excluded.len() < self.iteration.multipv {
            self.iteration.excluded.clone_from(&excluded);
            let score = self.root_search(depth, -Score::INFINITY, Score::INFINITY);
            let line = &self.stack[0].pv;
            let (false, Some(&mv)) = (self.aborted, line.first()) else {
                break;
            };
            self.iteration.more_lines.push(RootLine {
                score,
                pv: Pv::from_slice(line),
            });
            excluded.push(mv);
        }
        self.iteration.excluded.clear();
        self.iteration.best = best;
        self.aborted = false;
    }
}

impl<G: Game, E: Evaluator<G>> DepthSearch<G::Move> for ThreadSearch<'_, G, E> {
    fn search_depth(&mut self, depth: u32) -> Option<Score> {
        self.iteration.depth = depth;
        self.iteration.best = None;
        self.aborted = false;
        self.watch.begin_iteration(depth);
        // A table resized since the last iteration is taken up now.
        if let Some(shared) = self.tt.shared {
            self.tt.snapshot = Some(shared.snapshot());
        }
        let score = self.root_search(depth, -Score::INFINITY, Score::INFINITY);
        if self.aborted {
            return None;
        }
        self.iteration.best_line.clone_from(&self.stack[0].pv);
        self.search_more_lines(depth);
        Some(score)
    }

    fn more_lines(&self) -> Vec<RootLine<G::Move>> {
        self.iteration.more_lines.clone()
    }

    fn pv(&self) -> &[G::Move] {
        &self.iteration.best_line
    }

    fn stats(&self) -> SearchStats {
        let mut stats = self.stats.clone();
        stats.elapsed = self.watch.start().elapsed();
        if let Some(tt) = self.tt.snapshot.as_deref() {
            stats.tt_fill = tt.fill();
            stats.tt_fill_by_depth = tt.fill_by_depth();
            let used = self
                .tt
                .probes
                .iter()
                .rposition(|&n| n > 0)
                .map_or(0, |d| d + 1);
            stats.tt_probes_by_depth = self.tt.probes[..used].to_vec();
            stats.tt_hits_by_depth = self.tt.hits[..used].to_vec();
            stats.tt_probes = self.tt.probes.iter().sum();
            stats.tt_hits = self.tt.hits.iter().sum();
        }
        stats
    }

    fn watch(&self) -> &LimitWatch {
        &self.watch
    }
}
