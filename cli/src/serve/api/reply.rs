//! The API's answers and request parts: errors as one line with a status ([`ApiError`]), a
//! game's id from the path, JSON bodies read with a clear error, and the two layers every
//! request passes (the access rules; the HTTP layer's own 4xx answers made JSON).
//!
//! Key invariant: every error answer is `{"error": "<one line>"}` with its status.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::super::access::Access;
use super::super::edit_error::EditError;
use super::MAX_BODY;

/// An error answer: a status and one line.
#[derive(Debug)]
pub(super) struct ApiError {
    pub(super) status: StatusCode,
    message: String,
}

impl ApiError {
    pub(super) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        let message: String = message.into();
        ApiError {
            status,
            message: crate::text::one_line(&message),
        }
    }
    pub(super) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
    pub(super) fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }
    pub(super) fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }
}

impl From<EditError> for ApiError {
    /// A change of a game refused: a bad request, the error's line.
    fn from(error: EditError) -> ApiError {
        ApiError::bad(error.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(json!({"error": self.message}))).into_response()
    }
}

pub(super) type Reply = Result<Response, ApiError>;

/// The `{id}` of a game's path, or a 400 with one line (a path that is not UTF-8, say).
pub(super) struct GameId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<GameId, ApiError> {
        Path::<String>::from_request_parts(parts, state)
            .await
            .map(|Path(id)| GameId(id))
            .map_err(|e| ApiError::bad(format!("bad game id: {}", e.body_text())))
    }
}

pub(super) fn ok(value: Value) -> Reply {
    Ok(axum::Json(value).into_response())
}

/// Reads a JSON object body as `T` (an empty body reads as `{}`).
pub(super) fn body<T: for<'de> Deserialize<'de>>(bytes: &Bytes) -> Result<T, ApiError> {
    let bad = |e: serde_json::Error| ApiError::bad(format!("bad request body: {e}"));
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return serde_json::from_str("{}").map_err(bad);
    }
    let value: Value = serde_json::from_slice(bytes).map_err(bad)?;
    if !value.is_object() {
        return Err(ApiError::bad("bad request body: expected a JSON object"));
    }
    serde_json::from_value(value).map_err(bad)
}

/// Refuses a request the access rules do not allow (see [`super::super::access`]), before any
/// handler reads it.
pub(super) async fn guard(
    State(access): State<Arc<Access>>,
    request: Request,
    next: Next,
) -> Response {
    match access.check(request.method(), request.uri(), request.headers()) {
        Ok(()) => next.run(request).await,
        Err(refusal) => ApiError::new(refusal.status(), refusal.to_string()).into_response(),
    }
}

/// Turns the 4xx answers the HTTP layer gives by itself (a body over the limit, a method a
/// path does not take) into the API's JSON form with one line.
pub(super) async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|kind| kind.as_bytes().starts_with(b"application/json"));
    if !status.is_client_error() || is_json {
        return response;
    }
    let bytes = axum::body::to_bytes(response.into_body(), MAX_BODY)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let reason = match text.trim() {
        "" => status
            .canonical_reason()
            .unwrap_or("bad request")
            .to_lowercase(),
        text => plies::excerpt(text),
    };
    ApiError::new(status, reason).into_response()
}
