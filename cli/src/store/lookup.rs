//! The store as `analyze` uses it ([`AnalysisStore`]): before searching, the stored analysis
//! of the position when it is at least as deep as asked ([`AnalysisStore::lookup`]); after,
//! the search's result written ([`AnalysisStore::save`]).
//!
//! Key invariants: a stored analysis answers only a search of its own searcher family and
//! evaluator, to a depth it reached (or any depth, when its score is a proven win or loss:
//! deepening stops there); its moves are read back through the game's notation, and one that
//! no longer reads is a miss, never an answer. A failed or skipped write never fails the
//! analysis: it is said in one line on stderr, after the answer was printed.

use plies::Notation;
use plies::search::SearchResult;
use plies::spec::SearcherSpec;

use super::db::Put;
use super::record::{Analysis, Bound};
use super::{EvaluatorKind, Store, StoreArgs, StoreError, now_ms};

/// A stored analysis read back in the position it is of.
pub(crate) struct Stored<G: Notation> {
    /// The row.
    pub analysis: Analysis,
    /// Its best move.
    pub best: G::Move,
    /// Its principal variation.
    pub pv: Vec<G::Move>,
}

impl<G: Notation> Stored<G> {
    /// `analysis` read back in `state`, the position it is of; `None` when its moves no longer
    /// read there (a miss, never an answer).
    pub(crate) fn read(analysis: Analysis, state: &G) -> Option<Stored<G>> {
        let best = state.parse_move(&analysis.best).ok()?;
        let pv = state.parse_line(&analysis.pv).ok()?;
        Some(Stored { analysis, best, pv })
    }
}

/// The analysis a search of `state` by `searcher` (its name as set) in the searcher family
/// `family` of the game `game` found, to store; `None` when it has no completed iteration.
pub(crate) fn analysis_of<G: Notation>(
    game: &str,
    family: &str,
    state: &G,
    result: &SearchResult<G::Move>,
    searcher: &str,
) -> Option<Analysis> {
    let (Some(score), Some(best), true) =
        (result.known_score(), result.best_move, result.depth > 0)
    else {
        return None;
    };
    Some(Analysis {
        game: game.to_string(),
        variant: game.to_string(),
        position: state.format_position(),
        family: family.to_string(),
        depth: result.depth,
        score,
        bound: Bound::Exact,
        best: state.format_move(best),
        pv: state.format_line(&result.pv),
        nodes: result.stats.nodes,
        engine: game.to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        searcher: searcher.to_string(),
        written: now_ms(),
    })
}

/// The store of one `analyze`: the open file and the key's fixed parts.
pub(crate) struct AnalysisStore {
    store: Store,
    /// The program's name: the game.
    game: &'static str,
    /// The searcher family, with a non-default evaluator preset.
    family: String,
}

impl AnalysisStore {
    /// The store `args` name for an analysis with `searcher` and `evaluator` in the game
    /// `game`; `None` when it is off, or when the analysis is not one the store keeps (MCTS has
    /// no depth; weights from a file may change under the same name).
    pub(crate) fn open(
        args: &StoreArgs,
        evaluator: &EvaluatorKind,
        searcher: &SearcherSpec,
        game: &'static str,
    ) -> Result<Option<AnalysisStore>, StoreError> {
        let Some(family) = family_of(evaluator, searcher) else {
            return Ok(None);
        };
        let Some(store) = args.open_for_analysis()? else {
            return Ok(None);
        };
        Ok(Some(AnalysisStore {
            store,
            game,
            family,
        }))
    }

    /// The stored analysis of `state` that answers a search to `depth`: one at least that
    /// deep, or one with a proven win or loss.
    pub(crate) fn lookup<G: Notation>(
        &self,
        state: &G,
        depth: u32,
    ) -> Result<Option<Stored<G>>, StoreError> {
        let position = state.format_position();
        let Some(analysis) = self
            .store
            .get(self.game, self.game, &position, &self.family)?
        else {
            return Ok(None);
        };
        if analysis.depth < depth && !analysis.score.is_decisive() {
            return Ok(None);
        }
        Ok(Stored::read(analysis, state))
    }

    /// Writes the result of a search of `state` by `searcher` (its name as set), unless it has
    /// no completed iteration; a write skipped (the size limit) or failed is one line on
    /// stderr.
    pub(crate) fn save<G: Notation>(
        &mut self,
        state: &G,
        result: &SearchResult<G::Move>,
        searcher: &str,
    ) {
        let Some(analysis) = analysis_of(self.game, &self.family, state, result, searcher) else {
            return;
        };
        let put = self.store.put(&analysis);
        warn_unless_stored(&self.store, put);
    }
}

/// The key's searcher family of a search by `searcher` with `evaluator`: the family, with a
/// non-default evaluator preset; `None` for a search the store does not keep (MCTS has no
/// depth; weights from a file may change under the same name).
pub(crate) fn family_of(evaluator: &EvaluatorKind, searcher: &SearcherSpec) -> Option<String> {
    match (evaluator, searcher) {
        (_, SearcherSpec::Mcts { .. }) | (EvaluatorKind::Weights, _) => None,
        (EvaluatorKind::Default, _) => Some(searcher.family().to_string()),
        (EvaluatorKind::Preset(name), _) => Some(format!("{} eval={name}", searcher.family())),
    }
}

/// Says on stderr, in one line, why a write to `store` stored nothing: its size limit, or an
/// error; nothing when it was written or a better analysis kept.
pub(crate) fn warn_unless_stored(store: &Store, put: Result<Put, StoreError>) {
    match put {
        Ok(Put::Written | Put::Kept) => {}
        Ok(Put::OverLimit { size }) => eprintln!(
            "warning: store {} holds {size} bytes, at or over its limit of {} \
             (--store-limit): this analysis was not stored; `store prune` makes room",
            store.path().display(),
            store.limit()
        ),
        Err(err) => eprintln!("warning: this analysis was not stored: {err}"),
    }
}
