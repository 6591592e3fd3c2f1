//! `GET /api/explore?position=P&moves=M`: the opening explorer of the position store for a
//! position (default the game's start; `moves` played from it), as `explore --json` writes
//! it: `{position, games, moves: [{move, games, wins, draws, losses, score}]}`, results from
//! the view of the side that played the move, the most played move first.
//!
//! Key invariants: the store is read on a blocking thread, never under a game's lock; the
//! answer is bounded (at most [`MAX_EXPLORED`] moves; position and moves texts of at most
//! [`MAX_QUERY_TEXT`] bytes); bad input is a 400 with one line, no store a 404, a store that
//! fails a 500 with one line.

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use plies_view::View;
use serde::Deserialize;

use super::App;
use super::reply::{ApiError, Reply, ok};
use crate::explore::explore_json;
#[cfg(doc)]
use crate::store::games::MAX_EXPLORED;

/// The longest `position` or `moves` text the explorer reads.
pub(super) const MAX_QUERY_TEXT: usize = 4096;

/// The query of `GET /api/explore`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ExploreQuery {
    /// The position, in the game's notation (default the start position).
    position: Option<String>,
    /// Moves played from it first, separated by spaces.
    moves: Option<String>,
}

/// `GET /api/explore`.
pub(super) async fn explore<G: View>(
    State(app): State<Arc<App<G>>>,
    query: Result<Query<ExploreQuery>, QueryRejection>,
) -> Reply {
    let Query(query) = query.map_err(|e| ApiError::bad(format!("bad query: {}", e.body_text())))?;
    for (name, text) in [("position", &query.position), ("moves", &query.moves)] {
        if text
            .as_ref()
            .is_some_and(|text| text.len() > MAX_QUERY_TEXT)
        {
            return Err(ApiError::bad(format!(
                "bad {name}: longer than {MAX_QUERY_TEXT} bytes"
            )));
        }
    }
    let base = match &query.position {
        Some(text) => {
            G::parse_position(text).map_err(|e| ApiError::bad(format!("bad position: {e}")))?
        }
        None => app.start.clone(),
    };
    let state = match &query.moves {
        Some(line) => base
            .play_line(line)
            .map_err(|e| ApiError::bad(format!("bad moves: {e}")))?,
        None => base,
    };
    let Some(store) = app.store.clone() else {
        return Err(ApiError::not_found(
            "no position store: the explorer needs one (serve --store PATH)",
        ));
    };
    let answer = tokio::task::spawn_blocking(move || {
        store
            .explore(&state)
            .map(|counts| explore_json(&state.format_position(), &counts))
    })
    .await
    .map_err(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the explorer failed"))?;
    match answer {
        Ok(value) => ok(value),
        Err(err) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            err.to_string(),
        )),
    }
}
