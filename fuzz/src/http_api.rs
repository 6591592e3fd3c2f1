//! The `http-api` target: scripts of requests to the web page's HTTP API (`serve`, here for
//! Kalah), sent in process through the page's router. One request per line,
//! `[!host=H] [!origin=O] [!type=T] METHOD PATH [BODY]`; `{id}` in a path stands for the game
//! the script last created. A request has `Host: localhost` and `Content-Type:
//! application/json` and no `Origin` unless the line says otherwise (an empty value leaves
//! the header out), so scripts can be what another site's page sends: a rebound `Host`, a
//! foreign `Origin`, a form or text/plain body.
//!
//! Key invariant (the promise checked): no request gets a 5xx other than a 503 (a limit:
//! games searching, the memory budget) or panics the server; every answer of the API is JSON,
//! every 4xx and 503 carries a one-line `error`; a request from another site is refused
//! before it does anything: a `Host` that is not this server (the router answers as
//! `serve` on 127.0.0.1 port 80) gets 403 (400 without one), a state change whose `Origin` is
//! another site 403, a body that is not said to be JSON 415; searches are capped at a few
//! milliseconds so no script can hang the target.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use plies::Notation;
use plies_cli::{GameCli, evaluator, page_router};
use plies_kalah::{Kalah, StoreDifference};
use serde_json::Value;
use tower::ServiceExt;

use crate::driver::Target;

/// Requests per script.
const MAX_REQUESTS: usize = 24;

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
            "/engine",
            "/analyze",
            "/stop",
            "/events",
            "/record",
            "/api/info",
            "{}",
            "{\"move\": \"",
            "{\"ply\": ",
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

/// The headers a script line sets: `None` to leave one out.
struct Headers {
    host: Option<String>,
    origin: Option<String>,
    content_type: Option<String>,
}

/// Splits the `!name=value` words off the front of `line`; the headers and the rest.
fn headers_of(line: &str) -> (Headers, &str) {
    let mut headers = Headers {
        host: Some("localhost".into()),
        origin: None,
        content_type: Some("application/json".into()),
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

fn run(input: &[u8]) {
    let text = String::from_utf8_lossy(input);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let spec = GameCli::new("kalah", evaluator(StoreDifference::default()));
        let router = page_router(&spec, Kalah::start_position(), 4, 5);
        let mut id = "0".to_string();
        for line in text.lines().take(MAX_REQUESTS) {
            let (headers, request_line) = headers_of(line);
            let mut parts = request_line.splitn(3, ' ');
            let method = parts.next().unwrap_or("GET");
            let path = parts.next().unwrap_or("/").replace("{id}", &id);
            let body = parts.next().unwrap_or("").to_string();
            let Ok(method) = Method::from_bytes(method.as_bytes()) else {
                continue;
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
            let Ok(request) = request.body(Body::from(body)) else {
                continue;
            };
            let authority = request.uri().authority().map(|a| a.as_str().to_string());
            let expected = expected_refusal(&method, &headers, authority.as_deref());
            let response = router.clone().oneshot(request).await.expect("infallible");
            let status = response.status();
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
            let kind = response
                .headers()
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string();
            if kind.starts_with("text/event-stream") {
                continue; // an endless stream: its answer is the stream itself
            }
            let bytes = axum::body::to_bytes(response.into_body(), 1 << 24)
                .await
                .expect("a body");
            if !path.starts_with("/api/") && status.is_success() {
                continue; // the page's own files
            }
            if bytes.is_empty() && status.is_success() {
                continue; // 204 after a delete
            }
            let value: Value = serde_json::from_slice(&bytes)
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
            } else if method == Method::POST
                && path == "/api/games"
                && let Some(new) = value["id"].as_str()
            {
                id = new.to_string();
            }
        }
    });
}
