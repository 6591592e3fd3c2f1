//! The HTTP API of the web page and the page's files. Every request body is JSON (at most
//! [`MAX_BODY`] bytes, each piece of it within the read timeout) and every `POST` says so
//! (`Content-Type: application/json`, also when empty); every request passes the access
//! rules of [`super::access`] first (its `Host` is this server; a state change's `Origin`, if
//! any, too). Every answer is JSON, errors `{"error": "<one line>"}` with a 4xx status, or 503
//! when a limit is reached (games searching, the memory budget). Games are kept in memory, at
//! most `max_games` of them: a new game beyond that replaces the one left alone longest (never
//! one with a search running). A search reserves its tables' megabytes in the memory budget
//! ([`super::budget`]) before its searcher is built, and gives them back when it ends; a
//! search that does not fit is refused (503, or 400 when larger than the whole budget).
//!
//! | method and path | body | answer |
//! |---|---|---|
//! | `GET /`, `/app.js`, `/board.js`, `/moves.js`, `/analysis.js`, `/style.css` | | the page |
//! | `GET /api/info` | | game, sides, start, `variants: [{name, description, rules, position}]`, searchers, record format, `memory: {limit_mb, used_mb}`, `store` (whether a position store is open: the page asks the explorer only then) |
//! | `POST /api/games` | `{"position"?, "moves"?, "line"?, "ply"?}` or `{"record"}` | 201, the new game |
//! | `GET /api/games/{id}` | | the game |
//! | `POST /api/games/{id}/move` | `{"move"}` or `{"moves": [..]}` | the game after it (them) |
//! | `POST /api/games/{id}/undo` | | the game without the current line's last move |
//! | `POST /api/games/{id}/goto` | `{"ply"}` or `{"node"}` | the game showing that position |
//! | `POST /api/games/{id}/promote` | `{"node"}` | the game, the line through `node` its main line |
//! | `POST /api/games/{id}/delete` | `{"node"}` | the game without `node` and what follows it |
//! | `POST /api/games/{id}/engine` | `{"searcher"?, "time_ms"}` | the game after the engine's move |
//! | `POST /api/games/{id}/analyze` | `{"searcher"?, "time_ms"?, "lines"?}` | 202 `{started: "analysis", search, node}`; iterations on the events (`lines`: 1-5 best root moves, `pvs` only) |
//! | `POST /api/games/{id}/stop` | | the game; the running search stops |
//! | `GET /api/games/{id}/events` | | server-sent events: `iteration`, `done` |
//! | `GET /api/games/{id}/record` | | `{format: {name, extension}, text}`: the main line, and variations where the format has them |
//! | `DELETE /api/games/{id}` | | 204 |
//! | `GET /api/explore?position=P&moves=M` | | the opening explorer of the store at that position (default the start; the page's Explorer panel shows it beside the board, a move clicked is played): `{position, games, moves: [{move, games, wins, draws, losses, score}]}`, results from the mover's view; 404 without a store (see [`explore`]) |
//!
//! A game's moves are a tree ([`super::tree`]): node 0 is the start, every other node a move
//! from its parent, the first child the main continuation and the others variations. The
//! *current line* runs from the start to a node (the tip), then on along first children; the
//! position shown is on it. A move (`move`, each of `moves`) is played at the node shown: to
//! its child with that move if it has one, else to a new child, last among its siblings; that
//! node is shown and the current line passes through it. `moves` are all played or, if one is
//! bad, none. `goto` shows the position after `ply` moves of the current line, or the node
//! `node` (off the current line, the current line then passes through it). `promote` moves
//! each node on the path from the start to `node` to the first place among its siblings (the
//! others keep their order; the start cannot be promoted: 400); the current line and the
//! position shown stay. `delete` removes `node` (not the start: 400) and every node after it;
//! a removed node shown, or the tip, becomes the removed node's parent. `undo` removes the
//! current line's last node and shows the new end of the current line. An unknown node is a
//! 400 `bad node N: no such node in this game`.
//!
//! A new game's `moves` is a tree text as a game's `tree_text` writes it (a plain line of moves
//! is one without variations): each stretch between parentheses is read as a line of moves
//! from the position before it, a variation from the position before the move it follows;
//! `line` (moves from the start) then becomes the current line, its moves added where the tree
//! lacks them; `ply` shows the position after that many moves of the current line (without
//! it, the current line's end). A record sets up its main line, and its variations where the
//! format has them (Yinsh's SGF), and shows the main line's end.
//!
//! A game is `{id, position, start, variant, ply, node, moves, line, line_text, tree, tree_text,
//! to_move, to_move_name, sides, outcome, picture, legal: [{move, clicks, alternatives}], last,
//! changed, scores, searching, search}`: `picture` and the click paths come from the game's
//! [`View`] (`clicks` the move's own path, `alternatives` a list of other paths that make it
//! too, often empty: [`View::alternative_clicks`]);
//! `variant` the name of the game's variant its start is ([`View::variant_of`]), or `null`;
//! `node` is the node shown and `ply` its depth (its index in the current line); `moves` the
//! current line's move texts and `line` the same as `[{node, move, mover, mover_name}]`
//! (`mover`: `first` or `second`, the side that played it); `line_text` the current line's
//! moves as one text when it is not the main line, else `null`; `tree` every node, the start
//! first, each before its children: `[{node, parent, move, mover, mover_name, ply, children}]`
//! (`null`s at the start); `tree_text` the whole tree as one text (`a b (c d (e) f) g`: each
//! variation in parentheses right after the move it replaces); `last` the clicks of the move
//! that led to the position shown; `changed` the ids of the cells whose pieces or text that
//! move changed and of the panel items it moved to another panel (empty at the start);
//! `scores` the engine's score of each position of the current line (from the first player's
//! view); `searching` the running search's kind (`engine`, `analysis`) or `null`, `search` it
//! as `{id, kind, node}` (ids count up from 1 in each game) or `null`; `stored` the position
//! store's deepest analysis of the position shown (`{depth, score, best, pv, pv_moves, clicks,
//! family, searcher, engine, version, nodes, written, written_text}`, the score from the first
//! player's view), or `null` (no store, none stored, the game over there): see [`stored`].
//!
//! An analysis runs on the node it started on while the game changes; its score goes to that
//! node when it ends (if it is still there: deleting it stops the analysis). While an engine
//! search runs, changes get 409. A new analysis or engine search stops a running analysis and
//! waits for it (409 if it does not end within 5 s, `STOP_WAIT` of `search`); a running
//! engine search is a 409. The engine's move is played only if nothing changed while it searched. Every
//! `iteration` and `done` event carries `search`, `kind` and `node`; an iteration also
//! `pv_moves` (the principal variation's move texts) and `clicks` (its first move's), and so
//! does each of its `lines`.
//! With a position store (`serve --store`), every finished search with a completed iteration
//! (not MCTS) is written to it before its `done` event, and a game a move ends (a person's
//! `move`, or the engine's) is recorded in it, once per finished node, before the answer (the
//! engine's: before its `done` event), so the explorer counts it.
//!
//! Key invariants: no handler blocks the runtime (searchers are built and run on blocking
//! threads, the game lock is held only to read or change a game); one search at a time per
//! game; the running searches' tables stay within the memory budget (a search gives its share
//! back before its game's next search reserves one); every bad request is answered, never a
//! panic.

mod explore;
mod games;
mod reply;
mod search;
mod stored;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::{get, post};
use plies_view::View;
use tower_http::timeout::RequestBodyTimeoutLayer;

use super::access::Access;
use super::budget::MemoryBudget;
use super::session::Session;
use crate::engine::EvaluatorFactory;
use crate::store::shared::SharedStore;
use crate::tables::TableSource;
use reply::ApiError;

/// The largest request body accepted.
pub(super) const MAX_BODY: usize = 64 * 1024;

/// The longest search a request may ask for, unless the server is set to less.
pub(super) const MAX_SEARCH_MS: u64 = 10 * 60 * 1000;

/// The searchers the page offers (any other spec the registry reads works too).
const SEARCHERS: [&str; 4] = ["pvs", "alphabeta", "mcts", "mcts-heavy"];

/// One game as the handlers and its search thread share it.
type Shared<G> = Arc<Mutex<Session<G>>>;

/// What the server allows.
pub(super) struct Limits {
    /// Games kept in memory.
    pub max_games: usize,
    /// The longest search a request may ask for, in milliseconds.
    pub max_search_ms: u64,
    /// The megabytes all running searches' tables may take together.
    pub max_memory_mb: usize,
    /// The longest wait for the next piece of a request's body.
    pub read_timeout: Duration,
    /// The hosts and origins served.
    pub access: Access,
}

/// What every request handler shares.
pub(super) struct App<G: View> {
    pub name: &'static str,
    pub evaluator: EvaluatorFactory<G>,
    pub start: G,
    pub limits: Limits,
    /// The endgame tables of every search (one source for all requests), if any: each
    /// search takes those ready at its start, for a searcher that uses them.
    pub tables: Option<Arc<TableSource<G>>>,
    /// The position store, if any: the game answers carry its analysis of the position shown,
    /// and every finished search is written to it.
    pub store: Option<Arc<SharedStore>>,
    budget: Arc<MemoryBudget>,
    games: Mutex<HashMap<u64, Shared<G>>>,
    next_id: AtomicU64,
}

impl<G: View> App<G> {
    pub fn new(
        name: &'static str,
        evaluator: EvaluatorFactory<G>,
        start: G,
        limits: Limits,
    ) -> App<G> {
        App {
            name,
            evaluator,
            start,
            budget: MemoryBudget::new(limits.max_memory_mb),
            limits,
            tables: None,
            store: None,
            games: Mutex::new(HashMap::new()),
            // Ids that are not small counters, so a guessed id rarely names another tab's game.
            next_id: AtomicU64::new(seed_id()),
        }
    }

    fn game(&self, id: &str) -> Result<Shared<G>, ApiError> {
        let number: u64 = id
            .parse()
            .map_err(|_| ApiError::not_found(format!("no game '{}'", plies::excerpt(id))))?;
        lock(&self.games)
            .get(&number)
            .cloned()
            .ok_or_else(|| ApiError::not_found(format!("no game '{}'", plies::excerpt(id))))
    }

    /// Stops every running search (the server is shutting down: blocking threads are waited
    /// for, so none may go on to its time limit).
    pub fn stop_all(&self) {
        for game in lock(&self.games).values() {
            if let Some(running) = &lock(game).running {
                running.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    fn insert(&self, session: Session<G>) -> Result<(u64, Shared<G>), ApiError> {
        let mut games = lock(&self.games);
        if games.len() >= self.limits.max_games {
            let idle = games
                .iter()
                .filter_map(|(&id, game)| {
                    let game = lock(game);
                    game.running.is_none().then_some((game.touched, id))
                })
                .min()
                .map(|(_, id)| id);
            match idle {
                Some(id) => {
                    games.remove(&id);
                }
                None => {
                    return Err(ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "too many games are searching; try again later",
                    ));
                }
            }
        }
        let id = self
            .next_id
            .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed)
            % 1_000_000_000_000;
        let game = Arc::new(Mutex::new(session));
        games.insert(id, Arc::clone(&game));
        Ok((id, game))
    }
}

fn seed_id() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1);
    plies::rng::SplitMix64::step(nanos ^ u64::from(std::process::id())).1
}

/// Locks `mutex`; a lock poisoned by a panic elsewhere still gives its data (a game's data is
/// consistent between method calls).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The routes, with `app` as their state: every request passes the access rules
/// ([`super::access`]) first, and a body that stalls longer than the read timeout is cut.
pub(super) fn router<G: View>(app: Arc<App<G>>) -> Router {
    let access = Arc::new(app.limits.access.clone());
    let read_timeout = app.limits.read_timeout;
    Router::new()
        .merge(super::page::routes())
        .route("/api/info", get(games::info::<G>))
        .route("/api/games", post(games::create::<G>))
        .route("/api/explore", get(explore::explore::<G>))
        .route(
            "/api/games/{id}",
            get(games::show::<G>).delete(games::remove::<G>),
        )
        .route("/api/games/{id}/move", post(games::play::<G>))
        .route("/api/games/{id}/undo", post(games::undo::<G>))
        .route("/api/games/{id}/goto", post(games::goto::<G>))
        .route("/api/games/{id}/promote", post(games::promote::<G>))
        .route("/api/games/{id}/delete", post(games::delete::<G>))
        .route("/api/games/{id}/engine", post(search::engine::<G>))
        .route("/api/games/{id}/analyze", post(search::analyze::<G>))
        .route("/api/games/{id}/stop", post(search::stop::<G>))
        .route("/api/games/{id}/events", get(search::events::<G>))
        .route("/api/games/{id}/record", get(games::record::<G>))
        .fallback(|| async { ApiError::not_found("no such page") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(RequestBodyTimeoutLayer::new(read_timeout))
        .layer(axum::middleware::from_fn_with_state(access, reply::guard))
        .layer(axum::middleware::map_response(reply::json_errors))
        .with_state(app)
}
