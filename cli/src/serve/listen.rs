//! The accept loop of `serve`: each connection is served as HTTP/1.1 by hyper with a timer, so
//! a client has the read timeout to send a request's headers, and a connection idle between
//! requests for that long is closed (a half-sent request or an idle socket cannot hold a
//! connection open for ever); at shutdown the connections are asked to finish and then,
//! after a short grace, dropped.
//!
//! Key invariant: every accepted connection is served with the same builder (the header read
//! timeout always on); an accept error never ends the loop (a full file table waits a moment
//! and tries again); only the shutdown signal does.

use std::future::Future;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

/// How long connections have to finish their requests once shutdown is asked for (an open
/// event stream never finishes by itself).
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// Serves `router` on the connections of `listener` until `shutdown` completes: the headers of
/// each request must arrive within `read_timeout`, which is also how long a connection may be
/// idle between requests.
pub(super) async fn serve(
    listener: TcpListener,
    router: Router,
    read_timeout: Duration,
    shutdown: impl Future<Output = ()>,
) {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(read_timeout)
        .keep_alive(true);
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(err) if is_connection_error(&err) => continue,
            Err(err) => {
                // Out of file descriptors, say: the next accept may work once some close.
                tracing::error!("accept failed: {err}");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(router.clone());
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            // A connection's error (a timeout, a reset) concerns that connection only.
            if let Err(err) = connection.await {
                tracing::debug!("connection closed: {err}");
            }
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
}

/// Errors of one connection that accepted and went away, not of the listener.
fn is_connection_error(err: &std::io::Error) -> bool {
    matches!(
        err.kind(),
        std::io::ErrorKind::ConnectionRefused
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::ConnectionReset
    )
}
