//! The page's files, compiled into the binary so `serve` needs nothing beside it: one HTML
//! page, one plain JavaScript module (no build step) and one style sheet.
//!
//! Key invariant: the page knows no game; everything game-specific reaches it as data from the
//! API ([`super::api`]): the picture, the legal moves' click paths, the side names.

use axum::http::header;
use axum::response::IntoResponse;

/// `GET /`.
pub(super) async fn index() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("page/index.html"),
    )
}

/// `GET /app.js`.
pub(super) async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("page/app.js"),
    )
}

/// `GET /style.css`.
pub(super) async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("page/style.css"),
    )
}
