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
//! | `GET /api/info` | | game, sides, start, `variants: [{name, description, rules, position}]`, searchers, record format, `memory: {limit_mb, used_mb}` |
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
//! to_move, to_move_name, sides, outcome, picture, legal: [{move, clicks}], last, changed,
//! scores, searching, search}`: `picture` and the click paths come from the game's [`View`];
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
//! as `{id, kind, node}` (ids count up from 1 in each game) or `null`.
//!
//! An analysis runs on the node it started on while the game changes; its score goes to that
//! node when it ends (if it is still there: deleting it stops the analysis). While an engine
//! search runs, changes get 409. A new analysis or engine search stops a running analysis and
//! waits for it (409 if it does not end within [`STOP_WAIT`]); a running engine search is a
//! 409. The engine's move is played only if nothing changed while it searched. Every
//! `iteration` and `done` event carries `search`, `kind` and `node`; an iteration also
//! `pv_moves` (the principal variation's move texts) and `clicks` (its first move's), and so
//! does each of its `lines`.
//!
//! Key invariants: no handler blocks the runtime (searchers are built and run on blocking
//! threads, the game lock is held only to read or change a game); one search at a time per
//! game; the running searches' tables stay within the memory budget (a search gives its share
//! back before its game's next search reserves one); every bad request is answered, never a
//! panic.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use plies::search::{SearchLimits, Searcher};
use plies::spec::SearcherSpec;
use plies_view::View;
use serde::Deserialize;
use serde_json::{Value, json};
use tower_http::timeout::RequestBodyTimeoutLayer;

use super::access::Access;
use super::budget::{MemoryBudget, OverBudget, Reservation, searcher_mb};
use super::session::{SearchTag, Session, done_event, iteration_event};
use super::tree::NodeId;
use crate::engine::EvaluatorFactory;
use crate::tables::TableSource;

/// The largest request body accepted.
pub(super) const MAX_BODY: usize = 64 * 1024;

/// The longest search a request may ask for, unless the server is set to less.
pub(super) const MAX_SEARCH_MS: u64 = 10 * 60 * 1000;

/// The longest wait for a running analysis to stop before another search of its game starts.
const STOP_WAIT: Duration = Duration::from_secs(5);

/// An analysis without a time runs this long at most.
const DEFAULT_ANALYSIS_MS: u64 = 60 * 1000;

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

/// An error answer: a status and one line.
#[derive(Debug)]
pub(super) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        let message: String = message.into();
        ApiError {
            status,
            message: crate::text::one_line(&message),
        }
    }
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
    fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }
    fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(json!({"error": self.message}))).into_response()
    }
}

type Reply = Result<Response, ApiError>;

/// The `{id}` of a game's path, or a 400 with one line (a path that is not UTF-8, say).
struct GameId(String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<GameId, ApiError> {
        Path::<String>::from_request_parts(parts, state)
            .await
            .map(|Path(id)| GameId(id))
            .map_err(|e| ApiError::bad(format!("bad game id: {}", e.body_text())))
    }
}

fn ok(value: Value) -> Reply {
    Ok(axum::Json(value).into_response())
}

/// Reads a JSON object body as `T` (an empty body reads as `{}`).
fn body<T: for<'de> Deserialize<'de>>(bytes: &Bytes) -> Result<T, ApiError> {
    let bad = |e: serde_json::Error| ApiError::bad(format!("bad request body: {e}"));
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return serde_json::from_str("{}").map_err(bad);
    }
    let value: Value = serde_json::from_slice(bytes).map_err(bad)?;
    if !value.is_object() {
        return Err(ApiError::bad("bad request body: expected a JSON object"));
    }
    serde_json::from_value(value).map_err(bad)
}

/// The routes, with `app` as their state: every request passes the access rules
/// ([`super::access`]) first, and a body that stalls longer than the read timeout is cut.
pub(super) fn router<G: View>(app: Arc<App<G>>) -> Router {
    let access = Arc::new(app.limits.access.clone());
    let read_timeout = app.limits.read_timeout;
    Router::new()
        .merge(super::page::routes())
        .route("/api/info", get(info::<G>))
        .route("/api/games", post(create::<G>))
        .route("/api/games/{id}", get(show::<G>).delete(remove::<G>))
        .route("/api/games/{id}/move", post(play::<G>))
        .route("/api/games/{id}/undo", post(undo::<G>))
        .route("/api/games/{id}/goto", post(goto::<G>))
        .route("/api/games/{id}/promote", post(promote::<G>))
        .route("/api/games/{id}/delete", post(delete::<G>))
        .route("/api/games/{id}/engine", post(engine::<G>))
        .route("/api/games/{id}/analyze", post(analyze::<G>))
        .route("/api/games/{id}/stop", post(stop::<G>))
        .route("/api/games/{id}/events", get(events::<G>))
        .route("/api/games/{id}/record", get(record::<G>))
        .fallback(|| async { ApiError::not_found("no such page") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(RequestBodyTimeoutLayer::new(read_timeout))
        .layer(axum::middleware::from_fn_with_state(access, guard))
        .layer(axum::middleware::map_response(json_errors))
        .with_state(app)
}

/// Refuses a request the access rules do not allow (see [`super::access`]), before any
/// handler reads it.
async fn guard(State(access): State<Arc<Access>>, request: Request, next: Next) -> Response {
    match access.check(request.method(), request.uri(), request.headers()) {
        Ok(()) => next.run(request).await,
        Err(refusal) => ApiError::new(refusal.status(), refusal.to_string()).into_response(),
    }
}

/// Turns the 4xx answers the HTTP layer gives by itself (a body over the limit, a method a
/// path does not take) into the API's JSON form with one line.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|kind| kind.as_bytes().starts_with(b"application/json"));
    if !status.is_client_error() || is_json {
        return response;
    }
    let bytes = axum::body::to_bytes(response.into_body(), MAX_BODY)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let reason = match text.trim() {
        "" => status
            .canonical_reason()
            .unwrap_or("bad request")
            .to_lowercase(),
        text => plies::excerpt(text),
    };
    ApiError::new(status, reason).into_response()
}

async fn info<G: View>(State(app): State<Arc<App<G>>>) -> Reply {
    ok(json!({
        "game": app.name,
        "sides": {"first": G::side_name(plies::Side::First), "second": G::side_name(plies::Side::Second)},
        "start": app.start.format_position(),
        "variants": G::variants(),
        "searchers": SEARCHERS,
        "record": {"name": G::record_format().name, "extension": G::record_format().extension},
        "memory": {"limit_mb": app.budget.limit_mb(), "used_mb": app.budget.used_mb()},
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

async fn create<G: View>(State(app): State<Arc<App<G>>>, bytes: Bytes) -> Reply {
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
            session.read_record(&tree).map_err(ApiError::bad)?;
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
                .map_err(ApiError::bad)?;
            if let Some(line) = line {
                session.follow(&line).map_err(ApiError::bad)?;
            }
            if let Some(ply) = request.ply {
                session.goto(ply).map_err(ApiError::bad)?;
            }
            session
        }
    };
    let (id, game) = app.insert(session)?;
    let value = lock(&game).to_json(id);
    Ok((StatusCode::CREATED, axum::Json(value)).into_response())
}

async fn record<G: View>(State(app): State<Arc<App<G>>>, GameId(id): GameId) -> Reply {
    let game = app.game(&id)?;
    let text = lock(&game).record();
    let format = G::record_format();
    ok(json!({
        "format": {"name": format.name, "extension": format.extension},
        "text": text,
    }))
}

async fn show<G: View>(State(app): State<Arc<App<G>>>, GameId(id): GameId) -> Reply {
    let game = app.game(&id)?;
    let value = lock(&game).to_json(id.parse().unwrap_or(0));
    ok(value)
}

async fn remove<G: View>(State(app): State<Arc<App<G>>>, GameId(id): GameId) -> Reply {
    let game = app.game(&id)?;
    if let Some(running) = &lock(&game).running {
        running.stop.store(true, Ordering::Relaxed);
    }
    lock(&app.games).retain(|_, other| !Arc::ptr_eq(other, &game));
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Runs `change` on the game `id` unless an engine search runs on it (an analysis goes on, on
/// its node); answers the changed game.
fn change<G: View>(
    app: &App<G>,
    id: &str,
    change: impl FnOnce(&mut Session<G>) -> Result<(), String>,
) -> Reply {
    let game = app.game(id)?;
    let mut session = lock(&game);
    if let Some(running) = session.running.as_ref().filter(|r| r.kind == ENGINE) {
        return Err(ApiError::conflict(format!(
            "a search ({}) is running on this game; stop it first",
            running.kind
        )));
    }
    change(&mut session).map_err(ApiError::bad)?;
    ok(session.to_json(id.parse().unwrap_or(0)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: Option<String>,
    moves: Option<Vec<String>>,
}

async fn play<G: View>(State(app): State<Arc<App<G>>>, GameId(id): GameId, bytes: Bytes) -> Reply {
    let request: MoveRequest = body(&bytes)?;
    match (request.text, request.moves) {
        (Some(text), None) => change(&app, &id, |session| session.play_text(&text)),
        (None, Some(moves)) => {
            let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
            change(&app, &id, |session| session.play_texts(&texts))
        }
        (Some(_), Some(_)) => Err(ApiError::bad(
            "bad request body: give move or moves, not both",
        )),
        (None, None) => Err(ApiError::bad(
            "bad request body: missing field `move` (or `moves`)",
        )),
    }
}

async fn undo<G: View>(State(app): State<Arc<App<G>>>, GameId(id): GameId) -> Reply {
    change(&app, &id, Session::undo)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GotoRequest {
    ply: Option<usize>,
    node: Option<NodeId>,
}

async fn goto<G: View>(State(app): State<Arc<App<G>>>, GameId(id): GameId, bytes: Bytes) -> Reply {
    let request: GotoRequest = body(&bytes)?;
    match (request.ply, request.node) {
        (Some(ply), None) => change(&app, &id, |session| session.goto(ply)),
        (None, Some(node)) => change(&app, &id, |session| session.goto_node(node)),
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

async fn promote<G: View>(
    State(app): State<Arc<App<G>>>,
    GameId(id): GameId,
    bytes: Bytes,
) -> Reply {
    let request: NodeRequest = body(&bytes)?;
    change(&app, &id, |session| session.promote(request.node))
}

async fn delete<G: View>(
    State(app): State<Arc<App<G>>>,
    GameId(id): GameId,
    bytes: Bytes,
) -> Reply {
    let request: NodeRequest = body(&bytes)?;
    change(&app, &id, |session| session.remove(request.node))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchRequest {
    searcher: Option<String>,
    time_ms: Option<u64>,
    /// Root moves to report with their lines (MultiPV), 1..=[`MAX_LINES`]; analyses only.
    lines: Option<usize>,
}

/// The most lines an analysis reports.
const MAX_LINES: usize = 5;

impl SearchRequest {
    /// The searcher's spec and the time limit (`default_ms` when none is given).
    fn checked(
        &self,
        default_ms: Option<u64>,
        max_ms: u64,
    ) -> Result<(SearcherSpec, u64), ApiError> {
        let text = self.searcher.as_deref().unwrap_or("pvs");
        let spec = SearcherSpec::from_str(text)
            .map_err(|e| ApiError::bad(format!("bad searcher: {e}")))?;
        let ms = match (self.time_ms, default_ms) {
            (Some(ms), _) | (None, Some(ms)) => ms,
            (None, None) => return Err(ApiError::bad("bad request: time_ms is missing")),
        };
        if ms == 0 || ms > max_ms {
            return Err(ApiError::bad(format!(
                "bad time_ms {ms}: expected 1..={max_ms}"
            )));
        }
        Ok((spec, ms))
    }

    /// The lines an analysis of `spec` reports (1 unless asked; more only for `pvs`).
    fn lines(&self, spec: &SearcherSpec) -> Result<usize, ApiError> {
        match self.lines {
            None | Some(1) => Ok(1),
            Some(n) if !(1..=MAX_LINES).contains(&n) => Err(ApiError::bad(format!(
                "bad lines {n}: expected 1..={MAX_LINES}"
            ))),
            Some(n) if !matches!(spec, SearcherSpec::Pvs(_)) => Err(ApiError::bad(format!(
                "bad lines {n}: only pvs reports more than one line, not {spec}"
            ))),
            Some(n) => Ok(n),
        }
    }
}

/// A searcher built for one search, and the share of the memory budget its tables hold.
struct Prepared<G: View> {
    /// Declared first: dropped before the reservation that accounts for its tables.
    searcher: Box<dyn Searcher<G>>,
    _reservation: Reservation,
}

/// Reserves the tables of `spec` in the memory budget, then builds its searcher on a blocking
/// thread (a large table takes a while to allocate).
///
/// # Errors
/// The tables are over the budget (400 if over the whole of it, 503 while other searches hold
/// it), or the searcher cannot be built (503: its memory cannot be had).
async fn prepare<G: View>(app: &App<G>, spec: SearcherSpec) -> Result<Prepared<G>, ApiError> {
    let reservation = app.budget.reserve(searcher_mb(&spec)).map_err(|e| {
        let status = match e {
            OverBudget::TooLarge { .. } => StatusCode::BAD_REQUEST,
            OverBudget::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError::new(status, e.to_string())
    })?;
    let evaluator = app.evaluator.clone();
    let built = tokio::task::spawn_blocking(move || evaluator.searcher(&spec, None))
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("cannot start the searcher: {e}"),
            )
        })?;
    let searcher = built.map_err(|e| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("cannot start the searcher: {e}"),
        )
    })?;
    Ok(Prepared {
        searcher,
        _reservation: reservation,
    })
}

/// The kind of search that plays its move when done.
const ENGINE: &str = "engine";
/// The kind of search that only reports.
const ANALYSIS: &str = "analysis";

/// Stops the analysis running on the game `id`, if any, and waits until it has ended (and
/// given its share of the memory budget back), polling.
///
/// # Errors
/// An engine search runs on the game, or the analysis has not ended within [`STOP_WAIT`]
/// (409), or there is no such game.
async fn stop_analysis<G: View>(app: &App<G>, id: &str) -> Result<(), ApiError> {
    let begun = std::time::Instant::now();
    loop {
        {
            let game = app.game(id)?;
            let session = lock(&game);
            let Some(running) = &session.running else {
                return Ok(());
            };
            if running.kind == ENGINE || begun.elapsed() > STOP_WAIT {
                return Err(ApiError::conflict(format!(
                    "a search ({}) is running on this game; stop it first",
                    running.kind
                )));
            }
            running.stop.store(true, Ordering::Relaxed);
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Starts a search of kind `kind` on the game `id` once no analysis runs on it: a running one,
/// also one that a request racing this one started meanwhile, is stopped and waited for (up
/// to [`STOP_WAIT`] in all).
///
/// # Errors
/// As [`stop_analysis`] and [`start_search`].
async fn start_when_free<G: View>(
    app: &App<G>,
    id: &str,
    kind: &'static str,
    ms: u64,
) -> Result<Started<G>, ApiError> {
    let begun = std::time::Instant::now();
    loop {
        stop_analysis(app, id).await?;
        match start_search(app, id, kind, ms) {
            Err(e) if e.status == StatusCode::CONFLICT && begun.elapsed() <= STOP_WAIT => {}
            other => return other,
        }
    }
}

/// A search started on a game: what it searches and how.
struct Started<G: View> {
    game: Shared<G>,
    state: G,
    history: plies::GameHistory,
    tag: SearchTag,
    generation: u64,
    limits: SearchLimits,
    /// Raised to stop the search.
    stop: Arc<AtomicBool>,
    events: tokio::sync::broadcast::Sender<String>,
    /// Where its endgame tables come from, if any.
    tables: Option<Arc<TableSource<G>>>,
}

/// Starts a search of kind `kind` on the node the game `id` shows, or says why not.
fn start_search<G: View>(
    app: &App<G>,
    id: &str,
    kind: &'static str,
    ms: u64,
) -> Result<Started<G>, ApiError> {
    let game = app.game(id)?;
    let mut session = lock(&game);
    if let Some(running) = &session.running {
        return Err(ApiError::conflict(format!(
            "a search ({}) is running on this game; stop it first",
            running.kind
        )));
    }
    if let Some(outcome) = session.outcome() {
        return Err(ApiError::bad(format!(
            "nothing to search: the game is over ({})",
            crate::text::outcome_text::<G>(outcome)
        )));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let limits = SearchLimits::time(Duration::from_millis(ms))
        .until_proven()
        .with_stop(Arc::clone(&stop));
    let search = session.start(kind, Arc::clone(&stop));
    let started = Started {
        state: session.shown().clone(),
        history: session.history(),
        tag: SearchTag {
            id: search,
            kind,
            node: session.shown_node(),
        },
        generation: session.generation,
        limits,
        stop,
        events: session.sender(),
        game: Arc::clone(&game),
        tables: app.tables.clone(),
    };
    drop(session);
    Ok(started)
}

/// Runs the search of `started` with `prepared`'s searcher on this (blocking) thread,
/// streaming its iterations; records its score on its node (if still there) and clears the
/// running mark. An engine search plays its best move, if the game is still where the search
/// began (under the same lock that checks it). The searcher and its share of the memory
/// budget go before the running mark and the `done` event, which goes last, so a page that
/// reads the game on it finds the search over, and the next search finds the memory free.
fn run_search<G: View>(started: &Started<G>, prepared: Prepared<G>, kind: &'static str) {
    /// Clears the game's running mark if the search panics (otherwise that is done below).
    struct Panicked<'a, G: View>(&'a Mutex<Session<G>>, u64);
    impl<G: View> Drop for Panicked<'_, G> {
        fn drop(&mut self) {
            if std::thread::panicking() {
                let mut session = lock(self.0);
                if session.running.as_ref().is_some_and(|r| r.id == self.1) {
                    session.running = None;
                }
            }
        }
    }
    let _panicked = Panicked(&started.game, started.tag.id);
    let mut prepared = prepared;
    let events = started.events.clone();
    let state = &started.state;
    // The tables ready now (read at once when cached, else built in the background for a
    // later search; with --tables-wait, once there); a searcher that does not use tables
    // searches without.
    let probe = started.tables.as_ref().and_then(|tables| {
        if tables.waits() {
            tables.wait(state).unwrap_or(None)
        } else {
            tables.snapshot(state)
        }
    });
    if let Some(probe) = probe {
        let _ = prepared.searcher.set_endgame_tables(Some(probe));
    }
    let tag = started.tag;
    let result =
        prepared
            .searcher
            .search_with(state, &started.history, &started.limits, &mut |it| {
                // No reader is not an error: the page may not be listening.
                let _ = events.send(iteration_event(state, it, tag));
            });
    drop(prepared);
    {
        let mut session = lock(&started.game);
        session.running = None;
        if let Some(score) = result.known_score() {
            session.record_score(tag.node, state.side_to_move(), score);
        }
        if kind == ENGINE
            && session.generation == started.generation
            && session.shown_node() == tag.node
            && let Some(mv) = result.best_move
        {
            session.play(mv);
        }
    }
    let _ = events.send(done_event(state, tag, &result));
}

/// Raises a search's stop flag when dropped: an engine request whose client went away (its
/// handler dropped) does not search on for nobody.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

async fn engine<G: View>(
    State(app): State<Arc<App<G>>>,
    GameId(id): GameId,
    bytes: Bytes,
) -> Reply {
    let request: SearchRequest = body(&bytes)?;
    let (spec, ms) = request.checked(None, app.limits.max_search_ms)?;
    if request.lines.is_some() {
        return Err(ApiError::bad("bad request: lines are for analyses"));
    }
    stop_analysis(&app, &id).await?;
    let prepared = prepare(&app, spec).await?;
    let started = start_when_free(&app, &id, ENGINE, ms).await?;
    let game = Arc::clone(&started.game);
    let _stop = StopOnDrop(Arc::clone(&started.stop));
    tokio::task::spawn_blocking(move || run_search(&started, prepared, ENGINE))
        .await
        .map_err(|e| {
            // The search panicked (its running mark is cleared): say so.
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("search failed: {e}"),
            )
        })?;
    let session = lock(&game);
    ok(session.to_json(id.parse().unwrap_or(0)))
}

async fn analyze<G: View>(
    State(app): State<Arc<App<G>>>,
    GameId(id): GameId,
    bytes: Bytes,
) -> Reply {
    let request: SearchRequest = body(&bytes)?;
    let (spec, ms) = request.checked(
        Some(DEFAULT_ANALYSIS_MS.min(app.limits.max_search_ms)),
        app.limits.max_search_ms,
    )?;
    let lines = request.lines(&spec)?;
    stop_analysis(&app, &id).await?;
    let prepared = prepare(&app, spec).await?;
    let mut started = start_when_free(&app, &id, ANALYSIS, ms).await?;
    started.limits.multipv = lines;
    let tag = started.tag;
    tokio::task::spawn_blocking(move || {
        run_search(&started, prepared, ANALYSIS);
    });
    Ok((
        StatusCode::ACCEPTED,
        axum::Json(json!({"started": ANALYSIS, "search": tag.id, "node": tag.node})),
    )
        .into_response())
}

async fn stop<G: View>(State(app): State<Arc<App<G>>>, GameId(id): GameId) -> Reply {
    let game = app.game(&id)?;
    let session = lock(&game);
    if let Some(running) = &session.running {
        running.stop.store(true, Ordering::Relaxed);
    }
    ok(session.to_json(id.parse().unwrap_or(0)))
}

async fn events<G: View>(
    State(app): State<Arc<App<G>>>,
    GameId(id): GameId,
) -> Result<Response, ApiError> {
    let game = app.game(&id)?;
    let receiver = lock(&game).subscribe();
    let stream = futures_util::stream::unfold(receiver, |mut receiver| async move {
        loop {
            match receiver.recv().await {
                Ok(message) => {
                    let (name, data) = message.split_once('\n').unwrap_or(("message", ""));
                    let event = Event::default().event(name).data(data);
                    return Some((Ok::<Event, std::convert::Infallible>(event), receiver));
                }
                // A slow reader skips what it missed.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    let mut response = Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response();
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        "no-cache".parse().expect("a header value"),
    );
    Ok(response)
}
