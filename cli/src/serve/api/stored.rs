//! The position store on the page: every game answer carries `stored`, the deepest stored
//! analysis of the position shown (read before any search, like a cloud evaluation), and
//! every finished search of the page is written to the store (see the API docs in
//! [`super`]).
//!
//! Key invariants: the store is read and written on blocking threads, never on the runtime's
//! workers, and never under a game's lock; a store that fails to answer gives `stored: null`
//! (said on stderr), never a failed request.

use std::sync::Arc;

use plies_view::View;
use serde_json::{Value, json};

use super::super::session::{pv_json, score_json};
use super::reply::{Reply, ok};
use super::{App, Shared, lock};
use crate::store::lookup::Stored;
use crate::store::shared::{DEFAULT_FAMILIES, SharedStore};
use crate::store::utc_text;

/// A stored analysis of `state` as the page reads it: `{depth, score, best, pv, pv_moves,
/// clicks, family, searcher, engine, version, nodes, written, written_text}`, the score from
/// the first player's view as every score of the page.
pub(super) fn stored_json<G: View>(state: &G, stored: &Stored<G>) -> Value {
    let analysis = &stored.analysis;
    let (pv, pv_moves, clicks) = pv_json(state, &stored.pv);
    json!({
        "depth": analysis.depth,
        "score": score_json::<G>(analysis.score, state.side_to_move()),
        "best": state.format_move(stored.best),
        "pv": pv,
        "pv_moves": pv_moves,
        "clicks": clicks,
        "family": analysis.family,
        "searcher": analysis.searcher,
        "engine": analysis.engine,
        "version": analysis.version,
        "nodes": analysis.nodes,
        "written": analysis.written,
        "written_text": utc_text(analysis.written),
    })
}

/// The stored analysis of `state` as [`stored_json`] writes it, or `null`: read on a blocking
/// thread.
pub(super) async fn stored_of<G: View>(store: Option<Arc<SharedStore>>, state: G) -> Value {
    let Some(store) = store else {
        return Value::Null;
    };
    let read =
        tokio::task::spawn_blocking(move || match store.deepest(&state, &DEFAULT_FAMILIES) {
            Ok(Some(stored)) => stored_json(&state, &stored),
            Ok(None) => Value::Null,
            Err(err) => {
                eprintln!("warning: the store was not read: {err}");
                Value::Null
            }
        });
    read.await.unwrap_or(Value::Null)
}

/// The game `game` (numbered `id`) as the page reads it, with the stored analysis of the
/// position shown (none once the game is over).
pub(super) async fn game_json<G: View>(app: &App<G>, game: &Shared<G>, id: u64) -> Value {
    let (mut value, shown) = {
        let session = lock(game);
        let shown = session.outcome().is_none().then(|| session.shown().clone());
        (session.to_json(id), shown)
    };
    value["stored"] = match shown {
        Some(state) => stored_of(app.store.clone(), state).await,
        None => Value::Null,
    };
    value
}

/// [`game_json`] as an answer.
pub(super) async fn game_reply<G: View>(app: &App<G>, game: &Shared<G>, id: &str) -> Reply {
    ok(game_json(app, game, id.parse().unwrap_or(0)).await)
}
