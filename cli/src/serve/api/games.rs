//! The handlers that read and change a game: its creation (a position and moves, a tree, a
//! record), showing it, its record, moves, navigation in its tree, promotion and deletion.
//!
//! Key invariant: a change is refused (409) while an engine search runs on the game; an
//! analysis goes on, on its own node.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use plies_view::View;
use serde::Deserialize;
use serde_json::json;

use super::super::edit_error::EditError;
use super::super::session::Session;
use super::super::tree::NodeId;
use super::reply::{ApiError, GameId, Reply, body, ok};
use super::search::ENGINE;
use super::stored::{game_json, game_reply};
use super::{App, SEARCHERS, lock};

pub(super) async fn info<G: View>(State(app): State<Arc<App<G>>>) -> Reply {
    ok(json!({
        "game": app.name,
        "sides": {"first": G::side_name(plies::Side::First), "second": G::side_name(plies::Side::Second)},
        "start": app.start.format_position(),
        "variants": G::variants(),
        "searchers": SEARCHERS,
        "record": {"name": G::record_format().name, "extension": G::record_format().extension},
        "memory": {"limit_mb": app.budget.limit_mb(), "used_mb": app.budget.used_mb()},
        "store": app.store.is_some(),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    position: Option<String>,
    /// A tree of moves, as a game's `tree_text`.
    moves: Option<String>,
    /// The current line: moves from the start.
    line: Option<String>,
    /// The position of the current line shown.
    ply: Option<usize>,
    record: Option<String>,
}

pub(super) async fn create<G: View>(State(app): State<Arc<App<G>>>, bytes: Bytes) -> Reply {
    let request: NewGame = body(&bytes)?;
    let session = match request.record {
        Some(_)
            if request.position.is_some()
                || request.moves.is_some()
                || request.line.is_some()
                || request.ply.is_some() =>
        {
            return Err(ApiError::bad(
                "give a record, or a position and moves (a line, a ply), not both",
            ));
        }
        Some(text) => {
            let (start, tree) = G::read_record_tree(&text)
                .map_err(|e| ApiError::bad(format!("bad record: {e}")))?;
            let mut session = Session::new(start);
            session.read_record(&tree).map_err(ApiError::from)?;
            session
        }
        None => {
            let start = match request.position.as_deref().map(str::trim) {
                Some(text) if !text.is_empty() => G::parse_position(text)
                    .map_err(|e| ApiError::bad(format!("bad position: {e}")))?,
                _ => app.start.clone(),
            };
            let line = match &request.line {
                Some(text) => Some(
                    start
                        .parse_line(text)
                        .map_err(|e| ApiError::bad(format!("bad line: {e}")))?,
                ),
                None => None,
            };
            let mut session = Session::new(start);
            session
                .read_tree(request.moves.as_deref().unwrap_or_default())
                .map_err(ApiError::from)?;
            if let Some(line) = line {
                session.follow(&line).map_err(ApiError::from)?;
            }
            if let Some(ply) = request.ply {
                session.goto(ply).map_err(ApiError::from)?;
            }
            session
        }
    };
    let (id, game) = app.insert(session)?;
    let value = game_json(&app, &game, id).await;
    Ok((StatusCode::CREATED, axum::Json(value)).into_response())
}

pub(super) async fn record<G: View>(State(app): State<Arc<App<G>>>, GameId(id): GameId) -> Reply {
    let game = app.game(&id)?;
    let text = lock(&game).record();
    let format = G::record_format();
    ok(json!({
        "format": {"name": format.name, "extension": format.extension},
        "text": text,
    }))
}

pub(super) async fn show<G: View>(State(app): State<Arc<App<G>>>, GameId(id): GameId) -> Reply {
    let game = app.game(&id)?;
    game_reply(&app, &game, &id).await
}

pub(super) async fn remove<G: View>(State(app): State<Arc<App<G>>>, GameId(id): GameId) -> Reply {
    let game = app.game(&id)?;
    if let Some(running) = &lock(&game).running {
        running.stop.store(true, Ordering::Relaxed);
    }
    lock(&app.games).retain(|_, other| !Arc::ptr_eq(other, &game));
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Runs `change` on the game `id` unless an engine search runs on it (an analysis goes on, on
/// its node); answers the changed game.
async fn change<G: View>(
    app: &App<G>,
    id: &str,
    change: impl FnOnce(&mut Session<G>) -> Result<(), EditError>,
) -> Reply {
    let game = app.game(id)?;
    {
        let mut session = lock(&game);
        if let Some(running) = session.running.as_ref().filter(|r| r.kind == ENGINE) {
            return Err(ApiError::conflict(format!(
                "a search ({}) is running on this game; stop it first",
                running.kind
            )));
        }
        change(&mut session).map_err(ApiError::from)?;
    }
    game_reply(app, &game, id).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: Option<String>,
    moves: Option<Vec<String>>,
}

pub(super) async fn play<G: View>(
    State(app): State<Arc<App<G>>>,
    GameId(id): GameId,
    bytes: Bytes,
) -> Reply {
    let request: MoveRequest = body(&bytes)?;
    let reply = match (request.text, request.moves) {
        (Some(text), None) => change(&app, &id, |session| session.play_text(&text)).await?,
        (None, Some(moves)) => {
            let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
            change(&app, &id, |session| session.play_texts(&texts)).await?
        }
        (Some(_), Some(_)) => {
            return Err(ApiError::bad(
                "bad request body: give move or moves, not both",
            ));
        }
        (None, None) => {
            return Err(ApiError::bad(
                "bad request body: missing field `move` (or `moves`)",
            ));
        }
    };
    record_finished(&app, &app.game(&id)?).await;
    Ok(reply)
}

/// Records the game in the position store (if any) when it ended at the position shown, once
/// per finished line ([`Session::finished_game`]); done before the move's answer, so that the
/// explorer asked next counts it.
async fn record_finished<G: View>(app: &App<G>, game: &super::Shared<G>) {
    let Some(store) = app.store.clone() else {
        return;
    };
    let Some(row) = lock(game).finished_game(app.name) else {
        return;
    };
    // A failure is one line on stderr; the move stands.
    let _ = tokio::task::spawn_blocking(move || store.record_game::<G>(&row)).await;
}

pub(super) async fn undo<G: View>(State(app): State<Arc<App<G>>>, GameId(id): GameId) -> Reply {
    change(&app, &id, Session::undo).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GotoRequest {
    ply: Option<usize>,
    node: Option<NodeId>,
}

pub(super) async fn goto<G: View>(
    State(app): State<Arc<App<G>>>,
    GameId(id): GameId,
    bytes: Bytes,
) -> Reply {
    let request: GotoRequest = body(&bytes)?;
    match (request.ply, request.node) {
        (Some(ply), None) => change(&app, &id, |session| session.goto(ply)).await,
        (None, Some(node)) => change(&app, &id, |session| session.goto_node(node)).await,
        (Some(_), Some(_)) => Err(ApiError::bad(
            "bad request body: give ply or node, not both",
        )),
        (None, None) => Err(ApiError::bad(
            "bad request body: missing field `ply` (or `node`)",
        )),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NodeRequest {
    node: NodeId,
}

pub(super) async fn promote<G: View>(
    State(app): State<Arc<App<G>>>,
    GameId(id): GameId,
    bytes: Bytes,
) -> Reply {
    let request: NodeRequest = body(&bytes)?;
    change(&app, &id, |session| session.promote(request.node)).await
}

pub(super) async fn delete<G: View>(
    State(app): State<Arc<App<G>>>,
    GameId(id): GameId,
    bytes: Bytes,
) -> Reply {
    let request: NodeRequest = body(&bytes)?;
    change(&app, &id, |session| session.remove(request.node)).await
}
