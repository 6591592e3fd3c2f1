//! The HTTP API on the toy games, in process (each request through the router, no socket):
//! every endpoint, with good and bad input; bad input gets a 4xx and a one-line reason. Kalah
//! and Onitama come in where a real board's picture or move texts with spaces matter, Yinsh
//! where a record format has variations (SGF).

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use plies::testing::{Maze, PileDifference, TwoPiles};
use plies::{Evaluator, Game, Notation, Score, Side};
use plies_kalah::{Kalah, StoreDifference};
use plies_onitama::{Card, Onitama, PstEvaluator, Square};
use plies_view::View;
use plies_yinsh::{Yinsh, YinshEvaluator};
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

/// `GET /api/games/{id}` of `game`: its status and the game.
async fn get_game(router: &Router, game: &Value) -> (StatusCode, Value) {
    let id = game["id"].as_str().expect("a game's id");
    send(router, Method::GET, &format!("/api/games/{id}"), None).await
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

/// The picture's numbers reach the page as short decimals: Yinsh's grid (steps of √3/2 and
/// ½) is drawn in `f32`s, and the answer is built as a `serde_json::Value`, whose numbers are
/// `f64`s; an `f32` widened as it is would show seventeen digits (`0.8660253882408142`).
#[tokio::test]
async fn the_picture_carries_no_float_noise() {
    fn numbers(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Number(n) => out.push(n.to_string()),
            Value::Array(items) => items.iter().for_each(|v| numbers(v, out)),
            Value::Object(fields) => fields.values().for_each(|v| numbers(v, out)),
            _ => {}
        }
    }
    let spec = GameCli::new("yinsh", evaluator(YinshEvaluator::tuned()));
    let router = page_router(&spec, Yinsh::start_position(), 4, MAX_SEARCH_MS);
    let game = new_game(&router, "{}").await;
    let mut texts = Vec::new();
    numbers(&game["picture"], &mut texts);
    assert!(texts.len() > 100, "{texts:?}");
    assert!(texts.iter().any(|t| t.contains('.')), "{texts:?}");
    for text in &texts {
        // An `f32` needs at most nine significant digits to be told apart.
        let digits = text.trim_start_matches(['-', '0', '.']).chars();
        let significant = digits.filter(char::is_ascii_digit).count();
        assert!(significant <= 9, "{text} in the picture");
    }
}

/// A Yinsh game's record (boardspace SGF) holds the whole tree, variations nested in SGF's
/// way, whatever is shown; loading it sets up the same tree and shows its main line's end; a
/// malformed variation is refused with one line.
#[tokio::test]
async fn records_keep_the_variations_where_the_format_has_them() {
    let spec = GameCli::new("yinsh", evaluator(YinshEvaluator::tuned()));
    let router = page_router(&spec, Yinsh::start_position(), 4, MAX_SEARCH_MS);
    let tree = "g2 (e5 f7 (a4) d4) c6 f2 d4 (h3 e4) (a4 b4) e1";
    let game = new_game(&router, &json!({"moves": tree, "ply": 1}).to_string()).await;
    assert_eq!(game["tree_text"], tree);
    let (status, record) = send(&router, Method::GET, &path(&game, "record"), None).await;
    assert_eq!(status, StatusCode::OK, "{record}");
    assert_eq!(
        record["format"],
        json!({"name": "boardspace SGF", "extension": "sgf"})
    );
    let text = record["text"].as_str().unwrap();
    assert!(text.starts_with("(;\nGM[24]"), "{text}");
    for node in [
        "(; P0[1 place wr G 2]\n",
        "(; P0[1 place wr E 5]\n",
        "(; P1[7 place br D 4]\n",
        "(; P1[7 place br H 3]\n; P1[8 Done ]\n; P0[9 place wr E 4]\n; P0[10 Done ]\n)\n",
        "(; P1[7 place br A 4]\n",
    ] {
        assert!(text.contains(node), "{node:?} in {text}");
    }
    let loaded = new_game(&router, &json!({ "record": text }).to_string()).await;
    assert_eq!(loaded["tree_text"], tree);
    assert_eq!(loaded["moves"], json!(["g2", "c6", "f2", "d4", "e1"]));
    assert_eq!(loaded["ply"], 5);
    let (_, again) = send(&router, Method::GET, &path(&loaded, "record"), None).await;
    assert_eq!(again["text"], text);
    // A plain record still loads (its main line), and a tree of one line is plain SGF.
    let plain = new_game(&router, r#"{"record": "g2\nc6"}"#).await;
    assert_eq!(plain["tree_text"], "g2 c6");
    let (_, one_line) = send(&router, Method::GET, &path(&plain, "record"), None).await;
    assert_eq!(
        one_line["text"].as_str().unwrap().matches('(').count(),
        1,
        "{one_line}"
    );
    for (record, words) in [
        (
            "(;GM[24]; P0[1 place wr G 2](; P1[2 place br C 6])",
            "bad record: bad SGF at character 51",
        ),
        (
            "(;GM[24]; P0[1 place wr G 2](; P1[2 place br C 6])(; P1[2 place br G 2]))",
            "move 2 ('g2') of a variation",
        ),
        (
            "(;GM[24]; P0[1 place wr G 2]()(; P1[2 Done]))",
            "empty game tree",
        ),
    ] {
        let body = json!({ "record": record }).to_string();
        let answer = send(&router, Method::POST, "/api/games", Some(&body)).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, words);
    }
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
    let (_, after) = get_game(&router, &game).await;
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
    // The iterations (`done` has no `seldepth`).
    let iterations: Vec<Value> = text
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .filter_map(|data| serde_json::from_str::<Value>(data).ok())
        .filter(|event| event.get("seldepth").is_some())
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
        ("/", "text/html", "id=\"explorer\""),
        ("/app.js", "text/javascript", "/api/explore?position="),
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
    let (_, shown) = get_game(&router, &game).await;
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

/// Posts `body` to the game's `what`; the status and the answer.
async fn post(router: &Router, game: &Value, what: &str, body: &str) -> (StatusCode, Value) {
    send(router, Method::POST, &path(game, what), Some(body)).await
}

/// Posts `body` to the game's `what` and expects 200; the game after it.
async fn change(router: &Router, game: &Value, what: &str, body: &str) -> Value {
    let (status, after) = post(router, game, what, body).await;
    assert_eq!(status, StatusCode::OK, "{what} {body}: {after}");
    after
}

/// The children of node `node` in the game's `tree`.
fn children(game: &Value, node: u64) -> Value {
    game["tree"]
        .as_array()
        .unwrap()
        .iter()
        .find(|entry| entry["node"] == node)
        .map_or(Value::Null, |entry| entry["children"].clone())
}

/// A move played at an earlier position is a variation (the current line); playing a move the
/// tree has follows it; `goto` a node off the current line moves the line there; `promote`
/// makes a variation the main line (the record writes it); `delete` removes a node and what
/// follows, showing its parent if it showed one of them.
#[tokio::test]
async fn variations_are_made_shown_promoted_and_deleted() {
    let router = piles();
    let game = new_game(&router, r#"{"moves": "a1 b1 a2"}"#).await;
    assert_eq!((&game["node"], &game["ply"]), (&json!(3), &json!(3)));
    assert_eq!(game["line_text"], Value::Null);
    assert_eq!(game["changed"], json!([]), "no picture cell in a toy game");
    change(&router, &game, "goto", r#"{"ply": 1}"#).await;
    let varied = change(&router, &game, "move", r#"{"move": "b2"}"#).await;
    assert_eq!(varied["moves"], json!(["a1", "b2"]));
    assert_eq!((&varied["node"], &varied["ply"]), (&json!(4), &json!(2)));
    assert_eq!(
        varied["line"],
        json!([
            {"node": 1, "move": "a1", "mover": "first", "mover_name": "first player"},
            {"node": 4, "move": "b2", "mover": "second", "mover_name": "second player"},
        ])
    );
    assert_eq!(varied["line_text"], "a1 b2");
    assert_eq!(varied["tree_text"], "a1 b1 (b2) a2");
    assert_eq!(children(&varied, 1), json!([2, 4]));
    assert_eq!(
        varied["tree"][0],
        json!({"node": 0, "parent": null, "move": null, "mover": null, "mover_name": null,
            "ply": 0, "children": [1]})
    );
    let order: Vec<&Value> = varied["tree"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| &entry["node"])
        .collect();
    assert_eq!(order, [0, 1, 2, 3, 4]);
    assert_eq!(
        varied["tree"][4],
        json!({"node": 4, "parent": 1, "move": "b2", "mover": "second",
            "mover_name": "second player", "ply": 2, "children": []})
    );
    // The main line's move again: its node, none added.
    change(&router, &game, "goto", r#"{"ply": 1}"#).await;
    let again = change(&router, &game, "move", r#"{"move": "b1"}"#).await;
    assert_eq!((&again["node"], &again["ply"]), (&json!(2), &json!(2)));
    assert_eq!(again["moves"], json!(["a1", "b1", "a2"]));
    assert_eq!(again["tree"].as_array().unwrap().len(), 5);
    assert_eq!(again["line_text"], Value::Null);
    // To the variation by its node; to the start, which is on every line.
    let shown = change(&router, &game, "goto", r#"{"node": 4}"#).await;
    assert_eq!(shown["moves"], json!(["a1", "b2"]));
    assert_eq!(shown["last"], json!(["move b2"]));
    let shown = change(&router, &game, "goto", r#"{"node": 0}"#).await;
    assert_eq!((&shown["node"], &shown["ply"]), (&json!(0), &json!(0)));
    assert_eq!(shown["moves"], json!(["a1", "b2"]));
    assert_eq!(shown["last"], json!([]));

    let promoted = change(&router, &game, "promote", r#"{"node": 4}"#).await;
    assert_eq!(promoted["tree_text"], "a1 b2 (b1 a2)");
    assert_eq!(children(&promoted, 1), json!([4, 2]));
    assert_eq!(
        (&promoted["node"], &promoted["moves"]),
        (&json!(0), &json!(["a1", "b2"]))
    );
    assert_eq!(promoted["line_text"], Value::Null);
    let (_, record) = send(&router, Method::GET, &path(&game, "record"), None).await;
    assert_eq!(record["text"], "position 7 5 1\na1\nb2\n");
    for (body, words) in [
        (r#"{"node": 0}"#, "bad node 0: the start cannot be promoted"),
        (r#"{"node": 99}"#, "bad node 99: no such node in this game"),
    ] {
        let answer = post(&router, &game, "promote", body).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, words);
    }

    // Show the old main line's end, then delete its first move: its parent is shown.
    let shown = change(&router, &game, "goto", r#"{"node": 2}"#).await;
    assert_eq!(shown["moves"], json!(["a1", "b1", "a2"]));
    assert_eq!(shown["line_text"], "a1 b1 a2");
    change(&router, &game, "goto", r#"{"ply": 3}"#).await;
    let deleted = change(&router, &game, "delete", r#"{"node": 2}"#).await;
    assert_eq!((&deleted["node"], &deleted["ply"]), (&json!(1), &json!(1)));
    assert_eq!(deleted["moves"], json!(["a1", "b2"]));
    assert_eq!(deleted["tree_text"], "a1 b2");
    assert_eq!(deleted["tree"].as_array().unwrap().len(), 3);
    for (what, body, words) in [
        (
            "delete",
            r#"{"node": 0}"#,
            "bad node 0: the start cannot be deleted",
        ),
        (
            "delete",
            r#"{"node": 2}"#,
            "bad node 2: no such node in this game",
        ),
        (
            "goto",
            r#"{"node": 3}"#,
            "bad node 3: no such node in this game",
        ),
        ("goto", r#"{"node": 1, "ply": 1}"#, "not both"),
        ("goto", "{}", "missing field"),
        ("delete", "{}", "missing field"),
        ("delete", r#"{"node": -1}"#, "bad request body"),
    ] {
        let answer = post(&router, &game, what, body).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, words);
    }
    // A new node gets a new id, never a deleted one's.
    change(&router, &game, "goto", r#"{"ply": 1}"#).await;
    let added = change(&router, &game, "move", r#"{"move": "b1"}"#).await;
    assert_eq!(added["node"], 5);

    // Promoting a variation that the current line passes beside keeps that line and the
    // node shown (here the main line's end, which the line reaches along first children).
    let game = new_game(&router, r#"{"moves": "a1 b1 (b2) a2"}"#).await;
    assert_eq!(
        (&game["node"], &game["line_text"]),
        (&json!(4), &Value::Null)
    );
    let promoted = change(&router, &game, "promote", r#"{"node": 3}"#).await;
    assert_eq!(promoted["tree_text"], "a1 b2 (b1 a2)");
    assert_eq!(
        (&promoted["node"], &promoted["ply"]),
        (&json!(4), &json!(3))
    );
    assert_eq!(promoted["moves"], json!(["a1", "b1", "a2"]));
    assert_eq!(promoted["line_text"], "a1 b1 a2");
}

/// `moves` are played in turn from the position shown, following the moves the tree has, or
/// none of them is when one is bad.
#[tokio::test]
async fn a_list_of_moves_is_played_all_or_none() {
    let router = piles();
    let game = new_game(&router, r#"{"moves": "a1"}"#).await;
    change(&router, &game, "goto", r#"{"ply": 0}"#).await;
    for (body, words) in [
        (r#"{"moves": ["a1", "zz", "b1"]}"#, "move 2: bad move: 'zz'"),
        (r#"{"moves": ["a1", "b1", "a9"]}"#, "move 3: bad move"),
        (
            r#"{"moves": ["a3", "a3", "a1", "b3", "b2", "a1"]}"#,
            "move 6: the game is over",
        ),
        (r#"{"moves": ["a1"], "move": "a1"}"#, "not both"),
        (r#"{"moves": "a1"}"#, "bad request body"),
    ] {
        let answer = post(&router, &game, "move", body).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, words);
    }
    let (_, untouched) = get_game(&router, &game).await;
    assert_eq!(untouched["tree_text"], "a1");
    assert_eq!(
        (&untouched["node"], &untouched["ply"]),
        (&json!(0), &json!(0))
    );
    let played = change(&router, &game, "move", r#"{"moves": ["a1", "b2", "a3"]}"#).await;
    assert_eq!(played["moves"], json!(["a1", "b2", "a3"]));
    assert_eq!(
        played["line"][0]["node"], 1,
        "a1 is followed, not added again"
    );
    assert_eq!(played["tree"].as_array().unwrap().len(), 4);
    assert_eq!((&played["node"], &played["ply"]), (&json!(3), &json!(3)));
}

/// The game's tree, line and position shown with every node id replaced by its place in the
/// tree's order (ids differ between a game and its copy: a copy has no deleted nodes).
fn canonical(game: &Value) -> Value {
    let tree = game["tree"].as_array().unwrap();
    let place = |id: &Value| -> Value {
        if id.is_null() {
            return Value::Null;
        }
        json!(tree.iter().position(|entry| &entry["node"] == id).unwrap())
    };
    let nodes: Vec<Value> = tree
        .iter()
        .map(|entry| {
            let mut entry = entry.clone();
            entry["node"] = place(&entry["node"]);
            entry["parent"] = place(&entry["parent"]);
            let children: Vec<Value> = entry["children"]
                .as_array()
                .unwrap()
                .iter()
                .map(&place)
                .collect();
            entry["children"] = json!(children);
            entry
        })
        .collect();
    let line: Vec<Value> = game["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            let mut entry = entry.clone();
            entry["node"] = place(&entry["node"]);
            entry
        })
        .collect();
    json!({
        "tree": nodes,
        "node": place(&game["node"]),
        "line": line,
        "moves": game["moves"],
        "ply": game["ply"],
        "position": game["position"],
        "start": game["start"],
        "tree_text": game["tree_text"],
        "line_text": game["line_text"],
    })
}

/// A new game from `game`'s start, `tree_text`, `line_text` and `ply` is the same game.
async fn assert_copy_is_the_same(router: &Router, game: &Value) {
    let mut body =
        json!({"position": game["start"], "moves": game["tree_text"], "ply": game["ply"]});
    if !game["line_text"].is_null() {
        body["line"] = game["line_text"].clone();
    }
    let copy = new_game(router, &body.to_string()).await;
    assert_eq!(canonical(&copy), canonical(game), "{body}");
}

/// A game's `tree_text`, with its `line_text` and `ply`, sets up the same tree, line and
/// position shown: in a toy game and in Onitama, whose moves have spaces.
#[tokio::test]
async fn a_tree_text_sets_up_the_same_game() {
    let router = piles();
    let game = new_game(&router, r#"{"moves": "a1 b1 a2 b2"}"#).await;
    change(&router, &game, "goto", r#"{"ply": 1}"#).await;
    change(&router, &game, "move", r#"{"moves": ["b2", "a3"]}"#).await;
    change(&router, &game, "goto", r#"{"ply": 2}"#).await;
    change(&router, &game, "move", r#"{"move": "a1"}"#).await;
    change(&router, &game, "goto", r#"{"ply": 1}"#).await;
    change(&router, &game, "move", r#"{"move": "b3"}"#).await;
    // A deleted node leaves a gap in the ids.
    change(&router, &game, "delete", r#"{"node": 4}"#).await;
    change(&router, &game, "move", r#"{"move": "a1"}"#).await;
    let game = change(&router, &game, "goto", r#"{"node": 7}"#).await;
    assert_eq!(game["tree_text"], "a1 b1 (b2 a3 (a1)) (b3 a1) a2");
    assert_eq!(game["line_text"], "a1 b2 a1");
    assert_copy_is_the_same(&router, &game).await;
    let game = change(&router, &game, "goto", r#"{"ply": 1}"#).await;
    assert_copy_is_the_same(&router, &game).await;
    // The main line, shown at its end.
    let game = change(&router, &game, "goto", r#"{"node": 3}"#).await;
    assert_eq!(game["line_text"], Value::Null);
    assert_copy_is_the_same(&router, &game).await;
    // A line the tree lacks is added to it; without a ply, the current line's end is shown.
    let copy = new_game(&router, r#"{"moves": "a1 b1", "line": "a1 b2 a1"}"#).await;
    assert_eq!(copy["tree_text"], "a1 b1 (b2 a1)");
    assert_eq!(
        (&copy["moves"], &copy["ply"]),
        (&json!(["a1", "b2", "a1"]), &json!(3))
    );
    let copy = new_game(&router, r#"{"moves": "a1 b1 a1", "line": "a1"}"#).await;
    assert_eq!(
        (&copy["moves"], &copy["ply"]),
        (&json!(["a1", "b1", "a1"]), &json!(3))
    );

    let spec = GameCli::new("onitama", evaluator(PstEvaluator::default()));
    let router = page_router(&spec, Onitama::start_position(), 4, MAX_SEARCH_MS);
    let game = new_game(&router, "{}").await;
    let legal = |game: &Value, n: usize| game["legal"][n]["move"].as_str().unwrap().to_string();
    let mut shown = game.clone();
    for n in [0, 1, 2] {
        let body = json!({"move": legal(&shown, n)}).to_string();
        shown = change(&router, &game, "move", &body).await;
    }
    shown = change(&router, &game, "goto", r#"{"ply": 1}"#).await;
    for n in [3, 0] {
        let body = json!({"move": legal(&shown, n)}).to_string();
        shown = change(&router, &game, "move", &body).await;
    }
    shown = change(&router, &game, "goto", r#"{"ply": 0}"#).await;
    let body = json!({"move": legal(&shown, 4)}).to_string();
    let game = change(&router, &game, "move", &body).await;
    let text = game["tree_text"].as_str().unwrap();
    assert_eq!(text.matches('(').count(), 2, "{text}");
    assert!(text.contains(' '), "{text}");
    assert_copy_is_the_same(&router, &game).await;
    let game = change(&router, &game, "goto", r#"{"node": 4}"#).await;
    assert_copy_is_the_same(&router, &game).await;
}

/// A tree text that does not read is refused with one line saying why, and so are a bad line
/// or ply.
#[tokio::test]
async fn bad_tree_texts_are_refused() {
    let router = piles();
    for (body, words) in [
        (
            r#"{"moves": "a1 (b1"}"#,
            "bad moves: unbalanced parenthesis",
        ),
        (
            r#"{"moves": "a1 b1)"}"#,
            "bad moves: unbalanced parenthesis",
        ),
        (r#"{"moves": "a1 (b1))"}"#, "character 8 closes nothing"),
        (
            r#"{"moves": "(a1) b1"}"#,
            "bad moves: a variation before any move",
        ),
        (
            r#"{"moves": "a1 ((b1))"}"#,
            "a variation before any move (character 5)",
        ),
        (r#"{"moves": "a1 () b1"}"#, "bad moves: an empty variation"),
        (
            r#"{"moves": "a1 (zz)"}"#,
            "bad moves (from character 5): 'zz'",
        ),
        (
            r#"{"moves": "a1 b1 (b2 (b9))"}"#,
            "'b9': move 1 ('b9'): illegal here",
        ),
        (r#"{"moves": "zz"}"#, "bad moves: 'zz'"),
        (
            r#"{"moves": "a3 a3 a1 b3 (b1) b2 (b2 a1)"}"#,
            "bad moves (from character 22)",
        ),
        (r#"{"moves": "a1", "line": "a1 zz"}"#, "bad line: 'zz'"),
        (
            r#"{"moves": "a1", "ply": 2}"#,
            "bad ply 2: the line has 1 moves",
        ),
        (r#"{"record": "a1", "line": "a1"}"#, "not both"),
        (r#"{"record": "a1", "ply": 0}"#, "not both"),
    ] {
        let answer = send(&router, Method::POST, "/api/games", Some(body)).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, words);
    }
}

/// The cells whose seed count a Kalah move changed (`changed`), found from the positions, and
/// the squares and cards an Onitama capture changed.
#[tokio::test]
async fn changed_marks_what_a_capture_changed() {
    // South's last seed lands in its empty pit b: it captures North's seeds opposite.
    let start = Kalah::parse_position("1,0,4,4,4,4|0 4,4,4,4,4,4|0 s").unwrap();
    let after = start.play(start.parse_move("a").unwrap());
    assert!(after.store(Side::First) > 1, "a capture");
    let mut expected = Vec::new();
    for side in [Side::First, Side::Second] {
        let name = Kalah::side_name(side);
        for pit in 0..start.pits() {
            if start.seeds(side, pit) != after.seeds(side, pit) {
                expected.push(format!("{name}-{}", char::from(b'a' + pit as u8)));
            }
        }
        if start.store(side) != after.store(side) {
            expected.push(format!("{name}-store"));
        }
    }
    let spec = GameCli::new("kalah", evaluator(StoreDifference::default()));
    let router = page_router(&spec, Kalah::start_position(), 4, MAX_SEARCH_MS);
    let body = json!({"position": start.format_position(), "moves": "a", "ply": 0});
    let game = new_game(&router, &body.to_string()).await;
    assert_eq!(game["changed"], json!([]));
    let game = change(&router, &game, "goto", r#"{"ply": 1}"#).await;
    assert_eq!(sorted(&game["changed"]), sorted(&json!(expected)));
    assert_eq!(expected.len(), 3, "{expected:?}");

    // Red's master or student takes a blue student; the card used and the side card swap.
    let start =
        Onitama::parse_position("bbBb1/5/5/1b3/rrRrr r monkey,crane tiger,crab dragon").unwrap();
    let mut moves = Vec::new();
    start.generate_moves(&mut moves);
    let capture = *moves
        .iter()
        .find(|mv| {
            mv.to()
                .and_then(|to| start.piece_at(to))
                .is_some_and(|(side, _)| side == Side::Second)
        })
        .expect("a capture");
    let after = start.play(capture);
    let mut expected: Vec<String> = Square::all()
        .filter(|&square| start.piece_at(square) != after.piece_at(square))
        .map(|square| square.to_string())
        .collect();
    let holders = |state: &Onitama| -> Vec<(Card, &str)> {
        let mut holders: Vec<(Card, &str)> = state
            .hand(Side::First)
            .into_iter()
            .map(|card| (card, "red"))
            .chain(
                state
                    .hand(Side::Second)
                    .into_iter()
                    .map(|card| (card, "blue")),
            )
            .collect();
        holders.push((state.side_card(), "side"));
        holders
    };
    let was = holders(&start);
    for (card, holder) in holders(&after) {
        if !was.contains(&(card, holder)) {
            expected.push(format!("card:{}", card.name()));
        }
    }
    assert_eq!(expected.len(), 4, "{expected:?}");
    let spec = GameCli::new("onitama", evaluator(PstEvaluator::default()));
    let router = page_router(&spec, Onitama::start_position(), 4, MAX_SEARCH_MS);
    let body = json!({"position": start.format_position(), "moves": start.format_move(capture)});
    let game = new_game(&router, &body.to_string()).await;
    assert_eq!(sorted(&game["changed"]), sorted(&json!(expected)));
}

/// The strings of a JSON array, sorted.
fn sorted(values: &Value) -> Vec<String> {
    let mut texts: Vec<String> = values
        .as_array()
        .unwrap()
        .iter()
        .map(|value| value.as_str().unwrap().to_string())
        .collect();
    texts.sort();
    texts
}

/// Reads a game's event stream one event at a time.
struct Events<S> {
    stream: S,
    buffer: String,
}

impl<S> Events<S>
where
    S: futures_util::Stream<Item = Result<axum::body::Bytes, axum::Error>> + Unpin,
{
    /// The next event: its name and data (at most 10 s between two chunks).
    async fn next(&mut self) -> (String, Value) {
        use futures_util::StreamExt;
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let event: String = self.buffer.drain(..end + 2).collect();
                let name = event.lines().find_map(|line| line.strip_prefix("event: "));
                let data = event.lines().find_map(|line| line.strip_prefix("data: "));
                if let (Some(name), Some(data)) = (name, data) {
                    return (name.to_string(), serde_json::from_str(data).unwrap());
                }
                continue;
            }
            let chunk = tokio::time::timeout(Duration::from_secs(10), self.stream.next())
                .await
                .expect("the events go on")
                .expect("the stream is open")
                .unwrap();
            self.buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    /// The events up to and with the first `name` event whose data has `search`.
    async fn until(&mut self, name: &str, search: u64) -> Vec<(String, Value)> {
        let mut seen = Vec::new();
        loop {
            let event = self.next().await;
            let found = event.0 == name && event.1["search"] == search;
            seen.push(event);
            if found {
                return seen;
            }
        }
    }
}

/// The event stream of `game`.
async fn events(
    router: &Router,
    game: &Value,
) -> Events<impl futures_util::Stream<Item = Result<axum::body::Bytes, axum::Error>> + Unpin> {
    let request = Request::builder()
        .uri(path(game, "events"))
        .header("host", "localhost")
        .body(Body::empty())
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    Events {
        stream: response.into_body().into_data_stream(),
        buffer: String::new(),
    }
}

/// The game goes on while an analysis runs: it keeps searching its node and records its score
/// there; deleting its node stops it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_during_an_analysis_are_accepted() {
    let router = maze();
    let game = new_game(&router, "{}").await;
    let mut stream = events(&router, &game).await;
    let (status, started) = post(&router, &game, "analyze", r#"{"time_ms": 30000}"#).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(
        started,
        json!({"started": "analysis", "search": 1, "node": 0})
    );
    let (_, first) = stream.until("iteration", 1).await.pop().unwrap();
    assert_eq!(first["node"], 0);
    let moved = change(&router, &game, "move", r#"{"move": "0"}"#).await;
    assert_eq!(moved["node"], 1);
    assert_eq!(
        moved["search"],
        json!({"id": 1, "kind": "analysis", "node": 0})
    );
    assert_eq!(moved["searching"], "analysis");
    change(&router, &game, "move", r#"{"moves": ["1", "0"]}"#).await;
    change(&router, &game, "goto", r#"{"node": 1}"#).await;
    change(&router, &game, "move", r#"{"move": "0"}"#).await;
    change(&router, &game, "promote", r#"{"node": 4}"#).await;
    change(&router, &game, "delete", r#"{"node": 2}"#).await;
    let undone = change(&router, &game, "undo", "").await;
    assert_eq!(undone["moves"], json!(["0"]));
    assert_eq!(undone["searching"], "analysis");
    change(&router, &game, "stop", "").await;
    let (_, done) = stream.until("done", 1).await.pop().unwrap();
    assert_eq!((&done["search"], &done["node"]), (&json!(1), &json!(0)));
    // Its score is the start's, though the game changed meanwhile.
    let shown = wait_for_search(&router, &game, Value::Null).await;
    assert!(shown["scores"][0].is_object(), "{shown}");
    assert!(shown["scores"][1].is_null(), "{shown}");

    // An analysis of a node that is deleted stops; the game changes on meanwhile.
    change(&router, &game, "goto", r#"{"node": 0}"#).await;
    let other = change(&router, &game, "move", r#"{"move": "1"}"#).await["node"].clone();
    change(&router, &game, "goto", r#"{"node": 1}"#).await;
    let (status, started) = post(&router, &game, "analyze", r#"{"time_ms": 30000}"#).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(
        started,
        json!({"started": "analysis", "search": 2, "node": 1})
    );
    stream.until("iteration", 2).await;
    let begun = Instant::now();
    let gone = change(&router, &game, "delete", r#"{"node": 1}"#).await;
    assert_eq!(gone["node"], 0);
    let body = json!({ "node": other }).to_string();
    let gone = change(&router, &game, "delete", &body).await;
    assert_eq!(gone["tree_text"], "");
    let (_, done) = stream.until("done", 2).await.pop().unwrap();
    assert_eq!(done["node"], 1);
    assert!(
        begun.elapsed() < Duration::from_secs(10),
        "{:?}",
        begun.elapsed()
    );
}

/// An analysis asked for while another runs on the game stops that one (it says `done`) and
/// runs in its place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_analysis_takes_the_place_of_the_first() {
    let router = maze();
    let game = new_game(&router, "{}").await;
    let mut stream = events(&router, &game).await;
    let (status, _) = post(&router, &game, "analyze", r#"{"time_ms": 30000}"#).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    stream.until("iteration", 1).await;
    change(&router, &game, "move", r#"{"move": "1"}"#).await;
    let begun = Instant::now();
    let (status, started) = post(&router, &game, "analyze", r#"{"time_ms": 30000}"#).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{started}");
    assert!(
        begun.elapsed() < Duration::from_secs(10),
        "{:?}",
        begun.elapsed()
    );
    assert_eq!(
        started,
        json!({"started": "analysis", "search": 2, "node": 1})
    );
    let seen = stream.until("iteration", 2).await;
    let names: Vec<(&str, &Value)> = seen
        .iter()
        .map(|(name, data)| (name.as_str(), &data["search"]))
        .filter(|&(_, search)| search == 1 || search == 2)
        .skip_while(|&(name, _)| name == "iteration")
        .collect();
    assert_eq!(names, [("done", &json!(1)), ("iteration", &json!(2))]);
    let (_, shown) = get_game(&router, &game).await;
    assert_eq!(
        shown["search"],
        json!({"id": 2, "kind": "analysis", "node": 1})
    );
    // An engine search takes its place too.
    let (status, after) = post(&router, &game, "engine", r#"{"time_ms": 50}"#).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["moves"].as_array().unwrap().len(), 2, "{after}");
    stream.until("done", 2).await;
    stream.until("done", 3).await;
}

/// Two analyses of one game asked for at once (a page stepping quickly, two tabs): both are
/// started, the one that came second stopping the first and waiting for it, never a 409.
#[tokio::test]
async fn analyses_asked_for_at_once_both_start() {
    let router = maze();
    let game = new_game(&router, "{}").await;
    for _ in 0..5 {
        let body = r#"{"time_ms": 30000}"#;
        let (first, second) = tokio::join!(
            post(&router, &game, "analyze", body),
            post(&router, &game, "analyze", body)
        );
        assert_eq!(first.0, StatusCode::ACCEPTED, "{}", first.1);
        assert_eq!(second.0, StatusCode::ACCEPTED, "{}", second.1);
        assert_ne!(first.1["search"], second.1["search"]);
    }
    let (status, _) = post(&router, &game, "stop", "").await;
    assert_eq!(status, StatusCode::OK);
}

/// Set when [`Recording`] tables are probed.
static PROBED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Tables that know nothing and record that a search asked them.
struct Recording;

impl plies::solve::Probe<TwoPiles> for Recording {
    fn probe(&self, _: &TwoPiles) -> Option<plies::solve::TableValue> {
        PROBED.store(true, std::sync::atomic::Ordering::SeqCst);
        None
    }
}

fn recording_tables(
    _: &TwoPiles,
    _: u8,
    _: Option<&std::path::Path>,
    _: usize,
    _: &mut dyn FnMut(&str),
) -> Result<std::sync::Arc<dyn plies::solve::Probe<TwoPiles>>, String> {
    Ok(std::sync::Arc::new(Recording))
}

/// The server's one table source serves every search: the first goes without the tables
/// (they are built in the background), a search after they are ready uses them.
#[tokio::test]
async fn searches_take_the_tables_once_ready() {
    use crate::endgame::EndgameTables;
    use crate::tables::{TableSource, TablesArgs};
    let spec = GameCli {
        endgame_tables: Some(EndgameTables {
            default_pieces: 2,
            pieces: (2, 4),
            key: |_| "all".to_string(),
            build: recording_tables,
            files: |_, _| Vec::new(),
            sets: None,
        }),
        ..GameCli::new("twopiles", evaluator(PileDifference))
    };
    let limits = Limits {
        max_games: 8,
        max_search_ms: MAX_SEARCH_MS,
        max_memory_mb: 1024,
        read_timeout: Duration::from_secs(10),
        access: Access::new(std::net::IpAddr::from([127, 0, 0, 1]), 80, Vec::new()),
    };
    let mut app = App::new(
        spec.name,
        spec.evaluator.clone(),
        TwoPiles::start_position(),
        limits,
    );
    let source = TableSource::new(&spec, &TablesArgs::default(), 1).unwrap();
    app.tables = Some(std::sync::Arc::new(source));
    let app = std::sync::Arc::new(app);
    let router = router(std::sync::Arc::clone(&app));
    let game = new_game(&router, "{}").await;
    change(&router, &game, "engine", r#"{"time_ms": 50}"#).await;
    assert!(!PROBED.load(std::sync::atomic::Ordering::SeqCst));
    let tables = app.tables.as_ref().unwrap();
    assert!(tables.wait(&TwoPiles::start_position()).unwrap().is_some());
    change(&router, &game, "engine", r#"{"time_ms": 50}"#).await;
    assert!(PROBED.load(std::sync::atomic::Ordering::SeqCst));
}

mod columns;
mod store;
