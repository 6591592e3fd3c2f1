//! The page's files, compiled into the binary so `serve` needs nothing beside it: one HTML
//! page, plain JavaScript modules split by concern (no build step: `app.js` holds the game and
//! its requests, `board.js` draws the board and takes clicks and drags, `moves.js` the move
//! tree, `analysis.js` the scores, lines and graph) and one style sheet.
//!
//! Key invariant: the page knows no game; everything game-specific reaches it as data from the
//! API ([`super::api`]): the picture, the legal moves' click paths, the side names.

use axum::Router;
use axum::http::header;
use axum::routing::get;

/// The page's files: path, content type, content.
const FILES: [(&str, &str, &str); 6] = [
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("page/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("page/app.js"),
    ),
    (
        "/board.js",
        "text/javascript; charset=utf-8",
        include_str!("page/board.js"),
    ),
    (
        "/moves.js",
        "text/javascript; charset=utf-8",
        include_str!("page/moves.js"),
    ),
    (
        "/analysis.js",
        "text/javascript; charset=utf-8",
        include_str!("page/analysis.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("page/style.css"),
    ),
];

/// `GET` of each of the page's files.
pub(super) fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    FILES
        .iter()
        .fold(Router::new(), |router, &(path, kind, content)| {
            router.route(
                path,
                get(move || async move { ([(header::CONTENT_TYPE, kind)], content) }),
            )
        })
}
