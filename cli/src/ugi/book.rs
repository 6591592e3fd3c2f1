//! The `OwnBook` option: with it on, a `go` whose position the position store holds is
//! answered from the stored analysis at once (an `info` line ending `string from the store`,
//! then `bestmove`), without searching.
//!
//! The `Book` option names a book file (`book build`): a `go` whose position it holds is
//! answered with its move (an `info string book move ...` line, then `bestmove`), before the
//! store is asked; `BookPick` says how it picks (`weighted` from `BookSeed` and the games
//! begun with `uginewgame`, or `best`).
//!
//! Key invariants: only a stored analysis of the game's default evaluator by `pvs`,
//! `alphabeta` or `minimax` answers (the deepest), and only when its best move reads back as a
//! legal move of the position; a `go depth N` is answered only by one at least N deep (or a
//! proven result); `go infinite` and `go ponder` always search. A store that fails to answer
//! is a miss (said in an `info string`), never a failed `go`.

use plies::Notation;
use plies::rng::SplitMix64;

use crate::book::{Book as BookFile, Pick};

use super::{pv_text, score_text};
use crate::store::shared::{DEFAULT_FAMILIES, SharedStore};

/// The position store as a book, and whether the `OwnBook` option is on; and the book file
/// of the `Book` option.
pub(super) struct Book {
    /// The store (`ugi --store`), if any.
    pub store: Option<SharedStore>,
    /// The `OwnBook` option.
    pub on: bool,
    /// The `Book` option's book, read and checked when the option was set.
    pub file: Option<std::sync::Arc<BookFile>>,
    /// The `BookPick` option.
    pub pick: Pick,
    /// The `BookSeed` option.
    pub seed: u64,
    /// Games begun (`uginewgame`) since the start: mixed into the seed, so each game of a
    /// match picks afresh, and a match replayed with the same seed picks the same.
    pub games: u64,
}

impl Book {
    /// The lines answering a `go` of `state` (`depth`: its depth limit, if any) from the
    /// store, the last `bestmove M`; `None` when the book is off or has no answer. A store
    /// error is an `info string` line and no answer.
    pub(super) fn answer<G: Notation>(
        &self,
        state: &G,
        depth: Option<u32>,
    ) -> Result<Option<Vec<String>>, String> {
        if let Some(book) = &self.file {
            let seed = SplitMix64::new(self.seed ^ self.games.rotate_left(32)).next_u64();
            if let Some((mv, entry)) = book.pick(state, self.pick, seed) {
                let token = state.format_move_token(mv);
                return Ok(Some(vec![
                    format!("info string book move {token} ({})", entry.describe()),
                    format!("bestmove {token}"),
                ]));
            }
        }
        let (true, Some(store)) = (self.on, &self.store) else {
            return Ok(None);
        };
        let stored = match store.deepest(state, &DEFAULT_FAMILIES) {
            Ok(Some(stored)) => stored,
            Ok(None) => return Ok(None),
            Err(err) => return Err(format!("info string the store was not read: {err}")),
        };
        let analysis = &stored.analysis;
        if depth.is_some_and(|d| analysis.depth < d) && !analysis.score.is_decisive() {
            return Ok(None);
        }
        let info = format!(
            "info depth {} score {} nodes {} pv{} string from the store: {} {} {}",
            analysis.depth,
            score_text(analysis.score),
            analysis.nodes,
            pv_text(state, &stored.pv),
            analysis.engine,
            analysis.version,
            analysis.searcher,
        );
        let best = format!("bestmove {}", state.format_move_token(stored.best));
        Ok(Some(vec![info, best]))
    }
}
