//! The HTTP API on the toy games, in process (each request through the router, no socket):
//! every endpoint, with good and bad input; bad input gets a 4xx and a one-line reason.

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use plies::testing::{Maze, PileDifference, TwoPiles};
use plies::{Evaluator, Game, Notation, Score};
use plies_view::View;
use serde_json::{Value, json};
use tower::ServiceExt;

use super::access::Access;
use super::api::{App, Limits, MAX_BODY, MAX_SEARCH_MS, router};
use super::page_router;
use crate::{GameCli, evaluator};

/// Every Maze position is even (the search runs until its time is up: nothing is proven).
#[derive(Clone)]
struct Even;

impl Evaluator<Maze> for Even {
    fn evaluate(&self, _: &Maze) -> Score {
        Score::DRAW
    }
}

fn piles() -> Router {
    let spec = GameCli::new("twopiles", evaluator(PileDifference));
    page_router(&spec, TwoPiles::start_position(), 4, MAX_SEARCH_MS)
}

fn maze() -> Router {
    let spec = GameCli::new("maze", evaluator(Even));
    page_router(&spec, Maze::new(1, 1 << 40, 0), 4, MAX_SEARCH_MS)
}

/// Sends one request; returns the status and the JSON answer (`Null` for none).
async fn send(
    router: &Router,
    method: Method,
    path: &str,
    body: Option<&str>,
) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header("host", "localhost")
        .header("content-type", "application/json")
        .body(Body::from(body.unwrap_or("").to_string()))
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 24)
        .await
        .unwrap();
    let value = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes)
            .unwrap_or(Value::String(String::from_utf8_lossy(&bytes).into()))
    };
    (status, value)
}

/// An error answer: its status is `status` and its reason one line containing `words`.
fn assert_error(answer: &(StatusCode, Value), status: StatusCode, words: &str) {
    assert_eq!(answer.0, status, "{:?}", answer.1);
    let reason = answer.1["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no reason: {:?}", answer.1));
    assert!(reason.contains(words), "{reason:?} lacks {words:?}");
    assert!(!reason.contains('\n'), "{reason:?}");
}

async fn new_game(router: &Router, body: &str) -> Value {
    let (status, game) = send(router, Method::POST, "/api/games", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    game
}

fn path(game: &Value, what: &str) -> String {
    format!("/api/games/{}/{what}", game["id"].as_str().unwrap())
}

#[tokio::test]
async fn a_game_is_created_shown_and_played() {
    let router = piles();
    let game = new_game(&router, "{}").await;
    assert_eq!(game["position"], "7 5 1");
    assert_eq!(game["ply"], 0);
    assert_eq!(game["to_move"], "first");
    let start = TwoPiles::start_position();
    let mut moves = Vec::new();
    start.generate_moves(&mut moves);
    let legal: Vec<&str> = game["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = moves.iter().map(|&mv| start.format_move(mv)).collect();
    assert_eq!(legal, expected);
    // The default view: one button per move, its id the click path.
    assert_eq!(
        game["legal"][0]["clicks"],
        json!([format!("move {}", expected[0])])
    );

    let id = game["id"].as_str().unwrap();
    let (status, shown) = send(&router, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(shown, game);

    let (status, after) = send(
        &router,
        Method::POST,
        &path(&game, "move"),
        Some(r#"{"move": "A1"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["moves"], json!(["a1"]));
    assert_eq!(
        after["position"],
        start
            .play(start.parse_move("a1").unwrap())
            .format_position()
    );
    assert_eq!(after["last"], json!(["move a1"]));

    // Navigate back, then play another move there: a variation, the current line now.
    let (_, back) = send(
        &router,
        Method::POST,
        &path(&game, "goto"),
        Some(r#"{"ply": 0}"#),
    )
    .await;
    assert_eq!(
        (
            back["ply"].as_u64(),
            back["moves"].as_array().unwrap().len()
        ),
        (Some(0), 1)
    );
    let (_, other) = send(
        &router,
        Method::POST,
        &path(&game, "move"),
        Some(r#"{"move": "b3"}"#),
    )
    .await;
    assert_eq!(other["moves"], json!(["b3"]));
    assert_eq!(other["tree_text"], "a1 (b3)");
    // Undo takes the variation's move back; the current line is the main line again.
    let (_, undone) = send(&router, Method::POST, &path(&game, "undo"), None).await;
    assert_eq!(undone["moves"], json!(["a1"]));
    assert_eq!(undone["ply"], 1);
    let (_, undone) = send(&router, Method::POST, &path(&game, "undo"), None).await;
    assert_eq!(undone["moves"], json!([]));
    assert_eq!(
        undone["tree"],
        json!([{"node": 0, "parent": null, "move": null, "mover": null,
        "mover_name": null, "ply": 0, "children": []}])
    );
    assert_error(
        &send(&router, Method::POST, &path(&game, "undo"), None).await,
        StatusCode::BAD_REQUEST,
        "no move to take back",
    );

    let (status, _) = send(&router, Method::DELETE, &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_error(
        &send(&router, Method::GET, &format!("/api/games/{id}"), None).await,
        StatusCode::NOT_FOUND,
        "no game",
    );
}

#[tokio::test]
async fn a_game_from_a_position_and_moves_ends_with_its_result() {
    let router = piles();
    let game = new_game(&router, r#"{"position": "1 1 1", "moves": "a1"}"#).await;
    assert_eq!(game["moves"], json!(["a1"]));
    let (_, over) = send(
        &router,
        Method::POST,
        &path(&game, "move"),
        Some(r#"{"move": "b1"}"#),
    )
    .await;
    assert_eq!(over["outcome"], "second player won");
    assert_eq!(over["legal"], json!([]));
    assert_error(
        &send(
            &router,
            Method::POST,
            &path(&game, "move"),
            Some(r#"{"move": "a1"}"#),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "the game is over",
    );
    assert_error(
        &send(
            &router,
            Method::POST,
            &path(&game, "engine"),
            Some(r#"{"time_ms": 10}"#),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "the game is over",
    );
}

/// A game's record (the whole line, whatever is shown) comes back in the game's format and
/// sets up the same game; the record and a position or moves together are refused.
#[tokio::test]
async fn records_are_saved_and_loaded() {
    let router = piles();
    let game = new_game(&router, r#"{"position": "6 4 2", "moves": "a2 b3"}"#).await;
    let (status, _) = send(
        &router,
        Method::POST,
        &path(&game, "goto"),
        Some(r#"{"ply": 1}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, record) = send(&router, Method::GET, &path(&game, "record"), None).await;
    assert_eq!(status, StatusCode::OK, "{record}");
    assert_eq!(record["text"], "position 6 4 2\na2\nb3\n");
    assert_eq!(
        record["format"],
        json!({"name": "plies record", "extension": "txt"})
    );
    let body = json!({ "record": record["text"] }).to_string();
    let loaded = new_game(&router, &body).await;
    assert_eq!(loaded["start"], "6 4 2");
    assert_eq!(loaded["moves"], json!(["a2", "b3"]));
    assert_eq!(loaded["ply"], 2);
    // A line of moves with move numbers, after a bare position.
    let loaded = new_game(&router, r#"{"record": "6 4 2\n1. a2 b3 2. a1"}"#).await;
    assert_eq!(loaded["moves"], json!(["a2", "b3", "a1"]));
    for (body, words) in [
        (r#"{"record": "6 4 2\na2\nb9"}"#, "line 3: illegal here"),
        (r#"{"record": "position 6 99 1"}"#, "line 1:"),
        (r#"{"record": "a1", "position": "7 5 1"}"#, "not both"),
        (r#"{"record": 5}"#, "expected a string"),
    ] {
        let answer = send(&router, Method::POST, "/api/games", Some(body)).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, words);
    }
    let (status, info) = send(&router, Method::GET, "/api/info", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(info["record"]["extension"], "txt");
    let answer = send(&router, Method::GET, "/api/games/999/record", None).await;
    assert_error(&answer, StatusCode::NOT_FOUND, "999");
}

#[tokio::test]
async fn bad_requests_get_a_4xx_and_one_line() {
    let router = piles();
    let game = new_game(&router, "").await;
    let mv = path(&game, "move");
    let cases: Vec<(Method, String, Option<String>, StatusCode, &str)> = vec![
        (
            Method::POST,
            mv.clone(),
            Some(r#"{"move": "c9"}"#.into()),
            StatusCode::BAD_REQUEST,
            "bad move",
        ),
        (
            Method::POST,
            mv.clone(),
            Some(r#"{"move": "a1 b1"}"#.into()),
            StatusCode::BAD_REQUEST,
            "bad move",
        ),
        (
            Method::POST,
            mv.clone(),
            Some("{not json".into()),
            StatusCode::BAD_REQUEST,
            "bad request body",
        ),
        (
            Method::POST,
            mv.clone(),
            Some(r#"{"mvoe": "a1"}"#.into()),
            StatusCode::BAD_REQUEST,
            "unknown field",
        ),
        (
            Method::POST,
            mv.clone(),
            Some(r#"["a1"]"#.into()),
            StatusCode::BAD_REQUEST,
            "expected a JSON object",
        ),
        (
            Method::POST,
            mv.clone(),
            Some(r#"{"move": 7}"#.into()),
            StatusCode::BAD_REQUEST,
            "bad request body",
        ),
        (
            Method::POST,
            mv.clone(),
            None,
            StatusCode::BAD_REQUEST,
            "missing field",
        ),
        (
            Method::POST,
            "/api/games".into(),
            Some(r#"{"position": "9 9 9 9"}"#.into()),
            StatusCode::BAD_REQUEST,
            "bad position",
        ),
        (
            Method::POST,
            "/api/games".into(),
            Some(r#"{"moves": "a1 zz"}"#.into()),
            StatusCode::BAD_REQUEST,
            "bad moves",
        ),
        (
            Method::POST,
            path(&game, "goto"),
            Some(r#"{"ply": 5}"#.into()),
            StatusCode::BAD_REQUEST,
            "bad ply 5",
        ),
        (
            Method::POST,
            path(&game, "goto"),
            Some(r#"{"ply": -1}"#.into()),
            StatusCode::BAD_REQUEST,
            "bad request body",
        ),
        (
            Method::POST,
            path(&game, "engine"),
            Some(r#"{"time_ms": 0}"#.into()),
            StatusCode::BAD_REQUEST,
            "bad time_ms 0",
        ),
        (
            Method::POST,
            path(&game, "engine"),
            Some("{}".into()),
            StatusCode::BAD_REQUEST,
            "time_ms is missing",
        ),
        (
            Method::POST,
            path(&game, "engine"),
            Some(r#"{"time_ms": 10, "searcher": "deep-blue"}"#.into()),
            StatusCode::BAD_REQUEST,
            "bad searcher",
        ),
        (
            Method::POST,
            path(&game, "analyze"),
            Some(r#"{"time_ms": 99999999999}"#.into()),
            StatusCode::BAD_REQUEST,
            "bad time_ms",
        ),
        (
            Method::GET,
            "/api/games/12345".into(),
            None,
            StatusCode::NOT_FOUND,
            "no game '12345'",
        ),
        (
            Method::GET,
            "/api/games/%FF%FE".into(),
            None,
            StatusCode::BAD_REQUEST,
            "bad game id",
        ),
        (
            Method::POST,
            "/api/games/x/move".into(),
            Some(r#"{"move": "a1"}"#.into()),
            StatusCode::NOT_FOUND,
            "no game 'x'",
        ),
        (
            Method::GET,
            "/nothing/here".into(),
            None,
            StatusCode::NOT_FOUND,
            "no such page",
        ),
    ];
    for (method, uri, body, status, words) in cases {
        let answer = send(&router, method.clone(), &uri, body.as_deref()).await;
        assert_eq!(answer.0, status, "{method} {uri} {body:?}: {:?}", answer.1);
        let reason = answer.1["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{uri}: {:?}", answer.1));
        assert!(
            reason.contains(words),
            "{method} {uri} {body:?}: {reason:?} lacks {words:?}"
        );
        assert!(!reason.contains('\n'), "{reason:?}");
    }
    // A body over the limit is refused before it is read.
    let huge = format!(r#"{{"move": "{}"}}"#, "a".repeat(MAX_BODY + 1));
    let answer = send(&router, Method::POST, &mv, Some(&huge)).await;
    assert_error(&answer, StatusCode::PAYLOAD_TOO_LARGE, "limit");
    // A method the path does not take.
    let answer = send(&router, Method::PUT, &mv, None).await;
    assert_error(
        &answer,
        StatusCode::METHOD_NOT_ALLOWED,
        "method not allowed",
    );
    // The game is untouched by all of it.
    let (_, after) = send(
        &router,
        Method::GET,
        &format!("/api/games/{}", game["id"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(after["moves"], json!([]));
}

#[tokio::test]
async fn the_engine_plays_a_legal_move_and_records_its_score() {
    let router = piles();
    let game = new_game(&router, "{}").await;
    let (status, after) = send(
        &router,
        Method::POST,
        &path(&game, "engine"),
        Some(r#"{"time_ms": 200}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{after}");
    let played = after["moves"][0].as_str().unwrap();
    let start = TwoPiles::start_position();
    assert!(start.parse_move(played).is_ok(), "{played}");
    // Two piles of 7 and 5 are solved in well under 200 ms: the score is a proven result.
    assert_eq!(after["scores"][0]["decisive"], true, "{after}");
    assert_eq!(after["searching"], Value::Null);
}

/// Polls the game until its `searching` is `kind` (`Null`: none); fails after 10 s.
async fn wait_for_search(router: &Router, game: &Value, kind: Value) -> Value {
    let begun = Instant::now();
    loop {
        let (_, shown) = send(
            router,
            Method::GET,
            &format!("/api/games/{}", game["id"].as_str().unwrap()),
            None,
        )
        .await;
        if shown["searching"] == kind {
            return shown;
        }
        assert!(
            begun.elapsed() < Duration::from_secs(10),
            "searching stays {}",
            shown["searching"]
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// While an engine search runs, its game cannot change nor start another search; stop ends
/// it, and it plays the move it found.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_search_holds_its_game_and_stop_ends_it() {
    let router = maze();
    let game = new_game(&router, "{}").await;
    let engine = tokio::spawn({
        let router = router.clone();
        let uri = path(&game, "engine");
        async move { send(&router, Method::POST, &uri, Some(r#"{"time_ms": 30000}"#)).await }
    });
    let shown = wait_for_search(&router, &game, json!("engine")).await;
    assert_eq!(
        shown["search"],
        json!({"id": 1, "kind": "engine", "node": 0})
    );
    for (what, body) in [
        ("analyze", r#"{"time_ms": 10}"#),
        ("engine", r#"{"time_ms": 10}"#),
        ("move", r#"{"move": "0"}"#),
        ("move", r#"{"moves": ["0"]}"#),
        ("undo", ""),
        ("goto", r#"{"ply": 0}"#),
        ("goto", r#"{"node": 0}"#),
        ("promote", r#"{"node": 0}"#),
        ("delete", r#"{"node": 0}"#),
    ] {
        let answer = send(&router, Method::POST, &path(&game, what), Some(body)).await;
        assert_error(&answer, StatusCode::CONFLICT, "is running");
    }
    // Another game is not held up by this one's search.
    let other = new_game(&router, "{}").await;
    let (status, _) = send(
        &router,
        Method::POST,
        &path(&other, "move"),
        Some(r#"{"move": "0"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK);

    let (status, _) = send(&router, Method::POST, &path(&game, "stop"), None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, after) = tokio::time::timeout(Duration::from_secs(10), engine)
        .await
        .expect("the search stops")
        .unwrap();
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["moves"].as_array().unwrap().len(), 1, "{after}");
    assert!(
        after["searching"].is_null() && after["search"].is_null(),
        "{after}"
    );
    let (status, _) = send(
        &router,
        Method::POST,
        &path(&game, "move"),
        Some(r#"{"move": "0"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

/// The events of `stream` up to and with the next `done` (at most 10 s between two chunks).
async fn events_until_done(
    stream: &mut (impl futures_util::Stream<Item = Result<axum::body::Bytes, axum::Error>> + Unpin),
) -> String {
    use futures_util::StreamExt;
    let mut text = String::new();
    while !text.contains("event: done") {
        let chunk = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .expect("the events go on")
            .expect("the stream is open")
            .unwrap();
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    text
}

/// A page reads the game when its event stream says `done`: by then the search is over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_done_is_streamed_the_search_is_over() {
    let router = maze();
    let game = new_game(&router, "{}").await;
    let id = game["id"].as_str().unwrap();
    let request = Request::builder()
        .uri(format!("/api/games/{id}/events"))
        .header("host", "localhost")
        .body(Body::empty())
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut stream = response.into_body().into_data_stream();
    for _ in 0..20 {
        let (status, _) = send(
            &router,
            Method::POST,
            &path(&game, "analyze"),
            Some(r#"{"time_ms": 5}"#),
        )
        .await;
        assert_eq!(status, StatusCode::ACCEPTED);
        events_until_done(&mut stream).await;
        let (_, shown) = send(&router, Method::GET, &format!("/api/games/{id}"), None).await;
        assert!(shown["searching"].is_null(), "{shown}");
    }
}

/// An analysis asked for `lines` streams that many root moves per iteration (MultiPV), the
/// first the iteration's own; more than five, or several from a searcher other than pvs, is a
/// bad request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_streams_several_lines() {
    let router = maze();
    let game = new_game(&router, "{}").await;
    let id = game["id"].as_str().unwrap();
    for (body, status) in [
        (r#"{"time_ms": 5, "lines": 6}"#, StatusCode::BAD_REQUEST),
        (r#"{"time_ms": 5, "lines": 0}"#, StatusCode::BAD_REQUEST),
        (
            r#"{"searcher": "mcts", "time_ms": 5, "lines": 2}"#,
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let answer = send(&router, Method::POST, &path(&game, "analyze"), Some(body)).await;
        assert_eq!(answer.0, status, "{body}: {}", answer.1);
    }
    let answer = send(
        &router,
        Method::POST,
        &path(&game, "engine"),
        Some(r#"{"time_ms": 5, "lines": 2}"#),
    )
    .await;
    assert_eq!(answer.0, StatusCode::BAD_REQUEST, "{}", answer.1);
    let request = Request::builder()
        .uri(format!("/api/games/{id}/events"))
        .header("host", "localhost")
        .body(Body::empty())
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let mut stream = response.into_body().into_data_stream();
    let (status, _) = send(
        &router,
        Method::POST,
        &path(&game, "analyze"),
        Some(r#"{"time_ms": 200, "lines": 3}"#),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let text = events_until_done(&mut stream).await;
    // The iterations (`done` names its kind).
    let iterations: Vec<Value> = text
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .filter_map(|data| serde_json::from_str::<Value>(data).ok())
        .filter(|event| event.get("kind").is_none())
        .collect();
    assert!(iterations.len() > 1, "{text}");
    // Each line of each iteration: its moves one by one, and the clicks of its first move.
    let start = Maze::new(1, 1 << 40, 0);
    for event in &iterations {
        assert_eq!((&event["search"], &event["node"]), (&json!(1), &json!(0)));
        let lines = event["lines"].as_array().cloned();
        for line in lines.unwrap_or_else(|| vec![event.clone()]) {
            let moves: Vec<&str> = line["pv_moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|mv| mv.as_str().unwrap())
                .collect();
            assert_eq!(moves.join(" "), line["pv"], "{event}");
            let first = start.parse_move(moves[0]).unwrap();
            assert_eq!(line["clicks"], json!(start.clicks(first)), "{event}");
        }
    }
    // The time may cut the last iteration's further lines (they are dropped, the first kept).
    for (number, event) in iterations.iter().enumerate() {
        let Some(lines) = event["lines"].as_array() else {
            assert_eq!(number + 1, iterations.len(), "{text}");
            continue;
        };
        assert!(
            lines.len() == 3 || number + 1 == iterations.len(),
            "{event}"
        );
        assert_eq!(lines[0]["pv"], event["pv"], "{event}");
        assert_ne!(lines[1]["pv"], lines[0]["pv"], "{event}");
    }
}

#[tokio::test]
async fn beyond_the_limit_the_game_left_alone_longest_goes() {
    let router = piles(); // at most 4 games
    let mut ids = Vec::new();
    for _ in 0..5 {
        ids.push(
            new_game(&router, "{}").await["id"]
                .as_str()
                .unwrap()
                .to_string(),
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let (status, _) = send(
        &router,
        Method::GET,
        &format!("/api/games/{}", ids[0]),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    for id in &ids[1..] {
        let (status, _) = send(&router, Method::GET, &format!("/api/games/{id}"), None).await;
        assert_eq!(status, StatusCode::OK);
    }
}

#[tokio::test]
async fn the_page_and_its_files_are_served() {
    let router = piles();
    for (uri, kind, words) in [
        ("/", "text/html", "app.js"),
        ("/app.js", "text/javascript", "EventSource"),
        ("/style.css", "text/css", ".piece"),
    ] {
        let request = Request::builder()
            .uri(uri)
            .header("host", "127.0.0.1:80")
            .body(Body::empty())
            .unwrap();
        let response = router.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(content_type.starts_with(kind), "{uri}: {content_type}");
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap();
        assert!(String::from_utf8_lossy(&bytes).contains(words), "{uri}");
    }
    let (status, info) = send(&router, Method::GET, "/api/info", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(info["game"], "twopiles");
    assert_eq!(info["start"], "7 5 1");
}

/// Sends one request with exactly `headers` (no Host unless given); returns the status and the
/// JSON answer.
async fn send_raw(
    router: &Router,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(path);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.body(Body::from(body.to_string())).unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 24)
        .await
        .unwrap();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or(Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, value)
}

/// What a page on another site can make a browser send: a form or a text/plain `fetch` (no
/// preflight), a request under a rebound name (`Host: evil.example`), or a JSON one with its
/// `Origin`. None reaches a handler; the page's own requests do.
#[tokio::test]
async fn cross_site_requests_are_refused() {
    let router = piles();
    let json = ("content-type", "application/json");
    let host = ("host", "localhost");
    let game = new_game(&router, "{}").await;
    let mv = path(&game, "move");
    let undo = path(&game, "undo");
    /// A request (method, path, headers, body) and its refusal (status, words of the reason).
    type Case<'a> = (
        Method,
        &'a str,
        Vec<(&'a str, &'a str)>,
        &'a str,
        StatusCode,
        &'a str,
    );
    let cases: Vec<Case> = vec![
        // DNS rebinding: the page reads and changes games under its own name.
        (
            Method::GET,
            "/api/info",
            vec![("host", "evil.example")],
            "",
            StatusCode::FORBIDDEN,
            "Host 'evil.example'",
        ),
        (
            Method::GET,
            "/",
            vec![("host", "evil.example:80")],
            "",
            StatusCode::FORBIDDEN,
            "is not this server",
        ),
        (
            Method::POST,
            "/api/games",
            vec![("host", "evil.example"), json],
            "{}",
            StatusCode::FORBIDDEN,
            "Host",
        ),
        (
            Method::GET,
            "/api/info",
            vec![("host", "localhost:8080")],
            "",
            StatusCode::FORBIDDEN,
            "localhost:8080",
        ),
        (
            Method::GET,
            "/api/info",
            vec![],
            "",
            StatusCode::BAD_REQUEST,
            "no Host",
        ),
        // Cross-site: a form, a text/plain fetch, a JSON fetch whose Origin is another site.
        (
            Method::POST,
            "/api/games",
            vec![
                host,
                ("content-type", "text/plain"),
                ("origin", "http://evil.example"),
            ],
            "{}",
            StatusCode::FORBIDDEN,
            "cross-site",
        ),
        (
            Method::POST,
            &mv,
            vec![
                host,
                ("content-type", "application/x-www-form-urlencoded"),
                ("origin", "http://evil.example"),
            ],
            "move=a1",
            StatusCode::FORBIDDEN,
            "Origin 'http://evil.example'",
        ),
        (
            Method::POST,
            "/api/games",
            vec![host, json, ("origin", "null")],
            "{}",
            StatusCode::FORBIDDEN,
            "cross-site",
        ),
        (
            Method::DELETE,
            "/api/games/1",
            vec![host, ("origin", "http://localhost:8080")],
            "",
            StatusCode::FORBIDDEN,
            "cross-site",
        ),
        // No Origin (an old browser's form): the content type still keeps it out.
        (
            Method::POST,
            "/api/games",
            vec![host, ("content-type", "text/plain")],
            "{}",
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "'text/plain' is not application/json",
        ),
        (
            Method::POST,
            &mv,
            vec![host, ("content-type", "application/x-www-form-urlencoded")],
            "move=a1",
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "application/json",
        ),
        (
            Method::POST,
            &mv,
            vec![host, ("content-type", "multipart/form-data; boundary=x")],
            "--x--",
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "application/json",
        ),
        (
            Method::POST,
            &undo,
            vec![host],
            "",
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "needs Content-Type: application/json",
        ),
    ];
    for (method, uri, headers, body, status, words) in cases {
        let answer = send_raw(&router, method.clone(), uri, &headers, body).await;
        assert_eq!(
            answer.0, status,
            "{method} {uri} {headers:?}: {:?}",
            answer.1
        );
        let reason = answer.1["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{uri}: {:?}", answer.1));
        assert!(
            reason.contains(words),
            "{method} {uri} {headers:?}: {reason:?} lacks {words:?}"
        );
        assert!(!reason.contains('\n'), "{reason:?}");
    }
    // None of it moved the game.
    let (_, shown) = send(
        &router,
        Method::GET,
        &format!("/api/games/{}", game["id"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(shown["moves"], json!([]));
    // The page's own requests: same origin, JSON (an empty body too), any loopback name.
    for (host, origin) in [
        ("localhost", "http://localhost"),
        ("127.0.0.1:80", "http://127.0.0.1"),
        ("[::1]", "http://[::1]:80"),
    ] {
        let headers = [("host", host), ("origin", origin), json];
        let (status, after) =
            send_raw(&router, Method::POST, &mv, &headers, r#"{"move": "a1"}"#).await;
        assert_eq!(status, StatusCode::OK, "{host}: {after}");
        let (status, after) =
            send_raw(&router, Method::POST, &path(&game, "undo"), &headers, "").await;
        assert_eq!(status, StatusCode::OK, "{host}: {after}");
    }
}

/// A router whose limits are `limits`, for the toy game Maze whose searches run to their time.
fn maze_with(limits: impl FnOnce(&mut Limits)) -> (Router, std::sync::Arc<App<Maze>>) {
    let spec = GameCli::new("maze", evaluator(Even));
    let mut all = Limits {
        max_games: 8,
        max_search_ms: MAX_SEARCH_MS,
        max_memory_mb: 1024,
        read_timeout: Duration::from_secs(10),
        access: Access::new(std::net::IpAddr::from([127, 0, 0, 1]), 80, Vec::new()),
    };
    limits(&mut all);
    let app = std::sync::Arc::new(App::new(
        spec.name,
        spec.evaluator.clone(),
        Maze::new(1, 1 << 40, 0),
        all,
    ));
    (router(std::sync::Arc::clone(&app)), app)
}

/// A request whose body stops half-way is answered (and its connection let go) once the
/// body has been silent for the read timeout.
#[tokio::test]
async fn a_stalled_body_is_cut_after_the_read_timeout() {
    use futures_util::StreamExt;
    let (router, _) = maze_with(|limits| limits.read_timeout = Duration::from_millis(200));
    let half = futures_util::stream::iter([Ok::<_, std::io::Error>(
        axum::body::Bytes::from_static(b"{\"posit"),
    )])
    .chain(futures_util::stream::pending());
    let request = Request::builder()
        .method(Method::POST)
        .uri("/api/games")
        .header("host", "localhost")
        .header("content-type", "application/json")
        .header("content-length", "1000")
        .body(Body::from_stream(half))
        .unwrap();
    let begun = Instant::now();
    let response = tokio::time::timeout(Duration::from_secs(10), router.oneshot(request))
        .await
        .expect("the stalled request is answered")
        .unwrap();
    assert!(
        begun.elapsed() >= Duration::from_millis(200),
        "{:?}",
        begun.elapsed()
    );
    assert!(response.status().is_client_error(), "{}", response.status());
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    let value: Value = serde_json::from_slice(&bytes).unwrap();
    let reason = value["error"].as_str().unwrap();
    assert!(!reason.contains('\n'), "{reason:?}");
}

/// Polls `/api/info` until the tables in use are `mb` megabytes (searches end on their own
/// threads); fails after 10 s.
async fn wait_for_memory_in_use(router: &Router, mb: u64) {
    let begun = Instant::now();
    loop {
        let (_, info) = send(router, Method::GET, "/api/info", None).await;
        if info["memory"]["used_mb"] == mb {
            return;
        }
        assert!(
            begun.elapsed() < Duration::from_secs(10),
            "memory in use stays at {info}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The tables of all searches share `--max-memory`: a searcher over the whole budget is a 400
/// naming it, one that does not fit beside the running ones a 503; a search gives its share
/// back when it is stopped, when its game is deleted, and when its client goes away.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn searches_share_the_memory_budget() {
    let (router, _) = maze_with(|limits| limits.max_memory_mb = 64);
    let (_, info) = send(&router, Method::GET, "/api/info", None).await;
    assert_eq!(info["memory"], json!({"limit_mb": 64, "used_mb": 0}));
    let a = new_game(&router, "{}").await;
    let b = new_game(&router, "{}").await;
    // The allocation that once aborted the server: refused before anything is allocated.
    let answer = send(
        &router,
        Method::POST,
        &path(&a, "analyze"),
        Some(r#"{"searcher": "pvs:tt=65536"}"#),
    )
    .await;
    assert_error(&answer, StatusCode::BAD_REQUEST, "--max-memory 64 MB");
    assert!(answer.1["error"].as_str().unwrap().contains("65536 MB"));
    let answer = send(
        &router,
        Method::POST,
        &path(&a, "engine"),
        Some(r#"{"searcher": "mcts:threads=2", "time_ms": 10}"#),
    )
    .await;
    assert_error(&answer, StatusCode::BAD_REQUEST, "--max-memory 64 MB");

    let (status, _) = send(
        &router,
        Method::POST,
        &path(&a, "analyze"),
        Some(r#"{"searcher": "pvs:tt=48", "time_ms": 60000}"#),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    wait_for_memory_in_use(&router, 48).await;
    for searcher in ["pvs:tt=17", "pvs:tt=32", "mcts"] {
        let body = format!(r#"{{"searcher": "{searcher}", "time_ms": 60000}}"#);
        let answer = send(&router, Method::POST, &path(&b, "analyze"), Some(&body)).await;
        assert_error(&answer, StatusCode::SERVICE_UNAVAILABLE, "hold 48 MB");
        assert!(
            answer.1["error"]
                .as_str()
                .unwrap()
                .contains("--max-memory 64 MB")
        );
    }
    // What fits beside it runs (a table of 16 MB, or none).
    let answer = send(
        &router,
        Method::POST,
        &path(&b, "engine"),
        Some(r#"{"searcher": "pvs:tt=16", "time_ms": 20}"#),
    )
    .await;
    assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
    let answer = send(
        &router,
        Method::POST,
        &path(&b, "engine"),
        Some(r#"{"searcher": "alphabeta", "time_ms": 20}"#),
    )
    .await;
    assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
    // Stopped: its share comes back.
    let (status, _) = send(&router, Method::POST, &path(&a, "stop"), None).await;
    assert_eq!(status, StatusCode::OK);
    wait_for_memory_in_use(&router, 0).await;
    // Deleted while searching: likewise.
    let (status, _) = send(
        &router,
        Method::POST,
        &path(&b, "analyze"),
        Some(r#"{"searcher": "pvs:tt=64", "time_ms": 60000}"#),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    wait_for_memory_in_use(&router, 64).await;
    let (status, _) = send(
        &router,
        Method::DELETE,
        &format!("/api/games/{}", b["id"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    wait_for_memory_in_use(&router, 0).await;
    // An engine move whose client went away: the search stops, its share comes back.
    let request = Request::builder()
        .method(Method::POST)
        .uri(path(&a, "engine"))
        .header("host", "localhost")
        .header("content-type", "application/json")
        .body(Body::from(r#"{"searcher": "pvs:tt=64", "time_ms": 60000}"#))
        .unwrap();
    let gone =
        tokio::time::timeout(Duration::from_millis(300), router.clone().oneshot(request)).await;
    assert!(gone.is_err(), "the engine answered a 60 s search at once");
    wait_for_memory_in_use(&router, 0).await;
    let (_, shown) = send(
        &router,
        Method::GET,
        &format!("/api/games/{}", a["id"].as_str().unwrap()),
        None,
    )
    .await;
    assert!(shown["searching"].is_null(), "{shown}");
}

/// Runs `twopiles` with `args`; what it printed, or its error.
fn command(args: &[&str]) -> Result<String, String> {
    let spec = GameCli::new("twopiles", evaluator(PileDifference));
    let mut output = Vec::new();
    let mut input = std::io::empty();
    let args = std::iter::once("twopiles")
        .chain(args.iter().copied())
        .map(String::from);
    crate::run(&spec, args, &mut input, &mut output)
        .map(|()| String::from_utf8_lossy(&output).into_owned())
        .map_err(|e| e.to_string())
}

#[test]
fn the_help_states_the_rules_and_bad_limits_are_refused() {
    let help = command(&["serve", "--help"]).unwrap();
    for words in [
        "--max-memory <MB>",
        "--read-timeout-ms <MS>",
        "--allow-host <HOST[:PORT]>",
        "Content-Type: application/json",
        "Origin",
        "Host",
        "[default: 1024]",
        "[default: 10000]",
    ] {
        assert!(help.contains(words), "the help lacks {words:?}:\n{help}");
    }
    for (args, words) in [
        (&["serve", "--max-memory", "0"][..], "--max-memory"),
        (
            &["serve", "--read-timeout-ms", "0"][..],
            "--read-timeout-ms",
        ),
        (&["serve", "--allow-host", "a@b"][..], "bad host 'a@b'"),
        (&["serve", "--allow-host", "host:70000"][..], "bad host"),
    ] {
        let err = command(args).unwrap_err();
        assert!(err.contains(words), "{args:?}: {err:?} lacks {words:?}");
        assert!(!err.trim_end().contains('\n'), "{err:?}");
    }
}
