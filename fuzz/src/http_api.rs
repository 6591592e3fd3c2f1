//! The `http-api` target: scripts of requests to the web page's HTTP API (`serve`, here for
//! Kalah), sent in process through the page's router. One request per line,
//! `[!host=H] [!origin=O] [!type=T] [!async] METHOD PATH [BODY]`; `{id}` in a path stands for
//! the game the script last created, and words such as `$node`, `$tree` or `$walk:5` in a
//! path or body for data of the game as the script last saw it (`http_api/script.rs`). A
//! request has `Host: localhost` and `Content-Type: application/json` and no `Origin` unless
//! the line says otherwise (an empty value leaves the header out), so scripts can be what
//! another site's page sends: a rebound `Host`, a foreign `Origin`, a form or text/plain
//! body. A line `!async ...` sends its request without waiting for the answer (an engine
//! search that changes come in during, two searches started at once), `!join` waits for
//! those answers, `!sleep N` waits N (at most 20) milliseconds while searches run on. With
//! `PLIES_FUZZ_SHOW` set, each request and answer is printed to stderr (what a saved input
//! does, for `replay`).
//!
//! Key invariant (the promise checked): no request gets a 5xx other than a 503 (a limit:
//! games searching, the memory budget) or panics the server; every answer of the API is JSON,
//! every 4xx and 503 carries a one-line `error`; a request from another site is refused
//! before it does anything: a `Host` that is not this server (the router answers as
//! `serve` on 127.0.0.1 port 80) gets 403 (400 without one), a state change whose `Origin` is
//! another site 403, a body that is not said to be JSON 415; searches are capped at a few
//! milliseconds so no script can hang the target. And the move tree keeps its contract
//! (`http_api/oracle.rs`): every game answered agrees with itself (`tree`, `node`, `ply`,
//! `moves`, `line`, `line_text`, `tree_text`); a new game from its `start`, `tree_text`,
//! `line_text` and `ply` (on a second router) has the same `tree_text`, `moves` and `ply`,
//! and one from its record the same start and its main line; while no `!async` request is
//! out, each change did what it says and nothing more, a refused one changed nothing, a
//! change is never a 409 (no engine search can be running), and an analysis starts on the
//! node shown; an event stream's `iteration` and `done` events name their search, kind and
//! node; a new search is never a quick 409 for a running analysis (the server stops it and
//! waits, also for one that a racing request started).

mod oracle;
mod script;

use std::collections::HashMap;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes, HttpBody};
use axum::http::{Method, Request, StatusCode, header};
use plies::Notation;
use plies_cli::{GameCli, evaluator, page_router};
use plies_kalah::{Kalah, StoreDifference};
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::driver::Target;

/// Lines per script.
const MAX_REQUESTS: usize = 32;

/// The server's largest request body (`MAX_BODY` of `serve/api.rs`): a round trip that would
/// need a larger one is not tried.
const MAX_BODY: usize = 64 * 1024;

/// How long an event stream is read.
const EVENTS_WAIT: Duration = Duration::from_millis(10);

/// The longest `!sleep`, in milliseconds.
const SLEEP_MAX_MS: u64 = 20;

/// The generated scripts among the seeds, and their generator's seed.
const GENERATED: usize = 24;
const GENERATOR_SEED: u64 = 0x7EE5;

/// The target.
pub fn target() -> Target {
    Target {
        name: "http-api",
        about: "request scripts against the web page's HTTP API (Kalah), in process",
        seeds,
        dictionary: &[
            "GET ",
            "POST ",
            "DELETE ",
            "PUT ",
            "/api/games",
            "/api/games/{id}",
            "/move",
            "/undo",
            "/goto",
            "/promote",
            "/delete",
            "/engine",
            "/analyze",
            "/stop",
            "/events",
            "/record",
            "/api/info",
            "{}",
            "{\"move\": \"",
            "{\"ply\": ",
            "{\"node\": ",
            "{\"node\": $node}",
            "{\"moves\": [",
            "{\"moves\": []}",
            "{\"moves\": $walk:9}",
            "\"line\": ",
            "\"ply\": ",
            "$node",
            "$shown",
            "$ply",
            "$tree",
            "$line",
            "$start",
            "$legal",
            "$walk:",
            "$text:",
            "$rep:10000:($",
            "$rep:",
            "(",
            ")",
            " (",
            ") ",
            "-1",
            "1.5",
            "18446744073709551616",
            "\"1\"",
            "null",
            "!async ",
            "!join",
            "!sleep 5",
            "{\"time_ms\": ",
            "\"searcher\": \"",
            "pvs",
            "mcts",
            "\"position\": \"",
            "\"moves\": \"",
            "\"record\": \"",
            "position ",
            "\\n",
            "4,4,4|0 4,4,4|0 n",
            "%FF",
            "\n",
            "!host=",
            "!host=evil.example ",
            "!host=localhost:8080 ",
            "!host=127.0.0.1 ",
            "!host=[::1]:80 ",
            "!origin=",
            "!origin=http://evil.example ",
            "!origin=http://localhost ",
            "!origin=null ",
            "!type=",
            "!type=text/plain ",
            "!type=application/x-www-form-urlencoded ",
            "!type=multipart/form-data;boundary=x ",
            "!type=application/json;charset=utf-8 ",
            "move=a",
        ],
        run,
    }
}

fn seeds() -> Vec<Vec<u8>> {
    let mut seeds = hand_written_seeds();
    seeds.extend(script::generated(GENERATED, GENERATOR_SEED));
    seeds
}

fn hand_written_seeds() -> Vec<Vec<u8>> {
    let script = [
        "POST /api/games {}",
        "GET /api/games/{id}",
        "POST /api/games/{id}/move {\"move\": \"c\"}",
        "POST /api/games/{id}/engine {\"time_ms\": 5}",
        "POST /api/games/{id}/undo",
        "POST /api/games/{id}/goto {\"ply\": 0}",
        "POST /api/games/{id}/analyze {\"time_ms\": 5, \"searcher\": \"mcts\"}",
        "POST /api/games/{id}/stop",
        "GET /api/games/{id}/events",
        "GET /api/games/{id}/record",
        "DELETE /api/games/{id}",
        "GET /api/info",
    ];
    vec![
        script.join("\n").into_bytes(),
        b"POST /api/games {\"position\": \"1,0,0|20 0,0,1|25 s\", \"moves\": \"a\"}\nPOST /api/games/{id}/move {\"move\": \"a\"}".to_vec(),
        b"POST /api/games {\"moves\": \"a b c\"}\nPOST /api/games/{id}/engine {\"time_ms\": 99999999}".to_vec(),
        b"GET /\nGET /app.js\nGET /nothing".to_vec(),
        b"POST /api/games {\"record\": \"# a game\\nc\\n1. a b\"}\nGET /api/games/{id}/record".to_vec(),
        // What another site's page can send, and the page's own requests beside them.
        [
            "POST /api/games {}",
            "!host=evil.example GET /api/info",
            "!host=evil.example:80 GET /api/games/{id}",
            "!host=evil.example POST /api/games/{id}/analyze {}",
            "!origin=http://evil.example !type=text/plain POST /api/games {}",
            "!origin=http://evil.example POST /api/games/{id}/engine {\"time_ms\": 5}",
            "!type=application/x-www-form-urlencoded POST /api/games/{id}/move move=a",
            "!type=multipart/form-data;boundary=x POST /api/games --x--",
            "!type= POST /api/games/{id}/undo",
            "!origin=null DELETE /api/games/{id}",
            "!host= GET /api/info",
            "!host=127.0.0.1:80 !origin=http://localhost POST /api/games/{id}/move {\"move\": \"a\"}",
            "!host=[::1] !type=application/json;charset=utf-8 POST /api/games/{id}/undo",
            "POST /api/games/{id}/analyze {\"searcher\": \"pvs:tt=65536\"}",
        ]
        .join("\n")
        .into_bytes(),
        // The move tree: variations made, shown, promoted and deleted, and read back.
        [
            "POST /api/games {\"moves\": \"c (a) (b) f (b a) (e) a\", \"line\": \"c e\", \"ply\": 1}",
            "POST /api/games/{id}/move {\"moves\": $walk:6}",
            "POST /api/games/{id}/goto {\"node\": $node}",
            "POST /api/games/{id}/move {\"move\": $legal}",
            "POST /api/games/{id}/promote {\"node\": $node}",
            "POST /api/games/{id}/goto {\"ply\": $ply}",
            "POST /api/games/{id}/delete {\"node\": $node}",
            "POST /api/games {\"position\": $start, \"moves\": $tree, \"line\": $line, \"ply\": $ply}",
            "POST /api/games/{id}/undo",
            "POST /api/games/{id}/promote {\"node\": 0}",
            "POST /api/games/{id}/delete {\"node\": 0}",
            "GET /api/games/{id}",
        ]
        .join("\n")
        .into_bytes(),
        // Bad node ids and bodies: huge, negative, a float, a string, both fields, neither.
        [
            "POST /api/games {\"moves\": \"c f\"}",
            "POST /api/games/{id}/goto {\"node\": 18446744073709551616}",
            "POST /api/games/{id}/goto {\"node\": 18446744073709551615}",
            "POST /api/games/{id}/promote {\"node\": -1}",
            "POST /api/games/{id}/delete {\"node\": 1.5}",
            "POST /api/games/{id}/goto {\"node\": \"1\"}",
            "POST /api/games/{id}/goto {\"ply\": 1, \"node\": 1}",
            "POST /api/games/{id}/goto {}",
            "POST /api/games/{id}/promote {}",
            "POST /api/games/{id}/move {\"moves\": []}",
            "POST /api/games/{id}/move {\"move\": \"a\", \"moves\": [\"a\"]}",
            "POST /api/games/{id}/move {}",
            "POST /api/games/{id}/move {\"moves\": [$rep:12000:\"a\",$\"a\"]}",
            "POST /api/games/{id}/move {\"moves\": [$rep:20000:\"a\",$\"a\"]}",
        ]
        .join("\n")
        .into_bytes(),
        // Tree texts: unbalanced, empty variations, 10,000 '(' deep.
        [
            "POST /api/games {\"moves\": \"a (b\"}",
            "POST /api/games {\"moves\": \"c) f\"}",
            "POST /api/games {\"moves\": \"(c)\"}",
            "POST /api/games {\"moves\": \"c ()\"}",
            "POST /api/games {\"moves\": \"$rep:10000:($\"}",
            "POST /api/games {\"moves\": \"c $rep:10000:(a $$rep:10000:)$\"}",
            "POST /api/games {\"moves\": \"c $rep:10000:(a $\"}",
            "POST /api/games {\"moves\": \"c f\", \"line\": \"a\", \"ply\": 1}",
            "POST /api/games {\"moves\": \"c f\", \"ply\": 3}",
            "POST /api/games {\"moves\": \"c f\", \"record\": \"c\"}",
        ]
        .join("\n")
        .into_bytes(),
        // Analyses restarted and stopped while the tree changes; an engine search meanwhile.
        [
            "POST /api/games {\"moves\": $text:10}",
            "POST /api/games/{id}/analyze {\"time_ms\": 5}",
            "POST /api/games/{id}/move {\"moves\": $walk:3}",
            "POST /api/games/{id}/analyze {\"lines\": 3}",
            "POST /api/games/{id}/goto {\"node\": $node}",
            "GET /api/games/{id}/events",
            "POST /api/games/{id}/delete {\"node\": $shown}",
            "POST /api/games/{id}/analyze {\"searcher\": \"mcts\"}",
            "POST /api/games/{id}/promote {\"node\": $node}",
            "POST /api/games/{id}/stop",
            "!async POST /api/games/{id}/engine {\"time_ms\": 5}",
            "POST /api/games/{id}/move {\"move\": $legal}",
            "POST /api/games/{id}/delete {\"node\": $node}",
            "!sleep 3",
            "!join",
            "GET /api/games/{id}",
            "POST /api/games/{id}/engine {\"time_ms\": 2}",
        ]
        .join("\n")
        .into_bytes(),
    ]
}

/// What the oracle expects of a header's value: this server's, another's, or either (an odd
/// spelling of this server's name the oracle does not judge).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Allowed,
    Refused,
    Either,
}

/// The names of the server in the fuzzed router (`serve` on 127.0.0.1 port 80).
const LOOPBACK_NAMES: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// Judges `authority` (`NAME[:PORT]`, IPv6 in brackets), the port of none being 80:
/// refused when its name is not one of the server's (`localhost` or a loopback address),
/// allowed when it is one of them bare or with `:80`; anything else is left to the server.
fn judge_authority(authority: &str) -> Verdict {
    let lower = authority.to_ascii_lowercase();
    let name_end = if lower.starts_with('[') {
        lower.find(']').map_or(lower.len(), |end| end + 1)
    } else {
        lower.find([':', '/']).unwrap_or(lower.len())
    };
    let (name, rest) = lower.split_at(name_end);
    let digits = name.trim_start_matches('[').trim_end_matches(']');
    let loopback_address = digits
        .parse::<std::net::IpAddr>()
        .is_ok_and(|address| address.is_loopback() && (name.starts_with('[') == address.is_ipv6()));
    if !LOOPBACK_NAMES.contains(&name) && !loopback_address {
        Verdict::Refused
    } else if rest.is_empty() || rest == ":80" {
        Verdict::Allowed
    } else {
        Verdict::Either
    }
}

/// Judges an `Origin`: refused when it is not a web origin of one of the server's names.
fn judge_origin(origin: &str) -> Verdict {
    let lower = origin.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("http://") {
        judge_authority(rest)
    } else if let Some(rest) = lower.strip_prefix("https://") {
        match judge_authority(rest) {
            Verdict::Refused => Verdict::Refused,
            _ => Verdict::Either,
        }
    } else {
        Verdict::Refused
    }
}

/// The headers a script line sets (`None` to leave one out), and whether its request goes
/// out without waiting for the answer.
struct Headers {
    host: Option<String>,
    origin: Option<String>,
    content_type: Option<String>,
    spawn: bool,
}

/// Splits the `!name=value` words off the front of `line`; the headers and the rest.
fn headers_of(line: &str) -> (Headers, &str) {
    let mut headers = Headers {
        host: Some("localhost".into()),
        origin: None,
        content_type: Some("application/json".into()),
        spawn: false,
    };
    let mut rest = line;
    while let Some(word) = rest.strip_prefix('!') {
        let (setting, after) = word.split_once(' ').unwrap_or((word, ""));
        let (name, value) = setting.split_once('=').unwrap_or((setting, ""));
        let value = (!value.is_empty()).then(|| value.to_string());
        match name {
            "host" => headers.host = value,
            "origin" => headers.origin = value,
            "type" => headers.content_type = value,
            "async" => headers.spawn = true,
            _ => {}
        }
        rest = after;
    }
    (headers, rest)
}

/// The refusal the access rules call for (status and words of the reason), if the oracle
/// can tell: `Some(None)` means the request must get through, `None` that either is right.
/// `authority` is the one of the request target, if it has one (it stands in for a missing
/// `Host`).
fn expected_refusal(
    method: &Method,
    headers: &Headers,
    authority: Option<&str>,
) -> Option<Option<(StatusCode, &'static str)>> {
    let mut sure = true;
    match headers.host.as_deref().or(authority).map(judge_authority) {
        None => return Some(Some((StatusCode::BAD_REQUEST, "Host"))),
        Some(Verdict::Refused) => return Some(Some((StatusCode::FORBIDDEN, "Host"))),
        Some(Verdict::Either) => sure = false,
        Some(Verdict::Allowed) => {}
    }
    let changes = [Method::POST, Method::PUT, Method::PATCH, Method::DELETE].contains(method);
    if changes && let Some(origin) = &headers.origin {
        match judge_origin(origin) {
            Verdict::Refused if sure => {
                return Some(Some((StatusCode::FORBIDDEN, "cross-site")));
            }
            Verdict::Allowed => {}
            _ => sure = false,
        }
    }
    let has_body = [Method::POST, Method::PUT, Method::PATCH].contains(method);
    if has_body {
        let json = headers.content_type.as_deref().is_some_and(|kind| {
            let essence = kind.split(';').next().unwrap_or("").trim();
            essence.eq_ignore_ascii_case("application/json")
        });
        if !json && sure {
            return Some(Some((
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "application/json",
            )));
        }
    }
    sure.then_some(None)
}

/// An answer as the script reads it: the status, the media type and the body (nothing of an
/// event stream sent with `!async`, whose body never ends).
struct Answer {
    status: StatusCode,
    kind: String,
    bytes: Bytes,
    /// From the request sent to the answer's head.
    took: Duration,
}

/// A request sent with `!async`, its answer to come.
struct Pending {
    line: String,
    path: String,
    expected: Option<Option<(StatusCode, &'static str)>>,
    answer: tokio::task::JoinHandle<Answer>,
}

/// The last JSON seen of a game, and whether the script knows it is still so (no `!async`
/// request was out since, which could have changed it unseen).
struct Known {
    game: Value,
    trusted: bool,
}

/// The changes of a game that never meet a running engine search in a script without
/// `!async` requests out (so never get 409).
const CHANGES: [&str; 5] = ["move", "undo", "goto", "promote", "delete"];

/// One script's run.
struct Run {
    router: Router,
    /// A second server, where the round trips of games are tried.
    checker: Router,
    /// The game the script last created.
    id: String,
    games: HashMap<String, Known>,
    pending: Vec<Pending>,
    expander: script::Expander,
    show: bool,
    /// Answers by method, action (or path) and status, and the round trips tried.
    stats: Stats,
}

/// What a script did: its answers counted by `METHOD ACTION STATUS` (`POST goto 200`; the
/// path for a request that is not about one game), and the round trips tried.
#[derive(Default)]
struct Stats {
    answers: std::collections::BTreeMap<String, usize>,
    round_trips: usize,
}

impl Stats {
    fn count(&mut self, method: &str, path: &str, status: StatusCode) {
        let action = match game_path(path) {
            Some((_, Some(op))) => op.to_string(),
            Some((_, None)) => "game".to_string(),
            None => path.split('?').next().unwrap_or("").to_string(),
        };
        let key = format!("{method} {action} {}", status.as_u16());
        *self.answers.entry(key).or_default() += 1;
    }
}

/// The game id and the action (`move`, `goto`, ...; none for the game itself) of a path of a
/// game, with the id as the server reads it.
fn game_path(path: &str) -> Option<(String, Option<&str>)> {
    let rest = path.strip_prefix("/api/games/")?;
    let (id, op) = match rest.split_once('/') {
        Some((id, op)) if !op.contains(['/', '?']) => (id, Some(op)),
        Some(_) => return None,
        None => (rest, None),
    };
    let number: u64 = id.parse().ok()?;
    Some((number.to_string(), op))
}

/// Sends `request` and reads its answer; an event stream is read for [`EVENTS_WAIT`] (or
/// until its first `done` event) when `listen`, else not at all.
async fn send(router: Router, request: Request<Body>, listen: bool) -> Answer {
    let begun = std::time::Instant::now();
    let response = router.oneshot(request).await.expect("infallible");
    let took = begun.elapsed();
    let status = response.status();
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let bytes = if kind.starts_with("text/event-stream") {
        if !listen {
            return Answer {
                status,
                kind,
                bytes: Bytes::new(),
                took,
            };
        }
        let mut body = response.into_body();
        let mut read = Vec::new();
        let deadline = tokio::time::Instant::now() + EVENTS_WAIT;
        loop {
            let frame = std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_frame(cx));
            match tokio::time::timeout_at(deadline, frame).await {
                Ok(Some(Ok(frame))) => {
                    if let Ok(data) = frame.into_data() {
                        read.extend_from_slice(&data);
                    }
                    if read.windows(11).any(|w| w == b"event: done") {
                        break;
                    }
                }
                _ => break,
            }
        }
        Bytes::from(read)
    } else {
        axum::body::to_bytes(response.into_body(), 1 << 24)
            .await
            .expect("a body")
    };
    Answer {
        status,
        kind,
        bytes,
        took,
    }
}

/// A request with this server's own headers and a JSON body.
fn own_request(method: Method, path: &str, body: String) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, "localhost")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .expect("a request")
}

/// Checks the promises every answer keeps (see the module docs); returns its JSON, if any.
fn judge(
    line: &str,
    path: &str,
    expected: Option<Option<(StatusCode, &'static str)>>,
    answer: &Answer,
) -> Option<Value> {
    let status = answer.status;
    let limited = status == StatusCode::SERVICE_UNAVAILABLE;
    assert!(
        !status.is_server_error() || limited,
        "{status} for {line:?}"
    );
    match expected {
        Some(Some((refusal, _))) => {
            assert_eq!(status, refusal, "{line:?} is not refused as it must be");
        }
        Some(None) => assert!(
            status != StatusCode::FORBIDDEN && status != StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{status} for {line:?}: this server's own request is refused"
        ),
        None => {}
    }
    if answer.kind.starts_with("text/event-stream") {
        // An endless stream: its answer is the stream itself.
        let text = String::from_utf8_lossy(&answer.bytes);
        if let Err(e) = oracle::check_events(&text) {
            panic!("{line:?}: {e}");
        }
        return None;
    }
    let bytes = &answer.bytes;
    if !path.starts_with("/api/") && status.is_success() {
        return None; // the page's own files
    }
    if bytes.is_empty() && status.is_success() {
        return None; // 204 after a delete
    }
    let value: Value = serde_json::from_slice(bytes)
        .unwrap_or_else(|e| panic!("{status} for {line:?} is not JSON ({e}): {bytes:?}"));
    if status.is_client_error() || limited {
        let reason = value["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{status} for {line:?} has no error line: {value}"));
        assert!(!reason.contains('\n'), "{line:?}: {reason:?}");
        if let Some(Some((refusal, words))) = expected
            && refusal == status
        {
            assert!(
                reason.contains(words),
                "{line:?}: {reason:?} lacks {words:?}"
            );
        }
    }
    Some(value)
}

/// How long the server waits for a running analysis to stop before it answers a new search
/// with 409 (`STOP_WAIT` of `serve/api/search.rs`), less a margin for a slow machine.
const STOP_WAIT: Duration = Duration::from_millis(4500);

/// A new analysis or engine search answered 409 because an analysis runs, sooner than the
/// server waits for a running analysis to stop, is a broken promise ("a new analysis or
/// engine search stops a running analysis and waits for it, 409 if it does not end within
/// STOP_WAIT"), also when two new searches of one game race (`!async`).
fn check_restart(line: &str, path: &str, answer: &Answer) {
    let search = matches!(game_path(path), Some((_, Some("analyze" | "engine"))));
    if search
        && answer.status == StatusCode::CONFLICT
        && answer.took < STOP_WAIT
        && String::from_utf8_lossy(&answer.bytes).contains("(analysis)")
    {
        panic!(
            "{line:?}: 409 for a running analysis after {:?}, without waiting for it to stop: {}",
            answer.took,
            String::from_utf8_lossy(&answer.bytes)
        );
    }
}

/// Is `value` a game (as `GET /api/games/{id}` answers it)?
fn is_game(value: &Value) -> bool {
    value["id"].is_string() && value["tree"].is_array()
}

impl Run {
    /// The checks of a game answered to `line`: it agrees with itself, and a new game from
    /// its `start`, `tree_text`, `line_text` and `ply` (on the checker) is the same.
    async fn check_game(&mut self, line: &str, game: &Value) {
        if let Err(e) = oracle::check_game(game) {
            panic!("{line:?}: the game does not agree with itself: {e}\n{game}");
        }
        let mut body =
            json!({"position": game["start"], "moves": game["tree_text"], "ply": game["ply"]});
        if !game["line_text"].is_null() {
            body["line"] = game["line_text"].clone();
        }
        let text = body.to_string();
        if text.len() > MAX_BODY {
            return;
        }
        let request = own_request(Method::POST, "/api/games", text.clone());
        let answer = send(self.checker.clone(), request, false).await;
        self.stats.round_trips += 1;
        let copy: Value = serde_json::from_slice(&answer.bytes).unwrap_or(Value::Null);
        assert!(
            answer.status == StatusCode::CREATED,
            "{line:?}: the game's own tree does not set up a game: {} {copy} for {text}",
            answer.status
        );
        if let Err(e) = oracle::check_game(&copy) {
            panic!("{line:?}: the copy does not agree with itself: {e}\n{copy}");
        }
        for field in ["tree_text", "moves", "ply"] {
            assert!(
                copy[field] == game[field],
                "{line:?}: round trip: a new game from {text} has {field} {}, not {}",
                copy[field],
                game[field]
            );
        }
    }

    /// The check of the record `record` of `game` (`GET .../record`): a new game from it (on
    /// the checker) has the same start, and the game's main line as its moves.
    async fn check_record(&mut self, line: &str, game: &Value, record: &str) {
        let body = json!({ "record": record }).to_string();
        if body.len() > MAX_BODY {
            return;
        }
        let request = own_request(Method::POST, "/api/games", body);
        let answer = send(self.checker.clone(), request, false).await;
        self.stats.round_trips += 1;
        let copy: Value = serde_json::from_slice(&answer.bytes).unwrap_or(Value::Null);
        assert!(
            answer.status == StatusCode::CREATED,
            "{line:?}: the game's own record does not set up a game: {} {copy} for {record:?}",
            answer.status
        );
        let main = match oracle::Tree::read(game) {
            Ok(tree) => tree.main_line_moves(),
            Err(_) => return,
        };
        assert!(
            copy["start"] == game["start"] && copy["moves"] == json!(main),
            "{line:?}: a new game from the record {record:?} starts at {} with {}, not at {} \
             with the main line {main:?}",
            copy["start"],
            copy["moves"],
            game["start"]
        );
    }

    /// Waits for every `!async` request's answer and checks it; no game is trusted after.
    async fn join(&mut self) {
        for pending in std::mem::take(&mut self.pending) {
            let answer = pending.answer.await.expect("a request task");
            if self.show {
                eprintln!(
                    "< {} {} (to {})",
                    answer.status,
                    plies::excerpt(&String::from_utf8_lossy(&answer.bytes)),
                    pending.path
                );
            }
            let method = pending
                .line
                .split(' ')
                .find(|w| !w.starts_with('!'))
                .unwrap_or("");
            self.stats.count(method, &pending.path, answer.status);
            let value = judge(&pending.line, &pending.path, pending.expected, &answer);
            check_restart(&pending.line, &pending.path, &answer);
            if let Some(value) = value.filter(|v| answer.status.is_success() && is_game(v)) {
                self.check_game(&pending.line, &value).await;
            }
        }
        self.distrust();
    }

    fn distrust(&mut self) {
        for known in self.games.values_mut() {
            known.trusted = false;
        }
    }

    /// Runs one script line.
    async fn line(&mut self, line: &str) {
        if line.trim_end() == "!join" {
            self.join().await;
            return;
        }
        if let Some(ms) = line.strip_prefix("!sleep ") {
            let ms = ms.trim().parse::<u64>().unwrap_or(1).min(SLEEP_MAX_MS);
            tokio::time::sleep(Duration::from_millis(ms)).await;
            return;
        }
        let (headers, request_line) = headers_of(line);
        let mut parts = request_line.splitn(3, ' ');
        let method = parts.next().unwrap_or("GET");
        let path = parts.next().unwrap_or("/").replace("{id}", &self.id);
        let target = game_path(&path);
        let game_id = target.as_ref().map_or(&self.id, |(id, _)| id);
        let game = self.games.get(game_id).map(|known| &known.game);
        let path = self.expander.expand(&path, game);
        let body = self.expander.expand(parts.next().unwrap_or(""), game);
        let Ok(method) = Method::from_bytes(method.as_bytes()) else {
            return;
        };
        // A target or header the HTTP layer itself cannot parse never reaches the server.
        let mut request = Request::builder().method(method.clone()).uri(&path);
        for (name, value) in [
            (header::HOST, &headers.host),
            (header::ORIGIN, &headers.origin),
            (header::CONTENT_TYPE, &headers.content_type),
        ] {
            if let Some(value) = value {
                request = request.header(name, value.as_str());
            }
        }
        let Ok(request) = request.body(Body::from(body.clone())) else {
            return;
        };
        let authority = request.uri().authority().map(|a| a.as_str().to_string());
        let expected = expected_refusal(&method, &headers, authority.as_deref());
        if self.show {
            eprintln!("> {method} {path} {}", plies::excerpt(&body));
        }
        if headers.spawn {
            let answer = tokio::spawn(send(self.router.clone(), request, false));
            self.pending.push(Pending {
                line: line.to_string(),
                path,
                expected,
                answer,
            });
            self.distrust();
            tokio::task::yield_now().await;
            return;
        }
        let answer = send(self.router.clone(), request, true).await;
        if self.show {
            eprintln!(
                "< {} {}",
                answer.status,
                plies::excerpt(&String::from_utf8_lossy(&answer.bytes))
            );
        }
        let value = judge(line, &path, expected, &answer);
        let status = answer.status;
        self.stats.count(method.as_str(), &path, status);
        check_restart(line, &path, &answer);
        if method == Method::GET
            && status == StatusCode::OK
            && let Some((id, Some("record"))) = &target
            && self.pending.is_empty()
            && let Some(known) = self.games.get(id).filter(|known| known.trusted)
            && let Some(record) = value.as_ref().and_then(|v| v["text"].as_str())
        {
            let game = known.game.clone();
            self.check_record(line, &game, record).await;
        }
        if let Some(value) = value.as_ref().filter(|v| status.is_success() && is_game(v)) {
            self.check_game(line, value).await;
        }
        if method == Method::POST
            && path == "/api/games"
            && let Some(new) = value.as_ref().and_then(|v| v["id"].as_str())
        {
            self.id = new.to_string();
        }
        self.follow(line, &method, &body, target, status, value)
            .await;
    }

    /// Keeps track of the game a request was about and checks what it did to it.
    async fn follow(
        &mut self,
        line: &str,
        method: &Method,
        body: &str,
        target: Option<(String, Option<&str>)>,
        status: StatusCode,
        value: Option<Value>,
    ) {
        let trusted = self.pending.is_empty();
        if let Some(game) = value.as_ref().filter(|v| status.is_success() && is_game(v)) {
            let id = game["id"].as_str().unwrap_or("").to_string();
            let request = if body.trim().is_empty() {
                Ok(json!({}))
            } else {
                serde_json::from_str::<Value>(body)
            };
            if let Some((path_id, Some(op))) = &target
                && *path_id == id
                && trusted
                && let Some(known) = self.games.get(&id).filter(|known| known.trusted)
                && let Ok(request) = request
                && let Err(e) = oracle::check_change(op, &request, &known.game, game)
            {
                panic!("{line:?}: {e}");
            }
            let known = Known {
                game: game.clone(),
                trusted,
            };
            self.games.insert(id, known);
            return;
        }
        let Some((id, op)) = target else {
            return;
        };
        let before = self
            .games
            .get(&id)
            .filter(|known| known.trusted && trusted)
            .map(|known| known.game.clone());
        if status == StatusCode::NO_CONTENT && *method == Method::DELETE && op.is_none() {
            self.games.remove(&id);
            return;
        }
        if status == StatusCode::ACCEPTED
            && op == Some("analyze")
            && let Some(started) = &value
        {
            let node = started["node"].as_u64();
            assert!(
                started["started"] == "analysis" && started["search"].as_u64().is_some(),
                "{line:?}: 202 {started}"
            );
            if let Some(before) = &before {
                assert!(
                    node == before["node"].as_u64(),
                    "{line:?}: the analysis is not of the node shown, {}: {started}",
                    before["node"]
                );
            }
            return;
        }
        let refused = status.is_client_error() || status == StatusCode::SERVICE_UNAVAILABLE;
        let changes = (*method == Method::POST && op.is_some())
            || (*method == Method::DELETE && op.is_none());
        let Some(before) = before.filter(|_| refused && changes) else {
            return;
        };
        assert!(
            !(status == StatusCode::CONFLICT && op.is_some_and(|op| CHANGES.contains(&op))),
            "{line:?}: 409 while no engine search can be running: {}",
            value.unwrap_or_default()
        );
        let path = format!("/api/games/{id}");
        let answer = send(
            self.router.clone(),
            own_request(Method::GET, &path, String::new()),
            false,
        )
        .await;
        if answer.status != StatusCode::OK {
            return;
        }
        let now: Value = serde_json::from_slice(&answer.bytes).unwrap_or_default();
        if let Err(e) = oracle::check_unchanged(&before, &now) {
            panic!("{line:?} ({status}): {e}");
        }
        self.games.insert(
            id,
            Known {
                game: now,
                trusted: true,
            },
        );
    }
}

fn run(input: &[u8]) {
    play(input);
}

/// Runs the script `input` (see the module docs); what it did.
fn play(input: &[u8]) -> Stats {
    let text = String::from_utf8_lossy(input);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let spec = GameCli::new("kalah", evaluator(StoreDifference::default()));
        let mut run = Run {
            router: page_router(&spec, Kalah::start_position(), 4, 5),
            checker: page_router(&spec, Kalah::start_position(), 1, 5),
            id: "0".to_string(),
            games: HashMap::new(),
            pending: Vec::new(),
            expander: script::Expander::new(script::hash(input)),
            show: std::env::var_os("PLIES_FUZZ_SHOW").is_some(),
            stats: Stats::default(),
        };
        for line in text.lines().take(MAX_REQUESTS) {
            run.line(line).await;
        }
        run.join().await;
        run.stats
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seeds reach every action of the move tree, with answers that say yes and answers
    /// that say no, and the round trip is tried on the games they answer: an API change that
    /// turns the target's requests into refusals fails here, not silently.
    #[test]
    fn the_seeds_reach_the_move_tree() {
        let mut answers = std::collections::BTreeMap::new();
        let mut round_trips = 0;
        for seed in seeds() {
            let stats = play(&seed);
            round_trips += stats.round_trips;
            for (key, count) in stats.answers {
                *answers.entry(key).or_insert(0) += count;
            }
        }
        for key in [
            "POST /api/games 201",
            "POST /api/games 400",
            "POST move 200",
            "POST move 400",
            "POST move 413",
            "POST goto 200",
            "POST goto 400",
            "POST promote 200",
            "POST promote 400",
            "POST delete 200",
            "POST delete 400",
            "POST undo 200",
            "POST analyze 202",
            "POST engine 200",
            "POST stop 200",
            "GET events 200",
            "GET record 200",
        ] {
            assert!(answers.contains_key(key), "no {key:?} in {answers:?}");
        }
        assert!(round_trips >= 100, "{round_trips} round trips");
    }

    /// The paths of a game are read as the server reads their id.
    #[test]
    fn game_paths() {
        assert_eq!(
            game_path("/api/games/0012/goto"),
            Some(("12".to_string(), Some("goto")))
        );
        assert_eq!(game_path("/api/games/7"), Some(("7".to_string(), None)));
        assert_eq!(game_path("/api/games/x/goto"), None);
        assert_eq!(game_path("/api/games/7/goto/x"), None);
    }
}
