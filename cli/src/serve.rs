//! `serve`: the game's web page. A local HTTP server (axum on tokio) serves one page that draws
//! the board from the game's [`View`], takes moves by clicking, plays the engine, navigates
//! and takes back moves, and streams a running analysis; many tabs each have their own game.
//!
//! Key invariants: it listens on 127.0.0.1 unless `--listen` names another address; searches
//! run on blocking threads, never on the runtime's workers, so the server answers while they
//! run; the page's files are in the binary.

mod api;
mod page;
mod session;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use clap::Args;
use plies_view::View;

use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::position::{PositionArgs, start_position};

/// `serve`.
#[derive(Args, Debug)]
pub(crate) struct ServeArgs {
    #[command(flatten)]
    pub start: PositionArgs,
    /// The port to listen on (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on. The default, 127.0.0.1, takes connections from this machine
    /// only; another address (such as 0.0.0.0) lets anyone who can reach it play, analyse and
    /// start searches on this machine.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub listen: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Games kept in memory (a new game beyond that replaces the one left alone longest).
    #[arg(long, default_value_t = 256)]
    pub max_games: usize,
}

/// Runs the server until the process is interrupted.
///
/// # Errors
/// A bad start position, or the address cannot be listened on.
pub(crate) fn run<G: View>(
    spec: &GameCli<G>,
    args: &ServeArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let start: G = start_position(&args.start)?;
    if args.max_games == 0 {
        return Err(CliError::Invalid("bad --max-games 0: expected >= 1".into()));
    }
    let address = SocketAddr::new(args.listen, args.port);
    let listener = std::net::TcpListener::bind(address)
        .map_err(|e| CliError::Invalid(format!("cannot listen on {address}: {e}")))?;
    listener.set_nonblocking(true)?;
    let bound = listener.local_addr()?;
    let url = format!("http://{bound}/");
    writeln!(output, "{} page at {url} (Ctrl-C stops)", spec.name)?;
    output.flush()?;
    if args.open {
        open_browser(&url, output)?;
    }
    let app = Arc::new(api::App::new(
        spec.name,
        spec.evaluator.clone(),
        start,
        args.max_games,
        api::MAX_SEARCH_MS,
    ));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let stopper = Arc::clone(&app);
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let router = api::router(app).layer(tower_http::trace::TraceLayer::new_for_http());
        axum::serve(listener, router)
            .with_graceful_shutdown(async move {
                let _ = tokio::signal::ctrl_c().await;
                stopper.stop_all();
            })
            .await
    })?;
    Ok(())
}

/// Asks the desktop to open `url`; says so when it cannot (the URL is printed anyway).
fn open_browser(url: &str, output: &mut dyn Write) -> Result<(), CliError> {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(err) = std::process::Command::new(opener).arg(url).spawn() {
        writeln!(
            output,
            "could not open a browser ({opener}: {err}); open {url}"
        )?;
    }
    Ok(())
}

/// The page's routes for `spec`'s game starting at `start`, without a server: at most
/// `max_games` games kept, searches of at most `max_search_ms` each. For tests and fuzzing
/// (requests go through it in process); `serve` runs the same routes.
pub fn page_router<G: View>(
    spec: &GameCli<G>,
    start: G,
    max_games: usize,
    max_search_ms: u64,
) -> axum::Router {
    api::router(Arc::new(api::App::new(
        spec.name,
        spec.evaluator.clone(),
        start,
        max_games.max(1),
        max_search_ms.max(1),
    )))
}

#[cfg(test)]
mod tests;
