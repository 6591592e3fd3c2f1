//! The `http-api` target: scripts of requests to the web page's HTTP API (`serve`, here for
//! Kalah), sent in process through the page's router. One request per line, `METHOD PATH
//! [BODY]`; `{id}` in a path stands for the game the script last created.
//!
//! Key invariant (the promise checked): no request gets a 5xx or panics the server; every
//! answer of the API is JSON, every 4xx carries a one-line `error`; searches are capped at a
//! few milliseconds so no script can hang the target.

use axum::body::Body;
use axum::http::{Method, Request, header};
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
    ]
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
            let mut parts = line.splitn(3, ' ');
            let method = parts.next().unwrap_or("GET");
            let path = parts.next().unwrap_or("/").replace("{id}", &id);
            let body = parts.next().unwrap_or("").to_string();
            let Ok(method) = Method::from_bytes(method.as_bytes()) else {
                continue;
            };
            // A target the HTTP layer itself cannot parse never reaches the server.
            let Ok(request) = Request::builder()
                .method(method.clone())
                .uri(&path)
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body))
            else {
                continue;
            };
            let response = router.clone().oneshot(request).await.expect("infallible");
            let status = response.status();
            assert!(!status.is_server_error(), "{status} for {line:?}");
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
            if status.is_client_error() {
                let reason = value["error"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{status} for {line:?} has no error line: {value}"));
                assert!(!reason.contains('\n'), "{line:?}: {reason:?}");
            } else if method == Method::POST
                && path == "/api/games"
                && let Some(new) = value["id"].as_str()
            {
                id = new.to_string();
            }
        }
    });
}
