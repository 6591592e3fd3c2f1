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
