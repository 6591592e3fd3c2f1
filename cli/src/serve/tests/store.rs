//! The position store on the page: a finished analysis is written to the store, and every game
//! answer carries the stored analysis of the position shown (`stored`), also on a server
//! started again on the same store file; without a store, or for MCTS, nothing is stored.

use std::path::PathBuf;
use std::sync::Arc;

use super::*;
use crate::store::shared::SharedStore;

/// A store file of its own for the test `name` (its directory removed when dropped).
struct StoreFile(PathBuf);

impl StoreFile {
    fn new(name: &str) -> StoreFile {
        let dir =
            std::env::temp_dir().join(format!("plies-serve-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        StoreFile(dir)
    }

    fn path(&self) -> PathBuf {
        self.0.join("store.sqlite")
    }
}

impl Drop for StoreFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A Maze page (searches run to their time) whose store is the file `file`: a server started
/// afresh on it.
fn maze_on(file: &StoreFile) -> Router {
    let (_, app) = maze_with(|_| {});
    let mut app = Arc::try_unwrap(app).ok().expect("the only reference");
    app.store = Some(Arc::new(
        SharedStore::open(&file.path(), 1 << 30, "maze").unwrap(),
    ));
    router(Arc::new(app))
}

/// Analyses the position `game` shows with `body` and waits for its `done` event; its data.
async fn analysed(router: &Router, game: &Value, body: &str) -> Value {
    let mut stream = events(router, game).await;
    let (status, started) = send(router, Method::POST, &path(game, "analyze"), Some(body)).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{started}");
    let search = started["search"].as_u64().unwrap();
    let (name, done) = stream.until("done", search).await.pop().unwrap();
    assert_eq!(name, "done");
    done
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_is_stored_and_shown_after_a_restart() {
    let file = StoreFile::new("restart");
    let router = maze_on(&file);
    let game = new_game(&router, "{}").await;
    assert_eq!(game["stored"], Value::Null, "nothing is stored yet: {game}");
    let done = analysed(&router, &game, r#"{"time_ms": 150}"#).await;
    assert!(done["depth"].as_u64().unwrap() >= 1, "{done}");
    let (_, shown) = get_game(&router, &game).await;
    let stored = &shown["stored"];
    assert_eq!(stored["depth"], done["depth"], "{stored} after {done}");
    assert_eq!(stored["pv"], done["pv"], "{stored} after {done}");
    assert_eq!(stored["best"], done["best"], "{stored} after {done}");
    assert_eq!(stored["family"], "pvs");
    assert_eq!(
        stored["score"]["value"], 0,
        "Maze is even everywhere: {stored}"
    );

    // Another server on the same file: a new game at that position shows it at once.
    drop(router);
    let again = maze_on(&file);
    let fresh = new_game(&again, "{}").await;
    assert_eq!(fresh["stored"], *stored, "{fresh}");
    // A position never analysed has none; stepping back shows the stored one again.
    let mv = fresh["legal"][0]["move"].as_str().unwrap();
    let moved = change(&again, &fresh, "move", &json!({ "move": mv }).to_string()).await;
    assert_eq!(moved["stored"], Value::Null, "{moved}");
    let back = change(&again, &fresh, "goto", r#"{"ply": 0}"#).await;
    assert_eq!(back["stored"], *stored);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcts_and_a_page_without_a_store_store_nothing() {
    let file = StoreFile::new("mcts");
    let router = maze_on(&file);
    let game = new_game(&router, "{}").await;
    analysed(&router, &game, r#"{"searcher": "mcts", "time_ms": 50}"#).await;
    let (_, shown) = get_game(&router, &game).await;
    assert_eq!(shown["stored"], Value::Null, "MCTS has no depth: {shown}");

    let router = maze();
    let game = new_game(&router, "{}").await;
    analysed(&router, &game, r#"{"time_ms": 50}"#).await;
    let (_, shown) = get_game(&router, &game).await;
    assert!(shown.get("stored").is_some(), "{shown}");
    assert_eq!(shown["stored"], Value::Null, "{shown}");
}

#[test]
fn serve_refuses_a_file_that_is_not_a_store() {
    let file = StoreFile::new("refused");
    std::fs::write(
        file.path(),
        "not a database at all, but long enough to have a header",
    )
    .unwrap();
    let error = crate::test_support::run_invalid(&format!(
        "serve --port 0 --store {}",
        file.path().display()
    ));
    assert!(error.contains("is not an SQLite database"), "{error}");
}

/// `GET /api/explore`: the moves recorded games played at a position (the start by default,
/// or `position` and `moves`), with counts and results from the mover's view; bad input a 400
/// with one line, no store a 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_lists_the_moves_of_recorded_games() {
    use crate::store::games::{GameRow, Recorded, record};
    use plies::Outcome;
    let file = StoreFile::new("explore");
    let router = maze_on(&file);
    let (_, info) = send(&router, Method::GET, "/api/info", None).await;
    let start = Maze::parse_position(info["start"].as_str().unwrap()).unwrap();
    let mut legal = Vec::new();
    start.generate_moves(&mut legal);
    let [first, second, ..] = legal[..] else {
        panic!("the maze starts with two moves or more");
    };
    let (first, second) = (start.format_move(first), start.format_move(second));
    {
        let mut store = crate::store::Store::open(&file.path(), 1 << 30).unwrap();
        for (played, result) in [
            (&first, Outcome::Win(Side::First)),
            (&first, Outcome::Draw),
            (&second, Outcome::Win(Side::Second)),
        ] {
            let row = GameRow {
                game: "maze".into(),
                variant: "maze".into(),
                start: start.format_position(),
                players: ["pvs".into(), "alphabeta".into()],
                settings: "depth 1 per move".into(),
                result,
                termination: "test".into(),
                moves: vec![played.clone()],
                source: "test".into(),
                played: 1,
            };
            let done = record::<Maze>(&mut store, &row).unwrap();
            assert!(matches!(done, Recorded::Stored(_)), "{done:?}");
        }
    }
    let (status, answer) = send(&router, Method::GET, "/api/explore", None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["position"], start.format_position());
    assert_eq!(answer["games"], 3, "{answer}");
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2, "{answer}");
    assert_eq!(moves[0]["move"], first.as_str(), "the most played first");
    assert_eq!(
        [
            &moves[0]["games"],
            &moves[0]["wins"],
            &moves[0]["draws"],
            &moves[0]["losses"]
        ],
        [2, 1, 1, 0],
        "{answer}"
    );
    assert_eq!(moves[1]["move"], second.as_str());
    assert_eq!(moves[1]["losses"], 1, "First played it and lost: {answer}");
    assert_eq!(moves[0]["score"], 0.75, "{answer}");

    // The same position named in the query; after a move, a position no game went on from.
    let named = format!(
        "/api/explore?position={}",
        start.format_position().replace(' ', "%20")
    );
    let (status, again) = send(&router, Method::GET, &named, None).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again, answer);
    let after = format!("/api/explore?moves={first}");
    let (status, later) = send(&router, Method::GET, &after, None).await;
    assert_eq!(status, StatusCode::OK, "{later}");
    assert_eq!(later["games"], 0, "{later}");
    assert_eq!(later["moves"], json!([]));

    // Bad input: one line each.
    let long = format!("/api/explore?position={}", "1".repeat(5000));
    for bad in [
        "/api/explore?position=nonsense",
        "/api/explore?moves=99",
        "/api/explore?colour=red",
        long.as_str(),
    ] {
        let (status, error) = send(&router, Method::GET, bad, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {error}");
        let line = error["error"].as_str().unwrap();
        assert!(!line.is_empty() && !line.contains('\n'), "{bad}: {error}");
    }
    // Without a store: 404.
    let (status, error) = send(&maze(), Method::GET, "/api/explore", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{error}");
    assert!(
        error["error"].as_str().unwrap().contains("--store"),
        "{error}"
    );
}

/// The moves of a shortest line from `start` to a finished position (breadth first).
fn shortest_end(start: &Maze) -> Vec<String> {
    let mut seen = std::collections::HashMap::new();
    seen.insert(start.format_position(), None::<(String, String)>);
    let mut queue = std::collections::VecDeque::from([start.clone()]);
    while let Some(state) = queue.pop_front() {
        assert!(
            seen.len() < 100_000,
            "no finished position near the maze's start"
        );
        let key = state.format_position();
        if state.outcome().is_some() {
            let mut line = Vec::new();
            let mut at = key;
            while let Some(Some((parent, mv))) = seen.get(&at) {
                line.push(mv.clone());
                at = parent.clone();
            }
            line.reverse();
            return line;
        }
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        for mv in moves {
            let next = state.play(mv);
            let next_key = next.format_position();
            if let std::collections::hash_map::Entry::Vacant(entry) = seen.entry(next_key) {
                entry.insert(Some((key.clone(), state.format_move(mv))));
                queue.push_back(next);
            }
        }
    }
    panic!("the maze has no finished position reachable from its start");
}

/// A game played to its end at the page is in the store once, as a person's game: the explorer
/// counts it at the start; stepping back and to the end again does not record it again; the
/// same line played again after taking back its last move is a second game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_finished_at_the_page_is_recorded_once() {
    let file = StoreFile::new("finished");
    let router = maze_on(&file);
    // A maze of 1,000 nodes, 30% of them finished games (the page's own never ends).
    let start = Maze::parse_position("1 1000 30 f").unwrap();
    let body = json!({ "position": start.format_position() }).to_string();
    let game = new_game(&router, &body).await;
    let line = shortest_end(&start);
    assert!(!line.is_empty(), "the maze's start is not finished");
    let at_start = format!(
        "/api/explore?position={}",
        start.format_position().replace(' ', "%20")
    );
    let explore = |router: Router| {
        let at_start = at_start.clone();
        async move {
            let (status, answer) = send(&router, Method::GET, &at_start, None).await;
            assert_eq!(status, StatusCode::OK, "{answer}");
            answer
        }
    };
    // Before the end: nothing recorded.
    for mv in &line[..line.len() - 1] {
        let body = json!({ "move": mv }).to_string();
        let (status, answer) = send(&router, Method::POST, &path(&game, "move"), Some(&body)).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    assert_eq!(explore(router.clone()).await["games"], 0);
    let last = json!({ "move": line.last().unwrap() }).to_string();
    let (status, answer) = send(&router, Method::POST, &path(&game, "move"), Some(&last)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(
        !answer["outcome"].is_null(),
        "the line ends the game: {answer}"
    );
    let counted = explore(router.clone()).await;
    assert_eq!(counted["games"], 1, "{counted}");
    assert_eq!(counted["moves"][0]["move"], line[0].as_str(), "{counted}");

    // Back to the start and to the end again: the same game, not recorded twice.
    for ply in [0, line.len()] {
        let body = json!({ "ply": ply }).to_string();
        let (status, answer) = send(&router, Method::POST, &path(&game, "goto"), Some(&body)).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    assert_eq!(explore(router.clone()).await["games"], 1);
    // Taken back and played again: a second game.
    let (status, answer) = send(&router, Method::POST, &path(&game, "undo"), Some("{}")).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (status, answer) = send(&router, Method::POST, &path(&game, "move"), Some(&last)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(explore(router.clone()).await["games"], 2);

    // The record: a person's game at the page, from the start, with the moves played.
    let store = crate::store::Store::open(&file.path(), 1 << 30).unwrap();
    let rows = store.games("maze").unwrap();
    assert_eq!(rows.len(), 2);
    let row = &rows[0];
    assert_eq!(row.source, "page");
    assert_eq!(row.players, ["page".to_string(), "page".to_string()]);
    assert_eq!(row.start, start.format_position());
    assert_eq!(row.moves, line);
}
