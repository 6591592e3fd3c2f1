//! The store as long-running hosts use it ([`SharedStore`]): the web page and the UGI engine
//! open it once and use it from many threads, reading the deepest stored analysis of a
//! position before any search; the web page also writes its searches' results after.
//!
//! Key invariants: a read answers only with an analysis of the game's default evaluator (the
//! families of [`DEFAULT_FAMILIES`]) whose moves read back in the position; a write keeps the
//! store's rule (the deeper, or as deep and newer, stays) and never fails the search that made
//! it (a failure is one line on stderr); one thread uses the connection at a time.

use std::sync::{Mutex, PoisonError};

use plies::Notation;
#[cfg(feature = "serve")]
use plies::search::SearchResult;

use super::lookup::Stored;
#[cfg(feature = "serve")]
use super::lookup::{analysis_of, warn_unless_stored};
use super::{Store, StoreError};

/// The searcher families whose analyses a host shows or plays: the game's default evaluator
/// searched by PVS, alpha-beta or plain minimax (each a completed iteration's exact value).
pub(crate) const DEFAULT_FAMILIES: [&str; 3] = ["pvs", "alphabeta", "minimax"];

/// One open store of one game, shared by threads.
pub(crate) struct SharedStore {
    store: Mutex<Store>,
    /// The program's name: the game.
    game: &'static str,
}

impl SharedStore {
    /// Opens (or creates) the SQLite store at `path` for the game `game`, writes skipped once its
    /// files hold `limit` bytes (for the web page's tests).
    #[cfg(all(test, feature = "serve"))]
    pub(crate) fn open(
        path: &std::path::Path,
        limit: u64,
        game: &'static str,
    ) -> Result<SharedStore, StoreError> {
        Ok(SharedStore {
            store: Mutex::new(Store::open(path, limit)?),
            game,
        })
    }

    /// `store`, opened, shared for the game `game`.
    pub(crate) fn new(store: Store, game: &'static str) -> SharedStore {
        SharedStore {
            store: Mutex::new(store),
            game,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The deepest stored analysis of `state` among the families `families` (as deep: the
    /// newest), read back in `state`; `None` when there is none (or its moves no longer read).
    pub(crate) fn deepest<G: Notation>(
        &self,
        state: &G,
        families: &[&str],
    ) -> Result<Option<Stored<G>>, StoreError> {
        let position = state.format_position();
        let store = self.lock();
        let mut best: Option<Stored<G>> = None;
        for family in families {
            let Some(analysis) = store.get(self.game, self.game, &position, family)? else {
                continue;
            };
            let better = best.as_ref().is_none_or(|known| {
                (analysis.depth, analysis.written) > (known.analysis.depth, known.analysis.written)
            });
            if better && let Some(stored) = Stored::read(analysis, state) {
                best = Some(stored);
            }
        }
        Ok(best)
    }
}

/// What only the web page does with the store: name its file, write its searches' results and
/// record its finished games.
#[cfg(feature = "serve")]
impl SharedStore {
    /// The store's file.
    pub(crate) fn path(&self) -> std::path::PathBuf {
        self.lock().path().to_path_buf()
    }

    /// Writes the result of a search of `state` by `searcher` (its name as set) of the family
    /// `family`, unless it has no completed iteration; a write skipped (the size limit) or
    /// failed is one line on stderr. Whether a row was written.
    pub(crate) fn save<G: Notation>(
        &self,
        state: &G,
        result: &SearchResult<G::Move>,
        family: &str,
        searcher: &str,
    ) -> bool {
        let Some(analysis) = analysis_of(self.game, family, state, result, searcher) else {
            return false;
        };
        let mut store = self.lock();
        let put = store.put(&analysis);
        let written = matches!(put, Ok(super::db::Put::Written));
        warn_unless_stored(&store, put);
        written
    }

    /// Records the finished game `row` of the game `G` and its explorer rows; a write skipped
    /// (the size limit) or failed is one line on stderr. Whether it was written.
    pub(crate) fn record_game<G: Notation>(&self, row: &super::games::GameRow) -> bool {
        let mut store = self.lock();
        let result = super::games::record::<G>(&mut store, row);
        match super::recorder::not_recorded(&store, result, "the page's game") {
            None => true,
            Some(warning) => {
                eprintln!("{warning}");
                false
            }
        }
    }

    /// The explorer's answer for `state` ([`super::games::explore`]): the moves recorded games
    /// played there, with counts and results from the mover's view.
    pub(crate) fn explore<G: Notation>(
        &self,
        state: &G,
    ) -> Result<Vec<super::games::MoveCount>, StoreError> {
        super::games::explore(&self.lock(), self.game, state)
    }
}
