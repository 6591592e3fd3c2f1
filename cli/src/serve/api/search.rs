//! The handlers that search: the engine's move, an analysis streamed on the game's events,
//! stopping; and how a search is prepared (its memory reserved, its searcher built), started on
//! the node shown and run on a blocking thread.
//!
//! Key invariants: one search at a time per game; a searcher is built and run on a blocking
//! thread, never on the runtime's workers; its share of the memory budget is given back before
//! the `done` event, which goes last.

use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use plies::search::{SearchLimits, Searcher};
use plies::spec::SearcherSpec;
use plies_view::View;
use serde::Deserialize;
use serde_json::json;

use super::super::budget::{OverBudget, Reservation, searcher_mb};
use super::super::session::{SearchTag, Session, done_event, iteration_event};
use super::reply::{ApiError, GameId, Reply, body};
use super::stored::game_reply;
use super::{App, Shared, lock};
use crate::store::EvaluatorKind;
use crate::store::lookup::family_of;
use crate::store::shared::SharedStore;
use crate::tables::TableSource;

/// The longest wait for a running analysis to stop before another search of its game starts.
const STOP_WAIT: Duration = Duration::from_secs(5);

/// An analysis without a time runs this long at most.
const DEFAULT_ANALYSIS_MS: u64 = 60 * 1000;

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
    /// The searcher family its results are stored under, or `None` when they are not (MCTS).
    family: Option<String>,
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
    let family = family_of(&EvaluatorKind::Default, &spec);
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
        family,
    })
}

/// The kind of search that plays its move when done.
pub(super) const ENGINE: &str = "engine";
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
    /// Where its result (and the game, when the engine's move ends it) is written, if
    /// anywhere.
    store: Option<Arc<SharedStore>>,
    /// The program's name (the game), as the store records games.
    game_name: &'static str,
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
        store: app.store.clone(),
        game_name: app.name,
    };
    drop(session);
    Ok(started)
}

/// Runs the search of `started` with `prepared`'s searcher on this (blocking) thread,
/// streaming its iterations; records its score on its node (if still there) and clears the
/// running mark. An engine search plays its best move, if the game is still where the search
/// began (under the same lock that checks it). Its result is written to the store (if any, and
/// the search has a completed iteration) before the running mark is cleared, so a game read
/// after the `done` event has it as `stored`. The searcher and its share of the memory
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
    let (name, family) = (prepared.searcher.name(), prepared.family.take());
    drop(prepared);
    if let (Some(store), Some(family)) = (&started.store, family) {
        store.save(state, &result, &family, &name);
    }
    let mut finished = None;
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
            session.play_by_engine(mv, name.clone());
            if started.store.is_some() {
                finished = session.finished_game(started.game_name);
            }
        }
    }
    // Out of the game's lock: the store may take a while.
    if let (Some(store), Some(row)) = (&started.store, finished) {
        store.record_game::<G>(&row);
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

pub(super) async fn engine<G: View>(
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
    game_reply(&app, &game, &id).await
}

pub(super) async fn analyze<G: View>(
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

pub(super) async fn stop<G: View>(State(app): State<Arc<App<G>>>, GameId(id): GameId) -> Reply {
    let game = app.game(&id)?;
    if let Some(running) = &lock(&game).running {
        running.stop.store(true, Ordering::Relaxed);
    }
    game_reply(&app, &game, &id).await
}

pub(super) async fn events<G: View>(
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
